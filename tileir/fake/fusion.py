"""Fusion of lane-local ops: a run of pure ops evaluated strip by strip over the lanes.

Run one op at a time over a whole batch of blocks, an element-wise chain (GELU: ten ops)
makes ten full-size temporaries, each written to memory and read back by the next op:
numpy's own pattern, and the reason numpy is memory-bound on such chains.  Every pure op of
the dialect whose rule here is *lane-local* (lane ``i`` of its result depends on lane ``i``
of its operands only: element-wise arithmetic and math, compares, selects, conversions,
broadcast / reshape, reductions and scans along tile dims) gives the same bits run on any
subset of the lanes.  So a maximal run of such ops (a :class:`Group`, found once per block:
:func:`fused_ops`) is evaluated a strip of lanes at a time, each strip small enough
(:data:`STRIP_ELEMENTS` per value) to stay in the cache from one op to the next, into
buffers allocated once per launch with numpy's ``out=``.  Only the values the rest of the
block reads (the group's *live-outs*) are written into full-size arrays, each strip straight
into its rows; the intermediates never exist at full size.

What the fusion keeps (tests/fake/test_fusion.py checks each):

* the bits: an element-wise op runs the very numpy function its rule runs (``ufunc``
  steps, only where the rule is that one function on operands of the result's dtype: f32 /
  f64 arithmetic and math at the default rounding); any other member op runs its own rule on
  the strip (``rule`` steps), and a rule's answer for a subset of the lanes is its answer for
  those lanes.  One freedom IEEE 754 leaves is left as free as it was: which NaN an
  operation of two NaN operands returns (numpy's loops pick either, by the arrays' shapes,
  which strips change as chunks of the grid and sub-batches always did); every bundled
  kernel gives the same bytes fused and op by op;
* faults: a member op that refuses (a rounding the emulation lacks, say) stops the strips,
  and the group runs again op by op, so the refusal raised is the first one in program
  order over all the lanes, naming its block as it always did; the members are pure, so
  running them again changes nothing;
* the observer protocol: with an observer watching ops (``after_op``) nothing is fused;
* values every block agrees on (batch 1: constants, scalars) are computed once, unfused,
  before the strips.

A group whose inputs turn out not to be what the plan assumed (an operand of another dtype,
a view object) runs unfused, op by op: fusion is an optimisation, never a change of meaning.
"""

from __future__ import annotations

import functools
import weakref
from typing import TYPE_CHECKING, Any, Optional, Union, cast

import numpy as np

from tileir.fake.frames import Frame
from tileir.fake.rules import NUMPY_RULES
from tileir.fake.rules.misc import folding, plain_combiner, plain_tree
from tileir.fake.rules.plain import plain_ufuncs
from tileir.fake.values import value_dtype
from tileir.ir.module import Block, Op, Value
from tileir.ir.signatures import attr_of
from tileir.types import TileType

if TYPE_CHECKING:
    from tileir.fake.machine import Machine

__all__ = ["Group", "fused_ops", "run_group", "STRIP_ELEMENTS", "LANE_LOCAL"]

#: Elements of the largest value of a group per strip.  256 Ki f32 elements are 1 MiB: a
#: strip's few live buffers stay in the caches (1 MiB L2, 32 MiB L3 here) from one op to the
#: next, and each numpy call does enough work to hide its Python.  Measured on this 2-core
#: machine (bench/fake_device.py kernels, CPU time): 64 Ki gave GELU 0.75-0.89x numpy and
#: row softmax 1.32-1.38x, 256 Ki 0.58-0.74x and 0.79-1.09x, 1 Mi 0.72-0.82x and 1.08-1.25x.
STRIP_ELEMENTS = 1 << 18

#: Pure ops whose rules are lane-local: the members a group may hold.  Ops with regions among them (``reduce``, ``scan``) carry only
#: their combiner.
LANE_LOCAL = frozenset(
    {
        # float arithmetic and math (tileir.fake.rules.floats)
        "addf", "subf", "mulf", "divf", "fma", "sqrt", "remf", "negf", "absf", "maxf",
        "minf", "exp", "exp2", "log", "log2", "rsqrt", "sin", "cos", "tan", "sinh", "cosh",
        "tanh", "atan2", "fpowf", "fpowi", "ceil", "floor", "cmpf",
        # integer arithmetic (tileir.fake.rules.ints)
        "addi", "subi", "muli", "shli", "shri", "divi", "remi", "mulhii", "maxi", "mini",
        "negi", "absi", "andi", "ori", "xori", "cmpi",
        # conversions (tileir.fake.rules.convert)
        "ftof", "ftoi", "itof", "exti", "trunci", "bitcast",
        # shapes and reductions (tileir.fake.rules.shape / misc)
        "broadcast", "reshape", "permute", "select", "reduce", "scan",
    }
)  # fmt: skip

