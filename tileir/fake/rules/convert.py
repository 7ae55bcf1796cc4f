"""numpy rules of the conversions: ftof, ftoi, itof, exti, trunci, bitcast, pack, unpack,
and the pointer casts.

``ftof`` / ``itof`` round correctly in the requested mode (see ``rounding``);
conversions into fp8 / fp4 follow ``ml_dtypes`` for values beyond the format's
range (fp4 and ``f8E4M3FN`` saturate / give NaN as ml_dtypes does).  ``ftoi``
truncates toward zero and saturates to the target's range, NaN giving 0: on the
device that is what ``saturating`` asks for, and without it an out-of-range
input is undefined, so saturating is one permitted outcome.  ``pack`` /
``unpack`` lay elements out little-endian, 4-bit elements two to a byte (element
``2i`` in the low nibble, as the dialect packs them in memory).
"""

from __future__ import annotations

import numpy as np

from tileir.fake.rounding import DIRECTED, f64_to_f32_odd, round_exact, to_e8m0, to_format, two_sum
from tileir.fake.values import int_range, signed, unsigned, value_dtype, wrap_int
from tileir.ir.numerics import scalar_value, tf32_round
from tileir.ir.signatures import attr_of
from tileir.types import Format

__all__ = ["NUMPY_CONVERT_RULES", "to_bits", "from_bits", "as_float64"]

_UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
_FNV8 = None


def _fnv8_table() -> np.ndarray:
    global _FNV8
    if _FNV8 is None:
        _FNV8 = np.array([scalar_value(Format("fnv8E5M3FNU"), b) for b in range(256)])
    return _FNV8


def as_float64(x: np.ndarray, fmt: Format) -> np.ndarray:
    """Float values of ``fmt`` as float64 (exact: every format fits)."""
    if fmt.name == "fnv8E5M3FNU":
        return _fnv8_table()[x]
    return np.asarray(x).astype(np.float64)


def to_bits(x: np.ndarray, fmt: Format) -> np.ndarray:
    """The bit patterns of values of ``fmt`` as unsigned ints (4-bit and 1-bit in uint8)."""
    if fmt.is_int:
        return unsigned(x, fmt)
    if fmt.name == "fnv8E5M3FNU":
        return np.asarray(x).astype(np.uint8)
    if fmt.name == "f4E2M1FN":
        return np.asarray(x).view(np.uint8) & np.uint8(15)
    return np.asarray(x).view(_UINT[np.dtype(value_dtype(fmt)).itemsize * 8])


def from_bits(u: np.ndarray, fmt: Format) -> np.ndarray:
    """Values of ``fmt`` from their bit patterns (inverse of :func:`to_bits`)."""
    if fmt.is_int:
        return wrap_int(u.astype(np.uint64), fmt)
    dt = value_dtype(fmt)
    if fmt.name == "fnv8E5M3FNU":
        return u.astype(np.uint8)
    if fmt.name == "f4E2M1FN":
        return (u.astype(np.uint8) & np.uint8(15)).view(dt)
    return np.ascontiguousarray(u.astype(_UINT[dt.itemsize * 8])).view(dt)


def _ftof(ctx, op, args):
    src = op.operands[0].type.element
    dst = op.results[0].type.element
    mode = attr_of(op, "rounding")
    x = args[0]
    if dst.name == "f8E8M0FNU":
        try:
            return [to_e8m0(as_float64(x, src), mode)]
        except NotImplementedError as e:
            raise ctx.error(op, str(e)) from None
    if dst.name == "tf32":
        if src.name in ("f32", "tf32"):
            x32 = np.asarray(x, dtype=np.float32)
        else:  # round to odd first so the rounding to tf32 below is the only one
            x32 = f64_to_f32_odd(as_float64(x, src))
        if mode == "nearest_even":
            return [tf32_round(x32)]
        bits = np.ascontiguousarray(x32).view(np.uint32)
        if mode == "nearest_away":
            out = (bits + np.uint32(0x1000)) & np.uint32(0xFFFFE000)
        elif mode == "zero":
            out = bits & np.uint32(0xFFFFE000)
        elif mode in ("negative_inf", "positive_inf"):
            # the magnitude rounds up where the mode points away from zero for the sign
            # (f16, bf16, fp8, fp4 -> tf32 take these; there they are exact)
            up = (bits >> np.uint32(31) == 1) == (mode == "negative_inf")
            out = np.where(up, bits + np.uint32(0x1FFF), bits) & np.uint32(0xFFFFE000)
        else:
            raise ctx.error(op, f"rounding<{mode}> into tf32 is not emulated")
        return [np.where(np.isfinite(x32), out, bits).view(np.float32)]
    x64 = as_float64(x, src)
    if mode == "nearest_even":
        return [to_format(x64, dst)]
    if mode in DIRECTED or mode == "nearest_away":
        try:
            return [round_exact(x64, np.zeros_like(x64), dst, mode)]
        except NotImplementedError as e:
            raise ctx.error(op, f"rounding<{mode}> from {src} into {dst} is not emulated: {e}")
    raise ctx.error(op, f"rounding<{mode}> is not a rounding ftof knows")


