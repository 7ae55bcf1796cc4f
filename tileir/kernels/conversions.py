"""Conversions between every pair of formats the dialect allows: ftof, itof, ftoi, exti,
trunci and bitcast, with their rounding, signedness, saturation and overflow attributes.

Which pairs (and, for ftof, which roundings) ``tileiras`` 13.4.92 accepts is measured, not
assumed: :func:`dialect_accepts` states the rules found (docs/conversions.md has the table
and the command that measures it again), and every accepted combination has a kernel here:

* ``cvt_<src>_<dst>[_<mode>]``: ftof of every ordered pair of the ten float formats, once
  per rounding the pair takes (the default, nearest_even, or positive_inf into f8E8M0FNU,
  carries no suffix);
* ``cvt_<float>_[u]<int>``, ``cvt_[u]<int>_<float>``: ftoi / itof of every accepted pair
  (signed; unsigned where an i1 takes part: a mask is 0 or 1), plus a few unsigned and
  saturating variants;
* ``cvt_[u]<int>_<int>``: exti (both signednesses) and trunci (with each overflow promise
  on one pair); ``bitcast_<src>_<dst>``: every same-width pair, itself included.

512 values in cells of 128, read in ``src`` and written in ``dst``.  Some formats travel
in another one's buffer: f8E5M2 as i8 bit patterns reinterpreted with ``bitcast`` in the
kernel (the fake device cannot view f8E5M2 host memory through numpy strides yet), i4 as
i8 (``trunci`` on the way in, ``exti`` signed on the way out: no pointer to i4 exists);
fnv8E5M3FNU buffers hold raw bits (numpy has no such type).  Inputs are values exactly
representable in the source format, inside the range of both formats (positive where one
of them is unsigned), so every conversion has one right answer: the references round by
table (:mod:`tileir.kernels.floatref`) and the kernels must agree bit for bit.
"""

from __future__ import annotations

import numpy as np

from tileir import (BF16, F16, F32, F4E2M1FN, F64, F8E4M3FN, F8E5M2, F8E8M0FNU, FNV8E5M3FNU,
                    I1, I4, I8, I16, I32, I64, TF32, In, Out, bitcast, cells, convert, load_cell,
                    store_cell, trace)
from tileir.attr_rules import ftof_compiles, ftof_roundings
from tileir.kernels.common import archs_for, fmt_tag, make
from tileir.kernels.floatref import round_to, to_bits
from tileir.kernels.registry import REGISTRY
from tileir.types import FORMATS, Format

__all__ = ["dialect_accepts", "covered_by", "FLOATS"]

N, TILE = 512, 128
FLOATS = (F16, BF16, F32, TF32, F64, F8E4M3FN, F8E5M2, F8E8M0FNU, F4E2M1FN, FNV8E5M3FNU)
_MAX = {"f16": 65504.0, "f8E4M3FN": 448.0, "f8E5M2": 57344.0, "f4E2M1FN": 6.0,
        "fnv8E5M3FNU": 114688.0}
_UNSIGNED = ("f8E8M0FNU", "fnv8E5M3FNU")
_WIDTH = {"tf32": 19}  # tf32 takes 32 bits of memory but is 19 bits wide

def dialect_accepts(op: str, src: Format, dst: Format, compiled: bool = True) -> tuple:
    """The roundings ``op`` takes from ``src`` to ``dst`` as tileiras 13.4.92 assembles them
    (ftof: its rounding modes; the other ops: ``("",)``), or ``()`` when it refuses the pair.
    ``compiled=False``: what its verifier takes, some of which it then fails to compile.

    Measured by assembling one op per pair (docs/conversions.md): ftof joins two distinct
    floats with the roundings of :func:`tileir.attr_rules.ftof_roundings` (the same table),
    less those it fails to compile (:func:`tileir.attr_rules.ftof_compiles`, which the
    recorder refuses); ftoi makes i1..i64 (not i4) and itof reads them, not
    into f8E8M0FNU; exti widens and trunci narrows any two of i1, i4, i8 .. i64; bitcast
    keeps the width (tf32 counts 19 bits) and takes no i4.
    """
    f, i = src.is_float, dst.is_float
    if op == "ftof":
        modes = ftof_roundings(src, dst) if f and i and src != dst else ()
        return tuple(m for m in modes if not compiled or ftof_compiles(src, dst, m))
    if op == "ftoi":
        return ("",) if f and dst.is_int and dst != I4 else ()
    if op == "itof":
        return ("",) if src.is_int and src != I4 and i and dst != F8E8M0FNU else ()
    if op in ("exti", "trunci"):
        wider = dst.bits > src.bits if op == "exti" else dst.bits < src.bits
        return ("",) if src.is_int and dst.is_int and wider else ()
    if op == "bitcast":
        same = _WIDTH.get(src.name, src.bits) == _WIDTH.get(dst.name, dst.bits)
        return ("",) if same and I4 not in (src, dst) else ()
    raise ValueError(f"{op!r} is not one of ftof, ftoi, itof, exti, trunci, bitcast")


