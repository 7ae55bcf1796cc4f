"""Per-op cases: views, pointers, atomics, globals, alloca, tokens, control flow, print
(see interp_cases)."""

from __future__ import annotations

import io

import numpy as np

from support.interp_cases import Capture, case
from support.module_builder import FunctionBuilder, ptr, scalar, tile
from tileir.types import F32, F64, I1, I32, I64, TOKEN, PointerType, TileType


def _store_block_values(fb, out_param, n, value, index):
    """Store rank-0 ``value`` at element ``index`` of a 1-D buffer through a 1-wide view."""
    tv = fb.tensor_view(out_param, (n,), (1,))
    pv = fb.partition(tv, (1,))
    v1 = fb.op1("reshape", (value,), tile((1,), value.type.element))
    fb.store_view(v1, pv, [index])


@case(
    "make_tensor_view",
    "make_partition_view",
    "load_view_tko",
    "store_view_tko",
    "get_tensor_shape",
    "get_index_space_shape",
    "assume",
)
def views_dynamic_and_transposed(run):
    rows, cols = 6, 8
    fb = FunctionBuilder("k", [ptr(F32), scalar(I32), scalar(I32), ptr(F32)])
    x, nrows, stride, out = fb.params
    tok = fb.make_token()
    bx, by, _ = fb.block_id()
    xa = fb.assume_div(x)
    tv = fb.tensor_view(xa, (None, cols), (None, 1), dyn_shape=[nrows], dyn_strides=[stride])
    fb.op("get_tensor_shape", (tv,), (scalar(I64), scalar(I32)))  # in the module, unused
    # tile (4 x 2) whose dim 0 walks tensor dim 1: a transposed read
    pv = fb.partition(tv, (4, 2), padding="nan", dim_map=(1, 0))
    fb.op("get_index_space_shape", (pv,), (scalar(I32), scalar(I32)))  # likewise
    t, tok2 = fb.load_view(pv, [bx, by], tok)
    ov = fb.partition(
        fb.tensor_view(
            out,
            (None, None),
            (None, 1),
            dyn_shape=[fb.c32(2 * 4), fb.c32(3 * 2)],
            dyn_strides=[fb.c32(3 * 2)],
        ),
        (4, 2),
    )
    fb.store_view(t, ov, [bx, by], tok2)
    fb.ret()
    m = fb.module()
    xs = np.arange(rows * cols, dtype=np.float32)
    o = np.full(8 * 6, -1.0, np.float32)
    ops = m.functions[0].body.ops
    cap = Capture(*[op for op in ops if op.name in ("get_tensor_shape", "get_index_space_shape")])
    res = run(m, "k", [xs, np.int32(rows), np.int32(cols), o], (2, 3), observer=cap)
    assert [int(v[0]) for v in cap.results[0]] == [rows, cols]
    assert [int(v[0]) for v in cap.results[1]] == [2, 3]  # ceil(8/4), ceil(6/2)
    got = res[3].reshape(8, 6)
    want = np.full((8, 6), np.nan, np.float32)
    want[:, :rows] = xs.reshape(rows, cols).T  # tile (i, j) = x[2j:2j+2, 4i:4i+4].T
    assert np.array_equal(got, want, equal_nan=True)
    assert np.array_equal(xs, np.arange(rows * cols, dtype=np.float32))  # input untouched


@case("load_view_tko", "store_view_tko", "make_partition_view")
def padding_values(run):
    for pad, want in (
        ("zero", 0.0),
        ("neg_zero", -0.0),
        ("pos_inf", np.inf),
        ("neg_inf", -np.inf),
    ):
        fb = FunctionBuilder("k", [ptr(F64), ptr(F64)])
        bx, _, _ = fb.block_id()
        pv = fb.partition(fb.tensor_view(fb.params[0], (3,), (1,)), (4,), padding=pad)
        t, _ = fb.load_view(pv, [bx])
        ov = fb.partition(fb.tensor_view(fb.params[1], (4,), (1,)), (4,))
        fb.store_view(t, ov, [bx])
        fb.ret()
        res = run(fb.module(), "k", [np.array([1.0, 2.0, 3.0, 99.0]), np.zeros(4)], (1,))
        assert res[1][:3].tolist() == [1.0, 2.0, 3.0]
        assert res[1][3] == want and np.signbit(res[1][3]) == np.signbit(want)


