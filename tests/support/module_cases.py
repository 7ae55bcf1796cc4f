"""Hand-built Modules that use every body op of the dialect, each one valid.

``tileirdisasm`` verifies what it reads, so every case here has been accepted
by it (through cuTile's writer, tests/support/oracle_cutile.py).  The render tests
compare our text with its text; the verifier tests use them as modules that
must pass; the encoder's tests may use them as round-trip material.

``CASES`` maps a case name to a function answering a Module; ``ALL_CASES``
builds them all.
"""

from __future__ import annotations

import numpy as np

from support.hand_module import FnBuilder
from tileir.ir.module import (
    Bounded,
    Dense,
    DivBy,
    Global,
    Hints,
    Loc,
    Module,
    SameElements,
    ScalarAttr,
)
from tileir.ir.numerics import dense_of
from tileir.types import (
    BF16,
    F8E4M3FN,
    F8E8M0FNU,
    F16,
    F32,
    F64,
    I1,
    I8,
    I16,
    I32,
    I64,
    TF32,
    TOKEN,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
)

T = TileType
S_I32, S_I64, S_I1, S_F32 = T((), I32), T((), I64), T((), I1), T((), F32)
PTR_F32 = T((), PointerType(F32))


def _const(b, t, v):
    return b.op("constant", [], [t], value=dense_of(t, v))


def float_ops() -> Module:
    f16 = T((16,), F32)
    b = FnBuilder("float_ops", [PTR_F32, S_I32])
    x = _const(b, f16, 1.5)
    y = _const(b, f16, list(range(16)))
    for name in ("addf", "subf", "mulf", "divf"):
        b.op(name, [x, y], [f16])
        b.op(name, [x, y], [f16], rounding="positive_inf")
        b.op(name, [x, y], [f16], flush_to_zero=True)
    b.op("divf", [x, y], [f16], rounding="approx", flush_to_zero=True)
    b.op("fma", [x, y, x], [f16], rounding="zero")
    b.op("fma", [x, y, x], [f16])
    b.op("fma", [x, y, x], [f16], flush_to_zero=True)
    for name in ("remf", "atan2", "fpowf"):
        b.op(name, [x, y], [f16])
    b.op("maxf", [x, y], [f16])
    b.op("maxf", [x, y], [f16], propagate_nan=True)
    b.op("minf", [x, y], [f16], propagate_nan=True, flush_to_zero=True)
    b.op("minf", [x, y], [f16], flush_to_zero=True)
    for name in (
        "negf",
        "absf",
        "exp",
        "log",
        "log2",
        "sin",
        "cos",
        "tan",
        "sinh",
        "cosh",
        "tanh",
        "ceil",
        "floor",
        "exp2",
        "sqrt",
        "rsqrt",
    ):
        b.op(name, [x], [f16])
    b.op("exp", [x], [f16], rounding="approx")
    b.op("tanh", [x], [f16], rounding="approx")
    b.op("exp2", [x], [f16], flush_to_zero=True)
    b.op("sqrt", [x], [f16], rounding="approx", flush_to_zero=True)
    b.op("sqrt", [x], [f16], flush_to_zero=True)
    b.op("rsqrt", [x], [f16], flush_to_zero=True)
    e = b.op("iota", [], [T((16,), I32)])
    b.op("fpowi", [x, e], [f16])
    d = T((8,), F64)
    z = _const(b, d, 0.25)
    b.op("addf", [z, z], [d], rounding="negative_inf")
    return Module((b.finish(),))


