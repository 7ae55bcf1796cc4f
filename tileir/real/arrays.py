"""Arrays that already live on the GPU, taken without a copy.

Two protocols describe them:

* ``__cuda_array_interface__`` (CuPy, Numba, PyTorch): a dict with ``data``
  (address, read-only flag), ``shape``, ``typestr``, ``strides`` in bytes
  (``None``: C order) and, from version 3, the ``stream`` work on it was queued to.
* DLPack (``__dlpack__`` / ``__dlpack_device__``: PyTorch, CuPy, JAX): a
  PyCapsule holding a ``DLManagedTensor`` (legacy, name ``"dltensor"``) or a
  ``DLManagedTensorVersioned`` (``"dltensor_versioned"``); the structs are read
  with ctypes, laid out as dmlc/dlpack ``include/dlpack/dlpack.h`` (v1.1) has them.

Either way the result is a :class:`DeviceArray`: device address, shape, strides
in elements and the tileir element :class:`~tileir.types.Format`.  Tile IR
integers are signless, so unsigned arrays map to the ``iN`` of their width.
Kernels address memory as C-ordered tensors, so a non-contiguous array is
refused with a message saying how to make it contiguous.

>>> class Fake:
...     __cuda_array_interface__ = {"data": (0x7f0000000000, False), "shape": (4, 8),
...                                 "typestr": "<f4", "strides": None, "version": 3}
>>> a = device_array(Fake())
>>> (hex(a.device_pointer), a.shape, a.strides, str(a.format), a.nbytes)
('0x7f0000000000', (4, 8), (8, 1), 'f32', 128)
"""

from __future__ import annotations

import ctypes
from typing import Any, Optional

import attrs
import numpy as np

from tileir.errors import LaunchError
from tileir.types import Format

__all__ = [
    "DeviceArray",
    "device_array",
    "is_device_array",
    "read_dlpack_capsule",
    "DLPACK_CUDA_DEVICES",
]

_KDL_CPU, _KDL_CUDA, _KDL_CUDA_HOST, _KDL_CUDA_MANAGED = 1, 2, 3, 13
#: DLPack device types whose memory a CUDA kernel can address (kDLCUDA, kDLCUDAManaged).
DLPACK_CUDA_DEVICES = (_KDL_CUDA, _KDL_CUDA_MANAGED)
_DEVICE_NAMES = {
    1: "the CPU",
    3: "pinned host memory (kDLCUDAHost)",
    4: "OpenCL",
    7: "Vulkan",
    8: "Metal",
    10: "ROCm",
    11: "ROCm host memory",
    14: "oneAPI",
}

# DLDataTypeCode, bits -> format name (dlpack.h).  Unsigned maps to signless.
_DLPACK_FORMATS = {
    (0, 8): "i8",
    (0, 16): "i16",
    (0, 32): "i32",
    (0, 64): "i64",
    (1, 8): "i8",
    (1, 16): "i16",
    (1, 32): "i32",
    (1, 64): "i64",
    (2, 16): "f16",
    (2, 32): "f32",
    (2, 64): "f64",
    (4, 16): "bf16",
    (6, 8): "i1",
    (10, 8): "f8E4M3FN",
    (12, 8): "f8E5M2",
    (14, 8): "f8E8M0FNU",
}


@attrs.frozen
class DeviceArray:
    """A C-contiguous array in GPU memory that tileir did not allocate.

    ``owner`` keeps the producer's memory alive (the original object and, for
    DLPack, the capsule); ``device_id`` is ``None`` when the protocol does not
    say (CUDA array interface); ``stream`` is the producer's stream to wait for
    (``None``: nothing to wait for).
    """

    device_pointer: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    format: Format
    readonly: bool = False
    device_id: Optional[int] = None
    stream: Optional[int] = None
    owner: Any = attrs.field(default=None, eq=False, repr=False)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * self.format.itemsize


