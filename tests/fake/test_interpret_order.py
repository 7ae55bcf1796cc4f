"""The interpreter's launch options for debuggers: blocks in a chosen order, faults as data."""

from __future__ import annotations

import numpy as np
import pytest

from support.module_builder import FunctionBuilder, ptr, scalar, tile
from tileir.errors import InterpretError
from tileir.fake.interpreter import Execution, block3, execute, grid3, interpret, linear_blocks
from tileir.types import F32, I32, TOKEN, PointerType, TileType


def _stamp_module():
    """out[bx] = (number of earlier stamps) * 10 + bx, counted by an atomic in count[0]."""
    fb = FunctionBuilder("stamp", [ptr(I32), ptr(I32)])
    out, count = fb.params
    bx, _, _ = fb.block_id()
    seen, _ = fb.op(
        "atomic_rmw_tko",
        (count, fb.c32(1)),
        (scalar(I32), TOKEN),
        {"memory_ordering": "relaxed", "memory_scope": "device", "mode": "add"},
        segments=(1, 1, 0, 0),
    )
    value = fb.binop("addi", fb.binop("muli", seen, fb.c32(10)), bx)
    at = fb.op1("offset", (out, bx), TileType((), PointerType(I32)))
    fb.op("store_ptr_tko", (at, value), (TOKEN,), segments=(1, 1, 0, 0))
    fb.ret()
    return fb.module()


class _Blocks:
    """An observer that keeps the block ids of every batch an op ran for."""

    def __init__(self):
        self.batches = []

    def after_op(self, op, results, block_ids):
        if op.name == "get_tile_block_id":
            self.batches.append([tuple(int(v) for v in row) for row in block_ids])


def test_order_runs_the_blocks_one_at_a_time_in_that_order():
    seen = _Blocks()
    out = interpret(
        _stamp_module(),
        "stamp",
        [np.full(4, -1, np.int32), np.zeros(1, np.int32)],
        (4,),
        order=[(3, 0, 0), 1, (0,), (2, 0)],
        observer=seen,
    )
    assert seen.batches == [[(3, 0, 0)], [(1, 0, 0)], [(0, 0, 0)], [(2, 0, 0)]]
    # the atomic counts in that order: block 3 came first, block 2 last
    assert out[0].tolist() == [20, 11, 32, 3] and out[1].tolist() == [4]


def test_order_may_leave_blocks_out_and_repeat_them():
    out = interpret(
        _stamp_module(),
        "stamp",
        [np.full(4, -1, np.int32), np.zeros(1, np.int32)],
        (4,),
        order=[(2,), (2,)],
    )
    assert out[0].tolist() == [-1, -1, 12, -1] and out[1].tolist() == [2]


def test_without_order_the_grid_runs_together_and_agrees_in_chunks():
    args = [np.full(8, -1, np.int32), np.zeros(1, np.int32)]
    seen = _Blocks()
    whole = interpret(_stamp_module(), "stamp", args, (8,), observer=seen)
    assert seen.batches == [linear_blocks((8,))]
    chunked = interpret(_stamp_module(), "stamp", args, (8,), max_chunk_bytes=1)
    assert whole[1].tolist() == chunked[1].tolist() == [8]


def test_order_outside_the_grid_is_refused_before_anything_runs():
    args = [np.full(4, -1, np.int32), np.zeros(1, np.int32)]
    with pytest.raises(
        InterpretError,
        match=r"kernel `stamp`.*order: block \(4, 0, 0\) is not in "
        r"the grid \(4, 1, 1\)",
    ):
        execute(_stamp_module(), "stamp", args, (4,), order=[(0,), (4,)])
    with pytest.raises(InterpretError, match=r"order: a block id has 1 to 3 coordinates"):
        interpret(_stamp_module(), "stamp", args, (4,), order=[(0, 0, 0, 0)])


def _faulting_module():
    """Block 2 reads 4 elements past a 10-element buffer (blocks read at 4 * bx)."""
    fb = FunctionBuilder("oob", [ptr(F32)])
    bx, _, _ = fb.block_id()
    p = fb.op1(
        "offset", (fb.params[0], fb.binop("muli", bx, fb.c32(4))), TileType((), PointerType(F32))
    )
    pt = TileType((4,), PointerType(F32))
    row = fb.op1("broadcast", (fb.op1("reshape", (p,), TileType((1,), PointerType(F32))),), pt)
    ptrs = fb.op1("offset", (row, fb.op1("iota", (), tile((4,), I32))), pt)
    fb.op("load_ptr_tko", (ptrs,), (tile((4,), F32), TOKEN), segments=(1, 0, 0, 0))
    fb.ret()
    return fb.module()


def test_execute_returns_the_fault_as_data():
    run = execute(_faulting_module(), "oob", [np.zeros(10, np.float32)], (4,), order=[0, 1, 2, 3])
    assert isinstance(run, Execution) and run.error is not None
    fault = run.fault
    assert fault.op.name == "load_ptr_tko" and fault.block == (2, 0, 0)
    # the frame holds the pointers the failing op read; the memory places them
    ptrs = np.asarray(fault.frame.get(fault.op.operands[0].id))
    seg_ids, _offsets, _room = run.memory.locate(ptrs)
    assert (seg_ids[0] >= 0).sum() == 2 and (seg_ids[0] < 0).sum() == 2
    assert run.outputs[0].tolist() == [0.0] * 10
    # the whole grid at once: interpret raises exactly the error execute returns
    batched = execute(_faulting_module(), "oob", [np.zeros(10, np.float32)], (4,))
    assert batched.fault.block == (2, 0, 0) and batched.fault.frame.size == 4
    with pytest.raises(InterpretError) as info:
        interpret(_faulting_module(), "oob", [np.zeros(10, np.float32)], (4,))
    assert str(info.value) == str(batched.error) and info.value.op == "load_ptr_tko"


def test_execute_without_a_fault_matches_interpret():
    args = [np.full(4, -1, np.int32), np.zeros(1, np.int32)]
    run = execute(_stamp_module(), "stamp", args, (4,))
    assert run.error is None and run.fault is None
    want = interpret(_stamp_module(), "stamp", args, (4,))
    assert [o.tolist() for o in run.outputs] == [w.tolist() for w in want]
    assert {s.key for s in run.memory.segments} == {0, 1}


def test_launches_that_cannot_start_raise():
    with pytest.raises(InterpretError, match="grid"):
        execute(_stamp_module(), "stamp", [np.zeros(4, np.int32)] * 2, (-1,))
    with pytest.raises(InterpretError, match="takes 2 argument"):
        execute(_stamp_module(), "stamp", [np.zeros(4, np.int32)], (4,))


def test_grid_and_block_spellings():
    assert grid3(4) == grid3((4,)) == (4, 1, 1) and grid3((2, 3)) == (2, 3, 1)
    assert block3(3) == block3((3,)) == block3((3, 0)) == (3, 0, 0)
    assert linear_blocks((2, 2)) == [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)]
    with pytest.raises(ValueError):
        grid3((1, 2, 3, 4))
