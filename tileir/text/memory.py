"""Rendering rules of the view, memory and atomic ops (part of ``RENDER_RULES``).

Their layout, pinned against ``tileirdisasm`` 13.4.92: ordering and scope as bare
words after the mnemonic, the view indexed in brackets, then ``token = %t`` (views)
or ``token=%t`` (pointers), hints and ``inbounds``, and after the colon the
operand types with the index type once when every index has it.
"""

from __future__ import annotations

from tileir.ir.signatures import attr_of, operand_groups
from tileir.text.attr_text import hints_text
from tileir.text.common import flag, ops, t, types

__all__ = ["MEMORY_RENDER_RULES"]


def _make_tensor_view(p, op):
    g = operand_groups(op)
    view = op.results[0].type
    shape, strides = iter(g["shape"]), iter(g["strides"])
    dims = ", ".join(p.use(next(shape)) if d is None else str(d) for d in view.shape)
    steps = ", ".join(p.use(next(strides)) if s is None else str(s) for s in view.strides)
    dynamic = g["shape"] + g["strides"]
    # tileirdisasm names the base's type only when it carries a ptr_attr (13.4), which the
    # view's type alone does not show is on the pointer too
    inputs = [t(g["base"][0])] if view.ptr_attr is not None else []
    if dynamic:
        inputs.append(t(dynamic[0]))
    index = f"{', '.join(inputs)} -> " if inputs else ""
    return (
        f"make_tensor_view {p.use(g['base'][0])}, shape = [{dims}], strides = [{steps}] "
        f": {index}{view}"
    )


def _view_of(p, op):  # make_partition_view / strided / gather_scatter
    return f"{op.name} {p.use(op.operands[0])} : {t(op.results[0])}"


def _shape_query(p, op):  # get_tensor_shape / get_index_space_shape
    v = op.operands[0]
    return f"{op.name} {p.use(v)} : {t(v)} -> {t(op.results[0])}"


def _index_types(index) -> str:
    # one type when every index has it, else each index's type
    kinds = [str(v.type) for v in index]
    if not kinds:
        return ""
    return ", " + (kinds[0] if len(set(kinds)) == 1 else ", ".join(kinds))


def _order_scope(op) -> str:
    scope = attr_of(op, "memory_scope")
    return attr_of(op, "memory_ordering") + (f" {scope}" if scope is not None else "")


def _view_extras(p, op, token) -> str:
    text = f" token = {p.use(token[0])}" if token else ""
    hints = attr_of(op, "optimization_hints")
    if hints is not None:
        text += f" optimization_hints = {hints_text(hints)}"
    inbounds = attr_of(op, "inbounds")
    if any(inbounds):
        text += " inbounds = [" + ", ".join("true" if b else "false" for b in inbounds) + "]"
    return text


def _load_view(p, op):
    g = operand_groups(op)
    view = g["view"][0]
    return (
        f"load_view_tko {_order_scope(op)} {p.use(view)}[{ops(p, g['index'])}]"
        f"{_view_extras(p, op, g['token'])} : {t(view)}{_index_types(g['index'])} "
        f"-> {types(op.results)}"
    )


def _store_view(p, op):
    g = operand_groups(op)
    tile, view = g["tile"][0], g["view"][0]
    return (
        f"store_view_tko {_order_scope(op)} {p.use(tile)}, {p.use(view)}"
        f"[{ops(p, g['index'])}]{_view_extras(p, op, g['token'])} : {t(tile)}, "
        f"{t(view)}{_index_types(g['index'])} -> {types(op.results)}"
    )


def _ptr_extras(p, op, token) -> str:
    text = f" token={p.use(token[0])}" if token else ""
    hints = attr_of(op, "optimization_hints")
    if hints is not None:
        text += f" optimization_hints = {hints_text(hints)}"
    return text


def _load_ptr(p, op):
    g = operand_groups(op)
    values = g["pointers"] + g["mask"] + g["padding"]
    return (
        f"load_ptr_tko {_order_scope(op)} {ops(p, values)}{_ptr_extras(p, op, g['token'])}"
        f" : {types(values)} -> {types(op.results)}"
    )


def _store_ptr(p, op):
    g = operand_groups(op)
    values = g["pointers"] + g["value"] + g["mask"]
    return (
        f"store_ptr_tko {_order_scope(op)} {ops(p, values)}"
        f"{_ptr_extras(p, op, g['token'])} : {types(values)} -> {types(op.results)}"
    )


