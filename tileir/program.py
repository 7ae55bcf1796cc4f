"""The recorded Program: a kernel's parameters and the instructions its body yielded.

Instructions are the effects (memory, loops, branches, asserts, prints);
values are :class:`~tileir.tile.Tile` expressions.  An instruction that makes
a value names it by an integer id, and the body sees it as a ``var`` tile.
Everything is a frozen attrs value, so recording the same body twice gives
equal Programs with equal hashes.
"""

from __future__ import annotations

from typing import Optional

from attrs import field, frozen

from tileir.markers import Cells, Param
from tileir.module import Loc
from tileir.tile import Tile
from tileir.types import TileType

__all__ = ["Load", "Store", "LoadPtr", "StorePtr", "Atomic", "For", "If", "Assert", "Print",
           "Program", "Instr"]


def _t(v) -> tuple:
    return tuple(v)


@frozen
class Load:
    """Read the cell at ``index`` (one i32 tile per dimension, in cells) of ``param``'s ``view``."""

    result: int
    param: int
    view: Cells
    index: tuple = field(converter=_t)
    type: TileType
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class Store:
    """Write ``value`` to the cell at ``index`` of ``param``'s ``view`` (lanes past the extent
    are not written)."""

    param: int
    view: Cells
    index: tuple = field(converter=_t)
    value: Tile
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class LoadPtr:
    """Read ``param``'s elements at ``offsets`` (an integer tile of element offsets)."""

    result: int
    param: int
    offsets: Tile
    mask: Optional[Tile]
    padding: Optional[Tile]
    type: TileType
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class StorePtr:
    """Write ``value`` to ``param``'s elements at ``offsets`` where ``mask`` holds."""

    param: int
    offsets: Tile
    value: Tile
    mask: Optional[Tile]
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class Atomic:
    """``atomic_rmw_tko`` of ``mode`` on ``param``'s elements at ``offsets``; ``result`` is the
    old values."""

    result: int
    param: int
    mode: str
    offsets: Tile
    value: Tile
    mask: Optional[Tile]
    type: TileType
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class For:
    """A counted loop: ``iv`` runs from ``lower`` to ``upper`` by ``step``; ``carried`` ids start
    as ``init`` and become ``yields`` after each trip; ``results`` are their final values."""

    lower: Tile
    upper: Tile
    step: Tile
    init: tuple = field(converter=_t)
    iv: int
    carried: tuple = field(converter=_t)
    body: tuple = field(converter=_t)
    yields: tuple = field(converter=_t)
    results: tuple = field(converter=_t)
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class If:
    """A branch on a rank-0 ``i1`` tile; each side yields values of the ``results``' types."""

    cond: Tile
    then_body: tuple = field(converter=_t)
    then_yields: tuple = field(converter=_t)
    else_body: tuple = field(converter=_t)
    else_yields: tuple = field(converter=_t)
    results: tuple = field(converter=_t)
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class Assert:
    cond: Tile
    message: str
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class Print:
    format: str
    args: tuple = field(converter=_t)
    loc: Optional[Loc] = field(default=None, eq=False)


Instr = object  # any of the classes above


@frozen(cache_hash=True)
class Program:
    """A recorded kernel: its name, parameters, grid and body."""

    name: str
    params: tuple = field(converter=_t)
    body: tuple = field(converter=_t)
    grid: Optional[tuple] = None
    loc: Optional[Loc] = field(default=None, eq=False)

    def param(self, index: int) -> Param:
        return self.params[index]
