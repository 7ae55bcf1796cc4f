"""How close a device's answer must come to the reference's, for float buffers.

>>> t = Tolerance(rtol=1e-6, atol=1e-9)
>>> str(t)
'rtol=1e-06, atol=1e-09'
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
    """``|a - b| <= atol + rtol * |b|`` element-wise (NaN equals NaN)."""

    rtol: float = 0.0
    atol: float = 0.0

    def __str__(self) -> str:
        return f"rtol={self.rtol:g}, atol={self.atol:g}"


#: What a kernel declares: a Tolerance, None (bit-exact), or PER_FORMAT.
KernelTolerance = Union[Tolerance, None, Literal["per_format"]]
