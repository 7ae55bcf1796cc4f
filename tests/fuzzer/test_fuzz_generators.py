"""Unit tests of the kernel fuzzer's newer generators and oracles (property_tests/fuzzer/fuzz_*).

The oracle's narrow-format rounding against exact rational rounding; the order-free
bounds of sums and products against folds in several orders; mma, scans and atomic
folds against plain loops; the drawn lanes (distinct where a store needs it, inside the
window); and every focused draw having its kind.
"""

from __future__ import annotations

import json
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "property_tests" / "fuzzer"))

from fuzz_bounds import prefix_products, prefix_sums  # noqa: E402
from fuzz_grammar import MMA_PAIRS, NARROW  # noqa: E402
from fuzz_kernels import FOCUSES, kernel_descriptions, kinds_of  # noqa: E402
from fuzz_known import buffer_formats, still_failing  # noqa: E402
from fuzz_numerics import (  # noqa: E402
    EV,
    FLOAT_INFO,
    MODES,
    max_finite,
    narrow_overflow,
    round_generic,
    round_into,
    round_mode,
)
from fuzz_ops_more import mma, scan  # noqa: E402
from fuzz_oracle_more import _float_fold, _int_fold, lane_elements  # noqa: E402
from fuzz_tree import TreeGen  # noqa: E402

_FAST = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# ----------------------------------------------------------------------------- rounding


def _exact_round(x: float, fmt: str, mode: str = "nearest_even") -> float:
    """Rounding of ``x`` into ``fmt`` in ``mode`` with rationals (no float steps)."""
    p, emin = FLOAT_INFO[fmt]
    if x == 0 or not math.isfinite(x):
        return x
    q = Fraction(x)
    e = math.floor(math.log2(abs(x)))
    while Fraction(2) ** e > abs(q):
        e -= 1
    while Fraction(2) ** (e + 1) <= abs(q):
        e += 1
    quantum = Fraction(2) ** (max(e, emin) - (p - 1))
    scaled = q / quantum
    low = math.floor(scaled)
    rest = scaled - low
    if mode == "nearest_even":
        up = rest > Fraction(1, 2) or (rest == Fraction(1, 2) and low % 2 == 1)
    elif mode == "nearest_away":
        up = rest > Fraction(1, 2) or (rest == Fraction(1, 2) and x > 0)
    else:
        toward = {"zero": -1 if x > 0 else 1, "negative_inf": -1, "positive_inf": 1}[mode]
        up = rest != 0 and toward == 1
    r = (low + (1 if up else 0)) * quantum
    if abs(r) > Fraction(max_finite(fmt)):
        big = {
            "nearest_even": True,
            "nearest_away": True,
            "zero": False,
            "negative_inf": x < 0,
            "positive_inf": x > 0,
        }[mode]
        return math.copysign(math.inf if big else max_finite(fmt), x)
    return math.copysign(float(r), x) if r == 0 else float(r)


@pytest.mark.parametrize(
    "fmt", [pytest.param(f, marks=pytest.mark.slow) if f == "tf32" else f for f in NARROW]
)  # tf32's 13 dropped bits: many more ties
def test_narrow_rounding_is_the_exact_nearest_even_on_ties_and_just_beside_them(fmt):
    p, emin = FLOAT_INFO[fmt]
    grid = np.unique(
        round_generic(
            np.ldexp(
                np.arange(1, 2**p + 1, dtype=np.float64), np.arange(emin - p, emin + 4)[:, None]
            ),
            fmt,
        )
    )
    grid = grid[np.isfinite(grid)]
    mids = (grid[1:] + grid[:-1]) / 2
    xs = np.concatenate(
        [
            mids,
            np.nextafter(mids, np.inf),
            np.nextafter(mids, -np.inf),
            -mids,
            [1 + 2.0**-4 + 2.0**-40, 1e-3, 3e4, 449.0, 1e40],
        ]
    )
    got = round_generic(xs, fmt)
    want = np.array([_exact_round(float(x), fmt) for x in xs])
    assert np.array_equal(got, want), (xs[got != want][:5], got[got != want][:5])
    # held in the format's own dtype without a second rounding
    assert np.array_equal(
        round_into(xs, fmt).astype(np.float64)[np.isfinite(want)], want[np.isfinite(want)]
    )


