"""``find_races``: blocks of one launch that write what another block writes or reads.

Blocks of a launch run in no promised order, so two blocks writing one element,
or one block reading an element another writes, give an answer that depends on
the schedule.  The finder does two things:

* it runs the launch once watching every memory access (the interpreter's
  ``on_memory``) and lists, per buffer and element, the blocks that wrote it
  (plain stores), updated it atomically, and read it.  A conflict is an element
  written by two blocks (``write-write``), written by one block and updated
  atomically by another (``write-atomic``), or read by a block while another
  writes or updates it (``read-write``).  Atomic updates from many blocks alone
  are not a race; a block's own accesses never conflict; per-block ``alloca``
  memory is private.
* it runs the launch again one block at a time in several orders (the device's
  order, the reverse, and seeded shuffles) and compares the buffers written: a
  conflict whose element ends differently is *observable* (the finding shows
  the two values); one whose element ends the same in every order tried is still
  a race on a GPU and is reported as such.

One :class:`Finding` per pair of conflicting ops and kind, with the first
element, the two blocks and how many elements share it.
"""

from __future__ import annotations

import io
from typing import Any, Optional, Sequence

import numpy as np

from tileir.debug.findings import Finding, Related
from tileir.debug.launching import Target, prepare
from tileir.debug.optext import op_texts
from tileir.debug.runner import GridLike, linear_blocks, run

__all__ = ["find_races", "schedules"]


class _Log:
    """An observer that keeps every memory access of every block."""

    def __init__(self) -> None:
        self.events: list = []
        self.print_stream = io.StringIO()  # the kernel's prints are not the finder's output

    def on_memory(self, op, kind, buffer, elements, block_ids, mask) -> None:
        self.events.append(
            (op, kind, buffer, np.array(elements), np.array(block_ids), np.array(mask))
        )


def schedules(grid: GridLike, count: int, seed: int = 0) -> list[list[tuple[int, int, int]]]:
    """Block orders to try: the device's, the reverse, then ``count - 2`` seeded shuffles."""
    blocks = linear_blocks(grid)
    orders = [blocks, blocks[::-1]]
    rng = np.random.default_rng(seed)
    for _ in range(max(0, count - 2)):
        orders.append([blocks[i] for i in rng.permutation(len(blocks))])
    seen, out = set(), []
    for o in orders[: max(count, 1)]:
        key = tuple(o)
        if key not in seen:
            seen.add(key)
            out.append(o)
    return out


def _accesses(events, grid) -> tuple[dict, list]:
    """buffer -> kind -> (elements, linear blocks, op indices), over every event."""
    gx, gy, _ = grid
    ops: list = []
    index: dict[int, int] = {}
    out: dict = {}
    for op, kind, buf, elems, ids, mask in events:
        if isinstance(buf, str) and buf.startswith("alloca"):
            continue
        k = index.setdefault(id(op), len(ops))
        if k == len(ops):
            ops.append(op)
        lin = ids[:, 0].astype(np.int64) + gx * (ids[:, 1] + gy * ids[:, 2].astype(np.int64))
        lanes = np.broadcast_to(lin.reshape((-1,) + (1,) * (elems.ndim - 1)), elems.shape)
        m = np.broadcast_to(mask, elems.shape)
        parts = out.setdefault(buf, {}).setdefault(kind, [])
        parts.append((elems[m], lanes[m], np.full(int(m.sum()), k, dtype=np.int64)))
    flat = {}
    for buf, kinds in out.items():
        flat[buf] = {
            kind: tuple(np.concatenate([p[i] for p in parts]) for i in range(3))
            for kind, parts in kinds.items()
        }
    return flat, ops


def _empty():
    z = np.zeros(0, dtype=np.int64)
    return z, z, z


def _pairs(elems, blocks, opx):
    """Distinct (element, block) pairs with the first op that made each."""
    if elems.size == 0:
        return elems, blocks, opx
    order = np.lexsort((blocks, elems))
    e, b, o = elems[order], blocks[order], opx[order]
    keep = np.ones(e.size, dtype=bool)
    keep[1:] = (e[1:] != e[:-1]) | (b[1:] != b[:-1])
    return e[keep], b[keep], o[keep]


