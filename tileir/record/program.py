"""The recorded Program: a kernel's parameters and the instructions its body yielded.

Instructions are the effects (memory, loops, branches, asserts, prints);
values are :class:`~tileir.record.tile.Tile` expressions.  An instruction that makes
a value names it by an integer id, and the body sees it as a ``var`` tile.
Everything is a frozen attrs value, so recording the same body twice gives
equal Programs with equal hashes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional, Union, get_args

from attrs import field, frozen

from tileir.ir.drafts import Referable, draft_of
from tileir.ir.module import AS_TUPLE, Hints, Loc
from tileir.record.markers import Cells, Param
from tileir.record.tile import Tile
from tileir.types import Format, TileType

__all__ = [
    "walk_instructions",
    "Access",
    "Window",
    "Sparse",
    "Load",
    "Store",
    "LoadPtr",
    "StorePtr",
    "Atomic",
    "AtomicCas",
    "AtomicCell",
    "Alloca",
    "For",
    "Loop",
    "If",
    "Exit",
    "Together",
    "TokenStep",
    "Assert",
    "Print",
    "Program",
    "Instr",
    "MEMORY_INSTRS",
    "Multimem",
    "make_load",
    "make_store",
    "make_program",
]

if TYPE_CHECKING:
    # the tuple fields' converter (the builtin ``tuple``), as the checker sees it per field
    def _tiles(value: Iterable[Tile]) -> tuple[Tile, ...]: ...
    def _ints(value: Iterable[int]) -> tuple[int, ...]: ...
    def _flags(value: Iterable[bool]) -> tuple[bool, ...]: ...
    def _instrs(value: Iterable[Instr]) -> tuple[Instr, ...]: ...
    def _groups(value: Iterable[tuple[Instr, ...]]) -> tuple[tuple[Instr, ...], ...]: ...
    def _tile_types(value: Iterable[TileType]) -> tuple[TileType, ...]: ...
    def _params(value: Iterable[Param]) -> tuple[Param, ...]: ...
else:
    _tiles = _ints = _flags = _instrs = _groups = _tile_types = _params = AS_TUPLE


@frozen
class Access:
    """How a memory op touches memory: its ordering and scope, its optimization hints
    (``latency``, ``allow_tma``) and, for view accesses, its ``inbounds`` promises (one per
    index).  The default is the weak access the recorder has always made."""

    ordering: str = "weak"
    scope: Optional[str] = None
    latency: Optional[int] = None
    allow_tma: Optional[bool] = None
    inbounds: tuple[bool, ...] = field(default=(), converter=_flags)

    def attrs(self) -> dict[str, Any]:
        """The op attributes this access sets (hints keyed ``default``, as cuTile writes them)."""
        out: dict[str, Any] = {"memory_ordering": self.ordering}
        if self.scope is not None:
            out["memory_scope"] = self.scope
        items: list[tuple[str, Union[int, bool]]] = []
        if self.allow_tma is not None:
            items.append(("allow_tma", bool(self.allow_tma)))
        if self.latency is not None:
            items.append(("latency", int(self.latency)))
        if items:
            out["optimization_hints"] = Hints((("default", tuple(items)),))
        if any(self.inbounds):
            out["inbounds"] = tuple(bool(b) for b in self.inbounds)
        return out


@frozen
class Window:
    """A strided view of a parameter's whole tensor (its cells' extent): windows of ``tile``
    elements whose index ``i`` along dimension ``d`` starts at element ``i * step[d]``."""

    cells: Cells
    tile: tuple[int, ...] = field(converter=_ints)
    step: tuple[int, ...] = field(converter=_ints)


@frozen
class Sparse:
    """A gather / scatter view of a parameter's whole tensor: tiles of ``tile`` whose
    ``sparse_dim`` is indexed by a 1-D tile of element indices, the others by element offsets."""

    cells: Cells
    tile: tuple[int, ...] = field(converter=_ints)
    sparse_dim: int


#: The views a view access reads or writes through: a parameter's cells, a strided window of
#: its tensor, or a gather / scatter view.
View = Union[Cells, Window, Sparse]
#: What the pointer path addresses: a parameter's index, or a tile of pointers.
Base = Union[int, Tile]


@frozen
class Load(Referable):
    """Read the tile at ``index`` of ``param``'s ``view``: cells (``Cells``, the index counts
    cells), windows (``Window``) or a gather (``Sparse``)."""

    result: int
    param: int
    view: View
    index: tuple[Tile, ...] = field(converter=_tiles)
    type: TileType
    loc: Optional[Loc] = field(default=None, eq=False)
    access: Access = Access()


@frozen
class Store(Referable):
    """Write ``value`` to the tile at ``index`` of ``param``'s ``view`` (lanes past the extent
    are not written)."""

    param: int
    view: View
    index: tuple[Tile, ...] = field(converter=_tiles)
    value: Tile
    loc: Optional[Loc] = field(default=None, eq=False)
    access: Access = Access()


@frozen
class LoadPtr:
    """Read elements at ``offsets`` (an integer tile of element offsets) from ``param``: a
    parameter's index, or a tile of pointers (rank 0: a base the offsets count from)."""

    result: int
    param: Base
    offsets: Optional[Tile]
    mask: Optional[Tile]
    padding: Optional[Tile]
    type: TileType
    loc: Optional[Loc] = field(default=None, eq=False)
    access: Access = Access()


