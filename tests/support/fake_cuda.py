"""A stand-in for cuda-python's driver module, shared by the real-device tests.

``FakeDriver`` answers like ``cuda.bindings.driver`` (a tuple ``(CUresult,
*outputs)`` per call), records every call, keeps device memory in bytearrays,
and at cuLaunchKernel copies each argument from the ``kernelParams`` array with
the sizes in the loaded cubin, as the real driver does.  With ``compute`` set
it also runs the kernel: ``interpreting(module_of)`` hands the launch to the
fake device's interpreter on host copies of the buffers the pointers address,
and writes the buffers the kernel changed back into device memory.

``RealBindingShapes`` wraps the real cuda-python module on a machine without
libcuda, to prove each call's arguments are accepted; :func:`real_binding_shapes`
makes one, or skips the test where that cannot be done.  :func:`run_without_cuda`
runs code in a fresh interpreter that cannot import cuda-python and checks it
imported none of it.
"""

from __future__ import annotations

import ctypes
import enum
import subprocess
import sys
from pathlib import Path
from typing import Callable, Optional

import numpy as np
import pytest

from tileir.errors import InterpretError
from tileir.formats import numpy_dtype
from tileir.real.cubin import kernel_info
from tileir.types import PointerType


class CUresult(enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_OUT_OF_MEMORY = 2
    CUDA_ERROR_NO_DEVICE = 100
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209
    CUDA_ERROR_NOT_FOUND = 500
    CUDA_ERROR_ILLEGAL_ADDRESS = 700
    CUDA_ERROR_ASSERT = 710
    CUDA_ERROR_LAUNCH_FAILED = 719
    CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803


class CUdevice_attribute(enum.IntEnum):
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76


OK = CUresult.CUDA_SUCCESS

#: The calls CudaContext makes to open a device.
OPEN_SEQUENCE = [
    "cuInit",
    "cuDriverGetVersion",
    "cuDeviceGetCount",
    "cuDeviceGet",
    "cuDeviceGetAttribute",
    "cuDeviceGetAttribute",
    "cuDevicePrimaryCtxRetain",
    "cuCtxSetCurrent",
]

#: ``compute(driver, kernel name, argument bytes, grid)``: runs a launch on device memory.
Compute = Callable[["FakeDriver", str, list, tuple], None]


class FakeDriver:
    CUresult = CUresult
    CUdevice_attribute = CUdevice_attribute

    def __init__(
        self,
        *,
        capability=(9, 0),
        version=13000,
        devices=1,
        fail=None,
        library_api=True,
        init_raises=None,
        name="Fake H200",
        compute: Optional[Compute] = None,
    ):
        self.calls = []
        self.capability, self.version, self.devices = capability, version, devices
        self.card_name = name
        self.fail = dict(fail or {})
        self.init_raises = init_raises
        self.compute = compute
        self.memory = {}
        self.launches = []
        self._libraries = {}
        self._kernels = {}
        self._next = 0x7000_0000_0000
        # An old cuda-python has no cuLibrary* functions at all.
        self.missing = (
            set()
            if library_api
            else {"cuLibraryLoadData", "cuLibraryGetKernel", "cuLibraryUnload"}
        )

    def __getattr__(self, name):
        if not name.startswith("cu"):
            raise AttributeError(name)
        handler = getattr(type(self), "_" + name, None)
        if handler is None or name in self.missing:
            raise AttributeError(name)

        def call(*args):
            self.calls.append((name, args))
            if name in self.fail:
                return (self.fail[name], None)  # cuda-python: outputs are None on failure
            return handler(self, *args)

        return call

    def names(self):
        return [c[0] for c in self.calls]

    # -- device memory seen from the host (for tests and compute hooks) ---------------------

    def allocation(self, address: int) -> tuple[int, bytearray]:
        """The allocation holding ``address``: its base and its bytes."""
        for base, data in self.memory.items():
            if base <= address < base + max(1, len(data)):
                return base, data
        raise AssertionError(f"{address:#x} is in no allocation of the fake driver")

    def read(self, address: int, dtype, count: Optional[int] = None) -> np.ndarray:
        """A host copy of device memory from ``address`` (to the allocation's end by default)."""
        base, data = self.allocation(address)
        dtype = np.dtype(dtype)
        available = (len(data) - (address - base)) // dtype.itemsize
        count = available if count is None else count
        assert count <= available, (count, available)
        start = address - base
        return np.frombuffer(bytes(data[start : start + count * dtype.itemsize]), dtype=dtype)

    def write(self, address: int, array: np.ndarray) -> None:
        base, data = self.allocation(address)
        raw = np.ascontiguousarray(array).tobytes()
        start = address - base
        assert start + len(raw) <= len(data), "a write past the allocation's end"
        data[start : start + len(raw)] = raw

    # -- the driver calls -------------------------------------------------------------------

    def _cuInit(self, flags):
        if self.init_raises:
            raise self.init_raises
        return (OK,)

    def _cuDriverGetVersion(self):
        return (OK, self.version)

    def _cuDeviceGetCount(self):
        return (OK, self.devices)

    def _cuDeviceGet(self, ordinal):
        return (OK, 100 + ordinal)

    def _cuDeviceGetName(self, length, dev):
        assert isinstance(length, int) and dev >= 100
        return (OK, self.card_name.encode()[: length - 1] + b"\0" * 8)

    def _cuDeviceGetAttribute(self, attr, dev):
        major = attr == CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
        return (OK, self.capability[0] if major else self.capability[1])

    def _cuDevicePrimaryCtxRetain(self, dev):
        return (OK, "ctx")

    def _cuCtxSetCurrent(self, ctx):
        return (OK,)

    def _cuDevicePrimaryCtxRelease(self, dev):
        return (OK,)

    def _cuMemAlloc(self, nbytes):
        address = self._next
        self._next += (nbytes + 255) // 256 * 256
        # Fresh memory is not zero on a GPU: make that visible to the tests.
        self.memory[address] = bytearray(b"\xa5" * nbytes)
        return (OK, address)

    def _cuMemFree(self, address):
        del self.memory[address]
        return (OK,)

    def _cuMemsetD8(self, address, value, count):
        base, data = self.allocation(address)
        data[address - base : address - base + count] = bytes([value]) * count
        return (OK,)

    def _cuMemcpyHtoD(self, dst, src, nbytes):
        base, data = self.allocation(dst)
        data[dst - base : dst - base + nbytes] = ctypes.string_at(src, nbytes)
        return (OK,)

    def _cuMemcpyDtoH(self, dst, src, nbytes):
        base, data = self.allocation(src)
        ctypes.memmove(dst, bytes(data[src - base : src - base + nbytes]), nbytes)
        return (OK,)

    def _cuMemcpyDtoD(self, dst, src, nbytes):
        sbase, sdata = self.allocation(src)
        dbase, ddata = self.allocation(dst)
        ddata[dst - dbase : dst - dbase + nbytes] = sdata[src - sbase : src - sbase + nbytes]
        return (OK,)

    def _load(self, cubin):
        assert isinstance(cubin, bytes) and cubin.startswith(b"\x7fELF")
        handle = f"lib{len(self._libraries)}"
        self._libraries[handle] = cubin
        return (OK, handle)

    def _get(self, lib, name):
        assert isinstance(name, bytes)
        info = kernel_info(self._libraries[lib], name.decode())
        handle = f"{lib}:{name.decode()}"
        self._kernels[handle] = info
        return (OK, handle)

    def _cuLibraryLoadData(self, code, jit_opts, jit_vals, n_jit, lib_opts, lib_vals, n_lib):
        assert (jit_opts, jit_vals, n_jit, lib_opts, lib_vals, n_lib) == (
            None,
            None,
            0,
            None,
            None,
            0,
        )
        return self._load(code)

    def _cuLibraryGetKernel(self, lib, name):
        return self._get(lib, name)

    def _cuModuleLoadData(self, image):
        return self._load(image)

    def _cuModuleGetFunction(self, module, name):
        return self._get(module, name)

    def _cuLibraryUnload(self, lib):
        return (OK,)

    def _cuModuleUnload(self, module):
        return (OK,)

    def _cuLaunchKernel(self, f, gx, gy, gz, bx, by, bz, shared, stream, kernel_params, extra):
        info = self._kernels[f]
        pointers = (ctypes.c_void_p * max(1, len(info.params))).from_address(kernel_params)
        values = [ctypes.string_at(pointers[p.ordinal], p.size) for p in info.params]
        self.launches.append(((gx, gy, gz), (bx, by, bz), shared, stream, values, extra))
        if self.compute is not None:
            try:
                self.compute(self, info.name, values, (gx, gy, gz))
            except InterpretError as err:
                if err.op != "assert":
                    raise
                # A device-side assert: the GPU prints its message and the launch fails with
                # a sticky CUDA_ERROR_ASSERT, reported by the next synchronizing call.
                self.__dict__["trapped"] = str(err)
                sys.stderr.write(f"device assert: {err}\n")
        return (OK,)

    def _cuCtxSynchronize(self):
        if self.__dict__.get("trapped"):
            return (CUresult.CUDA_ERROR_ASSERT,)
        return (OK,)

    # Events: a fake clock that advances 1 ms per recorded event.
    def _cuEventCreate(self, flags):
        self.__dict__.setdefault("events", {})
        handle = f"event{len(self.events)}"
        self.events[handle] = None
        return (OK, handle)

    def _cuEventRecord(self, event, stream):
        self.events[event] = sum(1 for n in self.names() if n == "cuEventRecord")
        return (OK,)

    def _cuEventSynchronize(self, event):
        return (OK,)

    def _cuEventElapsedTime(self, start, end):
        return (OK, float(self.events[end] - self.events[start]))

    def _cuEventDestroy(self, event):
        del self.events[event]
        return (OK,)

    def _cuStreamSynchronize(self, stream):
        return (OK,)


# -- running a launch on the fake device's interpreter ----------------------------------------


def decode_arguments(driver: FakeDriver, fn, raw: list) -> tuple[list, dict]:
    """The interpreter's arguments for entry ``fn`` from the launch's argument bytes: a host
    copy of device memory per pointer (one array per address, so aliases stay aliases), a
    number per scalar.  Also answers ``{argument index: device address}``."""
    args, addresses, arrays = [], {}, {}
    for i, (p, data) in enumerate(zip(fn.params, raw, strict=True)):
        element = p.type.element
        if isinstance(element, PointerType):
            address = int.from_bytes(data, "little")
            if address not in arrays:
                arrays[address] = driver.read(address, numpy_dtype(element.pointee)).copy()
            args.append(arrays[address])
            addresses[i] = address
        else:
            args.append(np.frombuffer(data, dtype=numpy_dtype(element))[0].item())
    return args, addresses


def interpreting(module_of: Callable[[str], object]) -> Compute:
    """A ``compute`` hook that runs each launch with :func:`tileir.fake.interpreter.interpret`
    on the Module ``module_of(kernel name)`` answers, then writes back what it changed."""
    from tileir.fake.interpreter import interpret

    def compute(driver: FakeDriver, name: str, raw: list, grid: tuple) -> None:
        module = module_of(name)
        fn = module.function(name)
        args, addresses = decode_arguments(driver, fn, raw)
        after = interpret(module, name, args, grid)
        for i, address in addresses.items():
            # A buffer the kernel did not write comes back as a view of the argument.
            if not np.shares_memory(after[i], args[i]):
                driver.write(address, np.asarray(after[i]))

    return compute


class RealBindingShapes:
    """cuda-python's real driver module on a machine without the NVIDIA driver.

    Each call goes to the real binding, which converts the arguments and only
    then tries to load libcuda, raising a RuntimeError: reaching that error
    proves the arguments were accepted (a wrong shape is a TypeError first).
    The call is then answered with placeholders of the binding's own types.
    """

    def __init__(self, real):
        self.real = real
        self.CUresult, self.CUdevice_attribute = real.CUresult, real.CUdevice_attribute
        ok = real.CUresult.CUDA_SUCCESS
        self.answers = {
            "cuDriverGetVersion": (ok, 13000),
            "cuDeviceGetCount": (ok, 1),
            "cuDeviceGet": (ok, real.CUdevice(0)),
            "cuDeviceGetName": (ok, b"NVIDIA Placeholder\0\0"),
            "cuDevicePrimaryCtxRetain": (ok, real.CUcontext()),
            "cuLibraryLoadData": (ok, real.CUlibrary()),
            "cuLibraryGetKernel": (ok, real.CUkernel()),
            "cuEventCreate": (ok, real.CUevent()),
            "cuEventElapsedTime": (ok, 1.0),
        }
        self.accepted = []

    def __getattr__(self, name):
        fn = getattr(self.real, name)

        def call(*args):
            with pytest.raises(RuntimeError):  # TypeError here: a wrong argument shape
                fn(*args)
            self.accepted.append(name)
            if name == "cuMemAlloc":  # a fresh address each time, 1 GiB apart
                address = 0x7000_0000_0000 + (1 << 30) * self.accepted.count(name)
                return (self.CUresult.CUDA_SUCCESS, self.real.CUdeviceptr(address))
            if name == "cuDeviceGetAttribute":  # compute capability 9.0
                attr = self.CUdevice_attribute
                major = args[0] == attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
                return (self.CUresult.CUDA_SUCCESS, 9 if major else 0)
            return self.answers.get(name, (self.CUresult.CUDA_SUCCESS,))

        return call


def real_binding_shapes() -> RealBindingShapes:
    """:class:`RealBindingShapes` over the installed cuda-python; skips the calling test
    where cuda-python is missing or an NVIDIA driver is present (there the real calls would
    run, and the device checks cover that machine)."""
    real = pytest.importorskip("cuda.bindings.driver", reason="cuda-python is not installed")
    try:
        real.cuInit(0)
    except RuntimeError:
        pass  # no NVIDIA driver here: what these tests need
    else:
        pytest.skip("an NVIDIA driver is present; the device checks cover this machine")
    return RealBindingShapes(real)


#: Makes importing cuda-python fail outright in the interpreter that runs this first.
_NO_CUDA = "import sys\nsys.modules['cuda.bindings.driver'] = sys.modules['cuda.cuda'] = None\n"
#: Fails unless the code before it left every cuda-python module unimported.
_NONE_IMPORTED = (
    "assert not [m for m, v in sys.modules.items()\n"
    "            if v is not None and m.startswith(('cuda.bindings', 'cuda.cuda'))]\n"
)


def run_without_cuda(code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter (in the checkout) where importing cuda-python
    fails; asserts it succeeded and imported no cuda-python module.  Answers the process
    (its ``stdout`` as text)."""
    done = subprocess.run(
        [sys.executable, "-c", _NO_CUDA + code + _NONE_IMPORTED],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    return done