@case("make_strided_view", "load_view_tko", "store_view_tko")
def strided_view_overlapping(run):
    # tiles of 4 stepping by 3 over 10 elements: index space ceil(10/3) = 4
    fb = FunctionBuilder("k", [ptr(I32), ptr(I32)])
    bx, _, _ = fb.block_id()
    sv = fb.strided(fb.tensor_view(fb.params[0], (10,), (1,)), (4,), (3,), padding="zero")
    t, _ = fb.load_view(sv, [bx])
    ov = fb.partition(fb.tensor_view(fb.params[1], (16,), (1,)), (4,))
    fb.store_view(t, ov, [bx])
    fb.ret()
    x = np.arange(10, dtype=np.int32) + 1
    res = run(fb.module(), "k", [x, np.zeros(16, np.int32)], (4,))
    assert res[1].reshape(4, 4).tolist() == [
        [1, 2, 3, 4],
        [4, 5, 6, 7],
        [7, 8, 9, 10],
        [10, 0, 0, 0],
    ]
    # stores through a strided view write only inside the tensor
    fb = FunctionBuilder("k", [ptr(I32)])
    bx, _, _ = fb.block_id()
    sv = fb.strided(fb.tensor_view(fb.params[0], (7,), (1,)), (2,), (3,))
    one = fb.const(np.array([5, 6], np.int32), tile((2,), I32))
    fb.store_view(one, sv, [bx])
    fb.ret()
    res = run(fb.module(), "k", [np.zeros(9, np.int32)], (3,))
    assert res[0].tolist() == [5, 6, 0, 5, 6, 0, 5, 0, 0]


@case("make_gather_scatter_view", "load_view_tko", "store_view_tko")
def gather_scatter_rows(run):
    fb = FunctionBuilder("k", [ptr(F32), ptr(F32)])
    tv = fb.tensor_view(fb.params[0], (5, 4), (4, 1))
    gv = fb.gather_view(tv, (4, 2), 0, padding="neg_inf")
    rows = fb.const(np.array([4, 0, 7, 2], np.int32), tile((4,), I32))
    t, _ = fb.load_view(gv, [rows, fb.c32(1)])  # rows 4,0,7,2; columns 1..2
    out_tv = fb.tensor_view(fb.params[1], (5, 4), (4, 1))
    sv = fb.gather_view(out_tv, (4, 2), 0)
    dest = fb.const(np.array([1, 3, 9, 0], np.int32), tile((4,), I32))
    fb.store_view(t, sv, [dest, fb.c32(2)])  # row 9 is past the extent: not written
    fb.ret()
    x = np.arange(20, dtype=np.float32)
    res = run(fb.module(), "k", [x, np.zeros(20, np.float32)], (1,))
    out = res[1].reshape(5, 4)
    assert out[1, 2:].tolist() == [17.0, 18.0]
    assert out[3, 2:].tolist() == [1.0, 2.0]
    assert out[0, 2:].tolist() == [9.0, 10.0]
    assert out[2].tolist() == [0.0] * 4 and out[4].tolist() == [0.0] * 4