def int_ops() -> Module:
    i16 = T((16,), I32)
    b = FnBuilder("int_ops", [S_I32])
    i = _const(b, i16, 3)
    j = b.op("iota", [], [i16])
    for name in ("addi", "subi", "muli", "shli"):
        b.op(name, [i, j], [i16])
        b.op(name, [i, j], [i16], overflow="no_wrap")
    for name in ("shri", "remi", "maxi", "mini"):
        b.op(name, [i, j], [i16])
        b.op(name, [i, j], [i16], signedness="unsigned")
    b.op("divi", [i, j], [i16])
    b.op("divi", [i, j], [i16], signedness="unsigned", rounding="positive_inf")
    b.op("divi", [i, j], [i16], rounding="negative_inf")
    b.op("negi", [i], [i16])
    b.op("negi", [i], [i16], overflow="no_signed_wrap")
    for name in ("mulhii", "andi", "ori", "xori"):
        b.op(name, [i, j], [i16])
    b.op("absi", [i], [i16])
    b.op("addi", [b.params[0], b.params[0]], [S_I32], overflow="no_unsigned_wrap")
    return Module((b.finish(),))


def convert_ops() -> Module:
    f16, i16, b16 = T((16,), F32), T((16,), I32), T((16,), I1)
    b = FnBuilder("convert_ops", [])
    x = _const(b, f16, 2.0)
    y = _const(b, f16, -1.0)
    i = b.op("iota", [], [i16])
    c = b.op("cmpf", [x, y], [b16], comparison_predicate="less_than")
    b.op("cmpf", [x, y], [b16], comparison_predicate="equal", comparison_ordering="unordered")
    b.op("cmpi", [i, i], [b16], comparison_predicate="greater_than_or_equal")
    b.op("cmpi", [i, i], [b16], comparison_predicate="not_equal", signedness="unsigned")
    b.op("select", [c, x, y], [f16])
    b.op("ftof", [x], [T((16,), BF16)])
    b.op("ftof", [x], [T((16,), F16)], rounding="zero")
    b.op("ftof", [x], [T((16,), TF32)], rounding="nearest_away")
    b.op("ftoi", [x], [i16])
    b.op("ftoi", [x], [i16], signedness="unsigned", saturating=True)
    b.op("ftoi", [x], [i16], saturating=True)
    b.op("itof", [i], [f16])
    b.op("itof", [i], [f16], signedness="unsigned")
    b.op("exti", [i], [T((16,), I64)])
    b.op("exti", [i], [T((16,), I64)], signedness="unsigned")
    b.op("trunci", [i], [T((16,), I8)])
    b.op("trunci", [i], [T((16,), I16)], overflow="no_unsigned_wrap")
    b.op("bitcast", [x], [i16])
    flat = b.op("reshape", [x], [T((2, 8), F32)])
    packed = b.op("pack", [b.op("reshape", [flat], [T((16,), F32)])], [T((64,), I8)])
    b.op("unpack", [packed], [T((16,), F32)])
    return Module((b.finish(),))


