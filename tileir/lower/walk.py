"""What the lowering's mixins use of the walk they are mixed into, for the type checker.

:class:`tileir.lower.addressing.Addressing` and :class:`tileir.lower.memory.MemoryInstrs`
are mixins of :class:`tileir.lower.lowering._Lowering`: they call its plumbing (``emit``,
``emit_exact``, ``emit1``, ``value``, ``lookup``, ``bind``, ``bind_local``) and read its
state (the program, the entry's parameters, the current token).  :class:`Walk` declares
those, and only the checker sees it as their base (``if TYPE_CHECKING``); at run time they
derive from ``object``, as before.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Hashable, Iterable, Mapping, Optional, Sequence, Union

from tileir.ir.module import AttrMap, Block, Loc, Value
from tileir.record.markers import Cells
from tileir.record.program import Atomic, AtomicCas, Base, Instr, LoadPtr, Program, StorePtr, View
from tileir.record.tile import Tile
from tileir.types import Type

__all__ = ["Walk"]


class Walk:
    """The state and plumbing of the lowering that its mixins use (declarations only)."""

    #: the Program being lowered
    program: Program
    #: the entry's parameters (the markers' own, then the DYN_DIM extents)
    params: tuple[Value, ...]
    #: ``(parameter index, dimension)`` of a DYN_DIM extent -> the entry parameter holding it
    extent_values: dict[tuple[int, int], Value]
    #: what is shared within the block being written only (see ``bind_local``)
    local: dict[Hashable, Any]
    #: the current token of the memory chain
    token: Value
    #: a guarded parameter (tileir.lower.guards) -> the entry position of its element count
    count_index: dict[int, int]
    #: a scratch buffer's result id -> its element count (the guards bound accesses to it)
    scratch: dict[int, int]

    @abstractmethod
    def emit(
        self,
        name: str,
        operands: Iterable[Value] = (),
        result_types: Sequence[Type] = (),
        attrs: Optional[Mapping[str, Any]] = None,
        regions: Iterable[Block] = (),
        segments: Optional[Sequence[int]] = None,
        loc: Optional[Loc] = None,
    ) -> tuple[Value, ...]: ...

    @abstractmethod
    def emit_exact(
        self,
        name: str,
        operands: tuple[Value, ...],
        result_types: tuple[Type, ...],
        attrs: AttrMap,
        segments: Optional[tuple[int, ...]],
        loc: Optional[Loc],
        regions: tuple[Block, ...] = (),
    ) -> tuple[Value, ...]: ...

    @abstractmethod
    def emit1(
        self,
        name: str,
        operands: tuple,
        rtype: Type,
        attrs: AttrMap,
        loc: Optional[Loc],
        segments: Optional[tuple[int, ...]] = None,
        regions: tuple[Block, ...] = (),
    ) -> Value: ...

    @abstractmethod
    def lookup(self, key: Hashable, innermost_only: bool = False) -> Any: ...

    @abstractmethod
    def bind(self, key: Hashable, value: Any) -> None: ...

    @abstractmethod
    def bind_local(self, key: Hashable, value: Any) -> None: ...

    @abstractmethod
    def value(self, t: Tile) -> Value: ...

    @abstractmethod
    def instr(self, ins: Instr) -> None: ...

    # -- Addressing's, which MemoryInstrs uses
    @abstractmethod
    def view(self, index: int, cells: Cells, loc: Optional[Loc], padded: bool = True) -> Value: ...

    @abstractmethod
    def any_view(
        self, index: int, spec: View, loc: Optional[Loc], padded: bool = True
    ) -> Value: ...

    @abstractmethod
    def pointers(self, base: Base, offsets: Optional[Tile], loc: Optional[Loc]) -> Value: ...

    # -- GuardedAccess's, which MemoryInstrs uses
    @abstractmethod
    def guard(self, ins: Union[LoadPtr, StorePtr, Atomic, AtomicCas]) -> None: ...
