"""The recorder's fast paths give what its general paths give, locations and lanes included."""

from __future__ import annotations

import sys
from typing import Any

import attrs
import numpy as np
import pytest

from tileir import kernel as kernel_module
from tileir.errors import RecordingError, UsageError
from tileir.ir.memo import clear_memos
from tileir.ir.module import freeze_attrs
from tileir.kernel import record
from tileir.kernels import registry
from tileir.ops.memory import load_cell, store_cell
from tileir.record import builder as builder_module
from tileir.record import tile as tile_module
from tileir.record.builder import Builder, drive, var_attrs
from tileir.record.markers import DYN_DIM, FREE_AXIS, In, Out, cells
from tileir.record.source import CALLER, user_loc
from tileir.types import F32

#: kernels whose bodies use every kind of effect the fast paths meet: loads of ragged cells,
#: stores, the pointer path, loops and branches, helpers
KERNELS = ("vadd", "vadd_tail", "softmax", "matmul", "transpose", "histogram", "flash_attn")


def _deep(value: Any) -> Any:
    """``value`` as nested tuples of every field, those outside equality (locations, lanes)
    included, so two recordings compare wholly."""
    if attrs.has(type(value)):
        fields = attrs.fields(type(value))
        return (type(value).__name__,) + tuple(_deep(getattr(value, f.name)) for f in fields)
    if isinstance(value, (tuple, list)) or type(value).__name__ == "PVector":
        return tuple(_deep(v) for v in value)
    return value


class _NoEmit:
    """Stands for Emit in drive's ``type(effect) is _DRIVE_APPLIES`` test, which then fails for
    every effect: each one goes through its own ``apply``, with a Builder made per effect."""


@pytest.mark.parametrize("name", KERNELS)
def test_drive_records_what_each_effects_apply_records(name, monkeypatch):
    recipe = registry.get(name).build().recipe
    program = record(name, recipe.body, *recipe.markers)
    params = tuple(program.params)
    fast, fast_value = drive(Builder(name, params), recipe.body(*params))
    # record drives the Builder's fields (drive_state) and keeps only the instructions
    assert _deep(program.body) == _deep(fast.instrs)
    monkeypatch.setattr(builder_module, "_DRIVE_APPLIES", _NoEmit)
    general, general_value = drive(Builder(name, params), recipe.body(*params))
    assert _deep(fast) == _deep(general) and fast_value == general_value
    assert len(fast.instrs) > 0


@pytest.mark.parametrize("name", KERNELS)
def test_a_recording_with_warm_memos_is_the_cold_one(name):
    recipe = registry.get(name).build().recipe

    def again():
        return record(name, recipe.body, *recipe.markers, hints=recipe.hints)

    clear_memos()
    cold = again()
    warm = again()
    assert _deep(warm) == _deep(cold)


def test_var_attrs_are_freeze_attrs_of_the_id():
    for ident in (0, 1, 7, 4095):
        assert var_attrs(ident) == freeze_attrs({"id": ident})
        assert var_attrs(ident) is var_attrs(ident)


def test_user_loc_from_the_caller_is_user_locs_answer():
    # a function of tileir's own (compiled as tile.py's) asks both ways: its own frame is
    # tileir's, so starting at its caller changes nothing
    namespace = {"user_loc": user_loc, "CALLER": CALLER}
    source = "def asks():\n    return user_loc(), user_loc(CALLER)\n"
    exec(compile(source, tile_module.__file__, "exec"), namespace)
    plain, from_caller = namespace["asks"]()
    assert plain == from_caller and plain is not None and plain.file == __file__


def _traced(run):
    """``run()`` with a line and opcode tracer on (as coverage and debuggers run code)."""

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        return tracer

    sys.settrace(tracer)
    try:
        return run()
    finally:
        sys.settrace(None)


@pytest.mark.parametrize("name", ("row_softmax", "flash_attn"))
def test_locations_under_a_tracer_are_the_untraced_ones(name):
    # the locations are kept per code object and instruction: the line a traced frame
    # reports must be the one the line table gives for that instruction
    recipe = registry.get(name).build().recipe

    def again():
        return record(name, recipe.body, *recipe.markers, hints=recipe.hints)

    clear_memos()
    traced = _traced(again)
    clear_memos()
    assert _deep(again()) == _deep(traced)


