"""How the lowering writes the memory instructions: view and pointer loads and stores,
atomics, ``alloca``, the token-only ops and ``together`` (``join_tokens``).

A mixin of :class:`tileir.lower.lowering._Lowering`: every memory op takes the current
token (``self.token``) and the ones that make a token replace it, so the chain is one
line through the function (``together`` forks it and joins the ends).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional

from tileir.ir.attrmap import AttrMap
from tileir.ir.memo import memo_table, remember
from tileir.ir.module import Value, clean_attrs, freeze_attrs
from tileir.record.program import (
    Access,
    Alloca,
    Atomic,
    AtomicCas,
    AtomicCell,
    Load,
    LoadPtr,
    Multimem,
    Store,
    StorePtr,
    Together,
    TokenStep,
)
from tileir.record.tile import Tile
from tileir.types import TOKEN, canonical_pointer_type, canonical_tile_type

if TYPE_CHECKING:
    from tileir.lower.walk import Walk
else:
    Walk = object

__all__ = ["MemoryInstrs"]


# (op name, the access's fields) -> the op's attribute map for it: a memo keyed by values
# (each field hashes in C), since a kernel recorded again makes new accesses of the same few
# values; ``Access.attrs`` reads its fields only through ``bool`` and ``int``, so fields that
# are equal (1 and True) give one map
_ACCESS_ATTRS: dict[tuple, AttrMap] = memo_table("lower.memory: an access's op attributes")


def _access_attrs(op: str, access: Access) -> AttrMap:
    """The attributes op ``op`` keeps for ``access`` (frozen, its defaults dropped)."""
    key = (
        op,
        access.ordering,
        access.scope,
        access.latency,
        access.allow_tma,
        access.inbounds,
    )
    found = _ACCESS_ATTRS.get(key)
    if found is None:
        found = remember(_ACCESS_ATTRS, key, clean_attrs(op, freeze_attrs(access.attrs())))
    return found


def _rmw_attrs(ordering: str, scope: str, mode: str) -> AttrMap:
    """The attributes ``atomic_rmw_tko`` keeps for an atomic of ``ordering``, ``scope`` and
    ``mode`` (the dialect's spellings, checked by the recorder: strings, so equal keys are the
    same values), made once per triple."""
    key = (ordering, scope, mode)
    found = _RMW_ATTRS.get(key)
    if found is None:
        attrs = {"memory_ordering": ordering, "memory_scope": scope, "mode": mode}
        found = remember(_RMW_ATTRS, key, clean_attrs("atomic_rmw_tko", freeze_attrs(attrs)))
    return found


_RMW_ATTRS: dict[tuple, AttrMap] = memo_table("lower.memory: an atomic's op attributes")


class MemoryInstrs(Walk):
    """The memory instructions of the lowering (mixed into it)."""

    def _index(self, values: Iterable[Tile]) -> list[Value]:
        return [self.value(i) for i in values]

    def _load(self, ins: Load) -> None:
        # a load promised in bounds reads no padding, and tileiras refuses a padded view there
        # (most loads promise nothing: an empty tuple, asked without any()'s call)
        inbounds = ins.access.inbounds
        pv = self.any_view(ins.param, ins.view, ins.loc, padded=not (inbounds and any(inbounds)))
        index = tuple(map(self.value, ins.index))
        tile, tok = self.emit_exact(
            "load_view_tko",
            (pv, *index, self.token),
            (ins.type, TOKEN),
            _access_attrs("load_view_tko", ins.access),
            (1, len(index), 1),
            ins.loc,
        )
        self.token = tok
        self.bind(ins.result, tile)

    def _store(self, ins: Store) -> None:
        value = self.value(ins.value)
        pv = self.any_view(ins.param, ins.view, ins.loc)
        index = tuple(map(self.value, ins.index))
        self.token = self.emit1(
            "store_view_tko",
            (value, pv, *index, self.token),
            TOKEN,
            _access_attrs("store_view_tko", ins.access),
            ins.loc,
            (1, 1, len(index), 1),
        )

    def _masked(self, mask: Optional[Tile]) -> list[Value]:
        return [self.value(mask)] if mask is not None else []

    def _loadptr(self, ins: LoadPtr) -> None:
        self.guard(ins)
        ptrs = self.pointers(ins.param, ins.offsets, ins.loc)
        extra = self._masked(ins.mask)
        pad = [self.value(ins.padding)] if ins.padding is not None else []
        tile, tok = self.emit_exact(
            "load_ptr_tko",
            (ptrs, *extra, *pad, self.token),
            (ins.type, TOKEN),
            _access_attrs("load_ptr_tko", ins.access),
            (1, len(extra), len(pad), 1),
            ins.loc,
        )
        self.token = tok
        self.bind(ins.result, tile)

    def _storeptr(self, ins: StorePtr) -> None:
        self.guard(ins)
        value = self.value(ins.value)
        ptrs = self.pointers(ins.param, ins.offsets, ins.loc)
        extra = self._masked(ins.mask)
        self.token = self.emit1(
            "store_ptr_tko",
            (ptrs, value, *extra, self.token),
            TOKEN,
            _access_attrs("store_ptr_tko", ins.access),
            ins.loc,
            (1, 1, len(extra), 1),
        )

    def _atomic(self, ins: Atomic) -> None:
        self.guard(ins)
        value = self.value(ins.value)
        ptrs = self.pointers(ins.param, ins.offsets, ins.loc)
        extra = self._masked(ins.mask)
        old, tok = self.emit_exact(
            "atomic_rmw_tko",
            (ptrs, value, *extra, self.token),
            (ins.type, TOKEN),
            _rmw_attrs(ins.ordering, ins.scope, ins.mode),
            (1, 1, len(extra), 1),
            ins.loc,
        )
        self.token = tok
        self.bind(ins.result, old)

    def _atomiccas(self, ins: AtomicCas) -> None:
        self.guard(ins)
        cmp, value = self.value(ins.compare), self.value(ins.value)
        ptrs = self.pointers(ins.param, ins.offsets, ins.loc)
        extra = self._masked(ins.mask)
        old, tok = self.emit(
            "atomic_cas_tko",
            [ptrs, cmp, value, *extra, self.token],
            [ins.type, TOKEN],
            {"memory_ordering": ins.ordering, "memory_scope": ins.scope},
            segments=(1, 1, 1, len(extra), 1),
            loc=ins.loc,
        )
        self.token = tok
        self.bind(ins.result, old)

    def _atomiccell(self, ins: AtomicCell) -> None:
        value = self.value(ins.value)
        pv = self.view(ins.param, ins.view, ins.loc, padded=False)
        index = self._index(ins.index)
        (self.token,) = self.emit(
            "atomic_red_view_tko",
            [pv, *index, value, self.token],
            [TOKEN],
            {
                "memory_ordering": "relaxed",
                "memory_scope": ins.scope,
                "mode": ins.mode,
                **({"inbounds": ins.inbounds} if any(ins.inbounds) else {}),
            },
            segments=(1, len(index), 1, 1),
            loc=ins.loc,
        )

    def _multimem(self, ins: Multimem) -> None:
        # a multicast view carries no padding value: no replica reads past the extent
        pv = self.view(ins.param, ins.view, ins.loc, padded=False)
        index = self._index(ins.index)
        attrs: dict[str, Any] = {"memory_ordering": ins.ordering}
        if ins.scope is not None:
            attrs["memory_scope"] = ins.scope
        if ins.reduction is not None:
            attrs["reduction"] = ins.reduction
        if any(ins.inbounds):
            attrs["inbounds"] = ins.inbounds
        if ins.value is None:  # load_reduce: a tile and the token
            assert ins.type is not None  # (ops.multimem gives a load-reduce its tile type)
            tile, self.token = self.emit(
                ins.op,
                [pv, *index, self.token],
                [ins.type, TOKEN],
                attrs,
                segments=(1, len(index), 1),
                loc=ins.loc,
            )
            self.bind(ins.result, tile)
            return
        value = self.value(ins.value)
        (self.token,) = self.emit(
            ins.op,
            [pv, value, *index, self.token],
            [TOKEN],
            attrs,
            segments=(1, 1, len(index), 1),
            loc=ins.loc,
        )

    def _alloca(self, ins: Alloca) -> None:
        self.scratch[ins.result] = ins.count  # (the checked lowering bounds accesses to it)
        (ptr,) = self.emit(
            "alloca",
            (),
            [canonical_tile_type((), canonical_pointer_type(ins.format, ins.ptr_attr))],
            {"num_elem": ins.count, "alignment": ins.alignment, "global_": ins.global_},
            loc=ins.loc,
        )
        self.bind(ins.result, ptr)

    def _tokenstep(self, ins: TokenStep) -> None:
        (self.token,) = self.emit(ins.op, [self.token], [TOKEN], loc=ins.loc)

    def _together(self, ins: Together) -> None:
        start = self.token
        tokens: list[Value] = []
        for group in ins.groups:
            self.token = start
            for sub in group:
                self.instr(sub)
            if self.token != start:
                tokens.append(self.token)
        if len(tokens) > 1:
            (self.token,) = self.emit("join_tokens", tokens, [TOKEN], loc=ins.loc)
        else:
            self.token = tokens[0] if tokens else start


#: the memory instructions' rules of LOWER_RULES: instruction class -> rule(lowering, ins)
MEMORY_LOWER_RULES = {
    Load: MemoryInstrs._load,
    Store: MemoryInstrs._store,
    LoadPtr: MemoryInstrs._loadptr,
    StorePtr: MemoryInstrs._storeptr,
    Atomic: MemoryInstrs._atomic,
    AtomicCas: MemoryInstrs._atomiccas,
    AtomicCell: MemoryInstrs._atomiccell,
    Multimem: MemoryInstrs._multimem,
    Alloca: MemoryInstrs._alloca,
    TokenStep: MemoryInstrs._tokenstep,
    Together: MemoryInstrs._together,
}
