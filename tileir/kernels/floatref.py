"""Host-side rounding for the references: any float format, any rounding mode, exactly.

The references of conversion kernels must not lean on the code under test, nor on
a library cast that may round twice (a cast to fp8 through f32), so they round by
table: every finite value of the target format, sorted, and the neighbours of
each input.  Formats of at most 16 bits are tabulated from their bit patterns;
f32 and f64 targets use numpy's own correctly rounded casts plus ``nextafter``
for the directed modes.  ``fnv8E5M3FNU`` (no numpy type: its buffers hold the
raw bits) is decoded here from its definition: unsigned, 5 exponent bits with
bias 15, 3 fraction bits, subnormals at exponent 0, 0xFF is NaN.

>>> from tileir.types import F16, F8E8M0FNU
>>> float(round_to(np.array([1.0 + 2**-11]), F16, "nearest_even")[0])
1.0
>>> float(round_to(np.array([0.3]), F8E8M0FNU, "positive_inf")[0])
0.5
"""

from __future__ import annotations

import functools

import numpy as np

from tileir.types import Format

__all__ = ["round_to", "fnv8_values", "to_bits", "to_tf32", "MODES"]

MODES = ("nearest_even", "zero", "negative_inf", "positive_inf", "nearest_away")

_UINT = {1: np.uint8, 2: np.uint16}


def fnv8_values() -> np.ndarray:
    """The value of each fnv8E5M3FNU bit pattern 0..255 (NaN at 0xFF)."""
    bits = np.arange(256)
    e, m = bits >> 3, bits & 7
    normal = np.ldexp(1.0 + m / 8.0, e - 15)
    sub = np.ldexp(m / 8.0, -14)
    out = np.where(e == 0, sub, normal)
    out[255] = np.nan
    return out


@functools.lru_cache(maxsize=None)
def _table(name: str) -> tuple:
    """(sorted finite values, their bit patterns) of a format of at most 16 bits; a name
    ending in ``+`` keeps the non-negative values only."""
    if name.endswith("+"):
        vals, bits = _table(name[:-1])
        keep = vals >= 0
        return vals[keep], bits[keep]
    fmt = Format(name)
    if name == "fnv8E5M3FNU":
        values, bits = fnv8_values(), np.arange(256)
    else:
        dt = fmt.numpy_dtype
        n = 1 << (8 * dt.itemsize)
        bits = np.arange(n, dtype=_UINT[dt.itemsize])
        with np.errstate(invalid="ignore"):
            values = bits.view(dt).astype(np.float64)
        if name == "f4E2M1FN":  # one nibble in a byte: only the low 16 patterns are values
            bits, values = bits[:16], values[:16]
    keep = np.isfinite(values) & ~((values == 0) & np.signbit(values))
    order = np.argsort(values[keep], kind="stable")
    return values[keep][order], np.asarray(bits)[keep][order].astype(np.int64)


def _round_table(x: np.ndarray, name: str, mode: str) -> np.ndarray:
    vals, bits = _table(name)
    x = np.asarray(x, np.float64)
    if vals[0] < 0:
        # a sign-magnitude format: round the magnitude (a directed mode flips with the sign)
        # and put the sign back, so that a tiny negative value becomes -0.0
        neg = np.signbit(x)
        flip = {"negative_inf": "positive_inf", "positive_inf": "negative_inf"}
        up = _round_table(np.abs(x), name + "+", mode)
        down = _round_table(np.abs(x), name + "+", flip.get(mode, mode))
        return np.where(neg, -down, up)
    hi = np.clip(np.searchsorted(vals, x, side="left"), 0, len(vals) - 1)
    lo = np.clip(hi - 1, 0, len(vals) - 1)
    exact = vals[hi] == x
    lo = np.where(exact, hi, lo)
    below, above = vals[lo], vals[hi]
    if mode in ("zero", "negative_inf"):
        pick = below
    elif mode == "positive_inf":
        pick = above
    else:
        d_lo, d_hi = x - below, above - x
        tie = d_lo == d_hi
        if mode == "nearest_even":
            tie_pick = np.where(bits[lo] % 2 == 0, below, above)
        else:  # nearest_away (magnitudes here)
            tie_pick = above
        pick = np.where(tie, tie_pick, np.where(d_lo < d_hi, below, above))
    pick = np.where(exact, vals[hi], pick)
    return np.where(np.isnan(x), np.nan, pick)