#: Ops with no operands whose value every block shares: run where a group starts, unfused.
_HOISTED = frozenset({"constant", "iota"})

# ----------------------------------------------------------------------------- the plan


class Group:
    """A run of lane-local ops of one block, evaluated strip by strip (module docstring).

    ``ops`` are the members in program order; ``hoisted`` the operand-less ops found among
    them (constants), run first as they are; ``inputs`` the value ids the members read from
    outside the run; ``outputs`` the member results the rest of the block reads."""

    __slots__ = ("ops", "hoisted", "inputs", "outputs", "_programs")

    def __init__(self, ops: tuple, hoisted: tuple, inputs: tuple, outputs: frozenset):
        self.ops = ops
        self.hoisted = hoisted
        self.inputs = inputs
        self.outputs = outputs
        self._programs: dict = {}

    def __repr__(self) -> str:
        return f"Group({' '.join(op.name for op in self.ops)})"


def _reads(op: Op) -> set[int]:
    """Value ids ``op`` reads: its operands and, inside its regions, values from outside."""
    out = {v.id for v in op.operands}
    for region in op.regions:
        inner = {a.id for a in region.args}
        for o in region.ops:
            inner.update(r.id for r in o.results)
        for o in region.ops:
            out |= _reads(o) - inner
    return out


def _member(op: Op) -> bool:
    if op.name not in LANE_LOCAL or not op.results:
        return False
    if not all(isinstance(r.type, TileType) for r in op.results):
        return False
    # a combiner of reduce / scan: pure ops ending in its yield, no nested control
    return all(o.name in LANE_LOCAL or o.name == "yield" for b in op.regions for o in b.ops)


def _plan(block: Block) -> tuple:
    ops = block.ops
    reads_after: list[set[int]] = [set() for _ in range(len(ops) + 1)]
    for i in range(len(ops) - 1, -1, -1):
        reads_after[i] = reads_after[i + 1] | _reads(ops[i])
    items: list[Union[Op, Group]] = []
    i = 0
    while i < len(ops):
        if not _member(ops[i]):
            items.append(ops[i])
            i += 1
            continue
        j = i
        while j < len(ops) and (_member(ops[j]) or ops[j].name in _HOISTED):
            j += 1
        while ops[j - 1].name in _HOISTED:  # constants after the run stay where they are
            j -= 1
        members = [o for o in ops[i:j] if o.name not in _HOISTED]
        hoisted = [o for o in ops[i:j] if o.name in _HOISTED]
        if len(members) < 2:
            items.extend(ops[i:j])
        else:
            defined = {r.id for o in ops[i:j] for r in o.results}
            inputs = sorted({v for o in members for v in _reads(o)} - defined)
            inputs += sorted({r.id for o in hoisted for r in o.results})
            live = reads_after[j]
            outputs = frozenset(r.id for o in members for r in o.results if r.id in live)
            items.append(Group(tuple(members), tuple(hoisted), tuple(inputs), outputs))
        i = j
    return tuple(items)


# id(block) -> (a weak reference to it, its plan); blocks are immutable
_PLANS: dict[int, tuple[weakref.ref, tuple]] = {}


def _forget(key: int, ref: weakref.ref) -> None:
    got = _PLANS.get(key)
    if got is not None and got[0] is ref:
        del _PLANS[key]


def fused_ops(block: Block) -> tuple:
    """``block``'s ops with each fusible run replaced by its :class:`Group` (made once per
    Block object, for as long as it lives).

    >>> from tileir import F32, In, Out, cells, load_cell, store_cell, trace
    >>> def body(x, out):
    ...     v = yield load_cell(x)
    ...     yield store_cell(out, v * v + 1.0)
    >>> k = trace("sq", body, In(F32, cells([8], [4])), Out(F32, cells([8], [4])))
    >>> [item for item in fused_ops(k.module.functions[0].body) if type(item) is Group]
    [Group(mulf addf)]
    """
    key = id(block)
    got = _PLANS.get(key)
    if got is None or got[0]() is not block:
        ref = weakref.ref(block, functools.partial(_forget, key))
        got = (ref, _plan(block))
        _PLANS[key] = got
    return got[1]


# ----------------------------------------------------------------------------- running


