"""``find_untouched``: In elements no block reads and Out elements no block writes.

A kernel whose Out is one element short of its data (``Out(F32, cells([299], ...))``
launched on 300 elements) writes 299 of them; the last keeps whatever the buffer
held and only a comparison with a reference notices.  The finder runs the launch
once watching every memory access (the interpreter's ``on_memory``, as
:func:`~tileir.debug.find_races` does), marks each element of each In that some
block read and each element of each Out that some block wrote (a plain store or
an atomic), and reports, per buffer, the ranges of elements left untouched: the
first range with its position in the buffer's extent, how many elements in all,
and the access nearest to the first untouched element (its op, source line and
block), which is usually the store or load that stopped one short.

Untouched elements are sometimes meant, and the finder knows two ways:

* an In with a ``FREE_AXIS`` dimension is addressed by the kernel itself
  (``load_at`` picks the cell): a gather reads the rows its indices name, a
  window or a strided loop reads every other cell, a search loop stops at its
  first hit.  Which cells such a kernel reads is its choice, so these Ins are
  left out unless ``strict=True``.  Ins read through their grid-following cells,
  and every Out, are always judged (an Out is written through its cells alone).
* ``allow=`` lists argument indices whose untouched elements are intended (an
  Out whose reference keeps the rest, say); the finder says nothing about them.
"""

from __future__ import annotations

import io
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from tileir.debug.findings import Finding, where
from tileir.debug.launching import Target, prepare
from tileir.debug.optext import op_texts
from tileir.debug.runner import run
from tileir.ir.module import walk
from tileir.types import FREE_AXIS

__all__ = ["find_untouched", "untouched_ranges"]

#: At most this many ranges are listed in one finding (the count covers all of them).
SHOWN_RANGES = 4


class _Log:
    """Per buffer: which elements were read / written, and by which op and block last."""

    def __init__(self) -> None:
        self.events: list = []
        self.print_stream = io.StringIO()  # the kernel's prints are not the finder's output

    def on_memory(self, op, kind, buffer, elements, block_ids, mask) -> None:
        if isinstance(buffer, (int, np.integer)):
            self.events.append(
                (op, kind, int(buffer), np.array(elements), np.array(block_ids), np.array(mask))
            )


def untouched_ranges(touched: np.ndarray) -> list[tuple[int, int]]:
    """The ``[start, stop)`` runs of False in a 1-D bool array.

    >>> untouched_ranges(np.array([True, False, False, True, False]))
    [(1, 3), (4, 5)]
    """
    flags = np.concatenate([[False], ~np.asarray(touched, dtype=bool), [False]])
    edges = np.flatnonzero(flags[1:] != flags[:-1])
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2])]


def _position(param, element: int, size: int) -> str:
    """Where ``element`` lies in the parameter's extent, or that it lies past it."""
    c = param.cells
    extent = None if c is None else [e for e in c.extent if isinstance(e, int)]
    if c is None or extent is None or len(extent) != len(c.extent):
        return f"element {element}"
    covered = int(np.prod(extent))
    if element >= covered:
        return (
            f"element {element}, past the marker's extent {list(c.extent)} "
            f"({covered} element(s)) of a buffer of {size}"
        )
    at = tuple(int(i) for i in np.unravel_index(element, extent))
    return f"element {element} = {at} of extent {list(c.extent)}"


def _kernel_picks_cells(param) -> bool:
    """Whether some dimension of the parameter's cells follows no grid axis."""
    c = param.marker.cells
    return c is not None and any(a is FREE_AXIS for a in c.along)


def _range_text(a: int, b: int) -> str:
    return f"{a}" if b - a == 1 else f"{a}..{b - 1}"


def find_untouched(
    kernel: Target,
    args: Sequence[Any],
    grid: Optional[Sequence[int]] = None,
    *,
    allow: Iterable[int] = (),
    strict: bool = False,
) -> list[Finding]:
    """In elements no block reads and Out elements no block writes, in one launch of
    ``kernel`` on ``args``: one :class:`Finding` per buffer, naming its untouched ranges
    (flat element indices, the first also as a position in the extent), their count, and
    the op, source line and block of the access nearest to the first of them.

    ``allow`` lists argument indices whose untouched elements are intended; an In with a
    ``FREE_AXIS`` dimension (whose cells the kernel picks) is judged only when
    ``strict`` is true.  Shared buffers are the kernel's own to address and are not
    judged.  A launch
    that faults cannot be judged: its :class:`~tileir.errors.InterpretError` is raised.
    """
    prep = prepare(kernel, args, grid)
    allowed = {int(i) for i in allow}
    texts = op_texts(prep.module)
    log = _Log()
    result = run(prep.module, prep.entry, prep.args, prep.grid, devices=prep.devices, observer=log)
    if result.error is not None:
        raise result.error
    fn = prep.module.function(prep.entry)
    ops = list(walk(fn.body))
    found: list[Finding] = []
    for p in prep.params:
        if p.role not in ("In", "Out") or p.index in allowed:
            continue
        if p.role == "In" and not strict and _kernel_picks_cells(p):
            continue
        size = int(np.asarray(prep.args[p.index]).size)
        kinds = ("read",) if p.role == "In" else ("write", "atomic")
        touched = np.zeros(size, dtype=bool)
        last_op = np.full(size, -1, dtype=np.int64)
        last_block = np.zeros((size, 3), dtype=np.int64)
        op_of: list = []
        for op, kind, buf, elems, ids, mask in log.events:
            if buf != p.index or kind not in kinds:
                continue
            m = np.broadcast_to(mask, elems.shape)
            lanes = np.broadcast_to(
                np.arange(elems.shape[0]).reshape((-1,) + (1,) * (elems.ndim - 1)), elems.shape
            )
            e, lane = elems[m], lanes[m]
            keep = (e >= 0) & (e < size)
            e, lane = e[keep], lane[keep]
            touched[e] = True
            last_op[e] = len(op_of)
            last_block[e] = ids[lane]
            op_of.append(op)
        ranges = untouched_ranges(touched)
        if not ranges:
            continue
        count = sum(b - a for a, b in ranges)
        first = ranges[0][0]
        verb = "reads" if p.role == "In" else "writes"
        listed = ", ".join(_range_text(a, b) for a, b in ranges[:SHOWN_RANGES])
        more = (
            f" and {len(ranges) - SHOWN_RANGES} more range(s)"
            if len(ranges) > SHOWN_RANGES
            else ""
        )
        hits = np.flatnonzero(touched)
        if hits.size:
            near = int(hits[np.argmin(np.abs(hits - first))])
            op = op_of[int(last_op[near])]
            block: Optional[tuple] = tuple(int(v) for v in last_block[near])
            nearest = (
                f"; the nearest access is `{op.name}` at {where(op.loc)} in block {block}, "
                f"which {verb[:-1]}s element {near}"
            )
        else:
            op, block = ops[-1], None
            nearest = f"; no block {verb} argument {p.index} at all"
        msg = (
            f"no block {verb} {count} of the {size} element(s) of argument {p.index} "
            f"({p.role} {p.format}): element(s) {listed}{more}; the first is "
            f"{_position(p, first, size)}{nearest}"
        )
        found.append(
            Finding(
                "untouched",
                "never-read" if p.role == "In" else "never-written",
                prep.entry,
                op,
                texts.of(op).text,
                op.loc,
                block,
                first,
                msg,
                count=count,
            )
        )
    return found
