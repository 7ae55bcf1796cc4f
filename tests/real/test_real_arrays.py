"""tileir.real.arrays with fake GPU arrays exposing the CUDA array interface and DLPack.

The DLPack fakes build real ``DLManagedTensor`` structs with ctypes and wrap
them in PyCapsules, as a CUDA producer (PyTorch, CuPy) does; numpy's own
DLPack export checks the reader against a real producer (on the CPU).
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from tileir.errors import LaunchError
from tileir.real.arrays import (
    _DLManagedTensorVersioned,
    _DLTensor,
    device_array,
    is_device_array,
    read_dlpack_capsule,
)
from tileir.types import Format

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
# PyCapsule keeps the name pointer, so the names must outlive every capsule.
_LEGACY = ctypes.create_string_buffer(b"dltensor")
_VERSIONED = ctypes.create_string_buffer(b"dltensor_versioned")


class _LegacyManaged(ctypes.Structure):
    _fields_ = [
        ("dl_tensor", _DLTensor),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", ctypes.c_void_p),
    ]


class FakeCudaTensor:
    """A DLPack producer on a CUDA device (type 2) with a made-up device address."""

    def __init__(
        self,
        shape,
        *,
        code=2,
        bits=32,
        strides=None,
        address=0x7F00_0000_0000,
        device=(2, 0),
        versioned=False,
        byte_offset=0,
        flags=0,
        lanes=1,
    ):
        self.device = device
        self.versioned = versioned
        self._shape = (ctypes.c_int64 * max(1, len(shape)))(*shape)
        self._strides = None if strides is None else (ctypes.c_int64 * len(strides))(*strides)
        tensor = _DLTensor(
            address,
            (device[0], device[1]),
            len(shape),
            (code, bits, lanes),
            ctypes.cast(self._shape, ctypes.POINTER(ctypes.c_int64)),
            None
            if strides is None
            else ctypes.cast(self._strides, ctypes.POINTER(ctypes.c_int64)),
            byte_offset,
        )
        if versioned:
            self._managed = _DLManagedTensorVersioned(1, 1, None, None, flags, tensor)
        else:
            self._managed = _LegacyManaged(tensor, None, None)
        self.calls = []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None, max_version=None):
        self.calls.append((stream, max_version))
        if max_version is not None and not self.versioned:
            raise TypeError("__dlpack__() got an unexpected keyword argument 'max_version'")
        name = _VERSIONED if self.versioned else _LEGACY
        return _capsule_new(ctypes.addressof(self._managed), name, None)


class FakeCai:
    def __init__(self, **iface):
        base = {
            "data": (0x7F00_0000_1000, False),
            "shape": (2, 3),
            "typestr": "<f4",
            "strides": None,
            "version": 3,
        }
        base.update(iface)
        self.__cuda_array_interface__ = base


def test_cuda_array_interface():
    a = device_array(FakeCai(shape=(2, 3), typestr="<f8", strides=(24, 8), stream=7))
    assert (a.device_pointer, a.shape, a.strides, a.format) == (
        0x7F00_0000_1000,
        (2, 3),
        (3, 1),
        Format("f64"),
    )
    assert a.stream == 7 and a.device_id is None and a.nbytes == 48 and not a.readonly
    assert device_array(FakeCai(data=(0x10, True))).readonly


@pytest.mark.parametrize(
    "typestr, fmt",
    [
        ("|b1", "i1"),
        ("|i1", "i8"),
        ("|u1", "i8"),
        ("<i2", "i16"),
        ("<u4", "i32"),
        ("<i8", "i64"),
        ("<f2", "f16"),
        ("<f4", "f32"),
    ],
)
def test_cuda_array_interface_formats(typestr, fmt):
    assert device_array(FakeCai(typestr=typestr)).format == Format(fmt)


def test_cuda_array_interface_refusals():
    with pytest.raises(LaunchError, match=r"strides \(1, 2\).*contiguous") as err:
        device_array(FakeCai(strides=(4, 8)), name="a", kernel="vadd")
    assert str(err.value).startswith("tileir: kernel `vadd`: a: ")
    with pytest.raises(LaunchError, match="no Tile IR format"):
        device_array(FakeCai(typestr="<c8"))
    with pytest.raises(LaunchError, match="mask"):
        device_array(FakeCai(mask=object()))
    with pytest.raises(LaunchError, match="malformed"):
        device_array(FakeCai(data=None))


def test_size_one_dimensions_may_have_any_stride():
    a = device_array(FakeCai(shape=(1, 3), strides=(999 * 4, 4)))
    assert a.strides == (3, 1)


@pytest.mark.parametrize("versioned", [False, True])
def test_dlpack_on_a_cuda_device(versioned):
    fake = FakeCudaTensor(
        (4, 8), code=4, bits=16, versioned=versioned, byte_offset=256, device=(2, 1)
    )
    assert is_device_array(fake)
    a = device_array(fake)
    assert a.device_pointer == 0x7F00_0000_0000 + 256
    assert (a.shape, a.strides, a.format, a.device_id) == ((4, 8), (8, 1), Format("bf16"), 1)
    assert a.owner[0] is fake  # keeps the producer (and its capsule) alive
    # A versioned capsule is asked for first; a legacy producer gets a second, plain call.
    assert fake.calls == ([(None, (1, 0))] if versioned else [(None, (1, 0)), (None, None)])


def test_dlpack_read_only_flag_and_explicit_strides():
    fake = FakeCudaTensor((2, 3), strides=(3, 1), versioned=True, flags=1)
    a = device_array(fake)
    assert a.readonly and a.strides == (3, 1)


@pytest.mark.parametrize(
    "code, bits, fmt",
    [
        (0, 32, "i32"),
        (1, 8, "i8"),
        (2, 16, "f16"),
        (2, 64, "f64"),
        (6, 8, "i1"),
        (10, 8, "f8E4M3FN"),
        (12, 8, "f8E5M2"),
        (14, 8, "f8E8M0FNU"),
    ],
)
def test_dlpack_formats(code, bits, fmt):
    assert device_array(FakeCudaTensor((3,), code=code, bits=bits)).format == Format(fmt)


def test_dlpack_refusals():
    with pytest.raises(LaunchError, match="not the C-contiguous"):
        device_array(FakeCudaTensor((2, 3), strides=(1, 2)))
    with pytest.raises(LaunchError, match="code 5, 64 bits"):
        device_array(FakeCudaTensor((2,), code=5, bits=64))  # complex
    with pytest.raises(LaunchError, match="2 lanes"):
        device_array(FakeCudaTensor((2,), lanes=2))
    with pytest.raises(LaunchError, match="ROCm"):
        device_array(FakeCudaTensor((2,), device=(10, 0)))
    assert not is_device_array(FakeCudaTensor((2,), device=(1, 0)))


def test_a_numpy_array_is_not_a_gpu_array():
    x = np.zeros(4, np.float32)
    assert not is_device_array(x)
    with pytest.raises(LaunchError, match="lives on the CPU"):
        device_array(x, name="out")
    with pytest.raises(LaunchError, match="not a GPU array"):
        device_array([1, 2, 3])


@pytest.mark.parametrize("max_version", [None, (1, 0)])
def test_capsule_reader_against_numpys_dlpack_export(max_version):
    x = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    capsule = x.__dlpack__() if max_version is None else x.__dlpack__(max_version=max_version)
    a = read_dlpack_capsule(capsule)
    assert (a.device_pointer, a.shape, a.strides, a.format) == (
        x.ctypes.data,
        (2, 3, 4),
        (12, 4, 1),
        Format("i16"),
    )
    # The pointer really is the array: read the bytes back through it.
    assert ctypes.string_at(a.device_pointer, a.nbytes) == x.tobytes()
    with pytest.raises(LaunchError, match="contiguous"):
        read_dlpack_capsule(x.transpose(2, 0, 1).__dlpack__())


class TorchBf16Like(FakeCudaTensor):
    """PyTorch raises TypeError from __cuda_array_interface__ for bf16; DLPack still works."""

    @property
    def __cuda_array_interface__(self):
        raise TypeError("dtype torch.bfloat16 is not supported by __cuda_array_interface__")


def test_a_failing_cuda_array_interface_falls_back_to_dlpack():
    fake = TorchBf16Like((8,), code=4, bits=16)
    assert is_device_array(fake)
    assert device_array(fake).format == Format("bf16")


def test_a_failing_cuda_array_interface_without_dlpack_says_why():
    class Broken:
        @property
        def __cuda_array_interface__(self):
            raise TypeError("dtype not supported")

    assert not is_device_array(Broken())
    with pytest.raises(LaunchError, match="__cuda_array_interface__ failed: dtype not supported"):
        device_array(Broken())


def test_something_that_is_not_a_capsule():
    with pytest.raises(LaunchError, match="not a PyCapsule"):
        read_dlpack_capsule(object())
