"""Every value of the narrow formats through the interpreter's ``ftof``, in every rounding mode.

The oracle is independent of the interpreter's rounding code: the sorted table of every
finite magnitude the destination holds (built from the format's bit patterns), a binary
search for the two neighbours of each input, and the mode's choice between them, with the
distances compared in float64 (exact here: both neighbours and the input have at most 24
significant bits and lie within a factor of two of each other).  A tie to even picks the
neighbour of even code, since a format's non-negative codes count its magnitudes in order.

Sources are exhaustive where they have at most 16 bits (f16, bf16, f8E4M3FN, f8E5M2: every
finite pattern) and sampled for f32 / f64 (random patterns, plus every destination midpoint
and its neighbours, the inputs a double rounding or a swapped direction gets wrong).
Results past the largest finite destination value are left out: the formats overflow in
their own ways (tests/fake/test_interpret_rounding.py covers those).

f32 -> tf32 is also run toward either infinity, which the dialect's verifier does not take
from f32 (it takes them only where the conversion is exact): the interpreter's rule is
written for every f32, and an exact conversion cannot tell up from down.
"""

from __future__ import annotations

import functools

import ml_dtypes
import numpy as np
import pytest

from support.interp_cases import one
from tileir.fake.interpreter import interpret
from tileir.fake.rounding import to_e8m0, to_format
from tileir.ir.attr_rules import ftof_roundings
from tileir.types import (
    BF16,
    F4E2M1FN,
    F8E4M3FN,
    F8E5M2,
    F8E8M0FNU,
    F16,
    F32,
    F64,
    TF32,
    Format,
)

RUN = functools.partial(interpret, verify=False)  # f32 -> tf32 toward an infinity

_BITS = {"f16": np.uint16, "bf16": np.uint16, "f8E4M3FN": np.uint8, "f8E5M2": np.uint8}


def every_value(fmt: Format) -> np.ndarray:
    """Every finite value of a format of at most 16 bits, as float64 (-0 included)."""
    codes = np.arange(1 << (8 * np.dtype(_BITS[fmt.name]).itemsize), dtype=_BITS[fmt.name])
    with np.errstate(invalid="ignore"):
        values = codes.view(fmt.numpy_dtype).astype(np.float64)
    return values[np.isfinite(values)]


@functools.lru_cache(maxsize=None)
def magnitudes(name: str) -> np.ndarray:
    """The non-negative finite values of format ``name`` in code order (= in value order)."""
    if name == "tf32":  # f32 patterns whose 13 low mantissa bits are zero
        codes = np.arange(0x7F800000 >> 13, dtype=np.uint32) << np.uint32(13)
        return codes.view(np.float32).astype(np.float64)
    if name == "f8E8M0FNU":  # 2**-127 .. 2**127, code 0xFF is NaN
        return np.ldexp(1.0, np.arange(-127, 128))
    dtype = {
        "f16": np.float16,
        "bf16": ml_dtypes.bfloat16,
        "f8E4M3FN": ml_dtypes.float8_e4m3fn,
        "f8E5M2": ml_dtypes.float8_e5m2,
        "f4E2M1FN": ml_dtypes.float4_e2m1fn,
    }[name]
    bits = 4 if name == "f4E2M1FN" else 8 * np.dtype(dtype).itemsize
    half = 1 << (bits - 1)  # the codes below the sign bit: +0 up to NaN / inf
    raw = np.arange(half, dtype=np.uint16 if bits == 16 else np.uint8)
    if bits == 4:  # no 4-bit view in numpy: the eight magnitudes, from the format's definition
        return np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6], dtype=np.float64)
    with np.errstate(invalid="ignore"):
        values = raw.view(dtype).astype(np.float64)
    return values[np.isfinite(values)]


def oracle(x: np.ndarray, dst: str, mode: str) -> tuple[np.ndarray, np.ndarray]:
    """(expected values, which inputs to compare) of ``x`` rounded into ``dst`` by ``mode``."""
    table = magnitudes(dst)
    a = np.abs(x)
    keep = np.isfinite(x) & (a <= table[-1])
    a = np.where(keep, a, 0.0)
    i = np.clip(np.searchsorted(table, a, side="right") - 1, 0, len(table) - 1)
    lo = table[i]
    hi = table[np.minimum(i + 1, len(table) - 1)]
    exact = a == lo
    negative = np.signbit(x)
    if mode == "zero":
        up = np.zeros_like(exact)
    elif mode in ("positive_inf", "negative_inf"):
        up = ~exact & (negative == (mode == "negative_inf"))
    else:
        below, above = a - lo, hi - a
        tie = below == above
        if mode == "nearest_even":
            up = (above < below) | (tie & (i % 2 == 1))
        elif mode == "nearest_away":
            up = (above < below) | tie
        else:
            raise ValueError(mode)
        up &= ~exact
    magnitude = np.where(up, hi, lo)
    if dst == "f8E8M0FNU":  # unsigned, no zero: positive inputs from its least value up
        keep &= (x > 0) & (a >= table[0])
    return np.where(negative, -magnitude, magnitude), keep


def _interpreted(x64: np.ndarray, src: Format, dst: Format, mode: str) -> np.ndarray:
    n = 1 << max(0, int(x64.size - 1).bit_length())  # a tile is a power of two long
    padded = np.zeros(n, np.float64)
    padded[: x64.size] = x64
    got = one(RUN, "ftof", [(padded.astype(src.numpy_dtype), src)], fmt=dst, rounding=mode)
    return np.asarray(got).astype(np.float64)[: x64.size]


