"""Launch checks, shared by every device: a launch is checked before anything runs it.

:func:`check_launch` holds each argument against its marker and the grid: a
buffer must reach the end of its cells' extent, hold the marker's format, and
no Out may share memory with another argument; the grid must agree with the
Out's cells (or be given, when the cells leave it open).  A refusal is a
:class:`~tileir.errors.LaunchError` whose ``kind`` says which rule, and whose
message names the kernel, the argument and the numbers.

Arguments are described by :class:`ArgInfo` (a format, a length in elements
and the byte span they occupy) so the same checks serve host arrays on the
fake device and device pointers on a GPU.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Optional, Sequence

import attrs

from tileir.errors import LaunchError
from tileir.host.widths import I32_MAX, check_i32, scalar_value
from tileir.record.convention import dyn_extents, entry_arguments
from tileir.types import Format

if TYPE_CHECKING:
    from tileir.kernel import Kernel

__all__ = ["ArgInfo", "LaunchPlan", "check_launch", "MAX_GRID", "block_of_element", "entry_values"]

#: The largest grid dimension a launch may have (cuTile refuses larger; the hardware's limit).
MAX_GRID = (1 << 24) - 1


@attrs.frozen
class ArgInfo:
    """A launch argument as the checks see it: a buffer (``format``, ``length`` elements,
    byte ``span`` it occupies) or a scalar (``value``)."""

    format: Optional[Format] = None
    length: int = 0
    span: tuple[int, int] = (0, 0)
    value: object = None
    is_buffer: bool = True


@attrs.frozen
class LaunchPlan:
    """What a checked launch runs: the 3-D grid and the value of every DYN_DIM extent."""

    grid: tuple[int, ...]
    #: ``((param, dim), value)`` pairs, in entry-parameter order
    extents: tuple[tuple[tuple[int, int], int], ...]
    #: ``(param, value)`` of every Scalar, as :func:`tileir.host.widths.scalar_value` took it
    scalars: tuple[tuple[int, object], ...] = ()
    #: the element count of every guarded buffer (:attr:`tileir.Kernel.guarded`), read off
    #: its allocation, in entry-parameter order
    counts: tuple[int, ...] = ()


def _fail(kind: str, kernel: str, message: str) -> LaunchError:
    return LaunchError(message, kernel=kernel, op="launch", kind=kind)


def _grid3(grid: Sequence[int]) -> tuple[int, ...]:
    g = tuple(int(x) for x in grid)
    return g + (1,) * (3 - len(g))


def _grid_sequence(name: str, grid: Any) -> Sequence[int]:
    """The grid as a sequence of block counts: an int is a 1-D grid, any other iterable
    (a list, a tuple, a numpy array) is read as one; anything else is refused with its
    value."""
    if isinstance(grid, int) and not isinstance(grid, bool):
        return (grid,)
    if hasattr(grid, "__index__") and not isinstance(grid, bool):  # a numpy integer
        try:
            return (operator.index(grid),)
        except TypeError:
            pass  # a numpy array of several counts has __index__ too: read it as a sequence
    if isinstance(grid, (str, bytes)) or not isinstance(grid, Sequence):
        try:
            return tuple(grid)
        except TypeError:
            raise _fail(
                "launch.grid",
                name,
                f"grid={grid!r}: a grid is a number of blocks (grid=8) or one to three of "
                f"them (grid=(8, 4))",
            ) from None
    return grid


def _resolve_grid(kernel: Kernel, grid: Optional[Sequence[int]]) -> tuple[int, ...]:
    name = kernel.name
    declared = kernel.grid
    if grid is not None:
        grid = _grid_sequence(name, grid)
        if len(grid) == 0 or len(grid) > 3:
            raise _fail("launch.grid", name, f"a grid has 1 to 3 dimensions, got {list(grid)}")
        for axis, n in enumerate(grid):
            if not isinstance(n, (int,)) and not hasattr(n, "__index__"):
                raise _fail("launch.grid", name, f"grid {list(grid)} holds {n!r} on axis {axis}")
            if not 1 <= int(n) <= MAX_GRID:
                raise _fail(
                    "launch.grid",
                    name,
                    f"grid {list(grid)} has {n} block(s) on axis "
                    f"{axis}; each axis has 1 to {MAX_GRID}",
                )
    if declared is None:
        if grid is None:
            raise _fail(
                "launch.no_grid",
                name,
                "the kernel has no Out, so its cells do not make "
                "the grid: give one, e.g. grid=[8]",
            )
        return _grid3(grid)
    if any(n is None for n in declared):
        if grid is None:
            raise _fail(
                "launch.no_grid",
                name,
                f"the Out's cells have a DYN_DIM extent, so the "
                f"grid {['?' if n is None else n for n in declared]} is the caller's: give "
                f"one, e.g. grid=[8]",
            )
        g = _grid3(grid)
        for axis, count in enumerate(declared):
            if count is not None and g[axis] != count:
                raise _fail(
                    "launch.grid",
                    name,
                    f"the grid has {g[axis]} block(s) on axis {axis} and the Out's cells "
                    f"make {count}",
                )
        return g
    g = _grid3([n for n in declared if n is not None])  # (every count is known here)
    if grid is not None and _grid3(grid) != g:
        raise _fail(
            "launch.grid",
            name,
            f"the grid is {list(grid)} and the Out's cells make {list(declared)}",
        )
    return g


def _extents(
    kernel: Kernel, grid: tuple[int, ...], infos: Sequence[ArgInfo]
) -> dict[tuple[int, int], int]:
    """The value of every DYN_DIM extent: whole cells along the grid, or the buffer's length
    along a FREE_AXIS dimension."""
    out: dict[tuple[int, int], int] = {}
    for index, d in dyn_extents(kernel.params):
        c = kernel.params[index].cells
        assert c is not None  # (dyn_extents names parameters with cells)
        axis = c.along[d]
        if isinstance(axis, int):  # (not FREE_AXIS)
            out[(index, d)] = grid[axis] * c.tile[d]
            continue
        others = 1
        for e_d, e in enumerate(c.extent):
            if e_d != d:
                if not isinstance(e, int):  # DYN_DIM
                    raise _fail(
                        "launch.extent",
                        kernel.name,
                        f"argument {index} has several DYN_DIM extents, one along "
                        f"FREE_AXIS; its length cannot be read off the buffer",
                    )
                others *= e
        out[(index, d)] = max(1, infos[index].length // others)
    return out


def check_launch(
    kernel: Kernel, infos: Sequence[ArgInfo], grid: Optional[Sequence[int]] = None
) -> LaunchPlan:
    """Check a launch of ``kernel`` with arguments described by ``infos``; the plan, or a
    LaunchError."""
    name = kernel.name
    params = kernel.params
    if len(infos) != len(params):
        raise _fail(
            "launch.arity",
            name,
            f"the kernel takes {len(params)} argument(s) "
            f"({', '.join(p.role for p in params)}) and {len(infos)} were given",
        )
    g = _resolve_grid(kernel, grid)
    scalars: list[tuple[int, object]] = []
    for p, info in zip(params, infos):
        if p.role == "Scalar":
            if info.is_buffer:
                raise _fail(
                    "launch.scalar",
                    name,
                    f"argument {p.index} (Scalar) is a {p.format} value, and a buffer was given",
                )
            where = f"argument {p.index} (Scalar)"
            scalars.append((p.index, scalar_value(p.format, info.value, where=where, kernel=name)))
            continue
        if not info.is_buffer:
            raise _fail(
                "launch.buffer",
                name,
                f"argument {p.index} ({p.role}) is a buffer of "
                f"{p.format}, and {info.value!r} was given",
            )
        if info.format != p.format:
            raise _fail(
                "launch.format",
                name,
                f"argument {p.index} ({p.role}) holds "
                f"{info.format} and the kernel's marker says {p.format}",
            )
    extents = _extents(kernel, g, infos)
    _check_widths(kernel, extents)
    for p, info in zip(params, infos):
        if p.cells is None:
            continue
        reach = 1
        for d, e in enumerate(p.cells.extent):
            reach *= e if isinstance(e, int) else extents[(p.index, d)]  # (else DYN_DIM)
        if info.length < reach:
            what = "every cell" if p.cells.dynamic else "its cells"
            raise _fail(
                "launch.short_buffer",
                name,
                f"argument {p.index} ({p.role}) holds "
                f"{info.length} element(s) and {what} reach {reach}",
            )
    for p, info in zip(params, infos):
        if p.role != "Out":
            continue
        for q, other in zip(params, infos):
            if q.index == p.index or not other.is_buffer:
                continue
            if info.span[0] < other.span[1] and other.span[0] < info.span[1]:
                raise _fail(
                    "launch.aliased_out",
                    name,
                    f"argument {p.index} (Out) shares its "
                    f"buffer with argument {q.index} ({q.role}); an Out is written by "
                    f"its blocks alone",
                )
    guarded = tuple(getattr(kernel, "guarded", ()))
    for index, need, where in getattr(kernel, "static_reach", ()):
        have = infos[index].length
        if have < need:
            raise _fail(
                "launch.pointer_bounds",
                name,
                f"argument {index} ({params[index].role}) holds {have} element(s), and "
                f"{where} addresses element {need - 1} of it",
            )
    ordered = tuple((key, extents[key]) for key in dyn_extents(params))
    counts = tuple(infos[i].length for i in guarded)
    return LaunchPlan(g, ordered, tuple(scalars), counts)


def _check_widths(kernel: Kernel, extents: dict[tuple[int, int], int]) -> None:
    """Every DYN_DIM extent fits the entry's ``tile<i32>``, and so does every stride the
    kernel computes from them.

    The lowering (:meth:`tileir.lower.addressing.Addressing._strides`) makes a tensor
    view's strides row-major: the stride of dimension ``d`` is the product of the
    extents after it, and once one of those is a DYN_DIM the products are ``muli`` of
    i32 values in the kernel, which wrap silently.  Each such product (extents ``k..``
    for ``k >= 1``, the stride of dimension ``k - 1``) must fit, or the view would
    address memory far from the buffer.  (The product over every extent, the element
    count, is no stride: the buffer check bounds it.)
    """
    for (index, d), value in extents.items():
        check_i32(
            value,
            what=f"argument {index}'s DYN_DIM extent of dimension {d}",
            kernel=kernel.name,
        )
    for p in kernel.params:
        c = p.cells
        if c is None or all(isinstance(e, int) for e in c.extent):
            continue
        shape = [
            e if isinstance(e, int) else extents[(p.index, d)] for d, e in enumerate(c.extent)
        ]
        dynamic = [not isinstance(e, int) for e in c.extent]
        for k in range(len(shape) - 1, 0, -1):
            if not any(dynamic[k:]):
                continue
            stride = 1
            for n in shape[k:]:
                stride *= n
            if stride > I32_MAX:
                factors = " x ".join(str(n) for n in shape[k:])
                raise _fail(
                    "launch.i32",
                    kernel.name,
                    f"argument {p.index} ({p.role}): the stride of dimension {k - 1} is "
                    f"{factors} = {stride} elements, which the kernel computes in i32 "
                    f"(at most {I32_MAX}); split the buffer or fix the extents that follow "
                    f"the DYN_DIM",
                )


def entry_values(kernel: Kernel, plan: LaunchPlan, args: Sequence[Any]) -> list[Any]:
    """The entry's arguments in calling-convention order (:mod:`tileir.record.convention`),
    each Scalar as the launch checks took it."""
    values = list(args)
    for index, value in plan.scalars:
        values[index] = value
    return entry_arguments(values, [value for _key, value in plan.extents], plan.counts)


def block_of_element(
    kernel: Kernel, index: int, element: int, grid: Sequence[int]
) -> Optional[tuple[int, ...]]:
    """The block that owns ``element`` of argument ``index`` through its cells (None when the
    argument has no cells, or the element is not in any cell a block reaches)."""
    c = kernel.params[index].cells
    if c is None:
        return None
    extents = [e if isinstance(e, int) else None for e in c.extent]  # (None: DYN_DIM)
    coords: list[int] = []
    rest = element
    for d in reversed(range(len(extents))):
        n = extents[d] if extents[d] is not None else None
        if n is None:
            coords.append(rest)
            rest = 0
        else:
            coords.append(rest % n)
            rest //= n
    coords.reverse()
    block = [0, 0, 0]
    for d, axis in enumerate(c.along):
        if isinstance(axis, int):  # (not FREE_AXIS)
            block[axis] = coords[d] // c.tile[d]
    return tuple(block[: max(1, len(grid))])
