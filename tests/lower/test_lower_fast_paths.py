"""The lowering's fast paths give what its general paths give.

* ``emit_exact`` makes the op ``emit`` makes from the same fields;
* a guard's widening (``_pair``: shapes that agree, a location-less leaf's widening
  memoized) is ``widen_pair``'s, locations included, cold and warm;
* an access's attribute map, memoized by the access's fields, is the one made directly;
* a static tensor view's memoized type is the type the general (DYN_DIM-capable) path
  works out from the strides, and a partition view's memoized type the one made directly;
* a named reduction's memoized parts keep 0.0 and -0.0 identities apart (the memo is keyed
  by the attribute map, which freeze_attrs never shares between the two);
* a guard's widening (``_pair``: shapes that agree, a location-less leaf's widening
  memoized) is ``widen_pair``'s, locations included, cold and warm;
* an access's attribute map, memoized by the access's fields, is the one made directly;
* a static tensor view's memo is keyed by every value its type reads (format, extent,
  pointer attribute): parameters that differ in one of them get their own types;
* ``emit1`` with segments or regions makes the op ``emit`` makes;
* an entry, memoized by what it reads of each parameter (index, role, format, pointer
  attribute, extent), is the one the convention gives, for parameters differing in each;
* a loop's, a guard's assert's and an atomic's memoized attributes are the ones made
  directly (a loop's keep 1 and True apart, as freeze_attrs does);
* a block restores what it bound over and removes what it bound fresh;
* a kernel recorded anew and lowered with every memo warm (its entry, views and attribute
  maps found there by value) gives the Module, locations included, that it gives with every
  memo cold.
"""

from __future__ import annotations

import pytest

from tileir import DYN_DIM, In, Out, Scalar, cells
from tileir.ir.memo import clear_memos
from tileir.ir.module import EMPTY_ATTRS, Block, Loc, Module, Op, clean_attrs, freeze_attrs, walk
from tileir.ir.numerics import dense_of
from tileir.kernels import registry
from tileir.lower import addressing, guards, memory
from tileir.lower.lowering import _entry, _for_attrs, _Lowering, _named_reduction, lower
from tileir.record.convention import dyn_extents, entry_param_types, trace_params
from tileir.record.program import Access
from tileir.record.tile import Tile, drop_defaults, widen_pair
from tileir.types import F16, F32, I1, I32, I64, TOKEN, PartitionViewType, TileType

_FIELDS = ("name", "operands", "results", "attrs", "regions", "segments", "loc")


def _walk_of(name: str) -> _Lowering:
    walk = _Lowering(registry.get(name).build().program)
    walk.open_block({})
    return walk


def test_emit_exact_makes_the_op_emit_makes():
    fast, slow = _walk_of("vadd"), _walk_of("vadd")
    attrs = clean_attrs("assert", freeze_attrs({"message": "m"}))
    p = fast.params[0]
    a = fast.emit_exact("load_ptr_tko", (p, p), (p.type, TOKEN), attrs, (1, 0, 0, 1), None)
    b = slow.emit("load_ptr_tko", [p, p], [p.type, TOKEN], {"message": "m"}, segments=[1, 0, 0, 1])
    assert a == b and fast.next_id == slow.next_id
    for f in _FIELDS:
        assert getattr(fast.ops[-1], f) == getattr(slow.ops[-1], f), f


@pytest.mark.parametrize("name", ["vadd", "transpose", "matmul", "flash_attn"])
def test_a_static_tensor_view_type_is_the_general_paths(name):
    walk = _walk_of(name)
    for index, p in enumerate(walk.program.params):
        if p.cells is None:
            continue
        base = walk.params[index]
        general = walk._dynamic_tensor_view(index, p, base, p.cells, None)
        assert addressing._static_tensor_view_type(p, p.cells) == general.type
        tv = general.type
        for padded in (True, False):
            direct = PartitionViewType(
                p.cells.tile, tv, tuple(range(len(p.cells.tile))), p.cells.pad if padded else None
            )
            assert addressing._partition_view_type(p.cells, tv, padded) == direct


def test_named_reductions_keep_signed_zero_identities_apart():
    pos = freeze_attrs({"combiner": "sum", "identity": 0.0, "dim": 0})
    neg = freeze_attrs({"combiner": "sum", "identity": -0.0, "dim": 0})
    assert pos is not neg
    bits = {_named_reduction(m, F32)[3]["identities"][0].bits for m in (pos, neg, pos, neg)}
    assert len(bits) == 2