def memory_ops() -> Module:
    b = FnBuilder(
        "memory_ops",
        [PTR_F32, S_I32, S_I32, S_I64],
        hints=Hints((("sm_90", (("occupancy", 2), ("num_cta_in_cga", 2))), ("default", ()))),
    )
    p, n, s, n64 = b.params
    tok = b.op("make_token", [], [TOKEN])
    a1 = b.op("assume", [p], [p.type], predicate=DivBy(16))
    b.op("assume", [n], [n.type], predicate=Bounded(0, None))
    b.op("assume", [n], [n.type], predicate=Bounded(None, 100))
    b.op("assume", [n], [n.type], predicate=Bounded(-5, 1000))
    grid = b.op("reshape", [b.op("iota", [], [T((8,), I32)])], [T((2, 4), I32)])
    b.op("assume", [grid], [grid.type], predicate=DivBy(4, 4, 1))
    b.op("assume", [grid], [grid.type], predicate=SameElements((2, 4)))
    tv_t = TensorViewType(F32, (None, 128), (None, 1))
    tv = b.op("make_tensor_view", [a1, n, s], [tv_t], segments=(1, 1, 1))
    b.op("assume", [tv], [tv_t], predicate=DivBy(16))
    b.op("make_tensor_view", [a1], [TensorViewType(F32, (64, 128), (128, 1))], segments=(1, 0, 0))
    b.op("make_tensor_view", [a1], [TensorViewType(F32, (), ())], segments=(1, 0, 0))
    tv1_t = TensorViewType(F32, (None,), (None,))
    tv1 = b.op("make_tensor_view", [a1, n64, n64], [tv1_t], segments=(1, 1, 1))
    pv_t = PartitionViewType((16, 32), tv_t, (0, 1), None)
    pv = b.op("make_partition_view", [tv], [pv_t])
    b.op("make_partition_view", [tv], [PartitionViewType((32, 16), tv_t, (1, 0), "neg_inf")])
    bx, by, _bz = b.op("get_tile_block_id", [], [S_I32] * 3)
    b.op("get_num_tile_blocks", [], [S_I32] * 3)
    b.op("get_tensor_shape", [tv], [S_I32] * 2)
    b.op("get_index_space_shape", [pv], [S_I32] * 2)
    t16 = T((16, 32), F32)
    t, tk = b.op("load_view_tko", [pv, bx, by], [t16, TOKEN], segments=(1, 2, 0))
    b.op(
        "load_view_tko",
        [pv, bx, by, tok],
        [t16, TOKEN],
        segments=(1, 2, 1),
        memory_ordering="acquire",
        memory_scope="device",
        optimization_hints=Hints((("default", (("latency", 3), ("allow_tma", False))),)),
        inbounds=(True, False),
    )
    b.op(
        "load_view_tko",
        [pv, bx, by, tok],
        [t16, TOKEN],
        segments=(1, 2, 1),
        inbounds=(False, False),
    )
    st = b.op("store_view_tko", [t, pv, bx, by, tk], [TOKEN], segments=(1, 1, 2, 1))
    b.op(
        "store_view_tko",
        [t, pv, bx, by],
        [TOKEN],
        segments=(1, 1, 2, 0),
        memory_ordering="release",
        memory_scope="sys",
        inbounds=(True, True),
        optimization_hints=Hints((("sm_90", (("allow_tma", True),)),)),
    )
    b.op("make_strided_view", [tv1], [StridedViewType((16,), (8,), tv1_t, (0,), "zero")])
    gs_t = GatherScatterViewType((16,), tv1_t, 0, None)
    gs = b.op("make_gather_scatter_view", [tv1], [gs_t])
    rows = b.op("iota", [], [T((16,), I32)])
    g, gt = b.op("load_view_tko", [gs, rows], [T((16,), F32), TOKEN], segments=(1, 1, 0))
    b.op("store_view_tko", [g, gs, rows, gt], [TOKEN], segments=(1, 1, 1, 1))
    pt = T((16,), PointerType(F32))
    pb = b.op("broadcast", [b.op("reshape", [a1], [T((1,), PointerType(F32))])], [pt])
    ptrs = b.op("offset", [pb, rows], [pt])
    mask = _const(b, T((16,), I1), True)
    pad = _const(b, T((16,), F32), 0.0)
    r, rt = b.op("load_ptr_tko", [ptrs], [T((16,), F32), TOKEN], segments=(1, 0, 0, 0))
    b.op(
        "load_ptr_tko",
        [ptrs, mask, pad, tok],
        [T((16,), F32), TOKEN],
        segments=(1, 1, 1, 1),
        memory_ordering="acquire",
        memory_scope="device",
        optimization_hints=Hints((("default", (("latency", 2),)),)),
    )
    b.op("load_ptr_tko", [ptrs, mask, tok], [T((16,), F32), TOKEN], segments=(1, 1, 0, 1))
    b.op("store_ptr_tko", [ptrs, r], [TOKEN], segments=(1, 1, 0, 0))
    b.op(
        "store_ptr_tko",
        [ptrs, r, mask, rt],
        [TOKEN],
        segments=(1, 1, 1, 1),
        memory_ordering="relaxed",
        memory_scope="tl_blk",
    )
    b.op(
        "atomic_rmw_tko",
        [ptrs, r],
        [T((16,), F32), TOKEN],
        segments=(1, 1, 0, 0),
        memory_ordering="relaxed",
        memory_scope="device",
        mode="addf",
    )
    b.op(
        "atomic_rmw_tko",
        [ptrs, r, mask, tok],
        [T((16,), F32), TOKEN],
        segments=(1, 1, 1, 1),
        memory_ordering="acq_rel",
        memory_scope="sys",
        mode="xchg",
    )
    b.op(
        "atomic_cas_tko",
        [ptrs, r, r],
        [T((16,), F32), TOKEN],
        segments=(1, 1, 1, 0, 0),
        memory_ordering="relaxed",
        memory_scope="device",
    )
    b.op(
        "atomic_cas_tko",
        [ptrs, r, r, mask, tok],
        [T((16,), F32), TOKEN],
        segments=(1, 1, 1, 1, 1),
        memory_ordering="acquire",
        memory_scope="tl_blk",
    )
    b.op(
        "atomic_red_view_tko",
        [pv, bx, by, t],
        [TOKEN],
        segments=(1, 2, 1, 0),
        memory_ordering="relaxed",
        memory_scope="device",
        mode="addf",
    )
    b.op(
        "atomic_red_view_tko",
        [pv, bx, by, t, tok],
        [TOKEN],
        segments=(1, 2, 1, 1),
        memory_scope="tl_blk",
        mode="addf",
    )
    b.op("alloca", [], [PTR_F32], num_elem=64, alignment=16)
    b.op("alloca", [], [PTR_F32], num_elem=64, alignment=16, global_=True)
    b.op("join_tokens", [tk, st], [TOKEN])
    w = b.op("gdc_wait_tko", [], [TOKEN])
    b.op("gdc_wait_tko", [w], [TOKEN])
    ld = b.op("gdc_launch_dependents_tko", [], [TOKEN])
    ld2 = b.op("gdc_launch_dependents_tko", [ld], [TOKEN])
    b.op("memory_fence_alias_tko", [ld2], [TOKEN])
    b.op("get_global", [], [PTR_F32], name="table")
    b.op("get_global", [], [T((), PointerType(I32))], name="counts")
    ints = b.op("ptr_to_int", [pb], [T((16,), I64)])
    back = b.op("int_to_ptr", [ints], [pt])
    b.op("ptr_to_ptr", [back], [T((16,), PointerType(I32))])
    flag = _const(b, S_I1, True)
    b.op("assert", [flag], [], message='boom "q"\n\\ é')
    b.op("print_tko", [n, s], [TOKEN], segments=(2, 0), format="v=%d %d\n")
    b.op("print_tko", [n, tok], [TOKEN], segments=(1, 1), format="v=%d")
    b.op("print_tko", [tok], [TOKEN], segments=(0, 1), format="only a token")
    b.op("print_tko", [], [TOKEN], segments=(0, 0), format="hello")
    globals_ = (
        Global("table", dense_of(T((2,), F32), [1.0, 2.0]), 16, True, "public"),
        Global("counts", dense_of(T((4,), I32), [1, 2, 3, 4]), 8, False, "private"),
        Global("zeros", dense_of(T((8,), F64), 0.0), 0, False, "public"),
        Global("masks", dense_of(T((2,), F16), 1.0), 64, True, "private"),
    )
    return Module((b.finish(),), globals=globals_, producer="tileir tests")