@case(
    "offset",
    "load_ptr_tko",
    "store_ptr_tko",
    "ptr_to_int",
    "int_to_ptr",
    "ptr_to_ptr",
    "iota",
    "broadcast",
    "reshape",
)
def pointer_path(run):
    fb = FunctionBuilder("k", [ptr(F32), ptr(F32)])
    src, dst = fb.params
    pt = TileType((8,), PointerType(F32))
    base = fb.op1("broadcast", (fb.op1("reshape", (src,), TileType((1,), PointerType(F32))),), pt)
    idx = fb.op1("iota", (), tile((8,), I32))
    ptrs = fb.op1("offset", (base, idx), pt)
    mask = fb.const(np.array([1, 1, 1, 0, 1, 1, 1, 0], bool), tile((8,), I1))
    pad = fb.const(np.full(8, -5.0, np.float32), tile((8,), F32))
    v, tok = fb.op(
        "load_ptr_tko",
        (ptrs, mask, pad),
        (tile((8,), F32), TOKEN),
        {"memory_ordering": "weak"},
        segments=(1, 1, 1, 0),
    )
    # round-trip the destination pointer through i64 and another pointee type
    as_int = fb.op1("ptr_to_int", (dst,), scalar(I64))
    back = fb.op1("int_to_ptr", (as_int,), TileType((), PointerType(I32)))
    dptr = fb.op1("ptr_to_ptr", (back,), TileType((), PointerType(F32)))
    dbase = fb.op1(
        "broadcast", (fb.op1("reshape", (dptr,), TileType((1,), PointerType(F32))),), pt
    )
    rev = fb.op1(
        "subi", (fb.const(np.full(8, 7, np.int32), tile((8,), I32)), idx), tile((8,), I32)
    )
    dptrs = fb.op1("offset", (dbase, rev), pt)
    fb.op(
        "store_ptr_tko",
        (dptrs, v, tok),
        (TOKEN,),
        {"memory_ordering": "weak"},
        segments=(1, 1, 0, 1),
    )
    fb.ret()
    x = np.arange(8, dtype=np.float32) * 10
    res = run(fb.module(), "k", [x, np.zeros(8, np.float32)], (1,))
    want = np.where([1, 1, 1, 0, 1, 1, 1, 0], x, -5.0)[::-1]
    assert res[1].tolist() == want.tolist()
    assert res[0].flags.writeable is False  # not written: a read-only view of the input


@case("alloca", "store_ptr_tko", "load_ptr_tko", "get_tile_block_id")
def alloca_is_per_block(run):
    fb = FunctionBuilder("k", [ptr(I32)])
    bx, _, _ = fb.block_id()
    p = fb.op1("alloca", (), TileType((), PointerType(I32)), {"num_elem": 4, "alignment": 16})
    fb.op("store_ptr_tko", (p, bx), (TOKEN,), segments=(1, 1, 0, 0))
    v, _ = fb.op("load_ptr_tko", (p,), (scalar(I32), TOKEN), segments=(1, 0, 0, 0))
    _store_block_values(fb, fb.params[0], 4, v, bx)
    fb.ret()
    res = run(fb.module(), "k", [np.full(4, -1, np.int32)], (4,))
    assert res[0].tolist() == [0, 1, 2, 3]


@case("get_global", "load_ptr_tko", "store_ptr_tko", "atomic_rmw_tko")
def globals_are_memory(run):
    fb = FunctionBuilder("k", [ptr(F32)])
    fb.add_global("table", np.array([1.5, 2.5, 3.5], np.float32), F32, constant=True)
    fb.add_global("count", np.array([0], np.int32), I32)
    bx, _, _ = fb.block_id()
    g = fb.op1("get_global", (), TileType((), PointerType(F32)), {"name": "table"})
    gp = fb.op1("offset", (g, bx), TileType((), PointerType(F32)))
    v, _ = fb.op("load_ptr_tko", (gp,), (scalar(F32), TOKEN), segments=(1, 0, 0, 0))
    c = fb.op1("get_global", (), TileType((), PointerType(I32)), {"name": "count"})
    old, _ = fb.op(
        "atomic_rmw_tko",
        (c, fb.c32(1)),
        (scalar(I32), TOKEN),
        {"memory_ordering": "relaxed", "memory_scope": "device", "mode": "add"},
        segments=(1, 1, 0, 0),
    )
    total = fb.op1("itof", (old,), scalar(F32), {"signedness": "signed"})
    _store_block_values(fb, fb.params[0], 6, v, bx)
    three = fb.c32(3)
    _store_block_values(fb, fb.params[0], 6, total, fb.binop("addi", bx, three))
    fb.ret()
    res = run(fb.module(), "k", [np.zeros(6, np.float32)], (3,))
    assert res[0][:3].tolist() == [1.5, 2.5, 3.5]
    assert sorted(res[0][3:].tolist()) == [0.0, 1.0, 2.0]


