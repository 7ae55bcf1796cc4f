"""Per-op cases for the fake device's interpreter, shared by the op tests and the
coverage test (which runs every case under a recording observer and checks that
every body op of the dialect was executed).

A case is ``fn(run)``: ``run(module, entry, args, grid, observer=None)`` is
:func:`tileir.fake.interpreter.interpret` or a wrapper around it.  Cases register
with :func:`case`, naming the ops they are about.
"""

from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np

from support.module_builder import FunctionBuilder, tile
from tileir.types import BF16, F4E2M1FN, F8E4M3FN, F8E8M0FNU, F16, F32, F64, I1, I8, I32, TF32

CASES: dict[str, tuple[tuple[str, ...], callable]] = {}


def case(*ops: str):
    def deco(fn):
        CASES[fn.__name__] = (ops, fn)
        return fn

    return deco


class Capture:
    """Observer keeping the results of chosen ops (by identity)."""

    def __init__(self, *targets):
        self.targets = list(targets)
        self.results = {}

    def after_op(self, op, results, block_ids):
        for i, t in enumerate(self.targets):
            if op is t:
                self.results[i] = [
                    np.array(r) if isinstance(r, np.ndarray) else r for r in results
                ]

    def on_memory(self, *a):
        pass


def eval_op(run, name, inputs, result_types, attrs=None, segments=None, grid=(1,)):
    """Run one op on constant inputs ``[(values, format), ...]``; block 0's results."""
    fb = FunctionBuilder("k", [])
    vals = [fb.const(np.asarray(v), tile(np.shape(v), f)) for v, f in inputs]
    fb.op(name, vals, tuple(result_types), attrs, segments=segments)
    fb.ret()
    m = fb.module()
    target = m.functions[0].body.ops[len(inputs)]
    cap = Capture(target)
    run(m, "k", [], grid, observer=cap)
    return [r[0] for r in cap.results[0]]


def one(run, name, inputs, fmt=None, shape=None, **attrs):
    """A one-result op whose result has the first input's type unless told otherwise."""
    v0, f0 = inputs[0]
    t = tile(np.shape(v0) if shape is None else shape, fmt or f0)
    return eval_op(run, name, inputs, [t], attrs)[0]


