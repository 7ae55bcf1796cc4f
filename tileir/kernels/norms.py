"""Softmax, log-softmax, layer norm and RMS norm over rows, in several formats.

The arithmetic is :mod:`tileir.lib`'s (softmax, log_softmax, layer_norm, rms_norm).
Rows are the last dimension; each block normalises 16 rows with ``keepdims``
reductions (a [16, 1] column that widens back over the row).  f16 and bf16
kernels widen to f32, normalise there and narrow once.  ``*_pad`` kernels have
rows of 100 in cells of 128: the library's reductions leave the 28 lanes past the
extent out (the tile's valid lanes), so softmax's ``neg_inf`` padding and layer
norm's zero padding no longer decide the result.  Layer and RMS norm read their
per-column weights through a FREE_AXIS cell (``load_at``), the same for every block.
"""

from __future__ import annotations

import numpy as np

from tileir import (
    BF16,
    F16,
    F32,
    F64,
    FREE_AXIS,
    In,
    Out,
    cells,
    load_at,
    load_cell,
    store_cell,
    trace,
)
from tileir.kernels.common import make, tol, uniform
from tileir.lib import layer_norm, log_softmax, rms_norm, softmax

R, C, TR = 128, 128, 16
EPS = 1e-5
_ULPS_OUT = {"f32": 64, "f64": 4096, "f16": 4, "bf16": 4}


def _compute(fmt):
    return F32 if fmt in (F16, BF16) else fmt


def _tolerance(fmt):
    return tol(fmt, _ULPS_OUT[fmt.name])


def _softmax_rows(t, log_form=False):
    return log_softmax(t) if log_form else softmax(t)


def _np_softmax(x, axis=-1, log_form=False):
    s = x - x.max(axis=axis, keepdims=True)
    if log_form:
        return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))
    e = np.exp(s)
    return e / e.sum(axis=axis, keepdims=True)


def _rows_spec(kind: str, fmt, cols: int = C, tile_c: int = C, pad: str = "zero") -> None:
    """softmax / log_softmax over rows of ``cols`` (in cells of ``tile_c``) of an R-row matrix."""
    comp = _compute(fmt)
    name = f"{kind}_rows_{fmt}" + ("_pad" if cols != tile_c else "")
    log_form = kind == "log_softmax"

    def body(x, out):
        t = yield load_cell(x)
        y = _softmax_rows(t.to(comp), log_form)
        yield store_cell(out, y.to(fmt))

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([R, cols], [TR, tile_c], pad=pad)),
            Out(fmt, cells([R, cols], [TR, tile_c])),
        )

    def reference(args):
        x, out = args
        y = _np_softmax(x.astype(np.float64).reshape(R, cols), log_form=log_form)
        return [x, y.reshape(-1).astype(fmt.numpy_dtype)]

    def inputs(rng):
        n = R * cols
        return [uniform(-4, 4)(rng, n, fmt.numpy_dtype), np.zeros(n, fmt.numpy_dtype)], None

    padded = f" (rows of {cols} in cells of {tile_c}, padded with {pad})" if cols != tile_c else ""
    make(
        name,
        build,
        reference,
        inputs,
        _tolerance(fmt),
        "norm",
        f"{kind} over each row of a {R}x{cols} {fmt} matrix, 16 rows a block{padded}",
    )


def _softmax_1d(fmt, n: int, tile: int) -> None:
    name = f"softmax_1d_{fmt}_{n}"

    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, softmax(t))

    def build():
        return trace(
            name, body, In(fmt, cells([n], [tile], pad="neg_inf")), Out(fmt, cells([n], [tile]))
        )

    def reference(args):
        x, out = args
        return [x, _np_softmax(x.astype(np.float64)).astype(fmt.numpy_dtype)]

    def inputs(rng):
        return [uniform(-6, 6)(rng, n, fmt.numpy_dtype), np.full(n, 7.0, fmt.numpy_dtype)], None

    make(
        name,
        build,
        reference,
        inputs,
        _tolerance(fmt),
        "norm",
        f"softmax of {n} {fmt} values in one cell of {tile}; the {tile - n} lanes past the "
        f"extent read -inf",
    )