def _cuda_array_interface(obj: Any) -> tuple[Optional[dict], Optional[Exception]]:
    # hasattr is not enough: PyTorch raises TypeError for dtypes the interface lacks
    # (bf16), and such a tensor may still come through DLPack.
    try:
        return obj.__cuda_array_interface__, None
    except AttributeError:
        return None, None
    except Exception as exc:
        return None, exc


def _has_dlpack(obj: Any) -> bool:
    return hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__")


def is_device_array(obj: Any) -> bool:
    """True when ``obj`` offers the CUDA array interface or DLPack on a CUDA device."""
    if _cuda_array_interface(obj)[0] is not None:
        return True
    if _has_dlpack(obj):
        try:
            return int(obj.__dlpack_device__()[0]) in DLPACK_CUDA_DEVICES
        except Exception:  # a producer that cannot answer is not one we can take
            return False
    return False


def _refuse(message: str, name: str, kernel: Optional[str]) -> LaunchError:
    return LaunchError(f"{name}: {message}", kernel=kernel, kind="launch.array")


def _c_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    out, step = [], 1
    for d in reversed(shape):
        out.append(step)
        step *= d
    return tuple(reversed(out))


def _check_contiguous(shape, strides, name, kernel) -> tuple[int, ...]:
    expected = _c_strides(shape)
    if 0 not in shape and any(n != 1 and s != e for n, s, e in zip(shape, strides, expected)):
        raise _refuse(
            f"the array of shape {shape} has strides {strides} (in elements), not "
            f"the C-contiguous {expected}; pass a contiguous copy "
            f"(`x.contiguous()` in PyTorch, `cupy.ascontiguousarray(x)`)",
            name,
            kernel,
        )
    return expected


def _format_of_numpy(dtype: np.dtype, name: str, kernel: Optional[str]) -> Format:
    kinds = {"i": "i", "u": "i", "f": "f"}
    if dtype.kind == "b":
        return Format("i1")
    if dtype.kind in kinds:
        candidate = f"{kinds[dtype.kind]}{dtype.itemsize * 8}"
        if candidate in ("i8", "i16", "i32", "i64", "f16", "f32", "f64"):
            return Format(candidate)
    raise _refuse(
        f"element type {dtype.str!r} has no Tile IR format here (bf16 and 8-bit "
        f"floats come through DLPack)",
        name,
        kernel,
    )


def _from_cuda_array_interface(obj, iface, name, kernel) -> DeviceArray:
    try:
        address, readonly = iface["data"]
        shape = tuple(int(d) for d in iface["shape"])
        dtype = np.dtype(iface["typestr"])
    except (KeyError, TypeError, ValueError) as exc:
        raise _refuse(f"malformed __cuda_array_interface__ ({exc!r})", name, kernel) from None
    if iface.get("mask") is not None:
        raise _refuse(
            "masked arrays (__cuda_array_interface__ `mask`) are not supported", name, kernel
        )
    fmt = _format_of_numpy(dtype, name, kernel)
    byte_strides = iface.get("strides")
    if byte_strides is None:
        strides = _c_strides(shape)
    else:
        if any(int(s) % dtype.itemsize for s in byte_strides):
            raise _refuse(
                f"byte strides {tuple(byte_strides)} are not whole elements of "
                f"{dtype.itemsize} bytes",
                name,
                kernel,
            )
        strides = tuple(int(s) // dtype.itemsize for s in byte_strides)
    strides = _check_contiguous(shape, strides, name, kernel)
    stream = iface.get("stream")
    return DeviceArray(
        int(address or 0),
        shape,
        strides,
        fmt,
        readonly=bool(readonly),
        stream=None if stream is None else int(stream),
        owner=obj,
    )


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class _DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("major", ctypes.c_uint32),
        ("minor", ctypes.c_uint32),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", ctypes.c_void_p),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", _DLTensor),
    ]


_READ_ONLY_FLAG = 1  # DLPACK_FLAG_BITMASK_READ_ONLY

