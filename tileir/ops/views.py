"""Other views of a parameter, addresses, scratch buffers and module globals.

* views of a parameter's whole tensor (its cells' extent): ``load_window`` (a strided
  view: windows that may overlap or skip), ``gather`` / ``scatter`` (a gather-scatter view:
  one dimension indexed by a tile of element indices), ``atomic_cell`` (a reduction into a
  cell of a Shared), and the shape queries ``extent`` / ``cells_along``;
* addresses: ``address(p)`` (a parameter's base pointer), ``offset``, ``scratch`` (a
  per-block buffer, ``alloca``), ``global_constant`` / ``global_array`` (module-level
  arrays, ``get_global``).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from tileir.ir.attr_rules import check_atomic
from tileir.ir.module import Global
from tileir.ir.numerics import dense_of
from tileir.ops.conversions import ptr_attr_of
from tileir.ops.memory import (
    WEAK_ACCESS,
    access,
    cell_index,
    global_pointer,
    needs_cells,
    param_of,
)
from tileir.ops.multimem import inbounds_flags
from tileir.ops.shape import broadcast, check_shape, index_tile
from tileir.record.builder import Effect, Emit
from tileir.record.markers import Param
from tileir.record.program import Alloca, AtomicCell, Load, Sparse, Store, Window
from tileir.record.source import user_loc
from tileir.record.tile import Tile, TileLike, as_tile, constant, refuse, widen_pair
from tileir.shape_rules import RuleError, check_write
from tileir.types import (
    I32,
    Format,
    PointerType,
    TileType,
    canonical_pointer_type,
    canonical_tile_type,
    format_of_dtype,
)

__all__ = [
    "load_window",
    "gather",
    "scatter",
    "atomic_cell",
    "extent",
    "cells_along",
    "address",
    "offset",
    "scratch",
    "global_constant",
    "global_array",
    "global_pointer",
]

Index = Union[int, Tile]
#: One entry of a gather / scatter index: the sparse dimension's 1-D tile of element indices,
#: or a ``(start, length)`` element range.
SparseEntry = Union[Tile, tuple[Index, int], list[Any]]


# ----------------------------------------------------------------------------- strided view


def load_window(
    p: Param, index: Sequence[Index], shape: Sequence[int], step: Sequence[int], **options: Any
) -> Effect:
    """Read the window of ``shape`` whose index along dimension ``d`` is ``index[d]`` and
    which starts at element ``index[d] * step[d]`` of ``p``'s tensor (yield it) (a
    ``strided_view``: windows overlap where ``step < shape``).  Lanes past the extent read the
    cells' padding."""
    p = param_of(p, "load_window")
    c = needs_cells(p, "load_window")
    shape, step = tuple(shape), tuple(int(s) for s in step)
    check_shape(shape, "make_strided_view")
    if len(shape) != c.rank or len(step) != c.rank or any(s < 1 for s in step):
        raise refuse(
            "make_strided_view",
            f"a window needs {c.rank} sizes and {c.rank} positive "
            f"steps for {p.describe()} (extent {list(c.extent)}); got {list(shape)} and "
            f"{list(step)}",
            user_loc(),
        )
    idx = _indices(index, c.rank, "load_window")
    acc = access("load", "load_window", n_index=len(idx), **options) if options else WEAK_ACCESS
    ttype = TileType(shape, p.format)
    return Emit(
        "load_view_tko",
        Load(-1, p.index, Window(c, shape, step), idx, ttype, user_loc(), acc),
        ttype,
        user_loc(),
    )


def _indices(index: Sequence[Index], rank: int, op: str) -> tuple[Tile, ...]:
    index = list(index)
    if len(index) != rank:
        raise refuse(op, f"{len(index)} indices for a rank-{rank} tensor", user_loc())
    return tuple(index_tile(i, op) for i in index)


# ----------------------------------------------------------------------------- gather, scatter


def _sparse(
    p: Param, index: Sequence[SparseEntry], op: str
) -> tuple[Sparse, tuple[Tile, ...], tuple[int, ...]]:
    """The view and index operands of a gather / scatter: one 1-D integer tile (the sparse
    dimension's element indices) and ``(start, length)`` pairs for the others."""
    c = needs_cells(p, op)
    index = list(index)
    if c.rank < 2 or len(index) != c.rank:
        raise refuse(
            op,
            f"a gather / scatter indexes a tensor of rank 2 or more with one entry "
            f"per dimension; {p.describe()} has extent {list(c.extent)} and "
            f"{len(index)} entries were given",
            user_loc(),
        )
    sparse = [d for d, i in enumerate(index) if isinstance(i, Tile) and i.rank == 1]
    if len(sparse) != 1:
        raise refuse(
            op,
            "exactly one entry is a 1-D integer tile of element indices (the "
            "sparse dimension); the others are (start, length) pairs",
            user_loc(),
        )
    sd = sparse[0]
    tile: list[int] = []
    operands: list[Tile] = []
    for d, entry in enumerate(index):
        if d == sd:
            assert isinstance(entry, Tile)  # the sparse entry, found above
            if not isinstance(entry.format, Format) or not entry.format.is_int:
                raise refuse(op, f"indices are integers, got {entry.type}", user_loc())
            rows = entry if entry.format == I32 else entry.to(I32)
            tile.append(entry.shape[0])
            operands.append(rows)
            continue
        if not isinstance(entry, (tuple, list)) or len(entry) != 2:
            raise refuse(
                op, f"entry {d} must be a (start, length) pair, got {entry!r}", user_loc()
            )
        start, length = entry
        tile.append(int(length))
        operands.append(index_tile(start, op))
    check_shape(tile, "make_gather_scatter_view")
    return Sparse(c, tuple(tile), sd), tuple(operands), tuple(tile)


