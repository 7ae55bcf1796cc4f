"""The fake device's fusion of lane-local ops (tileir/fake/fusion.py) and its per-batch view
plans (tileir/fake/progressions.py): what is fused, that an observer still sees every op,
that faults still name their block, and that the bundled kernels give the same bytes fused
and op by op.  The random chains are in property_tests/rules/test_fusion_properties.py."""

from __future__ import annotations

import types
from unittest import mock

import numpy as np
import pytest
from test_interpret import vadd_module

import tileir.fake.fusion as fusion
import tileir.fake.rules.memory as memory_rules
from tileir import (
    F32,
    In,
    Out,
    assert_,
    cells,
    less,
    load_cell,
    maximum,
    reduce_max,
    store_cell,
    tanh,
    trace,
)
from tileir.errors import InterpretError, TileIRError
from tileir.fake import FakeDevice
from tileir.fake.frames import Frame
from tileir.fake.fusion import Group, fused_ops
from tileir.fake.interpreter import interpret
from tileir.fake.memory import Memory
from tileir.fake.views import TensorView, TileView
from tileir.kernels import registry
from tileir.types import I32, PartitionViewType, TensorViewType, TileType

_C = 0.7978845608028654


def _gelu(x, out):
    v = yield load_cell(x)
    yield store_cell(out, v * (tanh((v + v * v * v * 0.044715) * _C) + 1.0) * 0.5)


def _gelu_kernel(n: int = 1000, tile: int = 64):
    g = cells([n], [tile])
    return trace("gelu", _gelu, In(F32, g), Out(F32, g))


class _Ops:
    """An observer of every op (the interpreter then runs op by op)."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def after_op(self, op, results, block_ids) -> None:
        self.names.append(op.name)


def _run(kernel, args, observer=None):
    return interpret(kernel.module, kernel.name, list(args), kernel.grid, observer=observer)


def test_the_gelu_chain_is_one_group_its_constants_hoisted():
    body = _gelu_kernel().module.functions[0].body
    groups = [item for item in fused_ops(body) if type(item) is Group]
    assert len(groups) == 1
    (g,) = groups
    assert [op.name for op in g.ops] == [
        "mulf", "mulf", "mulf", "addf", "mulf", "tanh", "addf", "mulf", "mulf",
    ]  # fmt: skip
    assert {op.name for op in g.hoisted} == {"constant"} and len(g.hoisted) == 4
    # only the last product is read after the run (by the store)
    stored = next(op for op in body.ops if op.name == "store_view_tko").operands[0].id
    assert g.outputs == {stored}
    assert fused_ops(body) is fused_ops(body)  # planned once per Block object


def test_fused_and_watched_runs_give_the_same_bytes_across_strips():
    kernel = _gelu_kernel(1000, 16)  # 63 blocks, the last one padded
    x = np.random.default_rng(3).standard_normal(1000).astype(np.float32)
    x[::97] = np.inf
    want = _run(kernel, [x, np.zeros(1000, np.float32)], _Ops())[1]
    for strip in (1, 16, 48, 1000, 1 << 16):  # rows per strip 1, 1, 3, 62, all
        with mock.patch.object(fusion, "STRIP_ELEMENTS", strip):
            got = _run(_gelu_kernel(1000, 16), [x, np.zeros(1000, np.float32)])[1]
        assert got.tobytes() == want.tobytes(), strip


def test_an_observer_sees_every_op_in_order():
    kernel = _gelu_kernel()
    seen = _Ops()
    _run(kernel, [np.ones(1000, np.float32), np.zeros(1000, np.float32)], seen)
    assert seen.names == [op.name for op in kernel.module.functions[0].body.ops]


def test_a_memory_only_observer_runs_fused_and_sees_every_access():
    class Memory:
        def __init__(self):
            self.kinds = []

        def on_memory(self, op, kind, buffer, elements, block_ids, mask):
            self.kinds.append((kind, buffer, int(mask.sum())))

    kernel = _gelu_kernel()
    seen = Memory()
    x = np.arange(1000, dtype=np.float32) / 1000
    out = _run(kernel, [x, np.zeros(1000, np.float32)], seen)[1]
    assert seen.kinds == [("read", 0, 1000), ("write", 1, 1000)]
    assert out.tobytes() == _run(kernel, [x, np.zeros(1000, np.float32)], _Ops())[1].tobytes()


def _checked_chain(x, out):
    v = yield load_cell(x)
    w = tanh(v * 0.5) + v * v
    yield assert_(less(w, 50.0), "w stays below 50")
    yield store_cell(out, w)


def test_a_fault_after_a_fused_chain_names_its_block_and_line():
    g = cells([256], [16])
    kernel = trace("checked", _checked_chain, In(F32, g), Out(F32, g))
    x = np.zeros(256, np.float32)
    x[16 * 5 + 3] = 9.0  # block 5: 81 + tanh(4.5) passes 50
    texts = []
    for observer in (None, _Ops()):
        with mock.patch.object(fusion, "STRIP_ELEMENTS", 32):  # two blocks a strip
            with pytest.raises(InterpretError) as e:
                _run(kernel, [x, np.zeros(256, np.float32)], observer)
        texts.append(str(e.value))
    assert texts[0] == texts[1]
    assert "block (5, 0, 0)" in texts[0] and "w stays below 50" in texts[0]
    assert "test_fusion.py" in texts[0]  # the user's source line


def _rows_max(x, out):
    v = yield load_cell(x)
    yield store_cell(out, maximum(v * 2.0, v + 1.0) - 3.0)


def _rule(name: str, rule):
    """The rule tables of the op-by-op and the fused runs, with ``name``'s rule replaced."""
    import contextlib

    import tileir.fake.machine as machine

    table = {**fusion.NUMPY_RULES, name: rule}
    stack = contextlib.ExitStack()
    stack.enter_context(mock.patch.object(fusion, "NUMPY_RULES", table))
    stack.enter_context(mock.patch.object(machine, "NUMPY_RULES", table))
    return stack