_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype, _capsule_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def read_dlpack_capsule(
    capsule: Any, *, name: str = "argument", kernel: Optional[str] = None
) -> DeviceArray:
    """Read a DLPack capsule (legacy or versioned) into a DeviceArray, on whatever device.

    The capsule is kept as the owner: while the DeviceArray lives the producer's
    deleter has not run, so the memory stays valid.
    """
    if type(capsule).__name__ != "PyCapsule":
        raise _refuse(
            f"__dlpack__ returned a {type(capsule).__name__}, not a PyCapsule", name, kernel
        )
    tag = _capsule_name(capsule)
    if tag == b"dltensor":
        tensor = _DLTensor.from_address(_capsule_pointer(capsule, tag))
        readonly = False
    elif tag == b"dltensor_versioned":
        managed = _DLManagedTensorVersioned.from_address(_capsule_pointer(capsule, tag))
        if managed.major != 1:
            raise _refuse(
                f"DLPack {managed.major}.{managed.minor} tensors are not understood "
                f"(tileir reads DLPack 1.x)",
                name,
                kernel,
            )
        tensor, readonly = managed.dl_tensor, bool(managed.flags & _READ_ONLY_FLAG)
    else:
        raise _refuse(
            f"the DLPack capsule is named {tag!r}; a fresh one is named "
            f"'dltensor' or 'dltensor_versioned' (was it consumed already?)",
            name,
            kernel,
        )
    code, bits, lanes = tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes
    if lanes != 1 or (code, bits) not in _DLPACK_FORMATS:
        raise _refuse(
            f"DLPack element type (code {code}, {bits} bits, {lanes} lanes) has no "
            f"Tile IR format here",
            name,
            kernel,
        )
    shape = tuple(int(tensor.shape[i]) for i in range(tensor.ndim))
    strides = (
        _c_strides(shape)
        if not tensor.strides
        else tuple(int(tensor.strides[i]) for i in range(tensor.ndim))
    )
    strides = _check_contiguous(shape, strides, name, kernel)
    return DeviceArray(
        (tensor.data or 0) + tensor.byte_offset,
        shape,
        strides,
        Format(_DLPACK_FORMATS[(code, bits)]),
        readonly=readonly,
        device_id=int(tensor.device.device_id),
        owner=capsule,
    )


def _from_dlpack(obj, name, kernel) -> DeviceArray:
    device_type, device_id = (int(v) for v in obj.__dlpack_device__())
    if device_type not in DLPACK_CUDA_DEVICES:
        where = _DEVICE_NAMES.get(device_type, f"DLPack device type {device_type}")
        raise _refuse(
            f"the array lives on {where}, not on a CUDA GPU; pass a numpy array "
            f"to copy it in instead",
            name,
            kernel,
        )
    # stream=None: the producer orders its work before the legacy default stream,
    # the stream tileir launches on.  Ask for a versioned capsule first (array API).
    try:
        capsule = obj.__dlpack__(stream=None, max_version=(1, 0))
    except TypeError:
        capsule = obj.__dlpack__(stream=None)
    array = read_dlpack_capsule(capsule, name=name, kernel=kernel)
    if array.device_id != device_id:
        raise _refuse(
            f"__dlpack_device__ says device {device_id} but the tensor says {array.device_id}",
            name,
            kernel,
        )
    return attrs.evolve(array, owner=(obj, capsule))


def device_array(obj: Any, *, name: str = "argument", kernel: Optional[str] = None) -> DeviceArray:
    """Describe a GPU-resident array without copying it; a LaunchError says why not.

    ``name`` (the parameter) and ``kernel`` go into the error message.
    """
    iface, failure = _cuda_array_interface(obj)
    if iface is not None:
        return _from_cuda_array_interface(obj, iface, name, kernel)
    if _has_dlpack(obj):
        return _from_dlpack(obj, name, kernel)
    if failure is not None:
        raise _refuse(f"its __cuda_array_interface__ failed: {failure}", name, kernel)
    raise _refuse(
        f"a {type(obj).__name__} is not a GPU array (it has neither "
        f"__cuda_array_interface__ nor __dlpack__)",
        name,
        kernel,
    )
