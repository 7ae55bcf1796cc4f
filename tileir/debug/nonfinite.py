"""``find_nonfinite``: the ops where NaNs and infinities start.

Over a trace (every block by default), each op's float results are checked
against its operands, lane by lane where the op's data movement allows:

* elementwise ops and ``select``: lane i of the result against lane i of every
  operand;
* ``reduce``: a result lane against the slice of the operand it combined;
  ``scan``: against the prefix it combined;
* ``mmaf`` / ``mmai``: lane (i, j) against row i, column j and the accumulator;
* anything else that computes (``pack`` / ``unpack``, ``mmaf_scaled``): against
  every operand lane.

A lane is a finding when it is NaN and no lane it came from is NaN (``nan``
when every such lane is finite, e.g. ``log(-0.5)`` or ``0 / 0``; ``nan-from-inf``
when an infinity was there, e.g. ``inf - inf``), or when it is an infinity and
every lane it came from is finite (``inf``: overflow, ``x / 0``, ``log(0)``).
Ops that only move lanes cannot start either and are skipped, and so are the
places values enter without computation (constants such as a running maximum's
``-inf`` start, loads, atomics): a kernel's input is not the kernel's fault.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional, Sequence, Union

import numpy as np

from tileir.debug.findings import Finding
from tileir.debug.launching import Target
from tileir.debug.opkinds import OP_KINDS
from tileir.debug.runner import BlockLike
from tileir.debug.summary import is_float
from tileir.debug.tracer import Trace, trace_kernel
from tileir.ir.rule_table import rule_table
from tileir.ir.signatures import attr_of

__all__ = ["find_nonfinite", "NONFINITE_RULES"]


def _flags(a) -> Optional[tuple]:
    """(isnan, isinf) of an operand (None for non-numbers: views, tokens, unknowns)."""
    if not isinstance(a, np.ndarray):
        return None
    if is_float(a):
        f = a.astype(np.float64)
        return np.isnan(f), np.isinf(f)
    z = np.zeros(a.shape, dtype=bool)
    return z, z


def _spread(mask: np.ndarray, shape: tuple) -> np.ndarray:
    try:
        return np.broadcast_to(mask, shape)
    except ValueError:
        return np.broadcast_to(mask.any(), shape)


def _lanes(step, shape):
    nan = np.zeros(shape, dtype=bool)
    inf = np.zeros(shape, dtype=bool)
    for a in step.operands:
        f = _flags(a)
        if f is not None:
            nan = nan | _spread(f[0], shape)
            inf = inf | _spread(f[1], shape)
    return nan, inf


def _whole(step, shape):
    nan = inf = False
    for a in step.operands:
        f = _flags(a)
        if f is not None:
            nan = nan or bool(f[0].any())
            inf = inf or bool(f[1].any())
    return np.full(shape, nan), np.full(shape, inf)


def _reduce(step, shape):
    dim = int(attr_of(step.op, "dim"))
    nan = np.zeros(shape, dtype=bool)
    inf = np.zeros(shape, dtype=bool)
    for a in step.operands:
        f = _flags(a)
        if f is not None and f[0].ndim > dim:
            nan = nan | f[0].any(axis=dim).reshape(shape)
            inf = inf | f[1].any(axis=dim).reshape(shape)
    return nan, inf


def _scan(step, shape):
    dim = int(attr_of(step.op, "dim"))
    rev = bool(attr_of(step.op, "reverse"))

    def prefix(m):
        if rev:
            m = np.flip(m, axis=dim)
        m = np.logical_or.accumulate(m, axis=dim)
        return np.flip(m, axis=dim) if rev else m

    nan = np.zeros(shape, dtype=bool)
    inf = np.zeros(shape, dtype=bool)
    for a in step.operands:
        f = _flags(a)
        if f is not None and f[0].shape == shape:
            nan, inf = nan | prefix(f[0]), inf | prefix(f[1])
    return nan, inf


def _mma(step, shape):
    a, b, acc = (_flags(x) for x in step.operands[:3])
    if a is None or b is None:
        return _whole(step, shape)
    out = []
    for i in range(2):
        rows = a[i].any(axis=-1)[..., :, None]
        cols = b[i].any(axis=-2)[..., None, :]
        m = rows | cols
        if acc is not None:
            m = m | acc[i]
        out.append(np.broadcast_to(m, shape))
    return tuple(out)


def _skip(step, shape):
    return None


_BY_KIND: dict[str, Callable] = {
    "elementwise": _lanes,
    "select": _lanes,
    "reduce": _reduce,
    "scan": _scan,
    "mma": _mma,
    "mma_scaled": _whole,
    "reinterpret": _whole,
    "broadcast": _skip,
    "reshape": _skip,
    "permute": _skip,
    "cat": _skip,
    "extract": _skip,
    "insert": _skip,
    "source": _skip,
    "load": _skip,
    "store": _skip,
    "atomic": _skip,
    "effect": _skip,
    "control": _skip,
    "terminator": _skip,
}

#: op name -> rule(step, result shape) -> (NaN-in, inf-in) lane masks, or None: cannot start.
NONFINITE_RULES = rule_table(
    "NONFINITE_RULES", ((name, _BY_KIND[kind]) for name, kind in OP_KINDS.items())
)


def _show(v) -> str:
    return f"{float(v):.6g}" if np.asarray(v).dtype.kind in "fV" else str(v)


def _what(step, lane: tuple, value) -> str:
    kind = OP_KINDS.get(step.op.name)
    if kind in ("elementwise", "select"):
        args = []
        for a in step.operands:
            if isinstance(a, np.ndarray):
                try:
                    args.append(
                        _show(
                            np.broadcast_to(a, np.shape(value) or a.shape)[lane] if a.ndim else a
                        )
                    )
                except (IndexError, ValueError):
                    args.append("?")
        return f"{step.op.name}({', '.join(args)}) = {_show(value)}"
    if kind == "reduce":
        return (
            f"reducing finite values along dim {int(attr_of(step.op, 'dim'))} gave {_show(value)}"
        )
    if kind == "mma":
        return f"the product of finite rows and columns gave {_show(value)}"
    return f"finite operands gave {_show(value)}"


def _check(step):
    """(detail, lane, value, count) of the first new non-finite lane of a step, or None."""
    rule = NONFINITE_RULES.get(step.op.name)
    if rule is None:
        return None
    for r in step.values:
        if not isinstance(r, np.ndarray) or not is_float(r):
            continue
        f = r.astype(np.float64)
        is_nan, is_inf = np.isnan(f), np.isinf(f)
        if not (is_nan.any() or is_inf.any()):
            continue
        got = rule(step, f.shape)
        if got is None:
            return None
        in_nan, in_inf = got
        new_nan = is_nan & ~in_nan
        new_inf = is_inf & ~in_nan & ~in_inf
        fresh = new_nan | new_inf
        if not fresh.any():
            continue
        at = np.unravel_index(int(np.argmax(fresh)), f.shape) if f.ndim else ()
        lane = tuple(int(i) for i in at)
        if new_nan[at]:
            detail = "nan-from-inf" if in_inf[at] else "nan"
        else:
            detail = "inf"
        return detail, lane, f[at] if f.ndim else f[()], int(fresh.sum())
    return None


def find_nonfinite(
    target: Union[Trace, Target],
    args: Optional[Sequence[Any]] = None,
    grid: Optional[Sequence[int]] = None,
    *,
    blocks: Optional[Iterable[BlockLike]] = None,
) -> list[Finding]:
    """The ops that produced a NaN or an infinity that none of their inputs held.

    ``target`` is a :class:`~tileir.debug.tracer.Trace`, or a kernel to trace on ``args``
    (``grid``, ``blocks`` as :func:`~tileir.debug.trace_kernel` takes them; every block
    by default).  One :class:`Finding` per op, in the order the faults first happened:
    the first is where the NaNs start.
    """
    if isinstance(target, Trace):
        trace = target
    elif args is None:
        raise TypeError("find_nonfinite traces a kernel on args: give them (or a Trace)")
    else:
        trace = trace_kernel(target, args, grid, blocks)
    found: dict[int, list] = {}
    for step in trace.steps:
        if step.combiner:
            continue
        got = _check(step)
        if got is None:
            continue
        entry = found.get(id(step.op))
        if entry is None:
            found[id(step.op)] = [step, got, got[3], {step.block}]
        else:
            entry[2] += got[3]
            entry[3].add(step.block)
    out = []
    for step, (detail, lane, value, _n), count, blocks_hit in found.values():
        what = _what(step, lane, value)
        if len(blocks_hit) > 1:
            what += f"; {count} lane(s) in {len(blocks_hit)} block(s) start one"
        elif count > 1:
            what += f"; {count} lane(s) of this block start one"
        out.append(
            Finding(
                "nonfinite",
                detail,
                trace.kernel,
                step.op,
                step.text,
                step.loc,
                step.block,
                lane,
                what,
                count=count,
            )
        )
    return out
