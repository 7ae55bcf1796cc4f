"""The fake device's interpreter: evaluates a lowered Module's entry over a whole grid.

:func:`interpret` runs the entry for every tile block of the grid together: each
SSA value is a numpy array whose leading axis is the batch of blocks (see
``values``), so a launch costs a few numpy passes per op, not a Python loop per
block.  The grid is cut into chunks of blocks when the values of one chunk would
pass ``max_chunk_bytes``; chunks run one after another (any order of blocks is a
valid schedule of the device); ``order=`` runs chosen blocks one at a time in a
given order instead, so schedules can be compared.  :func:`execute` is the same
launch returning an :class:`Execution` (outputs, memory, and a fault as data: the
op whose rule refused, its block and frame) where :func:`interpret` raises.
Runs of lane-local ops (element-wise arithmetic and math, broadcasts, reductions along
tile dims) are evaluated a strip of lanes at a time, into cache-sized buffers
(``fusion``: the same numpy calls, so the same bits, as op by op), a view load or
store indexed by the block ids of a batch within one grid row, or of whole rows of it, is
planned from its first and last lanes (``progressions``): the cost of a launch follows its
elements, not its number of blocks; and a loop's body computes the pure values that do not
change from trip to trip once (``invariants``).  Memory lives in a fake flat address space
(``memory``); ops are evaluated by the rule table ``rules.NUMPY_RULES``, whose
modules document the numerics (``fake.rules.floats``, ``fake.rules.ints``, ``fake.rules.convert``,
``rounding``; the reduction and scan orders in ``fake.rules.misc``).

Control flow is run apart (``control``).  Blocks of the batch may disagree: an
``if`` whose condition differs per block runs each region on the blocks that
take it (a sub-batch: values from outside are gathered on first use) and merges
the results; a ``for`` whose trip count differs per block, or a ``loop`` whose blocks
``break`` at different trips, drops the blocks that are done and keeps iterating
the rest; ``continue`` / ``break`` / ``return`` nested in ``if`` regions leave
their region for exactly the blocks that reach them.  Execution is sequential in
program order, which respects every token chain; tokens are threaded as values.

Observer protocol (for debuggers; costs nothing when ``observer`` is None, and
either method may be left out):

* ``observer.after_op(op, results, block_ids)`` after every op, terminators and
  control ops included (after their regions ran); with this hook nothing is fused, so
  every op's results exist whole.  ``results`` lists the op's
  result values in order: numpy arrays of shape ``(B, *tile_shape)`` for the
  ``B`` blocks now running (``block_ids``, a ``(B, 3)`` int32 array of ``(x, y,
  z)``), or view objects (``views.TensorView`` / ``views.TileView``) for views;
  tokens are ``(B,)`` ``uint8`` zeros.  Arrays may be read-only broadcast views:
  copy what you keep.  Ops inside a ``reduce`` /
  ``scan`` combiner see arrays of all the pairs being combined (shape ``(B, ...)``).
* ``observer.on_memory(op, kind, buffer, element_indices, block_ids, mask)`` for
  every load, store and atomic, once per buffer touched: ``kind`` is ``"read"``,
  ``"write"`` or ``"atomic"``; ``buffer`` is the argument index of a parameter's
  buffer, ``"@name"`` for a module global, ``"alloca%<id>"`` for an alloca;
  ``element_indices`` (``(B, *tile_shape)`` int64) are flat element indices into
  that buffer (for an alloca: into all blocks' allocations back to back);
  ``mask`` (same shape, bool) marks the elements actually accessed (inside the
  tensor, mask true, in this buffer).
* ``observer.on_alloca(op, buffer, elements_per_block, block_ids)`` when an ``alloca``
  maps a fresh buffer ``"alloca%<id>"`` for the blocks now running: the element
  indices of later accesses to it count from this allocation (a debugger following
  which elements were written starts that buffer afresh).
* ``print_tko`` writes each block's line to ``stream`` if given, else to the
  observer's ``print_stream`` attribute if it has one, else to ``sys.stdout``.

Argument convention: a ``tile<ptr<T>>`` parameter takes a 1-D numpy array in
``numpy_dtype(T)``; a rank-0 number parameter takes a Python or numpy scalar.
The result lists the arguments after the launch: a new array for each buffer
the kernel wrote; a read-only view of the caller's array for one it did not
write; scalars unchanged.  The caller's arrays are never modified, except those it
hands over with ``owned=`` (argument indices): those the kernel writes in place, and
the result holds the very array for each of them that it wrote (a launch that faults
leaves them partly written).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, TextIO, Union

import attrs
import numpy as np

from tileir.errors import InterpretError
from tileir.fake.admit import admit
from tileir.fake.fill import Fill, fill_of
from tileir.fake.frames import Frame
from tileir.fake.limits import DEFAULT_LIMITS, Limits, beyond_host, power_text
from tileir.fake.machine import Machine
from tileir.fake.memory import Memory
from tileir.fake.values import from_scalar, value_dtype
from tileir.formats import numpy_dtype
from tileir.ir.module import Module, Op, walk
from tileir.ir.numerics import dense_array
from tileir.types import PointerType, TileType

__all__ = [
    "interpret",
    "execute",
    "Execution",
    "Fault",
    "Machine",
    "grid3",
    "block3",
    "linear_blocks",
]


#: A grid as a caller gives it: ``4``, ``(4,)``, ``(4, 2)`` or ``(4, 2, 1)`` blocks.
GridLike = Union[int, Sequence[int]]
#: A block id as a caller gives it: ``3``, ``(3,)``, ``(3, 0)`` or ``(3, 0, 0)``.
BlockLike = Union[int, Sequence[int]]

# ----------------------------------------------------------------------------- launches


@attrs.frozen(eq=False)
class Fault:
    """Where a launch stopped: the ``op`` whose rule refused, the ``message``, the
    ``block`` ``(x, y, z)`` (``None`` when the rule named no lane), the ``frame`` of values
    the op ran in (``frame.get(value_id)``) and the ``lane`` of the block in it."""

    op: Op
    message: str
    block: Optional[tuple[int, ...]]
    frame: Any = attrs.field(repr=False)
    lane: Optional[int] = None


@attrs.frozen(eq=False)
class Execution:
    """A finished or stopped launch: the arguments after it (as :func:`interpret` returns
    them), the ``memory`` it ran in (its segments place any address against the buffers),
    and, when the kernel faulted, the ``error`` and the :class:`Fault` (``None`` when the
    refusal did not come through a rule)."""

    outputs: list[Any]
    memory: Memory
    error: Optional[InterpretError] = None
    fault: Optional[Fault] = None


class _Recorder(Machine):
    """A Machine that keeps the last refusal a rule made (rules raise what ``error`` makes)."""

    fault: Optional[Fault] = None
    fault_error: Optional[InterpretError] = None

    def error(self, op, message: str, lane: Optional[int] = None) -> InterpretError:
        err = super().error(op, message, lane)
        frame, block = self.frame, None
        if lane is not None and frame is not None and frame.size:
            block = tuple(int(v) for v in frame.block_ids[min(lane, frame.size - 1)])
        self.fault, self.fault_error = Fault(op, message, block, frame, lane), err
        return err


def grid3(grid: GridLike) -> tuple[int, int, int]:
    """A grid as three block counts: ``4`` and ``(4,)`` are ``(4, 1, 1)`` (ValueError if not)."""
    g = tuple(int(v) for v in (grid if isinstance(grid, (tuple, list)) else (grid,)))
    if not 1 <= len(g) <= 3 or any(v < 0 for v in g):
        raise ValueError(f"a grid is 1 to 3 non-negative block counts, got {grid!r}")
    x, y, z = g + (1,) * (3 - len(g))
    return x, y, z


def block3(block: BlockLike) -> tuple[int, int, int]:
    """A block id as ``(x, y, z)``: ``3``, ``(3,)`` and ``(3, 0)`` are ``(3, 0, 0)``."""
    b = tuple(int(v) for v in (block if isinstance(block, (tuple, list)) else (block,)))
    if not 1 <= len(b) <= 3:
        raise ValueError(f"a block id has 1 to 3 coordinates, got {block!r}")
    x, y, z = b + (0,) * (3 - len(b))
    return x, y, z


def linear_blocks(grid: GridLike) -> list[tuple[int, int, int]]:
    """Every block of ``grid`` in the order the device numbers them (x fastest)."""
    gx, gy, gz = grid3(grid)
    return [(x, y, z) for z in range(gz) for y in range(gy) for x in range(gx)]


def _bytes_per_block(fn, limits: Limits) -> int:
    """An estimate of one block's values in bytes (every tile result, four times over);
    refuses a tile above ``limits.max_tile_elements`` and a block above
    ``limits.max_launch_bytes`` before anything runs."""
    total = 0
    for op in walk(fn.body):
        for r in op.results:
            t = r.type
            if isinstance(t, TileType):
                if t.size > limits.max_tile_elements:
                    raise InterpretError(
                        f"result {r} is {t}: {t.size} elements, more than the limit of "
                        f"{power_text(limits.max_tile_elements)} elements per tile; "
                        f"{limits.advice('max_tile_elements')}",
                        kernel=fn.name,
                        op=op.name,
                        where=str(op.loc) if op.loc is not None else None,
                    )
                total += t.size * value_dtype(t.element).itemsize
    total = max(4 * total, 1024)
    if total > limits.max_launch_bytes:
        raise InterpretError(
            f"one block's values take about {total} bytes, more than the limit of "
            f"{power_text(limits.max_launch_bytes)} bytes per launch; "
            f"{limits.advice('max_launch_bytes')}",
            kernel=fn.name,
        )
    return total


def _refuse_beyond_host(kernel: str, args: Sequence[Any], owned: frozenset) -> None:
    """Refuse, before any block runs, a launch whose buffers the host could not copy: the
    interpreter copies a borrowed buffer the first time the kernel writes it, so the
    borrowed buffers' bytes are what it may need beyond its arguments."""
    need = sum(
        a.nbytes for i, a in enumerate(args) if isinstance(a, np.ndarray) and i not in owned
    )
    why = beyond_host(need)
    if why is not None:
        raise InterpretError(
            f"the launch may copy every buffer it is lent before writing it, and {why}; "
            f"hand the buffers over (FakeDevice.run does) or launch on smaller ones",
            kernel=kernel,
        )


