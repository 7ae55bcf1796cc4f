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
from tileir.types import Format

__all__ = ["Difference", "first_difference", "default_tolerance"]

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
    got: np.ndarray, expected: np.ndarray, tolerance: Optional[Tolerance]
) -> Optional[Difference]:
    """The first element where ``got`` and ``expected`` differ, or None."""
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
                close = np.abs(g - e) <= tolerance.atol + tolerance.rtol * np.abs(e)
            exact = g == e  # infinities of one sign
            bad = ~(close | exact | both_nan)
    else:
        bad = got != expected
    hits = np.flatnonzero(bad)
    if hits.size == 0:
        return None
    i = int(hits[0])
    return Difference(i, got[i].item(), expected[i].item(), int(hits.size))
