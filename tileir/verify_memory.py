"""Type rules of the memory, view, atomic, token and misc ops (part of ``VERIFY_RULES``)."""

from __future__ import annotations

from tileir.module import Bounded, DivBy, SameElements
from tileir.signatures import attr_of, operand_groups
from tileir.types import (I1, I32, PADDING_VALUES, TOKEN, GatherScatterViewType,
                          PartitionViewType, PointerType, StridedViewType, TensorViewType,
                          TileType)
from tileir.verify_common import (int_tile, one_result, scalar_int, tile, token, types_text)

__all__ = ["MEMORY_RULES"]

_TILE_VIEWS = (PartitionViewType, StridedViewType, GatherScatterViewType)


def _pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _results(c, op, *types) -> None:
    if len(op.results) != len(types) or any(r.type != t for r, t in zip(op.results, types)):
        c.fail(f"results are ({types_text(op.results)}); expected "
               f"({', '.join(map(str, types))})")


def _tokens_in(c, op, values) -> None:
    for v in values:
        token(c, v, "token")


def _make_tensor_view(c, op):
    g = operand_groups(op)
    base = tile(c, g["base"][0], "base")
    one_result(c, op)
    view = op.results[0].type
    if not isinstance(view, TensorViewType):
        c.fail(f"result is {view}, not a tensor_view")
    if base.rank != 0 or not isinstance(base.element, PointerType) or \
            base.element.pointee != view.element:
        c.fail(f"base is {base}; {view} needs a tile<ptr<{view.element}>>")
    if base.element.attr != view.ptr_attr:  # the dialect's verifier: the view keeps it
        c.fail(f"the base pointer's ptr_attr ({base.element.attr}) and the view's "
               f"({view.ptr_attr}) differ: a tensor_view keeps its base pointer's ptr_attr")
    if len(view.shape) != len(view.strides):
        c.fail(f"{view} has {len(view.shape)} dims and {len(view.strides)} strides")
    for group, entries in (("shape", view.shape), ("strides", view.strides)):
        dynamic = sum(e is None for e in entries)
        if len(g[group]) != dynamic:
            c.fail(f"{view} has {dynamic} dynamic {group} entries, given {len(g[group])} values")
    dynamic_values = g["shape"] + g["strides"]
    for v in dynamic_values:
        scalar_int(c, v, "a dynamic shape or stride")
    if len({v.type for v in dynamic_values}) > 1:
        c.fail(f"dynamic shapes and strides must share one type, got {types_text(dynamic_values)}")


def _check_dim_map(c, dim_map, rank, what) -> None:
    if sorted(dim_map) != list(range(rank)):
        c.fail(f"{what}: dim_map {list(dim_map)} is not a permutation of 0..{rank - 1}")


def _check_padding(c, view) -> None:
    if view.padding is None:
        return
    if view.padding not in PADDING_VALUES:
        c.fail(f"{view}: padding_value {view.padding!r} is not one of {', '.join(PADDING_VALUES)}")
    if view.padding != "zero" and not view.tensor_view.element.is_float:
        c.fail(f"{view}: padding_value {view.padding} is for float views only")


def _make_view(kind):
    def rule(c, op):
        tv = op.operands[0].type
        if not isinstance(tv, TensorViewType):
            c.fail(f"operand is {tv}, not a tensor_view")
        one_result(c, op)
        view = op.results[0].type
        if not isinstance(view, kind) or view.tensor_view != tv:
            c.fail(f"result is {view}; `{op.name}` of {tv} makes a {kind.__name__} of it")
        if len(view.tile_shape) != tv.rank:
            c.fail(f"{view}: a tile of rank {len(view.tile_shape)} over a rank-{tv.rank} tensor")
        if isinstance(view, GatherScatterViewType):
            if not 0 <= view.sparse_dim < tv.rank:
                c.fail(f"{view}: sparse_dim={view.sparse_dim} is not a dimension")
        else:
            _check_dim_map(c, view.dim_map, tv.rank, str(view))
        if isinstance(view, StridedViewType) and len(view.traversal_strides) != tv.rank:
            c.fail(f"{view}: {len(view.traversal_strides)} traversal strides for rank {tv.rank}")
        _check_padding(c, view)
    return rule