@pytest.mark.parametrize("fmt", ["f16", "bf16", "f32", "tf32"])
@pytest.mark.parametrize("mode", MODES)
def test_directed_and_away_roundings_are_the_exact_ones(fmt, mode):
    rng = np.random.default_rng(5)
    p, _ = FLOAT_INFO[fmt]
    x = rng.choice([-1, 1], 300) * 2.0 ** rng.uniform(-150, 130, 300)
    ties = round_generic(x[:50], fmt) * (1 + 2.0**-p)  # halfway, or just beside
    xs = np.concatenate([x, ties, -ties, [max_finite(fmt) * (1 + 2.0**-p), 0.0, -0.0]])
    got = round_mode(xs, fmt, mode).astype(np.float64)
    want = np.array([_exact_round(float(v), fmt, mode) for v in xs])
    same = (got == want) & (np.signbit(got) == np.signbit(want))
    assert same.all(), (xs[~same][:4], got[~same][:4], want[~same][:4])


def test_the_residual_breaks_a_tie_its_way():
    tie = 1 + 2.0**-11  # halfway between two tf32 values
    assert round_generic(np.array([tie]), "tf32", np.array([1e-30]))[0] == 1 + 2.0**-10
    assert round_generic(np.array([tie]), "tf32", np.array([-1e-30]))[0] == 1.0
    assert round_generic(np.array([tie]), "tf32")[0] == 1.0  # to even


def test_fp8_overflow_and_infinities_are_left_open():
    x = np.array([448.0, 464.0, 465.0, np.inf, -np.nan, 57344.0, 61440.0])
    assert list(narrow_overflow(x, "f8E4M3FN")) == [False, False, True, True, False, True, True]
    assert list(narrow_overflow(x, "f8E5M2")) == [False, False, False, True, False, False, True]
    assert not narrow_overflow(np.array([1e38]), "tf32").any()


# ----------------------------------------------------------------------------- bounds


def _fold(values, fmt, op, order):
    acc = None
    for k in order:
        v = values[k]
        acc = v if acc is None else float(round_into(np.array([op(acc, v)]), fmt)[0])
    return acc


def _orders(n, rng):
    yield list(range(n))
    yield list(range(n))[::-1]
    yield list(rng.permutation(n))


@pytest.mark.parametrize("fmt", ["f16", "bf16", "f32"])
def test_any_order_sums_and_products_stay_inside_the_bound(fmt):
    rng = np.random.default_rng(7)
    for trial in range(40):
        n = int(rng.integers(1, 24))
        raw = rng.choice([-1, 1], n) * 2.0 ** rng.uniform(-6, 6, n)
        x = round_into(raw, fmt).astype(np.float64)
        sums, sum_err = prefix_sums(x[None], np.zeros((1, n)), fmt)
        prods, prod_err = prefix_products(x[None], np.zeros((1, n)), fmt)
        for m in range(1, n + 1):
            for order in _orders(m, rng):
                s = _fold(x, fmt, lambda a, b: a + b, order)
                assert abs(s - float(sums[0, m - 1])) <= sum_err[0, m - 1], (trial, m)
                pr = _fold(x, fmt, lambda a, b: a * b, order)
                if np.isfinite(prod_err[0, m - 1]):
                    assert abs(pr - float(prods[0, m - 1])) <= prod_err[0, m - 1], (trial, m)


