"""Any producer's bytecode on the fake device: :func:`run_bytecode`.

The interpreter (:func:`tileir.fake.interpret`) takes an entry's flat arguments: one 1-D
buffer per pointer.  :func:`run_bytecode` takes what a user has instead, numpy arrays of
any shape and strides and numbers, spreads them over the entry by a calling convention
(:mod:`tileir.host.conventions`: ``raw``, ``cutile``, ``tileir`` or one of your own), runs
the launch, and hands every array back in its own shape.  With ``reference=`` it runs the
reference too and compares them as :class:`~tileir.fake.FakeDevice` compares a recorded
kernel with its reference, raising the same :class:`~tileir.errors.MismatchError`.

>>> import numpy as np
>>> from tileir import F32, In, Out, cells, load_cell, store_cell, trace
>>> def double(x, out):
...     t = yield load_cell(x)
...     yield store_cell(out, t + t)
>>> g = cells([4, 8], [4, 8])
>>> blob = trace("double", double, In(F32, g), Out(F32, g)).bytecode()
>>> xs = np.arange(32, dtype=np.float32).reshape(4, 8)
>>> _, out = run_bytecode(blob, [xs, np.zeros((4, 8), np.float32)], 1)
>>> out.shape, float(out[3, 7])
((4, 8), 62.0)
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Union

import attrs
import numpy as np

from tileir.encode import decode
from tileir.errors import LaunchError, MismatchError, UsageError
from tileir.fake.compare import default_tolerance, first_difference
from tileir.fake.interpreter import GridLike, execute
from tileir.fake.limits import DEFAULT_LIMITS, Limits
from tileir.host.conventions import Binding, Convention, convention_of
from tileir.host.tolerance import PER_FORMAT, KernelTolerance
from tileir.ir.module import Function, Module
from tileir.types import Format

__all__ = ["run_bytecode", "launch_bytecode", "BytecodeRun", "module_of", "entry_of"]

#: what run_bytecode takes as the kernel: bytes of a bytecode file, a Module, or a Kernel
Source = Union[bytes, bytearray, memoryview, Module, Any]


def module_of(data_or_module: Source) -> tuple[Module, Any]:
    """The Module to run and the recorded Kernel it came from (``None`` for bytes or a
    bare Module)."""
    if isinstance(data_or_module, Module):
        return data_or_module, None
    if isinstance(data_or_module, (bytes, bytearray, memoryview)):
        return decode(bytes(data_or_module)), None
    module = getattr(data_or_module, "module", None)
    if isinstance(module, Module):  # a recorded Kernel
        return module, data_or_module
    raise UsageError(
        f"run_bytecode takes bytecode (bytes), a Module or a Kernel, got "
        f"{type(data_or_module).__name__}",
        op="run_bytecode",
    )


def entry_of(module: Module, entry: Optional[str]) -> Function:
    """The entry ``entry`` names, or the module's only one when ``entry`` is None."""
    names = [f.name for f in module.functions]
    if entry is None:
        if len(names) != 1:
            raise LaunchError(
                f"the module has {len(names)} entries ({', '.join(names) or 'none'}): "
                f"name one (entry=... / --entry NAME)",
                op="run_bytecode",
                kind="bytecode.entry",
            )
        return module.functions[0]
    if entry not in names:
        raise LaunchError(
            f"the module has no entry `{entry}` (it has {', '.join(names) or 'none'})",
            op="run_bytecode",
            kind="bytecode.entry",
        )
    return module.function(entry)


@attrs.frozen(eq=False)
class BytecodeRun:
    """A finished launch: the arguments after it (arrays in their given shapes), the
    indices of the array arguments the kernel wrote, the entry's name, the grid, and the
    element format of each array argument (by argument index)."""

    outputs: list[Any]
    written: tuple[int, ...]
    entry: str
    grid: tuple[int, ...]
    formats: dict[int, Format]


def _grid_of(grid: Optional[GridLike], binding: Binding, entry: str) -> GridLike:
    if grid is not None:
        return grid
    if binding.grid is not None:
        return binding.grid
    raise LaunchError(
        "a launch of bytecode needs its grid (grid=(x, y, z) / --grid X[,Y[,Z]])",
        kernel=entry,
        op="run_bytecode",
        kind="bytecode.grid",
    )