# ----------------------------------------------------------------------------- buffers


def _memory(fmt):
    """The format of the host buffer that carries ``fmt`` values."""
    return I8 if fmt in (F8E5M2, I4) else fmt


def _arrive(x, fmt):
    """A loaded tile of ``_memory(fmt)`` as a tile of ``fmt``."""
    if fmt == F8E5M2:
        return bitcast(x, F8E5M2)
    return convert(x, I4) if fmt == I4 else x


def _leave(y, fmt):
    """A tile of ``fmt`` as the tile its buffer stores (i4 widens signed)."""
    if fmt == F8E5M2:
        return bitcast(y, I8)
    return convert(y, I8) if fmt == I4 else y


def _to_buffer(values: np.ndarray, fmt) -> np.ndarray:
    """Values exact in ``fmt`` as the host buffer of ``fmt``."""
    if fmt == F8E5M2:
        return to_bits(values, fmt).astype(np.uint8).view(np.int8)
    if fmt == FNV8E5M3FNU:
        return to_bits(values, fmt).astype(np.uint8)
    return values.astype(fmt.numpy_dtype)


def _from_buffer(buf: np.ndarray, fmt) -> np.ndarray:
    """A float buffer's values as float64."""
    if fmt == F8E5M2:
        import ml_dtypes
        return buf.view(np.uint8).view(ml_dtypes.float8_e5m2).astype(np.float64)
    if fmt == FNV8E5M3FNU:
        from tileir.kernels.floatref import fnv8_values
        return fnv8_values()[buf.astype(np.int64)]
    return buf.astype(np.float64)


def _wrap(values, fmt) -> np.ndarray:
    """Integers (any range) wrapped two's-complement into the buffer of ``fmt``."""
    v = np.asarray(values).astype(np.int64)   # wide unsigned values keep their low bits
    if fmt == I1:
        return (v & 1).astype(bool)
    if fmt == I4:   # the buffer is i8, written by a signed exti
        return (((v & 15) ^ 8) - 8).astype(np.int8)
    return v.astype(fmt.numpy_dtype)


def _int_values(a: np.ndarray, fmt, signed: bool) -> np.ndarray:
    """An integer buffer's values read signed or unsigned (i4: the low nibble of the i8)."""
    if fmt == I1:   # read unsigned, a true is 1; signed, it is -1
        return -a.astype(np.int64) if signed else a.astype(np.int64)
    if fmt == I4:
        low = a.astype(np.int64) & 15
        return np.where(low >= 8, low - 16, low) if signed else low
    return a.astype(np.int64) if signed else a.view(np.dtype(f"u{a.itemsize}")).astype(np.uint64)


def _cell_kernel(name, src, dst, fn):
    """A kernel loading a cell of ``src`` and storing ``fn(tile)`` (of ``dst``) to a cell."""
    def body(a, out):
        x = yield load_cell(a)
        yield store_cell(out, _leave(fn(_arrive(x, src)), dst))

    def build():
        g = cells([N], [TILE])
        return trace(name, body, In(_memory(src), g), Out(_memory(dst), g))

    return build


def _zeros(fmt) -> np.ndarray:
    return np.zeros(N, _memory(fmt).numpy_dtype)


# ----------------------------------------------------------------------------- the ops


def _domain(src, dst):
    """Where inputs come from: inside both formats' ranges; from 0.5 up (a value every
    format holds, and no zero, which f8E8M0FNU lacks) when one of them is unsigned."""
    top = 0.9 * min(_MAX.get(src.name, 1e4), _MAX.get(dst.name, 1e4))
    lo = 0.5 if (src.name in _UNSIGNED or dst.name in _UNSIGNED) else -top
    return lo, top


