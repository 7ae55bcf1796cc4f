"""Small kernels written with the public API, one per family of ops, each with a numpy
reference of what it computes (the fake device's interpreter must agree with it).

This module holds the pure families (float and integer arithmetic, math, comparisons,
conversions, shapes, reductions, mma); ``every_op_cases_mem`` the memory, control and view
families.  ``CASES`` lists them all; tests/ops/test_ops_every_op.py checks each one.

Most kernels read 64-element buffers in cells of 16 (four blocks) and write each result
``k`` through the pointer path at ``out[k * 64 + 16 * block + lane]`` (:func:`put`), so
one Shared output holds every result and the reference fills the same layout.
"""

from __future__ import annotations

from typing import Callable, Optional

import attrs
import ml_dtypes
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
    In,
    Shared,
    absolute,
    add,
    atan2,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    block_id,
    ceil,
    cells,
    compare,
    convert,
    cos,
    cosh,
    div,
    exp,
    exp2,
    floor,
    fma,
    full,
    load_cell,
    log,
    log2,
    maximum,
    minimum,
    mul,
    mulhi,
    neg,
    pow,
    rem,
    rsqrt,
    shl,
    shr,
    sin,
    sinh,
    sqrt,
    store,
    sub,
    tan,
    tanh,
    trace,
    where,
)

__all__ = ["Case", "CASES", "put", "G64", "N"]

N = 64
G64 = cells([N], [16])
ALL_ARCHS = ("sm_90", "sm_100")


@attrs.frozen
class Case:
    """A kernel (``build``), its launch (``inputs(rng) -> (args, grid)``) and what the launch
    leaves in its arguments (``reference(args) -> args after``).  ``tolerance`` (rtol, atol)
    for float outputs, None for bit-exact; ``archs``: where tileiras assembles it;
    ``printed``: what its print_tko writes, when it prints."""

    name: str
    build: Callable = attrs.field(eq=False)
    inputs: Callable = attrs.field(eq=False)
    reference: Callable = attrs.field(eq=False)
    tolerance: Optional[tuple] = None
    archs: tuple = ALL_ARCHS
    printed: Optional[Callable] = attrs.field(default=None, eq=False)


CASES: list[Case] = []


def put(out, k: int, t) -> object:
    """Store the 16-lane result ``t`` of this block as result ``k`` of ``out``."""
    return store(out, k * N + block_id(0) * 16, t)


def _results(count: int, dtype) -> np.ndarray:
    return np.zeros(count * N, dtype=dtype)


def _fill(out: np.ndarray, values: list) -> np.ndarray:
    out = out.copy()
    for k, v in enumerate(values):
        out[k * N : (k + 1) * N] = v
    return out


def _unary_case(
    name: str, fmt, ops: list, inputs: Callable, reference: list, tolerance=None, archs=ALL_ARCHS
) -> Case:
    """A kernel reading one buffer and writing ``op(x)`` for each op (a Shared of ``fmt``)."""

    def body(a, out):
        x = yield load_cell(a)
        for k, op in enumerate(ops):
            yield put(out, k, op(x))

    def build():
        return trace(name, body, In(fmt[0], G64), Shared(fmt[1]))

    def make(rng):
        return [inputs(rng), _results(len(ops), fmt[1].numpy_dtype)], (4,)

    def ref(args):
        x, out = args
        return [x, _fill(out, [f(x) for f in reference])]

    return Case(name, build, make, ref, tolerance, archs)


# ----------------------------------------------------------------------------- float arithmetic


def _directed(exact: np.ndarray, mode: str, dtype=np.float32) -> np.ndarray:
    """``exact`` (float64, exactly the real result) rounded into ``dtype`` in ``mode``."""
    r = exact.astype(dtype)
    back = r.astype(np.float64)
    if mode == "zero":
        fix = np.abs(back) > np.abs(exact)
        return np.where(fix, np.nextafter(r, dtype(0)), r)
    if mode == "negative_inf":
        return np.where(back > exact, np.nextafter(r, dtype(-np.inf)), r)
    if mode == "positive_inf":
        return np.where(back < exact, np.nextafter(r, dtype(np.inf)), r)
    return r


