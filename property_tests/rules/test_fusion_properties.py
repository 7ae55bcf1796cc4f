"""Hypothesis checks of the fake device's fusion (tileir/fake/fusion.py) and its per-batch
view plans (tileir/fake/views.py plan_affine): the same bits as the op-by-op path.

A run with an observer watching ops is never fused (and its reductions run their combiner
region), so each kernel is run twice, fused and watched, and the outputs compared byte for
byte, over random chains of element-wise and row-wise ops, odd sizes, padded last blocks,
and strips of a few lanes (``STRIP_ELEMENTS`` small) so that strip boundaries fall
everywhere.

One freedom is left, as IEEE 754 leaves it: which NaN an operation of two NaN operands
returns.  numpy's loops pick either operand's NaN depending on the arrays' shapes (a batch
cut into chunks or sub-batches differs the same way, fused or not), so where the op-by-op
answer is a NaN the fused one must be a NaN, of any sign and payload; every other element
is compared bit for bit.  The bundled kernels give the very same bytes fused and op by op
(tests/fake/test_fusion.py).
"""

from __future__ import annotations

from unittest import mock

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import tileir.fake.fusion as fusion
from tileir import (
    F16,
    F32,
    F64,
    In,
    Out,
    absolute,
    atan2,
    cells,
    cos,
    exp,
    exp2,
    floor,
    greater,
    load_cell,
    log,
    maximum,
    minimum,
    reduce_max,
    reduce_min,
    reduce_sum,
    rsqrt,
    sin,
    sqrt,
    store_cell,
    tanh,
    trace,
    where,
)
from tileir.fake.fusion import Group, fused_ops
from tileir.fake.interpreter import interpret
from tileir.fake.views import TensorView, TileView, plan_affine, plan_tile
from tileir.types import PartitionViewType, TensorViewType

UNARY = [
    exp,
    tanh,
    sin,
    cos,
    exp2,
    floor,
    absolute,
    lambda t: -t,
    lambda t: sqrt(absolute(t)),
    lambda t: rsqrt(absolute(t)),
    lambda t: log(absolute(t)),
]
BINARY = [
    lambda a, b: a + b,
    lambda a, b: a - b,
    lambda a, b: a * b,
    lambda a, b: a / b,
    maximum,
    minimum,
    atan2,
    lambda a, b: where(greater(a, b), a, b * 0.5),
]

steps = st.lists(
    st.tuples(
        st.sampled_from(["unary", "binary", "constant"]),
        st.integers(0, 100),
        st.integers(0, 100),
        st.integers(0, 100),
        st.sampled_from([0.5, -1.25, 3.0, 1e-3]),
    ),
    min_size=2,
    max_size=12,
)
strips = st.sampled_from([1, 5, 64, 1000, 1 << 16])


class _Watch:
    """An observer of every op: the interpreter then runs op by op, unfused."""

    def __init__(self) -> None:
        self.ops = 0

    def after_op(self, op, results, block_ids) -> None:
        self.ops += 1


def _inputs(rng: np.random.Generator, n: int, dtype) -> np.ndarray:
    """Normal values with a few specials (NaN, infinities, zeros of both signs, a
    subnormal) where they are drawn."""
    x = (rng.standard_normal(n) * 3).astype(dtype)
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, 65504.0], dtype=np.float64)
    k = min(n, 7)
    x[rng.choice(n, size=k, replace=False)] = specials[:k].astype(dtype)
    return x


