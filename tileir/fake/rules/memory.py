"""numpy rules of the memory ops: views, loads and stores through views and pointers,
atomics, ``offset``, ``alloca`` and ``get_global``.

View loads read the padding value in lanes past the tensor's extent (when the view
names none, the device leaves them unspecified: here they hold the launch's fill,
zeros unless ``fill=`` asked for a signalling pattern, ``tileir.fake.fill``) and view
stores never write those lanes; so do the masked-off lanes of a pointer load without
a ``padding`` operand, and a fresh ``alloca``.  Everything inside the tensor must be inside the buffer its base
points into, and every pointer access must land inside a buffer: otherwise the op
raises ``InterpretError`` naming the block and the address or element.

Loads of whole tiles from a buffer not yet written are zero-copy window views where
the lanes' tiles step evenly through it (one step for all lanes, or one along each
of two grid axes: a ``values.TileGrid``); stores that set one run of a buffer do not
copy the buffer first (``memory.Segment.overwrite``).
"""

from __future__ import annotations

import numpy as np

from tileir.fake.limits import power_text
from tileir.fake.progressions import index_steps
from tileir.fake.rules import atomics
from tileir.fake.rules.products import lays_out
from tileir.fake.values import (
    TOKEN_VALUE,
    TileGrid,
    batch_of,
    to_host,
    to_values,
    unsigned,
    value_dtype,
    widen,
    wrap_int,
)
from tileir.fake.views import TensorView, TileView, index_space, plan_affine, plan_tile
from tileir.formats import numpy_dtype
from tileir.ir.signatures import attr_of, operand_groups

__all__ = ["NUMPY_MEMORY_RULES"]

_PAD = {"zero": 0.0, "neg_zero": -0.0, "nan": np.nan, "pos_inf": np.inf, "neg_inf": -np.inf}


def _as_index(x: np.ndarray, fmt) -> np.ndarray:
    """Index / extent operands read unsigned, as int64 (huge values stay huge)."""
    if fmt.bits <= 32:
        return unsigned(x, fmt).astype(np.int64)
    u = unsigned(x, fmt)
    return np.minimum(u, np.uint64(1 << 62)).astype(np.int64)


# ----------------------------------------------------------------------------- views


def _make_tensor_view(ctx, op, args):
    g = operand_groups(op)
    tvt = op.results[0].type
    at = len(g["base"])
    shape, strides = [], []
    for static, out in ((tvt.shape, shape), (tvt.strides, strides)):
        for s in static:
            if s is None:
                v = op.operands[at]
                out.append(_as_index(args[at], v.type.element))
                at += 1
            else:
                out.append(np.array([s], dtype=np.int64))
    return [TensorView(tvt, np.asarray(args[0], dtype=np.int64), tuple(shape), tuple(strides))]


def _make_tile_view(ctx, op, args):
    return [TileView(op.results[0].type, args[0])]


def _get_tensor_shape(ctx, op, args):

    return [wrap_int(s, r.type.element) for s, r in zip(args[0].shape, op.results)]


def _get_index_space_shape(ctx, op, args):

    return [wrap_int(s, r.type.element) for s, r in zip(index_space(args[0]), op.results)]


# ----------------------------------------------------------------------------- plumbing


def _locate_base(ctx, op, tv: TensorView, isz: int):
    """The segment of the tensor's base and its element index, per lane (one segment)."""
    if tv.base.shape[0] == 1:
        i, off, _ = ctx.memory.locate_one(int(tv.base[0]))
        seg_ids, boff = np.array([i]), np.array([off], dtype=np.int64)
    else:
        seg_ids, boff, _ = ctx.memory.locate(tv.base)
    if (seg_ids < 0).any():
        lane = int(np.argmax(seg_ids < 0))
        raise ctx.error(
            op,
            f"the tensor view's base address {int(tv.base[lane]):#x} is not inside any buffer",
            lane=lane,
        )
    if not (seg_ids == seg_ids[0]).all():
        raise ctx.error(
            op,
            "the blocks' tensor views point into different buffers; the fake "
            "device needs one buffer per view op",
        )
    if (boff % isz).any():
        lane = int(np.argmax(boff % isz != 0))
        raise ctx.error(
            op,
            f"the tensor view's base address {int(tv.base[lane]):#x} is not "
            f"aligned to its {isz}-byte elements",
            lane=lane,
        )
    seg = ctx.memory.segments[int(seg_ids[0])]
    lo, hi = seg.lane_bounds(boff, isz)
    return seg, boff // isz, lo, hi


