"""Tracing a kernel on the fake device: every op a chosen block ran, with its values.

:func:`trace_kernel` runs a kernel with an observer (the interpreter's
``after_op`` / ``on_memory`` protocol) and keeps, for each op each traced
block ran, a :class:`Step`: the op, its Tile IR text (see ``optext``), the
user's source line (``op.loc``), the block, the op's result values and its
operand values for that block, how many times the block had run the op before
(loop trips), and the memory it touched.  Operand values come from the block's
earlier steps; region arguments (a loop's carried values) are rebuilt by
:class:`~tileir.debug.flow.Flow`.

A kernel that faults (an address outside every buffer, say) does not raise:
the trace stops there and keeps the error and the failing op in ``error`` and
``fault``.  Ops inside ``reduce`` / ``scan`` combiners run on arrays of pairs;
they are left out unless ``combiners=True``.
"""

from __future__ import annotations

import io
import linecache
from typing import Any, Iterable, Optional, Sequence, Union

import attrs
import numpy as np

from tileir.debug.flow import Flow, Structure
from tileir.debug.launching import Target, prepare
from tileir.debug.optext import OpTexts, op_texts
from tileir.debug.runner import BlockLike, Fault, block3, run
from tileir.debug.summary import describe_values
from tileir.errors import InterpretError
from tileir.fake.values import from_scalar
from tileir.ir.dialect import REGION_OPS, TERMINATORS
from tileir.ir.module import Loc, Module, Op
from tileir.types import TOKEN, PointerType, TileType

__all__ = ["Step", "MemoryAccess", "Trace", "trace_kernel", "normalize_blocks", "block3"]

# the ops whose regions the tracer follows
_CONTROL = REGION_OPS - {"reduce", "scan"}


@attrs.frozen(eq=False)
class MemoryAccess:
    """One buffer an op touched for one block: ``kind`` (read / write / atomic), the
    ``buffer`` (argument index, ``@global`` or ``alloca%id``), the flat element index of
    every tile element and the ``mask`` of elements actually accessed."""

    kind: str
    buffer: Any
    elements: np.ndarray
    mask: np.ndarray


@attrs.frozen(eq=False)
class Step:
    """One op run by one block.  ``values`` / ``operands`` are numpy arrays of the tile's
    shape (a token is ``None``, a view its view object); ``visit`` counts earlier runs of
    this op by this block; ``line`` is the op's line in the rendered module text."""

    index: int
    op: Op
    text: str
    line: int
    loc: Optional[Loc]
    block: tuple
    values: tuple
    operands: tuple
    visit: int = 0
    combiner: bool = False
    memory: tuple = ()

    @property
    def source(self) -> str:
        """The user's source line the op came from (stripped; empty when unknown)."""
        if self.loc is None:
            return ""
        return linecache.getline(self.loc.file, self.loc.line).strip()

    def where(self) -> str:
        """``file.py:12`` (short file name) or ``?``."""
        if self.loc is None:
            return "?"
        return f"{self.loc.file.rsplit('/', 1)[-1]}:{self.loc.line}"

    def describe(self, width: int = 110) -> str:
        """Two lines: the op with its place, and its values."""
        text = self.text if len(self.text) <= width else self.text[: width - 1] + "…"
        trip = f" (run {self.visit + 1})" if self.visit else ""
        head = f"#{self.index:<4} {self.where():<21} {text}{trip}"
        vals = (
            describe_values(self.values, [r.type for r in self.op.results]) if self.values else ""
        )
        return head + (f"\n       -> {vals}" if vals and vals != "token" else "")


#: A block id as :func:`trace_kernel` gives it back: ``(x, y, z)``.
Block3 = tuple[int, int, int]


def normalize_blocks(
    blocks: Union[None, BlockLike, Iterable[BlockLike]],
) -> Optional[frozenset[Block3]]:
    """Block ids as a set of ``(x, y, z)`` (``None`` stays None: every block)."""
    if blocks is None:
        return None
    if isinstance(blocks, (int, np.integer)) or (
        isinstance(blocks, tuple)
        and blocks
        and all(isinstance(v, (int, np.integer)) for v in blocks)
    ):
        blocks = [blocks]
    return frozenset(block3(b) for b in blocks)


