"""One tile block batch's evaluator: walks a block's ops in program order, runs each
through the rule table (:data:`tileir.fake.rules.NUMPY_RULES`) over the batch of blocks now
running, hands control flow to :mod:`tileir.fake.control`, and reports ops and memory
accesses to an observer (the protocol is in :mod:`tileir.fake.interpreter`).  The rules see
it as their context (``ctx``)."""

from __future__ import annotations

import sys
from typing import Any, Optional, TextIO, Union

import numpy as np

from tileir.errors import InterpretError, TileIRError
from tileir.fake.control import run_if, run_loop
from tileir.fake.fill import Fill
from tileir.fake.frames import Frame, LaneExit, all_lanes, compose
from tileir.fake.fusion import Group, fused_ops, run_group
from tileir.fake.limits import DEFAULT_LIMITS, Limits
from tileir.fake.memory import Memory, Segment
from tileir.fake.rules import NUMPY_RULES
from tileir.fake.values import plain, widen
from tileir.formats import numpy_dtype
from tileir.ir.dialect import TERMINATORS
from tileir.ir.module import Block, Op

__all__ = ["Machine"]

#: rules that take a ``values.TileGrid`` operand as it is (every other rule gets arrays);
#: a ``continue`` carries one to the next trip as it is, too (a K loop's accumulator)
_GRID_AWARE = frozenset({"mmaf", "store_view_tko"})