def bits_equal(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# ----------------------------------------------------------------------------- float arithmetic


@case("addf", "subf", "mulf", "divf")
def float_arith_in_format(run):
    a = np.array([1.0, 3.0, -2.5, 1e30], np.float32)
    b = np.array([2.0**-30, 7.0, 0.1, 1e10], np.float32)
    for name, fn in (
        ("addf", np.add),
        ("subf", np.subtract),
        ("mulf", np.multiply),
        ("divf", np.divide),
    ):
        got = one(run, name, [(a, F32), (b, F32)])
        with np.errstate(over="ignore"):
            assert bits_equal(got, fn(a, b)), name  # f32 arithmetic in f32, not f64
    h = np.array([1.0, 2049.0, 0.1], np.float16)
    got = one(run, "addf", [(h, F16), (h, F16)])
    assert bits_equal(got, h + h)
    bf = np.array([1.0, 3.0, 255.0], ml_dtypes.bfloat16)
    bg = np.array([2.0**-8, 1.0 / 3.0, 1.5], ml_dtypes.bfloat16)
    got = one(run, "mulf", [(bf, BF16), (bg, BF16)])
    assert bits_equal(
        got, (bf.astype(np.float32) * bg.astype(np.float32)).astype(ml_dtypes.bfloat16)
    )
    got = one(run, "addf", [(bf, BF16), (bg, BF16)])
    assert got.astype(float).tolist() == [1.0, 3.328125, 256.0]


@case("addf", "mulf", "divf", "subf")
def float_rounding_modes(run):
    one_ = np.array([1.0, -1.0], np.float32)
    tiny = np.array([2.0**-30, 2.0**-30], np.float32)
    up = one(run, "addf", [(one_, F32), (tiny, F32)], rounding="positive_inf")
    assert up.tolist() == [1.0 + 2.0**-23, -(1.0 - 2.0**-24)]
    down = one(run, "addf", [(one_, F32), (tiny, F32)], rounding="negative_inf")
    assert down.tolist() == [1.0, -1.0]
    rz = one(run, "subf", [(one_, F32), (tiny, F32)], rounding="zero")
    assert rz.tolist() == [1.0 - 2.0**-24, -1.0]
    num, den = (np.float32([1.0, 2.0, -1.0]), F32), (np.float32([3.0, 3.0, 3.0]), F32)
    hi = one(run, "divf", [num, den], rounding="positive_inf")
    lo = one(run, "divf", [num, den], rounding="negative_inf")
    rz = one(run, "divf", [num, den], rounding="zero")
    for i, q in enumerate([Fraction(1, 3), Fraction(2, 3), Fraction(-1, 3)]):
        assert Fraction(float(lo[i])) < q < Fraction(float(hi[i]))
        assert hi[i] == np.nextafter(lo[i], np.float32(np.inf))
        assert abs(Fraction(float(rz[i]))) < abs(q)
    x = np.array([1.0, 1.0], np.float64)
    y = np.array([2.0**-60, -(2.0**-60)], np.float64)
    got = one(run, "addf", [(x, F64), (y, F64)], rounding="zero")
    assert got.tolist() == [1.0, 1.0 - 2.0**-53]
    got = one(
        run,
        "mulf",
        [(np.float64([1.0 + 2**-52]), F64), (np.float64([1.0 + 2**-52]), F64)],
        rounding="positive_inf",
    )
    assert got[0] == 1.0 + 3 * 2.0**-52
    # bf16 in a directed mode: exact result rounded toward zero in bf16
    b = np.array([1.0], ml_dtypes.bfloat16)
    c = np.array([2.0**-9], ml_dtypes.bfloat16)
    got = one(run, "addf", [(b, BF16), (c, BF16)], rounding="positive_inf")
    assert float(got[0]) == 1.0 + 2.0**-7
    # an exact zero sum is -0 under negative_inf, +0 otherwise
    z = one(
        run, "subf", [(np.float32([1.0]), F32), (np.float32([1.0]), F32)], rounding="negative_inf"
    )
    assert np.signbit(z[0])


@case("addf", "maxf", "minf", "sqrt", "rsqrt", "exp2")
def flush_to_zero(run):
    sub = np.array([1e-40, -1e-40, 1.0], np.float32)
    got = one(run, "mulf", [(sub, F32), (np.ones(3, np.float32), F32)], flush_to_zero=True)
    assert got.tolist() == [0.0, 0.0, 1.0] and np.signbit(got[1])
    got = one(run, "addf", [(sub, F32), (np.float32([2e-40, 0, 0]), F32)], flush_to_zero=True)
    assert got.tolist() == [0.0, 0.0, 1.0]
    got = one(run, "addf", [(sub, F32), (np.float32([2e-40, 0, 0]), F32)])
    assert got[0] == np.float32(1e-40) + np.float32(2e-40)
    got = one(run, "maxf", [(sub, F32), (np.zeros(3, np.float32), F32)], flush_to_zero=True)
    assert got.tolist() == [0.0, 0.0, 1.0]
    got = one(run, "sqrt", [(np.float32([1e-40, 4.0]), F32)], flush_to_zero=True)
    assert got.tolist() == [0.0, 2.0]
    got = one(run, "rsqrt", [(np.float32([4.0, 1e-40]), F32)], flush_to_zero=True)
    assert got[0] == 0.5 and np.isinf(got[1])
    got = one(run, "exp2", [(np.float32([-130.0, 3.0]), F32)], flush_to_zero=True)
    assert got.tolist() == [0.0, 8.0]
    got = one(run, "minf", [(sub, F32), (np.ones(3, np.float32), F32)])
    assert got[0] == np.float32(1e-40)  # no ftz: subnormals kept


@case("fma")
def fused_multiply_add(run):
    a = np.float32([1.0 + 2.0**-12])
    c = np.float32([-(1.0 + 2.0**-11)])
    got = one(run, "fma", [(a, F32), (a, F32), (c, F32)])
    assert got[0] == np.float32(2.0**-24)  # one rounding: the product's tail survives
    assert np.float32(a[0] * a[0]) + c[0] == 0.0
    d = np.float64([1.0 + 2.0**-30])
    got = one(run, "fma", [(d, F64), (d, F64), (np.float64([-1.0]), F64)])
    assert got[0] == 2.0**-29 + 2.0**-60
    got = one(
        run,
        "fma",
        [(np.float16([3.0]), F16), (np.float16([5.0]), F16), (np.float16([0.5]), F16)],
        rounding="zero",
    )
    assert got.dtype == np.float16 and got[0] == 15.5


@case("remf", "negf", "absf", "ceil", "floor")
def float_simple(run):
    x = np.array([5.5, -5.5, 0.0, -0.0], np.float32)
    y = np.array([2.0, 2.0, 1.0, np.inf], np.float32)
    assert one(run, "remf", [(x, F32), (y, F32)]).tolist() == [1.5, -1.5, 0.0, -0.0]
    assert np.isnan(one(run, "remf", [(np.float32([1.0]), F32), (np.float32([0.0]), F32)])[0])
    assert bits_equal(one(run, "negf", [(x, F32)]), -x)
    assert one(run, "absf", [(x, F32)]).tolist() == [5.5, 5.5, 0.0, 0.0]
    assert one(run, "ceil", [(x, F32)]).tolist() == [6.0, -5.0, 0.0, 0.0]
    assert one(run, "floor", [(x, F32)]).tolist() == [5.0, -6.0, 0.0, 0.0]
    h = np.array([2.5, -0.5], ml_dtypes.bfloat16)
    assert one(run, "floor", [(h, BF16)]).astype(float).tolist() == [2.0, -1.0]


@case("maxf", "minf")
def max_min_nan_and_zero(run):
    a = np.array([np.nan, 1.0, np.nan, 0.0, -0.0], np.float32)
    b = np.array([2.0, np.nan, np.nan, -0.0, 0.0], np.float32)
    got = one(run, "maxf", [(a, F32), (b, F32)])
    assert got[:2].tolist() == [2.0, 1.0] and np.isnan(got[2])
    assert not np.signbit(got[3]) and not np.signbit(got[4])
    got = one(run, "minf", [(a, F32), (b, F32)])
    assert got[:2].tolist() == [2.0, 1.0] and np.signbit(got[3]) and np.signbit(got[4])
    got = one(run, "maxf", [(a, F32), (b, F32)], propagate_nan=True)
    assert np.isnan(got[:3]).all() and got[3] == 0.0
    got = one(run, "minf", [(a, F32), (b, F32)], propagate_nan=True)
    assert np.isnan(got[:3]).all()


@case(
    "exp",
    "log",
    "log2",
    "sin",
    "cos",
    "tan",
    "sinh",
    "cosh",
    "tanh",
    "atan2",
    "fpowf",
    "exp2",
    "sqrt",
    "rsqrt",
)
def math_functions(run):
    x = np.array([0.25, 0.5, 1.0, 2.0], np.float32)
    for name, fn in (
        ("exp", np.exp),
        ("log", np.log),
        ("log2", np.log2),
        ("sin", np.sin),
        ("cos", np.cos),
        ("tan", np.tan),
        ("sinh", np.sinh),
        ("cosh", np.cosh),
        ("tanh", np.tanh),
        ("exp2", np.exp2),
        ("sqrt", np.sqrt),
    ):
        got = one(run, name, [(x, F32)])
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, fn(x.astype(np.float64)), rtol=2e-7, err_msg=name)
    np.testing.assert_allclose(one(run, "rsqrt", [(x, F32)]), 1 / np.sqrt(x), rtol=2e-7)
    y = np.array([1.0, -1.0, 0.5, 3.0], np.float32)
    np.testing.assert_allclose(
        one(run, "atan2", [(x, F32), (y, F32)]), np.arctan2(x, y), rtol=2e-7
    )
    np.testing.assert_allclose(one(run, "fpowf", [(x, F32), (y, F32)]), np.power(x, y), rtol=2e-7)
    h = np.array([0.5, 1.0, 3.0], np.float16)  # emulated in f32, rounded once to f16
    assert bits_equal(one(run, "exp", [(h, F16)]), np.exp(h.astype(np.float32)).astype(np.float16))
    b = np.array([0.5, 1.0, 3.0], ml_dtypes.bfloat16)
    assert bits_equal(
        one(run, "tanh", [(b, BF16)]), np.tanh(b.astype(np.float32)).astype(ml_dtypes.bfloat16)
    )
    d = np.array([0.1, 2.0], np.float64)
    np.testing.assert_allclose(one(run, "exp", [(d, F64)]), np.exp(d), rtol=1e-15)


