"""The debugger's launch driver: the fake device's interpreter, run in a chosen block order,
keeping the failing op when the kernel does something it may not.

:func:`tileir.fake.interpret.interpret` runs every block of the grid as one
batch (chunked by size) and raises ``InterpretError`` on a fault.  A debugger
needs two things more, so this module drives the same
:class:`~tileir.fake.interpret.Machine` itself:

* ``order``: run the blocks one at a time in a given order (each block a batch
  of one), so that schedules can be compared (``races``);
* the fault as data: the op whose rule refused, the lane (so the block), the
  frame of values it ran in, and the launch's memory (so an address can be
  placed against the buffers) — kept by a Machine whose ``error`` (the service
  every rule raises through) records its arguments.

The argument setup mirrors ``interpret`` (same conventions: a 1-D array of the
pointee's host dtype per pointer parameter, a scalar per number parameter,
arrays passed twice share one buffer); the outputs are the same too.
tests/test_debug_trace.py checks that this driver and ``interpret`` agree on
every bundled kernel.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import attrs
import numpy as np

from tileir.errors import InterpretError
from tileir.fake.frames import Frame
from tileir.fake.interpret import Machine
from tileir.fake.memory import Memory
from tileir.fake.values import from_scalar, value_dtype
from tileir.formats import numpy_dtype
from tileir.module import Module, Op, walk
from tileir.numerics import dense_array
from tileir.types import PointerType, TileType

__all__ = ["Fault", "Run", "run", "grid3", "block3", "linear_blocks"]


@attrs.frozen(eq=False)
class Fault:
    """Where a launch stopped: the ``op`` whose rule refused, the ``message``, the block
    (``None`` when the rule named no lane), the ``frame`` of values the op ran in and the
    ``lane`` of the block in it."""

    op: Op
    message: str
    block: Optional[tuple]
    frame: Any = attrs.field(repr=False)
    lane: Optional[int] = None


@attrs.define(eq=False)
class Run:
    """A finished (or stopped) launch: the arguments after it, the memory it ran in, and
    the error and fault when it stopped early."""

    outputs: list
    memory: Memory
    error: Optional[InterpretError] = None
    fault: Optional[Fault] = None


class _Machine(Machine):
    """A Machine that remembers the last refusal a rule made (rules raise what ``error``
    returns)."""

    fault: Optional[Fault] = None
    fault_error: Optional[InterpretError] = None

    def error(self, op, message: str, lane: Optional[int] = None) -> InterpretError:
        err = super().error(op, message, lane)
        frame = self.frame
        block = None
        if lane is not None and frame is not None and frame.size:
            at = min(lane, frame.size - 1)
            block = tuple(int(v) for v in frame.block_ids[at])
        self.fault = Fault(op, message, block, frame, lane)
        self.fault_error = err
        return err


def grid3(grid) -> tuple[int, int, int]:
    """A grid as three block counts."""
    g = tuple(int(v) for v in (grid if isinstance(grid, (tuple, list)) else (grid,)))
    return g + (1,) * (3 - len(g))


def block3(block) -> tuple[int, int, int]:
    """A block id as ``(x, y, z)``: ``3``, ``(3,)`` and ``(3, 0)`` are ``(3, 0, 0)``."""
    b = tuple(int(v) for v in (block if isinstance(block, (tuple, list)) else (block,)))
    if not 1 <= len(b) <= 3:
        raise ValueError(f"a block id has 1 to 3 coordinates, got {block!r}")
    return b + (0,) * (3 - len(b))


def linear_blocks(grid) -> list[tuple[int, int, int]]:
    """Every block of ``grid`` in the order the device numbers them (x fastest)."""
    gx, gy, gz = grid3(grid)
    return [(x, y, z) for z in range(gz) for y in range(gy) for x in range(gx)]


def _bind(fn, args: Sequence, memory: Memory) -> tuple[list, dict]:
    values, segments = [], {}
    for i, (p, a) in enumerate(zip(fn.params, args)):
        t = p.type
        if not isinstance(t, TileType) or t.rank != 0:
            raise InterpretError(f"parameter {i} has type {t}; entries take rank-0 tiles",
                                 kernel=fn.name)
        if isinstance(t.element, PointerType):
            arr = np.asarray(a)
            want = numpy_dtype(t.element.pointee)
            if arr.ndim != 1 or arr.dtype != want:
                raise InterpretError(f"argument {i} must be a 1-D array of {want} for {t}, got "
                                     f"{arr.ndim}-D {arr.dtype}", kernel=fn.name)
            same = next((j for j, b in enumerate(args[:i]) if b is a and j in segments), None)
            seg = segments[same] if same is not None else memory.add(
                i, np.ascontiguousarray(arr), borrowed=True)
            segments[i] = seg
            values.append(np.array([seg.base], dtype=np.int64))
        else:
            values.append(from_scalar(a, t.element))
    return values, segments


def _bytes_per_block(fn) -> int:
    # as the interpreter sizes its chunks: every tile value of one block, four times over
    total = 0
    for op in walk(fn.body):
        for r in op.results:
            if isinstance(r.type, TileType):
                total += r.type.size * value_dtype(r.type.element).itemsize
    return max(4 * total, 1024)


def run(module: Module, entry: str, args: Sequence, grid, *, observer=None,
        order: Optional[Sequence] = None, stream=None, max_chunk_bytes: int = 256 << 20) -> Run:
    """Run ``entry`` over ``grid``; ``order`` (a list of block ids ``(x, y, z)``) runs those
    blocks one at a time in that order instead of all together (in batches of at most
    ``max_chunk_bytes`` of values).  Never raises an ``InterpretError`` for a fault of the
    kernel: the returned :class:`Run` holds it."""
    fn = module.function(entry)
    if len(args) != len(fn.params):
        raise InterpretError(f"the entry takes {len(fn.params)} argument(s), got {len(args)}",
                             kernel=entry)
    g = grid3(grid)
    memory = Memory()
    params, segments = _bind(fn, args, memory)
    globals_ = {}
    for gl in module.globals:
        host = np.ascontiguousarray(dense_array(gl.value)).reshape(-1).copy()
        globals_[gl.name] = memory.add(f"@{gl.name}", host, align=max(int(gl.alignment), 1),
                                       readonly=bool(gl.constant), borrowed=False)
    machine = _Machine(fn.name, memory, globals_, g, observer, stream)
    if order is None:
        blocks = linear_blocks(g)
        per = max(1, int(max_chunk_bytes) // _bytes_per_block(fn))
        batches = [blocks[i:i + per] for i in range(0, len(blocks), per)]
    else:
        batches = [[block3(b)] for b in order]
    error = None
    with np.errstate(all="ignore"):
        try:
            for blocks in batches:
                if not blocks:
                    continue
                frame = Frame(None, None, len(blocks), np.array(blocks, dtype=np.int32))
                for p, v in zip(fn.params, params):
                    frame.vals[p.id] = v
                machine.run_block(fn.body, frame)
        except InterpretError as err:
            error = err
    fault = machine.fault if error is not None and machine.fault_error is error else None
    outputs = []
    for i, a in enumerate(args):
        seg = segments.get(i)
        outputs.append(a if seg is None else (seg.backing if seg.written else np.asarray(a)))
    return Run(outputs, memory, error, fault)