def _ftof_spec(src, dst, mode=None) -> None:
    rounding = mode or ("positive_inf" if dst == F8E8M0FNU else None)
    name = f"cvt_{fmt_tag(src)}_{fmt_tag(dst)}" + (f"_{mode}" if mode else "")

    def reference(args):
        a, out = args
        exact = round_to(_from_buffer(a, src), dst, rounding or "nearest_even")
        return [a, _to_buffer(exact, dst)]

    def inputs(rng):
        lo, hi = _domain(src, dst)
        raw = rng.uniform(lo, hi, N)
        if dst == TF32:
            raw = raw.astype(np.float32).astype(np.float64)   # one rounding to tf32 only
        # toward zero, so a value rounded into the source format stays inside the domain
        return [_to_buffer(round_to(raw, src, "zero"), src), _zeros(dst)], None

    how = f" rounding {rounding}" if rounding else ""
    make(name, _cell_kernel(name, src, dst, lambda x: convert(x, dst, rounding=rounding)),
         reference, inputs, None, "conversion", f"ftof {src} -> {dst}{how} of {N} values",
         archs_for(src, dst))


#: How far from zero ftoi inputs go: integers exact in the source format.
_SPAN = {"f16": 60000, "f32": 2 ** 24, "bf16": 2 ** 24, "tf32": 2 ** 24, "f64": 2 ** 52,
         "f8E8M0FNU": 2 ** 20}


def _ftoi_spec(src, dst, signed=True, saturating=False) -> None:
    name = f"cvt_{fmt_tag(src)}_{'' if signed else 'u'}{dst}" + ("_sat" if saturating else "")
    lo, hi = (-(2 ** (dst.bits - 1)), 2 ** (dst.bits - 1) - 1) if signed else (0, 2 ** dst.bits - 1)
    span = min(hi, _SPAN.get(src.name) or 0.9 * _MAX[src.name])

    def reference(args):
        a, out = args
        t = np.trunc(_from_buffer(a, src))
        if saturating:
            t = np.clip(t, lo, hi)
        ints = t.astype(np.int64) if signed else t.astype(np.uint64)
        return [a, _wrap(ints, dst)]

    def inputs(rng):
        if dst == I1:   # truncates to lo or hi
            low, wide = (lo - 0.95 if signed else 0.0), hi + 0.95
        else:
            wide = 1.5 * span if saturating else 0.9 * span
            low = -wide if signed or saturating else 0.0
        x = rng.uniform(max(low, 0.0) if src.name in _UNSIGNED else low, wide, N)
        return [_to_buffer(round_to(x, src, "zero"), src), _zeros(dst)], None

    what = ("signed" if signed else "unsigned") + (", saturating" if saturating else "")
    make(name, _cell_kernel(name, src, dst, lambda x: convert(x, dst, signed=signed,
                                                              saturating=saturating)),
         reference, inputs, None, "conversion",
         f"ftoi {src} -> {dst} ({what}) of {N} values, rounding toward zero", archs_for(src, dst))


def _cap(dst) -> int:
    """The largest integer itof inputs reach for ``dst``: inside its range, and for tf32 no
    more than f32 holds exactly (an int -> f32 -> tf32 lowering then rounds once)."""
    if dst == F16:
        return 60000
    if dst.name in _MAX:
        return int(0.9 * _MAX[dst.name])
    return 2 ** 24 if dst == TF32 else 2 ** 62


def _itof_spec(src, dst, signed=True) -> None:
    name = f"cvt_{'' if signed else 'u'}{src}_{fmt_tag(dst)}"

    def reference(args):
        a, out = args
        value = _int_values(a, src, signed).astype(np.float64)
        return [a, _to_buffer(round_to(value, dst), dst)]

    def inputs(rng):
        if src == I1:
            return [rng.integers(0, 2, N).astype(bool), _zeros(dst)], None
        top = min(2 ** (src.bits - 1) - 1 if signed else 2 ** src.bits - 1, 2 ** 53, _cap(dst))
        low = 0 if not signed or dst.name in _UNSIGNED else -top
        x = rng.integers(low, top, N, dtype=np.int64)
        arr = x.astype(src.numpy_dtype) if signed else \
            x.astype(np.uint64).astype(f"u{src.itemsize}").view(src.numpy_dtype)
        return [arr, _zeros(dst)], None

    how = "signed" if signed else "unsigned"
    make(name, _cell_kernel(name, src, dst, lambda x: convert(x, dst, signed=signed)),
         reference, inputs, None, "conversion",
         f"itof {how} {src} -> {dst} of {N} values, nearest-even", archs_for(src, dst))