def test_a_rule_step_refusal_names_the_block_of_its_lane():
    # a refusal while the strips run (here in the strip of blocks 9 to 11) runs the group
    # again op by op: the same words, naming the block of the whole batch
    g = cells([64], [4])
    kernel = trace("rows_max", _rows_max, In(F32, g), Out(F32, g))
    x = np.zeros(64, np.float32)
    x[4 * 11 + 2] = -7.0
    plain_max = fusion.NUMPY_RULES["maxf"]

    def picky(ctx, op, args):
        bad = (widen := np.broadcast_to(args[0], (ctx.b,) + args[0].shape[1:])) < -10
        if bad.any():
            lane = int(np.argmax(bad.reshape(ctx.b, -1).any(axis=1)))
            raise ctx.error(op, f"refused lane holding {float(widen[lane].min())}", lane=lane)
        return plain_max(ctx, op, args)

    texts = []
    for observer in (None, _Ops()):
        with (
            _rule("maxf", picky),
            mock.patch.object(fusion, "STRIP_ELEMENTS", 12),  # three blocks a strip
        ):
            with pytest.raises(InterpretError) as e:
                _run(kernel, [x, np.zeros(64, np.float32)], observer)
        texts.append(str(e.value))
    assert texts[0] == texts[1] and "block (11, 0, 0)" in texts[0]


def test_a_rule_giving_another_dtype_runs_the_group_op_by_op():
    # fusion assumes each rule's result has its type's dtype; where one does not, the group
    # runs unfused rather than mixing dtypes
    g = cells([64], [4])
    kernel = trace("rows_max", _rows_max, In(F32, g), Out(F32, g))
    x = np.linspace(-3, 3, 64, dtype=np.float32)
    plain_max = fusion.NUMPY_RULES["maxf"]

    def wide(ctx, op, args):
        return [plain_max(ctx, op, args)[0].astype(np.float64)]

    with (
        _rule("maxf", wide),
        mock.patch.object(fusion, "_unfused", wraps=fusion._unfused) as unfused,
    ):
        got = _run(kernel, [x, np.zeros(64, np.float32)])[1]
    assert unfused.call_count == 1
    want = (np.maximum(x * 2, x + 1).astype(np.float64) - np.float32(3.0)).astype(np.float32)
    assert got.tobytes() == want.tobytes()