def _sqrt_directed(x: np.ndarray, mode: str) -> np.ndarray:
    r = np.sqrt(x.astype(np.float64)).astype(np.float32)
    sq = r.astype(np.float64) ** 2  # exact: 24-bit squares fit a float64
    x64 = x.astype(np.float64)
    if mode == "negative_inf":
        return np.where(sq > x64, np.nextafter(r, np.float32(-np.inf)), r)
    return np.where(sq < x64, np.nextafter(r, np.float32(np.inf)), r)


def _float_rounding() -> Case:
    def body(a, b, out):
        x = yield load_cell(a)
        y = yield load_cell(b)
        s = add(x, y, rounding="zero", flush_to_zero=True)
        yield put(out, 0, s)
        yield put(out, 1, sub(x, y * 3.0, rounding="negative_inf", flush_to_zero=True))
        yield put(out, 2, mul(x, y, rounding="positive_inf", flush_to_zero=True))
        yield put(out, 3, fma(x, y, s, rounding="zero", flush_to_zero=True))
        yield put(out, 4, div(x, y, rounding="approx", flush_to_zero=True))
        yield put(out, 5, div(x, y, rounding="full"))
        yield put(out, 6, div(x, y) + sub(x, y, rounding="nearest_even"))
        yield put(out, 7, sqrt(x, rounding="approx", flush_to_zero=True))
        yield put(out, 8, sqrt(y, rounding="negative_inf"))
        yield put(out, 9, sqrt(x, rounding="positive_inf"))
        yield put(out, 10, fma(x, x, y, rounding="positive_inf"))
        yield put(out, 11, mul(x, y, rounding="nearest_even") + 0.5)

    def build():
        return trace("float_rounding", body, In(F32, G64), In(F32, G64), Shared(F32))

    def inputs(rng):
        a = rng.uniform(1, 2, N).astype(np.float32)
        b = rng.uniform(1, 2, N).astype(np.float32)
        return [a, b, _results(12, np.float32)], (4,)

    def reference(args):
        a, b, out = args
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        s = _directed(a64 + b64, "zero")
        y3 = (b * np.float32(3)).astype(np.float64)
        return [
            a,
            b,
            _fill(
                out,
                [
                    s,
                    _directed(a64 - y3, "negative_inf"),
                    _directed(a64 * b64, "positive_inf"),
                    _directed(a64 * b64 + s.astype(np.float64), "zero"),
                    a / b,
                    a / b,
                    a / b + (a - b),
                    np.sqrt(a),
                    _sqrt_directed(b, "negative_inf"),
                    _sqrt_directed(a, "positive_inf"),
                    _directed(a64 * a64 + b64, "positive_inf"),
                    a * b + np.float32(0.5),
                ],
            ),
        ]

    return Case("float_rounding", build, inputs, reference)


CASES.append(_float_rounding())


def _float_math() -> Case:
    def inputs(rng):
        return rng.uniform(0.5, 2, N).astype(np.float32)

    ops = [
        lambda x: exp(x, rounding="approx"),
        lambda x: exp(x),
        exp2,
        lambda x: exp2(x, flush_to_zero=True),
        log,
        log2,
        lambda x: rsqrt(x, flush_to_zero=True),
        sin,
        cos,
        tan,
        sinh,
        cosh,
        lambda x: tanh(x, rounding="approx"),
        tanh,
        ceil,
        lambda x: floor(x * 3.0),
        lambda x: atan2(x, x - 1.0),
        lambda x: pow(x, x),
        lambda x: pow(x, convert(x * 4.0, I32)),
        neg,
        lambda x: absolute(-x),
        lambda x: rem(x * 7.0, x),
        lambda x: rsqrt(x),
    ]
    f = np.float32

    def fpowi(x):
        return np.power(x.astype(np.float64), np.trunc(x * f(4)).astype(np.float64)).astype(f)

    ref = [
        np.exp,
        np.exp,
        np.exp2,
        np.exp2,
        np.log,
        np.log2,
        lambda x: f(1) / np.sqrt(x),
        np.sin,
        np.cos,
        np.tan,
        np.sinh,
        np.cosh,
        np.tanh,
        np.tanh,
        np.ceil,
        lambda x: np.floor(x * f(3)),
        lambda x: np.arctan2(x, x - f(1)),
        lambda x: np.power(x, x),
        fpowi,
        np.negative,
        np.abs,
        lambda x: np.fmod(x * f(7), x),
        lambda x: f(1) / np.sqrt(x),
    ]
    return _unary_case("float_math", (F32, F32), ops, inputs, ref, (1e-6, 1e-7))