def _int_spec(src, dst, signed=True, overflow=None) -> None:
    """exti (widening, by signedness) or trunci (narrowing, keeping the low bits)."""
    widen = dst.bits > src.bits
    name = f"cvt_{'' if signed or not widen else 'u'}{src}_{dst}" + \
        (f"_{overflow}" if overflow else "")

    def reference(args):
        a, out = args
        return [a, _wrap(_int_values(a, src, signed or not widen), dst)]

    def inputs(rng):
        if src == I1:
            return [rng.integers(0, 2, N).astype(bool), _zeros(dst)], None
        if overflow:   # the promise holds: the value fits the narrow format
            half = 2 ** (dst.bits - 1)
            lo, hi = (0, half) if overflow == "no_unsigned_wrap" else (-half, half)
        else:
            m = _memory(src)
            lo, hi = -(2 ** (m.bits - 1)), 2 ** (m.bits - 1) - 1
        return [rng.integers(lo, hi, N, dtype=np.int64).astype(_memory(src).numpy_dtype),
                _zeros(dst)], None

    def fn(x):
        return convert(x, dst, signed=signed, **({"overflow": overflow} if overflow else {}))

    if widen:
        extra = f" ({'signed' if signed else 'unsigned'})"
    else:
        extra = f" with overflow={overflow}" if overflow else ""
    make(name, _cell_kernel(name, src, dst, fn), reference, inputs, None, "conversion",
         f"{'exti' if widen else 'trunci'} {src} -> {dst}{extra} of {N} values")


def _bitcast_spec(src, dst) -> None:
    name = f"bitcast_{fmt_tag(src)}_{fmt_tag(dst)}"

    def reference(args):
        a, out = args
        return [a, a.view(_memory(dst).numpy_dtype).copy()]

    def inputs(rng):
        return [_random_bits(rng, src, dst), _zeros(dst)], None

    make(name, _cell_kernel(name, src, dst, lambda x: bitcast(x, dst)), reference, inputs,
         None, "conversion", f"bitcast {src} -> {dst}: the same bits read as the other format",
         archs_for(src, dst))


def _random_bits(rng, src, dst) -> np.ndarray:
    """Random bit patterns in ``src``'s buffer, none of them a NaN in ``src`` or ``dst`` (a
    device need not keep a NaN's payload)."""
    if src == TF32:   # tf32 -> tf32 only: values whose low 13 bits are zero
        return round_to(rng.uniform(-100.0, 100.0, N), TF32).astype(np.float32)
    if src == I1:
        return rng.integers(0, 2, N).astype(bool)
    width = _memory(src).numpy_dtype.itemsize
    bits = np.frombuffer(rng.bytes(N * width), dtype=f"u{width}").copy()
    if src == F4E2M1FN:   # four bits in each byte of the buffer
        bits &= 0xF
    for fmt in (src, dst):
        if fmt.is_float:
            with np.errstate(invalid="ignore"):
                nan = np.isnan(_from_buffer(bits.view(_memory(fmt).numpy_dtype), fmt))
            bits[nan] = 0
    return bits.view(_memory(src).numpy_dtype)


def _mask_spec() -> None:
    """exti of an i1 mask: 1 where x > y (a comparison), else 0, as i32."""
    name = "cvt_i1_i32"

    def body(a, b, out):
        x = yield load_cell(a)
        y = yield load_cell(b)
        yield store_cell(out, convert(x > y, I32))

    def build():
        g = cells([N], [TILE])
        return trace(name, body, In(F32, g), In(F32, g), Out(I32, g))

    def reference(args):
        a, b, out = args
        return [a, b, (a > b).astype(np.int32)]

    def inputs(rng):
        return [rng.uniform(-1, 1, N).astype(np.float32), rng.uniform(-1, 1, N).astype(np.float32),
                np.zeros(N, np.int32)], None

    make(name, build, reference, inputs, None, "conversion",
         "a comparison's i1 mask widened to i32 (exti, unsigned)")


