"""The chapter's kernels, each with its host reference, plus flash attention.

vadd, vadd over a tail (1000 elements in cells of 128), softmax with neg_inf
padding, matmul with a K loop, row softmax with keepdims, transpose through
Shared, a histogram with atomics through Shared, and flash attention forward
(the chapter's example kernels, as Dawn's tileir shows them; README.md lists them).
"""

from __future__ import annotations

import numpy as np

from tileir import (
    F64,
    FREE_AXIS,
    I32,
    In,
    Out,
    Scalar,
    Shared,
    atomic_add,
    block_id,
    cells,
    exp,
    for_range,
    full,
    iota,
    lib,
    load_at,
    load_cell,
    maximum,
    mma,
    reduce_max,
    reduce_sum,
    scalar,
    store,
    store_cell,
    trace,
    zeros,
)
from tileir.host.tolerance import Tolerance
from tileir.kernels.registry import KernelSpec, random_values, register

F64_CLOSE = Tolerance(rtol=1e-12, atol=1e-14)


# ----------------------------------------------------------------------------- vadd


def vadd(a, b, out):
    """Each block reads its cell of ``a`` and of ``b`` and writes its cell of ``out``."""
    x = yield load_cell(a)
    y = yield load_cell(b)
    yield store_cell(out, x + y)


def _vadd_spec(name: str, n: int, doc: str) -> KernelSpec:
    def build():
        g = cells([n], [128])
        return trace(name, vadd, In(F64, g), In(F64, g), Out(F64, g))

    def reference(args):
        a, b, out = args
        out = out.copy()
        out[:n] = a[:n] + b[:n]
        return [a, b, out]

    def inputs(rng):
        return [
            random_values(rng, n, np.float64),
            random_values(rng, n, np.float64),
            np.zeros(n),
        ], None

    return KernelSpec(name, build, reference, inputs, None, "chapter", doc)


register(_vadd_spec("vadd", 256, "256 elements in cells of 128: two blocks"))
register(
    _vadd_spec(
        "vadd_tail",
        1000,
        "1000 elements in cells of 128: the last cell has 24 lanes past the extent",
    )
)


# ----------------------------------------------------------------------------- softmax


def softmax(x, out):
    """A softmax over one cell; the lane past the extent reads -inf and is not written."""
    t = yield load_cell(x)
    e = exp(t - reduce_max(t))  # reduce_max(t) is rank 0, and widens
    yield store_cell(out, e / reduce_sum(e))


def _softmax_build():
    return trace(
        "softmax", softmax, In(F64, cells([3], [4], pad="neg_inf")), Out(F64, cells([3], [4]))
    )


def _softmax_ref(args):
    x, out = args
    xs = x[:3]
    e = np.exp(xs - xs.max())
    out = out.copy()
    out[:3] = e / e.sum()
    return [x, out]


register(
    KernelSpec(
        "softmax",
        _softmax_build,
        _softmax_ref,
        lambda rng: ([random_values(rng, 3, np.float64), np.full(3, 9.0)], None),
        F64_CLOSE,
        "chapter",
        "softmax over 3 lanes of a 4-lane cell with neg_inf padding",
    )
)


# ----------------------------------------------------------------------------- matmul

MM_M = MM_N = MM_K = 256
MM_TM, MM_TN, MM_TK = 64, 64, 32


