"""Arithmetic with its attributes: rounding modes, flush-to-zero, NaN propagation, every
comparison predicate and ordering, integer overflow promises, unsigned integer ops.

* ``round_<op>_<mode>_<fmt>``: an IEEE operation (f32, f16, bf16) rounded toward zero or an
  infinity; the references compute the exact result in f64 (sums and products of two f32 /
  f16 / bf16 values are exact there) and round it by table (:mod:`tileir.kernels.floatref`).
* ``approx_*`` / ``full_div_f32``: the fast forms (``approx``: f32 only) within the
  accuracy PTX documents for them (div.approx 2 ulp, ex2.approx about 2 ulp of the
  result, tanh.approx 2^-11 relative, sqrt.approx 1 ulp; div.full 2 ulp).
* ``ftz_*``: f32 with subnormal inputs and results flushed to (signed) zero.
* ``max_nan_*`` / ``min_nan_*``: a NaN wins with ``propagate_nan``, loses without.
* ``compare_*``: all six predicates as one bit each of an i32, ordered and unordered
  (inputs hold NaNs), signed and unsigned.
* ``ovf_*``: integer ops with an overflow promise the inputs keep; ``u*``: unsigned
  division, remainder, extrema and logical shift; ``ceildiv_i32``: divi rounding up.
* ``fpowi_*`` (13.4), ``negi_*``, ``absi_*``.
"""

from __future__ import annotations

import numpy as np

from tileir import (
    BF16,
    F16,
    F32,
    F64,
    I8,
    I16,
    I32,
    I64,
    absolute,
    add,
    compare,
    convert,
    div,
    exp,
    exp2,
    fma,
    maximum,
    minimum,
    mul,
    neg,
    pow,
    rem,
    rsqrt,
    shl,
    shr,
    sqrt,
    sub,
    tanh,
)
from tileir.host.tolerance import Tolerance
from tileir.kernels.common import ew_spec, exact, ints, tol, uniform
from tileir.kernels.floatref import round_to

N, T = 512, 128


def _ew(name, fn, ins, out, ref, gens, tolerance=None, doc="", family="arith") -> None:
    ew_spec(
        name, fn, ins, out, ref, gens, n=N, tile=T, tolerance=tolerance, family=family, doc=doc
    )


def _roundings() -> None:
    ops = {"add": (add, np.add), "sub": (sub, np.subtract), "mul": (mul, np.multiply)}
    # f16 and bf16 too: tileiras 13.4.92 assembles addf / subf / mulf of both with each
    # directed rounding (nearest_away it refuses for all three: "invalid rounding mode")
    for op, mode in (
        ("add", "zero"),
        ("sub", "positive_inf"),
        ("mul", "negative_inf"),
        ("add", "negative_inf"),
        ("mul", "zero"),
    ):
        for fmt in (F32, F16, BF16):
            fn, np_fn = ops[op]

            def ref(a, b, np_fn=np_fn, mode=mode, fmt=fmt, op=op):
                x, y = a.astype(np.float64), b.astype(np.float64)
                out = round_to(np_fn(x, y), fmt, mode)
                if mode == "negative_inf" and op != "mul":
                    # IEEE 754: an exact zero sum is -0 rounding down, unless both addends
                    # are +0 (numpy's float64 sum, rounded to nearest, gives +0)
                    plus = (x == 0) & ~np.signbit(x) & (y == 0) & (np.signbit(y) == (op == "sub"))
                    out = np.where((out == 0) & (np_fn(x, y) == 0) & ~plus, -0.0, out)
                return out

            _ew(
                f"round_{op}_{mode}_{fmt}",
                lambda x, y, fn=fn, mode=mode: fn(x, y, rounding=mode),
                (fmt, fmt),
                fmt,
                ref,
                (uniform(), uniform()),
                exact,
                f"{op}f of {fmt} rounded {mode} (rounding<{mode}>)",
            )
    _ew(
        "round_fma_zero_f64",
        lambda a, b, c: fma(a, b, c, rounding="zero"),
        (F64, F64, F64),
        F64,
        lambda a, b, c: a * b + c,
        (uniform(), uniform(), uniform()),
        tol(F64, 2),
        "fma in f64 rounded toward zero (within 2 ulp of the f64 reference)",
    )