def multimem_ops() -> Module:
    """The 13.5 additions: the three multimem ops (formats, orderings, scopes, reductions,
    inbounds, with and without a token), unicast and multicast pointers, and
    atomic_red_view_tko's inbounds."""
    mc_f16, mc_i32 = T((), PointerType(F16, "multicast")), T((), PointerType(I32, "multicast"))
    uni = T((), PointerType(F32, "unicast"))
    b = FnBuilder("multimem_ops", [mc_f16, mc_i32, uni, T((), PointerType(I32))])
    ph, pi, pu, plain = b.params
    tok = b.op("make_token", [], [TOKEN])
    bx, by, _bz = b.op("get_tile_block_id", [], [S_I32] * 3)
    views = []
    for ptr, fmt in ((ph, F16), (pi, I32)):
        tv_t = TensorViewType(fmt, (64, 64), (64, 1), "multicast")
        tv = b.op("make_tensor_view", [ptr], [tv_t], segments=(1, 0, 0))
        pv_t = PartitionViewType((8, 16), tv_t, (0, 1), None)
        views.append((b.op("make_partition_view", [tv], [pv_t]), T((8, 16), fmt)))
    (hv, ht), (iv, it) = views
    lr = "multimem_load_reduce_view_tko"
    h, t1 = b.op(lr, [hv, bx, by], [ht, TOKEN], segments=(1, 2, 0))
    b.op(
        lr,
        [hv, bx, by, t1],
        [ht, TOKEN],
        segments=(1, 2, 1),
        memory_ordering="relaxed",
        memory_scope="device",
        reduction="min",
    )
    i, t2 = b.op(
        lr,
        [iv, bx, by, tok],
        [it, TOKEN],
        segments=(1, 2, 1),
        memory_ordering="acquire",
        memory_scope="sys",
        reduction="umax",
        inbounds=(True, False),
    )
    rd = "multimem_reduce_view_tko"
    t3 = b.op(rd, [hv, h, bx, by], [TOKEN], segments=(1, 1, 2, 0), memory_scope="device")
    b.op(
        rd,
        [iv, i, bx, by, t3],
        [TOKEN],
        segments=(1, 1, 2, 1),
        memory_ordering="release",
        memory_scope="tl_blk",
        reduction="xor",
        inbounds=(False, True),
    )
    st = "multimem_store_view_tko"
    t4 = b.op(st, [hv, h, bx, by, t2], [TOKEN], segments=(1, 1, 2, 1))
    b.op(
        st,
        [iv, i, bx, by, t4],
        [TOKEN],
        segments=(1, 1, 2, 1),
        memory_ordering="release",
        memory_scope="sys",
        inbounds=(True, True),
    )
    b.op(
        st,
        [iv, i, bx, by],
        [TOKEN],
        segments=(1, 1, 2, 0),
        memory_ordering="relaxed",
        memory_scope="device",
    )
    # a unicast pointer's view, and atomic_red_view_tko's inbounds (13.5)
    tv_u = TensorViewType(F32, (64,), (1,), "unicast")
    b.op("make_tensor_view", [pu], [tv_u], segments=(1, 0, 0))
    tv_p = TensorViewType(I32, (64, 64), (64, 1))
    pv_p = b.op(
        "make_partition_view",
        [b.op("make_tensor_view", [plain], [tv_p], segments=(1, 0, 0))],
        [PartitionViewType((8, 16), tv_p, (0, 1), None)],
    )
    b.op(
        "atomic_red_view_tko",
        [pv_p, bx, by, i],
        [TOKEN],
        segments=(1, 2, 1, 0),
        memory_scope="device",
        mode="add",
        inbounds=(True, False),
    )
    return Module((b.finish(),))


