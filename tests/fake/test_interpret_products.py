"""``mmaf`` a few grid rows at a time, into a loop's dead accumulator in place, in C's layout.

* every lane's answer is the serial one, bit for bit: for each block and each trip,
  ``numpy.add(numpy.matmul(a_tile, b_tile), acc)`` on plain 2-D tiles
  (``rules.products``, whatever the chunking, the layout or the destination);
* the loop hands its accumulator to the ``mmaf`` only where nothing else reads it
  (``fake.donation``): every other shape of loop gives the answers of a run under an
  observer of ops (which never donates), and an observer that keeps the arrays it is
  shown, uncopied, still holds every trip's result;
* a store that puts every tile where C's layout has it takes the layout as the buffer
  (no copy: the launch's peak memory is about one accumulator), and one that puts them
  elsewhere writes them there.
"""

from __future__ import annotations

import tracemalloc
import types

import numpy as np
import pytest
from test_interpret import matmul_module

import tileir.fake.rules.floats as floats
from support.module_builder import FunctionBuilder, ptr, tile
from tileir.fake import donation
from tileir.fake.interpreter import interpret
from tileir.fake.rules import products
from tileir.fake.values import TileGrid
from tileir.types import BF16, F16, F32, F64, I1

_BITS = {4: np.uint32, 8: np.uint64}


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(_BITS[a.dtype.itemsize])


class _Keep:
    """An observer of ops that keeps, without copying, every result of the ops it watches."""

    def __init__(self, name: str = "mmaf"):
        self.name = name
        self.kept: list[np.ndarray] = []

    def after_op(self, op, results, block_ids):
        if op.name == self.name:
            self.kept.append(results[0])


