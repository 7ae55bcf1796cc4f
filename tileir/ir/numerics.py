"""Bit patterns of scalars and dense constants in the dialect's formats.

Constants are stored as bits (a :class:`~tileir.ir.numerics.ScalarAttr`) or as MLIR
dense bytes (a :class:`~tileir.ir.module.Dense`), never as Python floats, so that
``-0.0``, NaN payloads and narrow formats survive every round trip.

>>> from tileir.types import F32, BF16, TileType
>>> hex(scalar_bits(F32, 1.0))
'0x3f800000'
>>> scalar_value(BF16, scalar_bits(BF16, -2.5))
-2.5
>>> d = dense_of(TileType((2,), F32), [1.0, 2.0])
>>> dense_array(d).tolist()
[1.0, 2.0]
"""

from __future__ import annotations

import math
from typing import Callable, Optional, TypeVar, Union

import numpy as np
import numpy.typing as npt
from attrs import frozen

from tileir.formats import numpy_dtype
from tileir.ir.memo import memo_table, remember
from tileir.types import Format, PointerType, TileType

__all__ = [
    "int_value_range",
    "Dense",
    "ScalarAttr",
    "f64_to_f32_odd",
    "scalar_bits",
    "scalar_value",
    "dense_of",
    "dense_array",
    "dense_format",
    "dense_splat_value",
    "element_bytes",
    "tf32_round",
]

#: A Python number (or numpy scalar) a constant is made from.
ScalarLike = Union[int, float, np.number, np.bool_]
#: What :func:`scalar_value` answers: an int for integer formats, else a float.
ScalarValue = Union[int, float]


def int_value_range(fmt: Format) -> tuple[int, int]:
    """The integers a value of integer ``fmt`` may be given as: either reading of its bits
    (i1: 0 or 1).  A constant and a Scalar argument take exactly these.

    >>> from tileir.types import I8, I1
    >>> int_value_range(I8), int_value_range(I1)
    ((-128, 255), (0, 1))
    """
    bits = fmt.bits
    return (0, 1) if bits == 1 else (-(1 << (bits - 1)), (1 << bits) - 1)


@frozen(repr=False)
class Dense:
    """Dense elements of a tile type: raw bytes in MLIR's layout (row-major, little-endian,
    ceil(bits/8) bytes per element, i1 bit-packed unless splat).  One element is a splat."""

    type: TileType
    data: bytes

    def __repr__(self) -> str:
        return f"Dense({self.type}, {self.data.hex()})"


@frozen(repr=False)
class ScalarAttr:
    """A typed scalar attribute (``0.0 : f32``, ``-Infinity : f64``, ``3 : i32``).

    ``bits`` is the value's bit pattern in its format (so ``-0.0`` and ``0.0``
    differ, and every NaN payload is kept): floats compare by their bits.
    """

    format: Format
    bits: int

    def __repr__(self) -> str:
        return f"ScalarAttr({self.format}, {self.bits:#x})"

    @staticmethod
    def of(fmt: Format, value: ScalarLike) -> "ScalarAttr":
        """The scalar of ``value`` in ``fmt`` (a Python number)."""
        return ScalarAttr(fmt, scalar_bits(fmt, value))

    def value(self) -> ScalarValue:
        """The Python number this scalar holds."""
        return scalar_value(self.format, self.bits)


_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def element_bytes(fmt: Format) -> int:
    """Bytes per element in a dense constant (tf32: 3, sub-byte formats: 1)."""
    if fmt.name == "tf32":
        return 3
    n = (fmt.bits + 7) // 8  # (not max(): its argument parsing is C code of its own)
    return n if n > 1 else 1


