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
kernel (which puts a bitcast on every f8E5M2 path; tests/fake/test_fake_device.py moves f8E5M2
buffers themselves), i4 as
i8 (``trunci`` on the way in, ``exti`` signed on the way out: no pointer to i4 exists);
fnv8E5M3FNU buffers hold raw bits (numpy has no such type).  Inputs are values exactly
representable in the source format, inside the range of both formats (positive where one
of them is unsigned), so every conversion has one right answer: the references round by
table (:mod:`tileir.kernels.floatref`) and the kernels must agree bit for bit.
"""

from __future__ import annotations

import numpy as np

from tileir import (
    BF16,
    F4E2M1FN,
    F8E4M3FN,
    F8E5M2,
    F8E8M0FNU,
    F16,
    F32,
    F64,
    FNV8E5M3FNU,
    I1,
    I4,
    I8,
    I16,
    I32,
    I64,
    TF32,
    In,
    Out,
    bitcast,
    cells,
    convert,
    load_cell,
    store_cell,
    trace,
)
from tileir.kernels.common import archs_for, fmt_tag, make
from tileir.kernels.conversion_buffers import (
    TILE,
    N,
    cell_kernel,
    from_buffer,
    int_values,
    memory_format,
    random_bits,
    to_buffer,
    wrap_ints,
    zeros_for,
)
from tileir.kernels.conversion_table import covered_by, dialect_accepts
from tileir.kernels.floatref import round_to
from tileir.kernels.registry import REGISTRY
from tileir.types import FORMATS

__all__ = ["dialect_accepts", "covered_by", "FLOATS"]
FLOATS = (F16, BF16, F32, TF32, F64, F8E4M3FN, F8E5M2, F8E8M0FNU, F4E2M1FN, FNV8E5M3FNU)
_MAX = {
    "f16": 65504.0,
    "f8E4M3FN": 448.0,
    "f8E5M2": 57344.0,
    "f4E2M1FN": 6.0,
    "fnv8E5M3FNU": 114688.0,
}
_UNSIGNED = ("f8E8M0FNU", "fnv8E5M3FNU")


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
        exact = round_to(from_buffer(a, src), dst, rounding or "nearest_even")
        return [a, to_buffer(exact, dst)]

    def inputs(rng):
        lo, hi = _domain(src, dst)
        raw = rng.uniform(lo, hi, N)
        if dst == TF32:
            raw = raw.astype(np.float32).astype(np.float64)  # one rounding to tf32 only
        # toward zero, so a value rounded into the source format stays inside the domain
        return [to_buffer(round_to(raw, src, "zero"), src), zeros_for(dst)], None

    how = f" rounding {rounding}" if rounding else ""
    make(
        name,
        cell_kernel(name, src, dst, lambda x: convert(x, dst, rounding=rounding)),
        reference,
        inputs,
        None,
        "conversion",
        f"ftof {src} -> {dst}{how} of {N} values",
        archs_for(src, dst),
    )


#: How far from zero ftoi inputs go: integers exact in the source format.
_SPAN = {
    "f16": 60000,
    "f32": 2**24,
    "bf16": 2**24,
    "tf32": 2**24,
    "f64": 2**52,
    "f8E8M0FNU": 2**20,
}


def _ftoi_spec(src, dst, signed=True, saturating=False) -> None:
    name = f"cvt_{fmt_tag(src)}_{'' if signed else 'u'}{dst}" + ("_sat" if saturating else "")
    lo, hi = (-(2 ** (dst.bits - 1)), 2 ** (dst.bits - 1) - 1) if signed else (0, 2**dst.bits - 1)
    span = min(hi, _SPAN.get(src.name) or 0.9 * _MAX[src.name])

    def reference(args):
        a, out = args
        t = np.trunc(from_buffer(a, src))
        if saturating:
            t = np.clip(t, lo, hi)
        ints = t.astype(np.int64) if signed else t.astype(np.uint64)
        return [a, wrap_ints(ints, dst)]

    def inputs(rng):
        if dst == I1:  # truncates to lo or hi
            low, wide = (lo - 0.95 if signed else 0.0), hi + 0.95
        else:
            wide = 1.5 * span if saturating else 0.9 * span
            low = -wide if signed or saturating else 0.0
        x = rng.uniform(max(low, 0.0) if src.name in _UNSIGNED else low, wide, N)
        return [to_buffer(round_to(x, src, "zero"), src), zeros_for(dst)], None

    what = ("signed" if signed else "unsigned") + (", saturating" if saturating else "")
    make(
        name,
        cell_kernel(
            name, src, dst, lambda x: convert(x, dst, signed=signed, saturating=saturating)
        ),
        reference,
        inputs,
        None,
        "conversion",
        f"ftoi {src} -> {dst} ({what}) of {N} values, rounding toward zero",
        archs_for(src, dst),
    )


def _cap(dst) -> int:
    """The largest integer itof inputs reach for ``dst``: inside its range, and for tf32 no
    more than f32 holds exactly (an int -> f32 -> tf32 lowering then rounds once)."""
    if dst == F16:
        return 60000
    if dst.name in _MAX:
        return int(0.9 * _MAX[dst.name])
    return 2**24 if dst == TF32 else 2**62


def _itof_spec(src, dst, signed=True) -> None:
    name = f"cvt_{'' if signed else 'u'}{src}_{fmt_tag(dst)}"

    def reference(args):
        a, out = args
        value = int_values(a, src, signed).astype(np.float64)
        return [a, to_buffer(round_to(value, dst), dst)]

    def inputs(rng):
        if src == I1:
            return [rng.integers(0, 2, N).astype(bool), zeros_for(dst)], None
        top = min(2 ** (src.bits - 1) - 1 if signed else 2**src.bits - 1, 2**53, _cap(dst))
        low = 0 if not signed or dst.name in _UNSIGNED else -top
        x = rng.integers(low, top, N, dtype=np.int64)
        arr = (
            x.astype(src.numpy_dtype)
            if signed
            else x.astype(np.uint64).astype(f"u{src.itemsize}").view(src.numpy_dtype)
        )
        return [arr, zeros_for(dst)], None

    how = "signed" if signed else "unsigned"
    make(
        name,
        cell_kernel(name, src, dst, lambda x: convert(x, dst, signed=signed)),
        reference,
        inputs,
        None,
        "conversion",
        f"itof {how} {src} -> {dst} of {N} values, nearest-even",
        archs_for(src, dst),
    )


def _int_spec(src, dst, signed=True, overflow=None) -> None:
    """exti (widening, by signedness) or trunci (narrowing, keeping the low bits)."""
    widen = dst.bits > src.bits
    name = f"cvt_{'' if signed or not widen else 'u'}{src}_{dst}" + (
        f"_{overflow}" if overflow else ""
    )

    def reference(args):
        a, out = args
        return [a, wrap_ints(int_values(a, src, signed or not widen), dst)]

    def inputs(rng):
        if src == I1:
            return [rng.integers(0, 2, N).astype(bool), zeros_for(dst)], None
        if overflow:  # the promise holds: the value fits the narrow format
            half = 2 ** (dst.bits - 1)
            lo, hi = (0, half) if overflow == "no_unsigned_wrap" else (-half, half)
        else:
            m = memory_format(src)
            lo, hi = -(2 ** (m.bits - 1)), 2 ** (m.bits - 1) - 1
        return [
            rng.integers(lo, hi, N, dtype=np.int64).astype(memory_format(src).numpy_dtype),
            zeros_for(dst),
        ], None

    def fn(x):
        return convert(x, dst, signed=signed, **({"overflow": overflow} if overflow else {}))

    if widen:
        extra = f" ({'signed' if signed else 'unsigned'})"
    else:
        extra = f" with overflow={overflow}" if overflow else ""
    make(
        name,
        cell_kernel(name, src, dst, fn),
        reference,
        inputs,
        None,
        "conversion",
        f"{'exti' if widen else 'trunci'} {src} -> {dst}{extra} of {N} values",
    )


def _bitcast_spec(src, dst) -> None:
    name = f"bitcast_{fmt_tag(src)}_{fmt_tag(dst)}"

    def reference(args):
        a, out = args
        return [a, a.view(memory_format(dst).numpy_dtype).copy()]

    def inputs(rng):
        return [random_bits(rng, src, dst), zeros_for(dst)], None

    make(
        name,
        cell_kernel(name, src, dst, lambda x: bitcast(x, dst)),
        reference,
        inputs,
        None,
        "conversion",
        f"bitcast {src} -> {dst}: the same bits read as the other format",
        archs_for(src, dst),
    )


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
        return [
            rng.uniform(-1, 1, N).astype(np.float32),
            rng.uniform(-1, 1, N).astype(np.float32),
            np.zeros(N, np.int32),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "conversion",
        "a comparison's i1 mask widened to i32 (exti, unsigned)",
    )


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

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "conversion",
        f"i32 -> i4 -> i32 ({'signed' if signed else 'unsigned'} widening): the low nibble",
    )


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
    elif op == "ftoi":  # an i1 result reads as 0 / 1 (unsigned), other ints signed
        if f"cvt_{fmt_tag(src)}_{'u' if dst == I1 else ''}{dst}" not in REGISTRY:
            _ftoi_spec(src, dst, signed=dst != I1)
    elif op == "itof":
        _itof_spec(src, dst, signed=src != I1)
    elif op == "exti":
        for signed in (False,) if src == I1 else (True, False):
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


_family()