def _plan(ctx, op, view: TileView, index_vals, index_ops, b: int, per_batch: bool = False):
    fmt = view.type.tensor_view.element
    isz = numpy_dtype(fmt).itemsize
    if per_batch and not ctx.watch_memory and view.tensor.base.shape[0] == 1:
        # indices that step evenly from lane to lane: plan from the first and last lanes
        # (a debugger following memory gets every element from the general plan)
        found = _affine_plan(ctx, view, index_vals, index_ops, b, isz)
        if found is not None:
            return found + (fmt,)
    seg, base_elem, lo, hi = _locate_base(ctx, op, view.tensor, isz)
    idx = [_as_index(v, o.type.element) for v, o in zip(index_vals, index_ops)]
    plan, bad = plan_tile(view, idx, base_elem, b)
    if bad:
        lane, k, got, space = bad[0]
        raise ctx.error(
            op,
            f"index {k} is {got}, outside the view's index space (extent {space} there)",
            lane=lane,
        )
    return seg, plan, widen(lo, b), widen(hi, b), fmt


def _affine_plan(ctx, view: TileView, index_vals, index_ops, b: int, isz: int):
    """``(segment, plan, lo, hi)`` from :func:`~tileir.fake.views.plan_affine` for a view
    whose one base lies aligned inside a buffer and whose indices are progressions of the
    frame (or the same for every lane), in Python ints; None where the general plan must
    answer (and name what is wrong, if anything is)."""
    seg_i, boff, _ = ctx.memory.locate_one(int(view.tensor.base[0]))
    if seg_i < 0 or boff % isz:
        return None
    reads = []
    for v, o in zip(index_vals, index_ops):
        if v.ndim != 1:  # a gather-scatter view's tile of indices
            return None
        reads.append(int(_as_index(v, o.type.element)[0]) if v.shape[0] == 1 else v)
    found = index_steps(ctx.frame, [o.id for o in index_ops], reads)
    if found is None:
        return None
    steps, cols = found
    seg = ctx.memory.segments[seg_i]
    plan = plan_affine(view, steps, cols, boff // isz, b)
    if plan is None:
        return None
    lo, hi = seg.lane_bounds(np.array([boff], dtype=np.int64), isz)
    return seg, plan, lo, hi


def _check_full(ctx, op, seg, plan, lanes, lo, hi):
    """Whole tiles (of ``lanes``, None: all) must lie inside their buffer: the fast path's
    windows reach from each origin up by ``plan.span`` (its strides are non-negative)."""
    if lanes is None and plan.ends is not None and lo.shape[0] == hi.shape[0] == 1:
        # origins from the first to the last by steps >= 0, one buffer for all: the ends
        # bound the rest
        first, last = plan.ends
        if int(lo[0]) <= first and last + plan.span < int(hi[0]):
            return
        lo, hi = widen(lo, plan.b), widen(hi, plan.b)  # name the first lane outside
    if lanes is None:
        o, l_lo, l_hi = plan.origin, lo, hi
    else:
        o, l_lo, l_hi = plan.origin[lanes], lo[lanes], hi[lanes]
    bad = (o < l_lo) | (o + plan.span >= l_hi)
    if bad.any():
        at = int(np.argmax(bad))
        lane = at if lanes is None else int(lanes[at])
        raise ctx.error(
            op,
            f"the tile at elements {int(plan.origin[lane])}..{int(plan.origin[lane]) + plan.span}"
            f" of buffer {seg.key!r} lies inside the tensor but outside the buffer "
            f"({int(hi[lane] - lo[lane])} elements)",
            lane=lane,
        )


def _check_elems(ctx, op, seg, idx, inb, lanes, lo, hi) -> np.ndarray:
    """Every in-tensor element ``idx`` (of ``lanes``) must lie inside its buffer; returns
    the indices as ``int64`` (0 where the mask is off), safe to index the backing with.
    ``idx`` may be Python ints (``TilePlan.exact``): the comparison is exact."""
    l_lo = lo[lanes].reshape((-1,) + (1,) * (idx.ndim - 1))
    l_hi = hi[lanes].reshape((-1,) + (1,) * (idx.ndim - 1))
    bad = inb & ((idx < l_lo) | (idx >= l_hi))
    if bad.any():
        at = np.unravel_index(int(np.argmax(bad)), bad.shape)
        lane = int(lanes[at[0]])
        raise ctx.error(
            op,
            f"element {int(idx[at])} of buffer {seg.key!r} is inside the tensor "
            f"but outside the buffer ({int(hi[lane] - lo[lane])} elements), tile "
            f"element {tuple(int(a) for a in at[1:])}",
            lane=lane,
        )
    return _int64_elements(idx, inb)


def _int64_elements(idx: np.ndarray, inb: np.ndarray) -> np.ndarray:
    if idx.dtype == object:  # exact indices, already checked: those the mask keeps fit
        return np.where(inb, idx, 0).astype(np.int64)
    return idx


def _report(ctx, op, kind, seg, plan, b):
    if not ctx.watch_memory:
        return
    idx, inb = plan.elements()
    ctx.memory_event(op, kind, seg.key, widen(_int64_elements(idx, inb), b), widen(inb, b))


# ----------------------------------------------------------------------------- view load/store


def _load_view(ctx, op, args):
    g = operand_groups(op)
    n_idx = len(g["index"])
    view = args[0]
    index_vals = args[1 : 1 + n_idx]
    b = max([batch_of(view)] + [v.shape[0] for v in index_vals])
    seg, plan, lo, hi, fmt = _plan(ctx, op, view, index_vals, g["index"], b, per_batch=True)
    dt = numpy_dtype(fmt)
    typed = seg.typed(dt)
    full = plan.full
    if plan.fast and (plan.ends is not None or full.all()):  # known: every lane full
        _check_full(ctx, op, seg, plan, None, lo, hi)
        # zero-copy views of a buffer not yet written (a write copies it first: below, the
        # segment is marked shared); once written, copies (a view would cost a whole copy
        # of the buffer at the next write)
        step = None if seg.written else plan.even_step()
        grid = None if seg.written or step is not None or fmt.name == "i4" else plan.grid_steps()
        if step is not None:
            out = plan.even_view(typed, step, False)
            seg.shared = True
        elif grid is not None:
            out = TileGrid(plan.grid_view(typed, grid))
            seg.shared = True
        else:
            out = plan.windows(typed)[plan.origin]
    else:
        pad = view.type.padding
        if pad is not None:
            out = np.full((b,) + plan.tile, _PAD[pad]).astype(dt)
        else:  # a view without a padding value: lanes past the extent are undefined
            out = ctx.undefined(fmt, (b,) + plan.tile)
        if plan.fast and full.any():
            fl = np.nonzero(full)[0]
            _check_full(ctx, op, seg, plan, fl, lo, hi)
            out[fl] = plan.windows(typed)[plan.origin[fl]]
            part = np.nonzero(~full)[0]
        else:
            part = np.arange(b)
        if part.size:
            idx, inb = plan.elements(part)
            idx = _check_elems(ctx, op, seg, idx, inb, part, lo, hi)
            sub = out[part]
            sub[inb] = typed[idx[inb]]
            out[part] = sub
    _report(ctx, op, "read", seg, plan, ctx.b)
    return [out if isinstance(out, TileGrid) else to_values(out, fmt), TOKEN_VALUE]


def _fresh(ctx, vals) -> bool:
    """Whether ``vals`` is an array the kernel computed (no buffer's memory): one a store
    may keep as a buffer's backing without aliasing another buffer or the caller's."""
    if not isinstance(vals, np.ndarray):
        return False
    return not any(np.may_share_memory(vals, seg.backing) for seg in ctx.memory.segments)


def _store_view(ctx, op, args):
    g = operand_groups(op)
    n_idx = len(g["index"])
    value, view = args[0], args[1]
    index_vals = args[2 : 2 + n_idx]
    b = max([value.shape[0], batch_of(view)] + [v.shape[0] for v in index_vals])
    seg, plan, lo, hi, fmt = _plan(ctx, op, view, index_vals, g["index"], b, per_batch=True)
    if seg.readonly:
        raise ctx.error(op, f"buffer {seg.key!r} is a constant global: nothing may write it")
    dt = numpy_dtype(fmt)
    if type(value) is TileGrid:  # an mmaf's result laid out as this buffer: taken whole
        if plan.fast and plan.full.all() and lays_out(plan, value, seg, dt):
            _check_full(ctx, op, seg, plan, None, lo, hi)
            if not seg.adopt(value.base, dt):  # a buffer the kernel owns: one plain copy
                seg.writable(dt)[...] = value.base.reshape(-1)
            _report(ctx, op, "write", seg, plan, ctx.b)
            return [TOKEN_VALUE]
        value = value.array()
    vals = widen(to_host(value, fmt), b)
    full = plan.full
    if plan.fast and (plan.ends is not None or full.all()):  # known: every lane full
        _check_full(ctx, op, seg, plan, None, lo, hi)
        step = plan.even_step()
        size = plan.offsets.size
        covers = step is not None and (step == size or b == 1) and plan.dense()
        if covers:
            # the tiles cover one run of elements: nothing there need be copied first
            start = plan.first_origin
            stop = start + (b - 1) * step + size
            if start == 0 and _fresh(ctx, vals) and seg.adopt(vals, dt):
                _report(ctx, op, "write", seg, plan, ctx.b)
                return [TOKEN_VALUE]
            typed = seg.overwrite(dt, start, stop)
        else:
            typed = seg.writable(dt)
        if step is not None:
            plan.even_view(typed, step, True)[...] = vals
        else:
            plan.windows(typed)[plan.origin] = vals
    else:
        typed = seg.writable(dt)
        if plan.fast and full.any():
            fl = np.nonzero(full)[0]
            _check_full(ctx, op, seg, plan, fl, lo, hi)
            plan.windows(typed)[plan.origin[fl]] = vals[fl]
            part = np.nonzero(~full)[0]
        else:
            part = np.arange(b)
        if part.size:
            idx, inb = plan.elements(part)
            idx = _check_elems(ctx, op, seg, idx, inb, part, lo, hi)
            typed[idx[inb]] = vals[part][inb]
    _report(ctx, op, "write", seg, plan, ctx.b)
    return [TOKEN_VALUE]


def _atomic_red_view(ctx, op, args):
    g = operand_groups(op)
    n_idx = len(g["index"])
    view = args[0]
    index_vals = args[1 : 1 + n_idx]
    value = args[1 + n_idx]
    b = max([ctx.b, value.shape[0], batch_of(view)] + [v.shape[0] for v in index_vals])
    seg, plan, lo, hi, fmt = _plan(ctx, op, view, index_vals, g["index"], b)
    if seg.readonly:
        raise ctx.error(op, f"buffer {seg.key!r} is a constant global: nothing may write it")
    typed = seg.writable(numpy_dtype(fmt))
    idx, inb = plan.elements()
    idx = _check_elems(ctx, op, seg, idx, inb, np.arange(b), lo, hi)
    vals = widen(value, b)
    atomics.rmw(typed, idx[inb], vals[inb], attr_of(op, "mode"), fmt)
    if ctx.watch_memory:
        ctx.memory_event(op, "atomic", seg.key, widen(idx, ctx.b), widen(inb, ctx.b))
    return [TOKEN_VALUE]


# ----------------------------------------------------------------------------- pointers


def _resolve(ctx, op, ptrs: np.ndarray, active: np.ndarray, isz: int):
    """Per element: segment index and element index; refuses any active bad address."""
    seg_ids, boff, room = ctx.memory.locate(ptrs)
    bad = active & ((seg_ids < 0) | (room < isz) | (boff % isz != 0))
    if bad.any():
        at = np.unravel_index(int(np.argmax(bad)), bad.shape)
        addr = int(ptrs[at])
        why = (
            "is not inside any buffer"
            if seg_ids[at] < 0 or room[at] < isz
            else f"is not aligned to {isz} bytes"
        )
        raise ctx.error(
            op,
            f"address {addr:#x} (tile element {tuple(int(a) for a in at[1:])}) {why}",
            lane=int(at[0]),
        )
    return seg_ids, boff // isz


def _segments_of(seg_ids, active):
    ids = seg_ids[active]
    if ids.size == 0:
        return []
    first = ids.flat[0]
    if (ids == first).all():
        return [int(first)]
    return [int(s) for s in np.unique(ids)]


def _ptr_common(ctx, op, ptrs, mask, *others, every_block: bool = False):
    # an atomic is one contribution per block even when its operands agree across blocks
    b = max(
        [ptrs.shape[0], ctx.b if every_block else 1]
        + [o.shape[0] for o in others if o is not None]
        + ([mask.shape[0]] if mask is not None else [])
    )
    shape = (b,) + ptrs.shape[1:]
    ptrs = np.broadcast_to(ptrs, shape)
    active = np.ones(shape, dtype=bool) if mask is None else np.broadcast_to(mask, shape)
    fmt = op.operands[0].type.element.pointee
    isz = numpy_dtype(fmt).itemsize
    seg_ids, elem = _resolve(ctx, op, ptrs, active, isz)
    return b, shape, active, fmt, seg_ids, elem


def _load_ptr(ctx, op, args):
    g = operand_groups(op)
    ptrs = args[0]
    mask = args[1] if g["mask"] else None
    pad = args[1 + len(g["mask"])] if g["padding"] else None
    b, shape, active, fmt, seg_ids, elem = _ptr_common(ctx, op, ptrs, mask, pad)
    dt = value_dtype(fmt)
    if pad is None and (mask is None or ctx.fill is None):  # every lane read, or zeros
        out = np.zeros(shape, dtype=dt)
    elif pad is None:  # masked-off lanes without a padding operand are undefined
        out = to_values(ctx.undefined(fmt, shape), fmt).astype(dt, copy=False)
    else:
        out = np.array(np.broadcast_to(pad, shape))
    for s in _segments_of(seg_ids, active):
        seg = ctx.memory.segments[s]
        sel = active & (seg_ids == s)
        out[sel] = to_values(seg.typed(numpy_dtype(fmt))[elem[sel]], fmt)
        if ctx.watch_memory:
            ctx.memory_event(op, "read", seg.key, elem, sel)
    return [out, TOKEN_VALUE]


def _store_ptr(ctx, op, args):
    g = operand_groups(op)
    ptrs, value = args[0], args[1]
    mask = args[2] if g["mask"] else None
    b, shape, active, fmt, seg_ids, elem = _ptr_common(ctx, op, ptrs, mask, value)
    vals = np.broadcast_to(to_host(value, fmt), shape)
    for s in _segments_of(seg_ids, active):
        seg = ctx.memory.segments[s]
        if seg.readonly:
            raise ctx.error(op, f"buffer {seg.key!r} is a constant global: nothing may write it")
        sel = active & (seg_ids == s)
        seg.writable(numpy_dtype(fmt))[elem[sel]] = vals[sel]
        if ctx.watch_memory:
            ctx.memory_event(op, "write", seg.key, elem, sel)
    return [TOKEN_VALUE]


def _atomic(ctx, op, args, is_cas: bool):
    g = operand_groups(op)
    ptrs = args[0]
    operands = args[1:3] if is_cas else args[1:2]
    mask = args[len(operands) + 1] if g["mask"] else None
    b, shape, active, fmt, seg_ids, elem = _ptr_common(
        ctx, op, ptrs, mask, *operands, every_block=True
    )
    operands = [np.broadcast_to(o, shape) for o in operands]
    out = np.array(operands[0]) if is_cas else np.zeros(shape, dtype=value_dtype(fmt))
    for s in _segments_of(seg_ids, active):
        seg = ctx.memory.segments[s]
        if seg.readonly:
            raise ctx.error(op, f"buffer {seg.key!r} is a constant global: nothing may write it")
        sel = active & (seg_ids == s)
        typed = seg.writable(numpy_dtype(fmt))
        if is_cas:
            out[sel] = atomics.cas(typed, elem[sel], operands[0][sel], operands[1][sel], fmt)
        else:
            out[sel] = atomics.rmw(typed, elem[sel], operands[0][sel], attr_of(op, "mode"), fmt)
        if ctx.watch_memory:
            ctx.memory_event(op, "atomic", seg.key, elem, sel)
    return [out, TOKEN_VALUE]


def _offset(ctx, op, args):
    isz = numpy_dtype(op.results[0].type.element.pointee).itemsize
    return [args[0] + args[1].astype(np.int64) * isz]


def _alloca(ctx, op, args):
    fmt = op.results[0].type.element.pointee
    n = int(attr_of(op, "num_elem"))
    b = ctx.b
    # what the launch allocates (globals, allocas: keys that are names) stays in its limit
    want = b * n * numpy_dtype(fmt).itemsize
    held = sum(s.backing.nbytes for s in ctx.memory.segments if isinstance(s.key, str))
    if held + want > ctx.limits.max_launch_bytes:
        raise ctx.error(
            op,
            f"an alloca of {n} elements for {b} block(s) ({want} bytes, {held} already held) "
            f"passes the limit of {power_text(ctx.limits.max_launch_bytes)} bytes per "
            f"launch; {ctx.limits.advice('max_launch_bytes')}",
        )
    backing = ctx.undefined(fmt, (b * n,))  # a fresh alloca holds nothing defined
    seg = ctx.memory.add(
        f"alloca%{op.results[0].id}",
        backing,
        count=b,
        align=int(attr_of(op, "alignment") or 1),
        borrowed=False,
    )
    ctx.scoped_alloca(seg)
    if ctx.watch_alloca:  # a debugger following which elements were written
        ctx.observer.on_alloca(op, seg.key, n, ctx.block_ids)
    return [seg.base + np.arange(b, dtype=np.int64) * seg.pitch]


def _get_global(ctx, op, args):
    name = attr_of(op, "name")
    seg = ctx.globals.get(name)
    if seg is None:
        raise ctx.error(op, f"the module has no global @{name}")
    return [np.array([seg.base], dtype=np.int64)]


NUMPY_MEMORY_RULES = {
    "make_tensor_view": _make_tensor_view,
    "make_partition_view": _make_tile_view,
    "make_strided_view": _make_tile_view,
    "make_gather_scatter_view": _make_tile_view,
    "get_tensor_shape": _get_tensor_shape,
    "get_index_space_shape": _get_index_space_shape,
    "load_view_tko": _load_view,
    "store_view_tko": _store_view,
    "load_ptr_tko": _load_ptr,
    "store_ptr_tko": _store_ptr,
    "atomic_rmw_tko": lambda ctx, op, args: _atomic(ctx, op, args, False),
    "atomic_cas_tko": lambda ctx, op, args: _atomic(ctx, op, args, True),
    "atomic_red_view_tko": _atomic_red_view,
    "offset": _offset,
    "alloca": _alloca,
    "get_global": _get_global,
}