def _approx() -> None:
    _ew(
        "approx_div_f32",
        lambda x, y: div(x, y, rounding="approx"),
        (F32, F32),
        F32,
        lambda a, b: a.astype(np.float64) / b,
        (uniform(), uniform(0.5, 4)),
        tol(F32, 2),
        "x / y rounded approx (div.approx: 2 ulp)",
    )
    _ew(
        "full_div_f32",
        lambda x, y: div(x, y, rounding="full"),
        (F32, F32),
        F32,
        lambda a, b: a.astype(np.float64) / b,
        (uniform(), uniform(0.5, 4)),
        tol(F32, 2),
        "x / y rounded full (div.full: 2 ulp)",
    )
    _ew(
        "approx_exp_f32",
        lambda x: exp(x, rounding="approx"),
        (F32,),
        F32,
        lambda a: np.exp(a.astype(np.float64)),
        (uniform(-4, 4),),
        tol(F32, 64),
        "exp rounded approx (through ex2.approx)",
    )
    _ew(
        "approx_tanh_f32",
        lambda x: tanh(x, rounding="approx"),
        (F32,),
        F32,
        lambda a: np.tanh(a.astype(np.float64)),
        (uniform(-3, 3),),
        Tolerance(rtol=2.0**-10, atol=2.0**-10),
        "tanh rounded approx (2^-11 relative)",
    )
    _ew(
        "approx_sqrt_f32",
        lambda x: sqrt(x, rounding="approx"),
        (F32,),
        F32,
        lambda a: np.sqrt(a.astype(np.float64)),
        (uniform(0.1, 100),),
        tol(F32, 2),
        "sqrt rounded approx",
    )


_TINY = np.float32(2.0**-126)


def _with_subnormals(rng, n, dtype):
    v = rng.uniform(-4, 4, n)
    sub = rng.uniform(-1, 1, n) * 2.0**-127
    return np.where(rng.integers(0, 4, n) == 0, sub, v).astype(dtype)


def _flush(x):
    x = np.asarray(x, np.float32)
    return np.where(np.abs(x) < _TINY, np.copysign(np.float32(0), x), x).astype(np.float32)


def _max_signed_zero(a, b):
    """max with -0 below +0 (IEEE maximum; numpy keeps the first of two equal zeros)."""
    both = a == b
    return np.where(both, np.where(np.signbit(a), b, a), np.maximum(a, b))


def _ftz() -> None:
    _ew(
        "ftz_add_f32",
        lambda x, y: add(x, y, flush_to_zero=True),
        (F32, F32),
        F32,
        lambda a, b: _flush(_flush(a) + _flush(b)),
        (_with_subnormals, _with_subnormals),
        exact,
        "x + y with subnormal inputs and results flushed to zero (flush_to_zero)",
    )
    _ew(
        "ftz_max_f32",
        lambda x, y: maximum(x, y, flush_to_zero=True),
        (F32, F32),
        F32,
        lambda a, b: _flush(_max_signed_zero(_flush(a), _flush(b))),
        (_with_subnormals, _with_subnormals),
        exact,
        "max(x, y) with subnormals flushed (maxf flush_to_zero)",
    )
    _ew(
        "ftz_rsqrt_f32",
        lambda x: rsqrt(x, flush_to_zero=True),
        (F32,),
        F32,
        lambda a: 1 / np.sqrt(a.astype(np.float64)),
        (uniform(0.25, 16),),
        tol(F32, 4),
        "rsqrt with flush_to_zero",
    )
    _ew(
        "ftz_exp2_f32",
        lambda x: exp2(x, flush_to_zero=True),
        (F32,),
        F32,
        lambda a: _flush(np.exp2(a.astype(np.float64)).astype(np.float32)),
        (uniform(-140, 4),),
        Tolerance(rtol=8 * 2.0**-23, atol=0.0),
        "2^x with results below 2^-126 flushed",
    )


