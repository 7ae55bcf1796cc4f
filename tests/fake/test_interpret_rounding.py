"""The fake device's rounding against an exact rational reference, in every mode."""

from __future__ import annotations

import zlib
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from tileir.fake.rounding import arith, to_e8m0, to_format
from tileir.types import BF16, F8E4M3FN, F16, F32, F64, TF32, Format

# name -> (significant bits, smallest normal exponent, largest finite value)
SPECS = {
    "f64": (53, -1022, float(np.finfo(np.float64).max)),
    "f32": (24, -126, float(np.finfo(np.float32).max)),
    "tf32": (11, -126, float(np.finfo(np.float32).max)),
    "f16": (11, -14, 65504.0),
    "bf16": (8, -126, float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)),
    "f8E4M3FN": (4, -6, 448.0),
    "f8E5M2": (3, -14, 57344.0),
    "f4E2M1FN": (2, 0, 6.0),
}


def ref_round(x: Fraction, name: str, mode: str) -> float:
    """``x`` rounded into format ``name`` by the book (IEEE 754, unbounded then overflow)."""
    p, emin, top = SPECS[name]
    if x == 0:
        return 0.0
    sign = -1 if x < 0 else 1
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    q = Fraction(2) ** (e - p + 1)
    n, rem = divmod(a, q)
    n = int(n)
    up = {
        "nearest_even": rem > q / 2 or (rem == q / 2 and n % 2 == 1),
        "zero": False,
        "positive_inf": rem > 0 and sign > 0,
        "negative_inf": rem > 0 and sign < 0,
    }[mode]
    v = (n + up) * q
    if v > Fraction(top):
        toward_zero = (
            mode == "zero"
            or (mode == "positive_inf" and sign < 0)
            or (mode == "negative_inf" and sign > 0)
        )
        return sign * top if toward_zero else sign * np.inf
    return sign * float(v)


def _samples(p: int, rng, count: int = 400) -> np.ndarray:
    """Values near the format's rounding points: ties, just above, just below."""
    mant = rng.integers(1 << (p + 2), 1 << (p + 4), count).astype(np.float64)
    exps = rng.integers(-8, 8, count)
    base = np.ldexp(mant, exps - (p + 3))
    nudge = rng.choice([0.0, 1.0, -1.0], count) * np.ldexp(base, -50)
    signs = rng.choice([1.0, -1.0], count)
    return signs * (base + nudge)


@pytest.mark.parametrize("name", ["f32", "tf32", "f16", "bf16", "f8E4M3FN", "f8E5M2", "f4E2M1FN"])
def test_to_format_rounds_once_and_correctly(name):
    rng = np.random.default_rng(7)
    p = SPECS[name][0]
    x = _samples(p, rng)
    if name in ("f8E4M3FN", "f4E2M1FN", "f8E5M2"):
        x = x[np.abs(x) < SPECS[name][2]]  # their overflow is ml_dtypes' (no infinity)
    got = to_format(x, Format(name)).astype(np.float64)
    want = [ref_round(Fraction(float(v)), name, "nearest_even") for v in x]
    assert got.tolist() == want


@pytest.mark.parametrize("fmt", [F64, F32, F16, BF16])
@pytest.mark.parametrize("mode", ["nearest_even", "zero", "positive_inf", "negative_inf"])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "fma"])
def test_arith_matches_exact_rounding(fmt, mode, op):
    rng = np.random.default_rng(zlib.crc32(f"{fmt.name} {mode} {op}".encode()))
    p = SPECS[fmt.name][0]
    n = 60 if fmt.name == "f64" else 200
    dt = fmt.numpy_dtype
    xs = [to_format(_samples(p, rng, n), fmt) for _ in range(3)]
    if op == "fma" and fmt.name == "f64":
        xs = [x[:30] for x in xs]
    args = xs[:3] if op == "fma" else xs[:2]
    got = arith(op, args, fmt, mode)
    assert got.dtype == dt
    for i in range(len(got)):
        f = [Fraction(float(a[i])) for a in args]
        exact = {
            "add": lambda: f[0] + f[1],
            "sub": lambda: f[0] - f[1],
            "mul": lambda: f[0] * f[1],
            "div": lambda: f[0] / f[1],
            "fma": lambda: f[0] * f[1] + f[2],
        }[op]()
        want = ref_round(exact, fmt.name, mode)
        assert float(got[i]) == want, (op, mode, [float(a[i]) for a in args], float(got[i]), want)


