"""The fake device: runs kernels without a GPU or tileiras.

Three modes:

* ``interpret``: the numpy interpreter evaluates the kernel's lowered Module
  (so the recording and the lowering are what runs);
* ``reference``: the host reference registered under the kernel's name answers;
* ``both`` (the default): both run on the same inputs, every buffer is
  compared, and a disagreement raises :class:`~tileir.errors.MismatchError`
  naming the kernel, the buffer, the first differing element (its index and
  its block), the two values and the tolerance applied.  The buffers keep the
  interpreter's answer.

Host copies: ``copy_in`` copies once; a launch hands the buffers' own arrays to the
interpreter, which never modifies its arguments (it returns a new array for each
buffer it wrote), so nothing is copied before it runs and only the buffers it wrote
are copied back; the reference, which may modify what it is given, gets copies.
:meth:`FakeDevice.run` owns the buffers it allocates, so in ``interpret`` mode it
lets the interpreter write them in place and hands them out without copying them
again.
"""

from __future__ import annotations

from typing import Collection, Mapping, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from tileir.errors import LaunchError, MismatchError, UsageError

# the module, not the function: a test's spy (monkeypatched) must see every call
from tileir.fake import interpreter
from tileir.fake.compare import default_tolerance, first_difference
from tileir.fake.fill import Fill, fill_of
from tileir.fake.limits import DEFAULT_LIMITS, Limits, beyond_host
from tileir.fake.references import References
from tileir.host.device import Buffer, Device, LaunchReport
from tileir.host.launch import LaunchPlan, block_of_element, check_launch, entry_values
from tileir.host.tolerance import PER_FORMAT, KernelTolerance, Tolerance
from tileir.types import Format

__all__ = ["FakeDevice", "MODES"]

MODES = ("interpret", "reference", "both")


