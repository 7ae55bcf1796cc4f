"""The fake device's interpreter on whole kernels shaped like the lowering's output."""

from __future__ import annotations

import io

import ml_dtypes
import numpy as np
import pytest

from support.interp_cases import Capture
from support.interp_cases_memory import divergent_control_flow
from support.module_builder import FunctionBuilder, ptr, scalar, tile
from tileir.errors import InterpretError
from tileir.fake.interpreter import interpret
from tileir.types import BF16, F16, F32, F64, I1, I32, TOKEN, PointerType, TileType


def vadd_module(n: int, cell: int, fmt=F32, padding=None):
    """The seed's vadd: token, assume, static views, block id, weak loads, addf, store."""
    fb = FunctionBuilder("vadd", [ptr(fmt)] * 3)
    tok = fb.make_token()
    views = []
    for p in fb.params:
        tv = fb.tensor_view(fb.assume_div(p, 16), (n,), (1,))
        views.append(fb.partition(tv, (cell,), padding=padding))
    bx, _, _ = fb.block_id()
    x, t1 = fb.load_view(views[0], [bx], tok)
    y, t2 = fb.load_view(views[1], [bx], t1)
    fb.store_view(fb.binop("addf", x, y), views[2], [bx], t2)
    fb.ret()
    return fb.module()


def test_vadd_tail_lanes_read_padding_and_are_never_written():
    m = vadd_module(1000, 128, padding="zero")
    a = np.arange(1024, dtype=np.float32)
    a[1000:] = 777.0  # past the tensor's extent: must not be read
    b = np.ones(1024, np.float32)
    out = np.full(1024, 9.0, np.float32)
    loads = [op for op in m.functions[0].body.ops if op.name == "load_view_tko"]
    cap = Capture(loads[0])
    res = interpret(m, "vadd", [a, b, out], (8,), observer=cap)
    assert res[2][:1000].tolist() == (a[:1000] + 1).tolist()
    assert res[2][1000:].tolist() == [9.0] * 24
    last = cap.results[0][0][7]
    assert last[: 1000 - 896].tolist() == a[896:1000].tolist()
    assert last[1000 - 896 :].tolist() == [0.0] * 24
    assert out.tolist() == [9.0] * 1024 and a[1000] == 777.0  # inputs never change


def test_softmax_over_three_of_four_lanes_keeps_the_sentinel():
    fb = FunctionBuilder("softmax", [ptr(F64), ptr(F64)])
    tok = fb.make_token()
    xv = fb.partition(fb.tensor_view(fb.params[0], (3,), (1,)), (4,), padding="neg_inf")
    ov = fb.partition(fb.tensor_view(fb.params[1], (3,), (1,)), (4,), padding="zero")
    bx, _, _ = fb.block_id()
    t, tok1 = fb.load_view(xv, [bx], tok)

    def widen(s):
        return fb.op1("broadcast", (fb.op1("reshape", (s,), tile((1,), F64)),), tile((4,), F64))

    (mx,) = fb.reduce([t], 0, [-np.inf], lambda e, a: [fb.binop("maxf", a, e)])
    e = fb.unop("exp", fb.binop("subf", t, widen(mx)))
    (total,) = fb.reduce([e], 0, [0.0], lambda x, a: [fb.binop("addf", a, x)])
    fb.store_view(fb.binop("divf", e, widen(total)), ov, [bx], tok1)
    fb.ret()
    res = interpret(
        fb.module(), "softmax", [np.array([1.0, 2.0, 3.0, 0.0]), np.full(4, 9.0)], (1,)
    )
    # the seed's figures, within the last bits of exp (the seed's reference has its own exp)
    np.testing.assert_allclose(
        res[1][:3], [0.09003057317038043, 0.24472847105479767, 0.6652409557748218], rtol=1e-15
    )
    assert res[1][3] == 9.0  # past the extent: never written