def _with_nans(rng, n, dtype):
    v = rng.uniform(-4, 4, n)
    return np.where(rng.integers(0, 5, n) == 0, np.nan, v).astype(dtype)


def _nans() -> None:
    for fmt in (F32, F64):
        _ew(
            f"max_nan_{fmt}",
            lambda x, y: maximum(x, y, propagate_nan=True),
            (fmt, fmt),
            fmt,
            np.maximum,
            (_with_nans, _with_nans),
            exact,
            f"max of {fmt} with NaN propagated",
        )
        _ew(
            f"min_nonan_{fmt}",
            minimum,
            (fmt, fmt),
            fmt,
            np.fmin,
            (_with_nans, _with_nans),
            exact,
            f"min of {fmt} where a NaN loses to a number",
        )
    _ew(
        "min_nan_f16",
        lambda x, y: minimum(x, y, propagate_nan=True),
        (F16, F16),
        F16,
        np.minimum,
        (_with_nans, _with_nans),
        exact,
        "min of f16 with NaN propagated",
    )


_PREDICATES = (
    "equal",
    "not_equal",
    "less_than",
    "less_than_or_equal",
    "greater_than",
    "greater_than_or_equal",
)
_NP_PRED = {
    "equal": np.equal,
    "not_equal": np.not_equal,
    "less_than": np.less,
    "less_than_or_equal": np.less_equal,
    "greater_than": np.greater,
    "greater_than_or_equal": np.greater_equal,
}


def _bits_of(masks):
    out = None
    for k, m in enumerate(masks):
        term = convert(m, I32) * (1 << k)
        out = term if out is None else out + term
    return out


def _compares() -> None:
    def float_kernel(ordering):
        return lambda x, y: _bits_of([compare(p, x, y, ordering=ordering) for p in _PREDICATES])

    def float_ref(ordering):
        def ref(a, b):
            nan = np.isnan(a) | np.isnan(b)
            total = np.zeros(a.shape, np.int64)
            for k, p in enumerate(_PREDICATES):
                hit = _NP_PRED[p](a, b) & ~nan
                hit = hit | nan if ordering == "unordered" else hit
                total += hit.astype(np.int64) << k
            return total

        return ref

    def near(rng, n, dtype):  # many equal pairs: small integers, some NaN
        v = rng.integers(-3, 4, n).astype(np.float64)
        return np.where(rng.integers(0, 8, n) == 0, np.nan, v).astype(dtype)

    for ordering in ("ordered", "unordered"):
        _ew(
            f"compare_{ordering}_f32",
            float_kernel(ordering),
            (F32, F32),
            I32,
            float_ref(ordering),
            (near, near),
            exact,
            f"the six predicates of cmpf {ordering}, one bit each, on values with NaNs",
        )
    for signed in (True, False):
        tag = "i32" if signed else "u32"

        def int_ref(a, b, signed=signed):
            if not signed:
                a, b = a.view(np.uint32), b.view(np.uint32)
            return sum(_NP_PRED[p](a, b).astype(np.int64) << k for k, p in enumerate(_PREDICATES))

        def small(rng, n, dtype):
            return rng.integers(-3, 4, n).astype(dtype)

        _ew(
            f"compare_{tag}",
            lambda x, y, s=signed: _bits_of([compare(p, x, y, signed=s) for p in _PREDICATES]),
            (I32, I32),
            I32,
            int_ref,
            (small, small),
            exact,
            f"the six predicates of cmpi ({'signed' if signed else 'unsigned'}), one bit each",
        )


