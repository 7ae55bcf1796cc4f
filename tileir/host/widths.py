"""The widths of the calling convention, held against the values a launch passes.

Both devices call these (the fake device through the launch checks, the real
device there and again as it packs the parameter block), so a value one device
refuses the other refuses with the same words.

* :func:`scalar_value` -- a Scalar argument against its format: an integer (not a
  bool, not a float, not a string) in the format's range for an integer format,
  read either signed or unsigned (Tile IR integers are signless); a real number
  the format can hold for a float format (a finite value that overflows is
  refused, and so is an infinity for a format without one);
* :func:`check_i32` -- a value the entry takes as ``tile<i32>`` and reads signed (a
  DYN_DIM extent, a stride the kernel computes from extents): in
  ``[0, 2**31 - 1]``, never packed negative.

>>> scalar_value(Format("i32"), 7, where="argument 1 (Scalar)")
7
>>> scalar_value(Format("i32"), True, where="argument 1 (Scalar)")
Traceback (most recent call last):
...
tileir.errors.LaunchError: tileir: `launch`: argument 1 (Scalar) (i32) needs an integer in [-2147483648, 4294967295], got bool True
>>> check_i32(2**31 + 1024, what="argument 0's DYN_DIM extent of dimension 0")
Traceback (most recent call last):
...
tileir.errors.LaunchError: tileir: `launch`: argument 0's DYN_DIM extent of dimension 0 is 2147484672, and the entry takes it as an i32 (at most 2147483647)
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Optional, Union

import numpy as np

from tileir.errors import LaunchError
from tileir.ir.numerics import int_value_range
from tileir.types import Format

__all__ = ["I32_MAX", "scalar_value", "check_i32"]

#: The largest value an entry's ``tile<i32>`` reads as a positive count.
I32_MAX = (1 << 31) - 1


def _refuse(message: str, kernel: Optional[str], kind: str) -> LaunchError:
    return LaunchError(message, kernel=kernel, op="launch", kind=kind)


def _narrow_scalar(value: Any) -> Optional[str]:
    """ "int" or "float" for a scalar of one of ml_dtypes' formats (int4, bfloat16, the fp8
    types): numpy scalars that are not numbers.Integral / numbers.Real, so the fake device's
    own buffers and a user's narrow arrays hand them over as they are."""
    if not isinstance(value, np.generic) or np.dtype(type(value)).kind != "V":
        return None
    name = np.dtype(type(value)).name
    return "int" if name.startswith(("int", "uint")) else "float"


def _as_int(value: Any) -> Optional[int]:
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, numbers.Integral) or _narrow_scalar(value) == "int":
        return int(value)
    return None


def _is_real(value: Any) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return False
    return isinstance(value, numbers.Real) or _narrow_scalar(value) is not None


def scalar_value(
    fmt: Format, value: Any, *, where: str, kernel: Optional[str] = None
) -> Union[int, float]:
    """``value`` as a Scalar of ``fmt`` takes it (an int or a float), or a LaunchError of
    kind ``launch.scalar_value`` naming ``where``, the format and the value."""
    if fmt.name == "fnv8E5M3FNU":
        # No host type exists for it anywhere: the argument is its raw 8 bits.
        return scalar_value(
            Format("i8"), value, where=where + " (raw fnv8E5M3FNU bits)", kernel=kernel
        )
    if fmt.is_int:
        if fmt.name == "i1" and isinstance(value, (bool, np.bool_)):
            return int(value)
        number = _as_int(value)
        low, high = int_value_range(fmt)
        if number is None or not low <= number <= high:
            raise _refuse(
                f"{where} ({fmt}) needs an integer in [{low}, {high}], got "
                f"{type(value).__name__} {value!r}",
                kernel,
                "launch.scalar_value",
            )
        return number
    if not _is_real(value):
        raise _refuse(
            f"{where} ({fmt}) needs a real number, got {type(value).__name__} {value!r}",
            kernel,
            "launch.scalar_value",
        )
    number_f = float(value)
    with np.errstate(over="ignore", invalid="ignore"):
        stored = float(np.asarray(number_f, dtype=np.float64).astype(fmt.numpy_dtype))
    if math.isfinite(number_f) and not math.isfinite(stored):
        raise _refuse(
            f"{where} ({fmt}): {value!r} overflows the format", kernel, "launch.scalar_value"
        )
    if math.isinf(number_f) and not math.isinf(stored):
        raise _refuse(
            f"{where} ({fmt}): {value!r} is not a value of the format (it has no infinity)",
            kernel,
            "launch.scalar_value",
        )
    return number_f


def check_i32(value: int, *, what: str, kernel: Optional[str] = None) -> int:
    """``value`` when an entry's signed ``tile<i32>`` holds it as a count (0 to
    :data:`I32_MAX`), else a LaunchError of kind ``launch.i32`` naming ``what``."""
    if not 0 <= value <= I32_MAX:
        raise _refuse(
            f"{what} is {value}, and the entry takes it as an i32 (at most {I32_MAX})",
            kernel,
            "launch.i32",
        )
    return value