def test_a_static_tensor_view_type_is_keyed_by_every_value_it_reads():
    grid = cells([256, 64], [32, 64])
    params = trace_params(
        In(F32, grid),
        In(F16, grid),
        In(F32, grid, ptr_attr="none"),
        In(F32, cells([64, 256], [32, 64])),
        In(F32, cells([DYN_DIM, 64], [32, 64])),
    )
    clear_memos()
    made = [addressing._static_tensor_view_type(p, p.cells) for p in params]
    assert made[-1] is None  # a DYN_DIM extent: the general path's
    assert len(set(made[:-1])) == 4
    walk = _walk_of("vadd")
    for p, tv in zip(params[:-1], made):
        # (static extents: the general path reads the parameter's marker, not its index)
        general = walk._dynamic_tensor_view(0, p, walk.params[0], p.cells, None)
        assert tv == general.type


def _module_with_locs(m: Module) -> list:
    return [(op, op.loc) for op in walk(m.functions[0].body)]


@pytest.mark.parametrize(
    "name",
    ["vadd", "softmax", "transpose", "histogram", "flash_attn", "cumsum_rows_f32_rev"]
    + ["dyn_div_by_length", "dyn_cells_blocks"],
)
def test_a_kernel_recorded_anew_lowers_warm_as_it_lowers_cold(name):
    spec = registry.get(name)
    clear_memos()
    cold = lower(spec.build().program)
    warm = lower(spec.build().program)
    again = lower(spec.build().program)
    assert cold == warm == again
    assert _module_with_locs(cold) == _module_with_locs(warm) == _module_with_locs(again)


def _tiles_with_locs(t):
    """A tile as its value and every node's location (Tile equality leaves locations out)."""
    return (t, t.loc, tuple(_tiles_with_locs(a) for a in t.args))


def test_a_guards_widening_is_widen_pairs():
    at = Loc("k.py", 3, 1)
    i64, i1 = TileType((), I64), TileType((), I1)
    lane = Tile("param", (), {"index": 0}, TileType((8,), I64), at)
    grid = Tile("param", (), {"index": 1}, TileType((4, 8), I64), at)
    leaves = [
        guards._i64(0),
        guards._count_param(5),
        guards._true(),
        Tile("constant", (), {"value": dense_of(i64, 7)}, i64, at),  # a located leaf
        Tile("exti", (guards._i64(1),), {}, i64),  # not a leaf
        Tile("param", (), {"index": 2}, TileType((8,), I1)),
        lane,
    ]
    clear_memos()
    for _ in range(2):  # cold, then warm
        for a in (lane, grid, guards._i64(3)):
            for b in leaves:
                try:
                    slow = widen_pair("cmpi", a, b)
                except Exception:
                    continue
                fast = guards._pair("cmpi", a, b)
                assert [_tiles_with_locs(t) for t in fast] == [_tiles_with_locs(t) for t in slow]
    for pred in ("less_than", "greater_than_or_equal", "less_than_or_equal", "equal"):
        made = drop_defaults("cmpi", {"comparison_predicate": pred, "signedness": "signed"})
        assert guards._cmp_attrs(pred) == made
    assert guards._count_param(5) == Tile("param", (), {"index": 5}, i64)
    assert guards._true() == Tile("constant", (), {"value": dense_of(i1, 1)}, i1)


def test_an_accesss_memoized_attributes_are_the_ones_made_directly():
    accesses = [
        Access(),
        Access("relaxed", "device"),
        Access(latency=3),
        Access(latency=1),
        Access(latency=True),  # equal to latency=1: one map
        Access(allow_tma=False),
        Access(allow_tma=0),
        Access(inbounds=(True, False)),
        Access(inbounds=(False, False)),
        Access("acquire", "tl_blk", 2, True, (True,)),
    ]
    clear_memos()
    for _ in range(2):  # cold, then warm
        for a in accesses:
            for op in ("load_view_tko", "store_ptr_tko"):
                direct = clean_attrs(op, freeze_attrs(a.attrs()))
                assert memory._access_attrs(op, a) == direct


