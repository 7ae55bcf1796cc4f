"""numpy rules of the remaining ops: tokens, block ids, assume, assert, print, and the
region-carrying reductions ``reduce`` / ``scan``.

``reduce`` and ``scan`` run the op's own combiner region on whole arrays, one
region evaluation per step rather than per element:

* ``reduce`` combines neighbours pairwise, a balanced tree: step 1 combines
  elements (0,1), (2,3), ...; step 2 the pairs' results; and so on
  (``log2(n)`` steps).  The left operand of each combination is the accumulator
  and the right one the element, so the order of the operands is kept and any
  associative combiner gives its sequential answer; float sums round like a
  pairwise sum (the device's order is unspecified).  A level of odd length is
  padded with the identity.
* ``scan`` is an inclusive Hillis-Steele prefix: at distance 1, 2, 4, ... each
  element combines with the running value ``d`` places before it (``log2(n)``
  region evaluations); ``reverse`` scans from the end.

The combiner's block arguments are bound to arrays of the tile's shape, so the
region's scalar ops evaluate all pairs of all blocks at once.  A combiner that is
one ``maxf`` / ``minf`` of the element and the accumulator folds in one numpy pass
instead (``floats.FOLDS``: same answer, bit for bit, since max and min do not
depend on the order), unless an observer watches the combiner's steps.
"""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from tileir.fake.printf import format_block
from tileir.fake.progressions import note_block_ids
from tileir.fake.rules.floats import FOLDS, NUMPY_FLOAT_RULES
from tileir.fake.rules.ints import NUMPY_INT_RULES
from tileir.fake.rules.plain import plain_ufuncs
from tileir.fake.values import TOKEN_VALUE, from_scalar, widen
from tileir.ir.signatures import attr_of, operand_groups

__all__ = ["NUMPY_MISC_RULES", "plain_combiner", "plain_tree"]


def _token(ctx, op, args):
    return [TOKEN_VALUE]


def _assume(ctx, op, args):
    return [args[0]]


def _block_id(ctx, op, args):
    ids = ctx.block_ids
    # within one grid row, or over whole rows, the ids step evenly: the memory rules then
    # plan per batch
    note_block_ids(ctx.frame, ctx.grid, [r.id for r in op.results])
    return [np.ascontiguousarray(ids[:, k]) for k in range(3)]


def _num_blocks(ctx, op, args):
    return [np.array([n], dtype=np.int32) for n in ctx.grid]


def _assert(ctx, op, args):
    cond = args[0]
    failing = ~cond.astype(bool)
    if failing.any():
        failing = widen(failing, ctx.b)
        per_lane = failing.reshape(failing.shape[0], -1).any(axis=1)
        lane = int(np.argmax(per_lane))
        where = ""
        if failing.ndim > 1:
            at = np.unravel_index(int(np.argmax(failing[lane])), failing.shape[1:])
            where = f", tile element {tuple(int(a) for a in at)}"
        more = int(per_lane.sum()) - 1
        tail = f" ({more} more block(s) failed too)" if more else ""
        raise ctx.error(
            op, f"assertion failed: {attr_of(op, 'message')!r}{where}{tail}", lane=lane
        )
    return []


def _print(ctx, op, args):
    g = operand_groups(op)
    vals = list(args[: len(g["args"])])
    formats = [v.type.element for v in g["args"]]
    text = attr_of(op, "format")
    for lane in range(ctx.b):
        lane_vals = [v[lane if v.shape[0] > 1 else 0] for v in vals]
        ctx.print_text(format_block(text, lane_vals, formats))
    return [TOKEN_VALUE] if op.results else []


def _identity(ident, like: np.ndarray) -> np.ndarray:
    v = from_scalar(ident.value(), ident.format)
    return np.broadcast_to(v.astype(like.dtype).reshape((1,) * like.ndim), like.shape[:-1] + (1,))


def _pads(n: int) -> bool:
    """Whether the pairwise tree over ``n`` elements pads some level with the identity."""
    while n > 1:
        if n % 2:
            return True
        n //= 2
    return False