def _shape_query(views):
    def rule(c, op):
        v = op.operands[0].type
        if not isinstance(v, views):
            c.fail(f"operand is {v}; `{op.name}` reads a {' or '.join(k.__name__ for k in views)}")
        rank = v.rank
        if len(op.results) != rank:
            c.fail(f"has {len(op.results)} results for the {rank} dims of {v}")
        for r in op.results:
            scalar_int(c, r, "each result")
    return rule


def _view_tile(view) -> TileType:
    return TileType(view.tile_shape, view.tensor_view.element)


def _view_index(c, view, index) -> None:
    if len(index) != view.rank:
        c.fail(f"{view} takes {view.rank} indices, got {len(index)}")
    for i, v in enumerate(index):
        if isinstance(view, GatherScatterViewType) and i == view.sparse_dim:
            t = int_tile(c, v, f"index {i}")
            if t.shape != (view.tile_shape[i],):
                c.fail(f"index {i} is {t}; the sparse dim of {view} takes "
                       f"{view.tile_shape[i]} row indices")
        else:
            scalar_int(c, v, f"index {i}")
    if len({v.type.element for v in index}) > 1:
        c.fail(f"indices must share one integer type, got {types_text(index)}")


def _ordering(c, op, allowed) -> None:
    ordering = attr_of(op, "memory_ordering")
    if ordering not in allowed:
        c.fail(f"memory ordering {ordering} is not allowed here ({', '.join(allowed)})")
    scope = attr_of(op, "memory_scope")
    if ordering == "weak" and scope is not None:
        c.fail(f"a weak access takes no memory scope (got {scope})")
    if ordering != "weak" and scope is None:
        c.fail(f"a {ordering} access needs a memory scope")


def _inbounds(c, op, n) -> None:
    inbounds = attr_of(op, "inbounds")
    if inbounds and len(inbounds) != n:
        c.fail(f"inbounds has {len(inbounds)} entries for {n} indices")


def _load_view(c, op):
    g = operand_groups(op)
    view = g["view"][0].type
    if not isinstance(view, _TILE_VIEWS):
        c.fail(f"view is {view}; loads read a partition, strided or gather_scatter view")
    _view_index(c, view, g["index"])
    _tokens_in(c, op, g["token"])
    _ordering(c, op, ("weak", "relaxed", "acquire"))
    _inbounds(c, op, len(g["index"]))
    _results(c, op, _view_tile(view), TOKEN)


def _store_view(c, op):
    g = operand_groups(op)
    view = g["view"][0].type
    if not isinstance(view, _TILE_VIEWS):
        c.fail(f"view is {view}; stores write a partition, strided or gather_scatter view")
    if g["tile"][0].type != _view_tile(view):
        c.fail(f"tile is {g['tile'][0].type}; {view} stores {_view_tile(view)}")
    _view_index(c, view, g["index"])
    _tokens_in(c, op, g["token"])
    _ordering(c, op, ("weak", "relaxed", "release"))
    _inbounds(c, op, len(g["index"]))
    _results(c, op, TOKEN)


def _pointers(c, v) -> TileType:
    t = tile(c, v, "pointers")
    if not isinstance(t.element, PointerType):
        c.fail(f"pointers is {t}, not a tile of pointers")
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
    _tokens_in(c, op, g["token"])
    _ordering(c, op, ("weak", "relaxed", "acquire"))
    _results(c, op, value, TOKEN)


def _store_ptr(c, op):
    g = operand_groups(op)
    ptrs = _pointers(c, g["pointers"][0])
    value = TileType(ptrs.shape, ptrs.element.pointee)
    if g["value"][0].type != value:
        c.fail(f"value is {g['value'][0].type}; {ptrs} stores {value}")
    _mask(c, g["mask"], ptrs.shape)
    _tokens_in(c, op, g["token"])
    _ordering(c, op, ("weak", "relaxed", "release"))
    _results(c, op, TOKEN)