def _i4_spec(signed: bool) -> None:
    """i32 -> i4 (trunci: the low four bits) -> i32 (exti): i4 lives only inside kernels
    (a pointer to i4 is not a type the dialect has)."""
    name = f"cvt_i4_roundtrip_{'s' if signed else 'u'}"

    def body(a, out):
        x = yield load_cell(a)
        yield store_cell(out, convert(convert(x, I4), I32, signed=signed))

    def build():
        g = cells([N], [TILE])
        return trace(name, body, In(I32, g), Out(I32, g))

    def reference(args):
        a, out = args
        low = a.astype(np.int64) & 0xF
        return [a, (np.where(low >= 8, low - 16, low) if signed else low).astype(np.int32)]

    def inputs(rng):
        return [rng.integers(-1000, 1000, N).astype(np.int32), np.zeros(N, np.int32)], None

    make(name, build, reference, inputs, None, "conversion",
         f"i32 -> i4 -> i32 ({'signed' if signed else 'unsigned'} widening): the low nibble")


#: Accepted pairs that kernels of other shapes cover already: the mask (exti i1 -> i32)
#: and the i4 round trips (trunci i32 -> i4, exti i4 -> i32).
_COVERED_ELSEWHERE = {("exti", "i1", "i32"), ("exti", "i4", "i32"), ("trunci", "i32", "i4")}


def _default_spec(op: str, src, dst, mode: str) -> None:
    """The kernel of one accepted (op, src, dst, mode) unless one by its name exists."""
    if op == "ftof":
        default = "positive_inf" if dst == F8E8M0FNU else "nearest_even"
        name = f"cvt_{fmt_tag(src)}_{fmt_tag(dst)}" + ("" if mode == default else f"_{mode}")
        if name not in REGISTRY:
            _ftof_spec(src, dst, None if mode == default else mode)
    elif op == "ftoi":   # an i1 result reads as 0 / 1 (unsigned), other ints signed
        if f"cvt_{fmt_tag(src)}_{'u' if dst == I1 else ''}{dst}" not in REGISTRY:
            _ftoi_spec(src, dst, signed=dst != I1)
    elif op == "itof":
        _itof_spec(src, dst, signed=src != I1)
    elif op == "exti":
        for signed in ((False,) if src == I1 else (True, False)):
            _int_spec(src, dst, signed=signed)
    elif op == "trunci":
        _int_spec(src, dst)
    else:
        _bitcast_spec(src, dst)


def _family() -> None:
    # variants beyond one kernel a pair: unsigned and saturating ftoi / itof, trunci's
    # overflow promises, the mask, the i4 round trips
    for f, i in ((F32, I8), (F32, I32), (F64, I64)):
        _ftoi_spec(f, i, signed=False)
    for f, i in ((F32, I8), (F64, I16)):
        _ftoi_spec(f, i, saturating=True)
    _ftoi_spec(F32, I8, signed=False, saturating=True)
    for i, f in ((I8, F32), (I16, F16), (I32, F64), (I64, F32)):
        _itof_spec(i, f, signed=False)
    for ovf in ("no_signed_wrap", "no_unsigned_wrap", "no_wrap"):
        _int_spec(I32, I8, overflow=ovf)
    _mask_spec()
    _i4_spec(True)
    _i4_spec(False)
    # an i1 read signed: true is -1
    _itof_spec(I1, F32, signed=True)
    _int_spec(I1, I16, signed=True)
    # then one kernel for every (op, src, dst, rounding) the dialect accepts
    for op in ("ftof", "ftoi", "itof", "exti", "trunci", "bitcast"):
        for src in FORMATS:
            for dst in FORMATS:
                if (op, src.name, dst.name) in _COVERED_ELSEWHERE:
                    continue
                for mode in dialect_accepts(op, src, dst):
                    _default_spec(op, src, dst, mode)


def covered_by(module) -> set:
    """The (op, src, dst, rounding) conversions a kernel's Module holds (rounding "" but
    for ftof), for checking that every accepted combination has a kernel."""
    from tileir.module import walk
    from tileir.signatures import attr_of

    found = set()
    for op in walk(module.functions[0].body):
        if op.name in ("ftof", "ftoi", "itof", "exti", "trunci", "bitcast"):
            src, dst = op.operands[0].type.element, op.results[0].type.element
            mode = attr_of(op, "rounding") if op.name == "ftof" else ""
            found.add((op.name, src.name, dst.name, mode))
    return found


_family()