@case("fpowi")
def float_to_integer_power(run):
    got = one(run, "fpowi", [(np.float32([2.0, 3.0, 2.0]), F32), (np.int32([10, 3, -2]), I32)])
    assert got.dtype == np.float32 and got.tolist() == [1024.0, 27.0, 0.25]


@case("cmpf")
def float_compare(run):
    a = np.array([1.0, np.nan, 2.0, 3.0], np.float32)
    b = np.array([1.0, 1.0, 3.0, 2.0], np.float32)
    t = tile((4,), I1)

    def cmp(pred, order):
        return eval_op(
            run,
            "cmpf",
            [(a, F32), (b, F32)],
            [t],
            {"comparison_predicate": pred, "comparison_ordering": order},
        )[0].tolist()

    assert cmp("equal", "ordered") == [True, False, False, False]
    assert cmp("equal", "unordered") == [True, True, False, False]
    assert cmp("not_equal", "ordered") == [False, False, True, True]
    assert cmp("not_equal", "unordered") == [False, True, True, True]
    assert cmp("less_than", "ordered") == [False, False, True, False]
    assert cmp("greater_than_or_equal", "unordered") == [True, True, False, True]
    assert cmp("less_than_or_equal", "ordered") == [True, False, True, False]
    assert cmp("greater_than", "ordered") == [False, False, False, True]


