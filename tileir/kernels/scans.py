"""Scans, arg-reductions, reductions with a combiner the kernel writes, and top-k by rows.

* ``cumsum_*`` / ``cumprod_*`` / ``scan_*``: inclusive prefix combinations (``scan``) along
  each dimension, forwards and in reverse, with named and hand-written combiners.
* ``argmax_*`` / ``argmin_*``: a two-operand ``reduce`` over (value, index) pairs.
* ``reduce_*``: reductions whose combiner the kernel writes (sum of squares, bitwise or, a
  two-operand min-and-max).
* ``topk4_rows_*``: the 4 largest values of each row and where they are: 4 passes of
  argmax, each masking out the winner (``select``) before the next.
Matrices are 64 x 64, 16 rows a block (or whole columns for dim 0).
"""

from __future__ import annotations

import numpy as np

from tileir import (
    F16,
    F32,
    F64,
    I32,
    I64,
    In,
    Out,
    argmax,
    argmin,
    cat,
    cells,
    cumprod,
    cumsum,
    equal,
    load_cell,
    maximum,
    minimum,
    reduce,
    scan,
    sqrt,
    store_cell,
    trace,
    where,
)
from tileir.host.tolerance import Tolerance
from tileir.kernels.common import exact, make, uniform
from tileir.ops.reductions import broadcast_iota

R = C = 64
TR = 16


def _cells(dim: int):
    """The cells a block reads for a scan or reduction along ``dim`` of the R x C matrix."""
    return cells([R, C], [TR, C]) if dim == 1 else cells([R, C], [R, TR])


def _gen(fmt, lo=-4, hi=4):
    if fmt.is_int:
        return lambda rng, n: rng.integers(-1000, 1000, n).astype(fmt.numpy_dtype)
    return lambda rng, n: uniform(lo, hi)(rng, n, fmt.numpy_dtype)


def _elementwise_out(
    name: str, fmt, dim: int, fn, ref, doc: str, tolerance=None, gen=None, out_fmt=None
) -> None:
    """A kernel whose output has the input's shape (a scan), along ``dim``."""
    out_fmt = out_fmt or fmt
    gen = gen or _gen(fmt)

    def body(x, out):
        yield store_cell(out, fn((yield load_cell(x))))

    def build():
        return trace(name, body, In(fmt, _cells(dim)), Out(out_fmt, _cells(dim)))

    def reference(args):
        x, out = args
        return [x, np.asarray(ref(x.reshape(R, C))).reshape(-1).astype(out_fmt.numpy_dtype)]

    make(
        name,
        build,
        reference,
        lambda rng: ([gen(rng, R * C), np.zeros(R * C, out_fmt.numpy_dtype)], None),
        tolerance,
        "scan",
        doc,
    )


def _reduced_out(
    name: str, fmt, dim: int, fn, ref, doc: str, out_fmt, tolerance=None, gen=None
) -> None:
    """A kernel reducing along ``dim`` to one value per row (dim 1) or column (dim 0)."""
    gen = gen or _gen(fmt)
    out_cells = cells([R], [TR]) if dim == 1 else cells([C], [TR], along=[1])

    def body(x, out):
        yield store_cell(out, fn((yield load_cell(x))))

    def build():
        return trace(name, body, In(fmt, _cells(dim)), Out(out_fmt, out_cells))

    def reference(args):
        x, out = args
        return [x, np.asarray(ref(x.reshape(R, C))).reshape(-1).astype(out_fmt.numpy_dtype)]

    make(
        name,
        build,
        reference,
        lambda rng: ([gen(rng, R * C), np.zeros(R, out_fmt.numpy_dtype)], None),
        tolerance,
        "scan",
        doc,
    )


def _sum_tol(fmt):
    if fmt.is_int:
        return exact
    return Tolerance(rtol=1e-12, atol=1e-12) if fmt == F64 else Tolerance(rtol=1e-5, atol=1e-4)


def _np_cum(x, axis, reverse, fn=np.cumsum):
    if reverse:
        return np.flip(
            fn(np.flip(x.astype(np.float64) if x.dtype.kind == "f" else x, axis), axis=axis), axis
        )
    return fn(x.astype(np.float64) if x.dtype.kind == "f" else x, axis=axis)