def _serial(a, b, m, n, k, tm, tn, tk, grid, wide):
    """The K loop block by block and trip by trip on plain 2-D tiles (zero padding past
    K): ``acc = numpy.add(numpy.matmul(a_tile, b_tile), acc)``; also every trip's
    accumulators, ``(trip, block) -> tile``."""
    kt = -(-k // tk)
    ap = np.zeros((m, kt * tk), wide)
    ap[:, :k] = a.reshape(m, k).astype(wide)
    bp = np.zeros((kt * tk, n), wide)
    bp[:k] = b.reshape(k, n).astype(wide)
    out = np.zeros((m, n), wide)
    trips = {}
    for by in range(grid[1]):
        for bx in range(grid[0]):
            acc = np.zeros((tm, tn), wide)
            for kk in range(kt):
                at = np.ascontiguousarray(ap[bx * tm : (bx + 1) * tm, kk * tk : (kk + 1) * tk])
                bt = np.ascontiguousarray(bp[kk * tk : (kk + 1) * tk, by * tn : (by + 1) * tn])
                acc = np.add(np.matmul(at, bt), acc)
                trips[(kk, bx + grid[0] * by)] = acc
            out[bx * tm : (bx + 1) * tm, by * tn : (by + 1) * tn] = acc
    return out, trips


def _inputs(fin, m, n, k, seed, nans=False):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(m * k).astype(fin.numpy_dtype)
    b = rng.standard_normal(k * n).astype(fin.numpy_dtype)
    if nans:  # NaNs of two payloads: which one an add keeps depends on its operands' order
        a[rng.choice(a.size, 5, replace=False)] = np.float32(np.nan)
        b.view(np.uint32)[rng.choice(b.size, 5, replace=False)] = 0x7FC0_1234
    return a, b


# ----------------------------------------------------------------------------- bit for bit


@pytest.mark.parametrize(
    "fin, fout",
    [(F32, F32), (F16, F32), (BF16, F32), (F64, F64)],
    ids=["f32", "f16", "bf16", "f64"],
)
@pytest.mark.parametrize(
    "m, n, k, tm, tn, tk",
    [
        (128, 96, 128, 32, 32, 32),  # a 4 x 3 grid: C's layout, four trips
        (32, 128, 96, 32, 32, 32),  # one row of blocks
        (96, 64, 80, 32, 32, 32),  # K past the last whole tile: zero padding
        (64, 64, 64, 16, 32, 8),  # tiles that are not square
    ],
)
def test_k_loop_gives_the_serial_products_bit_for_bit(fin, fout, m, n, k, tm, tn, tk):
    a, b = _inputs(fin, m, n, k, seed=m + n + k)
    grid = (m // tm, n // tn)
    module = matmul_module(m, n, k, tm, tn, tk, fin, fout)
    got = interpret(module, "matmul", [a, b, np.zeros(m * n, fout.numpy_dtype)], grid)[2]
    want, _ = _serial(a, b, m, n, k, tm, tn, tk, grid, fout.numpy_dtype)
    assert np.array_equal(_bits(got), _bits(want.reshape(-1)))


def test_an_f16_accumulator_takes_each_product_rounded_once_over_a_grid():
    # an f16 accumulator is not the product's format: the grid of loaded tiles multiplies
    # in f32 as a grid, then each lane adds its accumulator and rounds once to f16
    m, n, k, t = 64, 96, 64, 32
    a, b = _inputs(F16, m, n, k, seed=7)
    module = matmul_module(m, n, k, t, t, t, F16, F16)
    got = interpret(module, "matmul", [a, b, np.zeros(m * n, np.float16)], (2, 3))[2]
    a32 = a.reshape(m, k).astype(np.float32)
    b32 = b.reshape(k, n).astype(np.float32)
    want = np.zeros((m, n), np.float16)
    for bx in range(2):
        for by in range(3):
            acc = np.zeros((t, t), np.float16)
            for kk in range(k // t):
                at = np.ascontiguousarray(a32[bx * t : (bx + 1) * t, kk * t : (kk + 1) * t])
                bt = np.ascontiguousarray(b32[kk * t : (kk + 1) * t, by * t : (by + 1) * t])
                acc = (np.matmul(at, bt) + acc.astype(np.float32)).astype(np.float16)
            want[bx * t : (bx + 1) * t, by * t : (by + 1) * t] = acc
    assert np.array_equal(got.view(np.uint16), want.reshape(-1).view(np.uint16))


def test_nan_payloads_follow_the_product_then_the_accumulator():
    m, n, k = 64, 96, 128
    a, b = _inputs(F32, m, n, k, seed=5, nans=True)
    module = matmul_module(m, n, k, 32, 32, 32)
    got = interpret(module, "matmul", [a, b, np.zeros(m * n, np.float32)], (2, 3))[2]
    want, _ = _serial(a, b, m, n, k, 32, 32, 32, (2, 3), np.float32)
    assert np.isnan(got).any()
    assert np.array_equal(_bits(got), _bits(want.reshape(-1)))


def test_small_scratch_chunks_change_no_bit(monkeypatch):
    m, n, k = 128, 128, 96
    a, b = _inputs(F32, m, n, k, seed=9)
    args = [a, b, np.zeros(m * n, np.float32)]
    module = matmul_module(m, n, k, 32, 32, 32)
    whole = interpret(module, "matmul", args, (4, 4))[2]
    monkeypatch.setattr(products, "SCRATCH_BYTES", 1)  # one band or grid row at a time
    banded = interpret(module, "matmul", args, (4, 4))[2]
    assert np.array_equal(_bits(whole), _bits(banded))


_LEADS = [
    ((3, 1), (1, 4), (3, 4), True),  # A along rows, B along columns: C's layout
    ((1, 4), (3, 1), (3, 4), True),  # the other way round
    ((3, 4), (1, 4), (3, 4), True),  # A differs in every lane
    ((1, 1), (3, 4), (3, 4), False),  # A the same everywhere, one accumulator tile
    ((1, 1), (1, 1), (3, 4), True),  # the same product for every lane
    ((6, 1), (1, 1), (6, 1), True),  # a plain batch
]


@pytest.mark.parametrize(
    "lead_a, lead_b, lanes, laned_c, into",
    [lead + (False,) for lead in _LEADS] + [lead + (True,) for lead in _LEADS if lead[3]],
)
def test_multiply_add_is_matmul_then_add(monkeypatch, lead_a, lead_b, lanes, laned_c, into):
    monkeypatch.setattr(products, "SCRATCH_BYTES", 2048)  # several chunks
    rng = np.random.default_rng(1)
    sa = rng.standard_normal(lead_a + (8, 5)).astype(np.float32)
    sb = rng.standard_normal(lead_b + (5, 6)).astype(np.float32)
    count = lanes[0] * lanes[1]
    c = rng.standard_normal((count if laned_c else 1, 8, 6)).astype(np.float32)
    want = np.add(np.broadcast_to(np.matmul(sa, sb), lanes + (8, 6)).reshape(count, 8, 6), c)
    acc = c.copy()
    got = products.multiply_add(sa, sb, lanes, acc, into)
    plain = got.array() if isinstance(got, TileGrid) else got
    assert np.array_equal(_bits(plain), _bits(want))
    assert (got is acc) == into  # in place exactly when asked


# ----------------------------------------------------------------------------- donation


def _loop_op(module):
    return next(op for op in module.functions[0].body.ops if op.name == "for")


def test_a_k_loop_donates_its_accumulator_and_the_mmaf_takes_it(monkeypatch):
    module = matmul_module(128, 128, 128, 32, 32, 32)
    loop = _loop_op(module)
    acc_arg = loop.regions[0].args[1]
    assert donation.accumulators(loop) == {acc_arg.id}
    calls = []
    real = floats.multiply_add
    monkeypatch.setattr(floats, "multiply_add", lambda *a: calls.append(a[4]) or real(*a))  # into
    a, b = _inputs(F32, 128, 128, 128, seed=2)
    interpret(module, "matmul", [a, b, np.zeros(128 * 128, np.float32)], (4, 4))
    assert calls == [False, True, True, True]  # the first trip's accumulator is the init's
    calls.clear()
    interpret(module, "matmul", [a, b, np.zeros(128 * 128, np.float32)], (4, 4), observer=_Keep())
    assert True not in calls  # an observer may keep what it is shown: never in place


def test_an_observer_keeps_every_trips_accumulator_uncopied():
    m = n = k = 96
    a, b = _inputs(F32, m, n, k, seed=3)
    watch = _Keep()
    module = matmul_module(m, n, k, 32, 32, 32)
    interpret(module, "matmul", [a, b, np.zeros(m * n, np.float32)], (3, 3), observer=watch)
    _, trips = _serial(a, b, m, n, k, 32, 32, 32, (3, 3), np.float32)
    assert len(watch.kept) == 3
    for trip, seen in enumerate(watch.kept):  # read after the launch: nothing overwrote them
        for lane in range(9):
            assert np.array_equal(_bits(seen[lane]), _bits(trips[(trip, lane)]))


def _k_loop(body, extra_inits=(), trips=4, t=16, grid=(2, 2)):
    """A K loop over ``trips`` tiles of ``t``: ``body(fb, a, b, acc, *extra)`` returns the
    values to continue with (the accumulator first); the kernel stores the loop's result
    number ``store`` (set on the function) and returns the module."""
    gx, gy = grid
    m, n, k = gx * t, gy * t, trips * t
    fb = FunctionBuilder("kloop", [ptr(F32), ptr(F32), ptr(F32)])
    tok = fb.make_token()
    bx, by, _ = fb.block_id()
    pa = fb.partition(fb.tensor_view(fb.params[0], (m, k), (k, 1)), (t, t))
    pb = fb.partition(fb.tensor_view(fb.params[1], (k, n), (n, 1)), (t, t))
    pc = fb.partition(fb.tensor_view(fb.params[2], (m, n), (n, 1)), (t, t))
    zero = fb.const(0.0, tile((t, t), F32))
    inits = [zero] + [fb.const(v, tile((t, t), F32)) for v in extra_inits]

    def step(kk, acc, *extra):
        a, _ = fb.load_view(pa, [bx, kk], tok)
        b, _ = fb.load_view(pb, [kk, by], tok)
        return body(fb, a, b, acc, *extra)

    results = fb.for_loop(fb.c32(0), fb.c32(trips), fb.c32(1), inits, step)
    fb.store_view(results[-1], pc, [bx, by], tok)
    fb.ret()
    return fb.module(), (m, n, k)


def _mma(fb, a, b, acc):
    return fb.op1("mmaf", (a, b, acc), acc.type)


def _read_after(fb, a, b, acc, last):
    r = _mma(fb, a, b, acc)
    return [r, fb.binop("addf", acc, acc)]  # reads the old accumulator after the mmaf


def _carried_twice(fb, a, b, acc, keep, snap):
    r = _mma(fb, a, b, acc)
    return [r, r, fb.unop("negf", keep)]  # ``keep`` is last trip's ``r``: read after the mmaf


def _in_an_if(fb, a, b, acc, flag):
    yes = fb.const(True, tile((), I1))
    (r,) = fb.if_(
        yes,
        lambda: fb.op("yield", (_mma(fb, a, b, acc),), ()),
        lambda: fb.op("yield", (acc,), ()),
        result_types=(acc.type,),
    )
    return [r, fb.binop("addf", flag, r)]


@pytest.mark.parametrize(
    "body, extra",
    [(_read_after, (0.0,)), (_carried_twice, (0.0, 0.0)), (_in_an_if, (0.0,))],
    ids=["read after the mmaf", "carried twice", "mmaf in an if"],
)
def test_no_donation_where_another_op_could_read_the_accumulator(body, extra):
    module, (m, n, k) = _k_loop(body, extra)
    assert donation.accumulators(_loop_op(module)) == frozenset()
    a, b = _inputs(F32, m, n, k, seed=4)
    args = [a, b, np.zeros(m * n, np.float32)]
    got = interpret(module, "kloop", args, (2, 2))[2]
    want = interpret(module, "kloop", args, (2, 2), observer=_Keep())[2]
    assert np.array_equal(_bits(got), _bits(want))
    assert np.abs(got).max() > 0


def test_donation_is_refused_for_the_ways_an_accumulator_escapes():
    assert donation.accumulators(_loop_op(_k_loop(lambda fb, a, b, acc: [_mma(fb, a, b, acc)])[0]))

    # the result goes somewhere besides the continue: a store inside the loop adopts it
    def stored(fb, a, b, acc):
        r = _mma(fb, a, b, acc)
        fb.store_view(
            r,
            fb.partition(fb.tensor_view(fb.params[2], (32, 32), (32, 1)), (16, 16)),
            [fb.c32(0), fb.c32(0)],
            None,
        )
        return [r]

    assert donation.accumulators(_loop_op(_k_loop(stored)[0])) == frozenset()


def test_blocks_that_stop_at_different_trips_keep_their_own_sums():
    # every block multiplies the same tiles (a batch-1 accumulator) but runs bx + 1 trips:
    # lanes leave the loop while others go on, so the shared array must not be overwritten
    t, gx = 16, 4
    fb = FunctionBuilder("ragged", [ptr(F32), ptr(F32), ptr(F32)])
    tok = fb.make_token()
    bx, _, _ = fb.block_id()
    pa = fb.partition(fb.tensor_view(fb.params[0], (t, t), (t, 1)), (t, t))
    pb = fb.partition(fb.tensor_view(fb.params[1], (t, t), (t, 1)), (t, t))
    pc = fb.partition(fb.tensor_view(fb.params[2], (gx * t, t), (t, 1)), (t, t))
    zero = fb.c32(0)
    a_t, _ = fb.load_view(pa, [zero, zero], tok)
    b_t, _ = fb.load_view(pb, [zero, zero], tok)
    ub = fb.binop("addi", bx, fb.c32(1))

    def step(kk, acc):
        return [fb.op1("mmaf", (a_t, b_t, acc), acc.type)]

    (acc,) = fb.for_loop(zero, ub, fb.c32(1), [fb.const(0.0, tile((t, t), F32))], step)
    fb.store_view(acc, pc, [bx, zero], tok)
    fb.ret()
    module = fb.module()
    assert donation.accumulators(_loop_op(module))
    a, b = _inputs(F32, t, t, t, seed=6)
    got = interpret(module, "ragged", [a, b, np.zeros(gx * t * t, np.float32)], (gx,))[2]
    p = np.matmul(a.reshape(t, t), b.reshape(t, t))
    acc, want = np.zeros((t, t), np.float32), []
    for _ in range(gx):
        acc = np.add(p, acc)
        want.append(acc)
    assert np.array_equal(_bits(got), _bits(np.concatenate(want).reshape(-1)))


# ----------------------------------------------------------------------------- C's layout


def test_the_store_takes_the_layout_as_the_buffer(monkeypatch):
    monkeypatch.setattr(products, "SCRATCH_BYTES", 1 << 14)
    m, n, k = 512, 512, 128
    a, b = _inputs(F32, m, n, k, seed=7)
    module = matmul_module(m, n, k, 64, 64, 32)
    args = [a, b, np.zeros(m * n, np.float32)]
    interpret(module, "matmul", args, (8, 8))  # warm: recording and checks out of the way
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        out = interpret(module, "matmul", args, (8, 8))[2]
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    # one accumulator, which became the buffer, and small scratch (1.28x measured); a second
    # accumulator (a fresh result each trip, or the tiles copied at the store) makes it 2x
    assert peak < 1.6 * out.nbytes
    want, _ = _serial(a, b, m, n, k, 64, 64, 32, (8, 8), np.float32)
    assert np.array_equal(_bits(out), _bits(want.reshape(-1)))


def test_tiles_stored_elsewhere_than_the_layout_are_written_where_they_go():
    t, g, trips = 16, 3, 2
    fb = FunctionBuilder("swap", [ptr(F32), ptr(F32), ptr(F32)])
    tok = fb.make_token()
    bx, by, _ = fb.block_id()
    pa = fb.partition(fb.tensor_view(fb.params[0], (g * t, trips * t), (trips * t, 1)), (t, t))
    pb = fb.partition(fb.tensor_view(fb.params[1], (trips * t, g * t), (g * t, 1)), (t, t))
    pc = fb.partition(fb.tensor_view(fb.params[2], (g * t, g * t), (g * t, 1)), (t, t))

    def step(kk, acc):
        a, _ = fb.load_view(pa, [bx, kk], tok)
        b, _ = fb.load_view(pb, [kk, by], tok)
        return [fb.op1("mmaf", (a, b, acc), acc.type)]

    (acc,) = fb.for_loop(
        fb.c32(0), fb.c32(trips), fb.c32(1), [fb.const(0.0, tile((t, t), F32))], step
    )
    fb.store_view(acc, pc, [by, bx], tok)  # block (x, y)'s tile at (y, x): C transposed by blocks
    fb.ret()
    a, b = _inputs(F32, g * t, g * t, trips * t, seed=8)
    got = interpret(fb.module(), "swap", [a, b, np.zeros((g * t) ** 2, np.float32)], (g, g))[2]
    c, _ = _serial(a, b, g * t, g * t, trips * t, t, t, t, (g, g), np.float32)
    want = c.reshape(g, t, g, t).transpose(2, 1, 0, 3).reshape(g * t, g * t)
    assert np.array_equal(_bits(got), _bits(want.reshape(-1)))


def test_an_accumulator_loaded_as_a_grid_is_added_as_its_tiles():
    # C's tiles follow both grid axes, so the load of the accumulator is a TileGrid too
    t, g = 16, 3
    fb = FunctionBuilder("gemm", [ptr(F32), ptr(F32), ptr(F32), ptr(F32)])
    tok = fb.make_token()
    bx, by, _ = fb.block_id()
    pa = fb.partition(fb.tensor_view(fb.params[0], (g * t, t), (t, 1)), (t, t))
    pb = fb.partition(fb.tensor_view(fb.params[1], (t, g * t), (g * t, 1)), (t, t))
    pc = fb.partition(fb.tensor_view(fb.params[2], (g * t, g * t), (g * t, 1)), (t, t))
    po = fb.partition(fb.tensor_view(fb.params[3], (g * t, g * t), (g * t, 1)), (t, t))
    zero = fb.c32(0)
    a_t, _ = fb.load_view(pa, [bx, zero], tok)
    b_t, _ = fb.load_view(pb, [zero, by], tok)
    c_t, _ = fb.load_view(pc, [bx, by], tok)
    fb.store_view(fb.op1("mmaf", (a_t, b_t, c_t), c_t.type), po, [bx, by], tok)
    fb.ret()
    rng = np.random.default_rng(10)
    a, b, c = (
        rng.standard_normal(s).astype(np.float32) for s in (g * t * t, g * t * t, (g * t) ** 2)
    )
    got = interpret(fb.module(), "gemm", [a, b, c, np.zeros_like(c)], (g, g))[3]
    want = np.add(
        np.matmul(a.reshape(g, 1, t, t), b.reshape(t, g, t).transpose(1, 0, 2)[None]),
        c.reshape(g, t, g, t).transpose(0, 2, 1, 3),
    )
    assert np.array_equal(_bits(got), _bits(want.transpose(0, 2, 1, 3).reshape(-1)))


def test_an_accumulator_in_one_layout_takes_products_whose_grid_runs_the_other_way():
    # trip 0 lays C out with A along the lanes' columns; operands along the rows next
    rng = np.random.default_rng(11)
    rows = cols = 3
    sa = rng.standard_normal((1, cols, 8, 5)).astype(np.float32)
    sb = rng.standard_normal((rows, 1, 5, 6)).astype(np.float32)
    zero = np.zeros((1, 8, 6), np.float32)
    acc = products.multiply_add(sa, sb, (rows, cols), zero, False)
    assert isinstance(acc, TileGrid) and acc.base is not None
    first = acc.array()
    ta, tb = sa.transpose(1, 0, 2, 3), sb.transpose(1, 0, 2, 3)  # now A along the rows
    got = products.multiply_add(ta, tb, (rows, cols), acc, True)
    want = np.add(np.matmul(ta, tb).reshape(9, 8, 6), first)
    assert got is acc
    assert np.array_equal(_bits(acc.array()), _bits(want))


def test_an_owned_output_receives_the_layout_in_place():
    m, n, k = 128, 96, 64
    a, b = _inputs(F32, m, n, k, seed=12)
    out = np.full(m * n, np.nan, np.float32)
    module = matmul_module(m, n, k, 32, 32, 32)
    got = interpret(module, "matmul", [a, b, out], (4, 3), owned=[2])[2]
    want, _ = _serial(a, b, m, n, k, 32, 32, 32, (4, 3), np.float32)
    assert got is out
    assert np.array_equal(_bits(out), _bits(want.reshape(-1)))


# ----------------------------------------------------------------------------- merged GEMMs


class _Spy:
    """Counts the products ``rules.products`` makes: 2-D ``numpy.matmul`` calls (a merged
    band), 4-D ones (lane by lane), and ``blas.add_product`` calls that did the work."""

    def __init__(self, monkeypatch):
        self.calls = {"2-D": 0, "lanes": 0, "accumulate": 0}
        real_matmul, real_add = np.matmul, products.blas.add_product

        def matmul(a, b, *args, **kw):
            if np.ndim(a) == 2 and np.ndim(b) == 2:
                self.calls["2-D"] += 1
            elif np.ndim(a) == 4:
                self.calls["lanes"] += 1
            return real_matmul(a, b, *args, **kw)

        def add_product(a, b, c):
            done = real_add(a, b, c)
            self.calls["accumulate"] += done
            return done

        monkeypatch.setattr(products.np, "matmul", matmul)
        monkeypatch.setattr(products.blas, "add_product", add_product)


def _verdicts(monkeypatch, **forced):
    """Force the merged forms' verdicts (form -> bool); the others are measured."""
    real = products.merge_keeps_bits

    def verdict(dtype, m, n, k, band, blocks, form, b_order="rows"):
        if form in forced:
            return forced[form]
        return real(dtype, m, n, k, band, blocks, form, b_order)

    monkeypatch.setattr(products, "merge_keeps_bits", verdict)


_MERGE_SHAPES = [
    (128, 96, 128, 32, 32, 32),  # a 4 x 3 grid
    (256, 256, 64, 64, 64, 32),  # the bench's tiles, smaller
    (64, 160, 96, 16, 32, 16),  # tiles that are not square, a 4 x 5 grid
    (96, 64, 80, 32, 32, 32),  # K past the last whole tile: zero padding
]


@pytest.mark.parametrize("m, n, k, tm, tn, tk", _MERGE_SHAPES)
@pytest.mark.parametrize("fin", [F32, F64, F16], ids=["f32", "f64", "f16"])
def test_merged_gemms_give_the_lanes_bits(monkeypatch, fin, m, n, k, tm, tn, tk):
    fout = F64 if fin is F64 else F32
    a, b = _inputs(fin, m, n, k, seed=m * 3 + n + k)
    grid = (m // tm, n // tn)
    module = matmul_module(m, n, k, tm, tn, tk, fin, fout)

    def run(**forced):
        with monkeypatch.context() as mp:
            _verdicts(mp, **forced)
            out = np.zeros(m * n, fout.numpy_dtype)
            return interpret(module, "matmul", [a, b, out], grid)[2]

    lanes = run(matmul=False, accumulate=False)
    want, _ = _serial(a, b, m, n, k, tm, tn, tk, grid, fout.numpy_dtype)
    assert np.array_equal(_bits(lanes), _bits(want.reshape(-1)))
    for forced in ({"accumulate": False}, {}):  # numpy's 2-D GEMM + add; beta=1 where found
        assert np.array_equal(_bits(run(**forced)), _bits(lanes)), forced


def test_the_merged_forms_are_taken_where_the_tiles_are_bands(monkeypatch):
    m = n = 128
    k, t, trips = 128, 32, 4
    a, b = _inputs(F32, m, n, k, seed=21)
    module = matmul_module(m, n, k, t, t, t)
    args = [a, b, np.zeros(m * n, np.float32)]
    interpret(module, "matmul", args, (4, 4))  # calibrate outside the count
    with monkeypatch.context() as mp:
        _verdicts(mp, accumulate=False)
        interpret(module, "matmul", args, (4, 4))
        spy = _Spy(mp)
        interpret(module, "matmul", args, (4, 4))
    if products.merge_keeps_bits(np.float32, t, t, t, 4, 4, "matmul"):
        # one GEMM per trip: the whole 4-block grid fits one band of scratch
        assert spy.calls == {"2-D": trips, "lanes": 0, "accumulate": 0}
    else:
        assert spy.calls["2-D"] == 0 and spy.calls["lanes"] == trips
    if not products.blas.AVAILABLE:
        pytest.skip("no bundled ILP64 OpenBLAS here: the beta=1 form is never tried")
    spy = _Spy(monkeypatch)
    interpret(module, "matmul", args, (4, 4))
    if products.merge_keeps_bits(np.float32, t, t, t, 4, 4, "accumulate"):
        # the first trip adds into a fresh copy of the init's zeros (not the loop's own),
        # the others into the loop's accumulator: one beta=1 GEMM a trip
        assert spy.calls["accumulate"] == trips
        assert spy.calls["2-D"] + spy.calls["lanes"] == 0


def test_a_calibration_that_finds_other_bits_keeps_the_lanes(monkeypatch):
    m = n = k = 128
    a, b = _inputs(F32, m, n, k, seed=22)
    module = matmul_module(m, n, k, 32, 32, 32)
    args = [a, b, np.zeros(m * n, np.float32)]
    want = interpret(module, "matmul", args, (4, 4))[2]
    monkeypatch.setattr(products, "_MERGE_VERDICTS", {})
    monkeypatch.setattr(products, "_calibrate", lambda *a: False)
    spy = _Spy(monkeypatch)
    got = interpret(module, "matmul", args, (4, 4))[2]
    assert spy.calls == {"2-D": 0, "lanes": 4, "accumulate": 0}
    assert set(products._MERGE_VERDICTS.values()) == {False}
    assert np.array_equal(_bits(got), _bits(want))


def test_a_calibration_compares_bits_and_remembers_its_verdict(monkeypatch):
    monkeypatch.setattr(products, "_MERGE_VERDICTS", {})
    calls = []
    real = products._calibrate
    monkeypatch.setattr(products, "_calibrate", lambda *a: calls.append(a) or real(*a))
    first = products.merge_keeps_bits(np.float32, 16, 8, 32, 3, 5, "matmul")
    assert products.merge_keeps_bits(np.float32, 16, 8, 32, 3, 5, "matmul") is first
    assert len(calls) == 1  # measured once per shape class
    # a BLAS that rounds its merged product differently is caught: perturb one bit
    real_matmul = np.matmul

    def off_by_one_ulp(x, y, *args, **kw):
        out = real_matmul(x, y, *args, **kw)
        if np.ndim(x) == 2:
            out.view(np.uint32).reshape(-1)[7] ^= 1
        return out

    monkeypatch.setattr(products.np, "matmul", off_by_one_ulp)
    assert products._calibrate("matmul", np.dtype(np.float32), 16, 8, 32, 3, 5, "rows") is False
    with pytest.raises(ValueError, match="no merged form 'gemv'"):
        products.merge_keeps_bits(np.float32, 16, 8, 32, 3, 5, "gemv")
    with pytest.raises(ValueError, match="no order 'diagonal'"):
        products.merge_keeps_bits(np.float32, 16, 8, 32, 3, 5, "matmul", "diagonal")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("b_order", ["rows", "columns"])
def test_a_batch_times_one_tile_is_one_gemm_with_the_lanes_bits(monkeypatch, dtype, b_order):
    rng = np.random.default_rng(25)
    a = rng.standard_normal((6, 16, 24)).astype(dtype)
    b = rng.standard_normal((1, 24, 40)).astype(dtype)
    if b_order == "columns":  # a transposed tile, as flash attention's k^T
        b = np.ascontiguousarray(b.transpose(0, 2, 1)).transpose(0, 2, 1)
    want = np.matmul(a, b)
    merges = products.merge_keeps_bits(dtype, 16, 40, 24, 6, 1, "matmul", b_order)  # calibrated
    spy = _Spy(monkeypatch)
    got = products.batch_product(a, np.broadcast_to(b, (6, 24, 40)))  # a widened tile too
    if merges:
        assert spy.calls["2-D"] == 1 and spy.calls["lanes"] == 0
        assert np.array_equal(_bits(got), _bits(want))
    else:
        assert got is None
    # where it does not apply: B per lane, A's lanes not bands of one matrix, one lane
    assert products.batch_product(a, np.ascontiguousarray(np.broadcast_to(b, (6, 24, 40)))) is None
    assert products.batch_product(a[::2], b) is None
    assert products.batch_product(a[:1], b) is None
    assert products.batch_product(a.astype(np.float16), b.astype(np.float16)) is None


def test_a_batch_whose_calibration_finds_other_bits_is_multiplied_lane_by_lane(monkeypatch):
    monkeypatch.setattr(products, "_MERGE_VERDICTS", {})
    monkeypatch.setattr(products, "_calibrate", lambda *a: False)
    rng = np.random.default_rng(26)
    a = rng.standard_normal((4, 8, 8)).astype(np.float32)
    assert products.batch_product(a, a[:1]) is None


@pytest.mark.parametrize("name", ["flash_attn_f32_d64", "flash_attn_f64_d64"])
def test_flash_attention_multiplies_every_query_block_at_once_with_the_same_bits(
    monkeypatch, name
):
    from tileir.fake import FakeDevice
    from tileir.kernels import registry

    spec = registry.get(name)
    kernel = spec.kernel()

    answers: list[bool] = []  # the verdicts the merged run's products were given

    def run(**forced):
        inputs, grid = spec.inputs(np.random.default_rng(3))
        with monkeypatch.context() as mp:
            _verdicts(mp, **forced)
            judged = products.merge_keeps_bits

            def noted(*args, **kwargs):
                answers.append(judged(*args, **kwargs))
                return answers[-1]

            mp.setattr(products, "merge_keeps_bits", noted)
            spy = _Spy(mp)
            out = FakeDevice(mode="interpret").run(kernel, *inputs, grid=grid)
            return out, spy.calls

    lanes, by_lane = run(matmul=False)
    run()  # the verdicts' calibration (2-D GEMMs of its own) happens here, not counted below
    answers.clear()
    merged, calls = run()
    assert by_lane["2-D"] == 0 and by_lane["lanes"] == 0  # 3-D batches: no 2-D GEMM
    assert answers  # the query blocks' products were offered the merged form
    # merged exactly where this BLAS keeps the bits that way: a forced OPENBLAS_CORETYPE
    # (Haswell on an AMD machine) sums a band's f32 GEMM in another order, and then the
    # interpreter must multiply block by block
    assert (calls["2-D"] > 0) == any(answers)
    floats_out = [x for x in lanes if isinstance(x, np.ndarray) and x.dtype.kind == "f"]
    assert floats_out
    for x, y in zip(lanes, merged):
        if isinstance(x, np.ndarray) and x.dtype.kind == "f":
            assert np.array_equal(_bits(x), _bits(y))


def test_windows_of_one_matrix_are_its_bands_and_copies_of_the_tiles_are_not():
    rng = np.random.default_rng(23)
    b = rng.standard_normal((5, 24)).astype(np.float32)  # B's K rows, four 6-wide tiles
    window = b.reshape(5, 4, 6).transpose(1, 0, 2)[None]  # (1, 4, 5, 6), as a load's
    cols = products._as_columns(window)
    assert cols is not None and np.array_equal(cols, b)
    assert products._as_columns(np.ascontiguousarray(window)) is None  # one after another
    widened = products._as_columns(window.astype(np.float64))  # a conversion keeps the order
    assert widened is not None and np.array_equal(widened, b.astype(np.float64))
    a = rng.standard_normal((24, 5)).astype(np.float32)
    a_tiles = a.reshape(3, 1, 8, 5)
    rows = products._as_rows(a_tiles)
    assert rows is not None and np.array_equal(rows, a)
    assert products._as_rows(a_tiles[::2]) is None  # a gap between the bands
    every_other = products._as_rows(a_tiles[:, :, ::2])  # still one strided matrix
    assert every_other is not None and np.array_equal(every_other, a[::2])


@pytest.mark.skipif(not products.blas.AVAILABLE, reason="no bundled ILP64 OpenBLAS")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_blas_add_product_adds_into_c_and_refuses_what_it_cannot_take(dtype):
    rng = np.random.default_rng(24)
    a = rng.standard_normal((48, 16)).astype(dtype)
    b = rng.standard_normal((16, 40)).astype(dtype)
    c = rng.standard_normal((48, 40)).astype(dtype)
    got = c.copy()
    assert products.blas.add_product(a, b, got)
    np.testing.assert_allclose(got, c + a @ b, rtol=1e-5 if dtype == np.float32 else 1e-12)
    untouched = c.copy()
    assert not products.blas.add_product(a[:, ::2], b[::2], untouched)  # columns strided
    assert not products.blas.add_product(a.astype(np.float16), b, untouched)
    assert not products.blas.add_product(a, b[:, :20], untouched)  # shapes disagree
    assert np.array_equal(untouched, c)


# ----------------------------------------------------------------------------- operand layout


@pytest.mark.parametrize("fin", [F32, F64])
@pytest.mark.parametrize("transposed", ["a", "b", "both"])
def test_an_operands_layout_never_changes_the_products_bits(fin, transposed):
    # numpy hands a transposed view to BLAS as a T GEMM, whose small-matrix kernels sum in
    # another order on some CPUs (AVX-512 OpenBLAS, 16x64x16): the rule multiplies
    # row-major tiles whatever layout the operands arrive in
    from tileir.ir.module import Op, Value
    from tileir.types import TileType

    m, k, n, lanes = 16, 64, 16, 8
    dtype = np.float32 if fin is F32 else np.float64
    rng = np.random.default_rng(3)
    a = rng.standard_normal((lanes, m, k)).astype(dtype)
    b = rng.standard_normal((lanes, k, n)).astype(dtype)
    c = rng.standard_normal((lanes, m, n)).astype(dtype)
    ta, tb, tc = (TileType(s, fin) for s in ((m, k), (k, n), (m, n)))
    op = Op("mmaf", (Value(0, ta), Value(1, tb), Value(2, tc)), (Value(3, tc),))

    def strided(x):  # the same values, each tile a transposed view of a row-major buffer
        return np.ascontiguousarray(x.transpose(0, 2, 1)).transpose(0, 2, 1)

    va = strided(a) if transposed in ("a", "both") else a
    vb = strided(b) if transposed in ("b", "both") else b
    assert not (va.flags.c_contiguous and vb.flags.c_contiguous)
    ctx = types.SimpleNamespace(frame=None)  # no frame: nothing is donated
    (want,) = floats._mmaf(ctx, op, [a, b, c])
    (got,) = floats._mmaf(ctx, op, [va, vb, c])
    assert np.array_equal(_bits(got), _bits(want))
    assert np.array_equal(_bits(want), _bits(np.matmul(a, b) + c))


@pytest.mark.parametrize("fin", [F32, F64])
def test_a_transposed_tile_every_lane_shares_is_copied_once_and_merged(monkeypatch, fin):
    # flash attention's q k^T: k's tile loaded once for every query block, then permuted (a
    # transposed view widened with a zero lane stride); the rule makes it row-major once,
    # keeps it shared, and the lanes multiply as one GEMM where this BLAS keeps their bits
    from tileir.ir.module import Op, Value
    from tileir.types import TileType

    m, k, n, lanes = 64, 64, 64, 16
    dtype = np.float32 if fin is F32 else np.float64
    rng = np.random.default_rng(27)
    a = rng.standard_normal((lanes, m, k)).astype(dtype)
    tile = rng.standard_normal((n, k)).astype(dtype)
    shared = np.broadcast_to(tile.T, (lanes, k, n))  # strides (0, itemsize, n * itemsize)
    c = np.zeros((1, m, n), dtype)
    ta, tb, tc = (TileType(s, fin) for s in ((m, k), (k, n), (m, n)))
    op = Op("mmaf", (Value(0, ta), Value(1, tb), Value(2, tc)), (Value(3, tc),))
    unit = floats._unit_rows(shared)
    assert unit.shape == (1, k, n) and unit.flags.c_contiguous  # one tile, row-major
    assert np.array_equal(np.broadcast_to(unit, shared.shape), shared)
    per_lane = np.matmul(a, np.ascontiguousarray(shared)) + c  # every lane's own copy
    merges = products.merge_keeps_bits(dtype, m, n, k, lanes, 1, "matmul", "rows")
    spy = _Spy(monkeypatch)
    (got,) = floats._mmaf(types.SimpleNamespace(frame=None), op, [a, shared, c])
    assert np.array_equal(_bits(got), _bits(per_lane))
    assert spy.calls["2-D"] == (1 if merges else 0)
