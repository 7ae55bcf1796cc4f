"""Element-wise binary kernels in every arithmetic format.

Float arithmetic exists in f16, bf16, f32 and f64 (``addf`` on a tf32 or fp8 tile
is refused by the dialect: ``operand #0 must be tile of f16 or bf16 or f32 or f64
values``); integer arithmetic in i8, i16, i32 and i64.  One kernel per
(operation, format): 1000 elements in cells of 128 (the last cell runs 24 lanes
past the extent; 1024 for divide and remainder) for floats, 512 in cells of 256 for
integers.

The references compute in the kernel's own format with numpy: numpy rounds each
f16 / bf16 operation from float32, which holds the exact result of an add,
subtract, multiply or divide of two 11-bit (8-bit) significands, so those
kernels must agree bit for bit; ``pow`` and ``atan2`` get a few ulps.
"""

from __future__ import annotations

import numpy as np

from tileir import BF16, F16, F32, F64, I8, I16, I32, I64, atan2, maximum, minimum
from tileir import pow as tpow
from tileir.kernels.common import ew_spec, exact, ints, positive, tol, uniform
from tileir.record.tile import binary

FLOATS = (F16, BF16, F32, F64)
INTS = (I8, I16, I32, I64)


def _nonzero(lo: float, hi: float):
    """Uniform values in [lo, hi) kept away from zero (divisors)."""

    def make(rng, n, dtype):
        v = rng.uniform(lo, hi, size=n)
        v = np.where(np.abs(v) < 0.25, np.copysign(0.25, v), v)
        return v.astype(np.float64).astype(dtype)

    return make


def _in_fmt(fn, dtype):
    """``fn`` computed in ``dtype`` (numpy's own rounding for that format)."""

    def ref(a, b):
        return fn(a.astype(dtype), b.astype(dtype)).astype(dtype)

    return ref


def _in_f64(fn, dtype):
    """``fn`` computed in f64, rounded once to ``dtype``."""

    def ref(a, b):
        return fn(a.astype(np.float64), b.astype(np.float64)).astype(dtype)

    return ref


# (name, kernel op, numpy op, input makers, exact in the format?)
_FLOAT_BINARY = (
    ("add", lambda x, y: x + y, np.add, (uniform(), uniform()), True),
    ("sub", lambda x, y: x - y, np.subtract, (uniform(), uniform()), True),
    ("mul", lambda x, y: x * y, np.multiply, (uniform(), uniform()), True),
    ("div", lambda x, y: x / y, np.divide, (uniform(), _nonzero(-4, 4)), True),
    ("max", maximum, np.maximum, (uniform(), uniform()), True),
    ("min", minimum, np.minimum, (uniform(), uniform()), True),
    ("rem", lambda x, y: x % y, np.fmod, (uniform(-8, 8), _nonzero(-3, 3)), True),
    ("pow", tpow, np.power, (positive(0.5, 2.0), uniform(-3, 3)), False),
    ("atan2", atan2, np.arctan2, (uniform(), uniform()), False),
)


def _float_family() -> None:
    for fmt in FLOATS:
        dt = fmt.numpy_dtype
        for name, fn, np_fn, gens, is_exact in _FLOAT_BINARY:
            ref = _in_fmt(np_fn, dt) if is_exact else _in_f64(np_fn, dt)
            tolerance = exact if is_exact else tol(fmt, 8 if fmt != F64 else 16)
            # a divide or remainder on the tail's padded lanes would make 0/0 = NaN there
            # (never stored, but a NaN the debug finders rightly report): whole cells
            n = 1024 if name in ("div", "rem") else 1000
            tail = "" if n == 1024 else ", a 24-lane tail"
            ew_spec(
                f"ew_{name}_{fmt}",
                fn,
                (fmt, fmt),
                fmt,
                ref,
                gens,
                n=n,
                tolerance=tolerance,
                family="elementwise",
                doc=f"{name} of two {fmt} vectors of {n} (cells of 128{tail})",
            )


def _trunc_div(a, b):
    """C division: the quotient rounded toward zero (``divi`` rounding ``zero``)."""
    q = np.abs(a.astype(np.int64)) // np.abs(b.astype(np.int64))
    return np.where((a < 0) ^ (b < 0), -q, q)