@pytest.mark.parametrize("fmt", [F64, F32, F16, BF16])
@pytest.mark.parametrize("mode", ["zero", "positive_inf", "negative_inf", "nearest_even"])
def test_sqrt_brackets_the_root(fmt, mode):
    rng = np.random.default_rng(11)
    x = to_format(np.abs(_samples(SPECS[fmt.name][0], rng, 100)), fmt)
    got = arith("sqrt", [x], fmt, mode)
    for v, r in zip(x, got):
        r = float(r)
        lo = float(np.nextafter(np.asarray(r, x.dtype), np.asarray(0, x.dtype)))
        hi = float(np.nextafter(np.asarray(r, x.dtype), np.asarray(np.inf, x.dtype)))
        sq, val = Fraction(r) ** 2, Fraction(float(v))
        if mode == "positive_inf":
            assert sq >= val and Fraction(lo) ** 2 < val
        elif mode in ("zero", "negative_inf"):
            assert sq <= val and Fraction(hi) ** 2 > val
        else:
            mid_lo, mid_hi = (Fraction(lo) + Fraction(r)) / 2, (Fraction(r) + Fraction(hi)) / 2
            assert mid_lo**2 <= val <= mid_hi**2


def test_directed_overflow_and_signed_zeros():
    big = np.float32([3e38])
    assert arith("add", [big, big], F32, "zero")[0] == np.finfo(np.float32).max
    assert np.isinf(arith("add", [big, big], F32, "positive_inf")[0])
    assert arith("mul", [-big, big], F32, "positive_inf")[0] == -np.finfo(np.float32).max
    z = arith("sub", [np.float64([2.0]), np.float64([2.0])], F64, "negative_inf")
    assert z[0] == 0 and np.signbit(z[0])
    z = arith("add", [np.float32([-0.0]), np.float32([-0.0])], F32, "positive_inf")
    assert np.signbit(z[0])
    assert (
        arith("mul", [np.float64([1e300]), np.float64([1e300])], F64, "zero")[0]
        == np.finfo(np.float64).max
    )


def test_fma_rounds_once_even_when_float64_cannot_hold_the_sum():
    a = np.float32([1 + 2**-12, 1 + 2**-12])  # a * a = 1 + 2**-11 + 2**-24: an f32 tie
    c = np.float32([2.0**-80, -(2.0**-80)])  # pushes the exact sum just off the tie
    got = arith("fma", [a, a, c], F32, "nearest_even")
    assert got.tolist() == [1 + 2**-11 + 2**-23, 1 + 2**-11]
    h, k = np.float16([1 + 2**-5]), np.float16([1 + 2**-6])  # 1 + 3 * 2**-6 + 2**-11: a tie
    got = arith("fma", [h, k, np.float16([2.0**-24])], F16, "nearest_even")
    assert got.tolist() == [1 + 3 * 2**-6 + 2**-10]


def test_e8m0_rounding_and_tf32():
    x = np.array([3.0, 4.0, 0.3, 1e-40, -1.0, 0.0])
    assert to_e8m0(x, "zero").astype(float)[:4].tolist() == [2.0, 4.0, 0.25, 2.0**-127]
    assert to_e8m0(x, "positive_inf").astype(float)[:3].tolist() == [4.0, 4.0, 0.5]
    assert np.isnan(to_e8m0(x, "zero").astype(float)[4:]).all()
    got = to_format(np.array([1 + 2**-11, 1 + 3 * 2**-11, 1 + 2**-11 + 2**-40]), TF32)
    assert got.dtype == np.float32
    assert got.tolist() == [1.0, 1 + 2**-9, 1 + 2**-10]


def test_unknown_rounding_is_refused_not_guessed():
    with pytest.raises(NotImplementedError):
        arith("add", [np.float32([1.0])] * 2, F32, "nearest_away")
    with pytest.raises(NotImplementedError):
        arith("add", [np.array([1.0], ml_dtypes.float8_e4m3fn)] * 2, F8E4M3FN, "zero")