def _ftoi(ctx, op, args):
    src = op.operands[0].type.element
    dst = op.results[0].type.element
    is_signed = attr_of(op, "signedness") == "signed"
    t = np.trunc(as_float64(args[0], src))
    lo, hi = int_range(dst, is_signed)
    nan = np.isnan(t)
    t = np.where(nan, 0.0, t)
    over = t >= float(hi)  # float(hi) may round up to 2**63 / 2**64: compare, then set exactly
    under = t <= float(lo)
    clipped = np.clip(t, float(lo), float(hi))
    if is_signed:
        ints = np.where(over | under, 0, clipped).astype(np.int64)
        ints = np.where(over, hi, np.where(under, lo, ints))
    else:
        ints = np.where(over | under, 0, clipped).astype(np.uint64)
        ints = np.where(over, np.uint64(hi), np.where(under, np.uint64(0), ints))
    return [wrap_int(ints, dst)]


def _itof(ctx, op, args):
    src = op.operands[0].type.element
    dst = op.results[0].type.element
    mode = attr_of(op, "rounding")
    is_signed = attr_of(op, "signedness") == "signed"
    x = signed(args[0], src) if is_signed else unsigned(args[0], src)
    if src.bits <= 32:
        hi, lo = np.asarray(x).astype(np.float64), None
    else:  # split into exact halves: hi * 2**32 + lo, then an exact float64 pair
        if is_signed:
            xh = (x.astype(np.int64) >> np.int64(32)).astype(np.float64)
        else:
            xh = (x.astype(np.uint64) >> np.uint64(32)).astype(np.float64)
        xl = (x.astype(np.uint64) & np.uint64(0xFFFFFFFF)).astype(np.float64)
        hi, lo = two_sum(xh * 2.0**32, xl)
    if lo is None and mode == "nearest_even":
        return [to_format(hi, dst)]
    if lo is None:
        lo = np.zeros_like(hi)
    try:
        return [round_exact(hi, lo, dst, mode)]
    except NotImplementedError as e:
        raise ctx.error(op, f"rounding<{mode}> from {src} into {dst} is not emulated: {e}")


def _exti(ctx, op, args):
    src = op.operands[0].type.element
    dst = op.results[0].type.element
    if attr_of(op, "signedness") == "signed":
        return [wrap_int(signed(args[0], src).astype(np.int64), dst)]
    return [wrap_int(unsigned(args[0], src).astype(np.uint64), dst)]


def _trunci(ctx, op, args):
    src = op.operands[0].type.element
    return [wrap_int(unsigned(args[0], src).astype(np.uint64), op.results[0].type.element)]


def _bitcast(ctx, op, args):
    src = op.operands[0].type.element
    dst = op.results[0].type.element
    return [from_bits(to_bits(args[0], src), dst)]


def _same(ctx, op, args):
    return [args[0]]


def _pack(ctx, op, args):
    src = op.operands[0].type.element
    x = args[0]
    b = x.shape[0]
    bits = to_bits(x, src)
    if src.bits == 4:
        pairs = bits.reshape(b, -1, 2)
        out = (pairs[..., 0] | (pairs[..., 1] << np.uint8(4))).astype(np.uint8)
    elif src.bits == 1:
        out = np.packbits(bits.astype(bool), axis=1, bitorder="little")
    else:
        out = np.ascontiguousarray(bits.astype(bits.dtype.newbyteorder("<"))).view(np.uint8)
        out = out.reshape(b, -1)
    return [out.view(np.int8)]


def _unpack(ctx, op, args):
    dst = op.results[0].type.element
    raw = np.ascontiguousarray(args[0]).view(np.uint8)
    b = raw.shape[0]
    if dst.bits == 4:
        lo, hi = raw & np.uint8(15), raw >> np.uint8(4)
        bits = np.stack([lo, hi], axis=-1).reshape(b, -1)
    elif dst.bits == 1:
        bits = np.unpackbits(raw, axis=1, bitorder="little")
    else:
        width = np.dtype(value_dtype(dst)).itemsize * 8
        bits = raw.view(np.dtype(_UINT[width]).newbyteorder("<")).astype(_UINT[width])
    return [from_bits(bits, dst)]


NUMPY_CONVERT_RULES = {
    "ftof": _ftof,
    "ftoi": _ftoi,
    "itof": _itof,
    "exti": _exti,
    "trunci": _trunci,
    "bitcast": _bitcast,
    "int_to_ptr": _same,
    "ptr_to_int": _same,
    "ptr_to_ptr": _same,
    "pack": _pack,
    "unpack": _unpack,
}
