"""The fake-device benchmark's kernels, recorded with tileir's public API at any size, each
beside plain numpy doing the same work (bench/fake_device.py times the two).

* ``vadd``: ``out = a + b`` over ``n`` f32 elements, one cell of ``tile`` a block;
* ``row_softmax``: softmax along rows of a ``rows x cols`` f32 matrix, ``per_block``
  rows a block, the row maximum and sum kept as ``[per_block, 1]`` (keepdims);
* ``matmul``: ``c = a @ b`` in f32, ``tm x tn`` output tiles walking K in steps of ``tk``;
* ``gelu``: the tanh form of GELU over ``n`` f32 elements, an element-wise chain of eight
  arithmetic and math ops, one cell of ``tile`` a block;
* ``layer_norm``: layer norm along rows of a ``rows x cols`` f32 matrix (no affine),
  ``per_block`` rows a block: two row reductions and an ``rsqrt``;
* ``vadd_small``: vadd again, in cells of 64 (the same work in 16x more blocks: the fake
  device's cost should follow the work, not the blocks); ``vadd_wide``: in cells of 4096;
* ``flash_attn``: the chapter's attention forward ``softmax(q k^T * scale) v``
  (tileir/kernels/chapter.py) in f32 over ``n`` queries and keys of width ``d``, ``bq``
  queries a block, streaming keys and values ``bk`` at a time with a running maximum and sum.

:func:`case` records a kernel and makes its inputs: a :class:`Case` holds the
recorded kernel, the launch's arguments, and the numpy function whose answer the
interpreter's output buffer must match; for matmul and flash attention also ``steps_fn``,
"numpy, the kernel's steps": the kernel's own arithmetic (the per-K-step products rounded
before each add, the blockwise online softmax) in bulk numpy over all blocks at once, whose
answer the interpreter should match bit for bit (bench/fake_device.py checks and says).
"""

from __future__ import annotations

import functools
from typing import Callable, Optional

import attrs
import numpy as np

from tileir import (
    F32,
    FREE_AXIS,
    In,
    Out,
    Scalar,
    cells,
    exp,
    for_range,
    load_at,
    load_cell,
    mma,
    reduce_max,
    reduce_sum,
    rsqrt,
    store_cell,
    tanh,
    trace,
    zeros,
)
from tileir.kernels import chapter

__all__ = ["Case", "case", "SIZES", "NAMES"]


@attrs.frozen
class Case:
    """A recorded kernel with its arguments; ``numpy_fn(*args)`` computes the answer the
    interpreter leaves in argument ``out`` (compared within ``rtol`` / ``atol``)."""

    name: str
    kernel: object = attrs.field(repr=False)
    args: tuple = attrs.field(repr=False)
    numpy_fn: Callable = attrs.field(repr=False)
    out: int
    rtol: float
    atol: float
    work: str
    #: the kernel's own steps in bulk numpy (same signature as ``numpy_fn``), or None
    steps_fn: Optional[Callable] = attrs.field(default=None, repr=False)


# ----------------------------------------------------------------------------- vadd


def _vadd(a, b, out):
    x = yield load_cell(a)
    y = yield load_cell(b)
    yield store_cell(out, x + y)


def vadd(rng, n: int, tile: int) -> Case:
    g = cells([n], [tile])
    kernel = trace("bench_vadd", _vadd, In(F32, g), In(F32, g), Out(F32, g))
    a, b = (rng.standard_normal(n, dtype=np.float32) for _ in range(2))
    return Case(
        "vadd",
        kernel,
        (a, b, np.zeros(n, np.float32)),
        lambda a, b, o: a + b,
        2,
        0.0,
        0.0,
        f"{n} f32 in cells of {tile}",
    )


def vadd_small(rng, n: int, tile: int) -> Case:
    c = vadd(rng, n, tile)
    return attrs.evolve(c, name="vadd_small")


def vadd_wide(rng, n: int, tile: int) -> Case:
    c = vadd(rng, n, tile)
    return attrs.evolve(c, name="vadd_wide")


# ----------------------------------------------------------------------------- gelu

_GELU_C = 0.7978845608028654  # sqrt(2 / pi)


def _gelu(x, out):
    v = yield load_cell(x)
    inner = (v + v * v * v * 0.044715) * _GELU_C
    yield store_cell(out, v * (tanh(inner) + 1.0) * 0.5)


def _np_gelu(x, out):
    return x * (np.tanh((x + x * x * x * np.float32(0.044715)) * np.float32(_GELU_C)) + 1) * 0.5


