"""Every launch check at its limit and one past it (issue 18, point 2).

Each rule of :func:`tileir.host.launch.check_launch` and :mod:`tileir.host.widths` is held
at the exact value it still accepts and the first value it refuses: the grid's rank and
axis counts, a grid that partly follows the Out's cells, the aliasing rule for every
pair of roles, the FREE_AXIS extent read off a buffer, the i32 width of extents and
strides, and the integer ranges of Scalars.  A comparison off by one, a swapped
``and``/``or`` or a rounded-up division fails one of these.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tileir import (
    DYN_DIM,
    F16,
    F32,
    FREE_AXIS,
    I8,
    I32,
    In,
    Out,
    Scalar,
    Shared,
    cells,
    load_at,
    load_cell,
    store_cell,
    trace,
)
from tileir.errors import LaunchError
from tileir.host.launch import MAX_GRID, ArgInfo, block_of_element, check_launch
from tileir.host.widths import I32_MAX, check_i32, scalar_value
from tileir.types import Format


def _copy(a, out):
    t = yield load_cell(a)
    yield store_cell(out, t)


def _copy_first(a, out):
    t = yield load_at(a, [0] * sum(axis is FREE_AXIS for axis in a.cells.along))
    yield store_cell(out, t)


def _free_axis_kernel(name: str, c):
    """A kernel reading the first cell of an In whose FREE_AXIS extent is read off its buffer;
    its Out is one such cell."""
    return trace(name, _copy_first, In(F32, c), Out(F32, cells(list(c.tile), list(c.tile))))


def _buffer(length: int, at: int = 0) -> ArgInfo:
    """An f32 buffer of ``length`` elements whose bytes start at ``at``."""
    return ArgInfo(F32, length, (at, at + 4 * length))


_FAR = 1 << 44  # a base address no other buffer here reaches
_OUT = ArgInfo(F32, 1 << 12, (_FAR, _FAR + 4 * (1 << 12)))  # an Out large enough for one cell


def _refusal(kernel, infos, grid=None) -> LaunchError:
    with pytest.raises(LaunchError) as err:
        check_launch(kernel, infos, grid)
    assert err.value.kernel == kernel.name
    return err.value


# -- the grid's rank and axis counts -------------------------------------------------


def _no_out_kernel():
    """A kernel with no Out (a Shared it writes itself): the caller's grid is the grid."""

    def body(s):
        yield from ()

    return trace("no_out", body, Shared(F32))


def _no_out_launch(grid):
    return check_launch(_no_out_kernel(), [_buffer(16)], grid)


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_a_grid_of_one_to_three_axes_is_taken(rank):
    assert _no_out_launch([2] * rank).grid == (2,) * rank + (1,) * (3 - rank)


@pytest.mark.parametrize("grid", [[], [1, 1, 1, 1], [2, 2, 2, 2]], ids=["empty", "4x1", "4x2"])
def test_a_grid_of_zero_or_four_axes_is_refused(grid):
    err = _refusal(_no_out_kernel(), [_buffer(16)], grid)
    assert err.kind == "launch.grid"
    assert f"a grid has 1 to 3 dimensions, got {grid}" in str(err)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_an_axis_of_exactly_max_grid_is_taken_and_one_more_refused(axis):
    at_limit = [1, 1, 1]
    at_limit[axis] = MAX_GRID
    assert _no_out_launch(at_limit).grid == tuple(at_limit)
    past = [1, 1, 1]
    past[axis] = MAX_GRID + 1
    err = _refusal(_no_out_kernel(), [_buffer(16)], past)
    assert err.kind == "launch.grid"
    assert f"has {MAX_GRID + 1} block(s) on axis {axis}; each axis has 1 to {MAX_GRID}" in str(err)


def test_max_grid_is_the_hardware_limit():
    assert MAX_GRID == 2**24 - 1