def control_ops() -> Module:
    b = FnBuilder("control_ops", [PTR_F32, S_I32])
    _p, n = b.params
    z = _const(b, S_I32, 0)
    one = _const(b, S_I32, 1)
    tok = b.op("make_token", [], [TOKEN])
    b.region_op("for", [z, n, one], [], [([S_I32], lambda bb, iv: bb.op("continue", []))])

    def body(bb, iv, acc, t):
        bb.op("continue", [bb.op("addi", [acc, iv], [S_I32]), t])

    r1, _r2 = b.region_op(
        "for", [z, n, one, z, tok], [S_I32, TOKEN], [([S_I32, S_I32, TOKEN], body)]
    )
    r3 = b.region_op(
        "for",
        [z, n, one, z],
        [S_I32],
        [([S_I32, S_I32], lambda bb, iv, a: bb.op("continue", [a]))],
        unsigned_cmp=True,
    )
    b.region_op(
        "for",
        [z, n, one, r3],
        [S_I32],
        [([S_I32, S_I32], lambda bb, iv, a: bb.op("continue", [bb.op("addi", [a, iv], [S_I32])]))],
    )
    big = _const(b, S_I64, 0)
    b.region_op("for", [big, big, big], [], [([S_I64], lambda bb, iv: bb.op("continue", []))])
    c = b.op("cmpi", [r1, one], [S_I1], comparison_predicate="equal")
    b.region_op(
        "if", [c], [], [([], lambda bb: bb.op("yield", [])), ([], lambda bb: bb.op("yield", []))]
    )
    b.region_op(
        "if",
        [c],
        [],
        [
            ([], lambda bb: (bb.op("assert", [c], [], message="x"), bb.op("yield", []))),
            ([], lambda bb: bb.op("yield", [])),
        ],
    )
    i1, _i2 = b.region_op(
        "if",
        [c],
        [S_I32, S_I32],
        [([], lambda bb: bb.op("yield", [r1, one])), ([], lambda bb: bb.op("yield", [one, r1]))],
    )

    def lbody(bb, a, t):
        cc = bb.op("cmpi", [a, z], [S_I1], comparison_predicate="greater_than")
        bb.region_op(
            "if",
            [cc],
            [],
            [([], lambda b2: b2.op("break", [a, t])), ([], lambda b2: b2.op("yield", []))],
        )
        bb.op("continue", [bb.op("subi", [a, one], [S_I32]), t])

    b.region_op("loop", [i1, tok], [S_I32, TOKEN], [([S_I32, TOKEN], lbody)])
    b.region_op("loop", [], [], [([], lambda bb: bb.op("break", []))])
    b.region_op("loop", [], [], [([], lambda bb: bb.op("continue", []))])
    b.region_op("loop", [], [S_I32], [([], lambda bb: bb.op("break", [z]))])
    b.region_op("loop", [z], [], [([S_I32], lambda bb, a: bb.op("break", []))])
    b.region_op("loop", [i1], [S_I32], [([S_I32], lambda bb, a: bb.op("break", [a]))])

    def nested(bb):
        bb.region_op(
            "if",
            [c],
            [],
            [([], lambda b2: b2.op("continue", [])), ([], lambda b2: b2.op("break", []))],
        )
        bb.op("continue", [])

    b.region_op("loop", [], [], [([], nested)])

    def nested2(bb, a):
        x = bb.region_op(
            "if",
            [c],
            [S_I32],
            [([], lambda b2: b2.op("continue", [a])), ([], lambda b2: b2.op("yield", [a]))],
        )
        bb.op("break", [x])

    b.region_op("loop", [z], [S_I32], [([S_I32], nested2)])
    return Module((b.finish(),))