def tf32_round(x: npt.ArrayLike) -> np.ndarray:
    """Round f32 values to tf32 (10 mantissa bits, nearest-even), kept in float32."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    lsb = (bits >> 13) & 1
    rounded = (bits + 0xFFF + lsb) & ~np.uint64(0x1FFF)
    finite = np.isfinite(np.asarray(x, dtype=np.float32))
    out = np.where(finite, rounded, bits).astype(np.uint32)
    return out.view(np.float32)


def f64_to_f32_odd(x: npt.ArrayLike) -> np.ndarray:
    """float64 -> float32 rounded to odd (truncate, then set the last bit if inexact)."""
    x = np.asarray(x, dtype=np.float64)
    r = x.astype(np.float32)
    back = r.astype(np.float64)
    inexact = (back != x) & np.isfinite(x)
    if not inexact.any():
        return r
    r = r.copy()
    over = inexact & (np.abs(back) > np.abs(x))
    r[over] = np.nextafter(r[over], np.float32(0))
    bits = r.view(np.uint32)
    bits[inexact] |= np.uint32(1)
    return r


def _narrow_float(values: Union[npt.ArrayLike, list[ScalarLike]], fmt: Format) -> np.ndarray:
    """float64 values rounded once, to nearest-even, into ``fmt`` (ml_dtypes would round
    twice from float64: to odd in float32 first keeps the one rounding correct)."""
    x = np.asarray(values, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        if fmt.name in ("f64", "f32", "f16"):
            return x.astype(numpy_dtype(fmt))  # numpy rounds these directly and correctly
        narrow = f64_to_f32_odd(x)
        if fmt.name == "tf32":
            return tf32_round(narrow)
        return narrow.astype(numpy_dtype(fmt))


def _fnv8_value(bits: int) -> float:
    """fnv8E5M3FNU: unsigned, 5 exponent bits (bias 15), 3 mantissa bits; 0xFF is NaN."""
    if bits == 0xFF:
        return math.nan
    exp, man = bits >> 3, bits & 7
    if exp == 0:
        return man / 8 * 2.0**-14
    return (1 + man / 8) * 2.0 ** (exp - 15)


def _number_key(value: object) -> object:
    """A key that tells Python numbers apart exactly (1, 1.0 and True; 0.0 and -0.0), or None
    for anything else (numpy values, NaN, whose payload a float's hex spelling loses)."""
    t = type(value)
    if t is int or t is bool:
        return (t, value)
    if type(value) is float and value == value:
        return (t, value.hex())
    return None


# Memos of the pure functions below, keyed by immutable values (formats, tile types and exact
# number keys), for the constants a recording makes again and again (0, 1, -inf ...);
# bounded, so a long process stays small.
_BITS: dict[tuple[Format, object], int] = memo_table("ir.numerics: scalar bit patterns")
_DENSE: dict[tuple[TileType, object], Dense] = memo_table("ir.numerics: dense splats")
_MAX_MEMO = 4096

_K = TypeVar("_K")
_T = TypeVar("_T")


def _memoized(table: dict[_K, _T], key: _K, make: Callable[[], _T]) -> _T:
    """``table[key]``, made by ``make()`` the first time (the table stays bounded)."""
    found = table.get(key)
    if found is None:
        found = remember(table, key, make(), _MAX_MEMO)
    return found


def scalar_bits(fmt: Format, value: ScalarLike) -> int:
    """The bit pattern of ``value`` in ``fmt`` (ints are masked to the width)."""
    key = _number_key(value)
    if key is None:
        return _scalar_bits(fmt, value)
    return _memoized(_BITS, (fmt, key), lambda: _scalar_bits(fmt, value))


def _scalar_bits(fmt: Format, value: ScalarLike) -> int:
    if fmt.is_int:
        return int(value) & ((1 << fmt.bits) - 1)
    if fmt.name == "fnv8E5M3FNU":
        table = [_fnv8_value(b) for b in range(256)]
        v = float(value)
        if math.isnan(v):
            return 0xFF
        # nearest, ties to the even code (the one whose last mantissa bit is 0)
        return min(range(255), key=lambda b: (abs(table[b] - v), b & 1))
    raw = _narrow_float([value], fmt).tobytes()
    return int.from_bytes(raw, "little")


def scalar_value(fmt: Format, bits: int) -> ScalarValue:
    """The Python number (int or float) whose pattern is ``bits`` in ``fmt``."""
    if fmt.is_int:
        if fmt.name == "i1":
            return bits & 1
        sign = 1 << (fmt.bits - 1)
        bits &= (1 << fmt.bits) - 1
        return bits - (1 << fmt.bits) if bits & sign else bits
    if fmt.name == "fnv8E5M3FNU":
        return _fnv8_value(bits)
    dt = numpy_dtype(fmt)
    raw = int(bits).to_bytes(dt.itemsize, "little")
    return float(np.frombuffer(raw, dtype=dt)[0])


def _host_elements(fmt: Format, values: npt.ArrayLike) -> np.ndarray:
    if fmt.name == "fnv8E5M3FNU":
        flat = np.asarray(values, dtype=np.float64).ravel()
        return np.array([scalar_bits(fmt, v) for v in flat], dtype=np.uint8)
    arr = np.asarray(values)
    if fmt.is_float and arr.dtype != numpy_dtype(fmt):
        return _narrow_float(arr, fmt).ravel()
    return arr.astype(numpy_dtype(fmt)).ravel()


def dense_of(tile_type: TileType, values: npt.ArrayLike) -> Dense:
    """A dense constant of ``tile_type`` from a scalar (a splat) or an array of its shape."""
    key = _number_key(values)
    if key is None or type(tile_type) is not TileType:
        return _dense_of(tile_type, values)
    return _memoized(_DENSE, (tile_type, key), lambda: _dense_of(tile_type, values))


def _dense_of(tile_type: TileType, values: npt.ArrayLike) -> Dense:
    fmt = tile_type.element
    if isinstance(fmt, PointerType):
        raise ValueError("a constant holds numbers, not pointers")
    arr = np.asarray(values)
    if arr.ndim and arr.shape != tuple(tile_type.shape):
        raise ValueError(f"constant of shape {arr.shape} does not fit {tile_type}")
    elems = _host_elements(fmt, arr)
    if elems.size > 1 and np.all(
        elems.view(_UINT[elems.dtype.itemsize]) == elems.view(_UINT[elems.dtype.itemsize])[0]
    ):
        elems = elems[:1]  # every element alike: store the splat, as MLIR does
    return Dense(tile_type, _pack(fmt, elems))


def _pack(fmt: Format, elems: np.ndarray) -> bytes:
    if fmt.name == "i1":
        flags = elems.astype(bool)
        if flags.size == 1:
            return b"\xff" if flags[0] else b"\x00"
        return np.packbits(flags, bitorder="little").tobytes()
    if fmt.name == "tf32":
        words = elems.view(np.uint32)
        return b"".join(int(w >> 13).to_bytes(3, "little") for w in words)
    raw = elems.view(_UINT[elems.dtype.itemsize]).astype(_UINT[element_bytes(fmt)])
    return raw.astype(raw.dtype.newbyteorder("<")).tobytes()


def dense_format(dense: Dense) -> Format:
    """The element format of a dense constant (a constant holds numbers, never pointers)."""
    fmt = dense.type.element
    if not isinstance(fmt, Format):
        raise ValueError(f"a constant holds numbers, not pointers: {dense.type}")
    return fmt


def dense_array(dense: Dense) -> np.ndarray:
    """The constant as a host array of its tile's shape (splats broadcast)."""
    fmt = dense_format(dense)
    shape = tuple(dense.type.shape)
    count = dense.type.size
    dt = numpy_dtype(fmt)
    if fmt.name == "i1":
        # MLIR's i1 splat is the one byte 0x00 or 0xFF; a packed non-splat byte is neither
        if len(dense.data) == 1 and dense.data[0] in (0x00, 0xFF):
            flat = np.full(count, dense.data[0] != 0, dtype=bool)
        else:
            bits = np.unpackbits(np.frombuffer(dense.data, np.uint8), bitorder="little")
            flat = bits[:count].astype(bool)
        return flat.reshape(shape)
    width = element_bytes(fmt)
    n = len(dense.data) // width
    if fmt.name == "tf32":
        words = [int.from_bytes(dense.data[i * 3 : i * 3 + 3], "little") << 13 for i in range(n)]
        flat = np.array(words, dtype=np.uint32).view(np.float32)
    else:
        raw = np.frombuffer(dense.data, dtype=np.dtype(_UINT[width]).newbyteorder("<"))
        flat = raw.astype(_UINT[dt.itemsize]).view(dt)
    if n == 1:
        return np.full(shape, flat[0], dtype=flat.dtype)
    return flat.reshape(shape)


def dense_splat_value(dense: Dense) -> Optional[ScalarValue]:
    """The one value of a splat constant, else ``None``."""
    fmt = dense_format(dense)
    if dense.type.size != 1 and len(dense.data) != element_bytes(fmt):
        return None
    if fmt.name == "i1":
        if len(dense.data) != 1 or dense.data[0] not in (0x00, 0xFF):
            return None
        return int(dense.data[0] != 0)
    return scalar_value(fmt, int.from_bytes(dense.data, "little"))
