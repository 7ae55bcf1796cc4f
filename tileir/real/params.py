"""Packing a kernel's arguments the way a tileiras cubin expects them.

The entry's parameters are those of the calling convention
(:mod:`tileir.record.convention`, docs/launch.md).  In the cubin each
parameter sits in the parameter constant bank at its natural size and
alignment ([EXP], EIATTR_KPARAM_INFO of tileiras 13.4.92 cubins):

* ``tile<ptr<T>>`` (a device address), ``tile<i64>``, ``tile<f64>``: 8 bytes;
* ``tile<i32>``, ``tile<f32>``, ``tile<tf32>``: 4 bytes;
* ``tile<f16>``, ``tile<bf16>``, ``tile<i16>``: 2 bytes;
* ``tile<i8>``, ``tile<i1>``, the 8-bit floats, ``tile<i4>`` (low nibble of a byte): 1 byte;

each aligned to its size.  The block's size is the end of the last parameter,
not rounded up ([EXP]: ``(ptr, i8)`` -> 9 bytes = EIATTR_CBANK_PARAM_SIZE).
``f4E2M1FN`` cannot be a parameter: tileiras refuses a rank-0 f4 tile ("must
have an even number of elements").  How a kernel reads an ``i4`` parameter's
byte (sign extension of the nibble) is unverified without a GPU.

The driver takes the arguments as ``kernelParams``: an array of N pointers,
pointer i addressing argument i's bytes (it reads sizes from the cubin).
:class:`KernelArgs` owns one buffer laid out exactly like the constant bank and
that pointer array; cuda-python's ``cuLaunchKernel`` accepts the array's
address as a plain int.

>>> from tileir.types import I32, F64, PointerType, TileType
>>> lay = layout((TileType((), PointerType(F64)), TileType((), I32), TileType((), F64)))
>>> [(s.offset, s.size) for s in lay.slots], lay.size
([(0, 8), (8, 4), (16, 8)], 24)
>>> pack(lay, (0x7000, -1, 1.5)).hex(" ", 8)
'0070000000000000 ffffffff00000000 000000000000f83f'
"""

from __future__ import annotations

import ctypes
import numbers
from typing import Any, Optional, Sequence

import attrs
import numpy as np

from tileir.errors import LaunchError
from tileir.host.widths import scalar_value
from tileir.real.cubin import EIATTR, KernelInfo
from tileir.types import Format, PointerType, TileType

__all__ = [
    "ParamSlot",
    "ParamLayout",
    "KernelArgs",
    "param_size",
    "layout",
    "pack",
    "kernel_args",
    "check_against_cubin",
]

_POINTER_BYTES = 8


@attrs.frozen
class ParamSlot:
    """Where entry parameter ``index`` of type ``type`` lives in the parameter block."""

    index: int
    type: TileType
    offset: int
    size: int


@attrs.frozen
class ParamLayout:
    """The parameter block of one entry: its slots in order and its total size in bytes."""

    slots: tuple[ParamSlot, ...]
    size: int


def _refuse(message: str, kernel: Optional[str], kind: str = "launch.param") -> LaunchError:
    return LaunchError(message, kernel=kernel, kind=kind)


def param_size(t: TileType, *, kernel: Optional[str] = None, index: int = 0) -> int:
    """Bytes (= alignment) of one entry parameter of type ``t`` in the parameter block."""
    if not isinstance(t, TileType) or t.rank != 0:
        raise _refuse(
            f"parameter {index} has type {t}; an entry parameter is a rank-0 tile "
            f"(tile<ptr<T>> or tile<T>)",
            kernel,
        )
    if isinstance(t.element, PointerType):
        return _POINTER_BYTES
    if t.element.name == "f4E2M1FN":
        raise _refuse(
            f"parameter {index} has type {t}: tileiras refuses rank-0 f4E2M1FN tiles "
            f"(they must have an even number of elements)",
            kernel,
        )
    return t.element.itemsize


