"""Which loop-carried accumulators a loop's ``mmaf`` may add into in place.

A K loop carries its accumulator from trip to trip: ``%acc`` (a body argument) goes into
one ``mmaf`` whose result goes straight to the body's closing ``continue``.  Left alone, each
trip allocates a fresh result as large as the accumulator while the old one is still held,
so the interpreter holds two accumulators at once (and writes a new one through memory each
trip).  Where nothing else can read the old value after the ``mmaf``, the product can be
added into it instead: :func:`accumulators` names those body arguments, from the IR alone.

A body argument qualifies when, counting every use in the body and its nested regions,

* it has exactly one use: operand 2 (the accumulator) of an ``mmaf`` that sits directly in
  the body (so it runs once per trip, for every lane still iterating);
* that ``mmaf``'s result has exactly one use: the same position of the ``continue`` that
  closes the body (so next trip's argument is this trip's result, and nothing else, a view
  or a buffer that adopted the array included, can hold it).

Whether the argument's array may be overwritten at run time is the loop's to say as well
(``control.run_loop``): only from the second trip on (the first trip's value is the loop's
init, which others may hold: a constant, a loaded tile), only while the lanes have not
changed since the trip that made it, and never with an observer of ops (which may keep the
arrays it is shown).  (A launch that faults later in the same trip leaves, in its
``Fault.frame``, the accumulator's new value under the argument's id.)
"""

from __future__ import annotations

from collections import Counter

from tileir.fake.loop_facts import per_loop
from tileir.ir.module import Block, Op, walk

__all__ = ["accumulators"]

_NOTHING: frozenset = frozenset()


@per_loop
def accumulators(loop: Op) -> frozenset:
    """The SSA ids of ``loop``'s body arguments that its ``mmaf`` may accumulate into in
    place (see the module docstring); empty for any other loop."""
    if loop.name not in ("for", "loop") or not loop.regions:
        return _NOTHING
    body: Block = loop.regions[0]
    if not body.ops or body.ops[-1].name != "continue":
        return _NOTHING
    carried = body.args[1:] if loop.name == "for" else body.args
    closing = body.ops[-1].operands
    uses: Counter = Counter(v.id for op in walk(body) for v in op.operands)
    producers = {op.results[0].id: op for op in body.ops if op.name == "mmaf" and op.results}
    found = []
    for position, arg in enumerate(carried):
        if uses[arg.id] != 1 or position >= len(closing):
            continue
        mma = producers.get(closing[position].id)
        if mma is None or mma.operands[2].id != arg.id:
            continue
        if uses[mma.results[0].id] != 1:
            continue
        found.append(arg.id)
    return frozenset(found) if found else _NOTHING
