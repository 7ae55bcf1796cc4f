"""Per-batch view plans (tileir/fake/progressions.py, views.plan_affine) against the general
per-lane plan (views.plan_tile): block ids noted as progressions are the ids the lanes have,
and wherever the per-batch plan answers, it is the general plan (origins, the lanes inside the
tensor, the tile's offsets and span, every element index, the even / grid steps a load takes);
where it declines, the general plan has something the per-batch one must not decide (a lane
outside the index space or the tensor, or indices that need Python ints)."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from tileir.fake.frames import Frame
from tileir.fake.progressions import index_steps, note_block_ids
from tileir.fake.views import TensorView, TileView, plan_affine, plan_tile
from tileir.types import F32, PartitionViewType, StridedViewType, TensorViewType

#: what a view index is made of: a block id (x, y or z) or a constant
SOURCES = st.one_of(st.sampled_from(["x", "y", "z"]), st.integers(0, 6))


@st.composite
def cases(draw):
    gx, gy, gz = draw(st.integers(1, 6)), draw(st.integers(1, 5)), draw(st.integers(1, 3))
    total = gx * gy * gz
    start = draw(st.integers(0, total - 1))
    b = draw(st.integers(1, total - start))
    rank = draw(st.integers(1, 3))
    tile = tuple(draw(st.sampled_from([1, 2, 4])) for _ in range(rank))
    shape = tuple(draw(st.integers(1, 40)) for _ in range(rank))
    strides = tuple(draw(st.integers(0, 50)) for _ in range(rank))
    dim_map = tuple(draw(st.permutations(range(rank))))
    strided = draw(st.booleans())
    traversal = tuple(draw(st.integers(1, 5)) for _ in range(rank))
    sources = [draw(SOURCES) for _ in range(rank)]
    base = draw(st.integers(0, 100))
    return (gx, gy, gz), start, b, tile, shape, strides, dim_map, strided, traversal, sources, base


def _view(tile, shape, strides, dim_map, strided, traversal) -> TileView:
    tvt = TensorViewType(F32, shape, strides)
    if strided:
        vt = StridedViewType(tile, traversal, tvt, dim_map)
    else:
        vt = PartitionViewType(tile, tvt, dim_map)
    one = lambda n: np.array([n], dtype=np.int64)  # noqa: E731
    tv = TensorView(tvt, one(0), tuple(map(one, shape)), tuple(map(one, strides)))
    return TileView(vt, tv)


@given(cases())
# a grid one block wide: the batch is one column, its lanes a step of y apart (nightly found it)
@example(((1, 2, 1), 0, 2, (1, 1), (1, 2), (0, 1), (0, 1), False, (1, 1), ["x", "y"], 0))
def test_a_per_batch_plan_is_the_general_plan(case):
    grid, start, b, tile, shape, strides, dim_map, strided, traversal, sources, base = case
    gx, gy, _ = grid
    lin = np.arange(start, start + b, dtype=np.int64)
    ids = np.stack([lin % gx, (lin // gx) % gy, lin // (gx * gy)], axis=1)
    frame = Frame(None, None, b, ids, linear=start)
    note_block_ids(frame, grid, [100, 101, 102])
    if frame.progressions is not None:  # the noted ids are the lanes' ids
        cols = frame.progression_cols
        assert b % cols == 0
        col, row = lin - start - (lin - start) // cols * cols, (lin - start) // cols
        for vid, axis in ((100, 0), (101, 1), (102, 2)):
            if vid in frame.progressions:
                first, step, row_step = frame.progressions[vid]
                np.testing.assert_array_equal(first + step * col + row_step * row, ids[:, axis])
    index_ids, values = [], []
    for s in sources:
        if isinstance(s, int):
            index_ids.append(-1)
            values.append(np.array([s], dtype=np.int64))
        else:
            index_ids.append(100 + "xyz".index(s))
            values.append(ids[:, "xyz".index(s)].copy())
    found = index_steps(frame, index_ids, values)
    view = _view(tile, shape, strides, dim_map, strided, traversal)
    general, bad = plan_tile(view, values, np.array([base], dtype=np.int64), b)
    if found is None:  # a block id the frame does not know as a progression
        assert frame.progressions is None or any(
            i not in frame.progressions for i in index_ids if i >= 0
        )
        return
    steps, cols = found
    plan = plan_affine(view, steps, cols, base, b)
    if plan is None:
        assert bad or not general.full.all() or general.exact
        return
    assert not bad and general.full.all() and not general.exact
    np.testing.assert_array_equal(plan.origin, general.origin)
    np.testing.assert_array_equal(plan.full, general.full)
    np.testing.assert_array_equal(plan.offsets, general.offsets)
    assert plan.span == general.span
    assert plan.ends == (int(general.origin.min()), int(general.origin.max()))
    assert plan.even_step() == general.even_step()
    if plan.even_step() is None:
        assert plan.grid_steps() == general.grid_steps()
    for lanes in (None, np.arange(b)[::2]):
        got, want = plan.elements(lanes), general.elements(lanes)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])


def test_whole_rows_of_a_grid_are_one_progression_and_a_wrapped_batch_is_none():
    ids = lambda start, b, gx: np.stack(  # noqa: E731
        [np.arange(start, start + b) % gx, np.arange(start, start + b) // gx, 0 * np.arange(b)], 1
    )
    whole = Frame(None, None, 12, ids(4, 12, 4), linear=4)
    note_block_ids(whole, (4, 5, 1), [1, 2, 3])
    assert whole.progression_cols == 4
    assert whole.progressions == {1: (0, 1, 0), 2: (1, 0, 1), 3: (0, 0, 0)}
    wrapped = Frame(None, None, 6, ids(2, 6, 4), linear=2)  # starts mid-row, ends mid-row
    note_block_ids(wrapped, (4, 5, 1), [1, 2, 3])
    assert wrapped.progressions is None