@pytest.mark.parametrize("n", [0, -1])
def test_an_axis_below_one_block_is_refused(n):
    assert _no_out_launch([1]).grid == (1, 1, 1)
    err = _refusal(_no_out_kernel(), [_buffer(16)], [4, n])
    assert err.kind == "launch.grid" and f"has {n} block(s) on axis 1" in str(err)


@pytest.mark.parametrize(
    "grid, want",
    [
        (4, (4, 1, 1)),
        (np.int64(4), (4, 1, 1)),
        (np.array([2, 3]), (2, 3, 1)),
        (np.array(6), (6, 1, 1)),
        (iter([5]), (5, 1, 1)),
    ],
    ids=["int", "numpy int", "numpy array", "0-d array", "iterator"],
)
def test_a_grid_is_a_number_or_any_iterable_of_numbers(grid, want):
    assert _no_out_launch(grid).grid == want


@pytest.mark.parametrize("grid", [True, 2.5, object()], ids=["bool", "float", "object"])
def test_a_grid_that_is_no_number_and_no_sequence_is_refused_with_its_value(grid):
    err = _refusal(_no_out_kernel(), [_buffer(16)], grid)
    assert err.kind == "launch.grid"
    assert f"grid={grid!r}: a grid is a number of blocks (grid=8) or one to three" in str(err)


# -- a grid the Out's cells make, wholly or partly ---------------------------------


def _static_kernel():
    c = cells([256, 64], [128, 64])  # the Out's cells make the grid [2, 1]
    return trace("static_grid", _copy, In(F32, c), Out(F32, c))


def test_a_grid_equal_to_the_out_cells_is_taken_and_any_other_refused():
    k = _static_kernel()
    infos = [_buffer(256 * 64), _buffer(256 * 64, _FAR)]
    assert check_launch(k, infos).grid == (2, 1, 1)
    assert check_launch(k, infos, [2]).grid == (2, 1, 1)  # trailing axes of 1 may be left off
    assert check_launch(k, infos, [2, 1, 1]).grid == (2, 1, 1)
    for grid in ([3], [1], [2, 2], [2, 1, 2]):
        err = _refusal(k, infos, grid)
        assert err.kind == "launch.grid"
        assert f"the grid is {grid} and the Out's cells make [2, 1]" in str(err)


def _partly_dynamic_kernel():
    """Axis 0 is fixed by the Out's cells (2 blocks); axis 1 follows a DYN_DIM extent."""
    c = cells([256, DYN_DIM], [128, 64])
    return trace("partly_dynamic", _copy, In(F32, c), Out(F32, c))


def test_a_partly_dynamic_grid_must_still_match_the_static_axis():
    k = _partly_dynamic_kernel()
    n = 256 * 64 * 5
    infos = [_buffer(n), _buffer(n, _FAR)]
    plan = check_launch(k, infos, [2, 5])
    assert plan.grid == (2, 5, 1)
    assert plan.extents == (((0, 1), 5 * 64), ((1, 1), 5 * 64))
    for wrong in (3, 1):  # one block more and one fewer on the static axis
        err = _refusal(k, infos, [wrong, 5])
        assert err.kind == "launch.grid"
        assert f"the grid has {wrong} block(s) on axis 0 and the Out's cells make 2" in str(err)


def test_a_partly_dynamic_grid_is_the_callers_to_give():
    k = _partly_dynamic_kernel()
    err = _refusal(k, [_buffer(64), _buffer(64, _FAR)])
    assert err.kind == "launch.no_grid" and "the grid [2, '?'] is the caller's" in str(err)


def test_a_kernel_without_an_out_needs_a_grid():
    err = _refusal(_no_out_kernel(), [_buffer(16)])
    assert err.kind == "launch.no_grid"


# -- the buffer's reach ------------------------------------------------------------


