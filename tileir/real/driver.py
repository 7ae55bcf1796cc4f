"""The CUDA driver, through cuda-python, for running tileiras cubins on a real GPU.

Nothing here touches CUDA at import time: cuda-python is imported, and libcuda
loaded, only when a :class:`CudaContext` is opened.  When the device cannot be
had, one :class:`~tileir.errors.DeviceUnavailableError` says which piece is
missing: cuda-python, the NVIDIA driver (libcuda), a GPU, or a driver new
enough for Tile IR (r580+, which reports CUDA 13.0).

Every driver call goes through one checker: a result other than CUDA_SUCCESS
becomes a tileir error naming the call and the CUresult (``kind`` is
``"cuda.<CUresult name>"``).  Errors while opening the device are
DeviceUnavailableError; later ones are LaunchError.

cuda-python's calling conventions used here (cuda.bindings.driver 13.x docs,
checked against the installed binding's argument conversion without a GPU):
every call returns a tuple ``(CUresult, *outputs)``; device pointers, devices
and streams may be passed as ints; ``cuLibraryLoadData``/``cuModuleLoadData``
take the cubin as bytes; kernel names are bytes; ``kernelParams`` may be the
int address of a ``void*[N]`` array (see tileir.real.params).

>>> LAUNCH_BLOCK
(1, 1, 1)
"""

from __future__ import annotations

import hashlib
import importlib
import threading
from typing import Any, Optional, Sequence, Union

import attrs
import numpy as np

from tileir.errors import DeviceUnavailableError, LaunchError, TileIRError
from tileir.real import arrays, cache, params
from tileir.real.cubin import KernelInfo, kernel_info
from tileir.types import PointerType, TileType

__all__ = [
    "CudaContext",
    "DeviceBuffer",
    "Kernel",
    "load_driver",
    "LAUNCH_BLOCK",
    "MIN_DRIVER_VERSION",
    "MAX_GRID_DIM",
]

#: cuDriverGetVersion of the oldest driver that runs tileiras cubins.  NVIDIA
#: requires driver r580+ for Tile IR (cuTile's README); r580 (580.65.06) is the
#: CUDA 13.0 driver, and the call reports 1000 * major + 10 * minor = 13000.
#: Not checked against a real r580 driver here (no GPU was lent).
MIN_DRIVER_VERSION = 13000

#: Block dimensions passed to cuLaunchKernel.  cuTile passes (1, 1, 1) and
#: cuTile.jl says the driver then runs the cubin's EIATTR_REQNTID threads per
#: CTA (tileiras picks them).  UNVERIFIED here: no GPU was lent to check it.
LAUNCH_BLOCK = (1, 1, 1)

#: The largest grid dimension cuTile accepts for a tile kernel (2**24 - 1).
MAX_GRID_DIM = (1 << 24) - 1

_SUCCESS = 0
# Streams a launch on the legacy default stream is already ordered after
# (CUDA array interface: 1 = legacy default stream; 0 is the driver's NULL stream).
_ORDERED_STREAMS = (None, 0, 1)