def _offset(c, op):
    ptrs = _pointers(c, op.operands[0])
    off = int_tile(c, op.operands[1], "offsets")
    if off.shape != ptrs.shape:
        c.fail(f"offsets {off} must have the pointers' shape {ptrs.shape}")
    _results(c, op, ptrs)


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
    _tokens_in(c, op, g["token"])
    if attr_of(op, "memory_ordering") not in ("relaxed", "acquire", "release", "acq_rel"):
        c.fail(f"memory ordering {attr_of(op, 'memory_ordering')} is not one of relaxed, "
               "acquire, release, acq_rel")
    _atomic_mode(c, op, value.element, _INT_MODES + ("addf", "xchg"))
    _results(c, op, value, TOKEN)


def _atomic_cas(c, op):
    g = operand_groups(op)
    ptrs = _pointers(c, g["pointers"][0])
    value = TileType(ptrs.shape, ptrs.element.pointee)
    for name in ("cmp", "val"):
        if g[name][0].type != value:
            c.fail(f"{name} is {g[name][0].type}; {ptrs} holds {value}")
    if not _word(value.element):
        c.fail(f"atomic_cas_tko works on 32- or 64-bit integers and floats, the values are "
               f"{value.element}")
    _mask(c, g["mask"], ptrs.shape)
    _tokens_in(c, op, g["token"])
    if attr_of(op, "memory_ordering") not in ("relaxed", "acquire", "release", "acq_rel"):
        c.fail(f"memory ordering {attr_of(op, 'memory_ordering')} is not one of relaxed, "
               "acquire, release, acq_rel")
    _results(c, op, value, TOKEN)


def _atomic_red_view(c, op):
    g = operand_groups(op)
    view = g["view"][0].type
    if not isinstance(view, (PartitionViewType, StridedViewType)) or view.padding is not None:
        c.fail(f"view is {view}; atomic_red_view_tko takes a partition or strided view "
               "without padding")
    _view_index(c, view, g["index"])
    if g["value"][0].type != _view_tile(view):
        c.fail(f"value is {g['value'][0].type}; {view} holds {_view_tile(view)}")
    _tokens_in(c, op, g["token"])
    if attr_of(op, "memory_ordering") != "relaxed":
        c.fail(f"memory ordering {attr_of(op, 'memory_ordering')}: only relaxed is allowed")
    if attr_of(op, "memory_scope") not in ("tl_blk", "device"):
        c.fail(f"memory scope {attr_of(op, 'memory_scope')}: tl_blk or device only")
    element = view.tensor_view.element
    _atomic_mode(c, op, element, _INT_MODES + ("addf",))
    _results(c, op, TOKEN)


def _alloca(c, op):
    if op.operands:
        c.fail("alloca takes no operands")
    one_result(c, op)
    t = tile(c, op.results[0], "result")
    if t.rank != 0 or not isinstance(t.element, PointerType):
        c.fail(f"result is {t}; alloca makes a tile<ptr<T>>")
    num, align = attr_of(op, "num_elem"), attr_of(op, "alignment")
    if num < 0 or not _pow2(align):
        c.fail(f"num_elem = {num} must not be negative and alignment = {align} must be a power "
               "of two")
    # at least the element's natural size, counted as the dialect does: bits // 8 of the
    # format's width (i1 counts 1 byte, tf32 2, f4E2M1FN 0)
    pointee = t.element.pointee
    natural = 1 if pointee.name == "i1" else {"tf32": 19}.get(pointee.name, pointee.bits) // 8
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
        if not _pow2(p.divisor) or p.divisor > 1 << 62:
            c.fail(f"div_by<{p.divisor}>: the divisor must be a power of two up to 2^62")
        if (p.every is None) != (p.along is None):
            c.fail("div_by: `every` and `along` go together")
        if p.every is not None:
            if not isinstance(t, TileType) or t.rank == 0 or not 0 <= p.along < t.rank:
                c.fail(f"div_by every {p.every} along {p.along} does not fit {t}")
            if not 0 <= p.every <= t.shape[p.along]:
                c.fail(f"div_by every {p.every} along {p.along}: `every` must lie in 0 .. "
                       f"{t.shape[p.along]}, the size of dimension {p.along} of {t}")
    elif isinstance(p, Bounded):
        if not (isinstance(t, TileType) and getattr(t.element, "is_int", False)):
            c.fail(f"bounded constrains integer tiles, not {t}")
        # bounds are signed values of the element's width (i1: -1 .. 0)
        lo, hi = -(1 << (t.element.bits - 1)), (1 << (t.element.bits - 1)) - 1
        for bound in (p.lower, p.upper):
            if bound is not None and not lo <= bound <= hi:
                c.fail(f"bounded<{p.lower}, {p.upper}>: bound {bound} is not a signed "
                       f"{t.element} ({lo} .. {hi})")
        if p.lower is not None and p.upper is not None and p.lower > p.upper:
            c.fail(f"bounded<{p.lower}, {p.upper}> is empty")
    elif isinstance(p, SameElements):
        if not _int_or_pointer(t):
            c.fail(f"same_elements constrains integer or pointer tiles, not {t}")
        if len(p.values) != t.rank:
            c.fail(f"same_elements<{list(p.values)}> needs one entry per dim of {t}")
        for i, (n, d) in enumerate(zip(p.values, t.shape)):
            if not 0 <= n <= d:
                c.fail(f"same_elements<{list(p.values)}>: entry {i} must lie in 0 .. {d}, the "
                       f"size of dimension {i} of {t}")