def reduce_ops() -> Module:
    b = FnBuilder("reduce_ops", [])
    f48, i48 = T((4, 8), F32), T((4, 8), I32)
    x = _const(b, f48, 1.0)
    y = b.op(
        "broadcast", [b.op("reshape", [b.op("iota", [], [T((8,), I32)])], [T((1, 8), I32)])], [i48]
    )

    def red(fmt, ident, name, dim, src, out_shape, op="reduce", **kw):
        s = T((), fmt)
        return b.region_op(
            op,
            [src],
            [T(out_shape, fmt)],
            [([s, s], lambda bb, e, a: bb.op("yield", [bb.op(name, [e, a], [s])]))],
            dim=dim,
            identities=(ident,),
            **kw,
        )

    red(F32, ScalarAttr.of(F32, 0.0), "addf", 1, x, (4,))
    red(F32, ScalarAttr.of(F32, float("-inf")), "maxf", 0, x, (8,))

    def two(bb, e0, a0, e1, a1):
        bb.op("yield", [bb.op("maxf", [e0, a0], [S_F32]), bb.op("maxi", [e1, a1], [S_I32])])

    b.region_op(
        "reduce",
        [x, y],
        [T((8,), F32), T((8,), I32)],
        [([S_F32, S_F32, S_I32, S_I32], two)],
        dim=0,
        identities=(ScalarAttr.of(F32, float("nan")), ScalarAttr.of(I32, -2147483648)),
    )
    red(F32, ScalarAttr.of(F32, 0.0), "addf", 1, x, (4, 8), op="scan", reverse=False)
    red(F32, ScalarAttr.of(F32, -0.0), "addf", 1, x, (4, 8), op="scan", reverse=True)
    for fmt, ident, name in [
        (F64, ScalarAttr.of(F64, float("-inf")), "addf"),
        (F64, ScalarAttr.of(F64, 0.5), "addf"),
        (F16, ScalarAttr.of(F16, -1.0), "addf"),
        (BF16, ScalarAttr.of(BF16, float("inf")), "maxf"),
        (I1, ScalarAttr.of(I1, 1), "andi"),
        (I1, ScalarAttr.of(I1, 0), "ori"),
        (I64, ScalarAttr.of(I64, -7), "addi"),
        (I8, ScalarAttr.of(I8, -128), "maxi"),
        (I16, ScalarAttr.of(I16, 5), "addi"),
    ]:
        src = _const(b, T((8,), fmt), 1)
        red(fmt, ident, name, 0, src, ())
    return Module((b.finish(),))


