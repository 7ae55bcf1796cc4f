"""``find_padding_leaks``: padding read past a tensor's extent that reaches an output.

A view load's lanes past the tensor's extent read the view's padding value.
That is only harmless if the padding never changes what the kernel writes: a
softmax over 3 of 4 lanes must pad with ``neg_inf`` (``exp(-inf - max) = 0``
adds nothing to the sum); with ``zero`` padding the sum counts ``exp(0 - max)``
and every stored lane is wrong.  The finder runs the kernel (every block),
follows the padded lanes through the ops with the taint rules of
:mod:`tileir.debug.taint` and reports each load whose padding reaches a lane
some store, atomic or pointer store writes (directly, or through a reduction
whose result it changed).  Lanes a view store does not write (past the output's
extent) and lanes a mask turns off are not outputs.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy as np

from tileir.debug.findings import Finding, Related, where
from tileir.debug.flow import Flow
from tileir.debug.launching import Target
from tileir.debug.opkinds import OP_KINDS, PLUMBING
from tileir.debug.taint import TAINT_RULES, TaintContext, groups_at, spread
from tileir.debug.tracer import Trace, trace_kernel
from tileir.ir.dialect import TERMINATORS
from tileir.ir.signatures import attr_of

__all__ = ["find_padding_leaks", "leaks_of"]

_SINK_GROUPS = {
    "store_view_tko": ("tile", "index"),
    "store_ptr_tko": ("pointers", "value", "mask"),
    "atomic_rmw_tko": ("pointers", "arg", "mask"),
    "atomic_cas_tko": ("pointers", "cmp", "val", "mask"),
    "atomic_red_view_tko": ("index", "value"),
    "multimem_reduce_view_tko": ("value", "index"),
    "multimem_store_view_tko": ("value", "index"),
}


def _buffer_name(trace, buf) -> str:
    if isinstance(buf, (int, np.integer)) and 0 <= buf < len(trace.params):
        return f"argument {int(buf)} ({trace.params[int(buf)].role})"
    if isinstance(buf, (int, np.integer)):
        return f"argument {int(buf)}"
    return f"buffer {buf}"


def _has(arr, lane, bit: int) -> bool:
    try:
        return bool(int(arr[lane]) >> bit & 1)
    except (IndexError, ValueError):
        return False


def _first(arr, bit: int):
    hit = ((arr >> np.uint64(bit)) & np.uint64(1)).astype(bool)
    if not hit.any():
        return None
    return tuple(int(i) for i in np.unravel_index(int(np.argmax(hit)), arr.shape))


def _back(step, k: int, pred, shape: tuple, lane: tuple, bit: int):
    """The lane of operand ``k``'s taint ``pred`` that lane ``lane`` of the result came from
    (None when that operand did not carry ``bit`` there)."""
    kind = OP_KINDS.get(step.op.name)
    cands = []
    if kind == "reduce" and k == 0:
        d = int(attr_of(step.op, "dim"))
        cands = [lane[:d] + (i,) + lane[d:] for i in range(pred.shape[d])]
    elif kind == "mma" and k < 2 and len(lane) >= 2:
        n = pred.shape[-1] if k == 0 else pred.shape[-2]
        cands = [lane[:-1] + (i,) if k == 0 else lane[:-2] + (i, lane[-1]) for i in range(n)]
    elif kind == "permute":
        perm = [int(p) for p in attr_of(step.op, "permutation")]
        src = [0] * len(lane)
        for i, p in enumerate(perm):
            src[p] = lane[i]
        cands = [tuple(src)]
    elif kind == "reshape":
        flat = int(np.ravel_multi_index(lane, shape)) if shape else 0
        cands = [tuple(int(i) for i in np.unravel_index(flat, pred.shape))] if pred.shape else [()]
    elif kind in ("elementwise", "select", "broadcast") and pred.ndim == len(lane):
        cands = [tuple(0 if n == 1 else i for n, i in zip(pred.shape, lane))]
    else:
        got = _first(pred, bit)
        return got
    return next((c for c in cands if _has(pred, c, bit)), None)


def _path(ctx: TaintContext, start: list, shape: tuple, lane: tuple, bit: int) -> list:
    """The ops a padded lane went through to reach the sink (oldest first), following
    the lane backwards where the ops' lane maps allow."""
    steps = []
    current = None
    for t in start:
        if t is not None:
            at = (
                tuple(0 if n == 1 else i for n, i in zip(t.shape, lane))
                if t.ndim == len(lane)
                else _first(t, bit)
            )
            if at is not None and _has(t, at, bit):
                current = (t, at)
                break
    for _ in range(100000):
        if current is None:
            break
        arr, at = current
        got = ctx.why.get(id(arr))
        if got is None:
            break
        step, preds, note = got
        steps.append((step, note))
        current = None
        for k, p in enumerate(preds):
            if p is None:
                continue
            back = _back(step, k, p, arr.shape, at, bit)
            if back is not None:
                current = (p, back)
                break
        if current is None:  # no lane map: any operand carrying the bit
            for p in preds:
                if p is not None and _first(p, bit) is not None:
                    current = (p, _first(p, bit))
                    break
    steps.reverse()
    return steps