class _Unfit(Exception):
    """The values are not what the group's program assumes: run the group unfused."""


def run_group(m: "Machine", group: Group, frame: Frame, skip: frozenset = frozenset()) -> None:
    """Evaluate ``group`` on ``frame``'s lanes, leaving its outputs in ``frame``.  ``skip``:
    as :meth:`Machine.run_block`'s, the loop-invariant ops whose values ``frame`` holds from
    an earlier trip (a constant, a scalar's broadcast: not run again)."""
    for op in group.hoisted:
        if not (skip and op.results and op.results[0].id in skip):
            m._run_op(op, frame)
    try:
        values = [frame.get(v) for v in group.inputs]
    except KeyError:  # let the op that reads it name the missing operand
        values = None
    batch = _batch(values, frame.size) if values is not None else None
    if batch is None or batch == 1:  # nothing to share out in strips
        _unfused(m, group.ops, frame)
        return
    key = tuple([(v.shape[0] == 1, v.dtype) for v in values or ()])  # (a list: no generator)
    program = group._programs.get(key)
    if program is None:
        program = group._programs[key] = _Program(group, key)
    try:
        for op in program.uniform:  # values every block shares: once, as they are
            if not (skip and op.results[0].id in skip):
                m._run_op(op, frame)
        program.run(m, frame, batch)
    except Exception:
        # not what the program assumed (_Unfit), or an op refused: the group again, op by
        # op, so that the refusal raised is the first in program order over all the lanes,
        # worded as it always was (the members are pure: running them again is harmless)
        _unfused(m, group.ops, frame)


def _unfused(m: "Machine", ops, frame: Frame) -> None:
    for op in ops:
        m._run_op(op, frame)


def _batch(values: list, size: int) -> Optional[int]:
    """The lanes the group runs over, or None when an input is not a plain batch array."""
    batch = 1
    for v in values:
        if type(v) is not np.ndarray or v.ndim == 0 or v.shape[0] not in (1, size):
            return None
        batch = max(batch, v.shape[0])
    return batch