def _round_wide(x: np.ndarray, dtype, mode: str) -> np.ndarray:
    x = np.asarray(x, np.float64)
    near = x.astype(dtype)
    if mode == "nearest_even":
        return near
    back = near.astype(np.float64)
    up, down = np.nextafter(near, dtype.type(np.inf)), np.nextafter(near, dtype.type(-np.inf))
    if mode == "positive_inf":
        return np.where(back < x, up, near)
    if mode == "negative_inf":
        return np.where(back > x, down, near)
    if mode == "zero":
        return np.where(np.abs(back) > np.abs(x), np.where(x > 0, down, up), near)
    # nearest_away: a tie rounded to even goes away from zero instead
    other = np.where(back > x, down, up)
    tie = np.abs(other.astype(np.float64) - x) == np.abs(back - x)
    away = np.where(np.abs(other.astype(np.float64)) > np.abs(back), other, near)
    return np.where(tie, away, near)


def round_to(x, fmt: Format, mode: str = "nearest_even") -> np.ndarray:
    """``x`` (any floats) rounded to ``fmt`` by ``mode``, as float64 values."""
    if mode not in MODES:
        raise ValueError(f"rounding mode {mode!r} is not one of {', '.join(MODES)}")
    if fmt.name == "f64":
        return np.asarray(x, np.float64)
    if fmt.name == "f32":
        return _round_wide(x, np.dtype(np.float32), mode).astype(np.float64)
    if fmt.name == "tf32":
        return to_tf32(_f32_for_tf32(x, mode), mode).astype(np.float64)
    return _round_table(x, fmt.name, mode)


def _f32_for_tf32(x, mode: str) -> np.ndarray:
    """float64 values as float32 from which rounding to tf32 by ``mode`` gives the right tf32
    value: a directed mode rounds the same way twice (tf32 values are float32 values), a
    nearest mode rounds to odd first (so a value just off a tf32 tie cannot land on it)."""
    x = np.asarray(x, np.float64)
    if mode in ("zero", "negative_inf", "positive_inf"):
        return _round_wide(x, np.dtype(np.float32), mode)
    down = _round_wide(x, np.dtype(np.float32), "zero")
    inexact = np.isfinite(x) & (down.astype(np.float64) != x)
    bits = down.view(np.uint32) | inexact.astype(np.uint32)
    return bits.view(np.float32)


def to_bits(values: np.ndarray, fmt: Format) -> np.ndarray:
    """The bit patterns (int64) of values already exact in a tabulated format."""
    vals, bits = _table(fmt.name)
    values = np.asarray(values, np.float64)
    if vals[0] < 0:  # sign-magnitude: the magnitude's pattern plus the sign bit (keeps -0.0)
        pos_vals, pos_bits = _table(fmt.name + "+")
        idx = np.clip(np.searchsorted(pos_vals, np.abs(values)), 0, len(pos_vals) - 1)
        return pos_bits[idx] | np.where(np.signbit(values), 1 << (fmt.bits - 1), 0)
    idx = np.clip(np.searchsorted(vals, values), 0, len(vals) - 1)
    return bits[idx]


def to_tf32(x: np.ndarray, mode: str = "nearest_even") -> np.ndarray:
    """f32 values rounded to tf32 (10 fraction bits), kept in f32, by any of :data:`MODES`
    (f32 -> tf32 takes nearest_even, nearest_away or zero; exact conversions from narrower
    formats take the infinities too).  The sign bit is outside the rounded bits, so these
    work on the magnitude; a directed mode rounds the magnitude up where it points away
    from zero for the value's sign."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    negative = (b >> np.uint64(31)) == 1
    if mode == "nearest_even":
        b = b + np.uint64(0xFFF) + ((b >> np.uint64(13)) & np.uint64(1))
    elif mode == "nearest_away":
        b = b + np.uint64(0x1000)
    elif mode in ("positive_inf", "negative_inf"):
        up = negative if mode == "negative_inf" else ~negative
        b = np.where(up, b + np.uint64(0x1FFF), b)
    elif mode != "zero":
        raise ValueError(f"rounding mode {mode!r} is not one of {', '.join(MODES)}")
    return (b & ~np.uint64(0x1FFF)).astype(np.uint32).view(np.float32)
