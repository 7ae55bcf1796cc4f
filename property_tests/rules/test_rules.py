"""Hypothesis checks of the pure rules against numpy and against each other."""

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from tileir import (
    F32,
    F64,
    FREE_AXIS,
    In,
    Out,
    Shared,
    cells,
    exp,
    load_cell,
    reduce_max,
    reduce_sum,
    store_cell,
    trace,
)
from tileir.record.markers import Param
from tileir.shape_rules import (
    MMA_PAIRS,
    RuleError,
    check_cells_agree,
    check_mma,
    grid_of,
    reduce_shape,
    widen_shapes,
)
from tileir.types import FORMATS

dims = st.sampled_from([1, 2, 4, 8])
shapes = st.lists(dims, min_size=0, max_size=4).map(tuple)


def numpy_broadcast(a, b):
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        return None


@given(shapes, shapes)
def test_widening_agrees_with_numpy_wherever_it_accepts(a, b):
    try:
        ours = widen_shapes(a, b)
    except RuleError:
        ours = None
    theirs = numpy_broadcast(a, b)
    if ours is not None:
        assert ours == theirs
    else:
        # refused: numpy refuses too, or it would align operands of different ranks
        assert theirs is None or (len(a) != len(b) and len(a) > 0 and len(b) > 0)


@given(shapes, shapes)
def test_exactly_the_rank_mismatched_pairs_numpy_aligns_are_refused(a, b):
    theirs = numpy_broadcast(a, b)
    assume(theirs is not None)
    rank_mismatch = len(a) != len(b) and len(a) > 0 and len(b) > 0
    try:
        widen_shapes(a, b)
        accepted = True
    except RuleError:
        accepted = False
    assert accepted == (not rank_mismatch)


@given(shapes.filter(lambda s: len(s) > 0), st.data(), st.booleans())
def test_reduce_shape_is_numpys(shape, data, keepdims):
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = np.zeros(shape)
    assert reduce_shape(shape, dim, keepdims) == x.max(axis=dim, keepdims=keepdims).shape


mma_formats = st.sampled_from(FORMATS)


@given(mma_formats, mma_formats)
def test_mma_accepts_exactly_the_dialects_pairs(operand, acc):
    try:
        check_mma((16, 16), operand, (16, 16), operand, (16, 16), acc)
        accepted = True
    except RuleError:
        accepted = False
    assert accepted == (acc.name in MMA_PAIRS.get(operand.name, ()))


@given(st.integers(1, 64), st.integers(1, 64), st.integers(1, 64))
def test_mma_refuses_a_k_mismatch(m, k1, k2):
    m, k1, k2 = (1 << (x % 6) for x in (m, k1, k2))
    try:
        check_mma((m, k1), F32, (k2, m), F32, (m, m), F32)
        assert k1 == k2
    except RuleError as err:
        assert k1 != k2 and "k disagrees" in str(err)


extent = st.integers(1, 600)
tile = st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128])


@st.composite
def marker_sets(draw):
    rank = draw(st.integers(1, 2))
    n = draw(st.integers(1, 4))
    markers = []
    for _ in range(n):
        ext = [draw(extent) for _ in range(rank)]
        tl = [draw(tile) for _ in range(rank)]
        role = draw(st.sampled_from(["In", "Out", "Shared"]))
        if role == "Shared":
            markers.append(Shared(F32))
            continue
        along = list(range(rank))
        if role == "In" and draw(st.booleans()):
            along[draw(st.integers(0, rank - 1))] = FREE_AXIS
        marker = (In if role == "In" else Out)(F32, cells(ext, tl, along=along))
        markers.append(marker)
    return tuple(Param(i, m) for i, m in enumerate(markers))


@given(marker_sets())
def test_an_accepted_marker_set_has_a_grid_every_cell_agrees_with(params):
    try:
        grid = grid_of(params)
        check_cells_agree(params, grid)
    except RuleError:
        # refused: some pair of parameters really disagrees on some grid axis
        counts = {}
        for p in params:
            if p.cells is None:
                continue
            for axis, count in zip(p.cells.along, p.cells.counts):
                if axis is not FREE_AXIS:
                    counts.setdefault(axis, set()).add((p.role, count))
        outs = {a: {c for r, c in s if r == "Out"} for a, s in counts.items()}
        assert any(len(o) > 1 for o in outs.values()) or any(
            o and any(c not in o for r, c in counts[a]) for a, o in outs.items()
        )
        return
    if grid is None:
        assert not any(p.role == "Out" for p in params)
        return
    for p in params:
        if p.cells is None:
            continue
        for axis, count in zip(p.cells.along, p.cells.counts):
            if axis is not FREE_AXIS:
                assert grid[axis] == count


def _random_body(ops):
    def body(x, out):
        t = yield load_cell(x)
        for op in ops:
            if op == "exp":
                t = exp(t)
            elif op == "shift":
                t = t - reduce_max(t, keepdims=True)
            elif op == "norm":
                t = t / reduce_sum(t, keepdims=True)
            elif op == "scale":
                t = t * 0.5 + 1.0
        yield store_cell(out, t)

    return body


@given(
    st.lists(st.sampled_from(["exp", "shift", "norm", "scale"]), max_size=6),
    st.sampled_from([F32, F64]),
)
def test_recording_is_deterministic(ops, fmt):
    g = cells([64, 32], [16, 32])
    one = trace("k", _random_body(ops), In(fmt, g), Out(fmt, g))
    two = trace("k", _random_body(ops), In(fmt, g), Out(fmt, g))
    assert one.program == two.program
    assert hash(one.program) == hash(two.program)
    assert one.module == two.module
    assert hash(one.module) == hash(two.module)
