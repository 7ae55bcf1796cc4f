"""Loop-invariant ops (tileir/fake/invariants.py): the body's view ops that read only values
from outside the loop run on the first trip in a frame and are kept for the others; the
answer and any fault are the same as op by op (an observer of ops sees every op every trip)."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest

import tileir.fake.rules.memory as memory_rules
from support.module_builder import F32, I1, FunctionBuilder, ptr, scalar, tile
from tileir.errors import InterpretError
from tileir.fake.interpreter import interpret
from tileir.fake.invariants import loop_invariants
from tileir.fake.views import TensorView

ROWS, COLS = 8, 16


class _Watch:
    def after_op(self, op, results, block_ids):
        pass


def _row_sum_module(trips_from_block: bool = False, with_if: bool = False):
    """Each block adds up rows of x (``ROWS x COLS``) into one row, the view made inside
    the loop from the parameter (invariant), the row index the loop's iv (not).  With
    ``trips_from_block`` block ``i`` runs ``i`` trips (block 0 none, so the first trip runs
    in a sub-batch already, and the lanes leave one by one); ``with_if`` sends odd rows to an
    early ``continue`` inside an ``if`` before a second view op (after the ``if`` nothing is
    kept: the even rows run in a sub-batch of the trip's)."""
    fb = FunctionBuilder("row_sum", [ptr(F32), ptr(F32)])
    bx, _, _ = fb.block_id()
    ub = bx if trips_from_block else fb.c32(ROWS)
    zero = fb.const(0.0, tile((1, COLS), F32))
    holder = {}

    def step(i, acc):
        pv = fb.partition(fb.tensor_view(fb.params[0], (ROWS, COLS), (COLS, 1)), (1, COLS))
        holder["view"] = pv
        if with_if:
            odd = fb.op1(  # odd rows leave the trip early, through their own `continue`
                "cmpi",
                (fb.binop("remi", i, fb.c32(2), signedness="signed"), fb.c32(1)),
                scalar(I1),
                {"comparison_predicate": "equal", "signedness": "signed"},
            )
            fb.if_(odd, lambda: fb.op("continue", (acc,), ()), lambda: fb.op("yield", (), ()))
            pv2 = fb.partition(fb.tensor_view(fb.params[0], (ROWS, COLS), (COLS, 1)), (1, COLS))
            holder["after_if"] = pv2
            pv = pv2
        row, _ = fb.load_view(pv, [i, fb.c32(0)])
        return [fb.binop("addf", acc, row)]

    (acc,) = fb.for_loop(fb.c32(0), ub, fb.c32(1), [zero], step)
    out = fb.partition(fb.tensor_view(fb.params[1], (4, COLS), (COLS, 1)), (1, COLS))
    fb.store_view(acc, out, [bx, fb.c32(0)])
    fb.ret()
    return fb.module(), holder


def _loop_op(module):
    return next(op for op in module.functions[0].body.ops if op.name == "for")


def _run(module, x, observer=None):
    out = np.zeros(4 * COLS, np.float32)
    return interpret(module, "row_sum", [x, out], (4,), observer=observer)[1]


def test_the_view_ops_made_from_parameters_are_invariant_and_the_load_is_not():
    module, holder = _row_sum_module()
    kept = loop_invariants(_loop_op(module))
    body = _loop_op(module).regions[0]
    names = {op.name for op in body.ops if op.results and op.results[0].id in kept}
    assert names == {"make_tensor_view", "make_partition_view", "constant"}  # (the index 0)
    assert holder["view"].id in kept


def test_nothing_after_an_if_is_kept():
    module, holder = _row_sum_module(with_if=True)
    kept = loop_invariants(_loop_op(module))
    assert holder["view"].id in kept and holder["after_if"].id not in kept


@pytest.mark.parametrize("trips_from_block", [False, True], ids=["same trips", "lanes leave"])
@pytest.mark.parametrize("with_if", [False, True], ids=["straight", "with an if"])
def test_kept_values_give_the_answer_op_by_op_gives(trips_from_block, with_if):
    module, _ = _row_sum_module(trips_from_block, with_if)
    x = np.random.default_rng(3).standard_normal(ROWS * COLS).astype(np.float32)
    got = _run(module, x)
    want = _run(module, x, observer=_Watch())  # every op, every trip
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    rows = x.reshape(ROWS, COLS)
    for block in range(4):
        n = block if trips_from_block else ROWS
        expect = np.zeros(COLS, np.float32)
        for r in range(n):
            if not (with_if and r % 2):
                expect = expect + rows[r]
        np.testing.assert_array_equal(got.reshape(4, COLS)[block], expect)


def test_a_view_kept_from_trip_to_trip_is_made_once_per_frame():
    module, _ = _row_sum_module()
    x = np.ones(ROWS * COLS, np.float32)
    with mock.patch.object(memory_rules, "TensorView", wraps=TensorView) as made:
        _run(module, x)
    assert made.call_count == 1 + 1  # the loop's view on its first trip, the output view
    with mock.patch.object(memory_rules, "TensorView", wraps=TensorView) as made:
        _run(module, x, observer=_Watch())
    assert made.call_count == ROWS + 1  # an observer sees every op on every trip


def test_a_fault_in_an_invariant_op_is_raised_on_the_first_trip_as_before():
    module, _ = _row_sum_module()
    small = np.ones(COLS, np.float32)  # the view reaches past the buffer: trip 1 reads row 0,
    with pytest.raises(InterpretError, match="outside the buffer") as got:  # trip 2 faults
        _run(module, small)
    with pytest.raises(InterpretError, match="outside the buffer") as want:
        _run(module, small, observer=_Watch())
    assert str(got.value) == str(want.value)


def test_a_fused_groups_invariant_ops_run_on_the_first_trip_only():
    # flash attention's scale: a Scalar reshaped and broadcast to the score tile inside the
    # loop body, where those two ops sit in a fused group (tileir.fake.fusion) as values
    # every block shares; they read only the parameter, so they run once per frame, not
    # once per key block, and the answer is the one an observer of every op sees
    import tileir.fake.machine as machine
    from tileir.fake.fusion import Group, fused_ops
    from tileir.kernels import registry

    spec = registry.get("flash_attn")
    kernel = spec.kernel()
    loop = next(op for op in kernel.module.functions[0].body.ops if op.name == "for")
    kept = loop_invariants(loop)
    (group,) = [g for g in fused_ops(loop.regions[0]) if type(g) is Group]
    shared = [op for op in group.ops if op.results[0].id in kept]
    assert {op.name for op in shared} == {"reshape", "broadcast"}
    inputs, grid = spec.inputs(np.random.default_rng(4))
    grid = grid or kernel.grid
    runs: list = []
    table = dict(machine.NUMPY_RULES)
    for name in ("reshape", "broadcast"):
        rule = table[name]
        table[name] = lambda ctx, op, args, rule=rule: runs.append(op) or rule(ctx, op, args)
    with mock.patch.object(machine, "NUMPY_RULES", table):
        got = interpret(kernel.module, kernel.name, list(inputs), grid)
    ids = {op.results[0].id for op in shared}
    assert sorted(op.results[0].id for op in runs if op.results[0].id in ids) == sorted(ids)
    inputs, _ = spec.inputs(np.random.default_rng(4))
    want = interpret(kernel.module, kernel.name, list(inputs), grid, observer=_Watch())
    assert all(np.asarray(a).tobytes() == np.asarray(b).tobytes() for a, b in zip(got, want))
