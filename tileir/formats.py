"""Host (numpy) representations of the dialect's element formats.

Narrow floats use ``ml_dtypes`` (as JAX does), so a host buffer holds exactly
the values the device format can hold.  ``fnv8E5M3FNU`` has no numpy type
anywhere; its host buffers hold the raw bits as ``uint8``.

>>> from tileir.types import BF16, I1
>>> numpy_dtype(BF16).name
'bfloat16'
>>> numpy_dtype(I1)
dtype('bool')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import ml_dtypes
import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from tileir.types import Format

__all__ = ["numpy_dtype", "format_name_of_dtype", "HOST_DTYPES"]

#: format name -> numpy dtype of a host buffer in that format.
HOST_DTYPES: dict[str, np.dtype] = {
    "i1": np.dtype(np.bool_),
    "i4": np.dtype(ml_dtypes.int4),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32),
    # tf32 lives in 32-bit memory; its arithmetic rounds to 10 mantissa bits.
    "tf32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn),
    "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "f8E8M0FNU": np.dtype(ml_dtypes.float8_e8m0fnu),
    "f4E2M1FN": np.dtype(ml_dtypes.float4_e2m1fn),
    "fnv8E5M3FNU": np.dtype(np.uint8),
}


def numpy_dtype(fmt: Format) -> np.dtype:
    """The dtype of a host buffer in ``fmt`` (a :class:`tileir.types.Format`; this module
    sits below tileir.types, so it reads only the format's ``name``)."""
    return HOST_DTYPES[fmt.name]


_BY_DTYPE: dict[np.dtype, str] = {}
for _name, _dt in HOST_DTYPES.items():
    _BY_DTYPE.setdefault(_dt, _name)  # f32 wins over tf32, i8 over nothing else


def format_name_of_dtype(dtype: npt.DTypeLike) -> str:
    """The name of the format a numpy array of ``dtype`` is taken to hold (float32 -> f32)."""
    dt = np.dtype(dtype)
    if dt not in _BY_DTYPE:
        raise ValueError(f"no Tile IR element format holds numpy dtype {dt}")
    return _BY_DTYPE[dt]