def _rmw_module(mode, fmt, n_lanes, n_cells):
    fb = FunctionBuilder("k", [ptr(fmt), ptr(I32), ptr(fmt), ptr(fmt)])
    mem, where, vals, olds = fb.params
    bx, _, _ = fb.block_id()
    view = lambda p, f: fb.partition(  # noqa: E731 - a one-line view maker
        fb.tensor_view(
            p,
            (None,),
            (1,),
            dyn_shape=[  # noqa: E731
                fb.c32(1 << 20)
            ],
        ),
        (n_lanes,),
    )
    w, _ = fb.load_view(view(where, I32), [bx])
    v, _ = fb.load_view(view(vals, fmt), [bx])
    pt = TileType((n_lanes,), PointerType(fmt))
    base = fb.op1("broadcast", (fb.op1("reshape", (mem,), TileType((1,), PointerType(fmt))),), pt)
    ptrs = fb.op1("offset", (base, w), pt)
    old, _ = fb.op(
        "atomic_rmw_tko",
        (ptrs, v),
        (tile((n_lanes,), fmt), TOKEN),
        {"memory_ordering": "relaxed", "memory_scope": "device", "mode": mode},
        segments=(1, 1, 0, 0),
    )
    fb.store_view(old, view(olds, fmt), [bx])
    fb.ret()
    return fb.module()


@case("atomic_rmw_tko")
def atomic_modes_with_collisions(run):
    rng = np.random.default_rng(5)
    blocks, lanes, cells = 4, 8, 3
    where = rng.integers(0, cells, blocks * lanes).astype(np.int32)
    for mode, fmt, dt in (
        ("add", I32, np.int32),
        ("addf", F32, np.float32),
        ("max", I32, np.int32),
        ("min", I32, np.int32),
        ("umax", I32, np.int32),
        ("umin", I32, np.int32),
        ("and", I32, np.int32),
        ("or", I32, np.int32),
        ("xor", I32, np.int32),
        ("xchg", I32, np.int32),
        ("add", I64, np.int64),
    ):
        vals = rng.integers(-50, 50, blocks * lanes).astype(dt)
        init = rng.integers(-5, 5, cells).astype(dt)
        res = run(
            _rmw_module(mode, fmt, lanes, cells),
            "k",
            [init, where, vals, np.zeros(blocks * lanes, dt)],
            (blocks,),
        )
        # a serial reference in lane-major order (block, then lane)
        mem = init.copy()
        olds = np.zeros_like(vals)
        for i in range(blocks * lanes):
            a, v = where[i], vals[i]
            olds[i] = mem[a]
            o = mem[a]
            if mode in ("add", "addf"):
                mem[a] = o + v
            elif mode in ("max", "min"):
                mem[a] = max(o, v) if mode == "max" else min(o, v)
            elif mode in ("umax", "umin"):
                uo, uv = int(o) & 0xFFFFFFFF, int(v) & 0xFFFFFFFF
                mem[a] = o if (uo >= uv if mode == "umax" else uo <= uv) else v
            elif mode == "and":
                mem[a] = o & v
            elif mode == "or":
                mem[a] = o | v
            elif mode == "xor":
                mem[a] = o ^ v
            else:
                mem[a] = v
        assert res[0].tolist() == mem.tolist(), mode
        assert res[3].tolist() == olds.tolist(), mode


