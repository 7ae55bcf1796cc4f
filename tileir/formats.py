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

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from tileir.types import Format

__all__ = ["numpy_dtype", "format_name_of_dtype", "host_dtypes"]


def _host_dtypes() -> dict[str, np.dtype]:
    """Format name -> numpy dtype of a host buffer in that format."""
    # lazy: start-up cost; ml_dtypes takes longer to import than numpy itself (0.6 s on a
    # quiet 2-core machine), and `import tileir`, rendering and encoding never need it
    import ml_dtypes

    return {
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


#: format name -> numpy dtype, and numpy dtype -> format name: filled together on first use
#: (ml_dtypes loads then)
_BY_NAME: dict[str, np.dtype] = {}
_BY_DTYPE: dict[np.dtype, str] = {}


def _load() -> None:
    if not _BY_NAME:
        _BY_NAME.update(_host_dtypes())
        for name, host in _BY_NAME.items():
            _BY_DTYPE.setdefault(host, name)  # f32 wins over tf32


def host_dtypes() -> dict[str, np.dtype]:
    """Format name -> numpy dtype of a host buffer in that format (a copy)."""
    _load()
    return dict(_BY_NAME)


def numpy_dtype(fmt: Format) -> np.dtype:
    """The dtype of a host buffer in ``fmt`` (a :class:`tileir.types.Format`; this module
    sits below tileir.types, so it reads only the format's ``name``)."""
    try:
        return _BY_NAME[fmt.name]
    except KeyError:
        _load()
        return _BY_NAME[fmt.name]


def format_name_of_dtype(dtype: npt.DTypeLike) -> str:
    """The name of the format a numpy array of ``dtype`` is taken to hold (float32 -> f32)."""
    dt = np.dtype(dtype)
    _load()
    if dt not in _BY_DTYPE:
        raise ValueError(f"no Tile IR element format holds numpy dtype {dt}")
    return _BY_DTYPE[dt]