# ----------------------------------------------------------------------------- mma


@case("mmaf")
def mma_float(run):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 4, 8)).astype(np.float32)
    b = rng.standard_normal((2, 8, 4)).astype(np.float32)
    c = rng.standard_normal((2, 4, 4)).astype(np.float32)
    got = one(run, "mmaf", [(a, F32), (b, F32), (c, F32)], shape=(2, 4, 4))
    np.testing.assert_allclose(got, a @ b + c, rtol=1e-5, atol=1e-5)
    h = rng.standard_normal((16, 32)).astype(np.float16)
    g = rng.standard_normal((32, 8)).astype(np.float16)
    acc = np.zeros((16, 8), np.float32)
    got = one(run, "mmaf", [(h, F16), (g, F16), (acc, F32)], shape=(16, 8))
    exact = h.astype(np.float64) @ g.astype(np.float64)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, exact, rtol=1e-6, atol=1e-5)  # exact products, f32 sum
    got16 = one(
        run,
        "mmaf",
        [(h, F16), (g, F16), (np.zeros((16, 8), np.float16), F16)],
        fmt=F16,
        shape=(16, 8),
    )
    assert got16.dtype == np.float16
    assert bits_equal(got16, (h.astype(np.float32) @ g.astype(np.float32)).astype(np.float16))
    bf = rng.standard_normal((4, 8)).astype(ml_dtypes.bfloat16)
    bg = rng.standard_normal((8, 4)).astype(ml_dtypes.bfloat16)
    got = one(
        run,
        "mmaf",
        [(bf, BF16), (bg, BF16), (np.zeros((4, 4), np.float32), F32)],
        fmt=F32,
        shape=(4, 4),
    )
    np.testing.assert_allclose(got, bf.astype(np.float64) @ bg.astype(np.float64), rtol=1e-6)
    # tf32 inputs are rounded to 10 mantissa bits before the product
    x = np.float32([[1.0 + 2.0**-12]])
    got = one(
        run,
        "mmaf",
        [(x, TF32), (np.float32([[1.0]]), TF32), (np.float32([[0.0]]), F32)],
        fmt=F32,
        shape=(1, 1),
    )
    assert got[0, 0] == 1.0
    got = one(run, "mmaf", [(x, F32), (np.float32([[1.0]]), F32), (np.float32([[0.0]]), F32)])
    assert got[0, 0] == np.float32(1.0 + 2.0**-12)
    d = rng.standard_normal((4, 4))
    np.testing.assert_allclose(one(run, "mmaf", [(d, F64), (d, F64), (d, F64)]), d @ d + d)
    e4 = np.array([[1.5, 2.0], [0.25, -3.0]], ml_dtypes.float8_e4m3fn)
    got = one(
        run,
        "mmaf",
        [(e4, F8E4M3FN), (e4, F8E4M3FN), (np.zeros((2, 2), np.float16), F16)],
        fmt=F16,
        shape=(2, 2),
    )
    assert got.astype(float).tolist() == (e4.astype(float) @ e4.astype(float)).tolist()


