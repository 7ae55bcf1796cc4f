"""Control flow for the interpreter: ``if``, ``for`` and ``loop`` over a batch of blocks.

The blocks of a batch may disagree.  ``if`` runs each region on the blocks that
take it and merges what they yield; ``for`` (whose trip counts may differ per
block) and ``loop`` (whose blocks may ``break`` at different trips) keep
iterating the blocks still running and drop the others, whose results are set
aside.  ``continue`` / ``break`` / ``return`` inside ``if`` regions leave for
exactly the blocks that reach them (see ``frames.LaneExit``); lanes that ``return``
inside a loop body leave the loop and the kernel.

A ``for`` runs ``ceil((ub - lb) / step)`` trips (none when ``ub <= lb``), with the
bounds read signed, or unsigned under ``unsigned_cmp``; a step that is not
positive is refused.  Trips are bounded by the launch's ``limits.max_trips`` (2^31 by
default, :mod:`tileir.fake.limits`): a ``for`` whose count is above it is refused before
it starts, a ``loop`` that reaches it without every block breaking is refused then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import numpy as np

from tileir.fake.donation import accumulators
from tileir.fake.frames import Frame, LaneExit, all_lanes, compose, scatter
from tileir.fake.invariants import loop_invariants
from tileir.fake.limits import power_text
from tileir.fake.values import plain, signed, take, unsigned, value_dtype, widen, wrap_int
from tileir.ir.module import Op
from tileir.ir.signatures import attr_of
from tileir.types import TileType

if TYPE_CHECKING:
    from tileir.fake.machine import Machine

__all__ = ["run_if", "run_loop"]

_NONE: frozenset = frozenset()  # no ids: nothing donated, nothing kept


def _too_many_trips(m: Machine, op: Op, what: str):
    limit = m.limits.max_trips
    return m.error(
        op,
        f"`{op.name}` {what}: the limit is {power_text(limit)} trips; "
        f"{m.limits.advice('max_trips')}",
    )


def _no_control_in_combiner(m: Machine, op: Op) -> None:
    if m.combining:
        raise m.error(
            op, "control flow inside a reduce / scan combiner is not supported by the fake device"
        )


def run_if(m: Machine, op: Op, cur: Frame) -> list[LaneExit]:
    """Run an ``if``; returns the exits of lanes that left through continue / break / return."""
    _no_control_in_combiner(m, op)
    cond = cur.get(op.operands[0].id)
    then_block = op.regions[0]
    else_block = op.regions[1] if len(op.regions) > 1 else None
    cond = np.asarray(cond).reshape(-1).astype(bool)
    exits: list[LaneExit] = []
    if cond.shape[0] == 1 or cond.all() or not cond.any():
        block = then_block if cond[0] else else_block
        if block is None:
            exits = [LaneExit("yield", None, [])]
        else:
            exits = m.run_block(block, cur)
    else:
        for block, lanes in (
            (then_block, np.nonzero(cond)[0]),
            (else_block, np.nonzero(~cond)[0]),
        ):
            if block is None:
                exits.append(LaneExit("yield", lanes, []))
                continue
            for e in m.run_block(block, Frame.sub(cur, lanes)):
                exits.append(
                    LaneExit(e.kind, compose(lanes, all_lanes(e.lanes, len(lanes))), e.values)
                )
    yields = [e for e in exits if e.kind == "yield"]
    escapes = [e for e in exits if e.kind != "yield"]
    results = []
    if op.results and yields:
        try:
            results = [
                scatter(cur.size, [(e.lanes, e.values[i]) for e in yields], "a result of `if`")
                for i in range(len(op.results))
            ]
        except (TypeError, IndexError) as e:
            raise m.error(op, str(e)) from None
    elif op.results:  # every lane left through continue / break / return
        results = [
            np.zeros((cur.size,) + tuple(v.type.shape), value_dtype(v.type.element))
            if isinstance(v.type, TileType)
            else None
            for v in op.results
        ]
    for v, r in zip(op.results, results):
        cur.vals[v.id] = r
    if m.watch_ops:
        m.observe(op, results, cur)
    return escapes


def _trip_counts(m, op, cur: Frame):
    lb, ub, step = (cur.get(v.id) for v in op.operands[:3])
    fmt = op.operands[0].type.element
    is_unsigned = bool(attr_of(op, "unsigned_cmp"))
    read = unsigned if is_unsigned else signed
    lbs, ubs, steps = (read(x, fmt) for x in (lb, ub, step))
    n = max(lbs.shape[0], ubs.shape[0], steps.shape[0])
    if fmt.bits < 64:
        lbs, ubs, steps = (x.astype(np.int64) for x in (lbs, ubs, steps))
        if (steps <= 0).any():
            raise m.error(
                op,
                f"the step of a `for` must be positive, got {int(steps.min())}",
                lane=int(np.argmin(steps)),
            )
        counts = np.where(ubs > lbs, (ubs - lbs + steps - 1) // np.maximum(steps, 1), 0)
        if int(counts.max()) > m.limits.max_trips:
            raise _too_many_trips(m, op, f"would run {int(counts.max())} trips")
    else:
        los, his, sts = (widen(x, n).tolist() for x in (lbs, ubs, steps))
        if any(s <= 0 for s in sts):
            raise m.error(op, "the step of a `for` must be positive")
        trips = [max(0, -(-(h - l) // s)) for l, h, s in zip(los, his, sts)]
        if max(trips) > m.limits.max_trips:  # (also before int64 could not hold it)
            raise _too_many_trips(m, op, f"would run {max(trips)} trips")
        counts = np.array(trips, dtype=np.int64)
    if counts.shape[0] > 1 and (counts == counts[0]).all():
        counts = counts[:1]
    return counts, lb, step, fmt


def run_loop(m: Machine, op: Op, cur: Frame) -> list[LaneExit]:
    """Run a ``for`` or ``loop``, dropping lanes as they finish; returns escaping lanes."""
    _no_control_in_combiner(m, op)
    is_for = op.name == "for"
    body = op.regions[0]
    if is_for:
        counts, lb, step, fmt = _trip_counts(m, op, cur)
        inits = [cur.get(v.id) for v in op.operands[3:]]
        iters = body.args[1:]
        lb64 = lb.astype(np.int64) if fmt.bits < 64 else lb
        step64 = step.astype(np.int64) if fmt.bits < 64 else step
    else:
        counts = None
        inits = [cur.get(v.id) for v in op.operands]
        iters = body.args
    active: Optional[np.ndarray] = None
    sub = cur
    carried = list(inits)
    # accumulators the body's mmaf may add into in place (tileir.fake.donation): from the
    # second trip on, while the lanes stay the same, and never under an observer of ops
    in_place = _NONE if m.watch_ops else accumulators(op)
    owned = False  # whether ``carried`` holds arrays the last trip made for this loop alone
    # ops whose values the last trip left in ``sub`` when the lanes have not changed since
    # (tileir.fake.invariants): skipped from then on, never under an observer of ops
    steady = _NONE if m.watch_ops else loop_invariants(op)
    ran_in: Optional[Frame] = None  # the frame of the last trip
    finished: list[tuple[Optional[np.ndarray], list]] = []
    escapes: list[LaneExit] = []
    k = 0
    while True:
        if is_for:
            if counts.shape[0] == 1:
                if k >= counts[0]:
                    finished.append((active, carried))
                    break
            else:
                run = (counts if active is None else counts[active]) > k
                if not run.all():
                    stop = np.nonzero(~run)[0]
                    finished.append((compose(active, stop), [take(v, stop) for v in carried]))
                    if not run.any():
                        break
                    keep = np.nonzero(run)[0]
                    carried = [take(v, keep) for v in carried]
                    owned = False  # a batch-1 value is shared by the lanes that stopped
                    active = compose(active, keep)
                    sub = Frame.sub(cur, active)  # from the loop's frame: no chain of frames
            lanes = active
            iv = take(lb64, lanes) + k * take(step64, lanes)
            sub.vals[body.args[0].id] = wrap_int(iv, fmt)
        elif k >= m.limits.max_trips:
            raise _too_many_trips(m, op, f"ran {k} trips without every block breaking")
        for a, v in zip(iters, carried):
            sub.vals[a.id] = v
        sub.donated = in_place if owned else _NONE
        exits = m.run_block(body, sub, steady if sub is ran_in else _NONE)
        ran_in = sub
        sub.donated = _NONE  # (``sub`` may be the frame the loop runs in)
        if len(exits) == 1 and exits[0].kind == "continue" and exits[0].lanes is None:
            carried = exits[0].values
            owned = True  # the body's mmaf made each accumulator this trip
            k += 1
            continue
        owned = False
        conts = []
        for e in exits:
            if e.kind == "continue":
                conts.append((all_lanes(e.lanes, sub.size), e.values))
            elif e.kind == "break":
                finished.append((compose(active, e.lanes), e.values))
            elif e.kind == "return":
                escapes.append(LaneExit("return", compose(active, e.lanes), e.values))
            else:
                raise m.error(op, f"the body of `{op.name}` ended without `continue`")
        if not conts:
            break
        lanes = np.concatenate([c[0] for c in conts])
        order = np.argsort(lanes, kind="stable")
        lanes = lanes[order]
        carried = [
            np.concatenate([widen(plain(c[1][i]), len(c[0])) for c in conts])[order]
            for i in range(len(iters))
        ]
        if lanes.size != sub.size:
            active = compose(active, lanes)
            sub = Frame.sub(cur, active)
        k += 1
    results = []
    try:
        for i in range(len(op.results)):
            results.append(
                scatter(
                    cur.size, [(ln, vals[i]) for ln, vals in finished], f"a result of `{op.name}`"
                )
            )
    except TypeError as e:
        raise m.error(op, str(e)) from None
    for v, r in zip(op.results, results):
        cur.vals[v.id] = r
    if m.watch_ops:
        m.observe(op, results, cur)
    return escapes