def layout(param_types: Sequence[TileType], *, kernel: Optional[str] = None) -> ParamLayout:
    """Offsets and sizes of ``param_types`` in the parameter block (natural alignment)."""
    slots = []
    end = 0
    for i, t in enumerate(param_types):
        size = param_size(t, kernel=kernel, index=i)
        offset = -(-end // size) * size
        slots.append(ParamSlot(i, t, offset, size))
        end = offset + size
    return ParamLayout(tuple(slots), end)


def check_against_cubin(lay: ParamLayout, info: KernelInfo) -> None:
    """Refuse to launch when our layout differs from the cubin's EIATTR_KPARAM_INFO table.

    A cubin that lists its parameters as EIATTR_KPARAM_INFO_V2 declares a parameter
    block longer than its parameters (the driver's Tile IR hooks fill the rest at
    launch), so only there may the total exceed ours.
    """
    ours = [(s.index, s.offset, s.size) for s in lay.slots]
    theirs = [(p.ordinal, p.offset, p.size) for p in info.params]
    total = info.param_size or 0
    v2 = EIATTR["EIATTR_KPARAM_INFO_V2"]
    extended = any(r.id == v2 for r in info.records)
    if ours != theirs or (lay.size > total if extended else lay.size != total):
        raise _refuse(
            f"the parameter block tileir packs (ordinal, offset, size) {ours}, {lay.size} bytes, "
            f"differs from the one the {info.arch} cubin declares {theirs}, {total} bytes",
            info.name,
            kind="launch.abi",
        )


def _as_int(value: Any) -> Optional[int]:
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    return None


def _pointer_bytes(value: Any, where: str, kernel: Optional[str]) -> bytes:
    address = _as_int(getattr(value, "device_pointer", value))
    if address is None:
        raise _refuse(
            f"{where} needs a device address (an int, or a buffer with "
            f"`device_pointer`), got {type(value).__name__} {value!r}",
            kernel,
        )
    if not 0 <= address < 1 << 64:
        raise _refuse(f"{where}: device address {address:#x} does not fit 64 bits", kernel)
    return address.to_bytes(8, "little")


def _int_bytes(fmt: Format, value: Any, where: str, kernel: Optional[str]) -> bytes:
    # the shared rule (tileir.host.widths): the fake device refuses the same values
    number = int(scalar_value(fmt, value, where=where, kernel=kernel))
    bits = fmt.bits
    return (number & ((1 << bits) - 1)).to_bytes(fmt.itemsize, "little")


def _float_bytes(fmt: Format, value: Any, where: str, kernel: Optional[str]) -> bytes:
    if fmt.name == "fnv8E5M3FNU":
        # No host type exists for it anywhere: the argument is its raw 8 bits.
        return _int_bytes(Format("i8"), value, where + " (raw fnv8E5M3FNU bits)", kernel)
    number = scalar_value(fmt, value, where=where, kernel=kernel)
    return np.asarray(number, dtype=np.float64).astype(fmt.numpy_dtype).tobytes()


def _value_bytes(slot: ParamSlot, value: Any, kernel: Optional[str]) -> bytes:
    where = f"argument {slot.index} of type {slot.type}"
    element = slot.type.element
    if isinstance(element, PointerType):
        return _pointer_bytes(value, where, kernel)
    if element.is_int:
        return _int_bytes(element, value, where, kernel)
    return _float_bytes(element, value, where, kernel)


def pack(lay: ParamLayout, values: Sequence[Any], *, kernel: Optional[str] = None) -> bytes:
    """The parameter block for ``values``: each value's bytes at its slot's offset, zero padding."""
    if len(values) != len(lay.slots):
        raise _refuse(
            f"the entry takes {len(lay.slots)} arguments "
            f"({', '.join(str(s.type) for s in lay.slots) or 'none'}), "
            f"got {len(values)}",
            kernel,
            kind="launch.arity",
        )
    block = bytearray(lay.size)
    for slot, value in zip(lay.slots, values, strict=True):
        data = _value_bytes(slot, value, kernel)
        assert len(data) == slot.size, (slot, data)
        block[slot.offset : slot.offset + slot.size] = data
    return bytes(block)


class KernelArgs:
    """A packed parameter block plus the ``void*[N]`` array ``cuLaunchKernel`` takes.

    The object owns both pieces of host memory; keep it alive until the launch
    has been issued (the driver copies the arguments at launch time).
    """

    __slots__ = ("_layout", "_block", "_pointers")

    def __init__(self, lay: ParamLayout, block: bytes):
        self._layout = lay
        # At least one byte so a parameterless kernel still has an address to hold.
        size = max(1, len(block))
        self._block = (ctypes.c_char * size).from_buffer_copy(block.ljust(size, b"\0"))
        base = ctypes.addressof(self._block)
        self._pointers = (ctypes.c_void_p * max(1, len(lay.slots)))(
            *[base + s.offset for s in lay.slots]
        )

    @property
    def layout(self) -> ParamLayout:
        return self._layout

    @property
    def block(self) -> bytes:
        """The parameter block's bytes (as the constant bank will hold them)."""
        return self._block.raw[: self._layout.size]

    @property
    def pointers(self) -> tuple[int, ...]:
        """The host address of each argument (entries of the kernelParams array)."""
        # (ctypes reads a NULL pointer as None; every entry here is an argument's address)
        return tuple(int(p or 0) for p in self._pointers[: len(self._layout.slots)])

    @property
    def address(self) -> int:
        """The ``kernelParams`` argument: address of the pointer array, 0 when there are none."""
        return ctypes.addressof(self._pointers) if self._layout.slots else 0

    def __repr__(self) -> str:
        return f"KernelArgs({len(self._layout.slots)} params, {self._layout.size} bytes)"


def kernel_args(
    lay: ParamLayout, values: Sequence[Any], *, kernel: Optional[str] = None
) -> KernelArgs:
    """Pack ``values`` and build the kernelParams array for them."""
    return KernelArgs(lay, pack(lay, values, kernel=kernel))