def gather(p: Param, index: Sequence[SparseEntry], **options: Any) -> Effect:
    """Read the rows ``index`` picks (yield it): one entry per dimension of ``p``'s tensor,
    exactly one a 1-D integer tile of element indices along that dimension, the others
    ``(start, length)`` element ranges (a ``gather_scatter_view``).  Lanes past the extent
    read the cells' padding."""
    p = param_of(p, "gather")
    view, idx, tile = _sparse(p, index, "gather")
    acc = access("load", "gather", n_index=len(idx), **options) if options else WEAK_ACCESS
    ttype = TileType(tile, p.format)
    return Emit(
        "load_view_tko", Load(-1, p.index, view, idx, ttype, user_loc(), acc), ttype, user_loc()
    )


def scatter(p: Param, index: Sequence[SparseEntry], value: TileLike, **options: Any) -> Effect:
    """Write ``value`` to the rows ``index`` picks (as in :func:`gather`) of the Shared ``p``
    (yield it); rows past the extent are not written."""
    p = param_of(p, "scatter")
    try:
        check_write(p, "pointer")
    except RuleError as err:
        raise refuse("scatter", str(err)) from None
    view, idx, tile = _sparse(p, index, "scatter")
    value = as_tile(value, None, "scatter")
    if value.format != p.format:
        raise refuse(
            "scatter", f"value is {value.type} and {p.describe()} holds {p.format}", user_loc()
        )
    if value.shape != tile:
        value = broadcast(value, tile)
    acc = access("store", "scatter", n_index=len(idx), **options) if options else WEAK_ACCESS
    return Emit(
        "store_view_tko", Store(p.index, view, idx, value, user_loc(), acc), None, user_loc()
    )


# ----------------------------------------------------------------------------- atomic_cell


def atomic_cell(
    mode: str,
    p: Param,
    value: TileLike,
    index: Sequence[Index] = (),
    *,
    scope: str = "device",
    inbounds: Union[bool, Sequence[bool], None] = None,
) -> Effect:
    """Combine ``value`` into this block's cell of the Shared ``p`` (its FREE_AXIS dimensions
    picked by ``index``) with ``mode`` (add, addf, and, or, xor, max, min, umax, umin),
    atomically element by element (``atomic_red_view_tko``, 13.3) (yield it).  ``inbounds``
    (True, or one bool per dimension) promises the cell lies inside the extent there
    (bytecode 13.5)."""
    op = "atomic_red_view_tko"
    p = param_of(p, op)
    try:
        check_write(p, "atomic")
        check_atomic(op, mode, p.format, "relaxed", scope)
    except RuleError as err:
        raise refuse(op, str(err), user_loc()) from None
    c = needs_cells(p, op)
    value = as_tile(value, constant(0, p.format), op)
    if value.format != p.format:
        raise refuse(op, f"value is {value.type} and {p.describe()} holds {p.format}", user_loc())
    if value.shape != c.tile:
        value = broadcast(value, c.tile)
    idx = cell_index(p, index, op)
    flags = inbounds_flags(inbounds, len(idx), op)
    ins = AtomicCell(p.index, c, idx, value, mode, scope, user_loc(), flags)
    return Emit(op, ins, None, user_loc())


# ----------------------------------------------------------------------------- shape queries


def _shape_query(op: str, p: Param, dim: int) -> Tile:
    p = param_of(p, op)
    c = needs_cells(p, op)
    if not isinstance(dim, int) or not -c.rank <= dim < c.rank:
        raise refuse(
            op, f"dim {dim!r} is outside the rank-{c.rank} tensor of {p.describe()}", user_loc()
        )
    return Tile(
        op,
        (),
        {"param": p.index, "cells": c, "dim": dim % c.rank},
        canonical_tile_type((), I32),
        user_loc(),
    )


