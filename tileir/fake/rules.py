"""``NUMPY_RULES``: the fake device's meaning of every body op of the dialect, by op name.

A rule is ``rule(ctx, op, args) -> list of results``: ``args`` are the operand
values (numpy arrays with the batch axis first, or view objects), in operand
order; the results follow ``op.results``.  ``ctx`` is the interpreter
(:class:`tileir.fake.machine.Machine`): ``ctx.b`` lanes now running and their
``ctx.block_ids``, ``ctx.grid``, ``ctx.memory`` and ``ctx.globals``,
``ctx.error(op, message, lane=...)`` (an InterpretError naming op, line and
block), ``ctx.watch_memory`` / ``ctx.memory_event(...)`` for the observer,
``ctx.print_text``, ``ctx.scoped_alloca``, ``ctx.const_cache`` and
``ctx.combine`` (below).  A rule never changes its arguments.

The control-flow ops (``for``, ``loop``, ``if``, ``continue``, ``break``,
``yield``, ``return``) map to :data:`CONTROL`: the interpreter runs them itself,
because they steer which blocks run which region.  ``reduce`` / ``scan`` have
rules here and call back ``ctx.combine`` to evaluate their combiner region.

The groups live beside their kind of op (``rules_float``, ``rules_int``,
``rules_convert``, ``rules_shape``, ``rules_memory``, ``rules_misc``); this
module joins them into the one table and refuses an op defined twice.
"""

from __future__ import annotations

from typing import Callable

from tileir.dialect import BODY_OPS
from tileir.fake.rules_convert import CONVERT_RULES
from tileir.fake.rules_float import FLOAT_RULES
from tileir.fake.rules_int import INT_RULES
from tileir.fake.rules_memory import MEMORY_RULES
from tileir.fake.rules_misc import MISC_RULES
from tileir.fake.rules_shape import SHAPE_RULES

__all__ = ["NUMPY_RULES", "CONTROL", "CONTROL_OPS", "Rule"]

Rule = Callable[..., list]

#: Ops the interpreter steers itself (their entry in the table is this marker).
CONTROL_OPS = ("for", "loop", "if", "continue", "break", "yield", "return")


def CONTROL(ctx, op, args):  # noqa: N802 - a marker, named like a constant
    """Marker rule: control flow is run by the interpreter, never called as a rule."""
    raise RuntimeError(f"`{op.name}` is control flow: the interpreter runs it, not a rule")


def _join(*groups: dict) -> dict[str, Rule]:
    table: dict[str, Rule] = {}
    for group in groups:
        for name, rule in group.items():
            if name in table:
                raise ValueError(f"op `{name}` has two numpy rules")
            if name not in BODY_OPS:
                raise ValueError(f"`{name}` is not a body op of the dialect")
            table[name] = rule
    return table


NUMPY_RULES: dict[str, Rule] = _join(
    FLOAT_RULES, INT_RULES, CONVERT_RULES, SHAPE_RULES, MEMORY_RULES, MISC_RULES,
    {name: CONTROL for name in CONTROL_OPS},
)