@attrs.define(eq=False)
class Trace:
    """What :func:`trace_kernel` saw.  Iterate ``steps`` (execution order: op by op,
    block by block within an op, as the batched interpreter runs them)."""

    kernel: str
    module: Module
    grid: tuple
    blocks: Optional[frozenset]
    steps: list
    outputs: list
    texts: OpTexts
    structure: Structure
    error: Optional[InterpretError] = None
    fault: Optional[Fault] = None
    prints: str = ""
    params: tuple = ()

    def __iter__(self):
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def traced_blocks(self) -> list:
        """The blocks that have steps, in the order they first appear."""
        seen: dict = {}
        for s in self.steps:
            seen.setdefault(s.block, None)
        return list(seen)

    def for_block(self, block: BlockLike) -> list:
        """The steps of one block, in the order it ran them."""
        b = block3(block)
        return [s for s in self.steps if s.block == b]

    def of_op(self, op: Op) -> list:
        """Every step of ``op`` (all blocks, all runs)."""
        return [s for s in self.steps if s.op is op]

    def summary(
        self, block: Optional[BlockLike] = None, limit: Optional[int] = None, width: int = 110
    ) -> str:
        """The trace as text: a header, then each step of ``block`` (default: every traced
        block in turn) with its values summarised, and the fault if the launch stopped."""
        blocks = self.traced_blocks() if block is None else [block3(block)]
        lines = [
            f"trace of `{self.kernel}` on grid {list(self.grid)}: {len(self.steps)} "
            f"step(s) of {len(self.traced_blocks())} block(s), {len(self.structure.ops)} "
            f"op(s) in the kernel"
        ]
        for b in blocks:
            steps = self.for_block(b)
            lines.append(f"block {b}: {len(steps)} step(s)")
            shown = steps if limit is None else steps[:limit]
            lines += ["  " + s.describe(width).replace("\n", "\n  ") for s in shown]
            if len(shown) < len(steps):
                lines.append(f"  ... {len(steps) - len(shown)} more step(s)")
        if self.prints:
            lines.append("printed: " + self.prints.rstrip().replace("\n", "\n         "))
        if self.error is not None:
            lines.append(f"stopped: {self.error}")
        return "\n".join(lines)


class _Tracer:
    """The observer: turns after_op / on_memory events into Steps for the traced blocks."""

    def __init__(
        self, structure: Structure, texts: OpTexts, blocks: Optional[frozenset], combiners: bool
    ):
        self.structure = structure
        self.texts = texts
        self.blocks = blocks
        self.combiners = combiners
        self.steps: list[Step] = []
        self.flows: dict[tuple, Flow] = {}
        self.visits: dict[tuple, int] = {}
        self.pending: list = []
        self.params: dict[int, Any] = {}
        self.print_stream = io.StringIO()

    def on_launch(self, params: dict) -> None:
        self.params = params

    def _flow(self, block: tuple) -> Flow:
        flow = self.flows.get(block)
        if flow is None:
            flow = Flow(self.structure, self.params, _induction)
            self.flows[block] = flow
        return flow

    def on_memory(self, op, kind, buffer, elements, block_ids, mask) -> None:
        self.pending.append((op, kind, buffer, elements, block_ids, mask))

    def after_op(self, op, results, block_ids) -> None:
        pending = [p for p in self.pending if p[0] is op]
        self.pending = [p for p in self.pending if p[0] is not op]
        combiner = self.structure.in_combiner(op)
        if combiner and not self.combiners:
            return
        where = self.texts.of(op)
        for lane in range(len(block_ids)):
            block = (int(block_ids[lane][0]), int(block_ids[lane][1]), int(block_ids[lane][2]))
            if self.blocks is not None and block not in self.blocks:
                continue
            values = tuple(_lane(r, lane, v.type) for r, v in zip(results, op.results))
            operands: tuple = ()
            if not combiner:
                flow = self._flow(block)
                flow.before(op)
                operands = tuple(flow.operands(op))
                if op.name in TERMINATORS:
                    flow.terminator(op, list(operands))
                else:
                    if op.name in _CONTROL:
                        flow.exits(op)
                    flow.define(op, list(values))
            memory = tuple(
                MemoryAccess(kind, buf, np.array(el[lane]), np.array(mk[lane]))
                for (_op, kind, buf, el, _ids, mk) in pending
            )
            key = (block, id(op))
            visit = self.visits.get(key, 0)
            self.visits[key] = visit + 1
            self.steps.append(
                Step(
                    len(self.steps),
                    op,
                    where.text,
                    where.line,
                    op.loc,
                    block,
                    values,
                    operands,
                    visit,
                    combiner,
                    memory,
                )
            )


