"""The lowering's fast constructors give what the normal ones give, field for field."""

from __future__ import annotations

from tileir.ir.module import (
    EMPTY_ATTRS,
    Block,
    Loc,
    Op,
    Value,
    clean_attrs,
    freeze_attrs,
    trusted_block,
    trusted_op,
    trusted_op1,
    trusted_op_n,
    trusted_value,
)
from tileir.types import F32, I32, TileType

_FIELDS = ("name", "operands", "results", "attrs", "regions", "segments", "loc")


def test_trusted_value_is_the_constructed_value():
    t = TileType((4,), F32)
    fast, slow = trusted_value(3, t), Value(3, t)
    assert type(fast) is Value
    assert (fast.id, fast.type) == (slow.id, slow.type)
    assert fast == slow and hash(fast) == hash(slow)


def test_trusted_op_is_the_constructed_op_field_for_field():
    t = TileType((), I32)
    a, b, c = Value(0, t), Value(1, t), Value(2, t)
    inner = Block((a,), (Op("yield", (a,)),))
    attrs = clean_attrs("cmpi", freeze_attrs({"comparison_predicate": "less_than"}))
    loc = Loc("k.py", 3, 5)
    args = ("cmpi", (a, b), (c,), attrs, (inner,), (1, 1), loc)
    fast, slow = trusted_op(*args), Op(*args)
    assert type(fast) is Op
    for f in _FIELDS:
        assert getattr(fast, f) == getattr(slow, f), f
    assert fast == slow and hash(fast) == hash(slow)


def test_clean_attrs_drops_what_the_op_constructor_drops():
    # signedness "signed" is cmpi's declared default: the constructor drops it
    raw = freeze_attrs({"comparison_predicate": "less_than", "signedness": "signed"})
    t = TileType((), I32)
    a, r = Value(0, t), Value(1, TileType((), I32))
    made = Op("cmpi", (a, a), (r,), raw)
    assert clean_attrs("cmpi", raw) == made.attrs
    assert "signedness" not in clean_attrs("cmpi", raw)
    assert clean_attrs("cmpi", raw) is clean_attrs("cmpi", raw)  # memoized by identity
    assert clean_attrs("addf", EMPTY_ATTRS) is EMPTY_ATTRS


def test_trusted_op1_is_the_constructed_one_result_op():
    t = TileType((4,), F32)
    a = Value(0, t)
    loc = Loc("k.py", 7, 2)
    fast = trusted_op1("negf", (a,), 1, t, EMPTY_ATTRS, loc)
    slow = Op("negf", (a,), (Value(1, t),), EMPTY_ATTRS, (), None, loc)
    for f in _FIELDS:
        assert getattr(fast, f) == getattr(slow, f), f
    assert type(fast.results[0]) is Value and fast == slow and hash(fast) == hash(slow)


def test_trusted_ops_are_frozen_weakly_referable_and_pickle_as_made():
    # a trusted op is built as its draft class and becomes an Op: it must be an Op in every
    # way the fake device and the tools rely on (frozen, weakly referable, picklable)
    import pickle
    import weakref

    import attrs
    import pytest

    t = TileType((4,), F32)
    a = trusted_value(0, t)
    op = trusted_op1("negf", (a,), 1, t, EMPTY_ATTRS, Loc("k.py", 1, 1))
    for made in (a, op, op.results[0]):
        assert weakref.ref(made)() is made
        assert pickle.loads(pickle.dumps(made)) == made
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        op.name = "absf"  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        a.id = 5  # type: ignore[misc]


def test_trusted_op_n_is_the_constructed_op_with_its_results():
    t, u = TileType((4,), F32), TileType((), I32)
    a = Value(0, t)
    inner = Block((), (Op("yield", ()),))
    loc = Loc("k.py", 9, 1)
    for types in ((), (t,), (t, u), (u, u, u)):
        fast = trusted_op_n("x", (a,), 5, types, EMPTY_ATTRS, (inner,), (1,), loc)
        results = tuple(Value(5 + i, ty) for i, ty in enumerate(types))
        slow = Op("x", (a,), results, EMPTY_ATTRS, (inner,), (1,), loc)
        for f in _FIELDS:
            assert getattr(fast, f) == getattr(slow, f), f
        assert all(type(r) is Value for r in fast.results)
        assert fast == slow and hash(fast) == hash(slow)


def test_trusted_op1_with_segments_and_regions_is_the_constructed_op():
    t = TileType((4,), F32)
    a = Value(0, t)
    inner = Block((a,), (Op("yield", (a,)),))
    loc = Loc("k.py", 4, 3)
    for segments, regions in (((1, 0, 0), ()), (None, (inner,)), ((1,), (inner,))):
        fast = trusted_op1("x", (a,), 1, t, EMPTY_ATTRS, loc, segments, regions)
        slow = Op("x", (a,), (Value(1, t),), EMPTY_ATTRS, regions, segments, loc)
        for f in _FIELDS:
            assert getattr(fast, f) == getattr(slow, f), f
        assert fast == slow and hash(fast) == hash(slow)


def test_trusted_block_is_the_constructed_block():
    import pickle
    import weakref

    t = TileType((), I32)
    a = Value(0, t)
    for args, ops in (((), ()), ((a,), (Op("yield", (a,)),))):
        fast, slow = trusted_block(args, ops), Block(args, ops)
        assert type(fast) is Block
        assert (fast.args, fast.ops) == (slow.args, slow.ops)
        assert fast == slow and hash(fast) == hash(slow)
        assert weakref.ref(fast)() is fast and pickle.loads(pickle.dumps(fast)) == fast


def test_trusted_function_and_module_are_the_constructed_ones():
    # the lowering makes its Function and Module as drafts: they must be what the normal
    # constructors make, field for field, and frozen, hashable and picklable like them
    import pickle

    import attrs
    import pytest

    from tileir.ir.module import Function, Module, trusted_function, trusted_module

    t = TileType((4,), F32)
    params = (Value(0, t), Value(1, t))
    body = Block((), (Op("return", ()),))
    loc = Loc("k.py", 2, 1)
    fast = trusted_function("k", params, body, None, loc)
    slow = Function("k", params, body, None, loc)
    assert type(fast) is Function
    for f in attrs.fields(Function):
        assert getattr(fast, f.name) == getattr(slow, f.name), f.name
    assert fast == slow and hash(fast) == hash(slow)
    m_fast, m_slow = trusted_module((fast,), ()), Module((slow,), ())
    assert type(m_fast) is Module
    for f in attrs.fields(Module):
        assert getattr(m_fast, f.name) == getattr(m_slow, f.name), f.name
    assert m_fast == m_slow
    assert pickle.loads(pickle.dumps(m_fast)) == m_fast
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        m_fast.name = "other"  # type: ignore[misc]
