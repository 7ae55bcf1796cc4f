"""From a recorded kernel and host arrays to what the interpreter's entry takes.

The launch is checked exactly as a device checks it (:func:`tileir.host.launch.check_launch`:
buffer lengths, formats, grid against the Out's cells), then the arguments are
put in calling-convention order: one 1-D array of the marker's host dtype per
buffer parameter, the Scalars, then the value of each ``DYN_DIM`` extent.

The debuggers run a checked kernel's *unchecked* lowering (the same recording,
``checked=False``): a pointer-path guard would stop the launch at its ``assert``,
while the debuggers' job is to say where the access lands (past the end, in another
argument's buffer), which only the unguarded access shows.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import attrs
import numpy as np
import numpy.typing as npt

from tileir.debug.runner import grid3
from tileir.host.launch import ArgInfo, check_launch, entry_values
from tileir.ir.module import Module
from tileir.kernel import Kernel
from tileir.lower import lowering
from tileir.lower.guards import pointer_accesses
from tileir.record.markers import Param

__all__ = ["Prepared", "prepare", "Target"]

#: What the debuggers launch: a recorded Kernel, or a bare Module (its entry's arguments
#: given as they are, and a grid).
Target = Union[Kernel, Module]


@attrs.frozen(eq=False)
class Prepared:
    """A launch ready for the debug driver: module, entry name, entry arguments, 3-D grid,
    and the kernel's parameters (their markers; empty for a bare Module)."""

    module: Module
    entry: str
    args: list[Any]
    grid: tuple[int, ...]
    params: tuple[Param, ...] = ()
    #: how many GPUs the launch stands for: the replicas a multicast buffer holds (13.5)
    devices: int = 1


def _host_array(a: Any, dtype: npt.DTypeLike) -> np.ndarray:
    if isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype == dtype:
        return a  # keep identity: an array passed twice is one buffer
    return np.ascontiguousarray(np.asarray(a).reshape(-1).astype(dtype))


def prepare(
    kernel: Target,
    args: Sequence[Any],
    grid: Optional[Sequence[int]] = None,
    *,
    entry: Optional[str] = None,
) -> Prepared:
    """Check a launch of ``kernel`` (a recorded Kernel, or a Module with ``entry``) on
    ``args`` and answer what the driver runs.  A bare Module takes entry arguments as they
    are and needs ``grid``."""
    if isinstance(kernel, Module):
        if grid is None:
            raise ValueError("a bare Module has no cells to make the grid: give grid=")
        name = entry or kernel.functions[0].name
        return Prepared(kernel, name, list(args), grid3(grid), ())
    if kernel.program.checked and any(pointer_accesses(kernel.program)):
        unchecked = attrs.evolve(kernel.program, checked=False)
        kernel = Kernel(unchecked, lowering.lower(unchecked), kernel.reference, kernel.tolerance)
    params = kernel.params
    values: list[Any] = []
    infos: list[ArgInfo] = []
    for p, a in zip(params, args):
        if p.role == "Scalar":
            values.append(a)
            infos.append(ArgInfo(value=a, is_buffer=False))
            continue
        arr = _host_array(a, p.format.numpy_dtype)
        start = arr.__array_interface__["data"][0]
        values.append(arr)
        infos.append(ArgInfo(p.format, arr.size, (start, start + max(1, arr.nbytes))))
    if len(args) != len(params):
        infos += [ArgInfo(value=a, is_buffer=False) for a in args[len(params) :]]
    plan = check_launch(kernel, infos, grid)
    return Prepared(
        kernel.module,
        kernel.name,
        entry_values(kernel, plan, values),
        tuple(plan.grid),
        tuple(params),
        _replicas(params, values),
    )


def _replicas(params: Sequence[Param], values: Sequence[Any]) -> int:
    """The devices a launch stands for, read off its multicast buffers: each holds one
    replica of its extent per device, back to back (``FakeDevice.alloc_multicast``); 1 when
    the kernel has none (or only ones whose extent is left to the launch)."""
    for p, v in zip(params, values):
        if getattr(p.marker, "ptr_attr", None) != "multicast" or not isinstance(v, np.ndarray):
            continue
        extent = getattr(p.cells, "extent", ())
        if extent and all(isinstance(e, int) for e in extent):
            per_replica = int(np.prod(extent))
            if per_replica and v.size % per_replica == 0 and v.size >= per_replica:
                return v.size // per_replica
    return 1