#: added to the op index of an atomic access, so plain and atomic writers stay apart
_ATOMIC = 1 << 40


def _conflicts(acc: dict) -> list:
    """(kind, element, block a, op a, block b, op b) for every conflicting element."""
    w = _pairs(*acc.get("write", _empty()))
    a = _pairs(*acc.get("atomic", _empty()))
    r = _pairs(*acc.get("read", _empty()))
    found = []
    # write-write and write-atomic: an element whose writers (plain or atomic) are >= 2
    # blocks, at least one of them plain
    both = _pairs(
        np.concatenate([w[0], a[0]]),
        np.concatenate([w[1], a[1]]),
        np.concatenate([w[2], a[2] + _ATOMIC]),
    )
    if both[0].size:
        e, b, o = both
        start = np.ones(e.size, dtype=bool)
        start[1:] = e[1:] != e[:-1]
        group = np.cumsum(start) - 1
        counts = np.bincount(group)
        plain = np.bincount(group, weights=(o < _ATOMIC).astype(float))
        firsts = np.nonzero(start)[0]
        for g in np.nonzero((counts >= 2) & (plain >= 1))[0]:
            i = firsts[g]
            js = range(i, i + counts[g])
            pl = [j for j in js if o[j] < _ATOMIC]
            p = pl[0]
            q = next(j for j in js if j != p)
            kind = "write-write" if o[q] < _ATOMIC else "write-atomic"
            found.append((kind, int(e[p]), int(b[p]), int(o[p]), int(b[q]), int(o[q] % _ATOMIC)))
    # read-write: a block reads an element another block writes or updates
    if r[0].size and both[0].size:
        e, b, o = both
        # `both` is sorted by element: each element's writers are one run
        uniq, first, count = np.unique(e, return_index=True, return_counts=True)
        lo = np.minimum.reduceat(b, first)
        hi = np.maximum.reduceat(b, first)
        pos = np.searchsorted(uniq, r[0])
        ok = pos < uniq.size
        pos_c = np.minimum(pos, max(uniq.size - 1, 0))
        hit = ok & (uniq[pos_c] == r[0]) & ((lo[pos_c] != r[1]) | (hi[pos_c] != r[1]))
        for j in np.nonzero(hit)[0]:
            k = pos_c[j]
            run = range(int(first[k]), int(first[k] + count[k]))
            other = next(i for i in run if b[i] != r[1][j])
            found.append(
                (
                    "read-write",
                    int(r[0][j]),
                    int(r[1][j]),
                    int(r[2][j]),
                    int(b[other]),
                    int(o[other] % _ATOMIC),
                )
            )
    return found