@frozen
class StorePtr:
    """Write ``value`` at ``offsets`` of ``param`` (as in :class:`LoadPtr`) where ``mask``
    holds."""

    param: Base
    offsets: Optional[Tile]
    value: Tile
    mask: Optional[Tile]
    loc: Optional[Loc] = field(default=None, eq=False)
    access: Access = Access()


@frozen
class Atomic:
    """``atomic_rmw_tko`` of ``mode`` at ``offsets`` of ``param`` (as in :class:`LoadPtr`);
    ``result`` is the old values."""

    result: int
    param: Base
    mode: str
    offsets: Optional[Tile]
    value: Tile
    mask: Optional[Tile]
    type: TileType
    loc: Optional[Loc] = field(default=None, eq=False)
    ordering: str = "relaxed"
    scope: str = "device"


@frozen
class AtomicCas:
    """``atomic_cas_tko``: where an element equals ``compare`` it becomes ``value``;
    ``result`` is the old values."""

    result: int
    param: Base
    offsets: Optional[Tile]
    compare: Tile
    value: Tile
    mask: Optional[Tile]
    type: TileType
    loc: Optional[Loc] = field(default=None, eq=False)
    ordering: str = "relaxed"
    scope: str = "device"


@frozen
class AtomicCell:
    """``atomic_red_view_tko``: combine ``value`` into the cell at ``index`` of ``param``'s
    ``view`` with ``mode``."""

    param: int
    view: Cells
    index: tuple[Tile, ...] = field(converter=_tiles)
    value: Tile
    mode: str
    scope: str = "device"
    loc: Optional[Loc] = field(default=None, eq=False)
    #: 13.5: one flag per index, the promise that the cell lies inside the extent there
    inbounds: tuple[bool, ...] = field(default=(), converter=_flags)


@frozen
class Multimem:
    """A 13.5 multimem access of the cell at ``index`` of a multicast ``param``'s ``view``,
    on every replica of the buffer at once: ``multimem_load_reduce_view_tko`` (``result``:
    the elementwise ``reduction`` of the replicas' cells), ``multimem_reduce_view_tko``
    (``value`` reduced into each replica, atomically) or ``multimem_store_view_tko``
    (``value`` written to each replica)."""

    op: str
    result: int
    param: int
    view: Cells
    index: tuple[Tile, ...] = field(converter=_tiles)
    value: Optional[Tile]
    type: Optional[TileType]
    ordering: str
    scope: Optional[str]
    reduction: Optional[str]
    inbounds: tuple[bool, ...]
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class Alloca:
    """A scratch buffer of ``count`` elements of ``format`` for this block; ``result`` is its
    address (a rank-0 tile of pointers, with 13.4's ``ptr_attr`` when given)."""

    result: int
    format: Format
    count: int
    alignment: int = 16
    global_: bool = False
    loc: Optional[Loc] = field(default=None, eq=False)
    ptr_attr: Optional[str] = None