@pytest.mark.parametrize("name", ("vadd_tail", "histogram", "transpose"))
def test_an_instruction_with_its_result_is_evolves_answer(name):
    from tileir.record.builder import _with_result
    from tileir.record.program import walk_instructions

    recipe = registry.get(name).build().recipe
    program = record(name, recipe.body, *recipe.markers)
    for ins in walk_instructions(program.body):
        if hasattr(ins, "result"):
            fast, made = _with_result(ins, 41), attrs.evolve(ins, result=41)
            assert type(fast) is type(made) and _deep(fast) == _deep(made)


def test_a_named_reductions_attributes_are_its_frozen_dict():
    from tileir.ops.reductions import _named_attrs
    from tileir.record.tile import float_identity
    from tileir.types import BF16, F32, I8, I32

    for combiner in ("sum", "max", "min", "prod"):
        for fmt in (F32, BF16, I32, I8):
            for d in (0, 1):
                made = freeze_attrs(
                    {"dim": d, "combiner": combiner, "identity": float_identity(combiner, fmt)}
                )
                kept = _named_attrs(combiner, d, fmt)
                assert kept == made and list(kept.items()) == list(made.items())
                assert [type(v) for v in kept.values()] == [type(v) for v in made.values()]


@pytest.mark.parametrize("kind", ("add", "sub", "mul", "div", "floordiv", "rem", "max", "and"))
def test_an_element_wise_op_of_one_shared_type_is_the_general_paths(kind):
    from tileir.ir.module import EMPTY_ATTRS, Loc
    from tileir.record.tile import Tile, binary, binary_at
    from tileir.types import F32, I32, TileType, canonical_tile_type

    loc = Loc("k.py", 7, 9, "k")
    for fmt in (F32, I32):
        if kind in ("and", "floordiv") and fmt is F32:
            continue
        shared = canonical_tile_type((4, 8), fmt)
        x = Tile("iota", (), {}, shared, loc)
        y = Tile("iota", (), {"n": 1}, shared, loc)
        fast = binary_at(kind, x, y, loc, EMPTY_ATTRS)  # one type object: made at once
        # an equal type that is another object, and an attribute (None: dropped) that takes
        # the general path
        other = Tile("iota", (), {"n": 1}, TileType((4, 8), fmt), loc)
        assert _deep(binary_at(kind, x, other, loc, EMPTY_ATTRS)) == _deep(fast)
        general = binary(kind, x, y, rounding=None) if kind != "floordiv" else None
        if general is not None:
            assert _deep(attrs.evolve(general, loc=loc)) == _deep(fast)


def test_the_arithmetic_table_by_kind_is_the_pair_table():
    from tileir.record.tile import _ARITH_OPS, _ARITH_OPS_BY_KIND

    by_pairs = {(k, n): op for k, ops in _ARITH_OPS_BY_KIND.items() for n, op in ops.items()}
    assert by_pairs == _ARITH_OPS


def test_with_shape_is_the_constructors_type_and_shares_int_shapes():
    from tileir.types import F32, TileType, canonical_tile_type

    base = TileType((4,), F32)
    for shape in ((), (8, 2), (1, 1, 4)):
        assert base.with_shape(shape) is canonical_tile_type(shape, F32)
        assert base.with_shape(shape) == TileType(shape, F32)
    for shape in ([8, 2], (True, 2)):  # not a tuple of ints: the constructor's conversion
        assert base.with_shape(shape) == TileType(tuple(shape), F32)
        assert base.with_shape(shape).shape == TileType(tuple(shape), F32).shape


def test_iota_and_reshape_at_a_loc_are_the_public_ops():
    from tileir.ops.shape import iota, iota_at, reshape, reshape_at
    from tileir.types import I32

    made = iota(8)
    assert made.loc is not None and made.loc.file == __file__
    assert _deep(iota_at(8, I32, made.loc)) == _deep(made)
    wide = reshape(made, (1, 8))
    assert _deep(reshape_at(made, (1, 8), wide.loc)) == _deep(wide)
    assert reshape_at(made, (8,), None) is made  # the same shape: the tile as it is