CASES.append(_float_math())


def _float_formats() -> Case:
    """maxf / minf with NaNs, and arithmetic on f16, bf16 and f64 tiles."""

    def body(a, h, bh, d, out, outh, outb, outd):
        x = yield load_cell(a)
        yield put(out, 0, maximum(x, 1.0, propagate_nan=True))
        yield put(out, 1, minimum(x, 1.0, flush_to_zero=True))
        yield put(
            out, 2, maximum(x, 1.0, flush_to_zero=True) + minimum(x, 1.0, propagate_nan=True)
        )
        xh = yield load_cell(h)
        yield put(outh, 0, add(xh, xh, rounding="zero") * xh - 1.0)
        yield put(outh, 1, div(xh, xh + 1.0, rounding="positive_inf"))
        xb = yield load_cell(bh)
        yield put(outb, 0, sub(xb * xb, xb, rounding="negative_inf"))
        yield put(outb, 1, maximum(xb, neg(xb)))
        xd = yield load_cell(d)
        yield put(outd, 0, fma(xd, xd, xd, rounding="negative_inf"))
        yield put(outd, 1, sqrt(xd) + div(xd, 3.0, rounding="zero"))

    def build():
        return trace(
            "float_formats",
            body,
            In(F32, G64),
            In(F16, G64),
            In(BF16, G64),
            In(F64, G64),
            Shared(F32),
            Shared(F16),
            Shared(BF16),
            Shared(F64),
        )

    def inputs(rng):
        a = rng.uniform(0, 2, N).astype(np.float32)
        a[::5] = np.nan
        h = rng.uniform(1, 2, N).astype(np.float16)
        bh = rng.uniform(1, 2, N).astype(ml_dtypes.bfloat16)
        d = rng.uniform(1, 2, N)
        return [
            a,
            h,
            bh,
            d,
            _results(3, np.float32),
            _results(2, np.float16),
            _results(2, ml_dtypes.bfloat16),
            _results(2, np.float64),
        ], (4,)

    def reference(args):
        a, h, bh, d, out, outh, outb, outd = args
        one = np.float32(1)
        h64, b64 = h.astype(np.float64), bh.astype(np.float64)
        fma_d = _directed_f64_fma(d)
        return [
            a,
            h,
            bh,
            d,
            _fill(
                out, [np.maximum(a, one), np.fmin(a, one), np.fmax(a, one) + np.minimum(a, one)]
            ),
            _fill(
                outh,
                [
                    (_directed(h64 * 2, "zero", np.float16) * h) - np.float16(1),
                    _directed(
                        h64 / (h + np.float16(1)).astype(np.float64), "positive_inf", np.float16
                    ),
                ],
            ),
            _fill(
                outb,
                [
                    _directed(
                        (bh * bh).astype(np.float64) - b64, "negative_inf", ml_dtypes.bfloat16
                    ),
                    bh,
                ],
            ),
            _fill(outd, [fma_d, np.sqrt(d) + _div3_zero(d)]),
        ]

    return Case("float_formats", build, inputs, reference)


def _directed_f64_fma(d: np.ndarray) -> np.ndarray:
    from fractions import Fraction

    out = []
    for v in d:
        exact = Fraction(v) * Fraction(v) + Fraction(v)
        r = float(exact)
        if Fraction(r) > exact:
            r = float(np.nextafter(r, -np.inf))
        out.append(r)
    return np.array(out)


def _div3_zero(d: np.ndarray) -> np.ndarray:
    from fractions import Fraction

    out = []
    for v in d:
        exact = Fraction(v) / 3
        r = float(exact)
        if abs(Fraction(r)) > abs(exact):
            r = float(np.nextafter(r, 0.0))
        out.append(r)
    return np.array(out)


CASES.append(_float_formats())


# ----------------------------------------------------------------------------- integers


