"""Which ops of a loop's body give the same values on every trip: run once, then kept.

A K loop's body often starts by making the views it loads through (``make_tensor_view``,
``make_partition_view``, an ``assume`` on a pointer) from the kernel's parameters: values the
body recomputes each trip although nothing they read changes.  Such an op is *invariant* when

* it is pure and deterministic: its rule reads nothing but its operands and attributes, writes
  no memory and raises nothing that depends on the trip (:data:`PURE`, no regions);
* each operand is defined outside the body, or by an invariant op before it;
* it sits in the body's straight-line prefix, before the first op that may send lanes away
  (an ``if``, a nested loop): there it always runs in the frame the loop gave the body.

The loop runs every op on the first trip in a frame (so a fault is raised where and as it
always was, and a loop of no trips runs none of them); on each later trip in the same frame
(the same lanes: ``control.run_loop``) it skips the invariant ops, whose values from the
earlier trip are still in the frame.  Never under an observer of ops, which sees every op on
every trip.
"""

from __future__ import annotations

from tileir.fake.loop_facts import per_loop
from tileir.ir.module import Block, Op, walk

__all__ = ["PURE", "loop_invariants"]

#: ops whose rule is a function of its operands and attributes alone, with no effect on
#: memory (the views and their shapes, assumptions, block ids and counts, constants, index
#: arithmetic): an invariant op must be one of these
PURE = frozenset(
    {
        "make_tensor_view", "make_partition_view", "make_strided_view",
        "make_gather_scatter_view", "get_tensor_shape", "get_index_space_shape", "assume",
        "constant", "iota", "get_tile_block_id", "get_num_tile_blocks", "make_token",
        "addi", "subi", "muli", "maxi", "mini", "andi", "ori", "xori", "shli", "shri",
        "cmpi", "select", "exti", "trunci", "broadcast", "reshape",
    }
)  # fmt: skip

#: ops that may send some lanes away from the rest of the body: the prefix ends there
_DIVERGENT = frozenset({"if", "for", "loop"})

_NOTHING: frozenset = frozenset()


@per_loop
def loop_invariants(loop: Op) -> frozenset:
    """The SSA id of the first result of each invariant op of ``loop``'s body (see the
    module docstring); empty for a body with none, or for any op that is not a loop."""
    if loop.name not in ("for", "loop") or not loop.regions:
        return _NOTHING
    body: Block = loop.regions[0]
    inside = {a.id for a in body.args}
    for op in walk(body):
        inside.update(r.id for r in op.results)
        for region in op.regions:
            inside.update(a.id for a in region.args)
    steady: set = set()  # results of invariant ops
    found = []
    for op in body.ops:
        if op.name in _DIVERGENT:
            break
        if op.name not in PURE or op.regions or not op.results:
            continue
        if all(v.id not in inside or v.id in steady for v in op.operands):
            found.append(op.results[0].id)
            steady.update(r.id for r in op.results)
    return frozenset(found) if found else _NOTHING