def _bundled_bytes(spec, seed: int, observer) -> bytes:
    kernel = spec.kernel()
    inputs, grid = spec.inputs(np.random.default_rng(seed))
    device = FakeDevice(mode="interpret", devices=spec.devices)
    try:
        if observer is None:
            outs = device.run(kernel, *inputs, grid=grid)
        else:
            with mock.patch.object(fusion, "fused_ops", lambda block: block.ops):
                outs = device.run(kernel, *inputs, grid=grid)
    except TileIRError as e:
        return str(e).encode()
    return b"".join(np.asarray(o).tobytes() for o in outs)


def _bundled_with_groups() -> list:
    out = []
    for spec in registry.specs():
        body = spec.kernel().module.functions[0].body
        if any(type(i) is Group for i in fused_ops(body)):
            out.append(spec)
    return out


def _check_bundled(specs, seeds) -> None:
    import tileir.fake.machine as machine

    for spec in specs:
        for seed in seeds:
            fused = _bundled_bytes(spec, seed, None)
            with mock.patch.object(machine, "fused_ops", lambda block: block.ops):
                plain = _bundled_bytes(spec, seed, None)
            assert fused == plain, f"{spec.name} seed {seed}"


def test_a_sample_of_bundled_kernels_gives_the_same_bytes_fused_and_op_by_op():
    specs = _bundled_with_groups()
    assert len(specs) > 100  # most bundled kernels hold a run to fuse
    with mock.patch.object(fusion, "STRIP_ELEMENTS", 7):  # strips of few lanes
        _check_bundled(specs[::9], [0])


@pytest.mark.slow
def test_every_bundled_kernel_gives_the_same_bytes_fused_and_op_by_op():
    specs = _bundled_with_groups()
    for strip in (1, 1 << 16):
        with mock.patch.object(fusion, "STRIP_ELEMENTS", strip):
            _check_bundled(specs, [0, 1])


# ----------------------------------------------------------------------------- per-batch plans


def test_a_row_of_blocks_is_planned_per_batch_not_per_lane():
    m = vadd_module(4096, 64)
    a, b = np.arange(4096, dtype=np.float32), np.ones(4096, np.float32)
    with mock.patch.object(memory_rules, "plan_tile", wraps=memory_rules.plan_tile) as general:
        out = interpret(m, "vadd", [a, b, np.zeros(4096, np.float32)], (64,))[2]
    assert general.call_count == 0
    np.testing.assert_array_equal(out, a + 1)
    # whole rows of a 2-D grid: x steps within a row, y from row to row, still per batch
    with mock.patch.object(memory_rules, "plan_tile", wraps=memory_rules.plan_tile) as general:
        out = interpret(m, "vadd", [a, b, np.zeros(4096, np.float32)], (16, 4))[2]
    assert general.call_count == 0
    np.testing.assert_array_equal(out[: 16 * 64], a[: 16 * 64] + 1)
    # a batch that runs from one plane of the grid into the next: planned lane by lane
    with mock.patch.object(memory_rules, "plan_tile", wraps=memory_rules.plan_tile) as general:
        out = interpret(m, "vadd", [a, b, np.zeros(4096, np.float32)], (16, 2, 2))[2]
    assert general.call_count == 3
    np.testing.assert_array_equal(out[: 16 * 64], a[: 16 * 64] + 1)