def shape_ops() -> Module:
    b = FnBuilder("shape_ops", [])
    f48 = T((4, 8), F32)
    x = _const(b, f48, 1.0)
    z, one = _const(b, S_I32, 0), _const(b, S_I32, 1)
    b.op("permute", [x], [T((8, 4), F32)], permutation=(1, 0))
    ct = b.op("cat", [x, x], [T((8, 8), F32)], dim=0)
    ex = b.op("extract", [ct, one, z], [f48])
    b.op("insert", [ex, ct, z, z], [T((8, 8), F32)])
    b.op("broadcast", [_const(b, T((1, 8), F32), 2.0)], [f48])
    h = lambda shape, v: _const(b, T(shape, F16), v)  # noqa: E731
    b.op(
        "mmaf",
        [h((16, 16), 1.0), h((16, 16), 2.0), _const(b, T((16, 16), F32), 0.0)],
        [T((16, 16), F32)],
        fast_acc=True,
    )
    b.op("mmaf", [h((16, 16), 1.0), h((16, 16), 2.0), h((16, 16), 0.0)], [T((16, 16), F16)])
    a8, b8 = _const(b, T((16, 32), I8), 1), _const(b, T((32, 16), I8), -1)
    acc = _const(b, T((16, 16), I32), 0)
    b.op("mmai", [a8, b8, acc], [T((16, 16), I32)], signedness_rhs="unsigned")
    b.op("mmai", [a8, b8, acc], [T((16, 16), I32)])
    b.op(
        "mmaf_scaled",
        [
            _const(b, T((16, 32), F8E4M3FN), 1.0),
            _const(b, T((32, 16), F8E4M3FN), 2.0),
            _const(b, T((16, 16), F32), 0.0),
            _const(b, T((16, 1), F8E8M0FNU), 1.0),
            _const(b, T((1, 16), F8E8M0FNU), 1.0),
        ],
        [T((16, 16), F32)],
    )
    return Module((b.finish(),))


def constants() -> Module:
    b = FnBuilder("constants", [])
    for shape, fmt, values in [
        ((4,), I1, [True, False, True, True]),
        ((2, 2), I1, [[True, False], [True, True]]),
        ((), I1, False),
        ((2,), I1, [True, True]),
        ((4,), I8, [1, -2, 127, -128]),
        ((2, 2), I16, [[1, -1], [300, 0]]),
        ((4,), I64, [2**40, -5, 0, 2**63 - 1]),
        ((2, 2, 2), F32, np.arange(8).reshape(2, 2, 2)),
        ((2, 2), F16, [[1, np.inf], [np.nan, -0.0]]),
        ((1,), F32, [1.0]),
        ((4,), F8E4M3FN, [1.0, 2, 3, 448]),
        ((4,), TF32, [1.0, np.pi, -np.inf, 1e-3]),
        ((64,), F32, np.linspace(-3, 3, 64)),
        ((128,), F32, np.arange(128)),
        ((128,), I1, np.arange(128) % 3 == 0),
        ((64,), I1, np.arange(64) % 5 == 0),
        ((8, 16), I8, np.arange(128).reshape(8, 16)),
        ((4,), BF16, [np.pi, 1e10, -1e-10, 0]),
        ((4,), F64, [np.pi, 0.1, 1 / 3, 1e300]),
        ((), F32, np.pi),
    ]:
        _const(b, T(shape, fmt), values)
    # stored element by element: bitwise-equal elements still print as a splat
    for shape, fmt, data in [
        ((4,), F32, bytes(16)),
        ((4,), I1, b"\x0f"),
        ((16,), I1, b"\xff\xff"),
        ((8,), I1, b"\x0f"),
        ((4,), F32, np.array([0.0, -0.0, 0, 0], np.float32)),
        ((4,), F32, np.array([0x7FC00000, 0x7FC00001, 0x7FC00000, 0x7FC00000], np.uint32)),
    ]:
        t = T(shape, fmt)
        b.op("constant", [], [t], value=Dense(t, bytes(data)))
    return Module((b.finish(),))


