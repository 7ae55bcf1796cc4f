"""Comparing a device's buffers with a reference's: the first element where they part.

Integers (and i1) compare bit for bit.  Floats compare within a tolerance,
``|a - b| <= atol + rtol * |b|``, with NaN equal to NaN and infinities equal
only to themselves; ``None`` tolerance means bit-exact for floats too.
"""

from __future__ import annotations

from typing import Optional

import attrs
import numpy as np

from tileir.host.tolerance import Tolerance
from tileir.types import Format, format_of_dtype

__all__ = [
    "Difference",
    "first_difference",
    "default_tolerance",
    "check_tolerance",
    "ulp",
    "CHECK_ULPS",
]

_DEFAULT_RTOL = {
    "f64": 1e-12,
    "f32": 1e-5,
    "tf32": 2e-3,
    "f16": 2e-3,
    "bf16": 1.6e-2,
    "f8E4M3FN": 0.125,
    "f8E5M2": 0.25,
    "f8E8M0FNU": 0.5,
    "f4E2M1FN": 0.5,
    "fnv8E5M3FNU": 0.125,
}


#: Fraction bits of each float format (the significand's stored bits): one ulp at 1.0 is
#: ``2 ** -bits`` (IEEE 754 binary64/32/16; bfloat16; TF32 keeps f16's 10; the OCP 8-bit
#: formats E4M3 and E5M2; E8M0 has none; E2M1 one).
_FRACTION_BITS = {
    "f64": 52,
    "f32": 23,
    "tf32": 10,
    "f16": 10,
    "bf16": 7,
    "f8E4M3FN": 3,
    "f8E5M2": 2,
    "f8E8M0FNU": 0,
    "f4E2M1FN": 1,
    "fnv8E5M3FNU": 3,
}

#: check_kernel's default tolerance, in ulps of each format at max(|reference|, 1).  A
#: correct kernel's result differs from a numpy reference's by the roundings of a
#: different order of operations: a few ulps for element-wise work, more for a reduction
#: feeding a normalisation (f32: 64 ulps = 7.6e-6 near one).  Formats narrower than f32
#: are usually computed in f32 and rounded once, so a couple of their ulps suffice.  A bug
#: of one rounding in a narrower format (an f32 value that went through f16 on its way is
#: 8192 f32 ulps off) is far outside every one of them.
CHECK_ULPS = {
    "f64": 64.0,
    "f32": 64.0,
    "tf32": 4.0,
    "f16": 2.0,
    "bf16": 2.0,
    "f8E4M3FN": 1.0,
    "f8E5M2": 1.0,
    "f8E8M0FNU": 1.0,
    "f4E2M1FN": 1.0,
    "fnv8E5M3FNU": 1.0,
}


def ulp(fmt: Format, magnitude: np.ndarray) -> np.ndarray:
    """One unit in the last place of ``fmt`` at ``max(|magnitude|, 1)`` (float64).

    >>> from tileir.types import F32, F16
    >>> float(ulp(F32, np.array(1.0))), float(ulp(F16, np.array(3.0)))
    (1.1920928955078125e-07, 0.001953125)
    """
    m = np.maximum(np.abs(np.asarray(magnitude, dtype=np.float64)), 1.0)
    with np.errstate(invalid="ignore", over="ignore"):
        _, e = np.frexp(np.where(np.isfinite(m), m, 1.0))
    return np.ldexp(1.0, e - 1 - _FRACTION_BITS[fmt.name])


def check_tolerance(fmt: Format) -> Optional[Tolerance]:
    """check_kernel's tolerance for a buffer of ``fmt`` when the test gives none:
    bit-exact for integers, :data:`CHECK_ULPS` ulps for floats.

    >>> from tileir.types import F32, I32
    >>> str(check_tolerance(F32)), check_tolerance(I32)
    ('64 ulps', None)
    """
    if not fmt.is_float:
        return None
    return Tolerance(ulps=CHECK_ULPS[fmt.name])


def default_tolerance(fmt: Format) -> Optional[Tolerance]:
    """The tolerance for a kernel that declares none: bit-exact for integers, a few units in
    the last place of the format for floats."""
    if not fmt.is_float:
        return None
    rtol = _DEFAULT_RTOL[fmt.name]
    return Tolerance(rtol=rtol, atol=rtol * 1e-3)


@attrs.frozen
class Difference:
    """Where two buffers part: the flat element ``index``, both values, and how many differ."""

    index: int
    got: object
    expected: object
    count: int


def _format_of(fmt: Optional[Format], a: np.ndarray) -> Format:
    return fmt if fmt is not None else format_of_dtype(a.dtype)


def _as_float(a: np.ndarray) -> np.ndarray:
    if (
        a.dtype.kind == "f"
        or a.dtype.kind == "V"
        or a.dtype.name
        in ("bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu", "float4_e2m1fn")
    ):
        return a.astype(np.float64)
    return a


def first_difference(
    got: np.ndarray,
    expected: np.ndarray,
    tolerance: Optional[Tolerance],
    fmt: Optional[Format] = None,
) -> Optional[Difference]:
    """The first element where ``got`` and ``expected`` differ, or None.  ``fmt`` is the
    buffers' format, which a tolerance in ulps counts in (default: the one of
    ``expected``'s dtype)."""
    got = np.asarray(got).reshape(-1)
    expected = np.asarray(expected).reshape(-1)
    if got.shape != expected.shape:
        n = min(got.size, expected.size)
        return Difference(n, f"{got.size} elements", f"{expected.size} elements", 1)
    g, e = _as_float(got), _as_float(expected)
    if g.dtype.kind == "f":
        both_nan = np.isnan(g) & np.isnan(e)
        if tolerance is None:
            bad = ~((g == e) & (np.signbit(g) == np.signbit(e)) | both_nan)
        else:
            with np.errstate(invalid="ignore", over="ignore"):
                allowed = tolerance.atol + tolerance.rtol * np.abs(e)
                if tolerance.ulps:
                    allowed = allowed + tolerance.ulps * ulp(_format_of(fmt, expected), e)
                close = np.abs(g - e) <= allowed
            exact = g == e  # infinities of one sign
            bad = ~(close | exact | both_nan)
    else:
        bad = got != expected
    hits = np.flatnonzero(bad)
    if hits.size == 0:
        return None
    i = int(hits[0])
    return Difference(i, got[i].item(), expected[i].item(), int(hits.size))