def gelu(rng, n: int, tile: int) -> Case:
    g = cells([n], [tile])
    kernel = trace("bench_gelu", _gelu, In(F32, g), Out(F32, g))
    x = rng.standard_normal(n, dtype=np.float32)
    return Case(
        "gelu",
        kernel,
        (x, np.zeros(n, np.float32)),
        _np_gelu,
        1,
        1e-5,
        1e-6,
        f"{n} f32 in cells of {tile}, tanh form",
    )


# ----------------------------------------------------------------------------- row softmax


def _row_softmax(x, out):
    s = yield load_cell(x)
    p = exp(s - reduce_max(s, keepdims=True))
    yield store_cell(out, p / reduce_sum(p, keepdims=True))


def _np_row_softmax(rows: int, cols: int):
    def run(x, out):
        s = x.reshape(rows, cols)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True)

    return run


def row_softmax(rng, rows: int, cols: int, per_block: int) -> Case:
    g = cells([rows, cols], [per_block, cols])
    kernel = trace("bench_row_softmax", _row_softmax, In(F32, g), Out(F32, g))
    x = rng.standard_normal(rows * cols, dtype=np.float32)
    return Case(
        "row_softmax",
        kernel,
        (x, np.zeros(rows * cols, np.float32)),
        _np_row_softmax(rows, cols),
        1,
        1e-5,
        1e-7,
        f"{rows}x{cols} f32, {per_block} rows a block",
    )


# ----------------------------------------------------------------------------- layer norm


def _layer_norm_body(cols: int):
    def body(x, out):
        v = yield load_cell(x)
        d = v - reduce_sum(v, keepdims=True) * (1.0 / cols)
        var = reduce_sum(d * d, keepdims=True) * (1.0 / cols)
        yield store_cell(out, d * rsqrt(var + 1e-5))

    return body


def _np_layer_norm(rows: int, cols: int):
    def run(x, out):
        s = x.reshape(rows, cols)
        d = s - s.mean(axis=1, keepdims=True)
        return d / np.sqrt((d * d).mean(axis=1, keepdims=True) + np.float32(1e-5))

    return run


def layer_norm(rng, rows: int, cols: int, per_block: int) -> Case:
    g = cells([rows, cols], [per_block, cols])
    kernel = trace("bench_layer_norm", _layer_norm_body(cols), In(F32, g), Out(F32, g))
    x = rng.standard_normal(rows * cols, dtype=np.float32)
    return Case(
        "layer_norm",
        kernel,
        (x, np.zeros(rows * cols, np.float32)),
        _np_layer_norm(rows, cols),
        1,
        1e-4,
        1e-5,
        f"{rows}x{cols} f32, {per_block} rows a block",
    )


# ----------------------------------------------------------------------------- matmul


def _matmul_body(trips: int):
    def body(a, b, c):
        def step(k, acc):
            ta = yield load_at(a, [k])
            tb = yield load_at(b, [k])
            return mma(ta, tb, acc)

        acc = yield for_range(0, trips, step, init=zeros(c))
        yield store_cell(c, acc)

    return body