def debug_locs() -> Module:
    """Two entries with source locations (``tileirdisasm -g`` prints them)."""

    def at(line, col):
        return Loc("/src/dir/kern.py", line, col, "kern")

    b = FnBuilder("dbg", [S_I32], loc=at(10, 5))
    z = b.op("constant", [], [S_I32], value=dense_of(S_I32, 0), loc=at(11, 3))
    y = b.op("addi", [z, b.params[0]], [S_I32], loc=at(12, 7))
    b.op("addi", [y, y], [S_I32], loc=at(12, 7))
    b.op("addi", [y, z], [S_I32])
    b.op("addi", [y, z], [S_I32], loc=Loc("/other/h.py", 3, 1, "helper"))
    c = b.op("constant", [], [S_I1], value=dense_of(S_I1, 1), loc=at(13, 1))
    b.region_op(
        "if",
        [c],
        [],
        [
            ([], lambda bb: bb.op("yield", [], loc=at(30, 1))),
            ([], lambda bb: bb.op("yield", [], loc=at(31, 1))),
        ],
        loc=at(20, 2),
    )
    b.region_op(
        "for",
        [z, z, z, z],
        [S_I32],
        [
            (
                [S_I32, S_I32],
                lambda bb, iv, a: (
                    bb.op("addi", [iv, a], [S_I32], loc=at(14, 9)),
                    bb.op("continue", [a], loc=at(15, 1)),
                ),
            )
        ],
        loc=at(13, 5),
    )
    b.region_op(
        "reduce",
        [_const(b, T((8,), F32), 1.0)],
        [S_F32],
        [
            (
                [S_F32, S_F32],
                lambda bb, e, a: bb.op(
                    "yield", [bb.op("addf", [e, a], [S_F32], loc=at(50, 1))], loc=at(50, 2)
                ),
            )
        ],
        dim=0,
        identities=(ScalarAttr.of(F32, 0.0),),
        loc=at(23, 2),
    )
    first = b.finish()
    b2 = FnBuilder("plain", [S_I32])
    b2.op("addi", [b2.params[0], b2.params[0]], [S_I32], loc=at(40, 1))
    b3 = FnBuilder("other", [], loc=Loc("lib.py", 1, 1))
    b3.op("make_token", [], [TOKEN], loc=Loc("lib.py", 2, 4))
    globals_ = (Global("g", dense_of(T((2,), F32), [1.0, 2.0]), 16),)
    return Module((first, b2.finish(), b3.finish()), globals=globals_)


#: case name -> builder of a valid Module
CASES = {
    f.__name__: f
    for f in (
        float_ops,
        int_ops,
        convert_ops,
        memory_ops,
        multimem_ops,
        control_ops,
        reduce_ops,
        shape_ops,
        constants,
        debug_locs,
    )
}


def all_ops(module: Module) -> set[str]:
    """The names of every op in ``module``, nested ones included."""
    from tileir.ir.module import walk

    return {op.name for fn in module.functions for op in walk(fn.body)}