def _check_sink(ctx, trace, step, ts, leaks: dict) -> None:
    names = _SINK_GROUPS.get(step.op.name)
    if names is None:
        return
    g = groups_at(step.op)
    for m in step.memory:
        if m.kind not in ("write", "atomic"):
            continue
        shape = m.mask.shape
        tainted = np.zeros(shape, dtype=np.uint64)
        sources = []
        for name in names:
            for i in g.get(name, ()):
                if ts[i] is not None:
                    tainted = tainted | spread(ts[i], shape)
                    sources.append(ts[i])
        hit = (tainted != 0) & m.mask
        if not hit.any():
            continue
        bits_hit = int(np.bitwise_or.reduce(tainted[hit]))
        for bit in range(64):
            if not bits_hit >> bit & 1:
                continue
            lanes = hit & ((tainted >> np.uint64(bit)) & np.uint64(1)).astype(bool)
            key = (bit, id(step.op))
            entry = leaks.get(key)
            if entry is None:
                at = np.unravel_index(int(np.argmax(lanes)), shape)
                lane = tuple(int(i) for i in at)
                element = int(m.elements[at])
                path = _path(ctx, sources, shape, lane, bit)
                leaks[key] = [
                    step,
                    lane,
                    element,
                    m.buffer,
                    path,
                    int(lanes.sum()),
                    {step.block},
                    [(m.buffer, m.elements[lanes])],
                ]
            else:
                entry[5] += int(lanes.sum())
                entry[6].add(step.block)
                entry[7].append((m.buffer, m.elements[lanes]))


