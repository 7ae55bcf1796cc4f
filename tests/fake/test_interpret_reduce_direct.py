"""A ``reduce`` whose combiner is one element-wise op (``addf``, ``mulf``, ``addi`` ...) runs
that op's rule on each level of the pairwise tree directly, without a frame and a block per
level (``rules.misc._direct``, or for f32 / f64 float ops the plain ufunc itself,
``rules.misc.plain_tree``): the same rule on the same pairs, so the same bits as the
combiner run as a region (which an observer of ops still gets, step by step)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import tileir.fake.rules.misc as misc
from support.module_builder import FunctionBuilder, ptr
from tileir.fake.interpreter import interpret
from tileir.types import BF16, F16, F32, F64, I32, I64


class _Watch:
    """An observer of ops: with it, the combiner runs as a region, step by step."""

    def __init__(self):
        self.steps = 0

    def after_op(self, op, results, block_ids):
        self.steps += op.name in misc._DIRECT


def _module(fmt, n, rows, blocks, name, swap, ident, combiner="one op"):
    fb = FunctionBuilder("red", [ptr(fmt), ptr(fmt)])
    tok = fb.make_token()
    bx, _, _ = fb.block_id()
    xv = fb.partition(fb.tensor_view(fb.params[0], (blocks * rows, n), (n, 1)), (rows, n))
    ov = fb.partition(fb.tensor_view(fb.params[1], (blocks * rows,), (1,)), (rows,))
    x, t = fb.load_view(xv, [bx, fb.c32(0)], tok)

    def combine(e, a):
        if combiner == "twice":  # the accumulator twice, the element never
            return [fb.binop(name, a, a)]
        if combiner == "two ops":
            t = fb.binop(name, a, e)
            return [fb.binop(name, t, t)]
        return [fb.binop(name, *((e, a) if swap else (a, e)))]

    (r,) = fb.reduce([x], 1, [ident], combine)
    fb.store_view(r, ov, [bx], t)
    fb.ret()
    return fb.module()


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(f"u{a.dtype.itemsize}")


_NAN2 = {"f32": 0x7FC0_1234, "f64": 0x7FF8_0000_0000_1234, "f16": 0x7E12, "bf16": 0x7FD2}
_FLOAT = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, 3.0, -2.5]


@pytest.mark.parametrize(
    "fmt, name, ident",
    [
        (F32, "addf", 0.0),
        (F32, "addf", -0.0),
        (F64, "addf", 0.0),
        (F16, "addf", 0.0),
        (BF16, "addf", 0.0),
        (F32, "mulf", 1.0),
        (I32, "addi", 0),
        (I64, "muli", 1),
        (I32, "maxi", -(2**31)),
        (I32, "xori", 0),
    ],
    ids=str,
)
def test_a_one_op_combiner_run_directly_gives_the_trees_bits(monkeypatch, fmt, name, ident):
    # f32 / f64 float combiners take the plain-ufunc tree first (misc.plain_combiner), the
    # rest the direct rule: either counts as answering without the region
    direct = []
    real, real_plain = misc._direct, misc.plain_combiner
    monkeypatch.setattr(
        misc, "_direct", lambda ctx, op: direct.append(real(ctx, op)) or direct[-1]
    )
    monkeypatch.setattr(
        misc,
        "plain_combiner",
        lambda op, dtype: direct.append(real_plain(op, dtype)) or direct[-1],
    )
    rng = np.random.default_rng(3)
    dt = fmt.numpy_dtype
    for n, swap in itertools.product((1, 5, 8, 33, 64), (False, True)):
        m = _module(fmt, n, 4, 3, name, swap, ident)
        if fmt.is_int:
            x = rng.integers(-1000, 1000, size=12 * n).astype(dt)
        else:
            x = (rng.standard_normal(12 * n) * 100).astype(dt)
            x[rng.choice(x.size, max(1, x.size // 10), replace=False)] = rng.choice(_FLOAT)
            # NaNs of another payload: which one a sum keeps depends on the operands' order
            x.view(f"u{dt.itemsize}")[rng.choice(x.size, max(1, x.size // 10))] = _NAN2[fmt.name]
        args = [x, np.zeros(12, dt)]
        got = interpret(m, "red", args, (3,), verify=False)[1]
        watch = _Watch()
        want = interpret(m, "red", args, (3,), observer=watch, verify=False)[1]
        assert np.array_equal(_bits(got), _bits(want)), (n, swap)
        assert watch.steps == (n > 1) * (n - 1).bit_length()  # the tree, level by level
    assert any(d is not None for d in direct)  # the plain or the direct path answered


@pytest.mark.parametrize("combiner, runs_directly", [("twice", True), ("two ops", False)])
def test_other_combiners_give_the_regions_bits(monkeypatch, combiner, runs_directly):
    m = _module(F32, 8, 4, 3, "addf", False, 0.0, combiner=combiner)
    seen = []
    real = misc._direct
    monkeypatch.setattr(misc, "_direct", lambda ctx, op: seen.append(real(ctx, op)) or seen[-1])
    x = np.random.default_rng(4).standard_normal(96).astype(np.float32)
    args = [x, np.zeros(12, np.float32)]
    out = interpret(m, "red", args, (3,), verify=False)[1]
    want = interpret(m, "red", args, (3,), observer=_Watch(), verify=False)[1]
    assert (seen[0] is not None) == runs_directly
    assert np.array_equal(_bits(out), _bits(want))
    if combiner == "twice":  # a + a, three levels: each row's first element times eight
        assert np.array_equal(out, x.reshape(12, 8)[:, 0] * 8)