def _c_rem(a, b):
    """C remainder: the sign of the dividend (``remi``)."""
    return a.astype(np.int64) - _trunc_div(a, b) * b.astype(np.int64)


def _nonzero_ints(lo: int, hi: int):
    def make(rng, n, dtype):
        v = rng.integers(lo, hi, size=n)
        return np.where(v == 0, 1, v).astype(dtype)

    return make


def _shift(bits: int):
    def make(rng, n, dtype):
        return rng.integers(0, bits, size=n).astype(dtype)

    return make


def _wrap(fn, dtype):
    """``fn`` in int64, wrapped to ``dtype`` (two's complement, as the device wraps)."""

    def ref(a, b):
        return np.asarray(fn(a.astype(np.int64), b.astype(np.int64))).astype(dtype)

    return ref


def _int_ops(fmt):
    bits = fmt.bits
    lo, hi = (-100, 100) if bits == 8 else (-30000, 30000) if bits == 16 else (-(10**6), 10**6)
    full_lo, full_hi = -(1 << (bits - 1)), (1 << (bits - 1))
    wide = ints(full_lo, full_hi) if bits < 64 else ints(-(1 << 62), 1 << 62)
    dt = fmt.numpy_dtype
    return (
        ("add", lambda x, y: x + y, np.add, (wide, wide)),
        ("sub", lambda x, y: x - y, np.subtract, (wide, wide)),
        ("mul", lambda x, y: x * y, None, (ints(lo, hi), ints(lo, hi))),
        ("div", lambda x, y: x / y, _trunc_div, (ints(lo, hi), _nonzero_ints(-50, 50))),
        ("floordiv", lambda x, y: x // y, np.floor_divide, (ints(lo, hi), _nonzero_ints(-50, 50))),
        ("rem", lambda x, y: x % y, _c_rem, (ints(lo, hi), _nonzero_ints(-50, 50))),
        ("max", maximum, np.maximum, (wide, wide)),
        ("min", minimum, np.minimum, (wide, wide)),
        ("and", lambda x, y: x & y, np.bitwise_and, (wide, wide)),
        ("or", lambda x, y: x | y, np.bitwise_or, (wide, wide)),
        ("xor", lambda x, y: x ^ y, np.bitwise_xor, (wide, wide)),
        ("shl", lambda x, y: x << y, None, (wide, _shift(bits))),
        ("shr", lambda x, y: x >> y, None, (wide, _shift(bits))),
        ("mulhi", lambda x, y: binary("mulhi", x, y), None, (wide, wide)),
    ), dt


def _int_ref(name, np_fn, fmt, dt):
    bits = fmt.bits
    if name == "mul":
        return lambda a, b: (a.astype(dt) * b.astype(dt)).astype(dt)  # numpy wraps like the device
    if name == "shl":
        return lambda a, b: np.left_shift(a.astype(dt), b.astype(dt)).astype(dt)
    if name == "shr":
        return lambda a, b: np.right_shift(a.astype(dt), b.astype(dt)).astype(dt)
    if name == "mulhi":
        udt = np.dtype(f"u{bits // 8}")

        def mulhi(a, b):
            # the high half of the unsigned 2*bits product (mulhii reads its operands as
            # unsigned), computed exactly in Python integers
            ua, ub = a.astype(dt).view(udt), b.astype(dt).view(udt)
            prod = [int(x) * int(y) for x, y in zip(ua.tolist(), ub.tolist())]
            high = [(p >> bits) & ((1 << bits) - 1) for p in prod]
            return np.array(high, dtype=np.uint64).astype(udt).view(dt)

        return mulhi
    return _wrap(np_fn, dt)


def _int_family() -> None:
    for fmt in INTS:
        ops, dt = _int_ops(fmt)
        for name, fn, np_fn, gens in ops:
            ew_spec(
                f"ew_{name}_{fmt}",
                fn,
                (fmt, fmt),
                fmt,
                _int_ref(name, np_fn, fmt, dt),
                gens,
                n=512,
                tile=256,
                family="elementwise",
                doc=f"{name} of two {fmt} vectors of 512 (two cells of 256)",
            )


_float_family()
_int_family()