def test_a_tile_outside_its_buffer_names_the_first_such_block():
    m = vadd_module(256, 64)
    small = np.zeros(150, np.float32)  # blocks 2 and 3 reach past it
    with pytest.raises(InterpretError, match=r"outside the buffer.*block \(2, 0, 0\)"):
        interpret(m, "vadd", [small, np.zeros(256, np.float32), np.zeros(256, np.float32)], (4,))


def test_an_index_outside_the_index_space_names_its_block():
    m = vadd_module(256, 64)
    args = [np.zeros(256, np.float32)] * 3
    with pytest.raises(InterpretError, match=r"index space.*block \(4, 0, 0\)"):
        interpret(m, "vadd", args, (6,))


def test_per_batch_bounds_are_the_general_bounds_in_a_segment_of_lanes():
    # lanes of 10 bytes (not a whole number of f32 elements): each lane's bounds in elements
    # are the general path's (Segment.lane_bounds), the per-batch plan's too
    mem = Memory()
    seg = mem.add("lanes", np.zeros(15, np.float32), count=6)  # 60 bytes, 10 a lane
    one = lambda v: np.array([v], dtype=np.int64)  # noqa: E731
    tvt = TensorViewType(F32, (1,), (1,))
    view_type = PartitionViewType((1,), tvt, (0,))
    index_op = types.SimpleNamespace(type=TileType((), I32), id=7)
    ctx = types.SimpleNamespace(memory=mem, frame=Frame(None, None, 1, np.zeros((1, 3))))
    for lane in range(6):
        base = seg.base + lane * seg.pitch + (-lane * seg.nbytes) % 4  # f32-aligned
        tv = TensorView(tvt, one(base), (one(1),), (one(1),))
        view = TileView(view_type, tv)
        got = memory_rules._affine_plan(ctx, view, [np.zeros(1, np.int32)], [index_op], 1, 4)
        want = memory_rules._locate_base(ctx, None, tv, 4)
        assert got is not None and got[0] is want[0]
        assert (int(got[2][0]), int(got[3][0])) == (int(want[2][0]), int(want[3][0])), lane


# ----------------------------------------------------------------------------- folded reduces


def _row_shift(x, out):
    v = yield load_cell(x)
    yield store_cell(out, v - reduce_max(v, keepdims=True) * 0.5)


def test_a_max_reduce_in_a_group_folds_directly_and_its_nan_lanes_take_the_rule():
    # the strips fold a maxf reduce in one numpy pass (misc.folding) without a rule call; a
    # strip where the fold answers NaN (its payload follows the tree) runs the rule's tree:
    # every byte as op by op, strip size whatever it is
    g = cells([64, 8], [4, 8])
    kernel = trace("row_shift", _row_shift, In(F32, g), Out(F32, g))
    body = kernel.module.functions[0].body
    (group,) = [item for item in fused_ops(body) if type(item) is Group]
    assert "reduce" in [op.name for op in group.ops]
    x = np.random.default_rng(5).standard_normal(64 * 8).astype(np.float32)
    x[8 * 9 : 8 * 10] = np.nan  # a row of block 2: maxf gives NaN only where all are NaN
    x[8 * 30 + 3] = np.nan  # (one NaN among numbers: the number)
    x[8 * 20 : 8 * 21] = -0.0  # a row of negative zeros, one +0 in the next
    x[8 * 21 : 8 * 22] = -0.0
    x[8 * 21 + 5] = 0.0
    want = _run(kernel, [x, np.zeros(64 * 8, np.float32)], _Ops())[1]
    for strip in (8, 64, 1 << 16):  # a block a strip, a few, all
        with (
            mock.patch.object(fusion, "STRIP_ELEMENTS", strip),
            mock.patch.object(fusion, "_rule_step", wraps=fusion._rule_step) as rules,
        ):
            got = _run(kernel, [x, np.zeros(64 * 8, np.float32)])[1]
        assert got.tobytes() == want.tobytes(), strip
        # only the strips holding the NaN row ran the reduce's rule
        assert [call.args[1].name for call in rules.call_args_list] == ["reduce"], strip