@case("atomic_cas_tko")
def compare_and_swap(run):
    fb = FunctionBuilder("k", [ptr(I32), ptr(I32)])
    mem, out = fb.params
    bx, _, _ = fb.block_id()
    pt = TileType((2,), PointerType(I32))
    base = fb.op1("broadcast", (fb.op1("reshape", (mem,), TileType((1,), PointerType(I32))),), pt)
    ptrs = fb.op1("offset", (base, fb.const(np.array([0, 1], np.int32), tile((2,), I32))), pt)
    cmp = fb.op1("broadcast", (fb.op1("reshape", (bx,), tile((1,), I32)),), tile((2,), I32))
    one = fb.const(np.ones(2, np.int32), tile((2,), I32))
    new = fb.binop("addi", cmp, one)
    mask = fb.const(np.array([True, False]), tile((2,), I1))
    old, _ = fb.op(
        "atomic_cas_tko",
        (ptrs, cmp, new, mask),
        (tile((2,), I32), TOKEN),
        {"memory_ordering": "acq_rel", "memory_scope": "device"},
        segments=(1, 1, 1, 1, 0),
    )
    ov = fb.partition(fb.tensor_view(out, (8,), (1,)), (2,))
    fb.store_view(old, ov, [bx])
    fb.ret()
    res = run(fb.module(), "k", [np.zeros(2, np.int32), np.full(8, -9, np.int32)], (4,))
    # block k swaps k -> k+1 when it finds k: serially every block succeeds in turn
    assert res[0].tolist() == [4, 0]
    assert res[1].reshape(4, 2)[:, 0].tolist() == [0, 1, 2, 3]
    assert res[1].reshape(4, 2)[:, 1].tolist() == [0, 1, 2, 3]  # masked lane: cmp back


@case("atomic_red_view_tko")
def atomic_reduction_through_a_view(run):
    fb = FunctionBuilder("k", [ptr(F32)])
    pv = fb.partition(fb.tensor_view(fb.params[0], (6,), (1,)), (4,))
    vals = fb.const(np.array([1.0, 2.0, 3.0, 4.0], np.float32), tile((4,), F32))
    bx, _, _ = fb.block_id()
    half = fb.binop("divi", bx, fb.c32(2), signedness="signed")
    fb.op(
        "atomic_red_view_tko",
        (pv, half, vals),
        (TOKEN,),
        {"memory_ordering": "relaxed", "memory_scope": "device", "mode": "addf"},
        segments=(1, 1, 1, 0),
    )
    fb.ret()
    res = run(fb.module(), "k", [np.zeros(8, np.float32)], (4,))
    # blocks 0, 1 add into tile 0; blocks 2, 3 into tile 1 (elements 4, 5 inside the tensor)
    assert res[0].tolist() == [2.0, 4.0, 6.0, 8.0, 2.0, 4.0, 0.0, 0.0]


@case(
    "make_token",
    "join_tokens",
    "gdc_wait_tko",
    "gdc_launch_dependents_tko",
    "memory_fence_alias_tko",
    "get_num_tile_blocks",
    "print_tko",
)
def tokens_and_print(run):
    fb = FunctionBuilder("k", [])
    t0 = fb.make_token()
    t1 = fb.op1("gdc_wait_tko", (t0,), TOKEN)
    t2 = fb.op1("gdc_launch_dependents_tko", (), TOKEN)
    t3 = fb.op1("join_tokens", (t1, t2), TOKEN)
    t4 = fb.op1("memory_fence_alias_tko", (t3,), TOKEN)
    nx, ny, nz = fb.num_blocks()
    bx, by, _ = fb.block_id()
    row = fb.const(np.array([1.5, -2.0], np.float32), tile((2,), F32))
    fb.op(
        "print_tko",
        (bx, by, nx, ny, nz, row, t4),
        (TOKEN,),
        {"format": "block %d,%d of %dx%dx%d: %.2f %%\n"},
        segments=(6, 1),
    )
    fb.ret()
    stream = io.StringIO()
    run(fb.module(), "k", [], (2, 2), stream=stream)
    lines = stream.getvalue().splitlines()
    assert lines == [
        f"block {x},{y} of 2x2x1: [1.50, -2.00] %" for y in range(2) for x in range(2)
    ]


# ----------------------------------------------------------------------------- control flow


