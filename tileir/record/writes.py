"""Which parameters a recorded body writes, so ``trace`` can refuse an Out nothing writes.

A write is a store through a view (``Store``, ``AtomicCell``, a multimem reduce or store) or through the pointer path
(``StorePtr``, ``Atomic``, ``AtomicCas``), where the base is a parameter's index or a tile
of pointers made from a parameter's address (its ``ptr_param`` leaves).  Loop bodies,
branches and ``together`` groups are searched too.
"""

from __future__ import annotations

from typing import Iterable, Optional

from tileir.record.program import (
    Atomic,
    AtomicCas,
    AtomicCell,
    Instr,
    Multimem,
    Store,
    StorePtr,
    walk_instructions,
)
from tileir.record.tile import Tile

__all__ = ["written_params"]


def written_params(body: Iterable[Instr]) -> set[int]:
    """The indices of the parameters some instruction of ``body`` writes."""
    found: set[int] = set()
    for ins in walk_instructions(body):
        if isinstance(ins, (Store, AtomicCell)):
            found.add(ins.param)
        elif isinstance(ins, Multimem) and ins.value is not None:  # reduce, store
            found.add(ins.param)
        elif isinstance(ins, (StorePtr, Atomic, AtomicCas)):
            if isinstance(ins.param, int):
                found.add(ins.param)
            else:
                _pointer_params(ins.param, found, set())
            _pointer_params(ins.offsets, found, set())
    return found


def _pointer_params(t: Optional[Tile], found: set[int], seen: set[int]) -> None:
    # an iterative walk: expressions can be deep, and shared subtrees are visited once
    stack = [t] if t is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.op == "ptr_param":
            found.add(int(node.attrs["index"]))
        stack.extend(node.args)