def test_special_sums_and_products_are_pinned_where_every_order_agrees():
    x = np.array([[1.0, np.inf, 2.0, -0.0, np.nan]])
    s, e = prefix_sums(x, np.zeros_like(x), "f32")
    assert s[0, 1] == np.inf and e[0, 1] == 0 and np.isnan(s[0, 4]) and e[0, 4] == 0
    p, e = prefix_products(np.array([[3.0, -0.0, 5.0]]), np.zeros((1, 3)), "f16")
    assert p[0, 2] == 0 and np.signbit(p[0, 2]) and e[0, 2] == 0
    p, e = prefix_products(np.array([[np.inf, 0.0]]), np.zeros((1, 2)), "f32")
    assert np.isnan(p[0, 1]) and e[0, 1] == 0
    big = np.array([[60000.0, 60000.0, -60000.0]])
    _, e = prefix_sums(big, np.zeros_like(big), "f16")
    assert e[0, 0] == 0 and e[0, 1] == 0 and np.isinf(e[0, 2])  # a pair is one rounding
    # sum of -0s stays -0, exactly
    z, e = prefix_sums(np.array([[-0.0, -0.0]]), np.zeros((1, 2)), "f32")
    assert np.signbit(z[0, 1]) and e[0, 1] == 0


# ----------------------------------------------------------------------------- scans, mma


def test_integer_and_extremum_scans_are_exact():
    x = EV(np.array([[[3, -1, 7, 2], [0, 5, -8, 1]]], dtype=np.int8), None, "i8")
    assert scan("sum", 1, False, x).val.tolist() == [[[3, 2, 9, 11], [0, 5, -3, -2]]]
    assert scan("prod", 1, True, x).val.tolist() == [[[-42, -14, 14, 2], [0, -40, -8, 1]]]
    assert scan("xor", 0, False, x).val.tolist() == [[[3, -1, 7, 2], [3, -6, -1, 3]]]
    wrap = EV(np.array([[100, 100]], dtype=np.int8), None, "i8")
    assert scan("sum", 0, False, wrap).val.tolist() == [[100, -56]]
    f = EV(np.array([[np.nan, -0.0, 0.0, -1.0]], dtype=np.float32), None, "f32")
    out = scan("max", 0, False, f)
    assert np.isnan(out.val[0, 0]) and np.signbit(out.val[0, 1])
    assert not np.signbit(out.val[0, 2]) and out.val[0, 3] == 0 and not out.err.any()


def test_mma_oracle_bounds_an_f32_accumulation_and_reads_i8_signs():
    rng = np.random.default_rng(3)
    a = round_into(rng.uniform(-4, 4, (1, 8, 16)), "f16")
    b = round_into(rng.uniform(-4, 4, (1, 16, 4)), "f16")
    c = round_into(rng.uniform(-4, 4, (1, 8, 4)), "f32")
    got = mma(EV(a, None, "f16"), EV(b, None, "f16"), EV(c, None, "f32"))
    device = np.matmul(a.astype(np.float32), b.astype(np.float32)) + c
    assert np.all(np.abs(device - got.val) <= got.err) and got.err.max() < 1e-4
    half = mma(EV(a, None, "f16"), EV(b, None, "f16"), EV(c.astype(np.float16), None, "f16"))
    assert half.val.dtype == np.float16 and np.all(np.abs(device - half.val) <= half.err)
    ia = np.array([[[-1, 2]]], dtype=np.int8)
    ib = np.array([[[3], [-128]]], dtype=np.int8)
    ic = np.zeros((1, 1, 1), dtype=np.int32)
    signed = mma(EV(ia, None, "i8"), EV(ib, None, "i8"), EV(ic, None, "i32"))
    unsigned = mma(
        EV(ia, None, "i8"), EV(ib, None, "i8"), EV(ic, None, "i32"), signs=(False, False)
    )
    assert signed.val.item() == -3 - 256 and unsigned.val.item() == 255 * 3 + 2 * 128


def test_mma_pairs_are_the_dialects():
    from tileir.shape_rules import MMA_PAIRS as DIALECT

    for acc, factors in MMA_PAIRS.items():
        for f in factors:
            assert acc in DIALECT[f]


# ----------------------------------------------------------------------------- atomics


