"""Type rules of the pointer, atomic, alloca, assume, print, token and grid ops (part of
``VERIFY_RULES``; the view ops are in :mod:`tileir.verify.views`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tileir.ir.module import Bounded, DivBy, SameElements
from tileir.ir.signatures import attr_of, operand_groups
from tileir.types import (
    I1,
    I32,
    TOKEN,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
)
from tileir.verify.common import (
    check_ordering,
    int_tile,
    is_pow2,
    one_result,
    results_are,
    tile,
    tokens_in,
)
from tileir.verify.views import view_index, view_tile

if TYPE_CHECKING:
    from tileir.verify.checker import Check

__all__ = ["VERIFY_MEMORY_RULES"]


def _pointers(c, v, access: bool = True) -> TileType:
    t = tile(c, v, "pointers")
    element = t.element
    if not isinstance(element, PointerType):
        c.fail(f"pointers is {t}, not a tile of pointers")
    if (
        access and isinstance(element, PointerType) and element.attr == "multicast"
    ):  # (13.5's verifier; offset only moves them)
        c.fail(f"multicast pointer is not allowed here ({t}); only the multimem ops take one")
    return t


def _mask(c, masks, shape) -> None:
    for m in masks:
        if m.type != TileType(shape, I1):
            c.fail(f"mask is {m.type}; it must be {TileType(shape, I1)}")


def _load_ptr(c, op):
    g = operand_groups(op)
    ptrs = _pointers(c, g["pointers"][0])
    value = TileType(ptrs.shape, ptrs.element.pointee)
    _mask(c, g["mask"], ptrs.shape)
    for p in g["padding"]:
        if p.type != value:
            c.fail(f"padding is {p.type}; it must be {value}")
    tokens_in(c, op, g["token"])
    check_ordering(c, op, ("weak", "relaxed", "acquire"))
    results_are(c, op, value, TOKEN)


def _store_ptr(c, op):
    g = operand_groups(op)
    ptrs = _pointers(c, g["pointers"][0])
    value = TileType(ptrs.shape, ptrs.element.pointee)
    if g["value"][0].type != value:
        c.fail(f"value is {g['value'][0].type}; {ptrs} stores {value}")
    _mask(c, g["mask"], ptrs.shape)
    tokens_in(c, op, g["token"])
    check_ordering(c, op, ("weak", "relaxed", "release"))
    results_are(c, op, TOKEN)


def _offset(c, op):
    ptrs = _pointers(c, op.operands[0], access=False)
    off = int_tile(c, op.operands[1], "offsets")
    if off.shape != ptrs.shape:
        c.fail(f"offsets {off} must have the pointers' shape {ptrs.shape}")
    results_are(c, op, ptrs)


_INT_MODES = ("and", "or", "xor", "add", "max", "min", "umax", "umin")


def _atomic_mode(c, op, element, allowed) -> None:
    """The element formats each atomic mode works on (the dialect's verifier, probed)."""
    mode = attr_of(op, "mode")
    if mode not in allowed:
        c.fail(f"mode {mode} is not allowed here ({', '.join(allowed)})")
    if mode == "addf" and element.name not in ("f16", "bf16", "f32", "f64"):
        c.fail(f"mode addf works on f16, bf16, f32 and f64 only, the values are {element}")
    if mode in _INT_MODES and element.name not in ("i32", "i64"):
        c.fail(f"mode {mode} works on i32 and i64 only, the values are {element}")
    if mode == "xchg" and not _word(element):
        c.fail(f"mode xchg works on 32- or 64-bit integers and floats, the values are {element}")


def _word(element) -> bool:
    # 32 or 64 bits wide as the dialect counts (tf32 is 19 bits wide)
    return element.name in ("i32", "i64", "f32", "f64")


def _atomic_rmw(c, op):
    g = operand_groups(op)
    ptrs = _pointers(c, g["pointers"][0])
    value = TileType(ptrs.shape, ptrs.element.pointee)
    if g["arg"][0].type != value:
        c.fail(f"arg is {g['arg'][0].type}; {ptrs} holds {value}")
    _mask(c, g["mask"], ptrs.shape)
    tokens_in(c, op, g["token"])
    if attr_of(op, "memory_ordering") not in ("relaxed", "acquire", "release", "acq_rel"):
        c.fail(
            f"memory ordering {attr_of(op, 'memory_ordering')} is not one of relaxed, "
            "acquire, release, acq_rel"
        )
    _atomic_mode(c, op, value.element, _INT_MODES + ("addf", "xchg"))
    results_are(c, op, value, TOKEN)


def _atomic_cas(c, op):
    g = operand_groups(op)
    ptrs = _pointers(c, g["pointers"][0])
    value = TileType(ptrs.shape, ptrs.element.pointee)
    for name in ("cmp", "val"):
        if g[name][0].type != value:
            c.fail(f"{name} is {g[name][0].type}; {ptrs} holds {value}")
    if not _word(value.element):
        c.fail(
            f"atomic_cas_tko works on 32- or 64-bit integers and floats, the values are "
            f"{value.element}"
        )
    _mask(c, g["mask"], ptrs.shape)
    tokens_in(c, op, g["token"])
    if attr_of(op, "memory_ordering") not in ("relaxed", "acquire", "release", "acq_rel"):
        c.fail(
            f"memory ordering {attr_of(op, 'memory_ordering')} is not one of relaxed, "
            "acquire, release, acq_rel"
        )
    results_are(c, op, value, TOKEN)


def _atomic_red_view(c, op):
    g = operand_groups(op)
    view = g["view"][0].type
    if not isinstance(view, (PartitionViewType, StridedViewType)) or view.padding is not None:
        c.fail(
            f"view is {view}; atomic_red_view_tko takes a partition or strided view "
            "without padding"
        )
    if view.tensor_view.ptr_attr == "multicast":
        c.fail(
            f"multicast ptr_attr is not allowed here ({view.tensor_view}); use the multimem ops"
        )
    view_index(c, view, g["index"])
    if g["value"][0].type != view_tile(view):
        c.fail(f"value is {g['value'][0].type}; {view} holds {view_tile(view)}")
    tokens_in(c, op, g["token"])
    if attr_of(op, "memory_ordering") != "relaxed":
        c.fail(f"memory ordering {attr_of(op, 'memory_ordering')}: only relaxed is allowed")
    if attr_of(op, "memory_scope") not in ("tl_blk", "device"):
        c.fail(f"memory scope {attr_of(op, 'memory_scope')}: tl_blk or device only")
    inbounds = attr_of(op, "inbounds")
    if inbounds and len(inbounds) != len(g["index"]):
        c.fail(f"inbounds has {len(inbounds)} entries for {len(g['index'])} indices")
    element = view.tensor_view.element
    _atomic_mode(c, op, element, _INT_MODES + ("addf",))
    results_are(c, op, TOKEN)


def _alloca(c, op):
    if op.operands:
        c.fail("alloca takes no operands")
    one_result(c, op)
    t = tile(c, op.results[0], "result")
    if t.rank != 0 or not isinstance(t.element, PointerType):
        c.fail(f"result is {t}; alloca makes a tile<ptr<T>>")
    num, align = attr_of(op, "num_elem"), attr_of(op, "alignment")
    if num < 0 or not is_pow2(align):
        c.fail(
            f"num_elem = {num} must not be negative and alignment = {align} must be a power of two"
        )
    # at least the element's natural size.  tileiras 13.4.92 counts bits // 8 of the
    # format's width (tf32's 19 bits: 2 bytes); 13.5.37 rounds up (tf32: 3 bytes, so an
    # alignment of 4), found by experiment (docs/dialect.md, alloca).  The stricter count
    # holds for both toolchains; i1 counts 1 byte, f4E2M1FN 1.
    pointee = t.element.pointee
    bits = 8 if pointee.name == "i1" else {"tf32": 19}.get(pointee.name, pointee.bits)
    natural = -(-bits // 8)
    if align < natural:
        c.fail(f"alignment = {align} is less than the natural size of {pointee} ({natural} bytes)")


def _int_or_pointer(t) -> bool:
    return isinstance(t, TileType) and (isinstance(t.element, PointerType) or t.element.is_int)


def _assume(c, op):
    """The predicates' rules as tileirdisasm checks them (each probed)."""
    v = op.operands[0]
    one_result(c, op, v.type)
    p = attr_of(op, "predicate")
    t = v.type
    if isinstance(p, DivBy):
        if not (isinstance(t, TensorViewType) or _int_or_pointer(t)):
            c.fail(f"div_by constrains integer or pointer tiles and tensor views, not {t}")
        if not is_pow2(p.divisor) or p.divisor > 1 << 62:
            c.fail(f"div_by<{p.divisor}>: the divisor must be a power of two up to 2^62")
        if (p.every is None) != (p.along is None):
            c.fail("div_by: `every` and `along` go together")
        if p.every is not None:
            if not isinstance(t, TileType) or t.rank == 0 or not 0 <= p.along < t.rank:
                c.fail(f"div_by every {p.every} along {p.along} does not fit {t}")
            if not 0 <= p.every <= t.shape[p.along]:
                c.fail(
                    f"div_by every {p.every} along {p.along}: `every` must lie in 0 .. "
                    f"{t.shape[p.along]}, the size of dimension {p.along} of {t}"
                )
    elif isinstance(p, Bounded):
        if not (isinstance(t, TileType) and getattr(t.element, "is_int", False)):
            c.fail(f"bounded constrains integer tiles, not {t}")
        # bounds are signed values of the element's width (i1: -1 .. 0)
        lo, hi = -(1 << (t.element.bits - 1)), (1 << (t.element.bits - 1)) - 1
        for bound in (p.lower, p.upper):
            if bound is not None and not lo <= bound <= hi:
                c.fail(
                    f"bounded<{p.lower}, {p.upper}>: bound {bound} is not a signed "
                    f"{t.element} ({lo} .. {hi})"
                )
        if p.lower is not None and p.upper is not None and p.lower > p.upper:
            c.fail(f"bounded<{p.lower}, {p.upper}> is empty")
    elif isinstance(p, SameElements):
        if not _int_or_pointer(t):
            c.fail(f"same_elements constrains integer or pointer tiles, not {t}")
        if len(p.values) != t.rank:
            c.fail(f"same_elements<{list(p.values)}> needs one entry per dim of {t}")
        for i, (n, d) in enumerate(zip(p.values, t.shape)):
            if not 0 <= n <= d:
                c.fail(
                    f"same_elements<{list(p.values)}>: entry {i} must lie in 0 .. {d}, the "
                    f"size of dimension {i} of {t}"
                )


# a printf conversion ends at the first of these after its `%` (the dialect's verifier)
_CONVERSION_ENDS = frozenset("diuoxXeEfFgGaAcsSpn%")


def _format_arguments(c: Check, text: str) -> int:
    """How many values the printf-like ``text`` consumes (``%%`` none)."""
    count, pos = 0, 0
    while pos < len(text):
        if text[pos] != "%":
            pos += 1
            continue
        end = next((i for i in range(pos + 1, len(text)) if text[i] in _CONVERSION_ENDS), None)
        if end is None:
            c.fail(f"format {text!r}: the conversion at {pos} never ends (no d, f, x, s, ...)")
        count += text[pos : end + 1] != "%%"
        pos = end + 1
    return count


def _print(c, op):
    g = operand_groups(op)
    wanted = _format_arguments(c, attr_of(op, "format"))
    if wanted != len(g["args"]):
        c.fail(f"format {attr_of(op, 'format')!r} takes {wanted} values, given {len(g['args'])}")
    for i, a in enumerate(g["args"]):
        tile(c, a, f"argument {i}")
    tokens_in(c, op, g["token"])
    if op.results:
        results_are(c, op, TOKEN)


def _make_token(c, op):
    results_are(c, op, TOKEN)


def _join_tokens(c, op):
    if len(op.operands) < 2:
        c.fail(f"join_tokens joins two or more tokens, given {len(op.operands)}")
    tokens_in(c, op, op.operands)
    results_are(c, op, TOKEN)


def _grid(c, op):
    results_are(c, op, *([TileType((), I32)] * 3))


def _get_global(c, op):
    name = attr_of(op, "name")
    found = [g for g in c.module.globals if g.name == name]
    if not found:
        c.fail(f"@{name} is not a global of this module")
    # the address may carry a ptr_attr or not (tileiras 13.4.92 takes both)
    want = found[0].value.type.element
    t = one_result(c, op)
    if not (
        isinstance(t, TileType)
        and t.rank == 0
        and isinstance(t.element, PointerType)
        and t.element.pointee == want
    ):
        c.fail(f"result is {t}; @{name}'s address is a tile<ptr<{want}>>")


def _token_op(c, op):
    tokens_in(c, op, op.operands)
    results_are(c, op, TOKEN)


VERIFY_MEMORY_RULES = {
    "load_ptr_tko": _load_ptr,
    "store_ptr_tko": _store_ptr,
    "offset": _offset,
    "alloca": _alloca,
    "atomic_rmw_tko": _atomic_rmw,
    "atomic_cas_tko": _atomic_cas,
    "atomic_red_view_tko": _atomic_red_view,
    "assume": _assume,
    "print_tko": _print,
    "make_token": _make_token,
    "join_tokens": _join_tokens,
    "get_tile_block_id": _grid,
    "get_num_tile_blocks": _grid,
    "get_global": _get_global,
    "gdc_wait_tko": _token_op,
    "gdc_launch_dependents_tko": _token_op,
    "memory_fence_alias_tko": _token_op,
}
