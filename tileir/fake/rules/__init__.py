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

The groups live beside their kind of op (:mod:`.floats`, :mod:`.ints`,
:mod:`.convert`, :mod:`.shape`, :mod:`.memory`, :mod:`.multimem`, :mod:`.misc`); this module joins
them into the one table with :func:`tileir.ir.rule_table.rule_table`, which
refuses an op defined twice or unknown.
"""

from __future__ import annotations

from typing import Callable, NoReturn

from tileir.fake.rules.convert import NUMPY_CONVERT_RULES
from tileir.fake.rules.floats import NUMPY_FLOAT_RULES
from tileir.fake.rules.ints import NUMPY_INT_RULES
from tileir.fake.rules.memory import NUMPY_MEMORY_RULES
from tileir.fake.rules.misc import NUMPY_MISC_RULES
from tileir.fake.rules.multimem import NUMPY_MULTIMEM_RULES
from tileir.fake.rules.shape import NUMPY_SHAPE_RULES
from tileir.ir.dialect import CONTROL_OPS
from tileir.ir.module import Op
from tileir.ir.rule_table import rule_table

__all__ = ["NUMPY_RULES", "CONTROL", "CONTROL_OPS", "Rule"]

Rule = Callable[..., list]


def CONTROL(ctx: object, op: Op, args: list) -> NoReturn:  # noqa: N802 - a marker, named like a constant
    """Marker rule: control flow is run by the interpreter, never called as a rule."""
    raise RuntimeError(f"`{op.name}` is control flow: the interpreter runs it, not a rule")


#: op name -> rule(ctx, op, args) -> results; the control ops (CONTROL_OPS) map to CONTROL
NUMPY_RULES = rule_table(
    "NUMPY_RULES",
    NUMPY_FLOAT_RULES,
    NUMPY_INT_RULES,
    NUMPY_CONVERT_RULES,
    NUMPY_SHAPE_RULES,
    NUMPY_MEMORY_RULES,
    NUMPY_MISC_RULES,
    NUMPY_MULTIMEM_RULES,
    {name: CONTROL for name in CONTROL_OPS},
)
