"""Oracle values of float sums and products whose order the dialect leaves open.

A float ``scan`` (sum or product), an ``mma``'s accumulation and the final contents of
an address that several ``atomic_rmw_tko addf`` hit are combined in an order the
dialect does not fix.  Instead of copying one order (the fake device's), the oracle
answers the exact value rounded once into the format, with the bound every order
obeys (Higham, *Accuracy and Stability of Numerical Algorithms*, 3.1 and 4.2):

* a sum of ``n`` terms, each step rounded with unit roundoff ``u``, is within
  ``gamma(n - 1) * sum(|x_i|)`` of the exact sum (additions that underflow are exact);
* a product of ``n`` factors with no intermediate leaving the normal range is within
  ``gamma(n - 1) * |prod x_i|``; every intermediate of any order is a product of a
  subset of the factors, so the extreme subsets decide whether one may underflow or
  overflow (then the lane is left open).

Non-finite results are pinned down where every order agrees: a NaN term gives NaN,
``+inf`` with ``-inf`` gives NaN, one sign of infinity gives that infinity when no
finite partial result can overflow; a product with a zero factor and no infinity (and
no overflow) is a zero whose sign is the sign product.
"""

from __future__ import annotations

import numpy as np

from fuzz_numerics import FLOAT_INFO, max_finite, round_into, tiny, ulp

__all__ = [
    "gamma",
    "unit_roundoff",
    "sum_from_stats",
    "prefix_sums",
    "prefix_products",
    "sum_terms",
]


def unit_roundoff(fmt: str) -> float:
    """Half the spacing at 1: the relative error of one rounding to nearest."""
    return 2.0 ** -FLOAT_INFO[fmt][0]


def gamma(k, u: float) -> np.ndarray:
    """``k u / (1 - k u)`` (infinite where ``k u >= 1``)."""
    k = np.asarray(k, dtype=np.float64)
    with np.errstate(divide="ignore"):
        return np.where(k * u < 1, k * u / (1 - k * u), np.inf)


def _settled(value: np.ndarray, err: np.ndarray, fmt: str) -> tuple:
    """The value rounded into ``fmt`` and the bound grown by that rounding."""
    r = round_into(value, fmt)
    rf = r.astype(np.float64)
    with np.errstate(all="ignore"):
        err = np.where(err > 0, err + ulp(np.abs(rf) + err, fmt), 0.0)
    return r, err


def sum_from_stats(
    total,
    absolute,
    prop,
    nans,
    pos_inf,
    neg_inf,
    count,
    fmt: str,
    u: float,
    underflow: float = 0.0,
    pair_exact: bool = True,
) -> tuple:
    """``(value in fmt, bound)`` of a sum of ``count`` terms in any order, from the terms'
    statistics: ``total`` (float64 sum of the finite terms), ``absolute`` (sum of their
    magnitudes), ``prop`` (sum of the terms' own bounds), counts of NaN / +inf / -inf
    terms.  ``u`` is the unit roundoff of each step; ``underflow`` an absolute error per
    term for steps that may round below the normal range (products).  ``pair_exact``: the
    terms are the format's own values, so a sum of two is one correctly rounded addition
    (float64 holds 2p + 2 bits of every narrower format: its rounding is innocuous)."""
    total, absolute, prop = (np.asarray(v, dtype=np.float64) for v in (total, absolute, prop))
    count = np.asarray(count, dtype=np.float64)
    with np.errstate(all="ignore"):
        g = gamma(np.maximum(count - 1, 0), u)
        # float64 slop of the reference sum itself, and the order-free bound
        err = g * absolute + (1 + g) * prop + count * 2.0**-52 * absolute + count * underflow
        may_overflow = absolute * (1 + g) + prop >= max_finite(fmt)
        err = np.where(may_overflow, np.inf, err)
        err = np.where(prop > 0, err, np.where(count <= (2 if pair_exact else 1), 0.0, err))
        value = total
        inf_val = np.where(pos_inf > 0, np.inf, -np.inf)
        has_inf = (pos_inf > 0) | (neg_inf > 0)
        value = np.where(has_inf, inf_val, value)
        value = np.where((pos_inf > 0) & (neg_inf > 0), np.nan, value)
        value = np.where(nans > 0, np.nan, value)
        special = has_inf | (nans > 0)
        # an infinity is pinned unless a finite part may overflow the other way
        err = np.where(special, np.where((nans > 0) | ~may_overflow, 0.0, np.inf), err)
        err = np.where(special & (prop > 0), np.inf, err)
    r, err = _settled(value, err, fmt)
    return r, err