class FakeDevice(Device):
    """A device made of host memory.  A kernel's reference is its own
    (:meth:`tileir.Kernel.with_reference`; every bundled kernel has one) unless
    ``references`` names another for it; ``tolerances`` sets per-kernel float tolerances.
    ``max_trips``, ``max_tile_elements`` and ``max_launch_bytes`` bound each launch
    (:class:`tileir.fake.limits.Limits`); every module is checked before its first launch
    (:mod:`tileir.fake.admit`).

    ``devices`` is how many GPUs the device stands for, for the 13.5 multimem ops: a
    buffer passed for a multicast parameter (``ptr_attr="multicast"``) holds that many
    replicas of the buffer back to back (:meth:`alloc_multicast` makes one), the multimem
    ops reach every replica, and a reference sees all of them (the flat array;
    ``array.reshape(devices, -1)`` is one row per replica).

    ``fill`` says what memory whose contents are undefined holds: zeros by default;
    ``"signal"`` (or a :class:`tileir.fake.fill.Fill`) puts NaN in floats and bytes of
    0xA5 in integers, so a kernel that reads such memory shows it in its results, as
    Pallas' interpret mode does.  With a fill, undefined memory is: a fresh :meth:`alloc`,
    a block's ``alloca`` scratch, padding lanes of a view without a padding value,
    masked-off lanes of a pointer load without a ``padding`` operand, and in :meth:`run`
    the arguments ``undefined`` lists (argument indices; by default every Out: an Out is
    what the kernel writes, so what the caller's array held does not count).

    >>> import numpy as np
    >>> from tileir import F32, In, Out, cells, load_cell, store_cell, trace
    >>> def copy(x, out):
    ...     yield store_cell(out, (yield load_cell(x)))
    >>> k = trace("copy3", copy, In(F32, cells([3], [4])), Out(F32, cells([3], [4])))
    >>> dev = FakeDevice("interpret", fill="signal")
    >>> x, out = np.arange(4, dtype=np.float32), np.zeros(4, np.float32)
    >>> dev.run(k, x, out)[1]  # element 3 is past the Out's extent: nobody wrote it
    array([ 0.,  1.,  2., nan], dtype=float32)
    """

    name = "fake"

    def __init__(
        self,
        mode: str = "both",
        references: Optional[Mapping] = None,
        tolerances: Optional[Mapping[str, Optional[Tolerance]]] = None,
        observer: object = None,
        *,
        max_trips: int = DEFAULT_LIMITS.max_trips,
        max_tile_elements: int = DEFAULT_LIMITS.max_tile_elements,
        max_launch_bytes: int = DEFAULT_LIMITS.max_launch_bytes,
        fill: Union[None, str, Fill] = None,
        undefined: Optional[Collection[int]] = None,
        devices: int = 1,
    ):
        if mode not in MODES:
            raise UsageError(f"mode {mode!r} is not one of {', '.join(MODES)}", op="FakeDevice")
        self.mode = mode
        if isinstance(devices, bool) or not isinstance(devices, int) or devices < 1:
            raise UsageError(
                f"devices={devices!r} is not a whole number of 1 or more", op="FakeDevice"
            )
        self.devices = devices
        # bounds on one launch (tileir.fake.limits): no module may run or grow for ever
        self.limits = Limits(
            max_trips=max_trips,
            max_tile_elements=max_tile_elements,
            max_launch_bytes=max_launch_bytes,
        )
        self.references = (
            references if isinstance(references, References) else References(references)
        )
        self.tolerances = dict(tolerances or {})
        self.observer = observer
        # what undefined memory holds (tileir.fake.fill): None is zeros
        self.fill = fill_of(fill)
        self.undefined = None if undefined is None else frozenset(int(i) for i in undefined)

    # -- memory --------------------------------------------------------------------------
    def alloc(self, fmt: Format, length: int) -> Buffer:
        if not isinstance(fmt, Format):
            raise UsageError(f"alloc takes a tileir Format such as F32, got {fmt!r}", op="alloc")
        if isinstance(length, bool) or not hasattr(length, "__index__"):
            raise UsageError(f"length must be a whole number, got {length!r}", op="alloc")
        if length < 0:
            raise UsageError(f"length {length} is negative", op="alloc")
        dtype = fmt.numpy_dtype
        why = beyond_host(int(length) * dtype.itemsize)
        if why is None:
            try:
                if self.fill is not None:  # a fresh allocation's contents are undefined
                    return Buffer(self, fmt, int(length), self.fill.host(fmt, int(length)))
                return Buffer(self, fmt, int(length), np.zeros(int(length), dtype=dtype))
            except MemoryError:  # the host had less than it said
                why = f"numpy could not allocate {int(length) * dtype.itemsize} bytes"
        raise LaunchError(
            f"a buffer of {length} {fmt} elements cannot be allocated: {why}",
            op="alloc",
            kind="fake.memory",
        )

    def alloc_multicast(self, fmt: Format, length: int) -> Buffer:
        """A buffer for a multicast parameter: ``devices`` replicas of ``length`` elements,
        back to back (``copy_in`` an array of ``devices * length``; ``copy_out`` gives it
        back, one replica after another)."""
        if isinstance(length, bool) or not hasattr(length, "__index__") or length < 0:
            raise UsageError(
                f"length must be a whole number, got {length!r}", op="alloc_multicast"
            )
        return self.alloc(fmt, self.devices * int(length))

    def copy_in(self, buf: Buffer, array: npt.ArrayLike) -> None:
        src = np.asarray(array)
        dtype = buf.format.numpy_dtype
        if isinstance(array, np.ndarray) and src.dtype != dtype:
            raise LaunchError(
                f"the array holds {src.dtype} and {buf!r} holds {buf.format} "
                f"({dtype}); convert it first: array.astype({buf.format.name.upper()}.numpy_dtype)",
                op="copy_in",
                kind="copy.format",
            )
        flat = src.reshape(-1).astype(dtype, copy=False)  # the assignment below copies
        if flat.size > buf.length:
            raise LaunchError(
                f"{flat.size} element(s) do not fit {buf!r}",
                op="copy_in",
                kind="copy.size",
            )
        buf.handle[: flat.size] = flat

    def copy_out(self, buf: Buffer) -> np.ndarray:
        return buf.handle.copy()

    def capacity(self, buf: Buffer) -> int:
        handle = buf.handle
        if not isinstance(handle, np.ndarray) or handle.dtype != buf.format.numpy_dtype:
            raise LaunchError(
                f"{buf!r} no longer holds the array alloc made for it",
                op="launch",
                kind="launch.buffer",
            )
        return int(handle.size)

    def _span(self, buf: Buffer) -> tuple:
        start = buf.handle.__array_interface__["data"][0]
        return (start, start + max(1, buf.handle.nbytes))

    # -- launch --------------------------------------------------------------------------
    def _tolerance(self, kernel, fmt: Format) -> Optional[Tolerance]:
        if kernel.name in self.tolerances:
            return self.tolerances[kernel.name]
        # a bare Module's launch has none
        own: KernelTolerance = getattr(kernel, "tolerance", PER_FORMAT)
        return default_tolerance(fmt) if own == PER_FORMAT else own

    def _interpret(self, kernel, plan: LaunchPlan, values: list, owned=()) -> list:
        out = interpreter.interpret(
            kernel.module,
            kernel.name,
            entry_values(kernel, plan, values),
            plan.grid,
            observer=self.observer,
            owned=owned,
            limits=self.limits,
            fill=self.fill,
            devices=self.devices,
        )
        return list(out[: len(values)])

    def _reference(self, kernel, values: list) -> list:
        ref = self.references.get(kernel.name) or getattr(kernel, "reference", None)
        if ref is None:
            raise LaunchError(
                f"kernel `{kernel.name}` has no reference: give it one with "
                f"kernel.with_reference(fn), pass FakeDevice(references="
                f"{{'{kernel.name}': fn}}), or use mode='interpret'",
                kernel=kernel.name,
                op="launch",
                kind="fake.no_reference",
            )
        # the reference may modify what it is given: it works on copies
        out = list(ref([v.copy() if isinstance(v, np.ndarray) else v for v in values]))
        if len(out) != len(values):
            raise LaunchError(
                f"the reference returned {len(out)} value(s) for {len(values)} argument(s)",
                kernel=kernel.name,
                op="reference",
                kind="fake.reference_shape",
            )
        return out

    def _run(
        self, kernel, plan: LaunchPlan, args: Sequence, owned=(), handed: Optional[list] = None
    ) -> LaunchReport:
        # no copies before the launch: the interpreter never modifies its arguments (it
        # returns new arrays for the buffers it wrote; ``owned`` ones it may write in place)
        values = [a.handle if isinstance(a, Buffer) else a for a in args]
        got: Optional[list] = None
        expected: Optional[list] = None
        if self.mode in ("interpret", "both"):
            got = self._interpret(kernel, plan, values, owned)
        if self.mode in ("reference", "both"):
            expected = self._reference(kernel, values)
        verdicts = []
        if got is not None and expected is not None:  # mode "both"
            verdicts = self._compare(kernel, plan, args, got, expected)
        result = got if got is not None else expected  # (the mode runs one or both)
        for a, new in zip(args, result or ()):
            if isinstance(a, Buffer) and a.handle.flags.writeable:
                _write_back(a, new)
            if handed is not None:  # run(): each buffer's contents after the launch
                handed.append(_contents(a, new) if isinstance(a, Buffer) else a)
        return LaunchReport(kernel.name, plan.grid, self.mode, tuple(verdicts))

    # run() stages its buffers with the base class's loop; these hooks are what differs
    def _stage(self, param, array: np.ndarray, staged: Sequence[Buffer]) -> Buffer:
        """A contiguous array of the parameter's format is lent, not copied: a read-only
        view, which the interpreter copies the first time the kernel writes it (or replaces
        by the tile a whole-buffer store computed), so :meth:`run` costs no more than the
        interpreter alone.  An array that shares memory with one lent before it (the same
        array passed twice) is copied, as :meth:`run` promises separate buffers; any other
        argument is copied into a buffer of its own."""
        flat = array.reshape(-1)
        if (
            self.fill is None  # a fill writes the undefined arguments' buffers: copies
            and array.dtype == param.format.numpy_dtype
            and flat.flags.c_contiguous  # one run of memory, as alloc makes
            and np.shares_memory(flat, array)  # reshape made a view, not a copy
            and not any(np.may_share_memory(flat, b.handle) for b in staged)
        ):
            lent = flat.view()
            lent.flags.writeable = False
            return Buffer(self, param.format, int(lent.size), lent)
        return super()._stage(param, array, staged)

    def _launch_staged(self, kernel, args: list, grid: Optional[Sequence[int]]) -> list:
        """:meth:`Device.run`'s launch: its buffers are the call's own, so the interpreter
        may write the ones it copied in place (``interpret`` mode), and what it answers for
        each buffer is handed back as it is, not copied again (a launch that fails leaves
        nothing behind to see)."""
        plan = check_launch(kernel, [self.arg_info(a) for a in args], grid)
        if self.fill is not None:
            self._forget_undefined(kernel, args)
        owned: Collection[int] = ()
        if self.mode == "interpret":  # lent arrays (read-only) stay the caller's
            owned = frozenset(
                i for i, a in enumerate(args) if isinstance(a, Buffer) and a.handle.flags.writeable
            )
        handed: list = []
        self._run(kernel, plan, args, owned, handed)
        return handed

    def _forget_undefined(self, kernel, args: list) -> None:
        """With a fill, :meth:`run`'s arguments whose contents are undefined (``undefined``,
        by default every Out) hold the pattern, not what the caller's arrays held."""
        assert self.fill is not None
        params = getattr(kernel, "params", ())
        chosen = (
            self.undefined
            if self.undefined is not None
            else {p.index for p in params if p.role == "Out"}
        )
        for i in sorted(chosen):
            a = args[i] if 0 <= i < len(args) else None
            if not isinstance(a, Buffer):
                raise UsageError(
                    f"undefined={sorted(chosen)} names argument {i}, which is not a buffer of "
                    f"this launch ({len(args)} argument(s))",
                    kernel=kernel.name,
                    op="run",
                )
            a.handle[:] = self.fill.host(a.format, a.handle.size)

    def _compare(self, kernel, plan: LaunchPlan, args, got: list, expected: list) -> list:
        verdicts = []
        for p, a, g, e in zip(kernel.params, args, got, expected):
            if not isinstance(a, Buffer):
                continue
            tol = self._tolerance(kernel, p.format) if p.format.is_float else None
            diff = first_difference(g, np.asarray(e).astype(a.handle.dtype, copy=False), tol)
            if diff is not None:
                block = block_of_element(kernel, p.index, diff.index, plan.grid)
                where = f"block {list(block)}" if block is not None else "no cell (Shared)"
                tol_text = "bit-exact" if tol is None else str(tol)
                raise MismatchError(
                    f"argument {p.index} ({p.role}) differs from the reference at element "
                    f"{diff.index} ({where}): the kernel gives {diff.got!r} and the reference "
                    f"{diff.expected!r} ({tol_text}); {diff.count} element(s) differ",
                    kernel=kernel.name,
                    op="compare",
                    kind="fake.mismatch",
                )
            if p.role != "In":
                how = "bit-exact" if tol is None else f"within {tol}"
                verdicts.append((p.index, f"{p.role} agrees with the reference ({how})"))
        return verdicts


def _answer(buf: Buffer, new) -> np.ndarray:
    """The launch's answer for ``buf``: flat, as long as the buffer at most, in its format."""
    return np.asarray(new).reshape(-1)[: buf.length].astype(buf.handle.dtype, copy=False)


def _contents(buf: Buffer, new) -> np.ndarray:
    """What :meth:`FakeDevice.run` hands back for ``buf``: the buffer itself when the launch
    wrote it in place, else the launch's answer for it."""
    return buf.handle if buf.handle.flags.writeable else _answer(buf, new)


def _write_back(buf: Buffer, new) -> None:
    """Copy a launch's answer for ``buf`` into it, unless it is ``buf``'s own memory (the
    interpreter hands back a read-only view of a buffer it did not write, and the very
    array of one it wrote in place)."""
    if isinstance(new, np.ndarray) and np.may_share_memory(new, buf.handle):
        return
    flat = _answer(buf, new)
    buf.handle[: flat.size] = flat