@frozen
class TokenStep:
    """A token-only op on the chain (``memory_fence_alias_tko``, ``gdc_wait_tko``,
    ``gdc_launch_dependents_tko``): it takes the current token and makes the next."""

    op: str
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class Together:
    """Effects that start from one token: each group of instructions runs from the token
    before them, and their tokens are joined (``join_tokens``) afterwards."""

    groups: tuple[tuple[Instr, ...], ...] = field(converter=_groups)
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class Exit:
    """The end of a loop trip: ``continue`` (the next carried ``values``) or ``break`` (the
    loop's results).  Last instruction of a loop body or of an ``if`` branch inside one."""

    kind: str
    values: tuple[Tile, ...] = field(converter=_tiles)
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class For:
    """A counted loop: ``iv`` runs from ``lower`` to ``upper`` by ``step``; ``carried`` ids start
    as ``init`` and become ``yields`` after each trip; ``results`` are their final values."""

    lower: Tile
    upper: Tile
    step: Tile
    init: tuple[Tile, ...] = field(converter=_tiles)
    iv: int
    carried: tuple[int, ...] = field(converter=_ints)
    body: tuple[Instr, ...] = field(converter=_instrs)
    yields: tuple[Tile, ...] = field(converter=_tiles)
    results: tuple[int, ...] = field(converter=_ints)
    loc: Optional[Loc] = field(default=None, eq=False)
    unsigned: bool = False


@frozen
class Loop:
    """An open loop: ``carried`` ids start as ``init``; the body ends in :class:`Exit`
    instructions (``continue`` with the next carried values, ``break`` with ``results``'
    values, which may have other types)."""

    init: tuple[Tile, ...] = field(converter=_tiles)
    carried: tuple[int, ...] = field(converter=_ints)
    body: tuple[Instr, ...] = field(converter=_instrs)
    results: tuple[int, ...] = field(converter=_ints)
    result_types: tuple[TileType, ...] = field(converter=_tile_types)
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class If:
    """A branch on a rank-0 ``i1`` tile; each side yields values of the ``results``' types,
    unless its body ends in an :class:`Exit` (then it leaves the enclosing loop's trip)."""

    cond: Tile
    then_body: tuple[Instr, ...] = field(converter=_instrs)
    then_yields: tuple[Tile, ...] = field(converter=_tiles)
    else_body: tuple[Instr, ...] = field(converter=_instrs)
    else_yields: tuple[Tile, ...] = field(converter=_tiles)
    results: tuple[int, ...] = field(converter=_ints)
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class Assert:
    cond: Tile
    message: str
    loc: Optional[Loc] = field(default=None, eq=False)


@frozen
class Print:
    format: str
    args: tuple[Tile, ...] = field(converter=_tiles)
    loc: Optional[Loc] = field(default=None, eq=False)


#: One recorded instruction.
Instr = Union[
    Load,
    Store,
    LoadPtr,
    StorePtr,
    Atomic,
    AtomicCas,
    AtomicCell,
    Multimem,
    Alloca,
    TokenStep,
    Together,
    Exit,
    For,
    Loop,
    If,
    Assert,
    Print,
]
#: Every kind of instruction a body records (the Union's members, in its order).
INSTRUCTIONS: tuple[type, ...] = get_args(Instr)