def _block3(lin: int, grid) -> tuple:
    gx, gy, _ = grid
    return (lin % gx, (lin // gx) % gy, lin // (gx * gy))


def _name(params, buf) -> str:
    if isinstance(buf, (int, np.integer)) and 0 <= buf < len(params):
        return f"argument {int(buf)} ({params[int(buf)].role})"
    return f"argument {buf}" if isinstance(buf, (int, np.integer)) else f"buffer {buf}"


def _differences(outs: list, orders: list, buf) -> Optional[dict]:
    """element -> ((order a, value a), (order b, value b)) where the runs disagree."""
    if not isinstance(buf, (int, np.integer)):
        return None
    arrays = [np.asarray(o[int(buf)]) for o in outs]
    base = arrays[0]
    diff: dict[int, tuple] = {}
    for arr, order in zip(arrays[1:], orders[1:]):
        same = (arr == base) | ((arr != arr) & (base != base))
        for e in np.nonzero(~same)[0]:
            diff.setdefault(int(e), ((orders[0], base[e]), (order, arr[e])))
    return diff


def _value(v) -> str:
    v = np.asarray(v)
    return f"{float(v):.6g}" if v.dtype.kind in "fV" else str(v.item())


def _order_text(order) -> str:
    if order is None:
        return "all blocks at once"
    shown = ", ".join(str(b[0]) if b[1:] == (0, 0) else str(b) for b in order[:6])
    return f"order [{shown}{', ...' if len(order) > 6 else ''}]"


def find_races(
    kernel: Target,
    args: Sequence[Any],
    grid: Optional[Sequence[int]] = None,
    *,
    schedule_count: int = 4,
    seed: int = 0,
) -> list[Finding]:
    """Conflicting accesses between blocks of one launch of ``kernel`` on ``args``.

    Runs the launch watching memory, then ``schedule_count`` block orders (see
    :func:`schedules`) to see which conflicts change the result.  A launch that faults
    raises its ``InterpretError`` (:func:`find_out_of_bounds` reports those).  Each :class:`Finding`
    has ``op`` / ``loc`` / ``block`` of one access, ``element`` (flat index into the
    buffer), and the other block's op in ``related``; ``detail`` is ``write-write``,
    ``write-atomic`` or ``read-write``.
    """
    prep = prepare(kernel, args, grid)
    texts = op_texts(prep.module)
    log = _Log()
    first = run(prep.module, prep.entry, prep.args, prep.grid, devices=prep.devices, observer=log)
    if first.error is not None:  # a launch that faults has no races to compare
        raise first.error
    flat, ops = _accesses(log.events, prep.grid)
    orders = [None] + schedules(prep.grid, schedule_count, seed)
    outs = [first.outputs]
    for order in orders[1:]:
        outs.append(
            run(
                prep.module,
                prep.entry,
                prep.args,
                prep.grid,
                devices=prep.devices,
                order=order,
                stream=io.StringIO(),
            ).outputs
        )
    groups: dict = {}
    for buf, acc in flat.items():
        diffs = _differences(outs, orders, buf)
        for kind, elem, ba, oa, bb, ob in _conflicts(acc):
            key = (kind, buf, oa, ob)
            g = groups.get(key)
            seen = diffs.get(elem) if diffs else None
            if g is None:
                groups[key] = g = {
                    "elem": elem,
                    "a": ba,
                    "b": bb,
                    "n": 0,
                    "blocks": set(),
                    "diff": None,
                    "n_diff": 0,
                }
            g["n"] += 1
            g["blocks"].update((ba, bb))
            if seen is not None:
                g["n_diff"] += 1
                if g["diff"] is None:
                    g["diff"] = (elem, seen)
    out = []
    for (kind, buf, oa, ob), g in groups.items():
        op_a, op_b = ops[oa], ops[ob]
        block_a, block_b = _block3(g["a"], prep.grid), _block3(g["b"], prep.grid)
        name = _name(prep.params, buf)
        verb = {
            "write-write": "both write",
            "write-atomic": "write and atomically update",
            "read-write": "read and write",
        }[kind]
        msg = f"blocks {block_a} and {block_b} {verb} element {g['elem']} of {name} in one launch"
        if g["diff"] is not None:
            elem, ((o1, v1), (o2, v2)) = g["diff"]
            msg += (
                f"; the result depends on the schedule: element {elem} is {_value(v1)} "
                f"with {_order_text(o1)} and {_value(v2)} with {_order_text(o2)}"
            )
        else:
            msg += "; every schedule tried gave the same values, but a GPU promises no order"
        if g["n"] > 1:
            msg += (
                f" ({g['n']} element(s) conflict, {g['n_diff']} end differently, "
                f"{len(g['blocks'])} block(s) involved)"
            )
        role = "written by" if kind == "read-write" else "also written by"
        related = (
            Related(
                role,
                op_b,
                texts.of(op_b).text,
                op_b.loc,
                block_b,
                f"element {g['elem']} of {name}",
            ),
        )
        out.append(
            Finding(
                "race",
                kind,
                prep.entry,
                op_a,
                texts.of(op_a).text,
                op_a.loc,
                block_a,
                g["elem"],
                msg,
                related,
                (),
                g["n"],
            )
        )
    return out
