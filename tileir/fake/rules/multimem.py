"""numpy rules of the multimem ops (13.5): one access of a cell on every replica of a
multicast buffer (docs/dialect.md §1.13; the fake device's model is docs/testing.md
"Multicast buffers").

A multicast argument is mapped as one segment of ``devices`` lanes, one per simulated GPU
(``FakeDevice(devices=N)``; the interpreter's ``devices=``), each a replica of the buffer
the kernel addresses: its pointer is replica 0's, and the view's elements are proven
inside one replica.  ``load_reduce`` reduces the cell's corresponding elements across the
replicas (in replica order, each step rounded to the format, integers wrapping), ``reduce``
applies the reduction to the cell of each replica atomically (the contributions of all
blocks, one at a time, as ``atomic_red_view_tko`` does), ``store`` writes each replica.
Lanes past the extent are neither read (the result holds zero there) nor written.
"""

from __future__ import annotations

import numpy as np

from tileir.fake.rules import atomics
from tileir.fake.rules.memory import _check_elems, _plan
from tileir.fake.values import TOKEN_VALUE, batch_of, to_values, widen
from tileir.formats import numpy_dtype
from tileir.ir.signatures import attr_of, operand_groups

__all__ = ["NUMPY_MULTIMEM_RULES", "combine_mode"]


def combine_mode(reduction: str, fmt) -> str:
    """The :func:`tileir.fake.rules.atomics.combine` mode of a multimem ``reduction`` on
    ``fmt``: floats add in their format, integers wrap; min / max compare signed integers or
    floats; umin / umax the unsigned view of the bits."""
    if reduction == "add":
        return "addf" if fmt.is_float else "add"
    return reduction


def _access(ctx, op, args, has_value: bool):
    g = operand_groups(op)
    n_idx = len(g["index"])
    view = args[0]
    value = args[1] if has_value else None
    first = 2 if has_value else 1
    index_vals = args[first : first + n_idx]
    sizes = [batch_of(view)] + [v.shape[0] for v in index_vals]
    if value is not None:  # a write is one contribution per block, even of equal operands
        sizes += [ctx.b, value.shape[0]]
    b = max(sizes)
    seg, plan, lo, hi, fmt = _plan(ctx, op, view, index_vals, g["index"], b)
    idx, inb = plan.elements()
    idx = _check_elems(ctx, op, seg, idx, inb, np.arange(idx.shape[0]), lo, hi)
    replica = seg.typed(numpy_dtype(fmt)).size // seg.count  # elements of one replica
    return seg, idx, inb, value, fmt, replica, b


def _load_reduce(ctx, op, args):
    seg, idx, inb, _value, fmt, replica, b = _access(ctx, op, args, False)
    typed = seg.typed(numpy_dtype(fmt))
    mode = combine_mode(attr_of(op, "reduction"), fmt)
    picked = np.where(inb, idx, 0)
    out = to_values(typed[picked], fmt)
    for r in range(1, seg.count):
        out = atomics.combine(mode, out, to_values(typed[picked + r * replica], fmt), fmt)
    out = np.where(inb, out, np.zeros((), dtype=out.dtype))
    if ctx.watch_memory:
        for r in range(seg.count):
            ctx.memory_event(
                op, "read", seg.key, widen(idx + r * replica, ctx.b), widen(inb, ctx.b)
            )
    return [out, TOKEN_VALUE]


def _writes(ctx, op, args, reduce: bool):
    seg, idx, inb, value, fmt, replica, b = _access(ctx, op, args, True)
    if seg.readonly:
        raise ctx.error(op, f"buffer {seg.key!r} is a constant global: nothing may write it")
    typed = seg.writable(numpy_dtype(fmt))
    vals = widen(value, b)
    mode = combine_mode(attr_of(op, "reduction"), fmt) if reduce else "xchg"
    for r in range(seg.count):
        at = idx[inb] + r * replica
        atomics.rmw(typed, at, vals[inb], mode, fmt)
        if ctx.watch_memory:
            kind = "atomic" if reduce else "write"
            ctx.memory_event(op, kind, seg.key, widen(idx + r * replica, ctx.b), widen(inb, ctx.b))
    return [TOKEN_VALUE]


NUMPY_MULTIMEM_RULES = {
    "multimem_load_reduce_view_tko": _load_reduce,
    "multimem_reduce_view_tko": lambda ctx, op, args: _writes(ctx, op, args, True),
    "multimem_store_view_tko": lambda ctx, op, args: _writes(ctx, op, args, False),
}
