"""Numerics of the kernel fuzzer's oracle, written apart from the fake device's own.

* :func:`round_into`: float64 values (plus an optional tiny residual ``lo`` whose
  sign decides exact ties) rounded to nearest-even in f16 / bf16 / f32 / f64.
  numpy rounds float64 -> f16 / f32 correctly; bf16 goes through f32 and then
  repairs the one case where rounding twice is wrong (an f32 result that is
  exactly halfway between two bf16 values, reached from a value that was not).
  The narrow formats (tf32, f8E4M3FN, f8E5M2) are rounded by :func:`round_generic`
  from their significand width and exponent range alone: ml_dtypes' own casts from
  float64 go through float32 and round twice (``1 + 2**-4 + 2**-40`` becomes 1.0 in
  f8E4M3FN instead of 1.125), so they only hold values already rounded here.
* :func:`round_mode`: the same in ``ftof``'s other roundings (toward zero or an
  infinity, nearest-away), from the same scaled significand.
* :func:`narrow_overflow`: where an fp8 conversion leaves the format's finite range;
  the dialect does not say whether that saturates (PTX ``cvt`` into fp8 is
  ``satfinite``), gives NaN (f8E4M3FN has no infinity) or infinity, so the oracle
  leaves those lanes open.
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

__all__ = [
    "FLOAT_INFO",
    "INT_BITS",
    "dtype_of",
    "round_into",
    "ulp",
    "max_finite",
    "EV",
    "is_float",
    "wrap_int",
    "NARROW",
    "round_generic",
    "narrow_overflow",
    "tiny",
    "round_mode",
    "MODES",
]

#: format -> (significand bits incl. the implicit one, smallest normal exponent)
FLOAT_INFO = {
    "f16": (11, -14),
    "bf16": (8, -126),
    "f32": (24, -126),
    "f64": (53, -1022),
    "tf32": (11, -126),
    "f8E4M3FN": (4, -6),
    "f8E5M2": (3, -14),
}
#: Float formats no arithmetic computes on: they are loaded, stored, converted, selected,
#: reshaped and multiplied by mma only.
NARROW = ("tf32", "f8E4M3FN", "f8E5M2")
#: The largest finite value of each format whose exponent range is not IEEE's 2 * bias + 1
#: (f8E4M3FN spends its top exponent on numbers: 448 = 1.75 * 2**8).
_MAX_FINITE = {"f8E4M3FN": 448.0, "f8E5M2": 57344.0, "tf32": (2.0 - 2.0**-10) * 2.0**127}
INT_BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}

_DTYPES = {
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "i1": np.dtype(np.bool_),
    "tf32": np.dtype(np.float32),
    "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn),
    "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
}
_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def dtype_of(fmt: str) -> np.dtype:
    return _DTYPES[fmt]


def is_float(fmt: str) -> bool:
    return fmt in FLOAT_INFO


def max_finite(fmt: str) -> float:
    if fmt in _MAX_FINITE:
        return _MAX_FINITE[fmt]
    p, emin = FLOAT_INFO[fmt]
    emax = 1 - emin if fmt != "f16" else 15
    return float((2.0 - 2.0 ** (1 - p)) * 2.0**emax)


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
        if fmt in NARROW:
            return round_generic(x, fmt, lo).astype(_DTYPES[fmt])
        if fmt in ("f32", "f16"):
            r = x.astype(_DTYPES[fmt])
            return _tie_fix(x, r, lo)
        # bf16: through f32, carrying what f32 dropped
        r32 = x.astype(np.float32)
        rest = np.where(np.isfinite(r32), (x - r32.astype(np.float64)) + lo, 0.0)
        r = r32.astype(ml_dtypes.bfloat16)
        return _tie_fix(r32.astype(np.float64), r, rest)


def tiny(fmt: str) -> float:
    """The smallest positive (subnormal) value of ``fmt``."""
    p, emin = FLOAT_INFO[fmt]
    return float(2.0 ** (emin - (p - 1)))


def round_generic(x, fmt: str, lo=None) -> np.ndarray:
    """``x (+ lo)`` rounded to nearest-even in ``fmt`` as float64, from the format's
    significand width and exponent range: ``x`` scaled by a power of two (exact) so that
    the format's last place is 1, ``rint`` (ties to even), scaled back.  Beyond the
    largest finite value the result is infinite (IEEE; see :func:`narrow_overflow` for
    fp8).  ``lo`` (tiny beside ``x``) breaks what would be an exact tie."""
    p, emin = FLOAT_INFO[fmt]
    x = np.asarray(x, dtype=np.float64)
    lo = np.zeros_like(x) if lo is None else np.broadcast_to(np.asarray(lo, np.float64), x.shape)
    with np.errstate(all="ignore"):
        finite = np.isfinite(x)
        _, e = np.frexp(np.where(finite & (x != 0), x, 1.0))  # |x| in [2**(e-1), 2**e)
        quantum = np.maximum(e - 1, emin) - (p - 1)  # exponent of the last place
        q = np.ldexp(np.where(finite, x, 0.0), -quantum)
        r = np.rint(q)
        tie = (np.abs(q - np.trunc(q)) == 0.5) & (lo != 0)
        # a residual past the midpoint decides the tie its way
        r = np.where(tie, np.where((lo > 0) == (q > 0), np.trunc(q) + np.sign(q), np.trunc(q)), r)
        out = np.ldexp(r, quantum)
        out = np.where(out == 0, np.copysign(0.0, x), out)
        big = np.abs(out) > max_finite(fmt)
        out = np.where(big, np.copysign(np.inf, x), out)
    return np.where(finite, out, x)


#: The directed and nearest-away roundings ``round_mode`` knows besides nearest_even.
MODES = ("zero", "negative_inf", "positive_inf", "nearest_away")


def round_mode(x, fmt: str, mode: str) -> np.ndarray:
    """``x`` rounded into ``fmt`` in rounding ``mode`` (nearest_even or one of MODES), in
    the format's dtype.  Directed roundings overflow as IEEE says: toward the infinity
    they point at, else to the largest finite value."""
    if mode == "nearest_even" or fmt == "f64":
        return round_into(x, fmt)
    p, emin = FLOAT_INFO[fmt]
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        finite = np.isfinite(x)
        _, e = np.frexp(np.where(finite & (x != 0), x, 1.0))
        quantum = np.maximum(e - 1, emin) - (p - 1)
        q = np.ldexp(np.where(finite, x, 0.0), -quantum)
        step = {
            "zero": np.trunc,
            "negative_inf": np.floor,
            "positive_inf": np.ceil,
            "nearest_away": lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5),
        }[mode]
        out = np.ldexp(step(q), quantum)
        out = np.where(out == 0, np.copysign(0.0, x), out)
        big = max_finite(fmt)
        to_inf = {
            "zero": np.zeros_like(x, dtype=bool),
            "negative_inf": x < 0,
            "positive_inf": x > 0,
            "nearest_away": np.ones_like(x, dtype=bool),
        }[mode]
        over = np.abs(out) > big
        out = np.where(over, np.copysign(np.where(to_inf, np.inf, big), x), out)
        out = np.where(finite, out, x)
    return out.astype(_DTYPES[fmt])


def narrow_overflow(x, fmt: str) -> np.ndarray:
    """Where a conversion of float64 ``x`` into fp8 ``fmt`` is not pinned down by the
    dialect: the rounded value leaves the finite range, or ``x`` is infinite."""
    if fmt not in ("f8E4M3FN", "f8E5M2"):
        return np.zeros(np.shape(x), dtype=bool)
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        return np.isinf(round_generic(x, fmt)) | np.isinf(x)


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