def _scans() -> None:
    for fmt in (F32, F64, I32, I64):
        for dim in (1, 0):
            for reverse in (False, True):
                if fmt in (F64, I64) and reverse:
                    continue
                where_ = "rows" if dim == 1 else "cols"
                name = f"cumsum_{where_}_{fmt}" + ("_rev" if reverse else "")
                _elementwise_out(
                    name,
                    fmt,
                    dim,
                    lambda t, d=dim, r=reverse: cumsum(t, d, r),
                    lambda x, d=dim, r=reverse: _np_cum(x, d, r),
                    f"running sum along {'each row' if dim == 1 else 'each column'} of a 64x64 "
                    f"{fmt} matrix{' from the end' if reverse else ''} (scan)",
                    _sum_tol(fmt),
                )
    _elementwise_out(
        "cumprod_rows_f64",
        F64,
        1,
        lambda t: cumprod(t, 1),
        lambda x: np.cumprod(x, axis=1),
        "running product along each row of a 64x64 f64 matrix of values near 1 (scan)",
        Tolerance(rtol=1e-12, atol=1e-14),
        gen=_gen(F64, 0.9, 1.1),
    )
    _elementwise_out(
        "scan_max_rows_f32",
        F32,
        1,
        lambda t: scan(t, lambda acc, v: maximum(acc, v), -np.inf, 1),
        lambda x: np.maximum.accumulate(x, axis=1),
        "running maximum along each row (scan with a max combiner)",
    )
    _elementwise_out(
        "scan_min_cols_i32_rev",
        I32,
        0,
        lambda t: scan(t, lambda acc, v: minimum(acc, v), 2**31 - 1, 0, True),
        lambda x: np.flip(np.minimum.accumulate(np.flip(x, 0), axis=0), 0),
        "running minimum up each column from the bottom (reverse scan)",
    )
    _elementwise_out(
        "cumsum_rows_f16_in_f32",
        F16,
        1,
        lambda t: cumsum(t.to(F32), 1),
        lambda x: np.cumsum(x.astype(np.float64), axis=1),
        "running sum of f16 rows widened to f32",
        _sum_tol(F32),
        out_fmt=F32,
    )


def _args() -> None:
    for fmt in (F32, F16, I32):
        _reduced_out(
            f"argmax_rows_{fmt}",
            fmt,
            1,
            lambda t: argmax(t, 1),
            lambda x: np.argmax(x, axis=1),
            f"where each row of a 64x64 {fmt} matrix has its maximum (two-operand reduce)",
            I32,
        )
    _reduced_out(
        "argmin_cols_f32",
        F32,
        0,
        lambda t: argmin(t, 0),
        lambda x: np.argmin(x, axis=0),
        "where each column has its minimum",
        I32,
    )
    _reduced_out(
        "argmax_rows_f64",
        F64,
        1,
        lambda t: argmax(t, 1),
        lambda x: np.argmax(x, axis=1),
        "where each f64 row has its maximum",
        I32,
    )


def _combiners() -> None:
    # a combiner must be associative and commutative over accumulators (the device combines
    # partial results with each other): hypot is, and folds a row into its Euclidean norm
    _reduced_out(
        "reduce_norm_rows_f32",
        F32,
        1,
        lambda t: reduce(t, lambda acc, v: sqrt(acc * acc + v * v), 0.0, 1),
        lambda x: np.sqrt((x.astype(np.float64) ** 2).sum(axis=1)),
        "the Euclidean norm of each row with a hypot combiner",
        F32,
        Tolerance(rtol=1e-5, atol=1e-5),
    )
    _reduced_out(
        "reduce_or_rows_i32",
        I32,
        1,
        lambda t: reduce(t, lambda acc, v: acc | v, 0, 1),
        lambda x: np.bitwise_or.reduce(x, axis=1),
        "bitwise or of each row",
        I32,
        gen=lambda rng, n: (1 << rng.integers(0, 31, n)).astype(np.int32),
    )

    def minmax(t):
        lo, hi = reduce(
            (t, t),
            lambda acc, v: (minimum(acc[0], v[0]), maximum(acc[1], v[1])),
            (np.inf, -np.inf),
            1,
        )
        return hi - lo

    _reduced_out(
        "reduce_range_rows_f32",
        F32,
        1,
        minmax,
        lambda x: x.max(axis=1) - x.min(axis=1),
        "max - min of each row from one two-operand reduce",
        F32,
    )


def _topk(fmt, k: int = 4) -> None:
    name = f"topk{k}_rows_{fmt}"

    def body(x, values, indices):
        t = yield load_cell(x)
        cols = broadcast_iota(t, 1)
        vals, idxs = [], []
        for _ in range(k):
            i = argmax(t, 1, keepdims=True)  # [TR, 1]
            hit = equal(cols, i)
            vals.append(
                reduce(
                    where(hit, t, -np.inf), lambda a, v: maximum(a, v), -np.inf, 1, keepdims=True
                )
            )
            idxs.append(i)
            t = where(hit, -np.inf, t)
        yield store_cell(values, cat(cat(vals[0], vals[1], 1), cat(vals[2], vals[3], 1), 1))
        yield store_cell(indices, cat(cat(idxs[0], idxs[1], 1), cat(idxs[2], idxs[3], 1), 1))

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([R, C], [TR, C])),
            Out(fmt, cells([R, k], [TR, k])),
            Out(I32, cells([R, k], [TR, k])),
        )

    def reference(args):
        x, values, indices = args
        m = x.reshape(R, C)
        order = np.argsort(-m.astype(np.float64), axis=1, kind="stable")[:, :k]
        return [x, np.take_along_axis(m, order, 1).reshape(-1), order.reshape(-1).astype(np.int32)]

    make(
        name,
        build,
        reference,
        lambda rng: (
            [
                uniform()(rng, R * C, fmt.numpy_dtype),
                np.zeros(R * k, fmt.numpy_dtype),
                np.zeros(R * k, np.int32),
            ],
            None,
        ),
        None,
        "scan",
        f"the {k} largest values of each row of a 64x64 {fmt} matrix and their "
        f"columns: {k} passes of argmax, masking each winner out",
    )


_scans()
_args()
_combiners()
_topk(F32)
_topk(F64)