def test_a_loops_builder_steps_in_one_are_the_steps_one_by_one():
    from tileir.types import F32, TileType

    recipe = registry.get("vadd").build().recipe
    params = tuple(record("vadd", recipe.body, *recipe.markers).params)
    outer = Builder("k", params, next_id=5, loops=(("loop", ()),))
    scope = ("for", (TileType((4,), F32),))
    nested, ids = outer.nested(scope, 3)
    child, child_ids = outer.child(scope).fresh(3)
    assert (nested, ids) == (child, child_ids) and nested.loops == child.loops
    done = Builder("k", params, next_id=11, loops=(scope,))
    adopted, rids = outer.adopt_fresh(done, 2)
    assert (adopted, rids) == outer.adopt(done).fresh(2)
    assert adopted.loops == outer.loops and adopted.instrs == outer.instrs


def test_splat_bounds_are_the_formats_own():
    from tileir.ir.numerics import int_value_range
    from tileir.record.tile import _splat_number
    from tileir.types import BF16, F32, I1, I8, I32

    for fmt in (F32, BF16, I1, I8, I32):
        lo, hi = (-(1 << 53), 1 << 53) if fmt.is_float else int_value_range(fmt)
        for value in (lo - 1, lo, 0, 1, True, hi, hi + 1):
            clear_memos()
            cold = _splat_number(value, fmt)
            assert cold == (lo <= value <= hi) == _splat_number(value, fmt)
        assert _splat_number(0.5, fmt) == fmt.is_float


def test_trace_params_are_the_constructors_handles():
    from tileir.record.convention import trace_params
    from tileir.record.markers import In, Out, Param, Scalar, Shared, cells
    from tileir.types import F32, I32

    g = cells([256], [128])
    markers = (In(F32, g), Scalar(I32), Shared(F32), Out(F32, g, unwritten_ok=True))
    made = trace_params(*markers)
    assert _deep(made) == _deep(tuple(Param(i, m) for i, m in enumerate(markers)))
    assert trace_params() == ()


def test_store_cells_fast_path_for_an_out_is_what_check_write_allows():
    # store_cell asks check_write only of a parameter that is not an Out: an Out written
    # through its cells is what check_write passes, and every other role is still refused
    from tileir.errors import RecordingError
    from tileir.ops.memory import store_cell
    from tileir.record.markers import In, Out, Scalar, Shared, cells, make_param
    from tileir.shape_rules import RuleError, check_write
    from tileir.types import F32

    g = cells([256], [128])
    assert check_write(make_param(0, Out(F32, g)), "cell") is None
    for marker in (In(F32, g), Shared(F32, g), Scalar(F32)):
        p = make_param(0, marker)
        with pytest.raises(RuleError):
            check_write(p, "cell")
        with pytest.raises(RecordingError):
            store_cell(p, 1.0)


def test_record_without_hints_is_record_with_none():
    recipe = registry.get("matmul").build().recipe
    plain = record("matmul", recipe.body, *recipe.markers)
    assert plain.hints is None
    assert _deep(plain) == _deep(record("matmul", recipe.body, *recipe.markers, hints=None))


def test_cells_of_plain_numbers_are_one_shared_object_and_other_spellings_are_not_conflated():
    a = cells([1000, DYN_DIM], [128, 64], along=[0, FREE_AXIS])
    assert cells((1000, DYN_DIM), (128, 64), (0, FREE_AXIS)) is a  # (made and checked once)
    assert cells([1000, DYN_DIM], [128, 64], along=[0, FREE_AXIS], pad="nan") is not a
    # a bool or a float is not the int it hashes like: each call takes the checking way
    with pytest.raises(UsageError, match="whole numbers"):
        cells([1000], [True])
    with pytest.raises(UsageError, match="whole numbers"):
        cells([1000], [128.0])
    with pytest.raises(UsageError, match="powers of two"):
        cells([1000], [100])  # (and a refused call is not remembered)
    with pytest.raises(UsageError, match="powers of two"):
        cells([1000], [100])
    clear_memos()
    fresh = cells([1000, DYN_DIM], [128, 64], along=[0, FREE_AXIS])
    assert fresh is not a and fresh == a


def _copy_body(x, out):
    t = yield load_cell(x)
    yield store_cell(out, t)


def _copy_markers():
    # made afresh each time, as a kernel's build does
    g = cells([256], [128])
    return In(F32, g), Out(F32, g)