def matmul_module(m, n, k, tm, tn, tk, fin=F32, fout=F32):
    """Listing B's shape: a K loop carrying the accumulator and a token."""
    fb = FunctionBuilder("matmul", [ptr(fin), ptr(fin), ptr(fout)])
    tok = fb.make_token()
    bx, by, _ = fb.block_id()
    pa = fb.partition(fb.tensor_view(fb.params[0], (m, k), (k, 1)), (tm, tk), padding="zero")
    pb = fb.partition(fb.tensor_view(fb.params[1], (k, n), (n, 1)), (tk, tn), padding="zero")
    pc = fb.partition(fb.tensor_view(fb.params[2], (m, n), (n, 1)), (tm, tn))
    _, ktiles = fb.op("get_index_space_shape", (pa,), (scalar(I32), scalar(I32)))
    acc0 = fb.const(0.0, tile((tm, tn), fout))

    def step(kk, acc, t):
        a, ta = fb.load_view(pa, [bx, kk], t)
        b, tb = fb.load_view(pb, [kk, by], t)
        joined = fb.op1("join_tokens", (ta, tb), TOKEN)
        return [fb.op1("mmaf", (a, b, acc), acc.type), joined]

    acc, t = fb.for_loop(fb.c32(0), ktiles, fb.c32(1), [acc0, tok], step)
    fb.store_view(acc, pc, [bx, by], t)
    fb.ret()
    return fb.module()


def test_matmul_with_a_loop_carried_accumulator_and_token():
    rng = np.random.default_rng(0)
    m, n, k = 96, 64, 80  # K is not a multiple of the 32-wide K tile: zero padding
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    res = interpret(
        matmul_module(m, n, k, 32, 32, 32),
        "matmul",
        [a.ravel(), b.ravel(), np.zeros(m * n, np.float32)],
        (3, 2),
    )
    np.testing.assert_allclose(
        res[2].reshape(m, n), a.astype(np.float64) @ b, rtol=1e-5, atol=1e-4
    )
    h = a.astype(np.float16)
    g = b.astype(np.float16)
    res = interpret(
        matmul_module(m, n, k, 32, 32, 32, F16, F32),
        "matmul",
        [h.ravel(), g.ravel(), np.zeros(m * n, np.float32)],
        (3, 2),
    )
    np.testing.assert_allclose(
        res[2].reshape(m, n), h.astype(np.float64) @ g, rtol=1e-5, atol=1e-5
    )


def row_softmax_module(rows, cols, tm):
    fb = FunctionBuilder("row_softmax", [ptr(F32), ptr(F32)])
    tok = fb.make_token()
    bx, _, _ = fb.block_id()
    xv = fb.partition(
        fb.tensor_view(fb.params[0], (rows, cols), (cols, 1)), (tm, cols), padding="neg_inf"
    )
    ov = fb.partition(fb.tensor_view(fb.params[1], (rows, cols), (cols, 1)), (tm, cols))
    zero = fb.c32(0)
    x, t = fb.load_view(xv, [bx, zero], tok)

    def keep(s):  # keepdims: [tm] -> [tm, 1] -> widened to [tm, cols]
        return fb.op1(
            "broadcast", (fb.op1("reshape", (s,), tile((tm, 1), F32)),), tile((tm, cols), F32)
        )

    (mx,) = fb.reduce([x], 1, [-np.inf], lambda e, a: [fb.binop("maxf", a, e)])
    p = fb.unop("exp", fb.binop("subf", x, keep(mx)))
    (s,) = fb.reduce([p], 1, [0.0], lambda e, a: [fb.binop("addf", a, e)])
    fb.store_view(fb.binop("divf", p, keep(s)), ov, [bx, zero], t)
    fb.ret()
    return fb.module()


