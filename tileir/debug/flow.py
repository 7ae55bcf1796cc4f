"""Following values through a function's regions, one block at a time.

The interpreter's observer sees each op's results but not the values bound to
region arguments: a ``for`` body's induction variable and carried values, a
``loop``'s carried values.  :class:`Flow` rebuilds them from the op events of
one block, in the order that block ran them, for any kind of *fact* about a
value (the value itself for the tracer, a taint mask for the padding finder):

* entering a ``for`` / ``loop`` body binds its arguments from the op's initial
  operands (the first event of the block inside a region op that is not on the
  block's stack of open regions is an entry);
* a ``continue`` binds them from its operands for the next trip (and is what
  the loop passes out if it is the last), a ``break`` passes its operands out
  of its loop, a ``yield`` out of its ``if``;
* the region op's own event closes it: :meth:`Flow.exits` answers what the last
  terminator passed (the initial operands for a loop that ran no trip).

Ops inside a ``reduce`` / ``scan`` combiner run on arrays of pairs, not on the
block's values; :class:`Structure` marks them so callers can leave them out.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from tileir.ir.dialect import LOOP_OPS, REGION_OPS
from tileir.ir.module import Block, Function, Op

__all__ = ["Structure", "Flow", "REGION_OPS", "LOOP_OPS"]

_COMBINING = frozenset({"reduce", "scan"})


class Structure:
    """Static facts about a function: for each op, the region ops around it (outermost
    first), its pre-order position, and whether it sits in a combiner region."""

    def __init__(self, fn: Function):
        self.fn = fn
        self.ancestors: dict[int, tuple] = {}
        self.order: dict[int, int] = {}
        self.ops: list[Op] = []
        self.combiner: set[int] = set()
        self._walk(fn.body, ())

    def _walk(self, block: Block, chain: tuple) -> None:
        for op in block.ops:
            self.ancestors[id(op)] = chain
            self.order[id(op)] = len(self.ops)
            self.ops.append(op)
            if any(a.name in _COMBINING for a in chain):
                self.combiner.add(id(op))
            for region in op.regions:
                self._walk(region, chain + (op,))

    def chain(self, op: Op) -> tuple:
        return self.ancestors.get(id(op), ())

    def in_combiner(self, op: Op) -> bool:
        return id(op) in self.combiner

    def target(self, op: Op) -> Optional[Op]:
        """The region op a terminator leaves: the nearest loop for continue / break, the
        enclosing op for yield."""
        chain = self.chain(op)
        if op.name in ("continue", "break"):
            return next((a for a in reversed(chain) if a.name in LOOP_OPS), None)
        return chain[-1] if chain else None


class Flow:
    """Facts about the values of one block, kept through region entries and exits.

    ``induction(loop_op, trip, env)`` makes the fact for a ``for``'s induction
    variable at trip ``trip`` (``env`` is the fact map, to read the bounds)."""

    def __init__(
        self,
        structure: Structure,
        params: dict[int, Any],
        induction: Callable[[Op, int, dict], Any],
    ):
        self.structure = structure
        self.env: dict[int, Any] = dict(params)
        self.stack: list[Op] = []
        self.trips: dict[int, int] = {}
        self.passed: dict[int, list] = {}
        self.induction = induction

    def before(self, op: Op) -> None:
        """Bring the open regions in line with ``op``'s place, entering new ones."""
        chain = self.structure.chain(op)
        keep = 0
        while keep < len(self.stack) and keep < len(chain) and self.stack[keep] is chain[keep]:
            keep += 1
        del self.stack[keep:]
        for region_op in chain[keep:]:
            self.stack.append(region_op)
            self._enter(region_op)

    def _enter(self, op: Op) -> None:
        if op.name not in LOOP_OPS:
            return
        body = op.regions[0]
        if op.name == "for":
            inits = [self.env.get(v.id) for v in op.operands[3:]]
            self.trips[id(op)] = 0
            self.env[body.args[0].id] = self.induction(op, 0, self.env)
            carried = body.args[1:]
        else:
            inits = [self.env.get(v.id) for v in op.operands]
            carried = body.args
        for a, f in zip(carried, inits):
            self.env[a.id] = f

    def operands(self, op: Op) -> list:
        """The facts of ``op``'s operands (``None`` for a value never seen)."""
        return [self.env.get(v.id) for v in op.operands]

    def terminator(self, op: Op, facts: list) -> None:
        """A continue / break / yield / return ran with operand facts ``facts``."""
        target = self.structure.target(op)
        if target is None or op.name == "return":
            return
        self.passed[id(target)] = list(facts)
        if op.name == "continue":
            body = target.regions[0]
            if target.name == "for":
                k = self.trips.get(id(target), 0) + 1
                self.trips[id(target)] = k
                self.env[body.args[0].id] = self.induction(target, k, self.env)
                carried = body.args[1:]
            else:
                carried = body.args
            for a, f in zip(carried, facts):
                self.env[a.id] = f

    def exits(self, op: Op) -> list:
        """What a region op passes out to its results, once its regions have run."""
        got = self.passed.pop(id(op), None)
        if got is not None:
            return got
        if op.name == "for":
            return [self.env.get(v.id) for v in op.operands[3:]]
        if op.name == "loop":
            return [self.env.get(v.id) for v in op.operands]
        return [None] * len(op.results)

    def define(self, op: Op, facts: list) -> None:
        for v, f in zip(op.results, facts):
            self.env[v.id] = f