def test_a_buffer_of_exactly_its_reach_is_taken_and_one_element_short_refused():
    k = _partly_dynamic_kernel()
    n = 256 * 64 * 3
    assert check_launch(k, [_buffer(n), _buffer(n, _FAR)], [2, 3]).grid == (2, 3, 1)
    err = _refusal(k, [_buffer(n - 1), _buffer(n, _FAR)], [2, 3])
    assert err.kind == "launch.short_buffer"
    assert f"argument 0 (In) holds {n - 1} element(s) and every cell reach {n}" in str(err)


# -- aliasing: every pair of roles --------------------------------------------------

_ROLES = ["In", "In", "Out", "Out", "Shared", "Shared", "Scalar"]


def _roles_kernel():
    def body(a, b, o1, o2, s1, s2, k):
        t = yield load_cell(a)
        yield store_cell(o1, t)
        yield store_cell(o2, t)

    c = cells([128], [128])
    return trace(
        "roles",
        body,
        In(F32, c),
        In(F32, c),
        Out(F32, c),
        Out(F32, c),
        Shared(F32),
        Shared(F32),
        Scalar(I32),
    )


def _role_infos(shared: tuple[int, ...], shift: int = 0) -> list[ArgInfo]:
    """Seven arguments in disjoint memory, except that those in ``shared`` start at the same
    place (the later ones ``shift`` bytes on)."""
    infos = []
    for i, role in enumerate(_ROLES):
        at = (i + 1) << 20
        if i in shared:
            at = (1 << 30) + shift * shared.index(i)
        if role == "Scalar":
            # a scalar's span is meaningless: give it one that overlaps, to show it is ignored
            infos.append(ArgInfo(None, 0, (at, at + 512), value=3, is_buffer=False))
        else:
            infos.append(_buffer(128, at))
    return infos


_PAIRS = list(itertools.combinations(range(len(_ROLES)), 2))


def _refused(i: int, j: int) -> bool:
    """The rule: an Out shares memory with no other buffer; Scalars have no memory."""
    roles = {_ROLES[i], _ROLES[j]}
    return "Out" in roles and "Scalar" not in roles


def test_the_role_matrix_refuses_exactly_the_pairs_with_an_out():
    refused = sorted({tuple(sorted((_ROLES[i], _ROLES[j]))) for i, j in _PAIRS if _refused(i, j)})
    assert refused == [("In", "Out"), ("Out", "Out"), ("Out", "Shared")]


@pytest.mark.parametrize("i, j", _PAIRS, ids=[f"{_ROLES[i]}{i}-{_ROLES[j]}{j}" for i, j in _PAIRS])
def test_two_arguments_sharing_memory(i, j):
    k = _roles_kernel()
    infos = _role_infos((i, j))
    if not _refused(i, j):
        assert check_launch(k, infos).grid == (1, 1, 1)
        return
    err = _refusal(k, infos)
    out, other = (i, j) if _ROLES[i] == "Out" else (j, i)
    assert err.kind == "launch.aliased_out"
    assert (
        f"argument {out} (Out) shares its buffer with argument {other} ({_ROLES[other]})"
        in str(err)
    )


@pytest.mark.parametrize("other", [0, 3, 4], ids=["In", "Out", "Shared"])
def test_an_out_overlapping_by_one_byte_is_refused_and_touching_is_not(other):
    k = _roles_kernel()
    pair = tuple(sorted((2, other)))
    # the later buffer starts one element (4 bytes) before the earlier one ends: overlap
    overlapping = _role_infos(pair, shift=4 * 128 - 1)
    assert _refusal(k, overlapping).kind == "launch.aliased_out"
    # the later buffer starts where the earlier one ends: adjacent, not shared
    touching = _role_infos(pair, shift=4 * 128)
    assert check_launch(k, touching).grid == (1, 1, 1)


# -- FREE_AXIS extents: read off the buffer, rounded down --------------------------


def _free_kernel():
    """An In of rows of 4, with as many rows as its buffer holds (FREE_AXIS)."""
    return _free_axis_kernel("free_rows", cells([DYN_DIM, 4], [128, 4], along=(FREE_AXIS, 0)))


