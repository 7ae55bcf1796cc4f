"""Type rules of the multimem ops (13.5; part of ``VERIFY_RULES``) (docs/dialect.md §1.13); the
other memory ops' rules refuse a multicast pointer (§2.2).

A multimem op reads or writes a ``partition_view`` of a ``tensor_view`` whose pointer
attribute is ``multicast``; the rest (formats, tile size, orderings, scopes, reductions) is
:func:`tileir.ir.attr_rules.check_multimem`, which the recorder applies too.
"""

from __future__ import annotations

from tileir.errors import RuleError
from tileir.ir.attr_rules import check_multimem
from tileir.ir.signatures import attr_of, operand_groups
from tileir.types import TOKEN, PartitionViewType
from tileir.verify.common import results_are, tokens_in
from tileir.verify.views import view_index, view_tile

__all__ = ["VERIFY_MULTIMEM_RULES"]


def _multicast_view(c, op) -> PartitionViewType:
    view = operand_groups(op)["view"][0].type
    if not isinstance(view, PartitionViewType):
        c.fail(f"view is {view}; multimem view operations support only partition_view")
    attr = view.tensor_view.ptr_attr
    if attr != "multicast":
        c.fail(f"expected a multicast pointer, but got {attr or 'none'} ({view.tensor_view})")
    return view


def _rule(c, op, has_value: bool) -> None:
    g = operand_groups(op)
    view = _multicast_view(c, op)
    view_index(c, view, g["index"])
    want = view_tile(view)
    if has_value and g["value"][0].type != want:
        c.fail(f"value is {g['value'][0].type}; {view} holds {want}")
    tokens_in(c, op, g["token"])
    inbounds = attr_of(op, "inbounds")
    if inbounds and len(inbounds) != len(g["index"]):
        c.fail(
            f"inbounds size ({len(inbounds)}) must match the number of index dimensions "
            f"({len(g['index'])})"
        )
    element = view.tensor_view.element
    if element.name in ("f16", "bf16"):
        units = sum(1 for stride in view.tensor_view.strides if stride == 1)
        if units != 1:
            c.fail(
                f"f16/bf16 multimem views must have exactly one element stride statically "
                f"known to equal 1; got {units} ({view.tensor_view})"
            )
    reduction = attr_of(op, "reduction") if op.name != "multimem_store_view_tko" else None
    try:
        check_multimem(
            op.name,
            view.tensor_view.element,
            want.size,
            attr_of(op, "memory_ordering"),
            attr_of(op, "memory_scope"),
            reduction,
        )
    except RuleError as err:
        c.fail(str(err))
    if has_value:
        results_are(c, op, TOKEN)
    else:
        results_are(c, op, want, TOKEN)


VERIFY_MULTIMEM_RULES = {
    "multimem_load_reduce_view_tko": lambda c, op: _rule(c, op, False),
    "multimem_reduce_view_tko": lambda c, op: _rule(c, op, True),
    "multimem_store_view_tko": lambda c, op: _rule(c, op, True),
}