def _ordered(order, grid: tuple, kernel: str) -> np.ndarray:
    """``order`` as an ``(n, 3)`` int32 array of block ids, each checked against the grid."""
    rows = []
    for b in order:
        try:
            x, y, z = block3(b)
        except (TypeError, ValueError) as e:
            raise InterpretError(f"order: {e}", kernel=kernel) from None
        if not all(0 <= v < n for v, n in zip((x, y, z), grid)):
            raise InterpretError(
                f"order: block ({x}, {y}, {z}) is not in the grid {grid}", kernel=kernel
            )
        rows.append((x, y, z))
    return np.array(rows, dtype=np.int32).reshape(-1, 3)


#: The default bound on one chunk's values (``_bytes_per_block`` overestimates them four
#: times over).  1 GiB lets an element-wise launch over 2^24 f32 elements run as one batch,
#: whose store then takes the computed tile as the buffer (``Segment.adopt``) instead of
#: copying it chunk by chunk; the host's memory is checked before a launch starts.
DEFAULT_CHUNK_BYTES = 1 << 30


def _batches(grid: tuple, ordered: Optional[np.ndarray], max_chunk_bytes: int, per_block: int):
    """``((n, 3) int32 block ids, linear number of the first or None)``, batch after batch:
    the whole grid in chunks of at most ``max_chunk_bytes`` of values (consecutive blocks in
    the device's order), or the ``ordered`` blocks one at a time."""
    if ordered is not None:
        yield from ((ordered[i : i + 1], None) for i in range(len(ordered)))
        return
    gx, gy, gz = grid
    total = gx * gy * gz
    chunk = max(1, int(max_chunk_bytes) // per_block)
    for start in range(0, total, chunk):
        stop = min(total, start + chunk)
        # x, y and z each contiguous: get_tile_block_id's results are then views, not copies
        ids = np.empty((3, stop - start), dtype=np.int32).T
        if gy * gz == 1:  # a row of blocks: no division per block
            ids[:, 0] = np.arange(start, stop, dtype=np.int32)
            ids[:, 1:] = 0
        else:
            lin = np.arange(start, stop, dtype=np.int64)
            ids[:, 0] = lin % gx
            ids[:, 1] = (lin // gx) % gy
            ids[:, 2] = lin // (gx * gy)
        yield ids, start


def _bind(
    fn, args: Sequence, memory: Memory, owned=frozenset(), devices: int = 1
) -> tuple[list, dict]:
    """The parameters' values, and the memory segment of each pointer argument by index
    (an array passed twice is one buffer; ``owned`` arguments are written in place).  A
    multicast argument holds ``devices`` replicas back to back: one segment of that many
    lanes (the multimem ops reach them all; its pointer is replica 0's)."""
    entry = fn.name
    values: list = []
    segments: dict[int, Any] = {}
    for i, (p, a) in enumerate(zip(fn.params, args)):
        t = p.type
        if not isinstance(t, TileType) or t.rank != 0:
            raise InterpretError(
                f"parameter {i} has type {t}; entries take rank-0 tiles", kernel=entry
            )
        if isinstance(t.element, PointerType):
            fmt = t.element.pointee
            arr = np.asarray(a)
            if arr.ndim != 1 or arr.dtype != numpy_dtype(fmt):
                raise InterpretError(
                    f"argument {i} must be a 1-D array of {numpy_dtype(fmt)} for {t}, got "
                    f"{arr.ndim}-D {arr.dtype}",
                    kernel=entry,
                )
            same = next((j for j, b in enumerate(args[:i]) if b is a and j in segments), None)
            if same is not None:
                seg = segments[same]
            else:
                mine = i in owned and arr.flags.c_contiguous and arr.flags.writeable
                replicas = devices if t.element.attr == "multicast" else 1
                if arr.size % replicas:
                    raise InterpretError(
                        f"argument {i} ({t}) is a multicast buffer of {arr.size} element(s), "
                        f"not {replicas} equal replicas (one per device)",
                        kernel=entry,
                    )
                seg = memory.add(i, np.ascontiguousarray(arr), count=replicas, borrowed=not mine)
            segments[i] = seg
            values.append(np.array([seg.base], dtype=np.int64))
        else:
            try:
                values.append(from_scalar(a, t.element))
            except (TypeError, ValueError, OverflowError) as e:
                raise InterpretError(
                    f"argument {i} ({a!r}) is not a {t.element}: {e}", kernel=entry
                ) from None
    return values, segments


def _outputs(args: Sequence, segments: dict) -> list:
    out = []
    for i, a in enumerate(args):
        seg = segments.get(i)
        if seg is None:
            out.append(a)
        elif seg.written:
            out.append(seg.settle())
        else:
            view = np.asarray(a).view()
            view.flags.writeable = False
            out.append(view)
    return out


def execute(
    module: Module,
    entry: str,
    args: Sequence[Any],
    grid: GridLike,
    *,
    observer: object = None,
    order: Optional[Sequence[BlockLike]] = None,
    max_chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    stream: Optional[TextIO] = None,
    owned: Sequence[int] = (),
    verify: bool = True,
    limits: Limits = DEFAULT_LIMITS,
    fill: Union[None, str, Fill] = None,
    devices: int = 1,
) -> Execution:
    """Run entry ``entry`` of ``module`` over ``grid``; a fault of the kernel comes back as
    data (:class:`Execution` ``.error`` / ``.fault``), not as an exception.

    Arguments, ``observer``, ``stream`` and ``owned`` are as for :func:`interpret`;
    ``limits`` bounds the launch's trips, tile sizes and memory (:mod:`tileir.fake.limits`:
    a launch past one is refused with an InterpretError that names the setting).
    ``devices`` is how many GPUs a multicast buffer spans: each multicast argument holds
    that many replicas back to back (:mod:`tileir.fake.rules.multimem`).
    ``order``, a sequence of block ids (``(x, y, z)``, or shorter: ``3`` is ``(3, 0, 0)``),
    runs those blocks one at a time in that order (each a batch of one; a block may come
    twice, one left out does not run); ``None`` runs the whole grid, batched.  Raises
    :class:`~tileir.errors.InterpretError` for a launch that cannot start (unknown entry,
    arguments that do not fit, a bad grid or ``order``).  ``fill`` is what undefined
    memory holds (``alloca`` scratch, padding lanes of a view without a padding value,
    masked-off lanes of a pointer load without one): zeros by default, ``"signal"`` for
    NaN / bytes of 0xA5, or a :class:`tileir.fake.fill.Fill`.
    """
    pattern = fill_of(fill, "interpret")
    if verify:
        admit(module)  # the checker's verdict, once per Module object (``admit``)
    try:
        fn = module.function(entry)
    except KeyError as e:
        raise InterpretError(str(e.args[0]), kernel=entry) from None
    try:
        shape3 = grid3(grid)
    except ValueError as e:
        raise InterpretError(str(e), kernel=entry) from None
    if len(args) != len(fn.params):
        raise InterpretError(
            f"the entry takes {len(fn.params)} argument(s), got {len(args)}", kernel=entry
        )
    ordered = None if order is None else _ordered(order, shape3, fn.name)
    per_block = _bytes_per_block(fn, limits)
    memory = Memory()
    if isinstance(devices, bool) or not isinstance(devices, int) or devices < 1:
        raise InterpretError(
            f"devices={devices!r} is not a whole number of 1 or more", kernel=entry
        )
    params, segments = _bind(fn, args, memory, frozenset(owned), devices)
    _refuse_beyond_host(fn.name, args, frozenset(owned))
    globals_: dict[str, Any] = {}
    for g in module.globals:
        host = np.ascontiguousarray(dense_array(g.value)).reshape(-1).copy()
        globals_[g.name] = memory.add(
            f"@{g.name}",
            host,
            align=max(int(g.alignment), 1),
            readonly=bool(g.constant),
            borrowed=False,
        )
    held = sum(seg.backing.nbytes for seg in globals_.values())
    if held > limits.max_launch_bytes:
        raise InterpretError(
            f"the module's globals take {held} bytes, more than the limit of "
            f"{power_text(limits.max_launch_bytes)} bytes per launch; "
            f"{limits.advice('max_launch_bytes')}",
            kernel=fn.name,
        )
    machine = _Recorder(fn.name, memory, globals_, shape3, observer, stream, limits, pattern)
    error = None
    with np.errstate(all="ignore"):
        try:
            for ids, first in _batches(shape3, ordered, max_chunk_bytes, per_block):
                frame = Frame(None, None, len(ids), ids, linear=first)
                for p, v in zip(fn.params, params):
                    frame.vals[p.id] = v
                machine.run_block(fn.body, frame)
        except InterpretError as err:  # a fault of the kernel: the launch stops here
            error = err
    fault = machine.fault if error is not None and machine.fault_error is error else None
    return Execution(_outputs(args, segments), memory, error, fault)


def interpret(
    module: Module,
    entry: str,
    args: Sequence[Any],
    grid: GridLike,
    *,
    observer: object = None,
    max_chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    stream: Optional[TextIO] = None,
    order: Optional[Sequence[BlockLike]] = None,
    owned: Sequence[int] = (),
    verify: bool = True,
    limits: Limits = DEFAULT_LIMITS,
    fill: Union[None, str, Fill] = None,
    devices: int = 1,
) -> list[Any]:
    """Run entry ``entry`` of ``module`` over ``grid`` and return the arguments after it.

    ``args`` follow the entry's parameters: a 1-D numpy array (host dtype of
    ``T``) per ``tile<ptr<T>>``, a scalar per rank-0 number parameter.  The result
    holds a new array per buffer written, a read-only view of the caller's array
    per buffer not written, and each scalar unchanged; inputs are never modified, but
    for the arguments whose indices ``owned`` lists: the caller gives those arrays up
    (1-D, contiguous, writable), the kernel writes them in place and the result holds
    the same array for each one written (partly written if the launch faults).
    ``grid`` is ``(x[, y[, z]])`` blocks.  ``observer`` and ``stream``: see the
    module docstring.  ``order`` (block ids) runs those blocks one at a time in
    that order instead of the whole grid together (see :func:`execute`, which
    also returns the fault as data).  Raises :class:`~tileir.errors.InterpretError`
    naming the op, its source line and the block for anything the kernel may not do, and
    :class:`~tileir.errors.VerifyError` for a module the checker refuses (``verify``: see
    :func:`execute`); ``fill``: what undefined memory holds (see :func:`execute`).
    """
    run = execute(
        module,
        entry,
        args,
        grid,
        observer=observer,
        order=order,
        max_chunk_bytes=max_chunk_bytes,
        stream=stream,
        owned=owned,
        verify=verify,
        limits=limits,
        fill=fill,
        devices=devices,
    )
    if run.error is not None:
        raise run.error
    return run.outputs