def _stats(x: np.ndarray, e: np.ndarray, axis_cum: bool) -> tuple:
    fin = np.isfinite(x)
    xf = np.where(fin, x, 0.0)
    parts = (
        xf,
        np.abs(xf),
        np.where(np.isnan(e), np.inf, e),
        np.isnan(x),
        x == np.inf,
        x == -np.inf,
        np.ones_like(x),
    )
    with np.errstate(all="ignore"):  # magnitudes may sum past float64's range: inf says so
        if axis_cum:
            return tuple(np.cumsum(p.astype(np.float64), axis=-1) for p in parts)
        return tuple(np.sum(p.astype(np.float64), axis=-1) for p in parts)


def sum_terms(
    x: np.ndarray,
    e: np.ndarray,
    fmt: str,
    u: float,
    underflow: float = 0.0,
    pair_exact: bool = False,
) -> tuple:
    """The any-order sum of the terms along the last axis: ``(value in fmt, bound)``."""
    return sum_from_stats(
        *_stats(np.asarray(x, np.float64), np.asarray(e, np.float64), False),
        fmt,
        u,
        underflow,
        pair_exact,
    )


def prefix_sums(x: np.ndarray, e: np.ndarray, fmt: str) -> tuple:
    """Inclusive prefix sums along the last axis, each in any order, rounded in ``fmt``."""
    x = np.asarray(x, np.float64)
    total, absolute, prop, nans, pinf, ninf, count = _stats(x, np.asarray(e, np.float64), True)
    # the sum of zeros keeps -0 only when every term is -0; cumsum agrees, keep its sign
    return sum_from_stats(total, absolute, prop, nans, pinf, ninf, count, fmt, unit_roundoff(fmt))


def prefix_products(x: np.ndarray, e: np.ndarray, fmt: str) -> tuple:
    """Inclusive prefix products along the last axis, each in any order, in ``fmt``."""
    x = np.asarray(x, np.float64)
    e = np.where(np.isnan(np.asarray(e, np.float64)), np.inf, np.asarray(e, np.float64))
    p, emin = FLOAT_INFO[fmt]
    u = unit_roundoff(fmt)
    with np.errstate(all="ignore"):
        mag = np.abs(x)
        nonzero = (mag > 0) & np.isfinite(mag)
        logs = np.where(nonzero, np.log2(np.where(nonzero, mag, 1.0)), 0.0)
        up = np.cumsum(np.maximum(logs, 0.0), axis=-1)  # the largest subset product
        down = np.cumsum(np.minimum(logs, 0.0), axis=-1)  # the smallest nonzero one
        count = np.cumsum(np.ones_like(x), axis=-1)
        zeros = np.cumsum(mag == 0, axis=-1)
        infs = np.cumsum(np.isinf(x), axis=-1)
        nans = np.cumsum(np.isnan(x), axis=-1)
        neg = np.cumsum(np.signbit(x), axis=-1) % 2 == 1
        value = np.cumprod(x, axis=-1)  # float64: exact enough where the format's is finite
        exact_mag = np.cumprod(mag, axis=-1)
        # the inputs' own bounds: prod(|x| + e) - prod(|x|)
        prop = np.cumprod(mag + e, axis=-1) - exact_mag
        prop = np.where(np.cumsum(e > 0, axis=-1) > 0, prop, 0.0)
        no_overflow = up < np.log2(max_finite(fmt)) - 1
        no_underflow = down > emin + 1
        no_zeroing = down > np.log2(tiny(fmt)) + 1
        g = gamma(count - 1, u)
        err = g * exact_mag + prop + count * 2.0**-52 * exact_mag
        err = np.where(no_overflow & no_underflow, err, np.inf)
        err = np.where(count <= 1, np.where(prop > 0, prop, 0.0), err)
        sign = np.where(neg, -1.0, 1.0)
        has_zero, has_inf = zeros > 0, infs > 0
        value = np.where(has_zero & ~has_inf, sign * 0.0, value)
        err = np.where(has_zero & ~has_inf, np.where(no_overflow & (prop == 0), 0.0, np.inf), err)
        value = np.where(has_inf & ~has_zero, sign * np.inf, value)
        err = np.where(has_inf & ~has_zero, np.where(no_zeroing & (prop == 0), 0.0, np.inf), err)
        value = np.where(has_inf & has_zero, np.nan, value)
        err = np.where(has_inf & has_zero, np.where(prop == 0, 0.0, np.inf), err)
        value = np.where(nans > 0, np.nan, value)
        err = np.where(nans > 0, np.where(prop == 0, 0.0, np.inf), err)
        finite_lane = np.isfinite(value)
        err = np.where(finite_lane & ~np.isfinite(np.abs(value) + err), np.inf, err)
    return _settled(value, err, fmt)