def test_row_softmax_with_keepdims_through_reshape():
    rows, cols = 60, 128  # the last block has 12 rows past the extent
    x = np.random.default_rng(1).standard_normal((rows, cols)).astype(np.float32)
    res = interpret(
        row_softmax_module(rows, cols, 16),
        "row_softmax",
        [x.ravel(), np.full(rows * cols, 9.0, np.float32)],
        (4,),
    )
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(
        res[1].reshape(rows, cols), e / e.sum(axis=1, keepdims=True), rtol=2e-6, atol=1e-8
    )


def test_transpose_through_the_pointer_path():
    """Block (i, j) loads its cell and stores it transposed with offset + store_ptr_tko."""
    fb = FunctionBuilder("transpose", [ptr(F64), ptr(F64)])
    x, out = fb.params
    tok = fb.make_token()
    bi, bj, _ = fb.block_id()
    cell, tok1 = fb.load_view(
        fb.partition(fb.tensor_view(x, (128, 64), (64, 1)), (32, 32)), [bi, bj], tok
    )
    at = fb.binop("addi", fb.binop("muli", bj, fb.c32(32 * 128)), fb.binop("muli", bi, fb.c32(32)))
    t2 = tile((32, 32), I32)

    def grid_of(v, shape):
        return fb.op1("broadcast", (fb.op1("reshape", (v,), tile(shape, I32)),), t2)

    io_ = fb.op1("iota", (), tile((32,), I32))
    rows = grid_of(io_, (32, 1))
    cols = fb.binop("muli", grid_of(io_, (1, 32)), fb.const(128, tile((32, 32), I32)))
    off = fb.binop(
        "addi",
        fb.binop("addi", rows, cols),
        grid_of(fb.op1("reshape", (at,), tile((1,), I32)), (1, 1)),
    )
    pt = TileType((32, 32), PointerType(F64))
    base = fb.op1(
        "broadcast", (fb.op1("reshape", (out,), TileType((1, 1), PointerType(F64))),), pt
    )
    ptrs = fb.op1("offset", (base, off), pt)
    fb.op(
        "store_ptr_tko",
        (ptrs, cell, tok1),
        (TOKEN,),
        {"memory_ordering": "weak"},
        segments=(1, 1, 0, 1),
    )
    fb.ret()
    xs = np.arange(128 * 64, dtype=np.float64)
    res = interpret(fb.module(), "transpose", [xs, np.zeros(64 * 128)], (4, 2))
    assert np.array_equal(res[1].reshape(64, 128), xs.reshape(128, 64).T)


def test_histogram_with_atomics_colliding_across_blocks():
    blocks, lanes, bins = 16, 64, 10
    fb = FunctionBuilder("hist", [ptr(I32), ptr(I32)])
    data, hist = fb.params
    bx, _, _ = fb.block_id()
    v, _ = fb.load_view(
        fb.partition(fb.tensor_view(data, (blocks * lanes,), (1,)), (lanes,)), [bx]
    )
    b = fb.binop("remi", v, fb.const(bins, tile((lanes,), I32)), signedness="unsigned")
    pt = TileType((lanes,), PointerType(I32))
    base = fb.op1("broadcast", (fb.op1("reshape", (hist,), TileType((1,), PointerType(I32))),), pt)
    ones = fb.const(1, tile((lanes,), I32))
    fb.op(
        "atomic_rmw_tko",
        (fb.op1("offset", (base, b), pt), ones),
        (tile((lanes,), I32), TOKEN),
        {"memory_ordering": "relaxed", "memory_scope": "device", "mode": "add"},
        segments=(1, 1, 0, 0),
    )
    fb.ret()
    d = np.random.default_rng(2).integers(0, 1000, blocks * lanes).astype(np.int32)
    res = interpret(fb.module(), "hist", [d, np.zeros(bins, np.int32)], (blocks,))
    assert res[1].tolist() == np.bincount(d % bins, minlength=bins).tolist()


