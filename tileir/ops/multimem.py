"""The multimem operations (Tile IR 13.5): one access of a cell on every replica of a
multicast buffer.

A buffer marked ``ptr_attr="multicast"`` stands for the copies of one allocation that a
multicast object maps on each GPU of an NVSwitch fabric (docs/dialect.md §1.13).  Its cells
are read and written only through these three operations (the 13.5 verifier refuses the
other memory ops on a multicast pointer):

* ``load_reduce_cell(p, ...)``: the elementwise ``reduction`` of this block's cell over
  every replica (``multimem_load_reduce_view_tko``);
* ``reduce_cell(p, value, ...)``: ``value`` reduced into this block's cell of each replica,
  atomically (``multimem_reduce_view_tko``); ``p`` is a Shared with cells;
* ``store_cell_all(p, value, ...)``: ``value`` written to this block's cell of every
  replica (``multimem_store_view_tko``); ``p`` is an Out.

Each takes the cell's FREE_AXIS indices, ``ordering`` and ``scope`` (a scope exactly when
the ordering is not weak), ``inbounds`` (True, or one bool per dimension: a promise that
the cell lies inside the extent there) and, for the first two, ``reduction`` (``add``,
``min``, ``max``, ``and``, ``or``, ``xor``, ``umin``, ``umax``).  Refusals follow the 13.5
verifier (:func:`tileir.ir.attr_rules.check_multimem`).
"""

from __future__ import annotations

from typing import Optional, Sequence, Union

from tileir.ir.attr_rules import check_multimem
from tileir.ops.memory import cell_index, needs_cells, param_of
from tileir.ops.shape import broadcast
from tileir.record.builder import Effect, Emit
from tileir.record.markers import Param
from tileir.record.program import Multimem
from tileir.record.source import user_loc
from tileir.record.tile import Tile, TileLike, as_tile, refuse
from tileir.shape_rules import RuleError, check_write
from tileir.types import TileType

__all__ = ["load_reduce_cell", "reduce_cell", "store_cell_all", "inbounds_flags"]

Index = Union[int, Tile]

_LOAD_REDUCE = "multimem_load_reduce_view_tko"
_REDUCE = "multimem_reduce_view_tko"
_STORE = "multimem_store_view_tko"


def inbounds_flags(
    inbounds: Union[bool, Sequence[bool], None], rank: int, op: str
) -> tuple[bool, ...]:
    """``inbounds`` as one flag per index: None / False: none set, True: all set, or a
    sequence of ``rank`` bools (anything else is refused, naming ``op``)."""
    if inbounds is None or inbounds is False:
        return ()
    if inbounds is True:
        return (True,) * rank
    if isinstance(inbounds, (str, bytes)) or not hasattr(inbounds, "__len__"):
        raise refuse(op, f"inbounds={inbounds!r} is not a bool or a sequence of bools")
    flags = tuple(inbounds)
    if len(flags) != rank or not all(isinstance(b, bool) for b in flags):
        raise refuse(
            op,
            f"inbounds={inbounds!r}: give True or one bool per index ({rank} indices)",
            user_loc(),
        )
    return flags if any(flags) else ()


def _multicast_cells(p: Param, op: str):
    if p.role == "Scalar" or p.marker.ptr_attr != "multicast":
        raise refuse(
            op,
            f"{p.describe()} is not a multicast buffer (ptr_attr={p.marker.ptr_attr!r}); "
            f"multimem ops need a view of a multicast pointer: mark it "
            f'{p.role}(format, cells(...), ptr_attr="multicast")',
            user_loc(),
        )
    return needs_cells(p, op)


def _check(op: str, p: Param, ordering: str, scope: Optional[str], reduction: Optional[str]):
    c = _multicast_cells(p, op)
    elements = 1
    for n in c.tile:
        elements *= n
    try:
        check_multimem(op, p.format, elements, ordering, scope, reduction)
    except RuleError as err:
        raise refuse(
            op,
            f"{err} (on {p.describe()}, ordering {ordering!r}, scope {scope!r}"
            + (f", reduction {reduction!r}" if reduction is not None else "")
            + ")",
            user_loc(),
        ) from None
    return c


def _value(op: str, p: Param, value: TileLike, shape: tuple) -> Tile:
    tile = as_tile(value, None, op)
    if tile.format != p.format:
        raise refuse(op, f"value is {tile.type} and {p.describe()} holds {p.format}", user_loc())
    return tile if tile.shape == shape else broadcast(tile, shape)


def load_reduce_cell(
    p: Param,
    index: Sequence[Index] = (),
    *,
    reduction: str = "add",
    ordering: str = "weak",
    scope: Optional[str] = None,
    inbounds: Union[bool, Sequence[bool], None] = None,
) -> Effect:
    """This block's cell of the multicast ``p``, reduced elementwise over every replica with
    ``reduction`` (yield it; ``multimem_load_reduce_view_tko``, 13.5)."""
    op = _LOAD_REDUCE
    p = param_of(p, op)
    c = _check(op, p, ordering, scope, reduction)
    idx = cell_index(p, index, op)
    flags = inbounds_flags(inbounds, len(idx), op)
    ttype = TileType(c.tile, p.format)
    loc = user_loc()
    ins = Multimem(op, -1, p.index, c, idx, None, ttype, ordering, scope, reduction, flags, loc)
    return Emit(op, ins, ttype, loc)


def reduce_cell(
    p: Param,
    value: TileLike,
    index: Sequence[Index] = (),
    *,
    reduction: str = "add",
    ordering: str = "relaxed",
    scope: str = "device",
    inbounds: Union[bool, Sequence[bool], None] = None,
) -> Effect:
    """Reduce ``value`` with ``reduction`` into this block's cell of every replica of the
    multicast Shared ``p``, atomically element by element (yield it;
    ``multimem_reduce_view_tko``, 13.5)."""
    return _write_every_replica(
        _REDUCE, "atomic", p, value, index, ordering, scope, reduction, inbounds
    )


def store_cell_all(
    p: Param,
    value: TileLike,
    index: Sequence[Index] = (),
    *,
    ordering: str = "weak",
    scope: Optional[str] = None,
    inbounds: Union[bool, Sequence[bool], None] = None,
) -> Effect:
    """Write ``value`` to this block's cell of every replica of the multicast Out ``p``
    (yield it; ``multimem_store_view_tko``, 13.5)."""
    return _write_every_replica(_STORE, "cell", p, value, index, ordering, scope, None, inbounds)


def _write_every_replica(
    op: str,
    how: str,
    p: Param,
    value: TileLike,
    index: Sequence[Index],
    ordering: str,
    scope: Optional[str],
    reduction: Optional[str],
    inbounds: Union[bool, Sequence[bool], None],
) -> Effect:
    """The effect of a multimem write (``how``: the role check's kind of write): reduce and
    store differ only in the role they need and whether they carry a reduction."""
    p = param_of(p, op)
    try:
        check_write(p, how)
    except RuleError as err:
        raise refuse(op, str(err), user_loc()) from None
    c = _check(op, p, ordering, scope, reduction)
    tile = _value(op, p, value, c.tile)
    idx = cell_index(p, index, op)
    flags = inbounds_flags(inbounds, len(idx), op)
    loc = user_loc()
    ins = Multimem(op, -1, p.index, c, idx, tile, None, ordering, scope, reduction, flags, loc)
    return Emit(op, ins, None, loc)