class Machine:
    """One launch's interpreter state; also the ``ctx`` every rule receives."""

    def __init__(
        self,
        kernel: str,
        memory: Memory,
        globals_: dict,
        grid: tuple[int, int, int],
        observer: Any,  # the protocol of tileir.fake.interpreter (either method may be missing)
        stream: Optional[TextIO],
        limits: Limits = DEFAULT_LIMITS,
        fill: Optional[Fill] = None,
    ):
        self.kernel = kernel
        # what undefined memory holds (tileir.fake.fill); None: zeros
        self.fill = fill
        self.limits = limits
        self.memory = memory
        self.globals = globals_
        self.grid = grid
        self.observer = observer
        # either hook may be missing: a debugger that only follows memory, say
        self.watch_ops = callable(getattr(observer, "after_op", None))
        self.watch_memory = callable(getattr(observer, "on_memory", None))
        self.watch_alloca = callable(getattr(observer, "on_alloca", None))
        if stream is None:
            stream = getattr(observer, "print_stream", None) or sys.stdout
        self.stream = stream
        self.const_cache: dict[int, np.ndarray] = {}
        self.frame: Optional[Frame] = None
        self._alloca_scopes: list[list] = []
        self.combining = 0

    # -------------------------------------------------------------- services for the rules

    @property
    def _running(self) -> Frame:
        """The frame of the batch now running (a rule, or a combiner, runs in one)."""
        frame = self.frame
        if frame is None:
            raise InterpretError("no block batch is running", kernel=self.kernel)
        return frame

    @property
    def b(self) -> int:
        """Lanes (blocks) in the batch now running."""
        return self._running.size

    @property
    def block_ids(self) -> np.ndarray:
        """``(b, 3)`` int32 block ids of the batch now running."""
        return self._running.block_ids

    def error(self, op: Op, message: str, lane: Optional[int] = None) -> InterpretError:
        """An InterpretError naming the kernel, the op, its source line and the block."""
        if lane is not None and self.frame is not None and self.frame.size:
            x, y, z = (int(v) for v in self.frame.block_ids[min(lane, self.frame.size - 1)])
            message = f"{message} (block ({x}, {y}, {z}))"
        where = str(op.loc) if getattr(op, "loc", None) is not None else None
        return InterpretError(message, kernel=self.kernel, op=op.name, where=where)

    def memory_event(
        self, op: Op, kind: str, buffer: Union[int, str], elements: np.ndarray, mask: np.ndarray
    ) -> None:
        frame = self._running
        b = frame.size
        self.observer.on_memory(
            op,
            kind,
            buffer,
            widen(np.asarray(elements), b),
            frame.block_ids,
            widen(np.asarray(mask), b),
        )

    def undefined(self, fmt, shape: tuple) -> np.ndarray:
        """Host elements of ``fmt`` for memory or lanes whose contents are undefined: the
        launch's fill pattern, or zeros."""
        count = int(np.prod(shape, dtype=np.int64))
        if self.fill is None:
            return np.zeros(shape, dtype=numpy_dtype(fmt))
        return self.fill.host(fmt, count).reshape(shape)

    def print_text(self, text: str) -> None:
        self.stream.write(text)

    def scoped_alloca(self, segment: Segment) -> None:
        self._alloca_scopes[-1].append(segment)

    def combine(self, op: Op, block: Block, elems: list, accs: list) -> list:
        """Evaluate a reduce / scan combiner on whole arrays of (element, accumulator) pairs."""
        parent = self._running
        frame = Frame(parent, None, parent.size, parent.block_ids, expand=elems[0].ndim - 1)
        for i, (e, a) in enumerate(zip(elems, accs)):
            frame.vals[block.args[2 * i].id] = e
            frame.vals[block.args[2 * i + 1].id] = a
        self.combining += 1
        try:
            exits = self.run_block(block, frame)
        finally:
            self.combining -= 1
            self.frame = parent
        if len(exits) != 1 or exits[0].kind != "yield":
            raise self.error(op, "the combiner region must end in one yield")
        return [np.asarray(v).astype(e.dtype, copy=False) for v, e in zip(exits[0].values, elems)]

    # -------------------------------------------------------------- running blocks

    def observe(self, op: Op, results: list, frame: Frame) -> None:
        b = frame.size
        shown = [widen(r, b) if isinstance(r, np.ndarray) and r.ndim else r for r in results]
        self.observer.after_op(op, shown, frame.block_ids)

    def _run_op(self, op: Op, frame: Frame) -> None:
        try:
            if op.name in _GRID_AWARE:
                args = [frame.get_lazy(v.id) for v in op.operands]
            else:
                args = [frame.get(v.id) for v in op.operands]
        except KeyError as e:
            raise self.error(op, f"operand %{e.args[0]} is used before it is defined") from None
        rule = NUMPY_RULES.get(op.name)
        if rule is None:
            raise self.error(op, f"`{op.name}` is not an op of the dialect")
        self.frame = frame
        try:
            results = rule(self, op, args)
        except TileIRError:
            raise
        except Exception as e:  # a numpy refusal: name the op and where it was
            raise self.error(op, f"{type(e).__name__}: {e}") from e
        if len(results) != len(op.results):
            raise self.error(
                op, f"the rule gave {len(results)} results for {len(op.results)} declared"
            )
        if self.watch_ops:  # an observer sees plain arrays
            results = [plain(r) for r in results]
        for v, r in zip(op.results, results):
            frame.vals[v.id] = r
        if self.watch_ops:
            self.observe(op, results, frame)

    def run_block(
        self, block: Block, frame: Frame, skip: frozenset = frozenset()
    ) -> list[LaneExit]:
        """Run ``block`` on ``frame``'s lanes; the exits say which lanes left how.  ``skip``
        names ops (by the SSA id of their first result) whose values ``frame`` holds already
        from an earlier trip of a loop (its invariant ops: :mod:`tileir.fake.invariants`)."""
        exits: list[LaneExit] = []
        cur, cur_map = frame, None
        scope: list = []
        self._alloca_scopes.append(scope)
        # runs of lane-local ops go strip by strip (tileir.fake.fusion), unless an observer
        # watches every op or a combiner (whose values are pairs, not lanes) is running
        ops = block.ops if self.watch_ops or self.combining else fused_ops(block)
        try:
            for op in ops:
                if type(op) is Group:
                    run_group(self, op, cur, skip)
                    continue
                if skip and op.results and op.results[0].id in skip:
                    continue
                name = op.name
                if name in TERMINATORS:
                    get = cur.get_lazy if name == "continue" else cur.get
                    try:
                        vals = [get(v.id) for v in op.operands]
                    except KeyError as e:
                        raise self.error(
                            op, f"operand %{e.args[0]} is used before it is defined"
                        ) from None
                    if self.watch_ops:
                        self.observe(op, [], cur)
                    exits.append(LaneExit(name, cur_map, vals))
                    return exits
                if name == "if":
                    escapes = run_if(self, op, cur)
                elif name == "for" or name == "loop":
                    escapes = run_loop(self, op, cur)
                else:
                    self._run_op(op, cur)
                    continue
                if not escapes:
                    continue
                gone = np.concatenate([all_lanes(x.lanes, cur.size) for x in escapes])
                for x in escapes:
                    exits.append(
                        LaneExit(x.kind, compose(cur_map, all_lanes(x.lanes, cur.size)), x.values)
                    )
                if gone.size >= cur.size:
                    return exits
                keep = np.setdiff1d(np.arange(cur.size), gone)
                cur, cur_map = Frame.sub(cur, keep), compose(cur_map, keep)
            exits.append(LaneExit("yield", cur_map, []))  # an empty region yields nothing
            return exits
        finally:
            self._alloca_scopes.pop()
            for seg in scope:
                self.memory.remove(seg)