@pytest.mark.parametrize("length, rows", [(20, 5), (21, 5), (23, 5), (24, 6), (4, 1), (7, 1)])
def test_a_free_axis_extent_counts_whole_rows_of_the_other_extents(length, rows):
    k = _free_kernel()
    plan = check_launch(k, [_buffer(length), _OUT])
    assert plan.extents == (((0, 0), rows),)


def test_a_free_axis_buffer_shorter_than_one_row_is_short():
    err = _refusal(_free_kernel(), [_buffer(3), _OUT])
    assert err.kind == "launch.short_buffer"
    assert "argument 0 (In) holds 3 element(s) and every cell reach 4" in str(err)


def test_a_free_axis_extent_at_the_i32_limit_and_one_past():
    k = _free_kernel()
    out = _OUT
    plan = check_launch(k, [_buffer(4 * I32_MAX + 3), out])
    assert plan.extents == (((0, 0), I32_MAX),)
    err = _refusal(k, [_buffer(4 * (I32_MAX + 1)), out])
    assert err.kind == "launch.i32"
    assert f"argument 0's DYN_DIM extent of dimension 0 is {I32_MAX + 1}" in str(err)


def test_a_free_axis_beside_another_dyn_dim_is_refused():
    c = cells([DYN_DIM, DYN_DIM], [128, 4], along=(FREE_AXIS, 0))
    k = _free_axis_kernel("two_dyn", c)
    err = _refusal(k, [_buffer(512), _OUT])
    assert err.kind == "launch.extent" and "several DYN_DIM extents" in str(err)


# -- DYN_DIM extents along the grid, and the strides computed from them -----------


def _grid_extent_kernel():
    c = cells([DYN_DIM], [256])
    return trace("grid_extent", _copy, In(F32, c), Out(F32, c))


def test_a_grid_made_dyn_dim_extent_at_2_31_is_refused_and_just_below_taken():
    k = _grid_extent_kernel()
    n = 1 << 31
    err = _refusal(k, [_buffer(n), _buffer(n, 1 << 40)], [1 << 23])
    assert err.kind == "launch.i32"
    assert f"argument 0's DYN_DIM extent of dimension 0 is {n}" in str(err)
    m = n - 256
    plan = check_launch(k, [_buffer(m), _buffer(m, 1 << 40)], [(1 << 23) - 1])
    assert plan.extents == (((0, 0), m), ((1, 0), m))


def test_a_stride_of_exactly_i32_max_is_taken():
    # the stride of dimension 0 is the DYN_DIM extent itself: at I32_MAX it still fits
    c = cells([2, DYN_DIM], [2, 128], along=(0, FREE_AXIS))
    k = _free_axis_kernel("wide_rows", c)
    plan = check_launch(k, [_buffer(2 * I32_MAX), _OUT])
    assert plan.extents == (((0, 1), I32_MAX),)


def test_a_stride_one_past_i32_max_is_refused():
    # [2, D, 3]: the stride of dimension 0 is 3 x D
    c = cells([2, DYN_DIM, 3], [2, 128, 4], along=(0, FREE_AXIS, 1))
    k = _free_axis_kernel("rows_of_3", c)
    out = _OUT
    fits = I32_MAX // 3  # 3 x 715827882 = 2147483646
    assert check_launch(k, [_buffer(6 * fits), out]).extents == (((0, 1), fits),)
    err = _refusal(k, [_buffer(6 * (fits + 1)), out])
    assert err.kind == "launch.i32"
    assert f"the stride of dimension 0 is {fits + 1} x 3 = {3 * (fits + 1)} elements" in str(err)