def _chain_body(plan):
    def body(x, y, out, mid):
        a = yield load_cell(x)
        b = yield load_cell(y)
        vals = [a, b, a * 1.5 + b]  # two distinct ops at least: a run to fuse
        for kind, k, i, j, c in plan:
            p, q = vals[i % len(vals)], vals[j % len(vals)]
            if kind == "unary":
                vals.append(UNARY[k % len(UNARY)](p))
            elif kind == "binary":
                vals.append(BINARY[k % len(BINARY)](p, q))
            else:
                vals.append(p * c + c)
        yield store_cell(out, vals[-1] - vals[2])  # the first ops feed an output
        yield store_cell(mid, vals[3 + len(plan) // 2])  # a second live-out, mid-chain

    return body


def _both(kernel, args, grid):
    fused = interpret(kernel.module, kernel.name, args, grid)
    watch = _Watch()
    plain = interpret(kernel.module, kernel.name, args, grid, observer=watch)
    assert watch.ops > 0
    return fused, plain


def _same_bits(fused, plain, which) -> None:
    """The same bytes, but that a NaN may be any NaN (the module docstring)."""
    for k in which:
        a, b = np.asarray(fused[k]), np.asarray(plain[k])
        assert a.dtype == b.dtype and a.shape == b.shape
        nan = np.isnan(b)
        assert np.array_equal(np.isnan(a), nan), f"output {k}: NaNs at other elements"
        bits = a.view(f"u{a.itemsize}") != b.view(f"u{b.itemsize}")
        assert not (bits & ~nan).any(), f"output {k} differs at {np.flatnonzero(bits & ~nan)[:5]}"


@given(
    plan=steps,
    n=st.integers(1, 3000),
    tile=st.sampled_from([1, 4, 16, 64, 128]),
    fmt=st.sampled_from([F32, F64, F16]),
    strip=strips,
    seed=st.integers(0, 2**16),
)
def test_element_wise_chains_give_the_op_by_op_bits(plan, n, tile, fmt, strip, seed):
    g = cells([n], [tile])
    with mock.patch.object(fusion, "STRIP_ELEMENTS", strip):
        kernel = trace(
            "chain", _chain_body(plan), In(fmt, g), In(fmt, g), Out(fmt, g), Out(fmt, g)
        )
        body = kernel.module.functions[0].body
        assert any(type(item) is Group for item in fused_ops(body))  # the chain is fused
        dtype = {F32: np.float32, F64: np.float64, F16: np.float16}[fmt]
        rng = np.random.default_rng(seed)
        args = [
            _inputs(rng, n, dtype),
            _inputs(rng, n, dtype),
            np.zeros(n, dtype),
            np.zeros(n, dtype),
        ]
        fused, plain = _both(kernel, args, kernel.grid)
    _same_bits(fused, plain, (2, 3))


REDUCE = [reduce_sum, reduce_max, reduce_min]


def _rows_body(kind: int, scale: float):
    reduce = REDUCE[kind % len(REDUCE)]

    def body(x, out):
        v = yield load_cell(x)
        d = v - reduce(v, dim=1, keepdims=True) * scale
        var = reduce_sum(d * d, dim=1, keepdims=True) * scale
        yield store_cell(out, tanh(d) * rsqrt(var + 1e-5) + exp(d * 0.5))

    return body


@given(
    rows=st.integers(1, 40),
    cols=st.integers(1, 70),
    per_block=st.sampled_from([1, 2, 8]),
    kind=st.integers(0, 2),
    fmt=st.sampled_from([F32, F64]),
    strip=strips,
    seed=st.integers(0, 2**16),
)
def test_row_wise_kernels_give_the_op_by_op_bits(rows, cols, per_block, kind, fmt, strip, seed):
    # rows past a width that is no power of two are padding; the watched run's reductions
    # run their combiner region, the fused run's call its one ufunc
    g = cells([rows, cols], [per_block, 1 << (cols - 1).bit_length()])
    with mock.patch.object(fusion, "STRIP_ELEMENTS", strip):
        kernel = trace("rows", _rows_body(kind, 1.0 / cols), In(fmt, g), Out(fmt, g))
        assert any(type(i) is Group for i in fused_ops(kernel.module.functions[0].body))
        dtype = np.float32 if fmt is F32 else np.float64
        rng = np.random.default_rng(seed)
        args = [_inputs(rng, rows * cols, dtype), np.zeros(rows * cols, dtype)]
        fused, plain = _both(kernel, args, kernel.grid)
    _same_bits(fused, plain, (1,))


@given(
    extent=st.lists(st.integers(1, 40), min_size=1, max_size=3),
    tile=st.lists(st.sampled_from([1, 2, 3, 8]), min_size=3, max_size=3),
    firsts=st.lists(st.integers(0, 12), min_size=3, max_size=3),
    steps_=st.lists(st.integers(0, 2), min_size=3, max_size=3),
    b=st.integers(1, 9),
    base=st.integers(0, 100),
)
def test_per_batch_plans_agree_with_per_lane_plans(extent, tile, firsts, steps_, b, base):
    r = len(extent)
    tile_shape = tuple(tile[:r])
    strides = tuple(int(np.prod(extent[k + 1 :])) for k in range(r))
    tv_t = TensorViewType(F32, tuple(extent), strides)
    pv_t = PartitionViewType(tile_shape, tv_t, tuple(range(r)))
    one = lambda v: np.array([v], dtype=np.int64)  # noqa: E731 - a batch-1 value
    view = TileView(
        pv_t, TensorView(tv_t, one(0), tuple(map(one, extent)), tuple(map(one, strides)))
    )
    progressions = [(f, s, 0) for f, s in zip(firsts[:r], steps_[:r])]  # one row of b lanes
    lane = np.arange(b, dtype=np.int64)
    indices = [f + s * lane for f, s, _ in progressions]
    general, bad = plan_tile(view, indices, one(base), b)
    fast = plan_affine(view, progressions, b, base, b)
    whole = not bad and general.fast and bool(general.full.all())
    assert (fast is not None) == whole  # it plans exactly the batches it can plan alone
    if fast is not None:
        assert np.array_equal(fast.origin, general.origin)
        assert fast.even_step() == general.even_step()
        assert fast.span == general.span and np.array_equal(fast.offsets, general.offsets)
        for got, want in zip(fast.elements(), general.elements()):
            assert np.array_equal(got, want)