def load_driver() -> Any:
    """cuda-python's driver module (``cuda.bindings.driver``, or ``cuda.cuda`` before 12.6)."""
    for name in ("cuda.bindings.driver", "cuda.cuda"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise DeviceUnavailableError(
        "the real device needs cuda-python, which is not installed: "
        "pip install 'tileir[gpu]' (or pip install cuda-python)",
        kind="device.no_cuda_python",
    )


def _result_name(driver: Any, code: Any) -> str:
    name = getattr(code, "name", None)
    if isinstance(name, str):
        return name
    try:
        return driver.CUresult(int(code)).name
    except Exception:  # an unknown number: say the number
        return f"CUresult {int(code)}"


@attrs.frozen
class DeviceBuffer:
    """Memory tileir allocated on the device (``nbytes`` is what was asked for)."""

    device_pointer: int
    nbytes: int


@attrs.frozen
class Kernel:
    """A kernel loaded from a cubin: the driver handle and what the cubin says about it."""

    name: str
    handle: Any = attrs.field(eq=False, repr=False)
    info: KernelInfo = attrs.field(repr=False)
    cubin_sha256: str


class CudaContext:
    """One GPU through the driver API: memory, cubin loading and launches.

    Opening it initialises CUDA, checks the driver version and makes the
    card's primary context current.  ``driver`` replaces cuda-python's module
    (tests pass a fake that records calls).
    """

    def __init__(self, ordinal: int = 0, *, driver: Any = None):
        self._driver = driver if driver is not None else load_driver()
        self._ordinal = ordinal
        self._closed = False
        self._threads: set[int] = set()
        self._libraries: dict[str, tuple[str, Any]] = {}
        self._kernels: dict[tuple[str, str], Kernel] = {}
        self._buffers: dict[int, DeviceBuffer] = {}
        self._open()

    # -- calls -----------------------------------------------------------------------------

    def _call(
        self, fn: str, *args: Any, error: type = LaunchError, kernel: Optional[str] = None
    ) -> Any:
        out = getattr(self._driver, fn)(*args)
        code, rest = (out[0], out[1:]) if isinstance(out, tuple) else (out, ())
        if int(code) != _SUCCESS:
            name = _result_name(self._driver, code)
            raise error(
                f"{fn} failed with {name} ({int(code)}){self._describe(code)}",
                kernel=kernel,
                kind=f"cuda.{name}",
            )
        return rest[0] if len(rest) == 1 else (rest or None)

    def _describe(self, code: Any) -> str:
        try:
            res, text = self._driver.cuGetErrorString(code)
            if int(res) == _SUCCESS and text:
                return ": " + (text.decode() if isinstance(text, bytes) else str(text))
        except Exception:  # the description is a courtesy; the name is already there
            pass
        return ""

    def _open(self) -> None:
        unavailable = DeviceUnavailableError
        try:
            out = self._driver.cuInit(0)
        except Exception as exc:  # cuda-python raises when libcuda cannot be loaded
            raise unavailable(
                f"no NVIDIA driver: cuda-python could not load libcuda ({exc}); the real device "
                f"needs an NVIDIA GPU with driver r580 or newer",
                kind="device.no_driver",
            ) from None
        code = out[0] if isinstance(out, tuple) else out
        if int(code) != _SUCCESS:
            name = _result_name(self._driver, code)
            if name == "CUDA_ERROR_NO_DEVICE":
                raise unavailable(
                    "no GPU: the NVIDIA driver found no CUDA device "
                    "(cuInit: CUDA_ERROR_NO_DEVICE)",
                    kind="device.no_gpu",
                )
            raise unavailable(
                f"the NVIDIA driver could not start: cuInit failed with {name} "
                f"({int(code)}){self._describe(code)}",
                kind=f"cuda.{name}",
            )
        self._driver_version = int(self._call("cuDriverGetVersion", error=unavailable))
        if self._driver_version < MIN_DRIVER_VERSION:
            v = self._driver_version
            raise unavailable(
                f"the NVIDIA driver is too old for Tile IR: it supports CUDA {v // 1000}."
                f"{v % 1000 // 10} (cuDriverGetVersion {v}); tileiras cubins need driver r580 "
                f"or newer (CUDA 13.0, {MIN_DRIVER_VERSION})",
                kind="device.old_driver",
            )
        count = int(self._call("cuDeviceGetCount", error=unavailable))
        if not 0 <= self._ordinal < count:
            raise unavailable(
                f"no GPU #{self._ordinal}: the driver sees {count} CUDA "
                f"device{'s' if count != 1 else ''}",
                kind="device.no_gpu" if count == 0 else "device.ordinal",
            )
        self._device = self._call("cuDeviceGet", self._ordinal, error=unavailable)
        attr = self._driver.CUdevice_attribute
        major = int(
            self._call(
                "cuDeviceGetAttribute",
                attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                self._device,
                error=unavailable,
            )
        )
        minor = int(
            self._call(
                "cuDeviceGetAttribute",
                attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                self._device,
                error=unavailable,
            )
        )
        self._capability = (major, minor)
        self._context = self._call("cuDevicePrimaryCtxRetain", self._device, error=unavailable)
        self._call("cuCtxSetCurrent", self._context, error=unavailable)
        self._threads.add(threading.get_ident())

    def _current(self) -> None:
        # The primary context is current per thread: bind it in a thread that has not used it.
        if self._closed:
            raise LaunchError(
                f"the CUDA context of GPU #{self._ordinal} is closed", kind="device.closed"
            )
        ident = threading.get_ident()
        if ident not in self._threads:
            self._call("cuCtxSetCurrent", self._context)
            self._threads.add(ident)

    # -- facts -----------------------------------------------------------------------------

    @property
    def ordinal(self) -> int:
        return self._ordinal

    @property
    def compute_capability(self) -> tuple[int, int]:
        return self._capability

    @property
    def arch(self) -> str:
        """The ``sm_XX`` tileiras assembles for on this card (compute capability 9.0 -> sm_90)."""
        major, minor = self._capability
        return f"sm_{major}{minor}"

    @property
    def driver_version(self) -> int:
        """cuDriverGetVersion: the newest CUDA the driver supports (13000 = 13.0)."""
        return self._driver_version

    # -- memory ----------------------------------------------------------------------------

    def alloc(self, nbytes: int) -> DeviceBuffer:
        """Allocate ``nbytes`` of device memory (at least one byte is asked of the driver)."""
        self._current()
        address = int(self._call("cuMemAlloc", max(1, int(nbytes))))
        buf = DeviceBuffer(address, int(nbytes))
        self._buffers[address] = buf
        return buf

    def free(self, buf: DeviceBuffer) -> None:
        """Release a buffer from :meth:`alloc`."""
        self._current()
        if self._buffers.pop(buf.device_pointer, None) is None:
            raise LaunchError(
                f"device buffer {buf.device_pointer:#x} was not allocated by this "
                f"context or was freed already",
                kind="device.free",
            )
        self._call("cuMemFree", buf.device_pointer)

    @staticmethod
    def _host_view(host: np.ndarray, what: str) -> np.ndarray:
        if not isinstance(host, np.ndarray) or not host.flags.c_contiguous:
            raise LaunchError(
                f"{what} needs a C-contiguous numpy array, got {type(host).__name__}",
                kind="device.copy",
            )
        return host

    def copy_in(self, buf: Union[DeviceBuffer, arrays.DeviceArray], host: np.ndarray) -> None:
        """Copy a host array's bytes to the start of ``buf``."""
        self._current()
        host = self._host_view(host, "copy_in")
        if host.nbytes > buf.nbytes:
            raise LaunchError(
                f"copy_in of {host.nbytes} bytes into a device buffer of {buf.nbytes} bytes",
                kind="device.copy",
            )
        if host.nbytes:
            self._call("cuMemcpyHtoD", buf.device_pointer, host.ctypes.data, host.nbytes)

    def copy_out(
        self, buf: Union[DeviceBuffer, arrays.DeviceArray], host: np.ndarray
    ) -> np.ndarray:
        """Fill ``host`` (C-contiguous, writeable) from the start of ``buf``; returns ``host``."""
        self._current()
        host = self._host_view(host, "copy_out")
        if not host.flags.writeable:
            raise LaunchError("copy_out needs a writeable array", kind="device.copy")
        if host.nbytes > buf.nbytes:
            raise LaunchError(
                f"copy_out of {host.nbytes} bytes from a device buffer of {buf.nbytes} bytes",
                kind="device.copy",
            )
        if host.nbytes:
            self._call("cuMemcpyDtoH", host.ctypes.data, buf.device_pointer, host.nbytes)
        return host

    # -- code ------------------------------------------------------------------------------

    def _library(self, cubin: bytes, digest: str, name: str) -> tuple[str, Any]:
        lib = self._libraries.get(digest)
        if lib is None:
            if hasattr(self._driver, "cuLibraryLoadData"):
                lib = (
                    "library",
                    self._call(
                        "cuLibraryLoadData", cubin, None, None, 0, None, None, 0, kernel=name
                    ),
                )
            else:  # cuda-python older than the library API (CUDA 12.0)
                lib = ("module", self._call("cuModuleLoadData", cubin, kernel=name))
            self._libraries[digest] = lib
        return lib

    def kernel(self, cubin: bytes, name: str) -> Kernel:
        """Load ``cubin`` (once per content) and get its kernel ``name``."""
        self._current()
        cubin = bytes(cubin)
        digest = hashlib.sha256(cubin).hexdigest()
        found = self._kernels.get((digest, name))
        if found is not None:
            return found
        info = kernel_info(cubin, name)  # a missing kernel is named before any driver call
        try:
            kind, handle = self._library(cubin, digest, name)
        except LaunchError as err:  # say what the cubin and the driver are
            api = info.cuda_api_version
            built = f", built by CUDA {api // 10}.{api % 10}" if api else ""
            v = self._driver_version
            raise LaunchError(
                f"{err.message} (a cubin for {info.arch}{built}; the driver runs "
                f"CUDA {v // 1000}.{v % 1000 // 10} on a {self.arch} card)",
                kernel=name,
                kind=err.kind,
            ) from None
        if kind == "library":
            fn = self._call("cuLibraryGetKernel", handle, name.encode(), kernel=name)
        else:
            fn = self._call("cuModuleGetFunction", handle, name.encode(), kernel=name)
        found = Kernel(name, fn, info, digest)
        self._kernels[(digest, name)] = found
        return found

    # -- launches --------------------------------------------------------------------------

    @staticmethod
    def _grid(grid: Union[int, Sequence[int]], kernel: str) -> tuple[int, int, int]:
        dims = (grid,) if isinstance(grid, (int, np.integer)) else tuple(grid)
        if not 1 <= len(dims) <= 3 or not all(isinstance(d, (int, np.integer)) for d in dims):
            raise LaunchError(
                f"grid {grid!r} is not 1 to 3 integers", kernel=kernel, kind="launch.grid"
            )
        dims = tuple(int(d) for d in dims) + (1,) * (3 - len(dims))
        if not all(1 <= d <= MAX_GRID_DIM for d in dims):
            raise LaunchError(
                f"grid {dims} has a dimension outside 1..{MAX_GRID_DIM}",
                kernel=kernel,
                kind="launch.grid",
            )
        return dims  # type: ignore[return-value]

    def launch(
        self,
        kernel: Kernel,
        grid: Union[int, Sequence[int]],
        args: params.KernelArgs,
        *,
        block: tuple[int, int, int] = LAUNCH_BLOCK,
    ) -> None:
        """Launch ``kernel`` on ``grid`` tile blocks with packed ``args`` and wait for it."""
        self._current()
        gx, gy, gz = self._grid(grid, kernel.name)
        self._call(
            "cuLaunchKernel",
            kernel.handle,
            gx,
            gy,
            gz,
            *block,
            0,
            0,
            args.address,
            0,
            kernel=kernel.name,
        )
        self._call("cuCtxSynchronize", kernel=kernel.name)

    def _argument(self, value: Any, slot: params.ParamSlot, kernel: str) -> Any:
        if not isinstance(slot.type.element, PointerType):
            return value
        if arrays.is_device_array(value):
            value = arrays.device_array(value, name=f"argument {slot.index}", kernel=kernel)
        if isinstance(value, arrays.DeviceArray):
            pointee = slot.type.element.pointee
            compatible = {value.format.name} | ({"tf32"} if value.format.name == "f32" else set())
            if pointee.name not in compatible:
                raise LaunchError(
                    f"argument {slot.index} is a GPU array of {value.format}; the "
                    f"entry takes {slot.type}",
                    kernel=kernel,
                    kind="launch.format",
                )
            if value.device_id is not None and value.device_id != self._ordinal:
                raise LaunchError(
                    f"argument {slot.index} lives on GPU #{value.device_id}, the "
                    f"launch is on GPU #{self._ordinal}",
                    kernel=kernel,
                    kind="launch.device",
                )
            if value.stream not in _ORDERED_STREAMS:
                self._call("cuStreamSynchronize", value.stream, kernel=kernel)
        return value

    def launch_bytecode(
        self,
        function_name: str,
        bytecode: bytes,
        args_values: Sequence[Any],
        param_types: Sequence[TileType],
        grid: Union[int, Sequence[int]],
        *,
        lineinfo: bool = False,
    ) -> Kernel:
        """Assemble (cached), load (once per cubin), pack, launch and wait.

        ``param_types`` are the entry's parameter types (the calling convention of
        tileir.record.convention, laid out by tileir.real.params); pointer arguments may be
        DeviceBuffers, GPU arrays
        (CUDA array interface / DLPack) or ints.  Our packing is checked against
        the cubin's parameter table before the launch.
        """
        self._current()
        try:
            cubin = cache.cubin_for(bytecode, self.arch, lineinfo=lineinfo, kernel=function_name)
        except TileIRError as err:
            raise err.with_context(kernel=function_name) from None
        kernel = self.kernel(cubin, function_name)
        lay = params.layout(param_types, kernel=function_name)
        params.check_against_cubin(lay, kernel.info)
        values = [self._argument(v, s, function_name) for v, s in zip(args_values, lay.slots)]
        values += list(args_values[len(lay.slots) :])  # pack names an arity mismatch
        args = params.kernel_args(lay, values, kernel=function_name)
        self.launch(kernel, grid, args)
        return kernel

    # -- lifetime --------------------------------------------------------------------------

    def close(self) -> None:
        """Free what this context allocated and loaded, and release the primary context."""
        if self._closed:
            return
        self._current()
        for address in list(self._buffers):
            self._call("cuMemFree", address)
        self._buffers.clear()
        for kind, handle in self._libraries.values():
            self._call("cuLibraryUnload" if kind == "library" else "cuModuleUnload", handle)
        self._libraries.clear()
        self._kernels.clear()
        self._closed = True
        self._call("cuDevicePrimaryCtxRelease", self._device)

    def __enter__(self) -> "CudaContext":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else self.arch
        return f"CudaContext(GPU #{self._ordinal}, {state})"