def _ints() -> None:
    _ew(
        "ovf_add_nsw_i32",
        lambda x, y: add(x, y, overflow="no_signed_wrap"),
        (I32, I32),
        I32,
        lambda a, b: a + b,
        (ints(-(10**9), 10**9), ints(-(10**9), 10**9)),
        exact,
        "x + y promised not to wrap as signed (overflow<no_signed_wrap>)",
    )
    _ew(
        "ovf_sub_nuw_i16",
        lambda x, y: sub(x, y, overflow="no_unsigned_wrap"),
        (I16, I16),
        I16,
        lambda a, b: a - b,
        (ints(1000, 30000), ints(0, 1000)),
        exact,
        "x - y promised not to wrap as unsigned (overflow<no_unsigned_wrap>)",
    )
    _ew(
        "ovf_mul_nw_i64",
        lambda x, y: mul(x, y, overflow="no_wrap"),
        (I64, I64),
        I64,
        lambda a, b: a * b,
        (ints(0, 10**6), ints(0, 10**6)),
        exact,
        "x * y promised not to wrap at all (overflow<no_wrap>)",
    )
    _ew(
        "ovf_shl_nsw_i32",
        lambda x, y: shl(x, y, overflow="no_signed_wrap"),
        (I32, I32),
        I32,
        lambda a, b: a << b,
        (ints(-1000, 1000), ints(0, 16)),
        exact,
        "x << y promised not to wrap as signed",
    )
    _ew(
        "negi_i32",
        lambda x: neg(x, overflow="no_signed_wrap"),
        (I32,),
        I32,
        np.negative,
        (ints(-(10**9), 10**9),),
        exact,
        "-x (negi, no_signed_wrap from 13.2)",
    )
    _ew("negi_i8", neg, (I8,), I8, np.negative, (ints(-127, 128),), exact, "-x of i8 (negi)")
    _ew("absi_i64", absolute, (I64,), I64, np.abs, (ints(-(10**12), 10**12),), exact, "|x| (absi)")
    _ew("absi_i16", absolute, (I16,), I16, np.abs, (ints(-32767, 32767),), exact, "|x| of i16")

    def u(dt):
        return np.dtype(dt.str.replace("i", "u"))

    def unsigned(fn):
        def ref(a, b):
            ua, ub = a.view(u(a.dtype)), b.view(u(b.dtype))
            return fn(ua, ub).astype(u(a.dtype)).view(a.dtype)

        return ref

    wide = ints(-(2**31), 2**31 - 1)
    nz = ints(1, 2**31 - 1)
    _ew(
        "udiv_i32",
        lambda x, y: div(x, y, signed=False),
        (I32, I32),
        I32,
        unsigned(np.floor_divide),
        (wide, nz),
        exact,
        "x / y of i32 read as unsigned",
    )
    _ew(
        "urem_i32",
        lambda x, y: rem(x, y, signed=False),
        (I32, I32),
        I32,
        unsigned(np.remainder),
        (wide, nz),
        exact,
        "x mod y of i32 read as unsigned",
    )
    _ew(
        "umax_i64",
        lambda x, y: maximum(x, y, signed=False),
        (I64, I64),
        I64,
        unsigned(np.maximum),
        (ints(-(2**62), 2**62), ints(-(2**62), 2**62)),
        exact,
        "max of i64 read as unsigned",
    )
    _ew(
        "umin_i8",
        lambda x, y: minimum(x, y, signed=False),
        (I8, I8),
        I8,
        unsigned(np.minimum),
        (ints(-128, 128), ints(-128, 128)),
        exact,
        "min of i8 read as unsigned",
    )
    _ew(
        "ushr_i32",
        lambda x, y: shr(x, y, signed=False),
        (I32, I32),
        I32,
        unsigned(np.right_shift),
        (wide, ints(0, 32)),
        exact,
        "logical right shift of i32",
    )
    _ew(
        "ceildiv_i32",
        lambda x, y: div(x, y, rounding="positive_inf"),
        (I32, I32),
        I32,
        lambda a, b: -((-a.astype(np.int64)) // b),
        (ints(-(10**6), 10**6), ints(1, 1000)),
        exact,
        "x / y rounded up (divi rounding<positive_inf>)",
    )


def _fpowi() -> None:
    for fmt in (F32, F64):
        _ew(
            f"fpowi_{fmt}",
            lambda x, k: pow(x, k),
            (fmt, I32),
            fmt,
            lambda a, k: np.power(a.astype(np.float64), k.astype(np.float64)),
            (uniform(0.5, 1.5), ints(-8, 9)),
            tol(fmt, 16),
            f"x ** k with an i32 exponent (fpowi, 13.4) in {fmt}",
        )


_roundings()
_approx()
_ftz()
_nans()
_compares()
_ints()
_fpowi()