def extent(p: Param, dim: int) -> Tile:
    """The length of ``p``'s tensor along ``dim`` as a ``tile<i32>`` (``get_tensor_shape``;
    with a DYN_DIM extent, the length given at launch)."""
    return _shape_query("get_tensor_shape", p, dim)


def cells_along(p: Param, dim: int) -> Tile:
    """How many cells ``p`` has along ``dim``, as a ``tile<i32>`` (``get_index_space_shape``)."""
    return _shape_query("get_index_space_shape", p, dim)


# ----------------------------------------------------------------------------- addresses


def address(p: Param) -> Tile:
    """The base address of a buffer parameter: a rank-0 tile of pointers.  Writes through it
    follow the parameter's role (an In is never written, an Out only through its cells)."""
    p = param_of(p, "address")
    if p.role == "Scalar":
        raise refuse("address", f"{p.describe()} is a value, not a buffer", user_loc())
    return Tile(
        "ptr_param",
        (),
        {"index": p.index, "param": p},
        canonical_tile_type((), p.pointer),
        user_loc(),
    )


def offset(ptrs: Tile, offsets: TileLike) -> Tile:
    """``ptrs`` moved by ``offsets`` elements (a rank-0 base widens to the offsets' shape)
    (``offset``)."""
    if not isinstance(ptrs, Tile) or not isinstance(ptrs.format, PointerType):
        raise refuse(
            "offset",
            f"expected a tile of pointers, got {getattr(ptrs, 'type', ptrs)!r}",
            user_loc(),
        )
    offs = as_tile(offsets, None, "offset")
    if not isinstance(offs.format, Format) or not offs.format.is_int:
        raise refuse("offset", f"offsets must be an integer tile, got {offs.type}", user_loc())
    ptrs, offs = widen_pair("offset", ptrs, offs)
    return Tile("offset", (ptrs, offs), {}, ptrs.type, user_loc())


def scratch(
    fmt: Format,
    count: int,
    *,
    alignment: int = 16,
    global_memory: bool = False,
    ptr_attr: Optional[str] = None,
) -> Effect:
    """A scratch buffer of ``count`` elements of ``fmt`` for this block (``alloca``, 13.3)
    (yield it): answers its address, a rank-0 tile of pointers for the pointer path.
    ``global_memory`` places it in global memory; ``ptr_attr`` gives the address 13.4's
    pointer attribute (``"none"``)."""
    if not isinstance(fmt, Format) or fmt.name == "i4":
        raise refuse("alloca", f"a scratch buffer holds numbers (not i4), got {fmt!r}", user_loc())
    if not isinstance(count, int) or count < 1:
        raise refuse("alloca", f"count {count!r} must be a positive int", user_loc())
    if not isinstance(alignment, int) or alignment < 1 or alignment & (alignment - 1):
        raise refuse("alloca", f"alignment {alignment!r} must be a power of two", user_loc())
    attr = ptr_attr_of(ptr_attr, "alloca")
    ttype = canonical_tile_type((), canonical_pointer_type(fmt, attr))
    return Emit(
        "alloca",
        Alloca(-1, fmt, count, alignment, bool(global_memory), user_loc(), attr),
        ttype,
        user_loc(),
    )


def _global(
    name: str,
    values: npt.ArrayLike,
    fmt: Optional[Format],
    constant: bool,
    private: bool,
    alignment: int,
) -> Global:
    if not isinstance(name, str) or not name.isidentifier():
        raise refuse("global", f"a global's name is an identifier, got {name!r}", user_loc())
    arr = np.asarray(values)
    if arr.ndim != 1 or arr.size < 1:
        raise refuse(
            "global",
            f"@{name}: a global holds a non-empty rank-1 array, got shape {arr.shape}",
            user_loc(),
        )
    check_shape(arr.shape, "global")
    if fmt is None:
        fmt = format_of_dtype(arr.dtype)
    if not isinstance(alignment, int) or alignment < 1 or alignment & (alignment - 1):
        raise refuse(
            "global", f"@{name}: alignment {alignment!r} must be a power of two", user_loc()
        )
    value = dense_of(TileType((arr.size,), fmt), arr)
    return Global(name, value, alignment, constant, "private" if private else "public")


def global_constant(
    name: str,
    values: npt.ArrayLike,
    fmt: Optional[Format] = None,
    *,
    private: bool = False,
    alignment: int = 16,
) -> Global:
    """A module-level constant array ``@name`` (13.3) holding ``values`` (rank 1, in ``fmt``
    or the array's own format).  Read it with ``load(table, offsets=...)`` in any kernel."""
    return _global(name, values, fmt, True, private, alignment)


def global_array(
    name: str,
    values: npt.ArrayLike,
    fmt: Optional[Format] = None,
    *,
    private: bool = False,
    alignment: int = 16,
) -> Global:
    """A module-level array ``@name`` that kernels may also write (``store`` / atomics)."""
    return _global(name, values, fmt, False, private, alignment)