def matmul(rng, m: int, n: int, k: int, tm: int, tn: int, tk: int) -> Case:
    a_m = In(F32, cells([m, k], [tm, tk], along=[0, FREE_AXIS]))
    b_m = In(F32, cells([k, n], [tk, tn], along=[FREE_AXIS, 1]))
    c_m = Out(F32, cells([m, n], [tm, tn]))
    kernel = trace("bench_matmul", _matmul_body(k // tk), a_m, b_m, c_m)
    a = rng.standard_normal(m * k, dtype=np.float32)
    b = rng.standard_normal(k * n, dtype=np.float32)
    return Case(
        "matmul",
        kernel,
        (a, b, np.zeros(m * n, np.float32)),
        lambda a, b, c: a.reshape(m, k) @ b.reshape(k, n),
        2,
        1e-4,
        1e-3 * np.sqrt(k),
        f"{m}x{n}x{k} f32, {tm}x{tn}x{tk} tiles",
        _np_matmul_steps(m, n, k, tm, tn, tk),
    )


#: bytes of product the kernel's-steps peers make at once (a band that stays in cache)
STEPS_SCRATCH_BYTES = 1 << 20


def tile_products(a: np.ndarray, b: np.ndarray, tm: int, tn: int) -> np.ndarray:
    """``a @ b`` (``M x K`` by ``K x N``) made as the kernel's lanes make it: one GEMM per
    ``tm x tn`` tile of the result, each over contiguous ``tm x K`` and ``K x tn`` blocks
    (numpy's batched matmul, one BLAS call per tile)."""
    rows, depth = a.shape
    cols = b.shape[1]
    blocks_a = np.ascontiguousarray(a.reshape(rows // tm, tm, depth))[:, None]
    blocks_b = np.ascontiguousarray(b.reshape(depth, cols // tn, tn).transpose(1, 0, 2))[None]
    return np.matmul(blocks_a, blocks_b).transpose(0, 2, 1, 3).reshape(rows, cols)


@functools.cache
def bulk_keeps_tile_bits(rows: int, cols: int, depth: int, tm: int, tn: int) -> bool:
    """Whether this BLAS gives one ``rows x depth`` by ``depth x cols`` GEMM the bits of the
    same product made tile by tile (:func:`tile_products`).  Measured on random operands,
    never assumed: OpenBLAS picks its kernel and blocking by the call's shape (a small-matrix
    path, a forced ``OPENBLAS_CORETYPE``), and where two shapes sum a dot product in
    different orders, the bulk GEMM is not the kernel's arithmetic."""
    rng = np.random.default_rng(rows * 7919 + cols * 104729 + depth)
    a = rng.standard_normal((rows, depth), dtype=np.float32)
    b = rng.standard_normal((depth, cols), dtype=np.float32)
    return bool(
        np.array_equal((a @ b).view(np.uint32), tile_products(a, b, tm, tn).view(np.uint32))
    )


def _np_matmul_steps(m: int, n: int, k: int, tm: int, tn: int, tk: int):
    """The kernel's arithmetic over all blocks at once: per K step of ``tk``, the product
    of every block (one 2-D GEMM per band of rows, into a cache-sized scratch, where this
    BLAS gives a band the tiles' bits: :func:`bulk_keeps_tile_bits`; else tile by tile),
    rounded to f32, then added into the accumulator (``numpy.add(product, acc)``, as
    ``mmaf``)."""
    band = max(tm, STEPS_SCRATCH_BYTES // (n * 4) // tm * tm)  # whole rows of tiles
    bulk = bulk_keeps_tile_bits(min(band, m), n, tk, tm, tn)

    def run(a, b, c):
        am, bm = a.reshape(m, k), b.reshape(k, n)
        acc = np.zeros((m, n), np.float32)
        scratch = np.empty((min(band, m), n), np.float32)
        for k0 in range(0, k, tk):
            ak, bk = am[:, k0 : k0 + tk], bm[k0 : k0 + tk]
            for r0 in range(0, m, band):
                rows = acc[r0 : r0 + band]
                part = scratch[: rows.shape[0]]
                if bulk:
                    np.matmul(ak[r0 : r0 + band], bk, out=part)
                else:
                    part[...] = tile_products(ak[r0 : r0 + band], bk, tm, tn)
                np.add(part, rows, out=rows)
        return acc

    return run


# ----------------------------------------------------------------------------- flash attention


def _np_attention(n: int, d: int):
    def run(q, k, v, o, scale):
        s = (q.reshape(n, d) @ k.reshape(n, d).T) * scale
        p = np.exp(s - s.max(axis=1, keepdims=True))
        return (p / p.sum(axis=1, keepdims=True)) @ v.reshape(n, d)

    return run


def flash_attn(rng, n: int, d: int, bq: int, bk: int) -> Case:
    qo = cells([n, d], [bq, d])
    kv = cells([n, d], [bk, d], along=[FREE_AXIS, 1])
    kernel = trace(
        "bench_flash_attn",
        chapter.flash_attn,
        In(F32, qo),
        In(F32, kv),
        In(F32, kv),
        Out(F32, qo),
        Scalar(F32),
    )
    q, k, v = (rng.standard_normal(n * d, dtype=np.float32) for _ in range(3))
    scale = np.float32(1.0 / np.sqrt(d))
    return Case(
        "flash_attn",
        kernel,
        (q, k, v, np.zeros(n * d, np.float32), scale),
        _np_attention(n, d),
        3,
        1e-4,
        1e-5,
        f"{n} queries/keys of width {d}, blocks {bq}x{bk}, f32",
        _np_flash_steps(n, d, bq, bk),
    )


def _pairwise_rows(x: np.ndarray) -> np.ndarray:
    """Row sums as ``reduce_sum`` makes them (tileir.fake.rules.misc): neighbours added
    pairwise, a balanced tree, a level of odd length padded with zero; keepdims."""
    while x.shape[-1] > 1:
        if x.shape[-1] % 2:
            x = np.concatenate([x, np.zeros(x.shape[:-1] + (1,), x.dtype)], axis=-1)
        x = x[..., 0::2] + x[..., 1::2]
    return x


def _np_flash_steps(n: int, d: int, bq: int, bk: int):
    """The chapter kernel's flash attention (tileir/kernels/chapter.py) step by step in f32,
    every query block at once: per key block, ``s = (q k^T + 0) * scale`` (one GEMM over all
    queries), the running maximum, ``p = exp(s - m)``, the rescaled running sum and
    ``acc = p v + acc * alpha``; at the end ``acc / l``.  Each GEMM is made for all queries
    at once where this BLAS gives that the query blocks' bits (:func:`bulk_keeps_tile_bits`),
    else block by block."""
    scores_bulk = bulk_keeps_tile_bits(n, bk, d, bq, bk)
    values_bulk = bulk_keeps_tile_bits(n, d, bk, bq, d)

    def product(x, y, bulk):
        return x @ y if bulk else tile_products(x, y, bq, y.shape[1])

    def run(q, k, v, o, scale):
        qm, km, vm = q.reshape(n, d), k.reshape(n, d), v.reshape(n, d)
        scale = np.float32(scale)
        m = np.full((n, 1), -np.inf, np.float32)
        total = np.zeros((n, 1), np.float32)
        acc = np.zeros((n, d), np.float32)
        for j in range(0, n, bk):
            s = np.add(product(qm, km[j : j + bk].T, scores_bulk), np.float32(0)) * scale
            m_new = np.maximum(m, s.max(axis=1, keepdims=True))
            p = np.exp(s - m_new)
            alpha = np.exp(m - m_new)
            total = total * alpha + _pairwise_rows(p)
            acc = np.add(product(p, vm[j : j + bk], values_bulk), acc * alpha)
            m = m_new
        return acc / total

    return run


_BUILDERS = {
    "vadd": vadd,
    "vadd_small": vadd_small,
    "vadd_wide": vadd_wide,
    "gelu": gelu,
    "row_softmax": row_softmax,
    "layer_norm": layer_norm,
    "matmul": matmul,
    "flash_attn": flash_attn,
}
NAMES = tuple(_BUILDERS)

#: size name -> kernel -> builder keyword arguments
SIZES = {
    "full": {
        "vadd": dict(n=1 << 24, tile=1024),
        "vadd_small": dict(n=1 << 24, tile=64),
        "vadd_wide": dict(n=1 << 24, tile=4096),
        "gelu": dict(n=1 << 24, tile=1024),
        "row_softmax": dict(rows=4096, cols=1024, per_block=8),
        "layer_norm": dict(rows=8192, cols=1024, per_block=8),
        "matmul": dict(m=1024, n=1024, k=1024, tm=64, tn=64, tk=32),
        "flash_attn": dict(n=1024, d=64, bq=64, bk=64),
    },
    "tiny": {
        "vadd": dict(n=4096, tile=1024),
        "vadd_small": dict(n=4096, tile=64),
        "vadd_wide": dict(n=8192, tile=4096),
        "gelu": dict(n=4096, tile=1024),
        "row_softmax": dict(rows=32, cols=64, per_block=8),
        "layer_norm": dict(rows=32, cols=64, per_block=8),
        "matmul": dict(m=128, n=128, k=128, tm=64, tn=64, tk=32),
        "flash_attn": dict(n=128, d=64, bq=64, bk=64),
    },
    # the interpreter's fixed costs: many blocks and trips of tiny tiles, so numpy's work is
    # next to nothing and the time is the interpreter's own per op, per trip and per launch
    # (flash attention: 16 trips over 16 query blocks of 8 x 8; matmul: 16 trips over 256
    # blocks); the ratios to numpy mean little at this size, the times are the figure
    "overhead": {
        "vadd": dict(n=1 << 14, tile=64),
        "vadd_small": dict(n=1 << 14, tile=64),
        "vadd_wide": dict(n=1 << 14, tile=64),
        "gelu": dict(n=1 << 14, tile=64),
        "row_softmax": dict(rows=256, cols=8, per_block=1),
        "layer_norm": dict(rows=256, cols=8, per_block=1),
        "matmul": dict(m=128, n=128, k=128, tm=8, tn=8, tk=8),
        "flash_attn": dict(n=128, d=8, bq=8, bk=8),
    },
}


def case(name: str, size: str = "full", seed: int = 0) -> Case:
    """Record kernel ``name`` at ``size`` ("full" or "tiny") with inputs from ``seed``."""
    return _BUILDERS[name](np.random.default_rng(seed), **SIZES[size][name])
