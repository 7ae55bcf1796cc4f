"""The fuzzer oracle's element rules: each op of a drawn expression on :class:`EV` values.

Exact where the dialect is exact: IEEE + - * / sqrt and fmod are computed in float64
and rounded once into the format (float64 carries more than 2p+2 bits for f16, bf16
and f32, so that equals the format's own correctly rounded operation); f64 is native.
Integers are Python ints wrapped to the width.  ``maxf`` / ``minf`` are IEEE
maximumNumber / minimumNumber with +0 > -0.  Comparisons are ordered except
``not_equal`` (unordered, as ``tileir.not_equal`` records it).

Where the dialect leaves results to the implementation the value carries a bound:
math functions (``exp``, ``log``, ``sin`` ... computed in float64 and rounded; the
device may be :data:`K_ULPS` ulps off); a result computed from a value with a
bound gets the bound propagated plus one rounding.  Undefined behaviour (integer
division by zero, ``MIN / -1``, shifts by the width or more, ``abs(MIN)``,
float-to-int conversion of NaN or out of range) and comparisons too close to call
get an infinite bound: those lanes are not compared.
"""

from __future__ import annotations

import numpy as np

from fuzz_numerics import (
    EV,
    FLOAT_INFO,
    INT_BITS,
    is_float,
    max_finite,
    narrow_overflow,
    round_into,
    round_mode,
    ulp,
    wrap_int,
)

__all__ = [
    "K_ULPS",
    "f_binary",
    "i_binary",
    "unary",
    "compare",
    "select",
    "convert",
    "reduce",
    "MATH",
]

#: How many ulps an implementation-defined math function may be off.
K_ULPS = 4

MATH = {
    "exp": np.exp,
    "exp2": np.exp2,
    "log": np.log,
    "log2": np.log2,
    "rsqrt": lambda x: 1.0 / np.sqrt(x),
    "sin": np.sin,
    "cos": np.cos,
    "tanh": np.tanh,
    "sinh": np.sinh,
    "cosh": np.cosh,
}
_MONOTONE = {"exp", "exp2", "log", "log2", "tanh", "sinh", "rsqrt"}
_POSITIVE_DOMAIN = {"log", "log2", "rsqrt"}


def _scaled(x: np.ndarray, e: np.ndarray) -> np.ndarray:
    """``|x| * e`` with ``e == 0`` giving 0 even for infinite ``x``."""
    with np.errstate(all="ignore"):
        return np.where(e == 0, 0.0, np.abs(x) * e)


def _settle(r: np.ndarray, err: np.ndarray) -> np.ndarray:
    """A bound is meaningless on a non-finite result, and NaN bounds are unknowns."""
    rf = r.astype(np.float64)
    err = np.where(np.isnan(err), np.inf, err)
    return np.where(np.isfinite(rf) | (err == 0), err, np.inf)


def _rounded(r: np.ndarray, prop: np.ndarray, fmt: str) -> np.ndarray:
    """The bound after one more rounding: none if the inputs were exact.  A result whose
    bound reaches past the format's largest finite value is unknown: the implementation's
    value may have overflowed to infinity (the product of 64 values each within 64 of 0)."""
    with np.errstate(all="ignore"):
        prop = np.where(np.isnan(prop), np.inf, prop)  # e.g. 0 * an unknown: unknown
        mag = np.abs(r.astype(np.float64))
        err = np.where(prop > 0, prop + ulp(mag + prop, fmt), 0.0)
        err = np.where((err > 0) & (mag + err > max_finite(fmt)), np.inf, err)
        return _settle(r, err)


def _max_number(x: np.ndarray, y: np.ndarray, is_max: bool) -> np.ndarray:
    r = np.fmax(x, y) if is_max else np.fmin(x, y)
    zeros = (x == 0) & (y == 0)
    if is_max:
        z = np.where(np.signbit(x) & np.signbit(y), -0.0, 0.0)
    else:
        z = np.where(np.signbit(x) | np.signbit(y), -0.0, 0.0)
    return np.where(zeros, z, r)


def f_binary(op: str, a: EV, b: EV) -> EV:
    fmt = a.fmt
    x, y, ea, eb = a.f64(), b.f64(), a.err, b.err
    with np.errstate(all="ignore"):
        if op in ("add", "sub"):
            exact, prop = (x + y if op == "add" else x - y), ea + eb
        elif op == "mul":
            exact, prop = x * y, _scaled(x, eb) + _scaled(y, ea) + ea * eb
        elif op == "div":
            exact = x / y
            near = (np.abs(x) * eb + np.abs(y) * ea) / (np.abs(y) * (np.abs(y) - eb))
            prop = np.where(ea + eb == 0, 0.0, np.where(np.abs(y) > eb, near, np.inf))
        elif op == "rem":
            exact, prop = np.fmod(x, y), np.where(ea + eb > 0, np.inf, 0.0)
        elif op in ("max", "min"):
            exact, prop = _max_number(x, y, op == "max"), np.maximum(ea, eb)
        else:
            raise ValueError(f"no float rule for {op}")
    r = round_into(exact, fmt)
    return EV(r, _rounded(r, prop, fmt), fmt)