def test_atomic_folds_match_a_serial_fold_in_any_order():
    rng = np.random.default_rng(11)
    init = rng.integers(-50, 50, 6).astype(np.int32)
    at = rng.integers(0, 6, 40)
    vals = rng.integers(-1000, 1000, 40).astype(np.int32)
    for mode, fn in [
        ("add", lambda o, v: o + v),
        ("xor", lambda o, v: o ^ v),
        ("max", max),
        ("umin", lambda o, v: o if (o & 0xFFFFFFFF) <= (v & 0xFFFFFFFF) else v),
    ]:
        want = [int(v) for v in init]
        for k in rng.permutation(40):
            want[at[k]] = fn(want[at[k]], int(vals[k]))
        got = _int_fold(init, at, vals, mode, "i32")
        assert got.tolist() == want, mode
    finit = round_into(rng.uniform(-2, 2, 6), "f16")
    fvals = round_into(rng.uniform(-2, 2, 40), "f16")
    final, err = _float_fold(finit, at, fvals, np.zeros(40), "f16")
    for _ in range(3):
        acc = finit.astype(np.float64).copy()
        for k in rng.permutation(40):
            acc[at[k]] = float(round_into(np.array([acc[at[k]] + fvals[k]]), "f16")[0])
        assert np.all(np.abs(acc - final.astype(np.float64)) <= err)


# ----------------------------------------------------------------------------- drawing


@_FAST
@given(st.data())
def test_drawn_lanes_stay_in_the_window_and_stores_touch_each_element_once(data):
    params = [
        {"role": "In", "format": "f32", "extent": [8], "tile": [8], "along": [0], "pad": "zero"},
        {"role": "Out", "format": "f32", "extent": [8], "tile": [8], "along": [0]},
    ]
    gen = TreeGen(data.draw, params)
    window = data.draw(st.sampled_from([4, 8, 16, 32, 64]))
    shape = data.draw(st.sampled_from([(1,), (4,), (2, 2), (window,), (2, window // 2)]))
    distinct = data.draw(st.booleans())
    spec = gen.lanes(shape, window, "f32", distinct=distinct, load=True)
    elems, mask = lane_elements(spec, window, np.array([0, 1, 2]))
    active = np.broadcast_to(True if mask is None else mask, elems.shape)
    for block in range(3):
        e = elems[block][active[block]]
        assert e.size == 0 or (e.min() >= block * window and e.max() < (block + 1) * window)
        if distinct:
            assert len(set(e.tolist())) == e.size, spec
    # compared as text: a NaN pad survives the round trip, but nan != nan as a value
    assert json.dumps(json.loads(json.dumps(spec))) == json.dumps(spec)


@pytest.mark.parametrize("focus", FOCUSES)
def test_a_focused_draw_has_its_kind_and_round_trips_through_json(focus):
    @_FAST
    @given(kernel_descriptions(focus=focus))
    def check(desc):
        assert focus in kinds_of(desc)
        text = json.dumps(desc)
        assert json.dumps(json.loads(text)) == text  # NaN constants too
        assert desc["params"][-1]["role"] == "Out"

    check()


def test_a_known_bug_keeps_its_space_out_only_while_its_case_fails(monkeypatch):
    import fuzz_checks
    import fuzz_known

    bug = {
        "case": "f8E5M2-buffer-views.json",
        "what": "a test entry",
        "formats": ("f8E5M2",),
        "roundings": (("f32", "f16", "zero"),),
    }
    monkeypatch.setattr(fuzz_known, "KNOWN_BUGS", {"test bug": bug})
    for fails in (True, False):

        def check(desc, args, tools=False, fails=fails):
            if fails:
                raise fuzz_checks.FuzzFailure("the saved case still fails")

        monkeypatch.setattr(fuzz_checks, "check_description", check)
        still_failing.cache_clear()
        assert still_failing("test bug") is fails
        assert ("f8E5M2" in buffer_formats(NARROW)) is not fails
        assert (
            "zero" in fuzz_known.ftof_modes_allowed("f32", "f16", ("nearest_even", "zero"))
        ) is not fails
    still_failing.cache_clear()