def matmul(a, b, c):
    """One 64x64 tile of ``c`` per block, walking along K with an explicit accumulator."""

    def step(k, acc):
        ta = yield load_at(a, [k])
        tb = yield load_at(b, [k])
        return mma(ta, tb, acc)

    acc = yield for_range(0, MM_K // MM_TK, step, init=zeros(c))
    yield store_cell(c, acc)


def _matmul_build():
    a = In(F64, cells([MM_M, MM_K], [MM_TM, MM_TK], along=[0, FREE_AXIS]))
    b = In(F64, cells([MM_K, MM_N], [MM_TK, MM_TN], along=[FREE_AXIS, 1]))
    c = Out(F64, cells([MM_M, MM_N], [MM_TM, MM_TN]))
    return trace("matmul", matmul, a, b, c)


def _matmul_ref(args):
    a, b, c = args
    prod = a.reshape(MM_M, MM_K) @ b.reshape(MM_K, MM_N)
    return [a, b, prod.reshape(-1)]


register(
    KernelSpec(
        "matmul",
        _matmul_build,
        _matmul_ref,
        lambda rng: (
            [
                random_values(rng, MM_M * MM_K, np.float64),
                random_values(rng, MM_K * MM_N, np.float64),
                np.zeros(MM_M * MM_N),
            ],
            None,
        ),
        Tolerance(rtol=1e-12, atol=1e-11),
        "chapter",
        "256^3 f64 matmul, a K loop of 8 trips",
    )
)


# ----------------------------------------------------------------------------- row softmax


def row_softmax(x, out):
    """Each block turns 32 rows of 64 scores into a softmax per row (tileir.lib's)."""
    s = yield load_cell(x)  # [32, 64]
    yield store_cell(out, lib.softmax(s))  # keepdims reductions: [32, 1], widened to [32, 64]


def _row_softmax_build():
    g = cells([256, 64], [32, 64])
    return trace("row_softmax", row_softmax, In(F64, g), Out(F64, g))


def _row_softmax_ref(args):
    x, out = args
    s = x.reshape(256, 64)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return [x, (p / p.sum(axis=1, keepdims=True)).reshape(-1)]


register(
    KernelSpec(
        "row_softmax",
        _row_softmax_build,
        _row_softmax_ref,
        lambda rng: ([random_values(rng, 256 * 64, np.float64), np.zeros(256 * 64)], None),
        F64_CLOSE,
        "chapter",
        "softmax over rows of 64, 32 rows a block, with keepdims",
    )
)


# ----------------------------------------------------------------------------- transpose


def transpose(x, out):
    """Block (i, j) reads its cell of a 128x64 ``x`` and writes it at tile (j, i) of a 64x128
    ``out``, through the pointer path with out's strides swapped."""
    t = yield load_cell(x)
    at = block_id(1) * (32 * 128) + block_id(0) * 32
    yield store(out, at, t, strides=[1, 128])


def _transpose_build():
    return trace("transpose", transpose, In(F64, cells([128, 64], [32, 32])), Shared(F64))


def _transpose_ref(args):
    x, out = args
    return [x, x.reshape(128, 64).T.reshape(-1).copy()]


register(
    KernelSpec(
        "transpose",
        _transpose_build,
        _transpose_ref,
        lambda rng: ([random_values(rng, 128 * 64, np.float64), np.zeros(128 * 64)], (4, 2)),
        None,
        "chapter",
        "128x64 transposed through a Shared out; the caller gives the grid",
    )
)


# ----------------------------------------------------------------------------- histogram

HIST_N, HIST_TILE, HIST_BINS = 1000, 128, 16


def histogram(values, hist):
    """Count values into 16 bins with atomics; lanes past the extent and values outside
    [0, 16) are masked off."""
    x = yield load_cell(values)
    lane = block_id(0) * HIST_TILE + iota(HIST_TILE)
    ok = (lane < HIST_N) & (x >= 0) & (x < HIST_BINS)
    yield atomic_add(hist, x & (HIST_BINS - 1), 1, mask=ok)


def _histogram_build():
    return trace("histogram", histogram, In(I32, cells([HIST_N], [HIST_TILE])), Shared(I32))


def _histogram_ref(args):
    values, hist = args
    ok = values[(values >= 0) & (values < HIST_BINS)]
    return [values, hist + np.bincount(ok, minlength=HIST_BINS).astype(np.int32)]


register(
    KernelSpec(
        "histogram",
        _histogram_build,
        _histogram_ref,
        lambda rng: (
            [
                rng.integers(-2, HIST_BINS + 2, HIST_N).astype(np.int32),
                np.zeros(HIST_BINS, np.int32),
            ],
            (8,),
        ),
        None,
        "chapter",
        "a 16-bin histogram of 1000 i32 values with atomic adds",
    )
)


# ----------------------------------------------------------------------------- flash attention

ATT_N, ATT_D, FA_BQ, FA_BK = 64, 32, 32, 32


def flash_attn(q, k, v, o, scale):
    """Attention forward, one cell of queries per block, streaming keys and values a cell
    at a time with a running maximum and sum (three carried values).  Sizes and format
    come from the markers (the chapter: 32 queries a block, keys in blocks of 32, f64)."""
    tq = yield load_cell(q)
    m0 = full([tq.shape[0], 1], -np.inf, o.format)
    l0 = full([tq.shape[0], 1], 0.0, o.format)

    def step(j, m, l, acc):
        tk = yield load_at(k, [j])
        s = mma(tq, tk.transpose(), 0.0) * scalar(scale)
        m_new = maximum(m, reduce_max(s, keepdims=True))
        p = exp(s - m_new)
        alpha = exp(m - m_new)
        l = l * alpha + reduce_sum(p, keepdims=True)
        tv = yield load_at(v, [j])
        acc = mma(p, tv, acc * alpha)
        return m_new, l, acc

    m, l, acc = yield for_range(0, k.cells.counts[0], step, init=(m0, l0, zeros(o)))
    yield store_cell(o, acc / l)


def _flash_build():
    qo = cells([ATT_N, ATT_D], [FA_BQ, ATT_D])
    kv = cells([ATT_N, ATT_D], [FA_BK, ATT_D], along=[FREE_AXIS, 1])
    return trace(
        "flash_attn", flash_attn, In(F64, qo), In(F64, kv), In(F64, kv), Out(F64, qo), Scalar(F64)
    )


def _flash_ref(args):
    q, k, v, o, scale = args
    s = q.reshape(ATT_N, ATT_D) @ k.reshape(ATT_N, ATT_D).T * scale
    p = np.exp(s - s.max(axis=1, keepdims=True))
    out = (p / p.sum(axis=1, keepdims=True)) @ v.reshape(ATT_N, ATT_D)
    return [q, k, v, out.reshape(-1), scale]


register(
    KernelSpec(
        "flash_attn",
        _flash_build,
        _flash_ref,
        lambda rng: (
            [random_values(rng, ATT_N * ATT_D, np.float64) for _ in range(3)]
            + [np.zeros(ATT_N * ATT_D), float(1 / np.sqrt(ATT_D))],
            None,
        ),
        Tolerance(rtol=1e-10, atol=1e-12),
        "chapter",
        "flash attention forward in f64: 64 queries and keys of width 32, blocks of 32",
    )
)