def test_emit1_with_segments_and_regions_makes_the_op_emit_makes():
    fast, slow = _walk_of("vadd"), _walk_of("vadd")
    p = fast.params[0]
    inner = Block((), (Op("yield", ()),))
    a = fast.emit1("make_tensor_view", (p,), p.type, EMPTY_ATTRS, None, (1, 0, 0))
    b = slow.emit("make_tensor_view", [p], [p.type], segments=[1, 0, 0])
    c = fast.emit1("reduce", (p,), p.type, EMPTY_ATTRS, None, None, (inner,))
    d = slow.emit("reduce", [p], [p.type], {}, [inner])
    assert (a, c) == (b[0], d[0]) and fast.next_id == slow.next_id
    for made, expected in zip(fast.ops, slow.ops):
        for f in _FIELDS:
            assert getattr(made, f) == getattr(expected, f), f


def test_an_entry_is_keyed_by_every_value_it_reads():
    grid = cells([256, 64], [32, 64])
    markers = [
        In(F32, grid),
        In(F16, grid),
        In(F32, grid, ptr_attr="none"),
        In(F32, cells([DYN_DIM, 64], [32, 64])),
        Out(F32, grid),
        Scalar(I32),
        Scalar(F32),
    ]
    clear_memos()
    for _ in range(2):  # cold, then warm
        for m in markers:
            for others in ((), (Scalar(I32),), (In(F32, cells([DYN_DIM], [64])),)):
                params = trace_params(m, *others)
                for guarded in ((), (0,)):
                    values, extents, counts = _entry(params, guarded)
                    types = entry_param_types(params, guarded)
                    assert tuple(v.type for v in values) == types
                    assert list(extents) == list(dyn_extents(params))
                    assert list(counts) == list(guarded)


def test_the_memoized_op_attributes_are_the_ones_made_directly():
    clear_memos()
    for _ in range(2):  # cold, then warm
        for flag in (False, True, 0, 1):
            direct = clean_attrs("for", freeze_attrs({"unsigned_cmp": flag}))
            made = _for_attrs(flag)
            assert made == direct and [type(v) for v in made.values()] == [
                type(v) for v in direct.values()
            ]
        for message in ("kernel `k`: a lane", "another"):
            direct = clean_attrs("assert", freeze_attrs({"message": message}))
            assert guards._assert_attrs(message) == direct
        for key in (("relaxed", "device", "add"), ("acq_rel", "sys", "max")):
            ordering, scope, mode = key
            fields = {"memory_ordering": ordering, "memory_scope": scope, "mode": mode}
            direct = clean_attrs("atomic_rmw_tko", freeze_attrs(fields))
            assert memory._rmw_attrs(*key) == direct


def test_a_block_restores_what_it_bound_over_and_removes_what_it_made():
    walk = _walk_of("vadd")
    walk.bind("outer", 1)
    walk.open_block({"arg": 2})
    walk.bind("outer", 3)  # over the enclosing block's binding
    walk.bind("fresh", 4)
    walk.bind("fresh", 5)  # bound fresh, then again in the same block
    assert (walk.lookup("outer"), walk.lookup("fresh"), walk.lookup("arg")) == (3, 5, 2)
    walk.close_block()
    assert walk.env == {"outer": 1}


def test_the_guarded_buffers_come_in_parameter_order_however_the_body_reaches_them():
    # (guarded_params sorts only when there are two or more; a set of 8 and 1 iterates 8 first)
    from tileir import F32, In, Shared, cells, load, load_cell, store, trace

    g = cells([256], [128])
    markers = (In(F32, g),) + tuple(Shared(F32) for _ in range(8))

    def body(x, *shared):
        t = yield load_cell(x)
        yield store(shared[7], 0, t)  # parameter 8 first, then parameter 1
        u = yield load(shared[0], 0, (128,))
        yield store(shared[7], 128, u)

    assert trace("two_buffers", body, *markers).guarded == (1, 8)

    def one(x, *shared):
        t = yield load_cell(x)
        yield store(shared[7], 0, t)

    assert trace("one_buffer", one, *markers).guarded == (8,)


def test_a_parameter_guards_memoized_assert_names_its_own_kernel_and_line():
    from tileir import trace

    recipe = registry.get("transpose").build().recipe
    assert recipe is not None

    def messages(name):
        kernel = trace(name, recipe.body, *recipe.markers, hints=recipe.hints, checked=True)
        return [
            op.attrs["message"]
            for op in walk(kernel.module.functions[0].body)
            if op.name == "assert"
        ]

    clear_memos()
    first = messages("transpose")
    assert first and all("kernel `transpose`: `store_ptr_tko`: " in m for m in first)
    assert messages("transpose") == first  # (recorded again: from the memo)
    assert messages("other") == [m.replace("`transpose`", "`other`") for m in first]
    assert messages("transpose") == first
