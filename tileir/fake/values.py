"""How the fake device holds a tile value: numpy arrays with a leading grid-batch axis.

A value of ``tile<32x64xf32>`` for the ``b`` blocks run together is an array of
shape ``(b, 32, 64)``; a value that is the same for every block (a constant, a
scalar parameter, ``get_num_tile_blocks``) may keep a batch axis of length 1 and
broadcasts against the others.  Element dtypes are the host dtypes of
:mod:`tileir.formats` except:

* ``i4`` is held sign-extended in ``int8`` (host buffers hold ``ml_dtypes.int4``);
* pointers are ``int64`` byte addresses in the fake address space (see ``memory``);
* tokens are a one-element ``uint8`` array (they order nothing at run time:
  execution is sequential in program order, which respects every token chain).

Views (tensor / partition / strided / gather-scatter) are :mod:`tileir.fake.views`
objects with the same ``batch`` / ``take`` protocol as arrays.

A load whose lanes' tiles step evenly along two grid axes (matmul: a block's A tile
follows one grid axis, its B tile the other) gives a :class:`TileGrid`, a zero-copy
window view of the buffer with the lanes as ``(rows, cols)``: ``mmaf`` multiplies it as
it stands, and every other consumer gets the plain array (``frames.Frame.get`` makes
it the first time one asks).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from tileir.fake.rounding import to_format
from tileir.formats import numpy_dtype
from tileir.ir.numerics import scalar_bits, scalar_value
from tileir.types import Format, PointerType

__all__ = [
    "TOKEN_VALUE",
    "value_dtype",
    "to_values",
    "to_host",
    "unsigned",
    "signed",
    "wrap_int",
    "batch_of",
    "take",
    "widen",
    "int_range",
    "from_scalar",
    "TileGrid",
    "plain",
]

#: The run-time value of every token.
TOKEN_VALUE = np.zeros(1, dtype=np.uint8)
TOKEN_VALUE.flags.writeable = False

_UNSIGNED = {1: np.uint8, 4: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def value_dtype(element: Format | PointerType) -> np.dtype:
    """The dtype the interpreter holds elements of ``element`` in."""
    if isinstance(element, PointerType):
        return np.dtype(np.int64)
    if element.name == "i4":
        return np.dtype(np.int8)
    return numpy_dtype(element)


def to_values(host: np.ndarray, fmt: Format) -> np.ndarray:
    """Elements read from a host buffer of ``fmt``, as interpreter values."""
    if fmt.name == "i4":
        return host.astype(np.int8)
    return host


def to_host(values: np.ndarray, fmt: Format) -> np.ndarray:
    """Interpreter values of ``fmt`` as elements of a host buffer of ``fmt``."""
    dt = numpy_dtype(fmt)
    if fmt.name == "i4":
        return wrap_int(values, fmt).astype(dt)
    if values.dtype != dt:
        return values.astype(dt)
    return values


def unsigned(x: np.ndarray, fmt: Format) -> np.ndarray:
    """Integer values reinterpreted as unsigned numbers of their width (numpy unsigned)."""
    if fmt.name == "i1":
        return np.asarray(x).astype(np.uint8)
    if fmt.name == "i4":
        return (np.asarray(x).astype(np.int16) & 15).astype(np.uint8)
    return np.asarray(x).view(_UNSIGNED[fmt.bits])


def signed(x: np.ndarray, fmt: Format) -> np.ndarray:
    """Integer values as signed numbers of their width (``i1`` true is -1)."""
    if fmt.name == "i1":
        return np.where(x, np.int8(-1), np.int8(0))
    return np.asarray(x)


def wrap_int(x: np.ndarray, fmt: Format) -> np.ndarray:
    """Integers (any numpy int dtype, any size) wrapped two's-complement into ``fmt``."""
    x = np.asarray(x)
    if fmt.name == "i1":
        return (x & 1).astype(bool)
    if fmt.name == "i4":
        return (((x.astype(np.int64) & 15) ^ 8) - 8).astype(np.int8)
    return x.astype(value_dtype(fmt))


def int_range(fmt: Format, is_signed: bool) -> tuple[int, int]:
    """Smallest and largest value of ``fmt`` read as signed or unsigned."""
    bits = fmt.bits
    if is_signed:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def from_scalar(value: Any, element: Format | PointerType) -> np.ndarray:
    """A host scalar as a batch-1 rank-0 value of ``element`` (ints wrap to the width)."""
    if isinstance(element, PointerType):
        return np.array([int(value)], dtype=np.int64)
    if element.is_int:
        return wrap_int(
            np.array([scalar_value(element, scalar_bits(element, int(value)))], dtype=np.int64),
            element,
        )
    arr = np.array([value], dtype=np.float64)
    return to_format(arr, element)


#: A value the interpreter holds: a batch array, a :class:`TileGrid`, or a view object of
#: :mod:`tileir.fake.views` (each has a batch length, and takes a subset of its lanes).
FakeValue = Any


def batch_of(v: FakeValue) -> int:
    """The batch length of a value (1 when it is the same for every block)."""
    if isinstance(v, np.ndarray):
        return v.shape[0]
    return v.batch


def take(v: FakeValue, lanes: np.ndarray | None) -> FakeValue:
    """The value for a subset of the lanes (``lanes`` indexes the batch axis)."""
    if lanes is None:
        return v
    if isinstance(v, np.ndarray):
        if v.shape[0] == 1:
            return v
        return v[lanes]
    return v.take(lanes)


def widen(v: np.ndarray, b: int) -> np.ndarray:
    """``v`` with a batch axis of exactly ``b`` (a batch-1 value broadcasts, read-only)."""
    if v.shape[0] == b:
        return v
    return np.broadcast_to(v, (b,) + v.shape[1:])


class TileGrid:
    """The tiles of ``rows * cols`` lanes (row-major) as a ``(rows, cols, *tile)`` view,
    often with a stride-0 axis (tiles repeated along one grid axis): the batch of tiles
    without copying them.  :meth:`array` is the plain ``(b, *tile)`` value.

    ``base``, when given, is a fresh array the lanes' tiles cover exactly, each element
    once, in the layout of a buffer they are meant for (``mmaf``'s result over a grid of
    A rows and B columns: the matrix C, ``rules.products``): a store that puts every tile
    where the base has it takes the base as the buffer instead of copying the tiles."""

    __slots__ = ("view", "base")

    def __init__(self, view: np.ndarray, base: Optional[np.ndarray] = None):
        self.view = view
        self.base = base

    @property
    def batch(self) -> int:
        return self.view.shape[0] * self.view.shape[1]

    @property
    def shape(self) -> tuple:
        return (self.batch,) + self.view.shape[2:]

    @property
    def dtype(self) -> np.dtype:
        return self.view.dtype

    def compact(self) -> np.ndarray:
        """The view with each repeating (stride-0) grid axis cut to length 1: numpy
        broadcasts it back, and work on it is done once per distinct tile."""
        v = self.view
        return v[tuple(slice(0, 1) if v.strides[k] == 0 else slice(None) for k in (0, 1))]

    def array(self) -> np.ndarray:
        return self.view.reshape(self.shape)

    def take(self, lanes: Optional[np.ndarray]) -> np.ndarray:
        return self.array()[lanes]


def plain(v: FakeValue) -> FakeValue:
    """``v`` as a rule that is not :class:`TileGrid`-aware takes it (arrays, views, tokens)."""
    return v.array() if type(v) is TileGrid else v