# a printf conversion ends at the first of these after its `%` (the dialect's verifier)
_CONVERSION_ENDS = frozenset("diuoxXeEfFgGaAcsSpn%")


def _format_arguments(c, text: str) -> int:
    """How many values the printf-like ``text`` consumes (``%%`` none)."""
    count, pos = 0, 0
    while pos < len(text):
        if text[pos] != "%":
            pos += 1
            continue
        end = next((i for i in range(pos + 1, len(text)) if text[i] in _CONVERSION_ENDS), None)
        if end is None:
            c.fail(f"format {text!r}: the conversion at {pos} never ends (no d, f, x, s, ...)")
        count += text[pos:end + 1] != "%%"
        pos = end + 1
    return count


def _print(c, op):
    g = operand_groups(op)
    wanted = _format_arguments(c, attr_of(op, "format"))
    if wanted != len(g["args"]):
        c.fail(f"format {attr_of(op, 'format')!r} takes {wanted} values, given "
               f"{len(g['args'])}")
    for i, a in enumerate(g["args"]):
        tile(c, a, f"argument {i}")
    _tokens_in(c, op, g["token"])
    if op.results:
        _results(c, op, TOKEN)


def _make_token(c, op):
    _results(c, op, TOKEN)


def _join_tokens(c, op):
    if len(op.operands) < 2:
        c.fail(f"join_tokens joins two or more tokens, given {len(op.operands)}")
    _tokens_in(c, op, op.operands)
    _results(c, op, TOKEN)


def _grid(c, op):
    _results(c, op, *([TileType((), I32)] * 3))


def _get_global(c, op):
    name = attr_of(op, "name")
    found = [g for g in c.module.globals if g.name == name]
    if not found:
        c.fail(f"@{name} is not a global of this module")
    # the address may carry a ptr_attr or not (tileiras 13.4.92 takes both)
    want = found[0].value.type.element
    t = one_result(c, op)
    if not (isinstance(t, TileType) and t.rank == 0 and isinstance(t.element, PointerType)
            and t.element.pointee == want):
        c.fail(f"result is {t}; @{name}'s address is a tile<ptr<{want}>>")


def _token_op(c, op):
    _tokens_in(c, op, op.operands)
    _results(c, op, TOKEN)


MEMORY_RULES = {
    "make_tensor_view": _make_tensor_view,
    "make_partition_view": _make_view(PartitionViewType),
    "make_strided_view": _make_view(StridedViewType),
    "make_gather_scatter_view": _make_view(GatherScatterViewType),
    "get_tensor_shape": _shape_query((TensorViewType,)),
    "get_index_space_shape": _shape_query(_TILE_VIEWS),
    "load_view_tko": _load_view,
    "store_view_tko": _store_view,
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
