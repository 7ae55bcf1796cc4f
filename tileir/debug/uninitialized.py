"""``find_uninitialized``: reads of elements nothing wrote before them in the launch.

Three kinds of memory hold no defined value when a kernel reads them:

* an argument whose contents are undefined at the start (``detail``
  ``unwritten-argument``).  By default every Out: an Out is what the kernel writes,
  so reading an element of it before some store wrote it reads whatever the caller's
  buffer held (on a GPU, a fresh allocation).  ``undefined=`` lists other arguments
  (an In the caller never filled) or none (``undefined=()``, when the kernel means to
  read back an Out the caller filled);
* a block's ``scratch`` (``alloca``) memory, read before the block stored to the
  element (``detail`` ``alloca``); every run of the ``alloca`` op starts afresh;
* lanes of a load that read no memory and no padding value: past the tensor's
  extent of a view whose type names no padding value, or masked off in a pointer
  load without a ``padding`` operand (``detail`` ``undefined-lanes``).  Such lanes
  are harmless until they reach an output, so they are followed with the taint
  rules of :func:`~tileir.debug.find_padding_leaks` and reported where they reach a
  store.

The first two come from one launch watching every memory access (the interpreter's
``on_memory``, and ``on_alloca`` to start each scratch buffer afresh): each buffer in
question keeps which elements some store (or atomic) wrote so far, in the order the
launch ran; a read (or an atomic's read of the old value) of an element not yet
written is a finding.  Whether a block reads what *another* block wrote is a race
(:func:`~tileir.debug.find_races`), not judged here.  One :class:`Finding` per (op,
buffer) with the first block and element (flat in the argument; for ``alloca``, in
that block's scratch), and how many element reads share it.  ``FakeDevice(fill=
"signal")`` shows the same reads in the results instead (NaN, bytes of 0xA5).
"""

from __future__ import annotations

import io
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from tileir.debug.findings import Finding
from tileir.debug.launching import Target, prepare
from tileir.debug.optext import op_texts
from tileir.debug.runner import run
from tileir.errors import UsageError
from tileir.ir.module import Module, walk
from tileir.ir.signatures import operand_groups

__all__ = ["find_uninitialized", "undefined_lane_loads"]


class _Watch:
    """An observer keeping, per buffer in question, which elements were written so far,
    and the first read of an unwritten element per (op, buffer)."""

    def __init__(self, sizes: dict) -> None:
        self.written = {k: np.zeros(n, dtype=bool) for k, n in sizes.items()}
        self.scratch: dict = {}  # alloca key -> elements per block
        self.hits: dict = {}  # (id(op), buffer) -> [op, buffer, block, element, count, blocks]
        self.print_stream = io.StringIO()  # the kernel's prints are not the finder's output

    def on_alloca(self, op, buffer, per_block, block_ids) -> None:
        self.written[buffer] = np.zeros(int(per_block) * len(block_ids), dtype=bool)
        self.scratch[buffer] = int(per_block)

    def on_memory(self, op, kind, buffer, elements, block_ids, mask) -> None:
        key = int(buffer) if isinstance(buffer, (int, np.integer)) else buffer
        done = self.written.get(key)
        if done is None:
            return
        elems = np.asarray(elements)
        m = np.broadcast_to(np.asarray(mask), elems.shape)
        lanes = np.broadcast_to(
            np.arange(elems.shape[0]).reshape((-1,) + (1,) * (elems.ndim - 1)), elems.shape
        )
        e, lane = elems[m], lanes[m]
        inside = (e >= 0) & (e < done.size)  # outside the buffer: find_out_of_bounds' job
        e, lane = e[inside], lane[inside]
        if kind in ("read", "atomic"):
            unwritten = ~done[e]
            if unwritten.any():
                self._hit(op, key, e[unwritten], lane[unwritten], np.asarray(block_ids))
        if kind in ("write", "atomic"):
            done[e] = True

    def _hit(self, op, key, elems, lanes, block_ids) -> None:
        entry = self.hits.get((id(op), key))
        blocks = {tuple(int(v) for v in block_ids[i]) for i in np.unique(lanes)}
        if entry is None:
            first = tuple(int(v) for v in block_ids[lanes[0]])
            element = int(elems[0])
            per_block = self.scratch.get(key)
            if per_block is not None:  # an alloca: the element in the block's own scratch
                element %= per_block
            self.hits[(id(op), key)] = [op, key, first, element, int(elems.size), blocks]
        else:
            entry[4] += int(elems.size)
            entry[5] |= blocks


def undefined_lane_loads(module: Module) -> list:
    """The loads of ``module`` whose lanes may hold no defined value: a view load of a view
    whose type names no padding value, a masked pointer load without a padding operand."""
    found = []
    for fn in module.functions:
        for op in walk(fn.body):
            if op.name == "load_view_tko":
                if getattr(op.operands[0].type, "padding", "?") is None:
                    found.append(op)
            elif op.name == "load_ptr_tko":
                g = operand_groups(op)
                if g["mask"] and not g["padding"]:
                    found.append(op)
    return found


