"""The recorder's trusted constructors make the objects the public constructors make."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from tileir.ir.module import EMPTY_ATTRS, Loc, freeze_attrs
from tileir.record.markers import In, Param, cells
from tileir.record.tile import Tile, make_tile
from tileir.types import (
    F32,
    I32,
    PointerType,
    TileType,
    canonical_pointer_type,
    canonical_tile_type,
    shared_tile_type,
)


def _slots(obj: object) -> dict:
    return {f.name: getattr(obj, f.name) for f in attrs.fields(type(obj))}


def test_canonical_tile_type_is_the_constructors_type():
    for shape, element in (((), I32), ((4, 8), F32), ((2,), PointerType(F32))):
        fast, made = canonical_tile_type(shape, element), TileType(shape, element)
        assert type(fast) is TileType
        assert fast == made and hash(fast) == hash(made) and str(fast) == str(made)
        assert _slots(fast) == _slots(made)


def test_shared_tile_type_shares_plain_shapes_and_converts_the_rest():
    assert shared_tile_type((4, 8), F32) is canonical_tile_type((4, 8), F32)
    for odd in ([4, 8], (np.int64(4), 8)):  # (a list, a numpy int: the constructor's way)
        made = shared_tile_type(odd, F32)
        assert made == TileType((4, 8), F32) and _slots(made) == _slots(TileType((4, 8), F32))
        assert made is not canonical_tile_type((4, 8), F32)
        assert all(type(d) is int for d in made.shape)


def test_canonical_pointer_types_are_shared_and_checked():
    assert canonical_pointer_type(F32, "none") is canonical_pointer_type(F32, "none")
    assert canonical_pointer_type(F32) == PointerType(F32)
    assert canonical_pointer_type(F32) is not canonical_pointer_type(F32, "none")
    with pytest.raises(ValueError):
        canonical_pointer_type(F32, "no such attribute")


def test_canonical_tile_types_of_one_shape_and_element_are_one_object_until_memos_clear():
    from tileir.ir.memo import clear_memos

    first = canonical_tile_type((4, 8), F32)
    assert canonical_tile_type((4, 8), F32) is first
    # an equal element that is another object gets a type of its own, equal to the first
    other = PointerType(F32)
    assert canonical_tile_type((4,), other) is not canonical_tile_type((4,), PointerType(F32))
    assert canonical_tile_type((4,), other) == canonical_tile_type((4,), PointerType(F32))
    clear_memos()
    again = canonical_tile_type((4, 8), F32)
    assert again is not first and again == first and hash(again) == hash(first)


def test_make_tile_is_the_constructors_tile():
    ttype = TileType((4,), F32)
    loc = Loc("k.py", 3, 5, "k")
    arg = Tile("iota", (), {}, TileType((4,), I32))
    for attrs_ in ({}, {"axis": 1}):
        fast = make_tile("addf", (arg, arg), freeze_attrs(attrs_), ttype, loc, ())
        made = Tile("addf", [arg, arg], attrs_, ttype, loc)
        assert fast == made and hash(fast) == hash(made)
        assert _slots(fast) == _slots(made) and fast.loc is loc
    assert make_tile("iota", (), EMPTY_ATTRS, ttype).attrs is Tile("iota", (), {}, ttype).attrs


def test_derived_slots_follow_the_fields():
    g = cells([100, 64], [32, 64])
    assert g.counts == (4, 1) and g.ragged == (0,)
    p = Param(0, In(F32, g))
    assert (p.cells, p.format, p.role) == (g, F32, "In")
    view = cells([100], [128])
    assert Param(0, In(F32, g), view).cells is view
    assert attrs.evolve(g, tile=(64, 64)).counts == (2, 1)


def test_the_instruction_program_and_emit_makers_are_the_constructors_objects():
    from tileir.record.builder import NO_INSTRS, Builder, Emit, make_builder, make_emit
    from tileir.record.program import (
        Access,
        Load,
        Program,
        Store,
        make_load,
        make_program,
        make_store,
    )

    g = cells([256], [128])
    ttype = TileType((128,), F32)
    loc = Loc("k.py", 3, 5, "k")
    index = (Tile("block_id", (), {"axis": 0}, TileType((), I32)),)
    value = Tile("iota", (), {}, ttype)
    access = Access(latency=3)
    pairs = [
        (
            make_load(4, 0, g, index, ttype, loc, access),
            Load(4, 0, g, list(index), ttype, loc, access),
        ),
        (
            make_store(1, g, index, value, loc, access),
            Store(1, g, list(index), value, loc, access),
        ),
    ]
    load, store = pairs[0][0], pairs[1][0]
    params = (Param(0, In(F32, g)),)
    pairs.append(
        (
            make_program("k", params, (load, store), (2,), loc, None, True),
            Program("k", list(params), [load, store], (2,), loc, None, True),
        )
    )
    pairs.append(
        (make_emit("load_view_tko", load, ttype, loc, ()), Emit("load_view_tko", load, ttype, loc))
    )
    loops = (("for", (ttype,)),)
    pairs.append(
        (
            make_builder("k", params, NO_INSTRS.append(load), 3, loops),
            Builder("k", params, NO_INSTRS.append(load), 3, loops),
        )
    )
    for fast, made in pairs:
        assert type(fast) is type(made) and fast == made and _slots(fast) == _slots(made)
        if type(made).__hash__ is not None:
            assert hash(fast) == hash(made)


def test_make_param_is_the_constructors_param():
    from tileir.record.markers import Out, Scalar, Shared, make_param

    g = cells([100, 64], [32, 64])
    markers = (In(F32, g), Out(F32, g, unwritten_ok=True), Shared(F32), Scalar(I32))
    for i, marker in enumerate(markers):
        fast, made = make_param(i, marker), Param(i, marker)
        assert type(fast) is Param and fast == made and hash(fast) == hash(made)
        assert _slots(fast) == _slots(made) and repr(fast) == repr(made)


def test_trace_makes_the_constructors_kernel_and_recipe():
    # trace makes its Kernel and Recipe by object.__new__ and slot setters (tileir.ir.drafts):
    # they must be what the constructors make, slot for slot
    from tileir import Out, load_cell, store_cell
    from tileir.kernel import Kernel, Recipe, trace

    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, t)

    g = cells([256], [128])
    markers = (In(F32, g), Out(F32, g))
    k = trace("copy", body, *markers)
    recipe = Recipe("copy", body, markers, None, True)
    made = Kernel(k.program, k.module, recipe=recipe)
    assert type(k.recipe) is Recipe and _slots(k.recipe) == _slots(recipe)
    assert type(k) is Kernel and _slots(k) == _slots(made) and k == made
    assert hash(k) == hash(made)


def test_the_markers_constructors_take_what_attrs_would():
    # The markers write their own constructors (init=False, for speed): their parameters must
    # be attrs' fields in order, with the same defaults and keyword-only ones, and the
    # objects what the fields say, checked as attrs' constructor would check them
    import inspect

    import pytest

    from tileir.errors import UsageError
    from tileir.record.markers import Out, Scalar, Shared

    for cls in (In, Out, Shared, Scalar):
        assert "attrs generated" not in cls.__init__.__code__.co_filename  # (its own)
        params = list(inspect.signature(cls).parameters.values())
        fields = attrs.fields(cls)
        assert [p.name for p in params] == [f.name for f in fields if not f.kw_only] + [
            f.name for f in fields if f.kw_only
        ]
        for p in params:
            f = getattr(fields, p.name)
            assert (p.kind is inspect.Parameter.KEYWORD_ONLY) == f.kw_only, p.name
            if p.default is not inspect.Parameter.empty:
                assert p.default == f.default, p.name
    g = cells([256], [128])
    out = Out(F32, g, ptr_attr="none", unwritten_ok=True)
    assert (out.format, out.cells, out.ptr_attr, out.unwritten_ok) == (F32, g, "none", True)
    assert attrs.evolve(out, unwritten_ok=False) == Out(F32, g, ptr_attr="none")
    assert In(F32, g) == attrs.evolve(In(F32, g, ptr_attr="none"), ptr_attr=None)
    shared = Shared(F32, g, ptr_attr="none")
    assert (shared.format, shared.cells, shared.ptr_attr) == (F32, g, "none")
    assert (
        Shared(F32) == attrs.evolve(shared, cells=None, ptr_attr=None)
        and Shared(F32).cells is None
    )
    assert (Scalar(I32).format, Scalar(I32).ptr_attr) == (I32, None)
    assert attrs.evolve(Scalar(I32), format=F32) == Scalar(F32)
    for bad in (
        lambda: In("f32", g),
        lambda: Out(F32),
        lambda: In(F32, g, ptr_attr="far"),
        lambda: Shared("f32"),
        lambda: Shared(F32, [4]),
        lambda: Shared(F32, ptr_attr="far"),
        lambda: Scalar(F32, ptr_attr="none"),
        lambda: Scalar("i32"),
    ):
        with pytest.raises(UsageError):
            bad()


def _equal_pairs() -> dict:
    """Per class whose hash is kept as a plain int (Tile's and TileType's, written in their
    modules): two equal objects (the public constructor's and the trusted path's) and an
    unequal one."""
    ttype = TileType((4,), F32)
    return {
        # (loc and lanes are outside equality, so outside the hash too)
        "Tile": (
            Tile("constant", (), {"value": 1.0}, ttype, Loc("k.py", 3, 1)),
            make_tile(
                "constant", (), freeze_attrs({"value": 1.0}), canonical_tile_type((4,), F32)
            ),
            Tile("constant", (), {"value": 2.0}, ttype),
        ),
        "TileType": (ttype, canonical_tile_type((4,), F32), TileType((4,), I32)),
    }


@pytest.mark.parametrize("kind", sorted(_equal_pairs()))
def test_a_kept_hash_is_a_plain_int_that_equal_objects_share_and_pickling_drops(kind):
    import pickle

    made, other, different = _equal_pairs()[kind]
    assert made == other and made is not other
    assert made._attrs_cached_hash is None  # (computed on first use)
    h = hash(made)
    assert type(made._attrs_cached_hash) is int and made._attrs_cached_hash == h == hash(made)
    assert hash(other) == h and made != different
    # a pickled object carries no hash: one unpickled in a process of another hash seed
    # computes its own (attrs' state leaves the slot out)
    copy = pickle.loads(pickle.dumps(made))
    assert copy == made and copy._attrs_cached_hash is None and hash(copy) == h
    assert {made: 1}[other] == 1 and len({made, other, different}) == 2


def test_format_named_is_the_shared_format_and_refuses_what_format_refuses():
    from tileir.types import FORMATS, Format, format_named

    for f in FORMATS:
        assert format_named(f.name) is f and format_named(f.name) == Format(f.name)
    for bad in ("f33", "F32", 32):
        with pytest.raises(ValueError, match="unknown element format"):
            format_named(bad)  # type: ignore[arg-type]


def test_a_tiles_hash_is_the_same_whether_its_parts_were_hashed_first_or_not():
    from tileir.ir.attrmap import AttrMap

    def build(hash_parts_first: bool) -> Tile:
        ttype = TileType((4,), F32)  # (a fresh type object, its hash not kept yet)
        x = Tile("param", (), {"index": 0}, ttype)
        y = Tile("param", (), {"index": 1}, TileType((4,), F32))
        attrs = AttrMap({"rounding_mode": "nearest_even"})  # (a fresh map, not hashed)
        if hash_parts_first:
            hash(ttype), hash(x), hash(y), hash(attrs)
        return Tile("addf", (x, y), attrs, ttype)

    cold, warm = build(False), build(True)
    assert cold == warm and hash(cold) == hash(warm)
    # and a tile of other parts hashes otherwise (the parts are in the hash)
    assert hash(Tile("addf", cold.args[::-1], cold.attrs, cold.type)) != hash(cold)