def walk_instructions(body: Iterable[Instr]) -> list[Instr]:
    """Every instruction of ``body`` and of the bodies nested in it (loops, both branches of
    an ``if``, the groups of a ``together``), each before the ones inside it."""
    # (a list, made by a plain loop: every recording walks its body, and a generator's
    # resumption is C code that nothing else on a recording's path runs)
    out: list[Instr] = []
    _walk_into(body, out)
    return out


def _walk_into(body: Iterable[Instr], out: list[Instr]) -> None:
    for ins in body:
        out.append(ins)
        if isinstance(ins, (For, Loop)):
            _walk_into(ins.body, out)
        elif isinstance(ins, If):
            _walk_into(ins.then_body, out)
            _walk_into(ins.else_body, out)
        elif isinstance(ins, Together):
            for group in ins.groups:
                _walk_into(group, out)


#: Instructions that read or write memory (or print): they take and make the token.
MEMORY_INSTRS = (
    Load,
    Store,
    LoadPtr,
    StorePtr,
    Atomic,
    AtomicCas,
    AtomicCell,
    Multimem,
    Print,
    TokenStep,
    Together,
)


@frozen(cache_hash=True)
class Program(Referable):
    """A recorded kernel: its name, parameters, grid and body, and the entry's optimization
    ``hints`` (a :class:`tileir.ir.module.Hints`, or None)."""

    name: str
    params: tuple[Param, ...] = field(converter=_params)
    body: tuple[Instr, ...] = field(converter=_instrs)
    grid: Optional[tuple[Optional[int], ...]] = None
    loc: Optional[Loc] = field(default=None, eq=False)
    hints: Optional[Hints] = None
    #: the checked lowering (the default): every pointer-path access is guarded against its
    #: buffer's size (:mod:`tileir.lower.guards`); False for users who prove their bounds
    checked: bool = True

    def param(self, index: int) -> Param:
        return self.params[index]


# The recorder's trusted constructors: the objects the classes' own constructors make, field
# for field, for fields already what their converters would make of them (tuples), made as
# drafts (see tileir.ir.drafts).  The hot path of a recording makes one Load per load_cell
# (two: its template, then the one with its result id), one Store per store_cell and one
# Program per kernel.
_LoadDraft, _StoreDraft, _ProgramDraft = draft_of(Load), draft_of(Store), draft_of(Program)


def make_load(
    result: int,
    param: int,
    view: View,
    index: tuple[Tile, ...],
    type: TileType,
    loc: Optional[Loc],
    access: Access,
) -> Load:
    """``Load(result, param, view, index, type, loc, access)`` for ``index`` a tuple."""
    ins: Any = _LoadDraft()
    ins.result = result
    ins.param = param
    ins.view = view
    ins.index = index
    ins.type = type
    ins.loc = loc
    ins.access = access
    ins.__class__ = Load
    return ins


def make_store(
    param: int,
    view: View,
    index: tuple[Tile, ...],
    value: Tile,
    loc: Optional[Loc],
    access: Access,
) -> Store:
    """``Store(param, view, index, value, loc, access)`` for ``index`` a tuple."""
    ins: Any = _StoreDraft()
    ins.param = param
    ins.view = view
    ins.index = index
    ins.value = value
    ins.loc = loc
    ins.access = access
    ins.__class__ = Store
    return ins


def make_program(
    name: str,
    params: tuple[Param, ...],
    body: tuple[Instr, ...],
    grid: Optional[tuple[Optional[int], ...]],
    loc: Optional[Loc],
    hints: Optional[Hints],
    checked: bool,
) -> Program:
    """``Program(name, params, body, grid, loc, hints, checked)`` for ``params`` and ``body``
    tuples."""
    program: Any = _ProgramDraft()
    program.name = name
    program.params = params
    program.body = body
    program.grid = grid
    program.loc = loc
    program.hints = hints
    program.checked = checked
    program._attrs_cached_hash = None
    program.__class__ = Program
    return program