def _col_softmax(fmt) -> None:
    name = f"softmax_cols_{fmt}"

    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, softmax(t, dim=0))

    def build():
        g = cells([64, 256], [64, 32])
        return trace(name, body, In(fmt, g), Out(fmt, g))

    def reference(args):
        x, out = args
        return [
            x,
            _np_softmax(x.astype(np.float64).reshape(64, 256), axis=0)
            .reshape(-1)
            .astype(fmt.numpy_dtype),
        ]

    def inputs(rng):
        n = 64 * 256
        return [uniform()(rng, n, fmt.numpy_dtype), np.zeros(n, fmt.numpy_dtype)], None

    make(
        name,
        build,
        reference,
        inputs,
        _tolerance(fmt),
        "norm",
        f"softmax down each column of a 64x256 {fmt} matrix (reduce dim=0, keepdims)",
    )


def _norm_spec(kind: str, fmt, cols: int = C, tile_c: int = C) -> None:
    """Layer norm (``x - mean``, over ``sqrt(var + eps)``, times gamma plus beta) or RMS norm
    (``x * rsqrt(mean(x^2) + eps) * gamma``) over rows."""
    comp = _compute(fmt)
    padded = cols != tile_c
    name = f"{kind}_{fmt}" + ("_pad" if padded else "")

    def body(x, gamma, beta, out):
        t = (yield load_cell(x)).to(comp)
        g = (yield load_at(gamma, [0])).to(comp)  # [1, C]: widens over the rows
        b = (yield load_at(beta, [0])).to(comp)
        if kind == "layernorm":
            y = layer_norm(t, g, b, eps=EPS)
        else:
            y = rms_norm(t, g, eps=EPS)
        yield store_cell(out, y.to(fmt))

    def build():
        w = cells([1, cols], [1, tile_c], along=[FREE_AXIS, 1])
        return trace(
            name,
            body,
            In(fmt, cells([R, cols], [TR, tile_c])),
            In(fmt, w),
            In(fmt, w),
            Out(fmt, cells([R, cols], [TR, tile_c])),
        )

    def reference(args):
        x, gamma, beta, out = args
        t = x.astype(np.float64).reshape(R, cols)
        g, b = gamma.astype(np.float64), beta.astype(np.float64)
        if kind == "layernorm":
            d = t - t.mean(axis=1, keepdims=True)
            y = d / np.sqrt((d * d).mean(axis=1, keepdims=True) + EPS) * g + b
        else:
            y = t / np.sqrt((t * t).mean(axis=1, keepdims=True) + EPS) * g
        return [x, gamma, beta, y.reshape(-1).astype(fmt.numpy_dtype)]

    def inputs(rng):
        dt = fmt.numpy_dtype
        return [
            uniform(-3, 5)(rng, R * cols, dt),
            uniform(0.5, 1.5)(rng, cols, dt),
            uniform(-1, 1)(rng, cols, dt),
            np.zeros(R * cols, dt),
        ], None

    what = "layer norm" if kind == "layernorm" else "RMS norm"
    extra = f", rows of {cols} in cells of {tile_c}" if padded else ""
    make(
        name,
        build,
        reference,
        inputs,
        _tolerance(fmt),
        "norm",
        f"{what} over each row of a {R}x{cols} {fmt} matrix with per-column weights{extra}",
    )


def _family() -> None:
    for fmt in (F32, F64, F16, BF16):
        _rows_spec("softmax", fmt)
        _norm_spec("layernorm", fmt)
        _norm_spec("rmsnorm", fmt)
    for fmt in (F32, F64):
        _rows_spec("log_softmax", fmt)
        _rows_spec("softmax", fmt, cols=100, tile_c=128, pad="neg_inf")
        _softmax_1d(fmt, 1000, 1024)
        _col_softmax(fmt)
    _norm_spec("layernorm", F32, cols=100, tile_c=128)
    _norm_spec("rmsnorm", F32, cols=100, tile_c=128)


_family()