def _int_arith() -> Case:
    def body(a, b, out):
        x = yield load_cell(a)
        y = yield load_cell(b)
        ax, ay = absolute(x), absolute(y)
        ops = [
            add(x, y, overflow="no_signed_wrap"),
            sub(x + 2000, ay, overflow="no_unsigned_wrap"),
            mul(ax, ay, overflow="no_wrap"),
            add(x, y, overflow="none"),
            x // y,
            div(x, y),
            div(x, y, rounding="positive_inf"),
            div(x, y, rounding="positive_inf", signed=False),
            div(x, y, rounding="zero", signed=False),
            rem(x, y),
            rem(x, y, signed=False),
            mulhi(x, y),
            shl(ay, 3, overflow="no_wrap"),
            shr(x, 2),
            shr(x, 2, signed=False),
            maximum(x, y),
            maximum(x, y, signed=False),
            minimum(x, y),
            minimum(x, y, signed=False),
            neg(x, overflow="no_signed_wrap"),
            neg(x),
            absolute(x),
            bitwise_and(x, y),
            bitwise_or(x, y),
            bitwise_xor(x, y),
            bitwise_not(x),
            x << 1,
            x >> 1,
            x % y,
        ]
        for k, r in enumerate(ops):
            yield put(out, k, r)

    def build():
        return trace("int_arith", body, In(I32, G64), In(I32, G64), Shared(I32))

    def inputs(rng):
        a = rng.integers(-1000, 1000, N).astype(np.int32)
        b = rng.integers(1, 50, N).astype(np.int32) * rng.choice([-1, 1], N).astype(np.int32)
        return [a, b, _results(29, np.int32)], (4,)

    def reference(args):
        a, b, out = args
        x, y = a.astype(np.int64), b.astype(np.int64)
        ux, uy = x & 0xFFFFFFFF, y & 0xFFFFFFFF
        trunc = np.trunc(x / y).astype(np.int64)
        i32 = np.int32
        vals = [
            x + y,
            x + 2000 - np.abs(y),
            np.abs(x) * np.abs(y),
            x + y,
            x // y,
            trunc,
            -((-x) // y),
            -((-ux) // uy),
            ux // uy,
            x - trunc * y,
            ux % uy,
            (ux.astype(np.uint64) * uy.astype(np.uint64)) >> np.uint64(32),
            np.abs(y) << 3,
            x >> 2,
            ux >> 2,
            np.maximum(x, y),
            np.where(ux >= uy, x, y),
            np.minimum(x, y),
            np.where(ux <= uy, x, y),
            -x,
            -x,
            np.abs(x),
            x & y,
            x | y,
            x ^ y,
            ~x,
            x << 1,
            x >> 1,
            x - trunc * y,
        ]
        return [
            a,
            b,
            _fill(
                out,
                [
                    (np.asarray(v).astype(np.uint64) & np.uint64(0xFFFFFFFF))
                    .astype(np.uint32)
                    .view(i32)
                    for v in vals
                ],
            ),
        ]

    return Case("int_arith", build, inputs, reference)


CASES.append(_int_arith())


def _int_formats() -> Case:
    """i8 / i16 / i64 arithmetic and i1 logic, and cmpi's predicates both ways."""
    preds = (
        "equal",
        "not_equal",
        "less_than",
        "less_than_or_equal",
        "greater_than",
        "greater_than_or_equal",
    )

    def body(a, b, c, d, out8, out16, out64, flags):
        x8 = yield load_cell(a)
        x16 = yield load_cell(b)
        x64 = yield load_cell(c)
        y64 = yield load_cell(d)
        yield put(out8, 0, x8 * 3 + maximum(x8, 7, signed=False))
        yield put(out16, 0, div(x16, 7, rounding="negative_inf") - absolute(x16))
        yield put(out64, 0, mulhi(x64, y64) + x64 * y64 - neg(y64))
        mask = full((16,), 0, I32)
        for k, p in enumerate(preds):
            for s, signed in enumerate((True, False)):
                m = compare(p, x64, y64, signed=signed)
                mask = mask | shl(convert(m, I32), 2 * k + s)
        both = (x64 > y64) & (x64 < 0) | bitwise_not(compare("equal", x64, y64)) ^ (
            compare("not_equal", x64, y64)
        )
        mask = mask | shl(convert(both, I32), 20)
        yield put(flags, 0, mask)

    def build():
        return trace(
            "int_formats",
            body,
            In(I8, G64),
            In(I16, G64),
            In(I64, G64),
            In(I64, G64),
            Shared(I8),
            Shared(I16),
            Shared(I64),
            Shared(I32),
        )

    def inputs(rng):
        a = rng.integers(-40, 40, N).astype(np.int8)
        b = rng.integers(-3000, 3000, N).astype(np.int16)
        c = rng.integers(-(2**40), 2**40, N).astype(np.int64)
        d = np.where(rng.random(N) < 0.2, c, rng.integers(-(2**40), 2**40, N)).astype(np.int64)
        return [
            a,
            b,
            c,
            d,
            _results(1, np.int8),
            _results(1, np.int16),
            _results(1, np.int64),
            _results(1, np.int32),
        ], (4,)

    def reference(args):
        a, b, c, d, o8, o16, o64, flags = args
        x8 = a.astype(np.int64)
        u8 = x8 & 0xFF
        max_u = np.where(u8 >= 7, x8, 7)
        r8 = ((x8 * 3 + max_u) & 0xFF).astype(np.uint8).view(np.int8)
        x16 = b.astype(np.int64)
        r16 = (x16 // 7 - np.abs(x16)).astype(np.int16)
        uc = [int(v) & (2**64 - 1) for v in c]
        ud = [int(v) & (2**64 - 1) for v in d]
        hi = np.array([((p * q) >> 64) & (2**64 - 1) for p, q in zip(uc, ud)], dtype=np.uint64)
        r64 = (hi + (c * d).astype(np.uint64) + d.astype(np.uint64)).view(np.int64)
        mask = np.zeros(N, dtype=np.int64)
        cu, du = c.astype(np.uint64), d.astype(np.uint64)
        fns = (np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal)
        for k, fn in enumerate(fns):
            mask |= fn(c, d).astype(np.int64) << (2 * k)
            mask |= fn(cu, du).astype(np.int64) << (2 * k + 1)
        both = ((c > d) & (c < 0)) | (~(c == d) ^ (c != d))
        mask |= both.astype(np.int64) << 20
        return [
            a,
            b,
            c,
            d,
            _fill(o8, [r8]),
            _fill(o16, [r16]),
            _fill(o64, [r64]),
            _fill(flags, [mask.astype(np.int32)]),
        ]

    return Case("int_formats", build, inputs, reference)


CASES.append(_int_formats())


def _float_compare() -> Case:
    preds = (
        "equal",
        "not_equal",
        "less_than",
        "less_than_or_equal",
        "greater_than",
        "greater_than_or_equal",
    )

    def body(a, b, out):
        x = yield load_cell(a)
        y = yield load_cell(b)
        mask = full((16,), 0, I32)
        for k, p in enumerate(preds):
            for s, ordering in enumerate(("ordered", "unordered")):
                mask = mask | shl(convert(compare(p, x, y, ordering=ordering), I32), 2 * k + s)
        yield put(out, 0, mask)
        yield put(out, 1, where(x < y, convert(x, I32), convert(y, I32)))

    def build():
        return trace("float_compare", body, In(F32, G64), In(F32, G64), Shared(I32))

    def inputs(rng):
        a = rng.integers(-3, 3, N).astype(np.float32)
        b = rng.integers(-3, 3, N).astype(np.float32)
        a[::7], b[3::9] = np.nan, np.nan
        return [a, b, _results(2, np.int32)], (4,)

    def reference(args):
        a, b, out = args
        nan = np.isnan(a) | np.isnan(b)
        mask = np.zeros(N, dtype=np.int64)
        with np.errstate(invalid="ignore"):
            fns = (np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal)
            for k, fn in enumerate(fns):
                r = fn(a, b)
                mask |= (r & ~nan).astype(np.int64) << (2 * k)
                mask |= (r | nan).astype(np.int64) << (2 * k + 1)
        ai = np.where(np.isnan(a), 0, a).astype(np.int32)
        bi = np.where(np.isnan(b), 0, b).astype(np.int32)
        with np.errstate(invalid="ignore"):
            pick = np.where(a < b, ai, bi)
        return [a, b, _fill(out, [mask.astype(np.int32), pick])]

    return Case("float_compare", build, inputs, reference)


CASES.append(_float_compare())