def test_divergent_blocks_agree_with_one_block_at_a_time():
    whole = []
    divergent_control_flow(lambda *a, **k: whole.append(interpret(*a, **k)) or whole[-1])
    alone = []
    divergent_control_flow(
        lambda *a, **k: alone.append(interpret(*a, max_chunk_bytes=1, **k)) or alone[-1]
    )
    assert whole[0][0].tolist() == alone[0][0].tolist()


def test_integer_wraparound_in_a_loop():
    fb = FunctionBuilder("k", [ptr(I32)])
    three = fb.c32(3)
    (v,) = fb.for_loop(
        fb.c32(0),
        fb.c32(25),
        fb.c32(1),
        [fb.c32(1)],
        lambda i, acc: [fb.binop("muli", acc, three)],
    )
    pv = fb.partition(fb.tensor_view(fb.params[0], (1,), (1,)), (1,))
    fb.store_view(fb.op1("reshape", (v,), tile((1,), I32)), pv, [fb.c32(0)])
    fb.ret()
    res = interpret(fb.module(), "k", [np.zeros(1, np.int32)], (1,))
    assert res[0][0] == np.int32(((3**25 + 2**31) % 2**32) - 2**31)


@pytest.mark.parametrize(
    "fmt,dt", [(BF16, ml_dtypes.bfloat16), (F16, np.float16), (F32, np.float32)]
)
def test_narrow_floats_round_like_their_format(fmt, dt):
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(256) * 100).astype(dt)
    b = (rng.standard_normal(256) * 3).astype(dt)
    for name, fn in (
        ("addf", np.add),
        ("subf", np.subtract),
        ("mulf", np.multiply),
        ("divf", np.divide),
    ):
        fb = FunctionBuilder("k", [ptr(fmt), ptr(fmt), ptr(fmt)])
        views = [fb.partition(fb.tensor_view(p, (256,), (1,)), (256,)) for p in fb.params]
        z = fb.c32(0)
        x, _ = fb.load_view(views[0], [z])
        y, _ = fb.load_view(views[1], [z])
        fb.store_view(fb.binop(name, x, y), views[2], [z])
        fb.ret()
        res = interpret(fb.module(), "k", [a, b, np.zeros(256, dt)], (1,))
        want = fn(a.astype(np.float64), b.astype(np.float64))  # exact enough, then one rounding
        if dt is np.float32:
            want = fn(a, b)
        assert res[2].tobytes() == np.asarray(want).astype(dt).tobytes(), name


# ----------------------------------------------------------------------------- errors


def _oob_kernel():
    fb = FunctionBuilder("oob", [ptr(F32)])
    bx, _, _ = fb.block_id()
    p = fb.op1(
        "offset", (fb.params[0], fb.binop("muli", bx, fb.c32(4))), TileType((), PointerType(F32))
    )
    fb.op("load_ptr_tko", (p,), (scalar(F32), TOKEN), segments=(1, 0, 0, 0))
    fb.ret()
    return fb.module()


def test_out_of_bounds_pointer_names_op_line_block_and_address():
    with pytest.raises(InterpretError) as info:
        interpret(_oob_kernel(), "oob", [np.zeros(10, np.float32)], (4,))
    text = str(info.value)
    assert "load_ptr_tko" in text and "kernel `oob`" in text and "kernel.py:" in text
    assert "block (3, 0, 0)" in text and "0x" in text
    assert info.value.op == "load_ptr_tko" and info.value.where.startswith("kernel.py:")


def test_masked_off_lanes_are_not_checked():
    fb = FunctionBuilder("k", [ptr(F32)])
    pt = TileType((4,), PointerType(F32))
    base = fb.op1(
        "broadcast", (fb.op1("reshape", (fb.params[0],), TileType((1,), PointerType(F32))),), pt
    )
    ptrs = fb.op1(
        "offset", (base, fb.const(np.array([0, 1, 100, 2], np.int32), tile((4,), I32))), pt
    )
    mask = fb.const(np.array([True, True, False, True]), tile((4,), I1))
    cap_op = fb.op("load_ptr_tko", (ptrs, mask), (tile((4,), F32), TOKEN), segments=(1, 1, 0, 0))
    fb.ret()
    m = fb.module()
    cap = Capture(m.functions[0].body.ops[-2])
    interpret(m, "k", [np.arange(3, dtype=np.float32)], (1,), observer=cap)
    assert cap.results[0][0][0].tolist() == [0.0, 1.0, 0.0, 2.0]
    assert cap_op