def _ub(err_a: np.ndarray, err_b: np.ndarray, ub) -> np.ndarray:
    return np.where((err_a > 0) | (err_b > 0) | ub, np.inf, 0.0)


def i_binary(op: str, a: EV, b: EV) -> EV:
    fmt = a.fmt
    if fmt == "i1":
        x, y = a.val.astype(bool), b.val.astype(bool)
        r = {"and": x & y, "or": x | y, "xor": x ^ y}[op]
        return EV(r, _ub(a.err, b.err, False), fmt)
    bits = INT_BITS[fmt]
    lo = -(1 << (bits - 1))
    x, y = a.ints(), b.ints()
    ub = np.zeros(x.shape, dtype=bool)
    if op in ("div", "floordiv", "rem"):
        ub = (y == 0) | ((x == lo) & (y == -1))
        y = np.where(ub, 1, y)
        trunc = (np.abs(x) // np.abs(y)) * np.where((x < 0) != (y < 0), -1, 1)
        r = {"div": trunc, "floordiv": x // y, "rem": x - trunc * y}[op]
    elif op in ("shl", "shr"):
        ub = (y < 0) | (y >= bits)
        s = np.where(ub, 0, y)
        r = x << s if op == "shl" else x >> s
    else:
        r = {
            "add": lambda: x + y,
            "sub": lambda: x - y,
            "mul": lambda: x * y,
            "max": lambda: np.where(x >= y, x, y),
            "min": lambda: np.where(x <= y, x, y),
            "and": lambda: x & y,
            "or": lambda: x | y,
            "xor": lambda: x ^ y,
        }[op]()
    return EV(wrap_int(r, fmt), _ub(a.err, b.err, np.asarray(ub, dtype=bool)), fmt)


def _math(op: str, a: EV) -> EV:
    fmt = a.fmt
    x, ea = a.f64(), a.err
    fn = MATH[op]
    p = FLOAT_INFO[fmt][0]
    with np.errstate(all="ignore"):
        y = fn(x)
        hi, lo = fn(x + ea), fn(x - ea)
        if op in _MONOTONE:
            prop = np.maximum(np.abs(hi - y), np.abs(y - lo))
        elif op == "cosh":
            dip = np.where(np.abs(x) <= ea, y - 1.0, 0.0)
            prop = np.maximum(np.maximum(np.abs(hi - y), np.abs(lo - y)), dip)
        else:  # sin, cos: 1-Lipschitz, never more than 2 apart
            prop = np.minimum(ea, 2.0)
        prop = np.where(ea == 0, 0.0, prop)
        # an open input may be NaN on the device (inf - inf in another order, fmod by a
        # zero): a bounded function of it (sin, tanh) is still open
        prop = np.where(np.isinf(ea), np.inf, prop)
        if op in _POSITIVE_DOMAIN:
            prop = np.where((ea > 0) & (x - ea <= 0), np.inf, prop)
        r = round_into(y, fmt)
        err = prop + K_ULPS * ulp(np.abs(r.astype(np.float64)) + prop, fmt)
        # near the overflow threshold the device may round either way
        band = np.isfinite(y) & (np.abs(y) >= max_finite(fmt) * (1 - K_ULPS * 2.0**-p))
        special = ~np.isfinite(y) | ~np.isfinite(r.astype(np.float64))
        err = np.where(special, np.where(ea == 0, 0.0, np.inf), err)
        err = np.where(band, np.inf, err)
    return EV(r, _settle(r, err), fmt)


def unary(op: str, a: EV) -> EV:
    fmt = a.fmt
    if not is_float(fmt):
        x = a.ints()
        lo = -(1 << (INT_BITS[fmt] - 1))
        ub = (x == lo) if op == "abs" else np.zeros(x.shape, dtype=bool)
        r = -x if op == "neg" else np.abs(x)
        return EV(wrap_int(r, fmt), _ub(a.err, a.err, np.asarray(ub, dtype=bool)), fmt)
    if op in MATH:
        return _math(op, a)
    x, ea = a.f64(), a.err
    with np.errstate(all="ignore"):
        if op == "neg":
            return EV(round_into(-x, fmt), a.err, fmt)
        if op == "abs":
            return EV(round_into(np.abs(x), fmt), a.err, fmt)
        if op == "sqrt":
            y = np.sqrt(x)
            spread = np.maximum(np.sqrt(x + ea) - y, y - np.sqrt(np.maximum(x - ea, 0.0)))
            prop = np.where(ea == 0, 0.0, np.where(x - ea >= 0, spread, np.inf))
            r = round_into(y, fmt)
            return EV(r, _rounded(r, prop, fmt), fmt)
        f = np.floor if op == "floor" else np.ceil
        y = f(x)
        prop = np.where(ea == 0, 0.0, np.maximum(f(x + ea) - y, y - f(x - ea)))
        r = round_into(y, fmt)
        return EV(r, _settle(r, prop), fmt)


_PREDICATES = {
    "equal": np.equal,
    "not_equal": np.not_equal,
    "less_than": np.less,
    "less_than_or_equal": np.less_equal,
    "greater_than": np.greater,
    "greater_than_or_equal": np.greater_equal,
}


def compare(pred: str, a: EV, b: EV) -> EV:
    fn = _PREDICATES[pred]
    if is_float(a.fmt):
        x, y = a.f64(), b.f64()
        with np.errstate(all="ignore"):
            out = fn(x, y)
            nan = np.isnan(x) | np.isnan(y)
            out = (out | nan) if pred == "not_equal" else (out & ~nan)
            slack = a.err + b.err
            known = (slack == 0) | (np.abs(x - y) > slack)
    else:
        out = fn(a.val.astype(np.int64), b.val.astype(np.int64))
        known = (a.err == 0) & (b.err == 0)
    return EV(out, np.where(known, 0.0, np.inf), "i1")


def select(m: EV, a: EV, b: EV) -> EV:
    val = np.where(m.val.astype(bool), a.val, b.val)
    err = np.where(m.val.astype(bool), a.err, b.err)
    if is_float(a.fmt):
        with np.errstate(all="ignore"):
            x, y = a.f64(), b.f64()
            same = (x == y) & (np.signbit(x) == np.signbit(y)) | (np.isnan(x) & np.isnan(y))
            # an unknown mask picks either: the lanes may differ by the gap between the two,
            # and by at least the least bound when they are zeros of opposite signs (else a
            # bound of 0 would demand one sign)
            gap = np.where(same, 0.0, np.maximum(np.abs(x - y), 5e-324))
            either = np.maximum(np.maximum(a.err, b.err), np.where(np.isnan(gap), np.inf, gap))
    else:
        same = a.val == b.val
        either = np.where(same & (a.err == 0) & (b.err == 0), 0.0, np.inf)
    err = np.where(m.err == 0, err, either)
    return EV(val, _settle(val, err) if is_float(a.fmt) else err, a.fmt)


def _fp8_open(x: np.ndarray, err: np.ndarray, dst: str) -> np.ndarray:
    """Lanes whose conversion into fp8 may leave the finite range (see narrow_overflow)."""
    with np.errstate(all="ignore"):
        return narrow_overflow(np.abs(x) + np.where(np.isnan(err), np.inf, err), dst)


def convert(a: EV, dst: str, rounding: str = "nearest_even") -> EV:
    """``a`` in ``dst``; ``rounding`` (float to float) as ``ftof``'s attribute."""
    src = a.fmt
    if is_float(src) and is_float(dst):
        r = round_mode(a.f64(), dst, rounding)
        err = _rounded(r, a.err, dst)
        return EV(r, np.where(_fp8_open(a.f64(), a.err, dst), np.inf, err), dst)
    if not is_float(src) and is_float(dst):
        ints = a.ints().reshape(-1)
        hi = np.array([float(v) for v in ints], dtype=np.float64)
        lo = np.array([float(v - int(h)) for v, h in zip(ints, hi)], dtype=np.float64)
        r = round_into(hi.reshape(a.val.shape), dst, lo.reshape(a.val.shape))
        err = np.where(a.err > 0, np.inf, 0.0)
        return EV(r, np.where(_fp8_open(hi.reshape(a.val.shape), err, dst), np.inf, err), dst)
    if is_float(src):
        bits = INT_BITS[dst]
        lo = -(1 << (bits - 1))
        x, ea = a.f64(), a.err
        with np.errstate(all="ignore"):
            t = np.trunc(x)
            # hi + 1 = 2**(bits-1) is exact in float64 where hi itself may not be (i64)
            ub = np.isnan(t) | (t < lo) | (t >= 2.0 ** (bits - 1))
            ub |= (ea > 0) & (np.trunc(x - ea) != np.trunc(x + ea))
            t = np.where(ub, 0.0, t)
        ints = np.array([int(v) for v in t.reshape(-1)], dtype=object).reshape(t.shape)
        return EV(wrap_int(ints, dst), np.where(ub, np.inf, 0.0), dst)
    return EV(wrap_int(a.ints(), dst), np.where(a.err > 0, np.inf, 0.0), dst)


_COMBINE = {"sum": "add", "prod": "mul", "max": "max", "min": "min"}


def reduce(combiner: str, dim: int, keepdims: bool, a: EV) -> EV:
    """Pairwise, as the fake device documents its order: (0,1), (2,3), ... then the pairs'
    results; tile dimensions are powers of two, so no level is odd."""
    axis = dim + 1
    val, err = np.moveaxis(a.val, axis, -1), np.moveaxis(a.err, axis, -1)
    op = _COMBINE[combiner]
    rule = f_binary if is_float(a.fmt) else i_binary
    while val.shape[-1] > 1:
        acc = EV(val[..., 0::2], err[..., 0::2], a.fmt)
        elem = EV(val[..., 1::2], err[..., 1::2], a.fmt)
        out = rule(op, acc, elem)
        val, err = out.val, out.err
    val, err = val[..., 0], err[..., 0]
    if keepdims:
        val, err = np.expand_dims(val, axis), np.expand_dims(err, axis)
    return EV(val, err, a.fmt)