@case("for", "continue", "if", "yield", "loop", "break", "return", "cmpi")
def divergent_control_flow(run):
    """Per-block trip counts, per-block if, breaks at different trips, early return."""
    fb = FunctionBuilder("k", [ptr(I32)])
    out = fb.params[0]
    bx, _, _ = fb.block_id()
    zero, one, two = fb.c32(0), fb.c32(1), fb.c32(2)

    def body(i, acc):  # sum of 0..bx-1, but skip odd i through an early `continue`
        odd = fb.op1(
            "cmpi",
            (fb.binop("remi", i, two, signedness="signed"), one),
            scalar(I1),
            {"comparison_predicate": "equal", "signedness": "signed"},
        )
        fb.if_(odd, lambda: fb.op("continue", (acc,), ()), lambda: fb.op("yield", (), ()))
        return [fb.binop("addi", acc, i)]

    (total,) = fb.for_loop(zero, bx, one, [zero], body)

    def lbody(n):  # count up until n * n >= bx + 5, breaking at a per-block trip
        sq = fb.binop("muli", n, n)
        lim = fb.binop("addi", bx, fb.c32(5))
        done = fb.op1(
            "cmpi",
            (sq, lim),
            scalar(I1),
            {"comparison_predicate": "greater_than_or_equal", "signedness": "signed"},
        )
        fb.if_(done, lambda: fb.op("break", (n,), ()), lambda: fb.op("yield", (), ()))
        fb.op("continue", (fb.binop("addi", n, one),), ())

    (root,) = fb.loop([zero], lbody)
    even = fb.op1(
        "cmpi",
        (fb.binop("remi", bx, two, signedness="signed"), zero),
        scalar(I1),
        {"comparison_predicate": "equal", "signedness": "signed"},
    )
    (picked,) = fb.if_(
        even,
        lambda: fb.op("yield", (total,), ()),
        lambda: fb.op("yield", (fb.unop("negi", root),), ()),
        result_types=(scalar(I32),),
    )
    _store_block_values(fb, out, 16, picked, bx)
    # blocks >= 6 return early: they never write their second slot
    late = fb.op1(
        "cmpi",
        (bx, fb.c32(6)),
        scalar(I1),
        {"comparison_predicate": "greater_than_or_equal", "signedness": "signed"},
    )
    fb.if_(late, lambda: fb.ret(), lambda: fb.op("yield", (), ()))
    _store_block_values(fb, out, 16, root, fb.binop("addi", bx, fb.c32(8)))
    fb.ret()
    res = run(fb.module(), "k", [np.full(16, -99, np.int32)], (8,))
    want_total = [sum(i for i in range(b) if i % 2 == 0) for b in range(8)]
    want_root = [int(np.ceil(np.sqrt(b + 5))) for b in range(8)]
    first = [want_total[b] if b % 2 == 0 else -want_root[b] for b in range(8)]
    assert res[0][:8].tolist() == first
    assert res[0][8:].tolist() == want_root[:6] + [-99, -99]


@case("for", "if")
def for_uniform_and_unsigned(run):
    fb = FunctionBuilder("k", [ptr(I64)])
    lb = fb.const(-3, scalar(I64))
    ub = fb.const(10, scalar(I64))
    st = fb.const(4, scalar(I64))
    z = fb.const(0, scalar(I64))
    (s,) = fb.for_loop(lb, ub, st, [z], lambda i, acc: [fb.binop("addi", acc, i)])
    (u,) = fb.for_loop(
        z, ub, st, [z], lambda i, acc: [fb.binop("addi", acc, i)], unsigned_cmp=True
    )
    bx, _, _ = fb.block_id()
    _store_block_values(fb, fb.params[0], 2, s, fb.c32(0))
    _store_block_values(fb, fb.params[0], 2, u, fb.c32(1))
    fb.ret()
    res = run(fb.module(), "k", [np.zeros(2, np.int64)], (1,))
    assert res[0].tolist() == [-3 + 1 + 5 + 9, 0 + 4 + 8]


@case("assert")
def assertion_passes(run):
    fb = FunctionBuilder("k", [])
    fb.op("assert", (fb.const(np.ones(4, bool), tile((4,), I1)),), (), {"message": "fine"})
    fb.ret()
    run(fb.module(), "k", [], (3,))