def folding(op) -> Optional[Callable[[np.ndarray], Optional[np.ndarray]]]:
    """How ``op`` folds in one numpy pass, when it is a one-operand ``reduce`` whose combiner
    is a single op that ``FOLDS`` knows (``maxf`` / ``minf``) applied to the element and the
    accumulator: a function of the operand (batched, the reduced dim moved last) that
    answers the folded last axis, or None where the tree must run after all (a NaN answer,
    an empty dim: ``FOLDS``); None for any other op.  The fused strips call it (planned
    once, tileir.fake.fusion); the rule folds by :func:`_folded`, the same steps."""
    step = _fold_step(op)
    if step is None:
        return None
    identity = attr_of(op, "identities")[0]
    return lambda x: _fold(step, x, identity)


def _fold_step(op):
    """The combiner's one op when ``op`` is a reduce that :func:`folding` folds, else None."""
    block = op.regions[0] if op.regions else None
    if block is None or len(op.operands) != 1 or len(block.ops) != 2:
        return None
    step, end = block.ops
    if (
        step.name not in FOLDS
        or end.name != "yield"
        or len(step.operands) != 2
        or {v.id for v in step.operands} != {a.id for a in block.args}
        or [v.id for v in end.operands] != [r.id for r in step.results]
    ):
        return None
    return step


def _fold(step, x: np.ndarray, identity) -> Optional[np.ndarray]:
    """``x``'s last axis folded by the combiner op ``step`` (``FOLDS``), padded with
    ``identity`` where the pairwise tree would pad; None where the tree must answer."""
    if x.shape[-1] == 0:
        return None
    ident = _identity(identity, x)[..., 0] if _pads(x.shape[-1]) else None
    return FOLDS[step.name](step, x, ident)


def _folded(ctx, op, xs: list, idents) -> list | None:
    """The reduction in one numpy pass (:func:`folding`); None to run the tree.  Never with
    an observer, which sees every combiner step.  (The rule asks per call: no closure, and
    ``idents`` is the rule's own read of the identities.)"""
    if ctx.watch_ops or len(xs) != 1:
        return None
    step = _fold_step(op)
    out = None if step is None else _fold(step, xs[0], idents[0])
    return None if out is None else [out]


def plain_combiner(op, dtype) -> tuple | None:
    """``(ufunc, element first)`` when ``op`` is a one-operand ``reduce`` whose combiner is
    one op whose rule is that plain numpy function (``plain.plain_ufuncs``) of the element
    and the accumulator, on values of ``dtype``; None otherwise."""
    block = op.regions[0]
    if len(op.operands) != 1 or len(block.ops) != 2:
        return None
    step, end = block.ops
    elem, acc = (a.id for a in block.args)
    if (
        end.name != "yield"
        or [v.id for v in end.operands] != [r.id for r in step.results]
        or len(step.operands) != 2
        or {v.id for v in step.operands} != {elem, acc}
    ):
        return None
    fns = plain_ufuncs(step, dtype)
    if fns is None or len(fns) != 1 or fns[0][1] is not None:
        return None
    return fns[0][0], step.operands[0].id == elem


def plain_tree(fn, elem_first: bool, x: np.ndarray, ident) -> np.ndarray:
    """The pairwise tree of ``_reduce`` over the last axis of ``x``, its combiner the one
    ufunc ``fn`` (:func:`plain_combiner`) called directly: the same calls on the same
    operands, in the same order, as the combiner region makes."""
    while x.shape[-1] > 1:
        if x.shape[-1] % 2:
            x = np.concatenate([x, _identity(ident, x)], axis=-1)
        acc, elem = x[..., 0::2], x[..., 1::2]
        x = fn(elem, acc) if elem_first else fn(acc, elem)
    return x[..., 0]


#: element-wise ops whose rule reads nothing but its operands: a combiner that is one of
#: them (and not a plain float ufunc, which ``plain_tree`` runs without the rule at all: the
#: integer ones) may be run by calling the rule on each level's pairs (``_direct``), not
#: through a frame and a block per level; the same rule on the same arrays, so the same bits
_DIRECT = {
    name: rules[name]
    for rules, names in (
        (NUMPY_FLOAT_RULES, ("addf", "mulf")),
        (NUMPY_INT_RULES, ("addi", "muli", "maxi", "mini", "andi", "ori", "xori")),
    )
    for name in names
}


