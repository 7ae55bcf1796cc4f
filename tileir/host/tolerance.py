"""How close a device's answer must come to the reference's, for float buffers.

>>> t = Tolerance(rtol=1e-6, atol=1e-9)
>>> str(t)
'rtol=1e-06, atol=1e-09'
>>> str(Tolerance(ulps=4))
'4 ulps'
"""

from __future__ import annotations

from typing import Final, Literal, Union

import attrs

__all__ = ["Tolerance", "PER_FORMAT", "KernelTolerance"]

#: a kernel's tolerance when none is given: the fake device's default for each buffer's
#: format (see :func:`tileir.fake.compare.default_tolerance`)
PER_FORMAT: Final = "per_format"


@attrs.frozen
class Tolerance:
    """``|a - b| <= atol + rtol * |b| + ulps * ulp(max(|b|, 1))`` element-wise (NaN equals
    NaN, an infinity only itself).

    ``ulps`` counts units in the last place of the compared buffer's format (f32, f16,
    bf16, tf32, fp8 ...), taken at the reference's magnitude, or at 1.0 where the reference
    is smaller: a normalised result near zero (a layer norm's, a GELU's) carries the
    rounding of the values it was computed from, which are of order one, not its own.
    """

    rtol: float = 0.0
    atol: float = 0.0
    ulps: float = 0.0

    def __str__(self) -> str:
        parts = []
        if self.rtol or self.atol or not self.ulps:
            parts.append(f"rtol={self.rtol:g}, atol={self.atol:g}")
        if self.ulps:
            parts.append(f"{self.ulps:g} ulps")
        return " + ".join(parts)


#: What a kernel declares: a Tolerance, None (bit-exact), or PER_FORMAT.
KernelTolerance = Union[Tolerance, None, Literal["per_format"]]