def _undefined_args(prep, undefined: Optional[Iterable[int]]) -> list[int]:
    n = len(prep.args)
    if undefined is None:
        return [p.index for p in prep.params if p.role == "Out"]
    chosen = sorted({int(i) for i in undefined})
    for i in chosen:
        if not 0 <= i < n or not isinstance(prep.args[i], np.ndarray):
            raise UsageError(
                f"undefined={chosen} names argument {i}, which is not a buffer of the "
                f"launch ({n} argument(s))",
                kernel=prep.entry,
                op="find_uninitialized",
            )
    return chosen


def _name(prep, key) -> str:
    if isinstance(key, int):
        if key < len(prep.params):
            p = prep.params[key]
            return f"argument {key} ({p.role} {p.format})"
        return f"argument {key}"
    return f"the block's scratch {key}"


def find_uninitialized(
    kernel: Target,
    args: Sequence[Any],
    grid: Optional[Sequence[int]] = None,
    *,
    undefined: Optional[Iterable[int]] = None,
    lanes: bool = True,
) -> list[Finding]:
    """Reads of elements nothing wrote before them in one launch of ``kernel`` on ``args``.

    ``undefined`` lists the arguments whose contents are undefined at the start (argument
    indices; by default every Out of a recorded kernel, none of a bare Module's entry);
    ``alloca`` scratch is always undefined until stored.  ``lanes`` (default on) also
    reports load lanes with no defined value (no padding value, no padding operand) that
    reach a store.  Each :class:`Finding` has ``kind`` ``uninitialized``, ``detail``
    ``unwritten-argument``, ``alloca`` or ``undefined-lanes``, the reading op with its
    source line, the first block and element.  A launch that faults raises its
    :class:`~tileir.errors.InterpretError` (:func:`find_out_of_bounds` reports those).

    >>> import numpy as np
    >>> from tileir import F32, In, Out, cells, load_cell, store_cell, trace
    >>> def twice(x, out):
    ...     yield store_cell(out, (yield load_cell(out)) + (yield load_cell(x)))
    >>> k = trace("twice", twice, In(F32, cells([8], [4])), Out(F32, cells([8], [4])))
    >>> [(f.detail, f.op.name, f.block, f.element) for f in
    ...  find_uninitialized(k, [np.ones(8, np.float32), np.zeros(8, np.float32)])]
    [('unwritten-argument', 'load_view_tko', (0, 0, 0), 0)]
    >>> find_uninitialized(k, [np.ones(8, np.float32), np.zeros(8, np.float32)], undefined=())
    []
    """
    prep = prepare(kernel, args, grid)
    chosen = _undefined_args(prep, undefined)
    texts = op_texts(prep.module)
    watch = _Watch({i: int(np.asarray(prep.args[i]).size) for i in chosen})
    result = run(
        prep.module, prep.entry, prep.args, prep.grid, devices=prep.devices, observer=watch
    )
    if result.error is not None:
        raise result.error
    found: list[tuple[int, Finding]] = []
    order = {id(op): i for i, op in enumerate(walk(prep.module.function(prep.entry).body))}
    for op, key, block, element, count, blocks in watch.hits.values():
        scratch = not isinstance(key, int)
        since = (
            "an alloca's memory holds nothing until the block stores to it"
            if scratch
            else f"argument {key}'s contents are undefined at the start of the launch"
        )
        msg = (
            f"`{op.name}` reads element {element} of {_name(prep, key)} before anything "
            f"wrote it in the launch ({since})"
        )
        if count > 1 or len(blocks) > 1:
            msg += f"; {count} element read(s) in {len(blocks)} block(s) like it"
        found.append(
            (
                order.get(id(op), 0),
                Finding(
                    "uninitialized",
                    "alloca" if scratch else "unwritten-argument",
                    prep.entry,
                    op,
                    texts.of(op).text,
                    op.loc,
                    block,
                    element,
                    msg,
                    count=count,
                ),
            )
        )
    out = [f for _, f in sorted(found, key=lambda p: p[0])]
    if lanes and undefined_lane_loads(prep.module):
        out += _undefined_lanes(kernel, args, grid)
    return out


def _undefined_lanes(kernel: Target, args: Sequence[Any], grid) -> list[Finding]:
    # lazy: the taint machinery traces every block; only kernels with such loads pay
    from tileir.debug.padding import leaks_of
    from tileir.debug.taint import TaintContext
    from tileir.debug.tracer import trace_kernel

    trace = trace_kernel(kernel, args, grid)
    return leaks_of(trace, TaintContext(masked=True, undefined_only=True))