class _Program:
    """A group compiled for one pattern of inputs (which ones every block shares, their
    dtypes): the members every block agrees on (run once, unfused), then the strip steps,
    each value in a slot, each intermediate in a strip buffer reused once it is dead."""

    def __init__(self, group: Group, key: tuple):
        shared_ids = {v for v, (one, _) in zip(group.inputs, key) if one}
        dtypes: dict[int, np.dtype] = {v: dt for v, (_, dt) in zip(group.inputs, key)}
        self.uniform: list[Op] = []
        lane_ops: list[Op] = []
        for op in group.ops:
            if all(v.id in shared_ids for v in op.operands) and not _reads_outer(op):
                self.uniform.append(op)
                shared_ids.update(r.id for r in op.results)
            else:
                lane_ops.append(op)
        once = {r.id for op in self.uniform for r in op.results}
        read = {v.id for op in lane_ops for v in op.operands}
        self.inputs = [v for v in group.inputs if v not in once] + sorted(once & read)
        slot = {v: k for k, v in enumerate(self.inputs)}
        for op in self.uniform:
            for r in op.results:
                dtypes[r.id] = value_dtype(_tile(r).element)
        self.steps: list[tuple] = []
        self.expect: dict[int, np.dtype] = {}  # rule results: the dtype the plan assumed
        self.types: dict[int, TileType] = {}
        widest = 1
        for op in lane_ops:
            ins = [slot[v.id] for v in op.operands]
            outs = []
            for r in op.results:
                slot[r.id] = len(slot)
                outs.append(slot[r.id])
                self.types[slot[r.id]] = _tile(r)
                widest = max(widest, _tile(r).size)
            first = dtypes.get(op.operands[0].id) if op.operands else None
            same = first is not None and all(dtypes.get(v.id) == first for v in op.operands)
            step = _compile(op, first) if same and first is not None else None
            if step is None:
                for r, s_ in zip(op.results, outs):
                    dtypes[r.id] = self.expect[s_] = value_dtype(_tile(r).element)
                self.steps.append((_RULE, op, ins, outs, None))
            else:
                dtypes[op.results[0].id] = cast(np.dtype, first)
                kind, payload = step
                if kind == _FOLD:  # its fall-back is the rule, whose answer is checked
                    self.expect[outs[0]] = cast(np.dtype, first)
                self.steps.append((kind, op, ins, outs[0] if kind == _UFUNC else outs, payload))
        self._elide_broadcasts(group.outputs, slot)
        self.slots = len(slot)
        #: rule or fold steps: they run in a frame of the strip's blocks
        self.has_rules = any(kind == _RULE or kind == _FOLD for kind, *_ in self.steps)
        self.rows = max(1, STRIP_ELEMENTS // widest)
        self.outputs = [(v, slot[v]) for v in sorted(group.outputs) if v in slot and v not in once]
        self.full_kinds = {s: (tuple(self.types[s].shape), dtypes[v]) for v, s in self.outputs}
        self._assign_buffers(dtypes)

    def _elide_broadcasts(self, outputs: frozenset, slot: dict) -> None:
        """A broadcast read only by ufunc steps needs no view: the ufunc broadcasts its
        operand against ``out=`` with the very strides (0 along the widened dims) that
        ``np.broadcast_to`` would give it."""
        readers: dict[int, list] = {}
        for kind, _, ins, _, _ in self.steps:
            for i in ins:
                readers.setdefault(i, []).append(kind)
        live = {slot[v] for v in outputs if v in slot}
        for k, (kind, op, ins, outs, payload) in enumerate(self.steps):
            if kind == _VIEW and op.name == "broadcast" and outs[0] not in live:
                if all(r == _UFUNC for r in readers.get(outs[0], ())):
                    self.steps[k] = (kind, op, ins, outs, None)

    def _assign_buffers(self, dtypes: dict) -> None:
        """The strip buffer each ufunc step writes (live-outs write their full arrays).  A
        rule's result may be a view of its operands, so a buffer is free again only once
        every value that may alias it has had its last read; a step may write a buffer
        its own operand dies in (numpy's elementwise loops allow exact overlap)."""
        last_read: dict[int, int] = {}
        for k, (_, _, ins, _, _) in enumerate(self.steps):
            for s in ins:
                last_read[s] = k
        aliases: dict[int, set] = {}  # slot -> buffers it may alias
        holders: list[list] = []  # buffer -> slots aliasing it
        kinds: list[tuple] = []  # buffer -> (shape, dtype)
        self.buffer_of: dict[int, int] = {}
        for k, (kind, op, ins, out, _) in enumerate(self.steps):
            if kind != _UFUNC:  # a view, a tree's or a rule's result may alias operands
                for s in out:
                    aliases[s] = set().union(*(aliases.get(i, set()) for i in ins))
                    for b in aliases[s]:
                        holders[b].append(s)
                continue
            if out in self.full_kinds:
                continue
            want = (tuple(self.types[out].shape), dtypes[op.results[0].id])
            b = next(
                (
                    b
                    for b, kind in enumerate(kinds)
                    if kind == want and all(last_read.get(s, -1) <= k for s in holders[b])
                ),
                None,
            )
            if b is None:
                b = len(kinds)
                kinds.append(want)
                holders.append([])
            holders[b].append(out)
            aliases[out] = {b}
            self.buffer_of[out] = b
        self.buffer_kinds = kinds

    def run(self, m: "Machine", frame: Frame, batch: int) -> None:
        """Every strip of ``batch`` lanes, then the outputs into ``frame`` (raises _Unfit
        before writing any when a rule's result is not what the plan assumed)."""
        inputs = [frame.get(v) for v in self.inputs]
        rows = min(self.rows, batch)
        buffers = [np.empty((rows,) + shape, dt) for shape, dt in self.buffer_kinds]
        full = {s: np.empty((batch,) + shape, dt) for s, (shape, dt) in self.full_kinds.items()}
        env: list[Any] = list(inputs) + [None] * (self.slots - len(inputs))
        lanes = [(k, v) for k, v in enumerate(inputs) if v.shape[0] != 1]
        expect = self.expect
        rules = self.has_rules
        buffer_of = self.buffer_of
        whole = rows == batch  # one strip: the inputs and buffers as they are, unsliced
        try:
            for lo in range(0, batch, rows):
                hi = min(batch, lo + rows)
                n = hi - lo
                if not whole:
                    for k, v in lanes:
                        env[k] = v[lo:hi]
                strip = None
                if rules:  # rule steps run in a frame of the strip's blocks
                    strip = Frame(frame, np.arange(lo, hi), n, frame.block_ids[lo:hi])
                for kind, op, ins, out, fns in self.steps:
                    if kind == _UFUNC:
                        if whole:
                            dst = full[out] if out in full else buffers[buffer_of[out]]
                        else:
                            dst = full[out][lo:hi] if out in full else buffers[buffer_of[out]][:n]
                        fn, _ = fns[0]
                        # (by arity: a list of the operands per step costs more than the
                        # ufunc on a small strip)
                        if len(ins) == 2:
                            fn(env[ins[0]], env[ins[1]], out=dst)
                        elif len(ins) == 1:
                            fn(env[ins[0]], out=dst)
                        else:
                            fn(*[env[i] for i in ins], out=dst)
                        for fn, konst in fns[1:]:
                            fn(konst, dst, out=dst)
                        env[out] = dst
                        continue
                    # (views, trees and folds take one operand: no list for them)
                    if kind == _VIEW:
                        x = env[ins[0]]
                        results = [x if fns is None else fns(x)]
                    elif kind == _TREE:
                        results = [fns(env[ins[0]])]
                    elif kind == _FOLD:
                        folded = fns(env[ins[0]])
                        if folded is None:  # a NaN or no native fold: the rule's own tree
                            results = _rule_step(m, op, [env[ins[0]]], strip)
                            _check_strip(results, out, n, expect)
                        else:
                            results = [folded]
                    else:
                        results = _rule_step(m, op, [env[i] for i in ins], strip)
                        _check_strip(results, out, n, expect)
                    for s, r in zip(out, results):
                        if s in full:
                            full[s][lo:hi] = r
                        env[s] = r
        finally:
            m.frame = frame
        for v, s in self.outputs:
            frame.vals[v] = full[s]


_UFUNC, _VIEW, _TREE, _RULE, _FOLD = range(5)


def _check_strip(results: list, out: list, n: int, expect: dict) -> None:
    """A rule's results on a strip must be what the plan assumed (plain arrays of the
    strip's lanes, of the dtypes planned), else the group runs unfused (_Unfit)."""
    for s, r in zip(out, results):
        if type(r) is not np.ndarray or r.shape[0] != n or r.dtype != expect[s]:
            raise _Unfit


def _compile(op: Op, dtype: np.dtype) -> Optional[tuple]:
    """How a strip step evaluates ``op`` on operands of ``dtype`` without its rule's
    bookkeeping, the very numpy calls the rule makes: ``(_UFUNC, plain ufuncs)``,
    ``(_VIEW, a function of the operand)`` (broadcast, reshape: the rules' views), ``(_TREE,
    a function of the operand)`` (a reduce whose combiner is one plain ufunc), ``(_FOLD, a
    function of the operand)`` (a reduce folded by ``maxf`` / ``minf`` in one pass, None
    where the rule's tree must answer: a NaN); None: the rule runs."""
    fns = plain_ufuncs(op, dtype)
    if fns is not None:
        return _UFUNC, fns
    if op.name in ("broadcast", "reshape"):
        shape = tuple(_tile(op.results[0]).shape)
        if op.name == "broadcast":  # shape.py _broadcast / _reshape
            return _VIEW, lambda x: np.broadcast_to(x, (x.shape[0],) + shape)
        return _VIEW, lambda x: x.reshape((x.shape[0],) + shape)  # (the method: no dispatch)
    if op.name == "reduce":
        dim = int(attr_of(op, "dim")) + 1
        last = _tile(op.operands[0]).rank  # misc._reduce: moved to the last axis
        fold = folding(op)
        if fold is not None:  # maxf / minf in one numpy pass, as misc._folded runs it

            def folded(x: np.ndarray) -> Optional[np.ndarray]:
                return fold(x if dim == last else np.moveaxis(x, dim, -1))

            return _FOLD, folded
        plain = plain_combiner(op, dtype)
        if plain is None:
            return None
        ident = attr_of(op, "identities")[0]
        fn, elem_first = plain

        def tree(x: np.ndarray) -> np.ndarray:
            return plain_tree(fn, elem_first, x if dim == last else np.moveaxis(x, dim, -1), ident)

        return _TREE, tree
    return None


def _tile(value: Value) -> TileType:
    """The type of a member's operand or result: a tile (``_member`` admits no other)."""
    return cast(TileType, value.type)


def _rule_step(m: "Machine", op: Op, args: list, strip: Optional[Frame]) -> list:
    """``op``'s own rule on a strip of lanes, in a frame of the strip's blocks (the rules
    read the batch's size and block ids from it)."""
    m.frame = strip
    results = NUMPY_RULES[op.name](m, op, args)
    if len(results) != len(op.results):
        raise _Unfit
    return results


def _reads_outer(op: Op) -> bool:
    """Whether ``op``'s regions read values from outside them (then it runs per strip)."""
    return bool(_reads(op) - {v.id for v in op.operands})
