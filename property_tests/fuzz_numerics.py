"""Numerics of the kernel fuzzer's oracle, written apart from the fake device's own.

* :func:`round_into`: float64 values (plus an optional tiny residual ``lo`` whose
  sign decides exact ties) rounded to nearest-even in f16 / bf16 / f32 / f64.
  numpy rounds float64 -> f16 / f32 correctly; bf16 goes through f32 and then
  repairs the one case where rounding twice is wrong (an f32 result that is
  exactly halfway between two bf16 values, reached from a value that was not).
* :func:`ulp`: the spacing of a format at a magnitude.
* :class:`EV`: a value the oracle carries per block, ``val`` in the format's
  dtype and ``err``, a bound on how far an implementation may be from it:
  ``0`` where the dialect fixes the result bit for bit, a finite bound where it
  leaves rounding to the implementation (math functions, and anything computed
  from such values), ``inf`` where the result is not determined (undefined
  behaviour, or a comparison too close to call).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

__all__ = ["FLOAT_INFO", "INT_BITS", "dtype_of", "round_into", "ulp", "max_finite", "EV",
           "is_float", "wrap_int"]

#: format -> (significand bits incl. the implicit one, smallest normal exponent)
FLOAT_INFO = {"f16": (11, -14), "bf16": (8, -126), "f32": (24, -126), "f64": (53, -1022)}
INT_BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}

_DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
           "f32": np.dtype(np.float32), "f64": np.dtype(np.float64), "i1": np.dtype(np.bool_),
           "i8": np.dtype(np.int8), "i16": np.dtype(np.int16), "i32": np.dtype(np.int32),
           "i64": np.dtype(np.int64)}
_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def dtype_of(fmt: str) -> np.dtype:
    return _DTYPES[fmt]


def is_float(fmt: str) -> bool:
    return fmt in FLOAT_INFO


def max_finite(fmt: str) -> float:
    p, emin = FLOAT_INFO[fmt]
    emax = 1 - emin if fmt != "f16" else 15
    return float((2.0 - 2.0 ** (1 - p)) * 2.0 ** emax)


def _neighbour(r: np.ndarray, away: np.ndarray) -> np.ndarray:
    """The next value of r's format away from zero (``away``) or toward it."""
    u = _UINT[r.dtype.itemsize]
    bits = np.ascontiguousarray(r).view(u).copy()
    zero = r.astype(np.float64) == 0
    step = np.where(away, 1, -1).astype(np.int64)
    moved = (bits.astype(np.int64) + step).astype(u)
    return np.where(zero, r, moved.view(r.dtype))


def _tie_fix(hi: np.ndarray, r: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """``r`` = nearest-even of ``hi``; the exact value is ``hi + lo`` with ``lo`` tiny.  Where
    ``hi`` sits exactly halfway and ``lo`` pushes past the midpoint, take the neighbour."""
    rd = r.astype(np.float64)
    d = hi - rd
    cand = (d != 0) & np.isfinite(rd) & (lo != 0)
    if not cand.any():
        return r
    nb = _neighbour(r, np.sign(d) == np.sign(rd))
    tiny = float(np.array([1], dtype=_UINT[r.dtype.itemsize]).view(r.dtype)[0])
    nb = np.where(rd == 0, np.copysign(tiny, d).astype(r.dtype), nb)
    half = np.abs(nb.astype(np.float64) - rd) / 2
    flip = cand & (np.abs(d) == half) & (np.sign(lo) == np.sign(d))
    return np.where(flip, nb, r)


def round_into(x, fmt: str, lo=None) -> np.ndarray:
    """``x (+ lo)`` rounded to nearest-even in float format ``fmt``."""
    x = np.asarray(x, dtype=np.float64)
    lo = np.zeros_like(x) if lo is None else np.broadcast_to(np.asarray(lo, np.float64), x.shape)
    with np.errstate(all="ignore"):
        if fmt == "f64":
            return x.copy()
        if fmt in ("f32", "f16"):
            r = x.astype(_DTYPES[fmt])
            return _tie_fix(x, r, lo)
        # bf16: through f32, carrying what f32 dropped
        r32 = x.astype(np.float32)
        rest = np.where(np.isfinite(r32), (x - r32.astype(np.float64)) + lo, 0.0)
        r = r32.astype(ml_dtypes.bfloat16)
        return _tie_fix(r32.astype(np.float64), r, rest)


def ulp(x, fmt: str) -> np.ndarray:
    """The spacing of ``fmt`` at magnitude ``|x|`` (inf for non-finite ``x``)."""
    p, emin = FLOAT_INFO[fmt]
    a = np.abs(np.asarray(x, dtype=np.float64))
    _, e = np.frexp(np.where(np.isfinite(a), a, 1.0))
    e = np.where(a == 0, emin + 1, e)  # zero: the smallest spacing, a subnormal's
    out = np.ldexp(1.0, np.maximum(e - 1, emin) - (p - 1))
    return np.where(np.isfinite(a), out, np.inf)


def wrap_int(x: np.ndarray, fmt: str) -> np.ndarray:
    """Python-int (object) values wrapped to the signed width of ``fmt``, in its dtype."""
    bits = INT_BITS[fmt]
    if bits == 1:
        return (np.asarray(x, dtype=object) % 2).astype(np.bool_)
    m = 1 << bits
    half = 1 << (bits - 1)
    flat = [((int(v) + half) % m) - half for v in np.asarray(x, dtype=object).reshape(-1)]
    return np.array(flat, dtype=np.int64).astype(_DTYPES[fmt]).reshape(np.shape(x))


class EV:
    """An oracle value: ``val`` (``(B, *shape)`` in the format's dtype), ``err`` (float64
    bound, same shape) and ``fmt``."""

    __slots__ = ("val", "err", "fmt")

    def __init__(self, val: np.ndarray, err, fmt: str):
        self.val = np.asarray(val)
        e = np.zeros(self.val.shape) if err is None else np.asarray(err, dtype=np.float64)
        self.err = np.broadcast_to(e, self.val.shape).copy()
        self.fmt = fmt

    @property
    def shape(self) -> tuple:
        return self.val.shape[1:]

    def f64(self) -> np.ndarray:
        return self.val.astype(np.float64)

    def ints(self) -> np.ndarray:
        """Values as Python ints (object array), i1 as 0 / 1."""
        return self.val.astype(np.int64).astype(object)

    def unknown(self) -> np.ndarray:
        return np.isinf(self.err)

    def map(self, fn) -> "EV":
        """The same change of layout (reshape, transpose, broadcast) on value and bound."""
        return EV(fn(self.val), fn(self.err), self.fmt)