def test_failing_assert_names_message_line_and_block():
    fb = FunctionBuilder("k", [])
    bx, _, _ = fb.block_id()
    ok = fb.op1(
        "cmpi",
        (bx, fb.c32(2)),
        scalar(I1),
        {"comparison_predicate": "less_than", "signedness": "signed"},
    )
    fb.op("assert", (ok,), (), {"message": "bx must stay below 2"})
    fb.ret()
    with pytest.raises(InterpretError, match=r"bx must stay below 2.*block \(2, 0, 0\)") as info:
        interpret(fb.module(), "k", [], (4,))
    assert "1 more block" in str(info.value) and info.value.where


def test_view_index_outside_the_index_space_is_refused():
    with pytest.raises(InterpretError, match="index space"):
        interpret(vadd_module(256, 128), "vadd", [np.zeros(256, np.float32)] * 3, (3,))


def test_tensor_bigger_than_its_buffer_is_refused():
    with pytest.raises(InterpretError, match="outside the buffer"):
        interpret(
            vadd_module(256, 128),
            "vadd",
            [np.zeros(200, np.float32), np.zeros(256, np.float32), np.zeros(256, np.float32)],
            (2,),
        )


def test_bad_arguments_are_refused():
    m = vadd_module(8, 8)
    with pytest.raises(InterpretError, match="1-D array of float32"):
        interpret(m, "vadd", [np.zeros(8)] * 3, (1,))
    with pytest.raises(InterpretError, match="no entry"):
        interpret(m, "nope", [], (1,))
    with pytest.raises(InterpretError, match="3 argument"):
        interpret(m, "vadd", [], (1,))


def test_constant_globals_refuse_writes():
    fb = FunctionBuilder("k", [])
    fb.add_global("c", np.array([1.0], np.float32), F32, constant=True)
    g = fb.op1("get_global", (), TileType((), PointerType(F32)), {"name": "c"})
    fb.op("store_ptr_tko", (g, fb.const(2.0, scalar(F32))), (TOKEN,), segments=(1, 1, 0, 0))
    fb.ret()
    with pytest.raises(InterpretError, match="constant global"):
        interpret(fb.module(), "k", [], (1,))


# ----------------------------------------------------------------------------- observer, purity


class _Log:
    def __init__(self):
        self.ops = []
        self.memory = []
        self.print_stream = io.StringIO()

    def after_op(self, op, results, block_ids):
        self.ops.append((op.name, [getattr(r, "shape", None) for r in results], block_ids.shape))

    def on_memory(self, op, kind, buffer, elements, block_ids, mask):
        self.memory.append((op.name, kind, buffer, elements.copy(), block_ids.copy(), mask.copy()))


def test_observer_sees_every_op_and_every_access():
    log = _Log()
    interpret(
        vadd_module(300, 128),
        "vadd",
        [np.zeros(300, np.float32) for _ in range(3)],
        (3,),
        observer=log,
    )
    names = [n for n, _, _ in log.ops]
    assert names.count("load_view_tko") == 2 and names[-1] == "return"
    addf = next(r for n, r, _ in log.ops if n == "addf")
    assert addf == [(3, 128)]
    assert all(shape == (3, 3) for _, _, shape in log.ops)
    kinds = [(n, k, buf) for n, k, buf, *_ in log.memory]
    assert kinds == [
        ("load_view_tko", "read", 0),
        ("load_view_tko", "read", 1),
        ("store_view_tko", "write", 2),
    ]
    _, _, _, elements, block_ids, mask = log.memory[2]
    assert elements.shape == (3, 128) and block_ids[:, 0].tolist() == [0, 1, 2]
    assert elements[2, 0] == 256 and mask[2].sum() == 300 - 256 and mask[:2].all()