def _lane(r, lane: int, ttype) -> Any:
    if ttype == TOKEN:
        return None
    if isinstance(r, np.ndarray):
        if isinstance(ttype, TileType) and r.ndim == ttype.rank + 1:
            return np.array(r[lane if r.shape[0] > 1 else 0])
        return np.array(r)
    if hasattr(r, "take") and hasattr(r, "batch"):
        return r.take(np.array([lane])) if r.batch > 1 else r
    return r


def _induction(loop: Op, trip: int, env: dict):
    lb, step = env.get(loop.operands[0].id), env.get(loop.operands[2].id)
    if lb is None or step is None:
        return None
    value = np.asarray(lb).astype(np.int64) + trip * np.asarray(step).astype(np.int64)
    return np.asarray(value).astype(np.asarray(lb).dtype)


def trace_kernel(
    kernel: Target,
    args: Sequence[Any],
    grid: Optional[Sequence[int]] = None,
    blocks: Union[None, BlockLike, Iterable[BlockLike]] = None,
    *,
    combiners: bool = False,
    order: Optional[Sequence[BlockLike]] = None,
    entry: Optional[str] = None,
) -> Trace:
    """Run ``kernel`` on the fake device over ``args`` and trace the ``blocks`` chosen.

    ``kernel`` is a recorded Kernel (its launch is checked as a device checks it; ``args``
    are numpy arrays for buffers and numbers for Scalars) or a Module (then ``args`` are
    the entry's arguments, ``entry`` names it and ``grid`` is required).  ``blocks``: block
    ids such as ``[(3, 0)]`` (``None``: every block).  ``order``: run the blocks one at a
    time in this order instead of all together.  Never raises for a fault of the kernel:
    see ``Trace.error`` / ``Trace.fault``.
    """
    prep = prepare(kernel, args, grid, entry=entry)
    fn = prep.module.function(prep.entry)
    structure = Structure(fn)
    texts = op_texts(prep.module)
    chosen = normalize_blocks(blocks)
    for b in sorted(chosen or ()):
        if not all(0 <= v < n for v, n in zip(b, prep.grid)):
            raise ValueError(f"block {b} is outside the grid {list(prep.grid)} of `{prep.entry}`")
    tracer = _Tracer(structure, texts, chosen, combiners)
    tracer.on_launch(_param_values(fn, prep.args))
    result = run(
        prep.module,
        prep.entry,
        prep.args,
        prep.grid,
        devices=prep.devices,
        observer=tracer,
        order=order,
    )
    n = len(prep.params) or len(prep.args)
    return Trace(
        prep.entry,
        prep.module,
        prep.grid,
        chosen,
        tracer.steps,
        result.outputs[:n],
        texts,
        structure,
        result.error,
        result.fault,
        tracer.print_stream.getvalue(),
        prep.params,
    )


def _param_values(fn, args: Sequence) -> dict[int, Optional[np.ndarray]]:
    """Values of the parameters as operands show them: a number parameter as a 0-d array of
    its format; a buffer's pointer as ``None`` (its fake address is the driver's, and the
    ``assume`` that every use goes through shows it)."""
    out: dict[int, Optional[np.ndarray]] = {}
    for p, a in zip(fn.params, args):
        element = getattr(p.type, "element", None)
        if isinstance(element, PointerType) or element is None:
            out[p.id] = None
        else:
            out[p.id] = np.asarray(from_scalar(a, element)[0])
    return out