def _check(x64: np.ndarray, src: Format, dst: Format, mode: str) -> None:
    want, keep = oracle(x64, dst.name, mode)
    got = _interpreted(x64, src, dst, mode)
    bad = keep & (got != want)
    assert keep.sum() > 0
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise AssertionError(
            f"ftof {src} -> {dst} rounding {mode}: {int(bad.sum())} of {int(keep.sum())} "
            f"values wrong, first {x64[k]!r} -> {got[k]!r}, the table says {want[k]!r}"
        )


def _near_rounding_points(dst: str, rng, count: int = 4096) -> np.ndarray:
    """Destination midpoints and values one f32 ulp either side, both signs, in f32."""
    table = magnitudes(dst)
    picks = rng.integers(0, len(table) - 1, count)
    mid = (table[picks] + table[picks + 1]) / 2
    mid32 = mid.astype(np.float32)
    near = np.concatenate(
        [
            mid32,
            np.nextafter(mid32, np.float32(np.inf)),
            np.nextafter(mid32, np.float32(0)),
            table[picks].astype(np.float32),
        ]
    )
    return np.concatenate([near, -near]).astype(np.float64)


NARROW_SOURCES = (F16, BF16, F8E4M3FN, F8E5M2)
DESTINATIONS = (F16, BF16, TF32, F8E4M3FN, F8E5M2, F8E8M0FNU, F4E2M1FN)
PAIRS = [
    (src, dst, mode)
    for src in NARROW_SOURCES
    for dst in DESTINATIONS
    if src != dst
    for mode in ftof_roundings(src, dst)
]


@pytest.mark.parametrize(("src", "dst", "mode"), PAIRS, ids=str)
def test_every_value_of_a_narrow_format(src, dst, mode):
    _check(every_value(src), src, dst, mode)


F32_MODES = [
    (dst, mode)
    for dst in DESTINATIONS
    for mode in ftof_roundings(F32, dst)
    + (("negative_inf", "positive_inf") if dst == TF32 else ())
]


@pytest.mark.parametrize(("dst", "mode"), F32_MODES, ids=str)
def test_f32_into_every_narrow_format(dst, mode):
    rng = np.random.default_rng(18)
    patterns = rng.integers(0, 1 << 32, 1 << 14, dtype=np.uint64).astype(np.uint32)
    with np.errstate(invalid="ignore"):  # the NaN patterns, left out by the oracle
        x = np.concatenate(
            [patterns.view(np.float32).astype(np.float64), _near_rounding_points(dst.name, rng)]
        )
    _check(x, F32, dst, mode)


F64_MODES = [
    (dst, mode)
    for dst in (F16, BF16, TF32, F8E4M3FN, F8E5M2, F4E2M1FN)
    for mode in ftof_roundings(F64, dst)
]


@pytest.mark.parametrize(("dst", "mode"), F64_MODES, ids=str)
def test_f64_just_off_a_midpoint_rounds_once(dst, mode):
    # an f64 a hair above or below a destination midpoint: rounding through f32 first
    # would land on the midpoint and then tie; the exact answer does not
    rng = np.random.default_rng(5)
    table = magnitudes(dst.name)
    picks = rng.integers(1, len(table) - 1, 2048)
    mid = (table[picks] + table[picks + 1]) / 2
    x = np.concatenate([mid * (1 + 2.0**-40), mid * (1 - 2.0**-40), mid])
    _check(np.concatenate([x, -x]), F64, dst, mode)


def test_the_oracle_knows_its_tables():
    assert magnitudes("f8E4M3FN")[-1] == 448.0 and len(magnitudes("f8E4M3FN")) == 127
    assert magnitudes("f8E5M2")[-1] == 57344.0
    assert magnitudes("f4E2M1FN").tolist() == [0, 0.5, 1, 1.5, 2, 3, 4, 6]
    assert magnitudes("tf32")[1] == 2.0**-136  # the smallest subnormal kept by tf32
    want, keep = oracle(
        np.array([1 + 2**-11, 1 + 3 * 2**-11, -(1 + 2**-11)]), "tf32", "nearest_even"
    )
    assert want.tolist() == [1.0, 1 + 2**-9, -1.0] and keep.all()
    want, _ = oracle(np.array([1 + 2**-20, -(1 + 2**-20)]), "tf32", "positive_inf")
    assert want.tolist() == [1 + 2**-10, -1.0]


def test_e8m0_nearest_ties_go_up_as_ml_dtypes_does():
    # ftof into f8E8M0FNU takes zero and positive_inf only; nearest is the conversion a
    # buffer's values take (to_format), with ml_dtypes' rule: 1.5 * 2**k goes up
    rng = np.random.default_rng(3)
    k = rng.integers(-120, 120, 2048).astype(np.float64)
    frac = np.concatenate([np.full(256, 0.75), rng.uniform(0.5, 1.0, 1792)])
    x = np.concatenate([np.ldexp(frac, k.astype(int)), np.ldexp(0.75, np.arange(-126, 127))])
    got = np.asarray(to_format(x, F8E8M0FNU)).astype(np.float64)
    want = x.astype(np.float32).astype(ml_dtypes.float8_e8m0fnu).astype(np.float64)
    assert np.array_equal(got, want)
    assert to_e8m0(np.array([3.0, 6.0]), "nearest_even").astype(float).tolist() == [4.0, 8.0]