def _direct(ctx, op):
    """``(rule, step, picks)`` when the combiner of ``op`` (one operand) is one ``_DIRECT``
    op of its block arguments that it yields, ``picks`` saying which (0: the element, 1:
    the accumulator) each operand of the op is; None otherwise, and always under an
    observer of ops (which sees every combiner step)."""
    block = op.regions[0]
    if ctx.watch_ops or len(block.args) != 2 or len(block.ops) != 2:
        return None
    step, end = block.ops
    rule = _DIRECT.get(step.name)
    if rule is None or end.name != "yield" or len(step.results) != 1:
        return None
    if [v.id for v in end.operands] != [step.results[0].id]:
        return None
    which = {block.args[0].id: 0, block.args[1].id: 1}
    picks = [which.get(v.id) for v in step.operands]
    if None in picks:
        return None
    return rule, step, picks


def _reduce(ctx, op, args):
    dim = int(attr_of(op, "dim")) + 1
    idents = attr_of(op, "identities")
    # (moved only where the dim is not last already: moveaxis costs a few us on a small tile)
    xs = [a if dim == a.ndim - 1 else np.moveaxis(a, dim, -1) for a in args]
    b = max(x.shape[0] for x in xs)
    xs = [widen(x, b) for x in xs]
    folded = _folded(ctx, op, xs, idents)
    if folded is not None:
        return folded
    # an observer sees every combiner step: then the region runs
    plain = None if ctx.watch_ops else plain_combiner(op, xs[0].dtype)
    if plain is not None:
        return [plain_tree(*plain, xs[0], idents[0])]
    block = op.regions[0]
    direct = _direct(ctx, op) if len(xs) == 1 else None
    while xs[0].shape[-1] > 1:
        if xs[0].shape[-1] % 2:
            xs = [np.concatenate([x, _identity(i, x)], axis=-1) for x, i in zip(xs, idents)]
        acc = [x[..., 0::2] for x in xs]
        elem = [x[..., 1::2] for x in xs]
        if direct is None:
            xs = ctx.combine(op, block, elem, acc)
        else:  # as ctx.combine would run the one op, less its frame and block
            rule, step, picks = direct
            pair = (elem[0], acc[0])
            (out,) = rule(ctx, step, [pair[p] for p in picks])
            xs = [np.asarray(out).astype(elem[0].dtype, copy=False)]
    return [x[..., 0] for x in xs]


def _scan(ctx, op, args):
    dim = int(attr_of(op, "dim")) + 1
    reverse = bool(attr_of(op, "reverse"))
    xs = [np.moveaxis(a, dim, -1) for a in args]
    b = max(x.shape[0] for x in xs)
    xs = [widen(x, b) for x in xs]
    if reverse:
        xs = [x[..., ::-1] for x in xs]
    n = xs[0].shape[-1]
    d = 1
    block = op.regions[0]
    while d < n:
        acc = [x[..., :-d] for x in xs]
        elem = [x[..., d:] for x in xs]
        new = ctx.combine(op, block, elem, acc)
        xs = [np.concatenate([x[..., :d], y.astype(x.dtype)], axis=-1) for x, y in zip(xs, new)]
        d *= 2
    if reverse:
        xs = [x[..., ::-1] for x in xs]
    return [np.moveaxis(x, -1, dim) for x in xs]


NUMPY_MISC_RULES = {
    "assume": _assume,
    "make_token": _token,
    "join_tokens": _token,
    "gdc_wait_tko": _token,
    "gdc_launch_dependents_tko": _token,
    "memory_fence_alias_tko": _token,
    "get_tile_block_id": _block_id,
    "get_num_tile_blocks": _num_blocks,
    "assert": _assert,
    "print_tko": _print,
    "reduce": _reduce,
    "scan": _scan,
}
