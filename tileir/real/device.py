"""The real device: the host program API on an NVIDIA GPU.

:class:`RealDevice` runs the same host program as the fake device (allocate,
copy in, launch, copy out) through cuda-python.  Nothing touches CUDA until the
device is used: the first allocation or launch (or :meth:`RealDevice.open`)
opens a :class:`~tileir.real.driver.CudaContext`, and a missing piece (no
cuda-python, no driver, no GPU, a driver too old) is one
:class:`~tileir.errors.DeviceUnavailableError` saying which.

A launch is refused before any driver call when the shared launch checks
(:func:`tileir.host.launch.check_launch`) refuse it -- on a GPU a short buffer is an
out-of-bounds write, not an exception -- with the buffers' real device byte
spans for the aliasing rule, and when a pointer breaks the alignment the kernel
promises tileiras (``assume div_by<16>`` on its pointer parameters).  Then the
kernel's bytecode is assembled for the card's ``sm_XX`` (a prebuilt cubin from
``$TILEIR_CUBIN_DIR``, else tileiras through the cubin cache), its arguments are
packed by the calling convention (:mod:`tileir.real.params`, checked against
the cubin's own parameter table), and it is launched on the plan's grid of tile
blocks with blocks of (1, 1, 1) threads (the driver runs the cubin's own
thread count).

Arguments may be this device's :class:`~tileir.host.device.Buffer` objects, GPU arrays
of other libraries (anything :func:`tileir.real.arrays.device_array` takes:
CuPy, PyTorch CUDA tensors, Numba; CUDA array interface or DLPack), used in
place without a copy, and numbers for Scalar parameters.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import attrs
import numpy as np

from tileir.errors import LaunchError, TileIRError, ToolError
from tileir.host.device import Buffer, Device, LaunchReport
from tileir.host.launch import ArgInfo, LaunchPlan, check_launch, entry_values
from tileir.ir.module import DivBy, walk
from tileir.ir.signatures import attr_of
from tileir.real import arrays, cache, params, prebuilt, tileiras
from tileir.real.arrays import DeviceArray
from tileir.real.driver import CudaContext
from tileir.real.driver import Kernel as LoadedKernel
from tileir.record.convention import entry_param_types
from tileir.types import Format

__all__ = ["RealDevice", "PreparedLaunch", "Assembler"]

#: ``assembler(bytecode, arch, kernel name) -> cubin``: replaces the default cubin source.
Assembler = Callable[[bytes, str, str], bytes]

_NAME_BYTES = 256  # cuDeviceGetName's buffer; card names are far shorter


def _driver_call(ctx: CudaContext, fn: str, *args: Any, kernel: Optional[str] = None) -> Any:
    # CudaContext checks every CUresult in `_call`; the few calls it has no method for
    # (memset, the card's name) go through the same checker.
    return ctx._call(fn, *args, kernel=kernel)


@attrs.frozen
class PreparedLaunch:
    """A checked, assembled, loaded and packed launch, ready to issue (again and again).

    ``kernel`` is the loaded kernel (``kernel.handle`` for the driver), ``grid`` the
    3-D grid of tile blocks, ``args`` the packed parameters (``args.address`` is the
    ``kernelParams`` pointer); ``keep`` holds the arguments alive.
    """

    name: str
    kernel: LoadedKernel
    grid: tuple
    args: params.KernelArgs = attrs.field(eq=False)
    keep: tuple = attrs.field(eq=False, repr=False, default=())


def _alignments(kernel) -> dict:
    """``{parameter index: bytes}`` for every pointer the entry assumes aligned
    (``assume div_by<N>`` applied directly to an entry parameter)."""
    fn = kernel.function
    count = len(kernel.params)
    out: dict = {}
    for op in walk(fn.body):
        if op.name != "assume" or not op.operands:
            continue
        pred = attr_of(op, "predicate")
        target = op.operands[0].id
        if isinstance(pred, DivBy) and pred.every is None and 0 <= target < count:
            out[target] = max(out.get(target, 1), int(pred.divisor))
    return out


def _trapped(kernel, err: TileIRError) -> LaunchError:
    """A launch that stopped on a device-side ``assert``: the kernel's bounds guards (or its
    own asserts), named so the host can say which op and line could have fired (the GPU
    printed the one that did)."""
    messages = [
        str(attr_of(op, "message")) for op in walk(kernel.function.body) if op.name == "assert"
    ]
    listed = "; ".join(messages) if messages else "none found in the module"
    return LaunchError(
        f"the launch stopped on a device-side assert ({err.message}); the GPU printed the "
        f"message of the one that fired; the kernel's asserts: {listed}",
        kernel=kernel.name,
        op="launch",
        kind="launch.trap",
    )


class RealDevice(Device):
    """An NVIDIA GPU (``ordinal`` as the driver numbers them).

    ``driver`` replaces cuda-python's driver module (tests pass a fake);
    ``assembler`` replaces the cubin source (default: ``$TILEIR_CUBIN_DIR``'s
    prebuilt cubins, else tileiras through :func:`tileir.real.cache.cubin_for`).
    """

    def __init__(
        self, ordinal: int = 0, *, driver: Any = None, assembler: Optional[Assembler] = None
    ):
        self.ordinal = int(ordinal)
        self.name = f"GPU #{self.ordinal}"
        self._driver = driver
        self._assembler = assembler
        self._context: Optional[CudaContext] = None
        self._toolchains: set = set()

    # -- the context, opened on first use ------------------------------------------------
    @property
    def context(self) -> CudaContext:
        """The open CudaContext (opened now if needed; DeviceUnavailableError if it cannot be)."""
        if self._context is None:
            self._context = CudaContext(self.ordinal, driver=self._driver)
        return self._context

    def open(self) -> "RealDevice":
        """Open the device now (so a missing GPU is said before any work); returns self."""
        _ = self.context
        return self

    @property
    def arch(self) -> str:
        """The card's ``sm_XX``."""
        return self.context.arch

    @property
    def driver_version(self) -> int:
        """cuDriverGetVersion (13000 = CUDA 13.0)."""
        return self.context.driver_version

    @property
    def card_name(self) -> str:
        """What the driver calls the card (``"NVIDIA H200"``)."""
        ctx = self.context
        device = _driver_call(ctx, "cuDeviceGet", self.ordinal)
        raw = _driver_call(ctx, "cuDeviceGetName", _NAME_BYTES, device)
        raw = raw if isinstance(raw, (bytes, bytearray)) else str(raw).encode()
        return bytes(raw).split(b"\0", 1)[0].decode(errors="replace").strip()

    @property
    def toolchains(self) -> frozenset:
        """What assembled the cubins launched so far (``"tileiras 13.4.92; ptxas ..."``)."""
        return frozenset(self._toolchains)

    def close(self) -> None:
        """Free every buffer and cubin of this device and release the GPU's context."""
        if self._context is not None:
            ctx, self._context = self._context, None
            ctx.close()

    def __enter__(self) -> "RealDevice":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "not opened" if self._context is None else repr(self._context)
        return f"RealDevice({self.ordinal}, {state})"

    # -- memory --------------------------------------------------------------------------
    def alloc(self, fmt: Format, length: int) -> Buffer:
        if not isinstance(fmt, Format):
            raise TypeError(f"alloc takes a tileir Format such as F32, got {fmt!r}")
        if length < 0:
            raise ValueError(f"alloc: length {length} is negative")
        ctx = self.context
        nbytes = int(length) * fmt.itemsize
        handle = ctx.alloc(nbytes)
        if nbytes:  # device memory starts with whatever was there: zero it, as promised
            _driver_call(ctx, "cuMemsetD8", handle.device_pointer, 0, nbytes)
        return Buffer(self, fmt, int(length), handle)

    def _own(self, buf: Buffer, op: str) -> None:
        if not isinstance(buf, Buffer) or buf.device is not self:
            raise LaunchError(
                f"{op}: {buf!r} is not a buffer of {self.name}", op=op, kind="copy.device"
            )

    def copy_in(self, buf: Buffer, array) -> None:
        self._own(buf, "copy_in")
        src = np.asarray(array)
        dtype = buf.format.numpy_dtype
        if isinstance(array, np.ndarray) and src.dtype != dtype:
            raise LaunchError(
                f"the array holds {src.dtype} and {buf!r} holds {buf.format} "
                f"({dtype}); convert it first: array.astype({buf.format.name.upper()}.numpy_dtype)",
                op="copy_in",
                kind="copy.format",
            )
        flat = np.ascontiguousarray(src.reshape(-1).astype(dtype, copy=False))
        if flat.size > buf.length:
            raise LaunchError(
                f"{flat.size} element(s) do not fit {buf!r}",
                op="copy_in",
                kind="copy.size",
            )
        self.context.copy_in(buf.handle, flat)

    def copy_out(self, buf: Buffer) -> np.ndarray:
        self._own(buf, "copy_out")
        host = np.empty(buf.length, dtype=buf.format.numpy_dtype)
        return self.context.copy_out(buf.handle, host)

    def free(self, buf: Buffer) -> None:
        """Give ``buf``'s device memory back (it must not be used again)."""
        self._own(buf, "free")
        self.context.free(buf.handle)

    def capacity(self, buf: Buffer) -> int:
        return int(buf.handle.nbytes) // buf.format.itemsize

    def _span(self, buf: Buffer) -> tuple:
        start = buf.handle.device_pointer
        return (start, start + max(1, buf.handle.nbytes))

    # -- launch checks -------------------------------------------------------------------
    def arg_info(self, arg, index: Optional[int] = None) -> ArgInfo:
        if isinstance(arg, DeviceArray):
            start = arg.device_pointer
            return ArgInfo(arg.format, arg.size, (start, start + max(1, arg.nbytes)))
        return super().arg_info(arg, index)

    def _adopt(self, kernel, args: Sequence) -> list:
        """GPU arrays of other libraries as DeviceArrays (no copy), refused when a kernel
        could not use them: read-only for a parameter it writes, or on another GPU."""
        out = []
        for i, a in enumerate(args):
            if not isinstance(a, (Buffer, DeviceArray)) and arrays.is_device_array(a):
                a = arrays.device_array(a, name=f"argument {i}", kernel=kernel.name)
            if isinstance(a, DeviceArray) and i < len(kernel.params):
                p = kernel.params[i]
                if a.readonly and p.role in ("Out", "Shared"):
                    raise LaunchError(
                        f"argument {i} ({p.role}) is a read-only GPU array, and "
                        f"the kernel may write it",
                        kernel=kernel.name,
                        op="launch",
                        kind="launch.readonly",
                    )
                if a.device_id is not None and a.device_id != self.ordinal:
                    raise LaunchError(
                        f"argument {i} ({p.role}) lives on GPU #{a.device_id}, "
                        f"and the launch is on {self.name}",
                        kernel=kernel.name,
                        op="launch",
                        kind="launch.device",
                    )
            out.append(a)
        return out

    def _check_alignment(self, kernel, args: Sequence) -> None:
        for i, need in sorted(_alignments(kernel).items()):
            a = args[i]
            address = (
                a.handle.device_pointer
                if isinstance(a, Buffer)
                else getattr(a, "device_pointer", None)
            )
            if address is not None and address % need:
                p = kernel.params[i]
                raise LaunchError(
                    f"argument {i} ({p.role}) starts at device address "
                    f"{address:#x}, and the kernel assumes its pointer is a "
                    f"multiple of {need} bytes; pass an aligned array",
                    kernel=kernel.name,
                    op="launch",
                    kind="launch.alignment",
                )

    # -- assembling, packing, launching ---------------------------------------------------
    def _cubin(self, bytecode: bytes, name: str) -> bytes:
        arch = self.arch
        if self._assembler is not None:
            self._toolchains.add("custom assembler")
            return self._assembler(bytecode, arch, name)
        directory = prebuilt.cubin_dir()
        found = prebuilt.lookup(bytecode, arch, directory)
        if found is not None:
            self._toolchains.add(prebuilt.toolchain(directory) or f"prebuilt in {directory}")
            return found
        try:
            cubin = cache.cubin_for(bytecode, arch, kernel=name)
        except ToolError as err:
            if directory is not None and err.kind == "tool.missing":
                raise ToolError(
                    f"no cubin for this kernel's bytecode and {arch} in "
                    f"{directory} (${prebuilt.ENV}), and {err.message}",
                    kernel=name,
                    kind=err.kind,
                ) from None
            raise err.with_context(kernel=name) from None
        self._toolchains.add(tileiras.toolchain_id())
        return cubin

    def _prepare(self, kernel, plan: LaunchPlan, args: Sequence) -> PreparedLaunch:
        self._check_alignment(kernel, args)
        name = kernel.name
        ctx = self.context
        values = [a.handle if isinstance(a, Buffer) else a for a in args]
        entry = entry_values(kernel, plan, values)
        loaded = ctx.kernel(self._cubin(kernel.bytecode(), name), name)
        guarded = getattr(kernel, "guarded", ())
        lay = params.layout(entry_param_types(kernel.params, guarded), kernel=name)
        params.check_against_cubin(lay, loaded.info)
        # The context's own argument rules: GPU arrays' formats, device and stream.
        packed = [ctx._argument(v, s, name) for v, s in zip(entry, lay.slots)]
        packed += entry[len(lay.slots) :]  # pack names an arity mismatch
        return PreparedLaunch(
            name, loaded, plan.grid, params.kernel_args(lay, packed, kernel=name), tuple(args)
        )

    def prepare(self, kernel, *args, grid: Optional[Sequence[int]] = None) -> PreparedLaunch:
        """Check, assemble, load and pack a launch without issuing it (for benchmarks that
        issue one launch many times); :meth:`issue` runs it."""
        adopted = self._adopt(kernel, args)
        plan = check_launch(kernel, [self.arg_info(a) for a in adopted], grid)
        return self._prepare(kernel, plan, adopted)

    def issue(self, prepared: PreparedLaunch) -> None:
        """Launch a prepared launch and wait for it."""
        self.context.launch(prepared.kernel, prepared.grid, prepared.args)

    def launch(self, kernel, *args, grid: Optional[Sequence[int]] = None) -> LaunchReport:
        """Check, then run ``kernel`` on the GPU over ``args`` (this device's buffers, GPU
        arrays of other libraries, numbers for Scalars); waits for the kernel to finish."""
        return super().launch(kernel, *self._adopt(kernel, args), grid=grid)

    def _run(self, kernel, plan: LaunchPlan, args: Sequence) -> LaunchReport:
        prepared = self._prepare(kernel, plan, args)
        try:
            self.issue(prepared)
        except TileIRError as err:
            if err.kind == "cuda.CUDA_ERROR_ASSERT":
                raise _trapped(kernel, err) from None
            raise err.with_context(kernel=kernel.name) from None
        return LaunchReport(kernel.name, plan.grid, f"gpu {self.arch}")