def _finding(ctx, trace, bit: int, entry) -> Finding:
    sink, lane, element, buf, path, count, blocks, reached = entry
    load = ctx.source_ops[bit]
    padded, n_padded = ctx.first_lane.get((bit, sink.block), (None, 0))
    pad = getattr(load.operands[0].type, "padding", None) if load.operands else None
    pad_text = f"padding {pad}" if pad else "padding (masked-off lanes)"
    texts = trace.texts
    out = _buffer_name(trace, buf)
    if ctx.undefined_only:
        lanes_text = (
            "lie past the tensor's extent of a view with no padding value"
            if load.name == "load_view_tko"
            else "are masked off in a pointer load with no padding operand"
        )
        message = (
            f"{n_padded} lane(s) of the loaded tile {lanes_text}, so they hold no defined "
            f"value; it reaches element {element} of {out} (tile lane {lane}) "
            f"written by `{sink.op.name}` at {where(sink.loc)}"
        )
    else:
        message = (
            f"{n_padded} lane(s) of the loaded tile lie past the tensor's extent and read "
            f"the {pad_text}; it reaches element {element} of {out} (tile lane {lane}) "
            f"written by `{sink.op.name}` at {where(sink.loc)}"
        )
    if count > 1 or len(blocks) > 1:
        message += f"; {count} written element(s) in {len(blocks)} block(s) depend on it"
    related = [
        Related(
            "reaches",
            sink.op,
            sink.text,
            sink.loc,
            sink.block,
            f"element {element} of {out}, tile lane {lane}",
        )
    ]
    hops = [
        f"{s.op.name}@{where(s.loc).rsplit(':', 1)[-1]}" + (f" [{note}]" if note else "")
        for i, (s, note) in enumerate(path)
        if i == 0 or note or s.op.name not in PLUMBING
    ]
    hops.append(f"{sink.op.name}@{where(sink.loc).rsplit(':', 1)[-1]}")
    return Finding(
        "uninitialized" if ctx.undefined_only else "padding-leak",
        "undefined-lanes" if ctx.undefined_only else pad or "masked",
        trace.kernel,
        load,
        texts.of(load).text,
        load.loc,
        sink.block,
        padded,
        message,
        tuple(related),
        tuple(hops),
        count,
        _merged(reached),
    )


def _merged(reached: list) -> tuple:
    """``(buffer, unique elements)`` per buffer of the ``(buffer, elements)`` pieces."""
    by: dict = {}
    for buf, elems in reached:
        by.setdefault(buf, []).append(np.asarray(elems, dtype=np.int64).reshape(-1))
    return tuple((buf, np.unique(np.concatenate(parts))) for buf, parts in by.items())


def find_padding_leaks(
    target: Union[Trace, Target],
    args: Optional[Sequence[Any]] = None,
    grid: Optional[Sequence[int]] = None,
    *,
    masked: bool = False,
) -> list[Finding]:
    """Loads whose padded lanes (past the tensor's extent) reach a written output.

    ``target`` is a :class:`~tileir.debug.tracer.Trace` (of every block, to see every
    store) or a kernel to trace on ``args``.  ``masked=True`` also treats the masked-off
    lanes of pointer loads (which read the load's ``padding`` operand) as padding.  One
    :class:`Finding` per (load, store) pair: ``op`` / ``loc`` / ``element`` are the load and
    its first padded tile lane, ``block`` the block of the first leak; ``related`` names
    the store and the output element; ``path`` the ops in between.
    """
    if isinstance(target, Trace):
        trace = target
    elif args is None:
        raise TypeError("find_padding_leaks traces a kernel on args: give them (or a Trace)")
    else:
        trace = trace_kernel(target, args, grid)
    return leaks_of(trace, TaintContext(masked=masked))


def leaks_of(trace: Trace, ctx: TaintContext) -> list[Finding]:
    """The leaks of ``trace`` from the sources ``ctx`` picks (the padded lanes of
    :func:`find_padding_leaks`; only the undefined ones for ``find_uninitialized``)."""
    flows: dict[tuple, Flow] = {}
    leaks: dict[tuple, list] = {}
    for step in trace.steps:
        if step.combiner:
            continue
        flow = flows.get(step.block)
        if flow is None:
            flow = flows[step.block] = Flow(trace.structure, {}, lambda *_: None)
        op = step.op
        flow.before(op)
        ts = flow.operands(op)
        if op.name in TERMINATORS:
            flow.terminator(op, ts)
            continue
        if OP_KINDS.get(op.name) == "control":
            flow.define(op, flow.exits(op))
            continue
        results = TAINT_RULES[op.name](ctx, step, ts)
        _check_sink(ctx, trace, step, ts, leaks)
        flow.define(op, results)
    found = [
        (entry[0].index, _finding(ctx, trace, bit, entry)) for (bit, _), entry in leaks.items()
    ]
    return [f for _, f in sorted(found, key=lambda p: p[0])]