def _atomic_rmw(p, op):
    g = operand_groups(op)
    ptrs, arg = g["pointers"][0], g["arg"][0]
    mask = "".join(f", {p.use(m)}" for m in g["mask"])
    token = "".join(f" token={p.use(t)}" for t in g["token"])
    return (
        f"atomic_rmw_tko {_order_scope(op)} {p.use(ptrs)}, {attr_of(op, 'mode')}, "
        f"{p.use(arg)}{mask}{token} : {types((ptrs, arg) + g['mask'])} "
        f"-> {types(op.results)}"
    )


def _atomic_cas(p, op):
    g = operand_groups(op)
    ptrs, cmp, val = g["pointers"][0], g["cmp"][0], g["val"][0]
    mask = "".join(f", {p.use(m)}" for m in g["mask"])
    token = "".join(f" token={p.use(t)}" for t in g["token"])
    return (
        f"atomic_cas_tko {_order_scope(op)} {p.use(ptrs)}, {p.use(cmp)}, {p.use(val)}"
        f"{mask}{token} : {types((ptrs, cmp) + g['mask'])} -> {types(op.results)}"
    )


def _inbounds_text(op) -> str:
    inbounds = attr_of(op, "inbounds")
    if not any(inbounds):
        return ""
    return " inbounds = [" + ", ".join("true" if b else "false" for b in inbounds) + "]"


def _atomic_red_view(p, op):
    g = operand_groups(op)
    view, value = g["view"][0], g["value"][0]
    token = "".join(f" token = {p.use(t)}" for t in g["token"])
    return (
        f"atomic_red_view_tko {_order_scope(op)} {p.use(view)}[{ops(p, g['index'])}], "
        f"{attr_of(op, 'mode')}, {p.use(value)}{token}{_inbounds_text(op)} : {t(value)}, "
        f"{t(view)}{_index_types(g['index'])} -> {types(op.results)}"
    )


def _multimem(p, op):
    """The three multimem ops (13.5, docs/dialect.md §1.13): unlike load / store_view_tko the
    token is listed among the operand types, the reduction is a generic ``attributes``
    clause left out when it is ``add``, and where no ``inbounds`` list is printed one more
    space stands before the clause (or the colon)."""
    g = operand_groups(op)
    view = g["view"][0]
    stored = [p.use(v) for v in g.get("value", ())]
    operands = ", ".join([p.use(view), *stored])
    token = "".join(f" token = {p.use(x)}" for x in g["token"])
    reduction = attr_of(op, "reduction") if op.name != "multimem_store_view_tko" else None
    clause = (
        f" attributes {{reduction = #cuda_tile.multimem_reduction_kind<{reduction}>}}"
        if reduction is not None and reduction != "add"
        else ""
    )
    # tileirdisasm 13.5.37 leaves one space more where no inbounds list is printed
    spacer = "" if any(attr_of(op, "inbounds")) else " "
    typed = [t(view), *(t(v) for v in g.get("value", ()))]
    index = _index_types(g["index"])
    tail = ", " + ", ".join(t(x) for x in g["token"]) if g["token"] else ""
    return (
        f"{op.name} {_order_scope(op)} {operands}[{ops(p, g['index'])}]{token}"
        f"{_inbounds_text(op)}{spacer}{clause} : {', '.join(typed)}{index}{tail} "
        f"-> {types(op.results)}"
    )


def _alloca(p, op):
    return (
        f"alloca num_elem = {attr_of(op, 'num_elem')}, alignment = "
        f"{attr_of(op, 'alignment')}{flag(op, 'global_', 'global')} : {t(op.results[0])}"
    )


MEMORY_RENDER_RULES = {
    "make_tensor_view": _make_tensor_view,
    "make_partition_view": _view_of,
    "make_strided_view": _view_of,
    "make_gather_scatter_view": _view_of,
    "get_tensor_shape": _shape_query,
    "get_index_space_shape": _shape_query,
    "load_view_tko": _load_view,
    "store_view_tko": _store_view,
    "load_ptr_tko": _load_ptr,
    "store_ptr_tko": _store_ptr,
    "atomic_rmw_tko": _atomic_rmw,
    "atomic_cas_tko": _atomic_cas,
    "atomic_red_view_tko": _atomic_red_view,
    "multimem_load_reduce_view_tko": _multimem,
    "multimem_reduce_view_tko": _multimem,
    "multimem_store_view_tko": _multimem,
    "alloca": _alloca,
}
