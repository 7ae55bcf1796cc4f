"""Taint rules: which lanes of each value hold (something computed from) view padding.

A taint is a ``uint64`` array of the value's tile shape: bit ``k`` of a lane is
set when the lane depends on the padding read by load number ``k`` (``None``
means no lane is tainted).  Sources are ``load_view_tko`` lanes past the
tensor's extent (the interpreter reports them: the ``mask`` of the load's
memory access is false there; it follows from the partition view type and the
index).  One rule per op (:data:`TAINT_RULES`, all body ops) says how taint
moves, lane by lane where the op allows:

* elementwise ops: a lane is tainted by the same lane of any operand; ``select``
  only by the operand its condition picked (and by the condition);
* broadcast / reshape / permute / cat / extract / insert: the op's own lane map;
* ``reduce``: *value aware*.  For a single-operand reduce whose combiner is one
  known op (add, mul, max, min, and, or, xor), the reduction is recomputed with
  the tainted lanes replaced by the reduce's identity: a result lane whose value
  does not change is clean (``-inf`` padding under a max, ``0`` under a sum, an
  ``exp(-inf) = 0`` lane under a sum are neutral), one that changes is tainted
  by every tainted lane of its slice.  Any other reduce taints a result lane
  by its whole slice (conservative); ``scan`` by its prefix;
* ``mmaf`` / ``mmai``: lane (i, j) is tainted by a tainted ``a[i, k]`` or
  ``b[k, j]`` only where the product ``a[i, k] * b[k, j]`` is not zero (zero
  padding along K is neutral), and by the accumulator's lane;
* lanes whose value is *undefined* (``TaintContext(undefined_only=True)``, for
  ``find_uninitialized``) hold no value to judge by: there a reduce taints every
  result lane whose slice holds one, and an ``mma`` every product;
* loads through pointers pass the taint of their pointers and mask; values that
  enter from memory or constants are clean.

Control flow (loop-carried values, ``if`` results) is followed by
:class:`~tileir.debug.flow.Flow`.  A condition that depends on padding
(an ``if`` on a tainted value) is not followed: only data is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Optional

import numpy as np

from tileir.debug.opkinds import OP_KINDS
from tileir.ir.module import Op
from tileir.ir.rule_table import rule_table
from tileir.ir.signatures import attr_of, operand_groups

if TYPE_CHECKING:
    from tileir.debug.tracer import Step

__all__ = ["TAINT_RULES", "TaintContext", "groups_at", "spread"]

_U = np.uint64


class TaintContext:
    """Shared state of one analysis: the load behind each bit, and why each tainted array
    is tainted (``why[id(array)] = (step, tainted operand arrays, note)``) for the path."""

    def __init__(self, masked: bool = False, undefined_only: bool = False):
        self.masked = masked
        # sources only where the lanes' values are undefined: a view without a padding
        # value, a masked pointer load without a padding operand (find_uninitialized)
        self.undefined_only = undefined_only
        self.source_ops: list = []
        self.bits: dict[int, int] = {}
        self.first_lane: dict[tuple, tuple] = {}
        self.why: dict[int, tuple] = {}
        self._keep: list = []

    def bit_of(self, op: Op) -> int:
        got = self.bits.get(id(op))
        if got is None:
            got = min(len(self.source_ops), 63)
            self.bits[id(op)] = got
            if got == len(self.source_ops):
                self.source_ops.append(op)
        return got

    def note(
        self,
        arr: Optional[np.ndarray],
        step: Step,
        preds: Iterable[Optional[np.ndarray]],
        note: str = "",
    ) -> None:
        """Remember that ``arr`` (a result taint of ``step``) came from ``preds`` (the
        step's operand taints, in operand order)."""
        if arr is None:
            return
        self._keep.append(arr)  # keeps ids unique while the analysis runs
        self.why[id(arr)] = (step, list(preds), note)


def spread(t: Optional[np.ndarray], shape: tuple) -> np.ndarray:
    """A taint as ``shape`` (broadcast; a shape it cannot take gets every bit everywhere)."""
    if t is None:
        return np.zeros(shape, dtype=_U)
    try:
        return np.broadcast_to(t, shape)
    except ValueError:
        return np.full(shape, np.bitwise_or.reduce(t.reshape(-1)) if t.size else 0, dtype=_U)


def _shape(v) -> Optional[tuple]:
    return v.shape if isinstance(v, np.ndarray) else None


def _clean(ts) -> bool:
    return all(t is None or not t.any() for t in ts)


def groups_at(op: Op) -> dict[str, list[int]]:
    """Operand positions of each operand group of ``op``."""
    out: dict[str, list[int]] = {}
    at = 0
    for name, vals in operand_groups(op).items():
        out[name] = list(range(at, at + len(vals)))
        at += len(vals)
    return out


def _per_result(ctx, step, make: Callable[[tuple], np.ndarray], preds, note=""):
    out = []
    for r in step.values:
        shape = _shape(r)
        t = None if shape is None else np.ascontiguousarray(make(shape), dtype=_U)
        if t is not None and not t.any():
            t = None
        ctx.note(t, step, preds, note)
        out.append(t)
    return out


def _none(ctx, step, ts):
    return [None] * len(step.values)


def _elementwise(ctx, step, ts):
    if _clean(ts):
        return _none(ctx, step, ts)

    def make(shape):
        acc = np.zeros(shape, dtype=_U)
        for t in ts:
            if t is not None:
                acc = acc | spread(t, shape)
        return acc

    return _per_result(ctx, step, make, ts)


def _select(ctx, step, ts):
    if _clean(ts):
        return _none(ctx, step, ts)
    cond = step.operands[0]

    def make(shape):
        c = np.broadcast_to(np.asarray(cond, dtype=bool), shape)
        return spread(ts[0], shape) | np.where(c, spread(ts[1], shape), spread(ts[2], shape))

    return _per_result(ctx, step, make, ts)


def _broadcast(ctx, step, ts):
    return (
        _none(ctx, step, ts)
        if _clean(ts)
        else _per_result(ctx, step, lambda s: spread(ts[0], s), ts)
    )


def _reshape(ctx, step, ts):
    return (
        _none(ctx, step, ts)
        if _clean(ts)
        else _per_result(ctx, step, lambda s: ts[0].reshape(s), ts)
    )


def _permute(ctx, step, ts):
    perm = tuple(int(p) for p in attr_of(step.op, "permutation"))
    return (
        _none(ctx, step, ts)
        if _clean(ts)
        else _per_result(ctx, step, lambda s: np.transpose(ts[0], perm), ts)
    )


def _cat(ctx, step, ts):
    if _clean(ts):
        return _none(ctx, step, ts)
    a, b = step.operands[:2]
    dim = int(attr_of(step.op, "dim"))
    return _per_result(
        ctx,
        step,
        lambda s: np.concatenate([spread(ts[0], a.shape), spread(ts[1], b.shape)], axis=dim),
        ts,
    )


def _slices(idx, sub) -> tuple:
    return tuple(
        slice(
            int(np.asarray(i).astype(np.uint32)) * n, int(np.asarray(i).astype(np.uint32)) * n + n
        )
        for i, n in zip(idx, sub)
    )


def _extract(ctx, step, ts):
    if _clean(ts):
        return _none(ctx, step, ts)
    src = step.operands[0]
    if ts[0] is None or not _clean(ts[1:]):  # a tainted index moves every lane
        return _whole(ctx, step, ts)

    def make(shape):
        return spread(ts[0], src.shape)[_slices(step.operands[1:], shape)]

    return _per_result(ctx, step, make, ts)


def _insert(ctx, step, ts):
    if _clean(ts):
        return _none(ctx, step, ts)
    part, dest = step.operands[:2]
    if not _clean(ts[2:]):  # a tainted index moves every lane
        return _whole(ctx, step, ts)

    def make(shape):
        out = np.array(spread(ts[1], shape))
        out[_slices(step.operands[2:], part.shape)] = spread(ts[0], part.shape)
        return out

    return _per_result(ctx, step, make, ts)


def _whole(ctx, step, ts):
    if _clean(ts):
        return _none(ctx, step, ts)
    bits = 0
    for t in ts:
        if t is not None and t.size:
            bits |= int(np.bitwise_or.reduce(t.reshape(-1)))
    return _per_result(ctx, step, lambda s: np.full(s, bits, dtype=_U), ts)


_COMBINE = {
    "addf": np.add,
    "addi": np.add,
    "mulf": np.multiply,
    "muli": np.multiply,
    "maxf": np.maximum,
    "maxi": np.maximum,
    "minf": np.minimum,
    "mini": np.minimum,
    "andi": np.bitwise_and,
    "ori": np.bitwise_or,
    "xori": np.bitwise_xor,
}


def _combiner(op):
    body = op.regions[0].ops if op.regions else ()
    if len(op.operands) != 1 or len(body) != 2 or body[1].name != "yield":
        return None
    return _COMBINE.get(body[0].name)


def _reduce(ctx, step, ts):
    if _clean(ts):
        return _none(ctx, step, ts)
    dim = int(attr_of(step.op, "dim"))
    fn = _combiner(step.op)
    x = step.operands[0]
    # undefined lanes hold no value to recompute with: every tainted lane counts
    if fn is None or not isinstance(x, np.ndarray) or ts[0] is None or ctx.undefined_only:

        def slice_or(shape):
            acc = np.zeros(shape, dtype=_U)
            for t in ts:
                if t is not None:
                    acc = acc | np.bitwise_or.reduce(t, axis=dim).reshape(shape)
            return acc

        return _per_result(ctx, step, slice_or, ts, "every tainted lane counted")
    t = ts[0]
    ident = np.asarray(attr_of(step.op, "identities")[0].value()).astype(x.dtype)
    with np.errstate(all="ignore"):
        full = fn.reduce(x, axis=dim)
        cf = fn.reduce(np.where(t != 0, ident, x), axis=dim)
    same = full == cf
    if x.dtype.kind == "f":
        same = same | (np.isnan(full) & np.isnan(cf))
    bits = np.where(same, _U(0), np.bitwise_or.reduce(t, axis=dim))
    note = "the padding changed the result" if bits.any() else ""
    return _per_result(ctx, step, lambda s: bits.reshape(s), ts, note)


def _scan(ctx, step, ts):
    if _clean(ts):
        return _none(ctx, step, ts)
    dim = int(attr_of(step.op, "dim"))
    rev = bool(attr_of(step.op, "reverse"))

    def make(shape):
        acc = np.zeros(shape, dtype=_U)
        for t in ts:
            if t is not None:
                u = np.flip(t, axis=dim) if rev else t
                u = np.bitwise_or.accumulate(u, axis=dim)
                acc = acc | (np.flip(u, axis=dim) if rev else u)
        return acc

    return _per_result(ctx, step, make, ts)


def _mma(ctx, step, ts):
    if _clean(ts):
        return _none(ctx, step, ts)
    a, b, acc = step.operands[:3]
    ta, tb, tc = ts[:3]
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
        return _whole(ctx, step, ts)
    kind = np.float64 if a.dtype.kind in "fV" else np.int64
    with np.errstate(all="ignore"):
        prod = a.astype(kind)[..., :, :, None] * b.astype(kind)[..., None, :, :]
    # NaN counts: it is not zero; an undefined lane's product may be anything
    live = np.ones(prod.shape, dtype=bool) if ctx.undefined_only else prod != 0
    tk = spread(ta, a.shape)[..., :, :, None] | spread(tb, b.shape)[..., None, :, :]
    bits = np.bitwise_or.reduce(np.where(live, tk, _U(0)), axis=-2)

    def make(shape):
        return spread(bits, shape) | spread(tc, shape)

    return _per_result(ctx, step, make, ts, "through nonzero products")


def _mma_scaled(ctx, step, ts):
    if _clean(ts):
        return _none(ctx, step, ts)
    a, b = step.operands[:2]
    ta, tb, tc = (spread(t, step.operands[i].shape) for i, t in enumerate(ts[:3]))
    rows = np.bitwise_or.reduce(ta, axis=-1)[..., :, None]
    cols = np.bitwise_or.reduce(tb, axis=-2)[..., None, :]
    extra = 0
    for t in ts[3:]:
        if t is not None and t.size:
            extra |= int(np.bitwise_or.reduce(t.reshape(-1)))
    return _per_result(ctx, step, lambda s: spread(rows | cols | tc | _U(extra), s), ts)


def _load(ctx, step, ts):
    op = step.op
    g = groups_at(op)
    out = [None] * len(step.values)
    tile = step.values[0]
    if not isinstance(tile, np.ndarray):
        return out
    acc = np.zeros(tile.shape, dtype=_U)
    preds = list(ts)
    if op.name in ("load_view_tko", "multimem_load_reduce_view_tko"):  # lanes past the extent
        reads = [m for m in step.memory if m.kind == "read"]
        inside = reads[0].mask if reads else np.ones(tile.shape, dtype=bool)
        for i in g["index"]:
            acc = acc | spread(ts[i], tile.shape)
        padded = getattr(op.operands[0].type, "padding", None) is not None
        if (~inside).any() and not (ctx.undefined_only and padded):
            bit = ctx.bit_of(op)
            acc = acc | np.where(inside, _U(0), _U(1) << _U(bit))
            key = (bit, step.block)
            if key not in ctx.first_lane:
                at = np.unravel_index(int(np.argmax(~inside)), inside.shape)
                ctx.first_lane[key] = (tuple(int(i) for i in at), int((~inside).sum()))
    else:
        active = np.zeros(tile.shape, dtype=bool)
        for m in step.memory:
            active = active | m.mask
        for name in ("pointers", "mask"):
            for i in g.get(name, ()):
                acc = acc | np.where(active, spread(ts[i], tile.shape), _U(0))
        if ctx.masked and (~active).any() and not (ctx.undefined_only and g.get("padding")):
            bit = ctx.bit_of(op)
            acc = acc | np.where(active, _U(0), _U(1) << _U(bit))
            key = (bit, step.block)
            if key not in ctx.first_lane:
                at = np.unravel_index(int(np.argmax(~active)), active.shape)
                ctx.first_lane[key] = (tuple(int(i) for i in at), int((~active).sum()))
    out[0] = acc if acc.any() else None
    ctx.note(out[0], step, preds)
    return out


_BY_KIND: dict[str, Callable] = {
    "elementwise": _elementwise,
    "select": _select,
    "broadcast": _broadcast,
    "reshape": _reshape,
    "permute": _permute,
    "cat": _cat,
    "extract": _extract,
    "insert": _insert,
    "reinterpret": _whole,
    "reduce": _reduce,
    "scan": _scan,
    "mma": _mma,
    "mma_scaled": _mma_scaled,
    "source": _none,
    "load": _load,
    "store": _none,
    "atomic": _none,
    "effect": _none,
    # run by the analysis loop itself (Flow), never called
    "control": _none,
    "terminator": _none,
}

#: op name -> rule(ctx, step, operand taints) -> result taints.
TAINT_RULES = rule_table(
    "TAINT_RULES", ((name, _BY_KIND[kind]) for name, kind in OP_KINDS.items())
)