@case("mmaf_scaled")
def mma_block_scaled(run):
    a = np.array([[1.0, 2.0, 0.5, 3.0]], ml_dtypes.float4_e2m1fn)  # 1 x 4, K = 4
    b = np.array([[1.0], [1.0], [2.0], [2.0]], ml_dtypes.float4_e2m1fn)  # 4 x 1
    sa = np.array([[2.0, 0.5]], ml_dtypes.float8_e8m0fnu)  # one scale per 2 elements of K
    sb = np.array([[1.0], [4.0]], ml_dtypes.float8_e8m0fnu)
    acc = np.array([[10.0]], np.float32)
    got = one(
        run,
        "mmaf_scaled",
        [(a, F4E2M1FN), (b, F4E2M1FN), (acc, F32), (sa, F8E8M0FNU), (sb, F8E8M0FNU)],
        fmt=F32,
        shape=(1, 1),
    )
    # (1*2)(1*1) + (2*2)(1*1) + (0.5*0.5)(2*4) + (3*0.5)(2*4) + 10
    assert got[0, 0] == 2 + 4 + 2 + 12 + 10


@case("mmai")
def mma_int(run):
    a = np.array([[-1, 127], [-128, 2]], np.int8)
    b = np.array([[-1, 3], [2, -2]], np.int8)
    c = np.array([[5, 0], [0, 2**31 - 1]], np.int32)
    got = one(run, "mmai", [(a, I8), (b, I8), (c, I32)], fmt=I32, shape=(2, 2))
    want = (a.astype(np.int64) @ b.astype(np.int64) + c).astype(np.int32)  # wraps at i32
    assert got.tolist() == want.tolist()
    got = one(
        run,
        "mmai",
        [(a, I8), (b, I8), (c, I32)],
        fmt=I32,
        shape=(2, 2),
        signedness_lhs="unsigned",
        signedness_rhs="signed",
    )
    ua = a.view(np.uint8).astype(np.int64)
    assert got.tolist() == (ua @ b.astype(np.int64) + c).astype(np.int32).tolist()
