"""Exact rounding of float results into the dialect's formats, in every rounding mode.

numpy rounds ``f16`` / ``f32`` / ``f64`` arithmetic to nearest-even exactly, and
``ml_dtypes`` does the same for ``bf16`` arithmetic (both compute in a format of
at least 2p+2 bits, where double rounding of + - * / sqrt is innocuous).  What
they do not give:

* conversions from ``f64`` into ``bf16`` / fp8 / fp4 are double-rounded by
  ``ml_dtypes`` (through ``f32``); :func:`to_format` rounds to ``f32`` with
  round-to-odd first, which makes the second rounding exact;
* the directed modes ``zero`` / ``negative_inf`` / ``positive_inf``, and ``fma``
  (numpy has no fused multiply-add).  :func:`arith` computes each result as an
  exact pair ``hi + lo`` of float64s (error-free transformations: TwoSum and
  Dekker's TwoProduct, or a float64 remainder whose sign is exact), rounds ``hi``
  to nearest and then moves one ulp where the sign of the remaining error says
  the mode wants the other neighbour.  ``f64`` ``fma`` and any float64 element
  outside Dekker's exact range fall back to exact rational arithmetic
  (``fractions.Fraction``) element by element: correct, slow, and rare.

Anything this module cannot round exactly raises ``NotImplementedError`` with the
combination named; the interpreter turns that into an ``InterpretError``.

>>> import numpy as np
>>> from tileir.types import BF16, F32
>>> to_format(np.array([1 + 2**-8 + 2**-30]), BF16).astype(float).tolist()
[1.0078125]
>>> arith("add", [np.float32([1.0]), np.float32([2.0**-30])], F32, "positive_inf").tolist()
[1.0000001192092896]
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from tileir.formats import numpy_dtype
from tileir.ir.numerics import f64_to_f32_odd, scalar_bits, tf32_round
from tileir.types import Format

__all__ = [
    "to_format",
    "round_exact",
    "arith",
    "two_sum",
    "two_prod",
    "to_e8m0",
    "DIRECTED",
    "f64_to_f32_odd",
]

#: Rounding modes that pick a neighbour by direction rather than by distance.
DIRECTED = ("zero", "negative_inf", "positive_inf")

_IEEE = ("f16", "bf16", "f32", "f64")


def two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Knuth's TwoSum: ``s + t == a + b`` exactly, ``s`` the rounded sum (float64)."""
    s = a + b
    bb = s - a
    t = (a - (s - bb)) + (b - bb)
    return s, np.where(np.isfinite(s), t, 0.0)


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = a * 134217729.0  # 2**27 + 1
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Dekker's TwoProduct: ``p + e == a * b``; the third array marks where that is exact.

    Exact unless the operands or the product are near the float64 overflow or
    underflow limits; those elements are flagged ``False`` for an exact fallback.
    """
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    mag = np.abs(p)
    ok = (
        np.isfinite(e)
        & (np.abs(a) < 2.0**995)
        & (np.abs(b) < 2.0**995)
        & ((mag == 0) | (mag > 2.0**-960))
    )
    return p, np.where(ok, e, 0.0), ok | ~np.isfinite(p)


def to_format(x: np.ndarray, fmt: Format) -> np.ndarray:
    """float64 values rounded to nearest-even in ``fmt`` (correctly, for every format)."""
    x = np.asarray(x, dtype=np.float64)
    name = fmt.name
    if name == "f64":
        return x
    with np.errstate(over="ignore", invalid="ignore"):
        return _to_narrow(x, fmt)


def _to_narrow(x: np.ndarray, fmt: Format) -> np.ndarray:
    name = fmt.name
    if name == "f32":
        return x.astype(np.float32)
    if name == "f16":
        return x.astype(np.float16)  # numpy converts double -> half directly, correctly
    if name == "tf32":
        return tf32_round(f64_to_f32_odd(x))
    if name == "f8E8M0FNU":
        return to_e8m0(x, "nearest_even")
    if name == "fnv8E5M3FNU":
        flat = [scalar_bits(fmt, float(v)) for v in x.ravel()]
        return np.array(flat, dtype=np.uint8).reshape(x.shape)
    # bf16, f8E4M3FN, f8E5M2, f4E2M1FN: ml_dtypes rounds float32 correctly
    return f64_to_f32_odd(x).astype(numpy_dtype(fmt))


def to_e8m0(x: np.ndarray, mode: str) -> np.ndarray:
    """float64 values to ``f8E8M0FNU`` (powers of two 2**-127 .. 2**127; NaN otherwise).

    ``zero`` rounds down to the power of two below, ``positive_inf`` up to the one
    above, ``nearest_even`` to the nearer (ties, 1.5 * 2**k, go up: ml_dtypes' choice).
    Zero, negatives and NaN have no encoding and give NaN.
    """
    x = np.asarray(x, dtype=np.float64)
    dt = numpy_dtype(Format("f8E8M0FNU"))
    m, e = np.frexp(np.where(x > 0, x, 1.0))  # x = m * 2**e, m in [0.5, 1)
    down = e - 1
    exact = m == 0.5
    if mode == "zero":
        k = down
    elif mode == "positive_inf":
        k = np.where(exact, down, down + 1)
    elif mode == "nearest_even":
        k = np.where(m >= 0.75, down + 1, down)
    else:
        raise NotImplementedError(f"rounding<{mode}> into f8E8M0FNU")
    k = np.clip(k, -127, 127)
    out = np.ldexp(1.0, k)
    out = np.where((x > 0) & np.isfinite(x), out, np.nan)
    out = np.where(np.isposinf(x), np.nan, out)
    return out.astype(dt)


def _step(r: np.ndarray, toward: float) -> np.ndarray:
    return np.nextafter(r, np.asarray(toward, dtype=r.dtype))


def round_exact(hi: np.ndarray, lo: np.ndarray, fmt: Format, mode: str) -> np.ndarray:
    """The exact value ``hi + lo`` (float64 pair, ``|lo|`` tiny) rounded into ``fmt``.

    ``lo`` may be approximate in magnitude as long as its sign is exact and it is
    far below half an ulp of ``fmt`` (every caller's pair satisfies this).
    """
    if fmt.name not in _IEEE:
        if mode == "nearest_even":
            return to_format(hi + lo, fmt)
        raise NotImplementedError(f"rounding<{mode}> into {fmt}")
    r = to_format(hi, fmt)
    r64 = r.astype(np.float64)
    with np.errstate(invalid="ignore"):
        err = (hi - r64) + lo
    if mode == "nearest_even":
        if fmt.name == "f64":
            return r
        # hi exactly halfway between two neighbours: lo decides which side the value is on
        d = hi - r64
        cand = (d != 0) & np.isfinite(r64) & np.isfinite(hi)
        if not (cand & (lo != 0)).any():
            return r
        nb = _step(r, np.inf)
        nb = np.where(d < 0, _step(r, -np.inf), nb)
        half = np.abs(nb.astype(np.float64) - r64) / 2
        flip = cand & (np.abs(d) == half) & (np.sign(lo) == np.sign(d))
        return np.where(flip, nb, r)
    if mode in DIRECTED:
        return _adjust(r, np.sign(err), mode)
    if mode == "nearest_away":
        d = hi - r64
        nb = np.where(d < 0, _step(r, -np.inf), _step(r, np.inf))
        half = np.abs(nb.astype(np.float64) - r64) / 2
        tie = (d != 0) & np.isfinite(r64) & (np.abs(d) == half) & (lo == 0)
        away = tie & (np.abs(nb.astype(np.float64)) > np.abs(r64))
        return np.where(away, nb, r)
    raise NotImplementedError(f"rounding<{mode}> of {fmt} arithmetic")


# ----------------------------------------------------------------------------- arithmetic


def _adjust(r: np.ndarray, s: np.ndarray, mode: str) -> np.ndarray:
    """Move the nearest result ``r`` one ulp where ``s = sign(exact - r)`` asks ``mode`` to."""
    if mode == "positive_inf":
        return np.where(s > 0, _step(r, np.inf), r)
    if mode == "negative_inf":
        return np.where(s < 0, _step(r, -np.inf), r)
    if mode == "zero":
        return np.where(((s < 0) & (r > 0)) | ((s > 0) & (r < 0)), _step(r, 0.0), r)
    return r


def _fraction_round(exact: Fraction, mode: str) -> float:
    try:
        r = float(exact)  # int / int true division: correctly rounded to nearest-even
    except OverflowError:
        r = math.inf if exact > 0 else -math.inf
    if math.isinf(r):
        return float(_adjust(np.float64(r), np.float64(-np.sign(r)), mode))
    fr = Fraction(r)
    s = 0.0 if fr == exact else (1.0 if exact > fr else -1.0)
    return float(_adjust(np.float64(r), np.float64(s), mode))


def _exact_f64(op: str, args: list[np.ndarray], mode: str) -> np.ndarray:
    """Element-by-element exact rational evaluation of ``op`` on float64 values."""

    def one(*xs):
        xs = [float(v) for v in xs]
        natural = _native(op, [np.float64(v) for v in xs])
        if not all(math.isfinite(v) for v in xs) or (op == "div" and xs[1] == 0):
            return natural
        fs = [Fraction(v) for v in xs]
        if op == "fma":
            exact = fs[0] * fs[1] + fs[2]
        elif op == "add":
            exact = fs[0] + fs[1]
        elif op == "sub":
            exact = fs[0] - fs[1]
        elif op == "mul":
            exact = fs[0] * fs[1]
        elif op == "div":
            exact = fs[0] / fs[1]
        else:
            raise NotImplementedError(op)
        if exact == 0:
            return natural  # the sign of an exact zero is fixed by _zero_sign
        return _fraction_round(exact, mode)

    bshape = np.broadcast_shapes(*(a.shape for a in args))
    flat = [np.broadcast_to(a, bshape).ravel() for a in args]
    out = np.frompyfunc(one, len(args), 1)(*flat)
    return np.asarray(out, dtype=np.float64).reshape(bshape)


def _native(op: str, a: list):
    if op == "add":
        return a[0] + a[1]
    if op == "sub":
        return a[0] - a[1]
    if op == "mul":
        return a[0] * a[1]
    if op == "div":
        return a[0] / a[1]
    if op == "sqrt":
        return np.sqrt(a[0])
    if op == "fma":
        return a[0] * a[1] + a[2]
    raise NotImplementedError(op)


def _pair_small(op: str, x: list[np.ndarray], fmt: Format) -> tuple[np.ndarray, np.ndarray]:
    """Exact (hi, lo) for operands of a format of at most 24 significant bits."""
    if op == "add":
        return two_sum(x[0], x[1])
    if op == "sub":
        return two_sum(x[0], -x[1])
    if op == "mul":
        return x[0] * x[1], np.zeros_like(x[0] * x[1])  # 48 bits: exact in float64
    if op == "fma":
        return two_sum(x[0] * x[1], x[2])
    if op == "div":
        q = x[0] / x[1]  # float64 quotient; its remainder below has an exact sign
        p, e, _ = two_prod(q, x[1])
        rem = (x[0] - p) - e
        ok = np.isfinite(q) & (x[1] != 0)
        lo = np.where(ok, np.sign(rem) * np.sign(x[1]), 0.0)
        return q, lo * 2.0**-1000 * np.abs(np.where(ok, q, 0.0))
    if op == "sqrt":
        q = np.sqrt(x[0])
        p, e, _ = two_prod(q, q)
        lo = np.where(np.isfinite(q) & (q > 0), np.sign((x[0] - p) - e), 0.0)
        return q, lo * 2.0**-1000 * np.where(np.isfinite(q), q, 0.0)
    raise NotImplementedError(op)


def _directed_f64(op: str, x: list[np.ndarray], mode: str) -> np.ndarray:
    finite = np.ones(np.broadcast_shapes(*(a.shape for a in x)), dtype=bool)
    for a in x:
        finite = finite & np.isfinite(a)
    if op == "fma":
        return _exact_f64(op, x, mode)
    if op in ("add", "sub"):
        r, t = two_sum(x[0], x[1] if op == "add" else -x[1])
        s = np.sign(t)
        ok = np.ones_like(finite)
    elif op == "mul":
        r, e, ok = two_prod(x[0], x[1])
        s = np.sign(e)
    elif op == "div":
        r = x[0] / x[1]
        p, e, ok = two_prod(r, x[1])
        rem = (x[0] - p) - e  # x0 - p is exact (Sterbenz): the sign of rem is exact
        s = np.where(np.isfinite(r) & (x[1] != 0), np.sign(rem) * np.sign(x[1]), 0.0)
        ok = ok | (x[1] == 0)
    elif op == "sqrt":
        r = np.sqrt(x[0])
        p, e, ok = two_prod(r, r)
        s = np.where(np.isfinite(r) & (r > 0), np.sign((x[0] - p) - e), 0.0)
        if not (ok | ~finite).all():
            raise NotImplementedError("directed sqrt of f64 near the range limits")
        ok = np.ones_like(finite)
    else:
        raise NotImplementedError(op)
    # a finite exact value beyond the largest float64: nearest gave an infinity
    s = np.where(np.isinf(r) & finite, -np.sign(r), s)
    out = _adjust(r, s, mode)
    if not (ok | ~finite).all():
        out = np.where(ok | ~finite, out, _exact_f64(op, x, mode))
    return out


def arith(op: str, args: list[np.ndarray], fmt: Format, mode: str) -> np.ndarray:
    """``op`` (add, sub, mul, div, sqrt, fma) on values of ``fmt``, rounded with ``mode``.

    Operands are arrays in ``fmt``'s value dtype (they broadcast); the result is
    in the same dtype.  IEEE 754 sign rules for exact zeros hold in every mode.
    """
    if fmt.name not in _IEEE:
        raise NotImplementedError(f"{op} with rounding<{mode}> on {fmt}")
    if mode not in DIRECTED and mode != "nearest_even":
        raise NotImplementedError(f"rounding<{mode}> for {op} on {fmt}")
    x = [np.asarray(a).astype(np.float64) for a in args]
    with np.errstate(all="ignore"):
        if fmt.name == "f64":
            if mode == "nearest_even":
                if op != "fma":
                    return _native(op, x)
                return _exact_f64(op, x, mode)
            out = _directed_f64(op, x, mode)
        else:
            hi, lo = _pair_small(op, x, fmt)
            out = round_exact(hi, lo, fmt, mode)
        out = _zero_sign(op, x, out, mode)
    return np.asarray(out).astype(numpy_dtype(fmt))


def _zero_sign(op: str, x: list[np.ndarray], out: np.ndarray, mode: str) -> np.ndarray:
    """IEEE 754: an exact zero sum of unlike signs is +0, or -0 under negative_inf."""
    if op not in ("add", "sub", "fma"):
        return out
    if op == "fma":
        p, c = x[0] * x[1], x[2]
    else:
        p, c = x[0], (x[1] if op == "add" else -x[1])
    zero_sum = (p + c == 0) & ~((p == 0) & (c == 0) & np.signbit(p) & np.signbit(c))
    neg = mode == "negative_inf"
    zero = np.asarray(-0.0 if neg else 0.0, dtype=out.dtype)
    return np.where(zero_sum & (out == 0), zero, out)