@pytest.mark.parametrize("value, ok", [(0, True), (I32_MAX, True), (-1, False), (2**31, False)])
def test_check_i32_takes_zero_to_i32_max(value, ok):
    if ok:
        assert check_i32(value, what="x") == value
    else:
        with pytest.raises(LaunchError, match=f"x is {value}, and the entry takes it as an i32"):
            check_i32(value, what="x")


# -- which block owns an element ---------------------------------------------------


def test_block_of_element_past_an_inner_dyn_dim_is_in_the_first_row():
    # a DYN_DIM inner extent: the element's index is all in that dimension
    c = cells([4, DYN_DIM], [1, 128])
    k = trace("inner_dyn", _copy, In(F32, c), Out(F32, c))
    assert block_of_element(k, 1, 300, [4, 3]) == (0, 2)
    assert block_of_element(k, 1, 127, [4, 3]) == (0, 0)


def test_block_of_element_through_static_cells():
    c = cells([4, 256], [2, 128])
    k = trace("static_2d", _copy, In(F32, c), Out(F32, c))
    grid = [2, 2]
    assert block_of_element(k, 1, 0, grid) == (0, 0)
    assert block_of_element(k, 1, 127, grid) == (0, 0)
    assert block_of_element(k, 1, 128, grid) == (0, 1)
    assert block_of_element(k, 1, 2 * 256, grid) == (1, 0)
    assert block_of_element(k, 1, 4 * 256 - 1, grid) == (1, 1)


# -- Scalars: every integer format's range, at each end and one past ---------------

# (format, lowest, highest): Tile IR integers are signless, so either reading of the bits
_INT_RANGES = [
    (Format("i1"), 0, 1),
    (I8, -128, 255),
    (Format("i16"), -32768, 65535),
    (I32, -(2**31), 2**32 - 1),
    (Format("i64"), -(2**63), 2**64 - 1),
]


@pytest.mark.parametrize("fmt, low, high", _INT_RANGES, ids=[str(r[0]) for r in _INT_RANGES])
def test_an_integer_scalar_at_each_end_of_its_range_and_one_past(fmt, low, high):
    for value in (low, high):
        assert scalar_value(fmt, value, where="argument 2 (Scalar)") == value
    for value in (low - 1, high + 1):
        with pytest.raises(LaunchError) as err:
            scalar_value(fmt, value, where="argument 2 (Scalar)")
        assert err.value.kind == "launch.scalar_value"
        assert f"needs an integer in [{low}, {high}], got int {value}" in str(err.value)


def test_a_float_scalar_at_the_largest_finite_value_and_past_it():
    assert scalar_value(F16, 65504.0, where="s") == 65504.0
    with pytest.raises(LaunchError, match="65520.0 overflows the format"):
        scalar_value(F16, 65520.0, where="s")  # rounds to infinity in f16


def test_a_scalar_for_a_buffer_and_a_buffer_for_a_scalar_are_refused():
    k = _roles_kernel()
    infos = _role_infos(())
    infos[6] = _buffer(1, 1 << 36)
    assert _refusal(k, infos).kind == "launch.scalar"
    infos = _role_infos(())
    infos[4] = ArgInfo(None, 0, value=1.0, is_buffer=False)
    assert _refusal(k, infos).kind == "launch.buffer"


def test_an_fnv8e5m3fnu_scalar_is_its_raw_8_bits():
    fmt = Format("fnv8E5M3FNU")  # no host type holds it: the argument is its bits
    assert scalar_value(fmt, 255, where="argument 2 (Scalar)") == 255
    assert scalar_value(fmt, -128, where="argument 2 (Scalar)") == -128
    with pytest.raises(LaunchError) as err:
        scalar_value(fmt, 256, where="argument 2 (Scalar)")
    assert "argument 2 (Scalar) (raw fnv8E5M3FNU bits) (i8) needs an integer in [-128, 255]" in (
        str(err.value)
    )
    with pytest.raises(LaunchError, match="got float 1.5"):
        scalar_value(fmt, 1.5, where="argument 2 (Scalar)")  # not a float: its bits
