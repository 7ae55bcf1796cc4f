"""The fuzzer oracle's rules for scans and mma, on :class:`~fuzz_numerics.EV` values.

* ``scan``: integer scans (sum prod max min and or xor) are exact, wrapped to the
  width; float ``max`` / ``min`` scans are exact (maximumNumber / minimumNumber with
  ``+0 > -0`` do not depend on the order); float ``sum`` / ``prod`` scans are combined
  in an order the dialect leaves open, so they carry ``fuzz_bounds``' order-free bound.
* ``mma``: ``a @ b + acc`` from the exact float64 products (exact for every format up to
  f32; f64 products carry their rounding in the bound), summed with the bound of any
  order in the accumulation precision: f32 for f16 / bf16 / tf32 / f32 / fp8 factors into
  an f32 accumulator, f64 for f64, and f16's own where the accumulator is f16 (the
  intermediate precision is the implementation's).  ``fast_acc`` trades accumulation
  precision for speed without saying how much: the oracle allows f16's (2**-11).
  ``mmai`` is exact: i8 factors read signed or unsigned, an i32 sum that wraps.
"""

from __future__ import annotations

import numpy as np

from fuzz_bounds import prefix_products, prefix_sums, sum_terms, unit_roundoff
from fuzz_numerics import EV, is_float, tiny, wrap_int
from fuzz_ops import _max_number

__all__ = ["scan", "mma", "SCAN_INT", "SCAN_FLOAT", "FAST_ACC_U"]

SCAN_FLOAT = ("sum", "prod", "max", "min")
SCAN_INT = ("sum", "prod", "max", "min", "and", "or", "xor")
#: The unit roundoff the oracle allows an accumulation with ``fast_acc``.
FAST_ACC_U = 2.0**-11

_INT_ACC = {
    "sum": np.add,
    "prod": np.multiply,
    "max": np.maximum,
    "min": np.minimum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
}


def _along(a: EV, dim: int, reverse: bool) -> tuple:
    """Value and bound with the scanned dimension last (reversed for a reverse scan)."""
    axis = dim + 1
    val, err = np.moveaxis(a.val, axis, -1), np.moveaxis(a.err, axis, -1)
    if reverse:
        val, err = val[..., ::-1], err[..., ::-1]
    return val, err


def _back(val: np.ndarray, err: np.ndarray, dim: int, reverse: bool, fmt: str) -> EV:
    if reverse:
        val, err = val[..., ::-1], err[..., ::-1]
    axis = dim + 1
    return EV(np.moveaxis(val, -1, axis), np.moveaxis(err, -1, axis), fmt)


def scan(combiner: str, dim: int, reverse: bool, a: EV) -> EV:
    """The inclusive scan of ``a`` along ``dim`` with ``combiner``."""
    val, err = _along(a, dim, reverse)
    fmt = a.fmt
    if not is_float(fmt):
        # int64 arithmetic wraps modulo 2**64, a multiple of every width: wrap once at the end
        acc = _INT_ACC[combiner].accumulate(val.astype(np.int64), axis=-1)
        out = wrap_int(acc, fmt)
        open_ = np.maximum.accumulate(np.where(err > 0, np.inf, 0.0), axis=-1)
        return _back(out, open_, dim, reverse, fmt)
    x = val.astype(np.float64)
    if combiner in ("sum", "prod"):
        rule = prefix_sums if combiner == "sum" else prefix_products
        out, bound = rule(x, err, fmt)
        return _back(out, bound, dim, reverse, fmt)
    out = np.empty_like(x)
    bound = np.empty_like(x)
    cur, cur_err = x[..., 0], err[..., 0]
    out[..., 0], bound[..., 0] = cur, cur_err
    for k in range(1, x.shape[-1]):
        cur = _max_number(cur, x[..., k], combiner == "max")
        cur_err = np.maximum(cur_err, err[..., k])  # max / min move no more than an input
        out[..., k], bound[..., k] = cur, cur_err
    return _back(out.astype(val.dtype), bound, dim, reverse, fmt)


def _int_factor(v: np.ndarray, signed: bool) -> np.ndarray:
    v = v.astype(np.int64)
    return v if signed else v & 0xFF


def mma(a: EV, b: EV, c: EV, fast_acc: bool = False, signs=(True, True)) -> EV:
    """``a @ b + c`` per block: ``a`` is ``(B, M, K)``, ``b`` ``(B, K, N)``, ``c``
    ``(B, M, N)`` in the accumulator's format."""
    fmt = c.fmt
    if not is_float(fmt):
        prod = np.matmul(_int_factor(a.val, signs[0]), _int_factor(b.val, signs[1]))
        out = wrap_int(prod + c.val.astype(np.int64), fmt)
        # a lane is open when its row of a, its column of b or its accumulator is
        row = (a.err > 0).any(axis=-1)[:, :, None]
        col = (b.err > 0).any(axis=-2)[:, None, :]
        return EV(out, np.where(row | col | (c.err > 0), np.inf, 0.0), fmt)
    x, y = a.f64(), b.f64()
    ex, ey = a.err, b.err
    with np.errstate(all="ignore"):
        # terms[..., m, n, k] = a[m, k] * b[k, n]; the accumulator is one more term
        terms = x[:, :, None, :] * np.swapaxes(y, 1, 2)[:, None, :, :]
        xa, ya = np.abs(x)[:, :, None, :], np.abs(np.swapaxes(y, 1, 2))[:, None, :, :]
        exx, eyy = ex[:, :, None, :], np.swapaxes(ey, 1, 2)[:, None, :, :]
        term_err = np.where((exx > 0) | (eyy > 0), xa * eyy + ya * exx + exx * eyy, 0.0)
    terms = np.concatenate([terms, c.f64()[..., None]], axis=-1)
    term_err = np.concatenate([term_err, c.err[..., None]], axis=-1)
    accumulate = "f64" if fmt == "f64" else ("f16" if fmt == "f16" else "f32")
    u = FAST_ACC_U if fast_acc else unit_roundoff(accumulate)
    # a product below the normal range rounds to a multiple of the smallest subnormal
    underflow = (
        0.0 if a.fmt in ("f8E4M3FN", "f8E5M2") and accumulate != "f16" else tiny(accumulate)
    )
    out, bound = sum_terms(terms, term_err, fmt, u, underflow)
    return EV(out, bound, fmt)
