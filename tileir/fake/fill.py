"""What the fake device puts in memory whose contents are undefined.

On a GPU, fresh allocations, a block's ``alloca`` scratch, the lanes of a view load
past the tensor's extent when the view names no padding value, and the masked-off
lanes of a pointer load without a ``padding`` operand hold whatever was there: the
program may not rely on them (docs/dialect.md).  The fake device gives them zeros by
default, which hides a kernel that reads them.  A :class:`Fill` makes them signal
instead, as Pallas' interpret mode does: floats hold NaN (where the format has one;
its largest finite value where it has none) and integers a chosen value, so a result
computed from undefined memory shows in the output.

>>> from tileir import F32, I32
>>> SIGNAL.host(F32, 2)
array([nan, nan], dtype=float32)
>>> hex(int(SIGNAL.host(I32, 1)[0]) & 0xFFFFFFFF)
'0xa5a5a5a5'
>>> Fill(integer=-7).host(I32, 1)
array([-7], dtype=int32)
"""

from __future__ import annotations

from typing import Optional, Union

import attrs
import numpy as np

from tileir.errors import UsageError
from tileir.formats import numpy_dtype
from tileir.types import Format

__all__ = ["Fill", "SIGNAL", "fill_of"]

#: the default integer pattern: every byte 0xA5, at any width (wrapped to the element's)
_A5 = 0xA5A5_A5A5_A5A5_A5A5


@attrs.frozen
class Fill:
    """The pattern undefined memory holds: ``floating`` for float formats (NaN by default)
    and ``integer`` for integer formats, wrapped two's-complement to the element's width
    (by default every byte ``0xA5``: ``-91`` as i8, ``0xA5A5A5A5`` as i32)."""

    floating: float = float("nan")
    integer: int = _A5

    def host(self, fmt: Format, count: int) -> np.ndarray:
        """``count`` elements of the pattern as ``fmt``'s host array (``numpy_dtype``)."""
        dt = np.dtype(numpy_dtype(fmt))
        if fmt.is_float:
            one = np.array([self.floating], dtype=np.float64).astype(dt)
            if np.isnan(self.floating) and not np.isnan(one.astype(np.float64)).all():
                # a format without NaN (f4E2M1FN): its largest finite value signals instead
                one = np.array([float(np.finfo(dt).max)]).astype(dt)
            return np.repeat(one, count)
        if fmt.name == "i1":
            return np.full(count, bool(self.integer & 1), dtype=dt)
        bits = fmt.bits
        wrapped = self.integer & ((1 << bits) - 1)
        if wrapped >= 1 << (bits - 1):
            wrapped -= 1 << bits
        return np.full(count, wrapped, dtype=np.int64).astype(dt)


#: NaN for floats, bytes of 0xA5 for integers: ``FakeDevice(fill="signal")``.
SIGNAL = Fill()


def fill_of(fill: Union[None, str, Fill], where: str = "FakeDevice") -> Optional[Fill]:
    """``fill=`` as a caller gives it: ``None`` or ``"zero"`` (zeros, the default),
    ``"signal"`` (:data:`SIGNAL`) or a :class:`Fill`."""
    if fill is None or fill == "zero":
        return None
    if fill == "signal":
        return SIGNAL
    if isinstance(fill, Fill):
        return fill
    raise UsageError(
        f"fill={fill!r}: give None or 'zero' (zeros), 'signal' (NaN / 0xA5 bytes) or a "
        f"tileir.fake.fill.Fill",
        op=where,
    )
