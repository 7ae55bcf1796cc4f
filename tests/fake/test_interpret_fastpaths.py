"""The interpreter's shortcuts give the answers of its plain paths, bit for bit.

* ``reduce`` whose combiner is one ``maxf`` / ``minf`` folds in one numpy pass
  (``floats.FOLDS``); with an observer of ops it runs the combiner tree;
* loads whose tiles follow the grid's axes give a ``values.TileGrid`` that ``mmaf``
  multiplies as a grid (an observer sees, and later ops get, plain arrays);
* a store that covers a run of a borrowed buffer does not copy it first
  (``memory.Segment.overwrite``); the rest is copied when needed;
* ``owned=`` arguments are written in place.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from test_interpret import matmul_module, vadd_module

from support.interp_cases import Capture
from support.module_builder import FunctionBuilder, ptr
from tileir.fake.interpreter import interpret
from tileir.fake.rules.floats import FOLDS
from tileir.fake.views import TilePlan
from tileir.types import BF16, F16, F32, F64

_BITS = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(_BITS[a.dtype.itemsize])


class _Watch:
    """An observer of ops: with it, reductions run the combiner tree and ``mmaf`` gets
    plain arrays."""

    def after_op(self, op, results, block_ids):
        pass


def _reduce_module(fmt, n, rows, blocks, name, swap, ident, **attrs):
    fb = FunctionBuilder("fold", [ptr(fmt), ptr(fmt)])
    tok = fb.make_token()
    bx, _, _ = fb.block_id()
    xv = fb.partition(fb.tensor_view(fb.params[0], (blocks * rows, n), (n, 1)), (rows, n))
    ov = fb.partition(fb.tensor_view(fb.params[1], (blocks * rows,), (1,)), (rows,))
    x, t = fb.load_view(xv, [bx, fb.c32(0)], tok)

    def combine(e, a):
        return [fb.binop(name, *((a, e) if swap else (e, a)), **attrs)]

    (r,) = fb.reduce([x], 1, [ident], combine)
    fb.store_view(r, ov, [bx], t)
    fb.ret()
    return fb.module()


_SPECIAL = [0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf, 2.5]


@pytest.mark.parametrize("fmt", [F32, F64, F16, BF16], ids=str)
@pytest.mark.parametrize("name", ["maxf", "minf"])
def test_folded_max_and_min_match_the_combiner_tree_bit_for_bit(monkeypatch, fmt, name):
    folded = []
    real = FOLDS[name]

    def spy(op, x, ident):
        out = real(op, x, ident)
        folded.append(out is not None)
        return out

    monkeypatch.setitem(FOLDS, name, spy)
    dt = fmt.numpy_dtype
    rng = np.random.default_rng(7)
    cases = itertools.product(
        (1, 6, 8, 64), (False, True), (False, True), (-np.inf, np.inf, 0.0, -0.0, 3.0, np.nan)
    )
    for n, swap, nan_wins, ident in cases:
        attrs = {"propagate_nan": True} if nan_wins else {}
        m = _reduce_module(fmt, n, 4, 3, name, swap, ident, **attrs)
        for p in ([0.3, 0.3, 0.1, 0.1, 0.02, 0.06, 0.06, 0.06], None):
            x = rng.choice(np.array(_SPECIAL), size=12 * n, p=p).astype(dt)
            args = [x, np.zeros(12, dt)]
            got = interpret(m, "fold", args, (3,), verify=False)[1]  # odd-length rows
            want = interpret(m, "fold", args, (3,), observer=_Watch(), verify=False)[1]
            assert np.array_equal(_bits(got), _bits(want)), (n, swap, nan_wins, ident, x)
    if fmt is BF16:
        assert folded and not any(folded)  # numpy does not reduce bf16 itself: the tree
    else:
        assert sum(folded) > 50  # the fold answered (answers with NaN go back to the tree)


@pytest.mark.parametrize(
    "fin, fout",
    [(F32, F32), (F16, F32), (BF16, F32), (F64, F64)],
    ids=["f32", "f16", "bf16", "f64"],
)
@pytest.mark.parametrize("m, n, k", [(128, 96, 64), (96, 64, 80), (64, 256, 32)])
def test_matmul_on_grid_loads_matches_plain_batches_bit_for_bit(monkeypatch, fin, fout, m, n, k):
    grids = []
    real = TilePlan.grid_view
    monkeypatch.setattr(TilePlan, "grid_view", lambda *a: grids.append(1) or real(*a))
    rng = np.random.default_rng(m + n + k)
    a = rng.standard_normal(m * k).astype(fin.numpy_dtype)
    b = rng.standard_normal(k * n).astype(fin.numpy_dtype)
    module = matmul_module(m, n, k, 32, 32, 32, fin, fout)
    grid = (m // 32, n // 32)
    args = [a, b, np.zeros(m * n, fout.numpy_dtype)]
    got = interpret(module, "matmul", args, grid)[2]
    assert grids  # the loads of A and B were grids
    want = interpret(module, "matmul", args, grid, observer=_Watch())[2]
    assert np.array_equal(_bits(got), _bits(want))
    exact = a.astype(np.float64).reshape(m, k) @ b.astype(np.float64).reshape(k, n)
    np.testing.assert_allclose(got.reshape(m, n), exact, rtol=1e-4, atol=1e-4)


def test_a_grid_load_used_by_other_ops_and_carried_by_a_loop_is_its_plain_tiles():
    t, gx, gy = 16, 4, 3
    fb = FunctionBuilder("reuse", [ptr(F32), ptr(F32)])
    tok = fb.make_token()
    bx, by, _ = fb.block_id()
    av = fb.partition(fb.tensor_view(fb.params[0], (gx * t, t), (t, 1)), (t, t))
    ov = fb.partition(fb.tensor_view(fb.params[1], (gx * t, gy * t), (gy * t, 1)), (t, t))
    x, tok1 = fb.load_view(av, [bx, fb.c32(0)], tok)  # follows grid axis 0 only
    twice = fb.binop("addf", x, x)

    def step(i, acc):
        return [fb.binop("addf", acc, x)]

    (thrice,) = fb.for_loop(fb.c32(0), fb.c32(1), fb.c32(1), [twice], step)
    fb.store_view(thrice, ov, [bx, by], tok1)
    fb.ret()
    module = fb.module()
    a = np.random.default_rng(3).standard_normal(gx * t * t).astype(np.float32)
    load = next(op for op in module.functions[0].body.ops if op.name == "load_view_tko")
    cap = Capture(load)
    out = interpret(module, "reuse", [a, np.zeros(gx * t * gy * t, np.float32)], (gx, gy))[1]
    blocks = a.reshape(gx, t, t)
    want = np.concatenate([np.concatenate([blocks[i] * 3] * gy, axis=1) for i in range(gx)])
    assert np.array_equal(out.reshape(gx * t, gy * t), want)
    interpret(module, "reuse", [a, np.zeros(gx * t * gy * t, np.float32)], (gx, gy), observer=cap)
    seen = cap.results[0][0]  # the observer sees the plain (lanes, 16, 16) array
    assert isinstance(seen, np.ndarray) and seen.shape == (gx * gy, t, t)
    assert np.array_equal(seen, blocks[np.arange(gx * gy) % gx])


@pytest.mark.parametrize("chunk", [1 << 30, 1], ids=["one batch", "block by block"])
def test_stores_that_cover_the_buffer_keep_every_other_element(chunk):
    m = vadd_module(4096, 512)
    a = np.arange(5000, dtype=np.float32)
    b = np.ones(5000, np.float32)
    out = np.full(5000, 7.0, np.float32)  # past the tensor: never written, kept
    res = interpret(m, "vadd", [a, b, out], (8,), max_chunk_bytes=chunk)
    assert np.array_equal(res[2][:4096], a[:4096] + 1)
    assert (res[2][4096:] == 7.0).all() and (out == 7.0).all()


def test_a_load_after_a_covering_store_reads_what_was_stored():
    n, cell = 2048, 256
    fb = FunctionBuilder("again", [ptr(F32), ptr(F32), ptr(F32)])
    tok = fb.make_token()
    bx, _, _ = fb.block_id()
    xv, ov, o2 = (fb.partition(fb.tensor_view(p, (n,), (1,)), (cell,)) for p in fb.params)
    x, t1 = fb.load_view(xv, [bx], tok)
    t2 = fb.store_view(fb.binop("addf", x, x), ov, [bx], t1)
    y, t3 = fb.load_view(ov, [fb.c32(0)], t2)  # block 0's cell: written, or not yet
    fb.store_view(y, o2, [bx], t3)
    fb.ret()
    x0 = np.arange(n + 64, dtype=np.float32)
    out = np.full(n + 64, -1.0, np.float32)
    res = interpret(fb.module(), "again", [x0, out, np.zeros(n, np.float32)], (n // cell,))
    assert np.array_equal(res[1][:n], 2 * x0[:n]) and (res[1][n:] == -1.0).all()
    assert np.array_equal(res[2], np.tile(2 * x0[:cell], n // cell))
    assert (out == -1.0).all()


def test_owned_arguments_are_written_in_place_and_others_never():
    m = vadd_module(1024, 128)
    a, b = np.arange(1024, dtype=np.float32), np.ones(1024, np.float32)
    out = np.zeros(1024, np.float32)
    res = interpret(m, "vadd", [a, b, out], (8,), owned=[2])
    assert res[2] is out and np.array_equal(out, a + 1)
    assert not res[0].flags.writeable and np.array_equal(a, np.arange(1024))
    kept = np.zeros(1024, np.float32)
    res = interpret(m, "vadd", [a, b, kept], (8,))
    assert res[2] is not kept and (kept == 0).all()


def test_a_folded_max_prefers_plus_zero_and_a_min_minus_zero():
    for name, want in (("maxf", [0.0, -0.0]), ("minf", [-0.0, 0.0])):
        m = _reduce_module(F32, 8, 2, 1, name, False, np.nan if name == "maxf" else 5.0)
        x = np.array(
            [-0.0, 0.0, -1, -2, -0.0, -3, -4, -5, -0.0, -0.0, -1, -2, -3, -4, -5, -6], np.float32
        )
        if name == "minf":
            x = -x
        got = interpret(m, "fold", [x, np.ones(2, np.float32)], (1,))[1]
        assert _bits(got).tolist() == _bits(np.array(want, np.float32)).tolist(), name