def test_print_goes_to_the_observers_stream():
    fb = FunctionBuilder("k", [])
    bx, _, _ = fb.block_id()
    fb.op("print_tko", (bx,), (TOKEN,), {"format": "b=%d\n"}, segments=(1, 0))
    fb.ret()
    log = _Log()
    interpret(fb.module(), "k", [], (3,), observer=log)
    assert log.print_stream.getvalue() == "b=0\nb=1\nb=2\n"


def test_chunked_runs_agree_and_inputs_stay_untouched():
    rng = np.random.default_rng(4)
    a = rng.standard_normal(4096).astype(np.float32)
    b = rng.standard_normal(4096).astype(np.float32)
    keep = (a.copy(), b.copy())
    m = vadd_module(4096, 64)
    whole = interpret(m, "vadd", [a, b, np.zeros(4096, np.float32)], (64,))
    small = interpret(
        m, "vadd", [a, b, np.zeros(4096, np.float32)], (64,), max_chunk_bytes=1 << 12
    )
    assert np.array_equal(whole[2], small[2]) and np.array_equal(whole[2], a + b)
    assert np.array_equal(a, keep[0]) and np.array_equal(b, keep[1])
    assert whole[2].flags.writeable and not whole[0].flags.writeable


def test_one_array_passed_twice_is_one_buffer():
    fb = FunctionBuilder("k", [ptr(F32), ptr(F32)])
    v0 = fb.partition(fb.tensor_view(fb.params[0], (4,), (1,)), (4,))
    v1 = fb.partition(fb.tensor_view(fb.params[1], (4,), (1,)), (4,))
    z = fb.c32(0)
    fb.store_view(fb.const(5.0, tile((4,), F32)), v0, [z])
    x, _ = fb.load_view(v1, [z])
    fb.store_view(fb.binop("addf", x, x), v0, [z])
    fb.ret()
    buf = np.zeros(4, np.float32)
    res = interpret(fb.module(), "k", [buf, buf], (1,))
    assert res[0].tolist() == [10.0] * 4 and buf.tolist() == [0.0] * 4


def test_a_load_is_a_snapshot_even_when_the_buffer_changes_later():
    fb = FunctionBuilder("k", [ptr(F32)])
    v = fb.partition(fb.tensor_view(fb.params[0], (4,), (1,)), (4,))
    z = fb.c32(0)
    x, _ = fb.load_view(v, [z])
    fb.store_view(fb.const(1.0, tile((4,), F32)), v, [z])
    y, _ = fb.load_view(v, [z])
    fb.store_view(fb.binop("addf", x, y), v, [z])
    fb.ret()
    res = interpret(fb.module(), "k", [np.full(4, 3.0, np.float32)], (2,))
    assert res[0].tolist() == [4.0] * 4


def test_a_thousand_blocks_with_a_thousand_trip_counts():
    """Blocks leave a `for` one by one (more of them than Python's recursion limit)."""
    n = 1200
    fb = FunctionBuilder("k", [ptr(I32)])
    bx, _, _ = fb.block_id()
    one = fb.c32(1)
    (total,) = fb.for_loop(
        fb.c32(0), bx, one, [fb.c32(0)], lambda i, acc: [fb.binop("addi", acc, i)]
    )
    pv = fb.partition(fb.tensor_view(fb.params[0], (n,), (1,)), (1,))
    fb.store_view(fb.op1("reshape", (total,), tile((1,), I32)), pv, [bx])
    fb.ret()
    res = interpret(fb.module(), "k", [np.zeros(n, np.int32)], (n,))
    b = np.arange(n)
    assert res[0].tolist() == (b * (b - 1) // 2).tolist()
