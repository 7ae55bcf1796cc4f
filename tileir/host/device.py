"""The host program API both devices share: allocate, copy in, launch, copy out.

A host program is written once against :class:`Device`; changing the device
(the fake one, or a GPU) changes nothing else.

>>> import numpy as np
>>> from tileir import trace, In, Out, cells, load_cell, store_cell, F64
>>> from tileir.fake import FakeDevice
>>> def vadd(a, b, out):
...     x = yield load_cell(a)
...     y = yield load_cell(b)
...     yield store_cell(out, x + y)
>>> g = cells([1000], [128])
>>> k = trace("vadd", vadd, In(F64, g), In(F64, g), Out(F64, g))
>>> dev = FakeDevice(mode="interpret")
>>> xs = np.arange(1000, dtype=np.float64)
>>> a, b, out = dev.alloc(F64, 1000), dev.alloc(F64, 1000), dev.alloc(F64, 1000)
>>> dev.copy_in(a, xs); dev.copy_in(b, xs)
>>> report = dev.launch(k, a, b, out)
>>> float(dev.copy_out(out)[-1])
1998.0
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Optional, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from tileir.errors import LaunchError
from tileir.host.launch import ArgInfo, LaunchPlan, check_launch
from tileir.types import Format

if TYPE_CHECKING:
    from tileir.kernel import Kernel
    from tileir.record.markers import Param

__all__ = ["Buffer", "Device", "LaunchReport"]


@attrs.frozen(eq=False)
class Buffer:
    """A buffer of ``length`` elements of ``format`` on ``device``; ``handle`` is the device's
    own (a numpy array on the fake device, a device allocation on a GPU).

    Frozen: a buffer is what ``alloc`` made, and assigning a field raises
    ``attrs.exceptions.FrozenInstanceError``.  Even so the launch checks never trust
    ``length``: they ask the device how many elements the allocation itself holds
    (:meth:`Device.capacity`).
    """

    device: "Device"
    format: Format
    length: int
    handle: Any

    def __repr__(self) -> str:
        return f"Buffer({self.format}[{self.length}] on {self.device.name})"


@attrs.frozen
class LaunchReport:
    """What a launch did: the kernel, the grid, the mode and, per output buffer, a verdict."""

    kernel: str
    grid: tuple[int, ...]
    mode: str
    verdicts: tuple[tuple[int, str], ...] = ()  # (argument index, text)

    def __str__(self) -> str:
        lines = [f"{self.kernel}: grid {list(self.grid)}, mode {self.mode}"]
        lines += [f"  argument {i}: {text}" for i, text in self.verdicts]
        return "\n".join(lines)


class Device(ABC):
    """A place kernels run.  Subclasses: :class:`tileir.fake.FakeDevice`,
    :class:`tileir.real.RealDevice`."""

    name = "device"

    @abstractmethod
    def alloc(self, fmt: Format, length: int) -> Buffer:
        """A new buffer of ``length`` elements of ``fmt`` (zero-filled)."""

    @abstractmethod
    def copy_in(self, buf: Buffer, array: npt.ArrayLike) -> None:
        """Copy a host array (of ``buf``'s format, at most its length) into ``buf``."""

    @abstractmethod
    def copy_out(self, buf: Buffer) -> np.ndarray:
        """A host copy of ``buf``'s contents."""

    @abstractmethod
    def _run(self, kernel, plan: LaunchPlan, args: Sequence) -> LaunchReport:
        """Run a launch that passed the checks."""

    @property
    def label(self) -> str:
        """This device in a message: its kind and identity (two fake devices differ)."""
        return f"{self.name} device {id(self):#x}"

    def arg_info(self, arg: object, index: Optional[int] = None) -> ArgInfo:
        """How the launch checks see one argument (``index``: its place, for messages)."""
        if isinstance(arg, Buffer):
            if arg.device is not self:
                which = f"argument {index}, " if index is not None else ""
                raise LaunchError(
                    f"{which}{arg!r}, belongs to another device ({arg.device.label}), not "
                    f"to this one ({self.label}): allocate it with this device's alloc(), "
                    f"or copy it across with copy_out() and copy_in()",
                    op="launch",
                    kind="launch.device",
                )
            return ArgInfo(arg.format, self.capacity(arg), self._span(arg))
        return ArgInfo(value=arg, is_buffer=False)

    def capacity(self, buf: Buffer) -> int:
        """How many elements of ``buf``'s format its allocation holds, read off the
        allocation (the fake device's array, the GPU's allocation), never off ``length``."""
        return buf.length

    def _span(self, buf: Buffer) -> tuple[int, int]:
        return (id(buf), id(buf) + 1)

    def launch(
        self, kernel: Kernel, *args: Any, grid: Optional[Sequence[int]] = None
    ) -> LaunchReport:
        """Check, then run ``kernel`` over ``args`` (buffers, and numbers for Scalar
        parameters).  ``grid`` is needed when the Out's cells do not make one."""
        try:
            infos = [self.arg_info(a, i) for i, a in enumerate(args)]
        except LaunchError as err:
            raise err.with_context(kernel=getattr(kernel, "name", None)) from None
        plan = check_launch(kernel, infos, grid)
        return self._run(kernel, plan, args)

    def run(self, kernel: Kernel, *arrays: Any, grid: Optional[Sequence[int]] = None) -> list[Any]:
        """Allocate, copy in, launch and copy out in one call: numpy arrays in (numbers for
        Scalars), the arguments after the launch out.  The caller's arrays never change; a
        device may lend an array instead of copying it (the fake device does, for a
        contiguous array of the parameter's format) and then hands back, for a lent array
        the kernel did not write, a read-only view of it."""
        args: list[Any] = []
        for p, a in zip(kernel.params, arrays):
            if p.role == "Scalar":
                args.append(a)
                continue
            arr = np.asarray(a)
            try:
                buf = self._stage(p, arr, [x for x in args if isinstance(x, Buffer)])
            except LaunchError as err:
                raise LaunchError(
                    f"argument {len(args)} ({p.role} {p.format}): {err.message}",
                    kernel=kernel.name,
                    op="run",
                    kind=err.kind,
                ) from None
            args.append(buf)
        if len(arrays) != len(kernel.params):
            args.extend(arrays[len(kernel.params) :])
        return self._launch_staged(kernel, args, grid)

    # Hooks for :meth:`run`, whose buffers are the call's own: nobody else holds them.
    def _stage(self, param: Param, array: np.ndarray, staged: Sequence[Buffer]) -> Buffer:
        """The buffer :meth:`run` launches for ``array`` (parameter ``param``; ``staged``:
        the buffers of the parameters before it): a copy."""
        buf = self.alloc(param.format, array.size)
        self.copy_in(buf, array.reshape(-1))
        return buf

    def _launch_staged(self, kernel, args: list, grid: Optional[Sequence[int]]) -> list[Any]:
        """Launch ``args`` as :meth:`run` staged them and hand back what :meth:`run`
        returns: a plain :meth:`launch` and host copies, unless a device can make use of
        owning every buffer."""
        self.launch(kernel, *args, grid=grid)
        return [self.copy_out(a) if isinstance(a, Buffer) else a for a in args]