def test_a_kernel_recorded_again_with_equal_markers_shares_its_parameters():
    # record remembers the parameters and the grid of markers that passed its checks
    # (kernel._PARAMS): a recording with equal, freshly made markers shares them and is,
    # field for field, the recording made with the memos cleared
    clear_memos()
    cold = record("copy", _copy_body, *_copy_markers())
    warm = record("copy", _copy_body, *_copy_markers())
    assert all(a is b for a, b in zip(warm.params, cold.params)) and len(warm.params) == 2
    assert _deep(warm) == _deep(cold) and warm.grid == cold.grid == (2,)


def test_the_parameters_memo_checks_every_name_and_keeps_no_refusal():
    record("copy", _copy_body, *_copy_markers())
    remembered = len(kernel_module._PARAMS)
    # the same markers under a name that is no identifier: refused, though the markers are known
    with pytest.raises(RecordingError, match="must be an identifier"):
        record("not a name", _copy_body, *_copy_markers())

    # two Outs whose cells make different grids: refused each time, never remembered
    def two(x, out, wide):
        t = yield load_cell(x)
        yield store_cell(out, t)
        yield store_cell(wide, t)

    disagree = (*_copy_markers(), Out(F32, cells([512], [128])))
    for _ in range(2):
        with pytest.raises(RecordingError, match="block"):
            record("two", two, *disagree)
    # an argument that does not hash is no marker: the marker check names it
    with pytest.raises(RecordingError, match="argument 0 is .*each parameter is a marker"):
        record("copy", _copy_body, np.zeros(3), _copy_markers()[1])
    assert len(kernel_module._PARAMS) == remembered


def test_the_parameters_memo_keys_each_marker_by_its_fields_objects():
    # (kernel._params_key: a marker's class and the identities of its fields' values)
    from tileir.record.markers import Cells

    g = cells([256], [128])
    plain = record("copy", _copy_body, In(F32, g), Out(F32, g))
    unwritten = record("copy", _copy_body, In(F32, g), Out(F32, g, unwritten_ok=True))
    assert plain.params[1].marker.unwritten_ok is False
    assert unwritten.params[1].marker.unwritten_ok is True
    # equal cells made apart from cells()'s memo are another object: a key of their own, so
    # the recording holds the very cells it was given, and its parameters equal the others'
    apart = Cells(g.extent, g.tile, g.along, g.pad)
    assert apart == g and apart is not g
    again = record("copy", _copy_body, In(F32, apart), Out(F32, g))
    assert again.params[0].cells is apart and plain.params[0].cells is g
    assert again.params == plain.params


def test_every_body_starts_from_one_shared_empty_vector_that_no_recording_changes():
    from tileir.record.builder import NO_INSTRS

    builder = Builder("copy", ())
    assert builder.child().instrs is NO_INSTRS
    for name in ("vadd", "matmul", "flash_attn"):  # (loops: nested bodies start from it too)
        assert len(registry.get(name).build().program.body) > 0
    assert len(NO_INSTRS) == 0


def test_a_shape_is_its_whole_numbers_as_ints_and_anything_else_is_refused():
    from tileir.record.tile import shape_tuple

    assert shape_tuple([2, 3], "reshape") == (2, 3) and shape_tuple(4, "reshape") == (4,)
    converted = shape_tuple((np.int64(2), 3), "reshape")
    assert converted == (2, 3) and [type(d) for d in converted] == [int, int]
    for bad in ([2, True], [2.0, 3], ["2"], [None]):
        with pytest.raises(RecordingError, match=r"`reshape`: shape must be a sequence of ints"):
            shape_tuple(bad, "reshape")


def test_params_key_of_in_and_out_is_the_key_of_all_their_fields():
    # _params_key names In's and Out's fields itself (no getter): the key must be the one
    # the getter of all their attrs fields gives, so a field added to either is keyed too
    from operator import attrgetter

    from tileir.record.markers import Shared

    g = cells([256], [128])
    markers = (In(F32, g), Out(F32, g, unwritten_ok=True), Out(F32, g), Shared(F32))
    generic: list = ["k"]
    for m in markers:
        names = [f.name for f in attrs.fields(type(m))]
        generic += [type(m), tuple(map(id, attrgetter(*names)(m)))]
    assert kernel_module._params_key("k", markers) == tuple(generic)