@case("load_view_tko", "store_view_tko", "ftof", "exti", "trunci")
def narrow_format_buffers(run):
    import ml_dtypes

    from tileir.types import BF16, F8E4M3FN, I4, I8

    fb = FunctionBuilder("k", [ptr(BF16), ptr(F8E4M3FN), ptr(I4), ptr(F32), ptr(I8)])
    bx, _, _ = fb.block_id()
    p = fb.params

    def view(param, n, tile_n, pad=None):
        return fb.partition(fb.tensor_view(param, (n,), (1,)), (tile_n,), padding=pad)

    b16, _ = fb.load_view(view(p[0], 3, 4, "nan"), [bx])
    e4, _ = fb.load_view(view(p[1], 4, 4), [bx])
    i4, _ = fb.load_view(view(p[2], 4, 4), [bx])
    wide = fb.binop(
        "addf", fb.op1("ftof", (b16,), tile((4,), F32)), fb.op1("ftof", (e4,), tile((4,), F32))
    )
    fb.store_view(wide, view(p[3], 4, 4), [bx])
    i8 = fb.op1("exti", (i4,), tile((4,), I8), {"signedness": "signed"})
    fb.store_view(i8, view(p[4], 4, 4), [bx])
    doubled = fb.binop("addi", i8, i8)
    fb.store_view(fb.op1("trunci", (doubled,), tile((4,), I4)), view(p[2], 4, 4), [bx])
    fb.ret()
    res = run(
        fb.module(),
        "k",
        [
            np.array([1.5, -2.0, 0.25, 7.0], ml_dtypes.bfloat16),
            np.array([0.5, 1.0, 2.0, 448.0], ml_dtypes.float8_e4m3fn),
            np.array([-8, 7, -1, 3], ml_dtypes.int4),
            np.zeros(4, np.float32),
            np.zeros(4, np.int8),
        ],
        (1,),
    )
    assert res[3][:3].tolist() == [2.0, -1.0, 2.25] and np.isnan(res[3][3])
    assert res[4].tolist() == [-8, 7, -1, 3]
    assert res[2].dtype == ml_dtypes.int4 and res[2].tolist() == [0, -2, -2, 6]  # wraps in i4


@case("multimem_load_reduce_view_tko", "multimem_reduce_view_tko", "multimem_store_view_tko")
def multimem_on_three_replicas(run):
    from tileir.types import PartitionViewType, TensorViewType

    mc = PointerType(I32, "multicast")
    fb = FunctionBuilder("k", [TileType((), mc), TileType((), mc)])
    views = []
    for p in fb.params:
        tv_t = TensorViewType(I32, (8,), (1,), "multicast")
        (tv,) = fb.op("make_tensor_view", (p,), (tv_t,), segments=(1, 0, 0))
        pv_t = PartitionViewType((4,), tv_t, (0,), None)
        views.append(fb.op("make_partition_view", (tv,), (pv_t,))[0])
    src, dst = views
    bx, _, _ = fb.block_id()
    t, tok = fb.op(
        "multimem_load_reduce_view_tko",
        (src, bx),
        (tile((4,), I32), TOKEN),
        {"memory_ordering": "weak", "reduction": "umax"},
        segments=(1, 1, 0),
    )
    (tok,) = fb.op(
        "multimem_store_view_tko",
        (dst, t, bx, tok),
        (TOKEN,),
        {"memory_ordering": "weak"},
        segments=(1, 1, 1, 1),
    )
    fb.op(
        "multimem_reduce_view_tko",
        (dst, t, bx, tok),
        (TOKEN,),
        {"memory_ordering": "relaxed", "memory_scope": "device", "reduction": "add"},
        segments=(1, 1, 1, 1),
    )
    fb.ret()
    x = np.array([[1, -1, 5, 0, 7, 2, 3, 4], [2, 3, -5, 0, 1, 9, 3, 8], [0, 0, 0, 1, 6, 6, 6, 6]])
    res = run(
        fb.module(), "k", [x.astype(np.int32).reshape(-1), np.zeros(24, np.int32)], (2,), devices=3
    )
    u = x.astype(np.int32).view(np.uint32).max(axis=0).view(np.int32)
    # every replica of dst got the stored tile, then the tile added once more
    assert res[1].reshape(3, 8).tolist() == [list(u * 2)] * 3