def launch_bytecode(
    data_or_module: Source,
    args: Sequence[Any],
    grid: Optional[GridLike] = None,
    *,
    entry: Optional[str] = None,
    convention: Union[str, Convention] = "raw",
    observer: object = None,
    limits: Limits = DEFAULT_LIMITS,
) -> BytecodeRun:
    """:func:`run_bytecode` without a reference, answering a :class:`BytecodeRun` (which
    arrays were written, the grid); a fault of the kernel raises its InterpretError."""
    module, kernel = module_of(data_or_module)
    fn = entry_of(module, entry)
    chosen = convention_of(convention)
    try:
        binding = chosen.bind(fn.params, args, kernel, grid)
    except LaunchError as err:  # the convention knows the parameters, not the entry's name
        raise err.with_context(kernel=fn.name) from None
    launch_grid = _grid_of(grid, binding, fn.name)
    run = execute(module, fn.name, binding.values, launch_grid, observer=observer, limits=limits)
    if run.error is not None:
        raise run.error
    outputs = list(args)
    written = []
    formats: dict[int, Format] = {}
    for a in binding.arrays:
        if a.format is not None:
            formats[a.index] = a.format
        given, after = binding.values[a.param], run.outputs[a.param]
        outputs[a.index] = a.read(after)
        if not np.may_share_memory(after, given):  # an unwritten buffer comes back as a view
            written.append(a.index)
    shape = tuple(int(n) for n in np.atleast_1d(np.asarray(launch_grid)).reshape(-1))
    return BytecodeRun(outputs, tuple(written), fn.name, shape, formats)


def _compare(
    run: BytecodeRun, args: Sequence[Any], expected: list, tolerance: KernelTolerance
) -> None:
    name, got = run.entry, run.outputs
    if len(expected) != len(args):
        raise LaunchError(
            f"the reference returned {len(expected)} value(s) for {len(args)} argument(s)",
            kernel=name,
            op="reference",
            kind="fake.reference_shape",
        )
    for i, (a, g, e) in enumerate(zip(args, got, expected)):
        fmt = run.formats.get(i)
        if fmt is None:  # a number: nothing to compare
            continue
        tol = None
        if fmt.is_float:
            tol = default_tolerance(fmt) if tolerance == PER_FORMAT else tolerance
        want = np.asarray(e).astype(a.dtype, copy=False)
        if want.shape != g.shape and want.size == g.size:
            want = want.reshape(g.shape)
        diff = first_difference(g, want, tol, fmt)
        if diff is not None:
            where = np.unravel_index(diff.index, g.shape) if want.shape == g.shape else ()
            at = f"element {list(map(int, where))}" if len(where) > 1 else f"element {diff.index}"
            tol_text = "bit-exact" if tol is None else str(tol)
            raise MismatchError(
                f"argument {i} (array) differs from the reference at {at}: the kernel gives "
                f"{diff.got!r} and the reference {diff.expected!r} ({tol_text}); "
                f"{diff.count} element(s) differ",
                kernel=name,
                op="compare",
                kind="fake.mismatch",
            )


def run_bytecode(
    data_or_module: Source,
    args: Sequence[Any],
    grid: Optional[GridLike] = None,
    *,
    entry: Optional[str] = None,
    convention: Union[str, Convention] = "raw",
    reference: Optional[Callable[[list], Sequence[Any]]] = None,
    tolerance: KernelTolerance = PER_FORMAT,
    observer: object = None,
    limits: Limits = DEFAULT_LIMITS,
) -> list[Any]:
    """Run bytecode from any producer (or a Module, or a recorded Kernel) on the fake
    device; the arguments after the launch, each array in its given shape and dtype.

    ``args`` are numpy arrays (array arguments) and numbers (scalars), spread over the
    entry's parameters by ``convention`` (a name in
    :data:`tileir.host.conventions.CONVENTIONS` or a :class:`Convention`); the caller's
    arrays are never modified.  ``entry`` may be left out when the module has one entry;
    ``grid`` (``x``, ``(x, y)`` or ``(x, y, z)``) may be left out only under the ``tileir``
    convention, which reads it off the kernel's cells.

    ``reference`` (a function of the argument list returning it after the launch, as a
    recorded kernel's reference) runs too, on copies, and every array is compared with
    the interpreter's: a difference raises :class:`~tileir.errors.MismatchError` naming
    the argument, the element and both values.  ``tolerance`` is for float arrays: the
    fake device's default per format (``"per_format"``, the default), a
    :class:`~tileir.host.tolerance.Tolerance`, or ``None`` for bit-exact.

    Raises :class:`~tileir.errors.DecodeError` for bytes that are not bytecode,
    :class:`~tileir.errors.LaunchError` for arguments the entry cannot take, and
    :class:`~tileir.errors.InterpretError` for a fault of the kernel.
    """
    run = launch_bytecode(
        data_or_module,
        args,
        grid,
        entry=entry,
        convention=convention,
        observer=observer,
        limits=limits,
    )
    if reference is not None:
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        expected = list(reference(copies))
        _compare(run, args, expected, tolerance)
    return run.outputs
