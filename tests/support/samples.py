"""Sample Modules, built by hand, that use every body op of the dialect, family by family.

Each family is ``(name, first version, build(version) -> Module)``: the builder uses the
version to switch on what that version adds (``atan2`` from 13.2, ``insert``
from 13.4 ...), so one family yields a Module for each version from its first.
The Modules are well-typed (``tileirdisasm`` runs the dialect's verifier), and
together they use all 105 body ops (``tests/encode/test_encode.py`` checks).  Tests of other
stages (render, the interpreter) may use them as well-typed examples.
"""

from __future__ import annotations

from support.build import FunctionBuilder
from tileir.ir.module import Bounded, DivBy, Global, Hints, Loc, Module, SameElements, ScalarAttr
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

__all__ = ["FAMILIES", "family_versions", "vadd_module", "matmul_loop_module"]

V1, V2, V3, V4, V5 = (13, 1), (13, 2), (13, 3), (13, 4), (13, 5)
S32 = TileType((), I32)
S1 = TileType((), I1)


def _const(b, t, value):
    return b.op("constant", [], [t], value=dense_of(t, value))


def _module(b: FunctionBuilder, **kw) -> Module:
    return Module((b.finish(),), **kw)


def float_family(v) -> Module:
    T = TileType((16,), F32)
    b = FunctionBuilder("floats", loc=Loc("floats.py", 10, 1))
    c = _const(b, T, 1.5)
    x = b.op("addf", [c, c], [T], rounding="zero", flush_to_zero=True, loc=Loc("floats.py", 11, 5))
    x = b.op("subf", [x, c], [T], rounding="negative_inf")
    x = b.op("mulf", [x, c], [T], rounding="positive_inf")
    x = b.op("divf", [x, c], [T], rounding="approx")
    x = b.op("fma", [x, c, c], [T])
    x = b.op("remf", [x, c], [T])
    x = b.op("negf", [x], [T])
    x = b.op("absf", [x], [T])
    x = b.op("maxf", [x, c], [T], propagate_nan=True)
    x = b.op("minf", [x, c], [T], flush_to_zero=True)
    for name in (
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
    ):
        x = b.op(name, [x], [T])
    x = b.op("exp2", [x], [T], flush_to_zero=True)
    x = b.op("sqrt", [x], [T], rounding="approx", flush_to_zero=True)
    x = b.op("rsqrt", [x], [T], flush_to_zero=True)
    x = b.op("fpowf", [x, c], [T])
    if v >= V2:
        x = b.op("atan2", [x, c], [T])
        x = b.op("tanh", [x], [T], rounding="approx")
    if v >= V3:
        x = b.op("exp", [x], [T], rounding="approx")
    if v >= V4:
        e = _const(b, TileType((16,), I32), 3)
        x = b.op("fpowi", [x, e], [T])
    return _module(b)


def int_family(v) -> Module:
    T = TileType((16,), I32)
    b = FunctionBuilder("ints", [S32])
    c = _const(b, T, 7)
    x = b.op("addi", [c, c], [T], overflow="no_signed_wrap")
    x = b.op("subi", [x, c], [T], overflow="no_unsigned_wrap")
    x = b.op("muli", [x, c], [T], overflow="no_wrap")
    x = b.op("shli", [x, c], [T])
    x = b.op("shri", [x, c], [T], signedness="unsigned")
    x = b.op("divi", [x, c], [T], signedness="unsigned", rounding="positive_inf")
    x = b.op("divi", [x, c], [T], rounding="negative_inf")
    x = b.op("remi", [x, c], [T])
    x = b.op("mulhii", [x, c], [T])
    x = b.op("maxi", [x, c], [T], signedness="unsigned")
    x = b.op("mini", [x, c], [T])
    x = b.op("negi", [x], [T], **({"overflow": "no_signed_wrap"} if v >= V2 else {}))
    x = b.op("absi", [x], [T])
    for name in ("andi", "ori", "xori"):
        x = b.op(name, [x, c], [T])
    return _module(b)


def mma_family(v) -> Module:
    b = FunctionBuilder("mma")
    a = _const(b, TileType((16, 16), F16), 1.0)
    acc = _const(b, TileType((16, 16), F32), 0.0)
    acc = b.op("mmaf", [a, a, acc], [acc.type], **({"fast_acc": True} if v >= V3 else {}))
    a8 = _const(b, TileType((16, 32), I8), 1)
    b8 = _const(b, TileType((32, 16), I8), 2)
    ai = _const(b, TileType((16, 16), I32), 0)
    b.op("mmai", [a8, b8, ai], [ai.type], signedness_lhs="signed", signedness_rhs="unsigned")
    if v >= V3:
        lhs = _const(b, TileType((16, 64), F8E4M3FN), 1.0)
        rhs = _const(b, TileType((64, 16), F8E4M3FN), 1.0)
        ls = _const(b, TileType((16, 2), F8E8M0FNU), 1.0)
        rs = _const(b, TileType((2, 16), F8E8M0FNU), 1.0)
        b.op("mmaf_scaled", [lhs, rhs, acc, ls, rs], [acc.type])
    return _module(b)


def convert_family(v) -> Module:
    F, I, B = TileType((16,), F32), TileType((16,), I32), TileType((16,), I1)
    b = FunctionBuilder("convert")
    x = _const(b, F, 2.5)
    n = _const(b, I, 3)
    p = b.op(
        "cmpf",
        [x, x],
        [B],
        comparison_predicate="greater_than_or_equal",
        comparison_ordering="unordered",
    )
    q = b.op("cmpi", [n, n], [B], comparison_predicate="less_than", signedness="unsigned")
    p = b.op("andi", [p, q], [B])
    x = b.op("select", [p, x, x], [F])
    b.op("ftof", [x], [TileType((16,), F16)], rounding="zero")
    b.op("ftoi", [x], [I], signedness="unsigned", **({"saturating": True} if v >= V4 else {}))
    b.op("itof", [n], [F], signedness="unsigned")
    w = b.op("exti", [n], [TileType((16,), I64)], signedness="unsigned")
    b.op("trunci", [n], [TileType((16,), I16)], overflow="no_unsigned_wrap")
    b.op("bitcast", [x], [I])
    ptr = b.op("int_to_ptr", [w], [TileType((16,), PointerType(F32))])
    b.op("ptr_to_int", [ptr], [w.type])
    b.op("ptr_to_ptr", [ptr], [TileType((16,), PointerType(I32))])
    if v >= V3:
        h = _const(b, TileType((64,), F16), 0.5)
        packed = b.op("pack", [h], [TileType((128,), I8)])
        b.op("unpack", [packed], [h.type])
    if v >= V4:
        b.op("ftof", [x], [TileType((16,), TF32)], rounding="nearest_away")
    return _module(b)


def shape_family(v) -> Module:
    b = FunctionBuilder("shapes")
    for t, value in (
        (TileType((8,), I1), [1, 0, 1, 1, 0, 0, 0, 1]),
        (TileType((4,), TF32), 1.25),
        (TileType((2,), F64), [-0.0, float("inf")]),
        (TileType((4,), BF16), -2.0),
        (TileType((), I64), -5),
    ):
        _const(b, t, value)
    b.op("iota", [], [TileType((16,), I32)])
    row = _const(b, TileType((1, 16), F32), [list(range(16))])
    b.op("broadcast", [row], [TileType((8, 16), F32)])
    b.op("reshape", [row], [TileType((4, 4), F32)])
    m = _const(b, TileType((4, 8), F32), 1.0)
    b.op("permute", [m], [TileType((8, 4), F32)], permutation=(1, 0))
    big = b.op("cat", [m, m], [TileType((8, 8), F32)], dim=0)
    i0, i1 = _const(b, S32, 0), _const(b, S32, 1)
    part = b.op("extract", [big, i1, i0], [m.type])
    if v >= V4:
        b.op("insert", [part, big, i0, i0], [big.type])
    return _module(b)


def reduce_family(v) -> Module:
    T = TileType((4, 8), F32)
    b = FunctionBuilder("reduce")
    x = _const(b, T, 1.0)
    n = _const(b, TileType((4, 8), I32), 2)
    S = TileType((), F32)

    def add(bb, e, a):
        bb.op("yield", [bb.op("addf", [e, a], [S])])

    b.region_op(
        "reduce",
        [x],
        [TileType((4,), F32)],
        [([S, S], add)],
        dim=1,
        identities=(ScalarAttr.of(F32, 0.0),),
    )

    def pair(bb, e0, a0, e1, a1):
        bb.op("yield", [bb.op("maxf", [e0, a0], [S]), bb.op("maxi", [e1, a1], [S32])])

    b.region_op(
        "reduce",
        [x, n],
        [TileType((8,), F32), TileType((8,), I32)],
        [([S, S, S32, S32], pair)],
        dim=0,
        identities=(ScalarAttr.of(F32, float("-inf")), ScalarAttr.of(I32, -(2**31))),
    )
    b.region_op(
        "scan",
        [x],
        [T],
        [([S, S], add)],
        dim=1,
        reverse=True,
        identities=(ScalarAttr.of(F32, -0.0),),
    )
    return _module(b)


def control_family(v) -> Module:
    b = FunctionBuilder("control", [S32, S1], hints=Hints((("sm_90", (("occupancy", 2),)),)))
    n, flag = b.params
    zero, one = _const(b, S32, 0), _const(b, S32, 1)

    def body(bb, i, acc):
        bb.op("continue", [bb.op("addi", [acc, i], [S32])])

    extra = {"unsigned_cmp": True} if v >= V2 else {}
    total = b.region_op("for", [zero, n, one, zero], [S32], [([S32, S32], body)], **extra)
    cond = b.op("cmpi", [total, one], [S1], comparison_predicate="equal", signedness="signed")

    def then(bb):
        bb.op("yield", [total])

    def other(bb):
        bb.op("yield", [one])

    chosen = b.region_op("if", [cond], [S32], [([], then), ([], other)])

    def loop(bb, k):
        done = bb.op(
            "cmpi", [k, zero], [S1], comparison_predicate="less_than_or_equal", signedness="signed"
        )
        bb.region_op(
            "if",
            [done],
            [],
            [([], lambda b3: b3.op("break", [k])), ([], lambda b3: b3.op("yield", []))],
        )
        bb.op("continue", [bb.op("subi", [k, one], [S32])])

    left = b.region_op("loop", [chosen], [S32], [([S32], loop)])
    b.op("assert", [flag], [], message="boom")
    tok = b.op("make_token", [], [TOKEN])
    if v >= V2:
        b.op("print_tko", [left, tok], [TOKEN], segments=(1, 1), format="left=%d\n")
    else:
        b.op("print_tko", [left], [TOKEN], segments=(1, 0), format="left=%d\n")
    return _module(b)


def memory_family(v) -> Module:
    P = TileType((), PointerType(F32))
    b = FunctionBuilder("memory", [P, S32, S32], loc=Loc("/src/kern.py", 3, 0))
    base, size, stride = b.params
    size = b.op("assume", [size], [S32], predicate=Bounded(0, None))
    base = b.op("assume", [base], [P], predicate=DivBy(16))
    tv_t = TensorViewType(F32, (None, 64), (None, 1))
    tv = b.op("make_tensor_view", [base, size, stride], [tv_t], segments=(1, 1, 1))
    b.op("get_tensor_shape", [tv], [S32, S32])
    # tileiras 13.4.92 fails to compile inbounds loads from padded views: no padding with them
    pv_t = PartitionViewType((16, 32), tv_t, (0, 1), None if v >= V4 else "zero")
    pv = b.op("make_partition_view", [tv], [pv_t])
    tiles_x, _tiles_y = b.op("get_index_space_shape", [pv], [S32, S32])
    bx, by, _bz = b.op("get_tile_block_id", [], [S32, S32, S32])
    b.op("get_num_tile_blocks", [], [S32, S32, S32])
    t0 = b.op("make_token", [], [TOKEN])
    T = TileType((16, 32), F32)
    hints = Hints((("sm_90", (("allow_tma", False), ("latency", 3))),))
    inb = {"inbounds": (True, False)} if v >= V4 else {}
    tile, t1 = b.op(
        "load_view_tko",
        [pv, bx, by, t0],
        [T, TOKEN],
        segments=(1, 2, 1),
        memory_ordering="acquire",
        memory_scope="device",
        optimization_hints=hints,
        **inb,
    )
    t2 = b.op(
        "store_view_tko",
        [tile, pv, bx, tiles_x, t1],
        [TOKEN],
        segments=(1, 1, 2, 1),
        memory_ordering="release",
        memory_scope="tl_blk",
    )
    b.op("store_view_tko", [tile, pv, bx, by], [TOKEN], segments=(1, 1, 2, 0))
    PT = TileType((16,), PointerType(F32))
    ptrs = b.op("broadcast", [b.op("reshape", [base], [TileType((1,), P.element)])], [PT])
    offs = b.op("iota", [], [TileType((16,), I32)])
    ptrs = b.op("offset", [ptrs, offs], [PT])
    mask = b.op(
        "cmpi",
        [offs, offs],
        [TileType((16,), I1)],
        comparison_predicate="equal",
        signedness="signed",
    )
    pad = _const(b, TileType((16,), F32), 0.0)
    vals, t3 = b.op(
        "load_ptr_tko",
        [ptrs, mask, pad, t2],
        [pad.type, TOKEN],
        segments=(1, 1, 1, 1),
        memory_ordering="relaxed",
        memory_scope="sys",
        optimization_hints=Hints((("sm_90", (("latency", 2),)),)),
    )
    b.op("load_ptr_tko", [ptrs], [pad.type, TOKEN], segments=(1, 0, 0, 0))
    t4 = b.op(
        "store_ptr_tko",
        [ptrs, vals, mask, t3],
        [TOKEN],
        segments=(1, 1, 1, 1),
        memory_ordering="weak",
    )
    old, t5 = b.op(
        "atomic_rmw_tko",
        [ptrs, vals, mask, t4],
        [pad.type, TOKEN],
        segments=(1, 1, 1, 1),
        memory_ordering="relaxed",
        memory_scope="device",
        mode="addf",
    )
    IP = TileType((16,), PointerType(I32))
    iptrs = b.op("ptr_to_ptr", [ptrs], [IP])
    _cas, t6 = b.op(
        "atomic_cas_tko",
        [iptrs, offs, offs, t5],
        [offs.type, TOKEN],
        segments=(1, 1, 1, 0, 1),
        memory_ordering="acq_rel",
        memory_scope="sys",
    )
    b.op("join_tokens", [t5, t6, t4], [TOKEN])
    b.op("assume", [offs], [offs.type], predicate=SameElements((4,)))
    b.op("assume", [offs], [offs.type], predicate=DivBy(4, 4, 0))
    return _module(b)


def memory13_family(v) -> Module:
    P = TileType((), PointerType(F32))
    b = FunctionBuilder("memory13", [P])
    (base,) = b.params
    tv_t = TensorViewType(F32, (1024,), (1,))
    tv = b.op("make_tensor_view", [base], [tv_t], segments=(1, 0, 0))
    sv_t = StridedViewType((16,), (32,), tv_t, (0,), None)
    sv = b.op("make_strided_view", [tv], [sv_t])
    gv_t = GatherScatterViewType((16,), tv_t, 0, "zero")
    gv = b.op("make_gather_scatter_view", [tv], [gv_t])
    i0 = _const(b, S32, 0)
    T = TileType((16,), F32)
    tile, tok = b.op("load_view_tko", [sv, i0], [T, TOKEN], segments=(1, 1, 0))
    idx = b.op("iota", [], [TileType((16,), I32)])
    b.op("load_view_tko", [gv, idx], [T, TOKEN], segments=(1, 1, 0))
    pv = b.op("make_partition_view", [tv], [PartitionViewType((16,), tv_t, (0,))])
    b.op(
        "atomic_red_view_tko",
        [pv, i0, tile, tok],
        [TOKEN],
        segments=(1, 1, 1, 1),
        memory_scope="device",
        mode="addf",
    )
    b.op("alloca", [], [P], num_elem=64, alignment=16, global_=True)
    return _module(b)


def misc13_4_family(v) -> Module:
    b = FunctionBuilder("misc")
    t = b.op("gdc_wait_tko", [], [TOKEN])
    t = b.op("gdc_launch_dependents_tko", [t], [TOKEN])
    b.op("gdc_launch_dependents_tko", [], [TOKEN])
    b.op("memory_fence_alias_tko", [t], [TOKEN])
    return _module(b)


def global_family(v) -> Module:
    b = FunctionBuilder("globals")
    b.op("get_global", [], [TileType((), PointerType(F32))], name="table")
    g = Global(
        "table",
        dense_of(TileType((4,), F32), [1.0, 2.0, 3.0, 4.0]),
        alignment=16,
        constant=v >= V3,
        visibility="private" if v >= V3 else "public",
    )
    return _module(b, globals=(g,), producer="tileir-tests" if v >= V3 else None)


def ptr_attr_family(v) -> Module:
    """13.4's pointer attribute on parameters, tensor views (static, dynamic, rank 0), pointer
    casts that add, keep and drop it, and a global's address."""
    N = "none"
    P, PN = TileType((), PointerType(F32)), TileType((), PointerType(F32, N))
    b = FunctionBuilder("ptr_attrs", [PN, P, S32])
    with_attr, plain, n = b.params
    base = b.op("assume", [with_attr], [PN], predicate=DivBy(16))
    b.op(
        "make_tensor_view",
        [base, n, n],
        [TensorViewType(F32, (None, 64), (None, 1), N)],
        segments=(1, 1, 1),
    )
    b.op("make_tensor_view", [base], [TensorViewType(F32, (), (), N)], segments=(1, 0, 0))
    b.op("make_tensor_view", [plain], [TensorViewType(F32, (8,), (1,))], segments=(1, 0, 0))
    w = b.op("ptr_to_int", [with_attr], [TileType((), I64)])
    q = b.op("int_to_ptr", [w], [TileType((), PointerType(I32, N))])
    q = b.op("ptr_to_ptr", [q], [TileType((), PointerType(F16))])
    b.op("ptr_to_ptr", [q], [TileType((), PointerType(F16, N))])
    b.op("get_global", [], [PN], name="table")
    g = Global(
        "table", dense_of(TileType((4,), F32), [1.0, 2.0, 3.0, 4.0]), alignment=16, constant=True
    )
    return _module(b, globals=(g,))


def multimem_family(v) -> Module:
    """13.5: the multimem ops, unicast and multicast pointers, atomic_red_view_tko's
    inbounds (the render tests' case, tests/support/module_cases.py)."""
    from support.module_cases import multimem_ops

    return multimem_ops()


#: (family name, first version, builder)
FAMILIES = (
    ("float", V1, float_family),
    ("int", V1, int_family),
    ("mma", V1, mma_family),
    ("convert", V1, convert_family),
    ("shape", V1, shape_family),
    ("reduce", V1, reduce_family),
    ("control", V1, control_family),
    ("memory", V1, memory_family),
    ("memory13", V3, memory13_family),
    ("misc13_4", V4, misc13_4_family),
    ("global", V1, global_family),
    ("ptr_attr", V4, ptr_attr_family),
    ("multimem", V5, multimem_family),
)


def family_versions():
    """Every (family name, version, Module) the families give, one per version they allow."""
    for name, first, build in FAMILIES:
        for v in (V1, V2, V3, V4, V5):
            if v >= first:
                yield name, v, build(v)


def vadd_module(fmt=F32, tile: int = 256) -> Module:
    """cuTile's vector add, by hand: c[bid] = a[bid] + b[bid] over 1-D views."""
    P = TileType((), PointerType(fmt))
    b = FunctionBuilder("vadd", [P, S32, P, S32, P, S32], loc=Loc("/work/vadd.py", 5, 0))
    bid, _, _ = b.op("get_tile_block_id", [], [S32, S32, S32], loc=Loc("/work/vadd.py", 6, 4))
    tok = b.op("make_token", [], [TOKEN])
    tv_t = TensorViewType(fmt, (None,), (1,))
    pv_t = PartitionViewType((tile,), tv_t, (0,))
    T = TileType((tile,), fmt)
    loaded = []
    for k in range(2):
        ptr, n = b.params[2 * k], b.params[2 * k + 1]
        tv = b.op("make_tensor_view", [ptr, n], [tv_t], segments=(1, 1, 0))
        pv = b.op("make_partition_view", [tv], [pv_t])
        x, _ = b.op(
            "load_view_tko",
            [pv, bid, tok],
            [T, TOKEN],
            segments=(1, 1, 1),
            loc=Loc("/work/vadd.py", 7 + k, 8),
        )
        loaded.append(x)
    s = b.op("addf", loaded, [T], loc=Loc("/work/vadd.py", 9, 12))
    tv = b.op("make_tensor_view", [b.params[4], b.params[5]], [tv_t], segments=(1, 1, 0))
    pv = b.op("make_partition_view", [tv], [pv_t])
    b.op(
        "store_view_tko",
        [s, pv, bid, tok],
        [TOKEN],
        segments=(1, 1, 1, 1),
        loc=Loc("/work/vadd.py", 10, 4),
    )
    return _module(b)


def matmul_loop_module() -> Module:
    """A 64x64 f16 x f16 -> f32 tile matmul with a K loop of mmaf (as cuTile writes it)."""
    P16, P32 = TileType((), PointerType(F16)), TileType((), PointerType(F32))
    b = FunctionBuilder("matmul", [P16, P16, P32, S32])
    pa, pb, pc, k_tiles = b.params
    bx, by, _ = b.op("get_tile_block_id", [], [S32, S32, S32])
    tok = b.op("make_token", [], [TOKEN])
    views = []
    for ptr, fmt, tile in ((pa, F16, (64, 32)), (pb, F16, (32, 64)), (pc, F32, (64, 64))):
        tv_t = TensorViewType(fmt, (1024, 1024), (1024, 1))
        tv = b.op("make_tensor_view", [ptr], [tv_t], segments=(1, 0, 0))
        views.append(
            b.op("make_partition_view", [tv], [PartitionViewType(tile, tv_t, (0, 1), "zero")])
        )
    acc0 = _const(b, TileType((64, 64), F32), 0.0)
    zero, one = _const(b, S32, 0), _const(b, S32, 1)

    def step(bb, k, acc):
        a, _ = bb.op(
            "load_view_tko",
            [views[0], bx, k, tok],
            [TileType((64, 32), F16), TOKEN],
            segments=(1, 2, 1),
        )
        w, _ = bb.op(
            "load_view_tko",
            [views[1], k, by, tok],
            [TileType((32, 64), F16), TOKEN],
            segments=(1, 2, 1),
        )
        bb.op("continue", [bb.op("mmaf", [a, w, acc], [acc.type])])

    acc = b.region_op("for", [zero, k_tiles, one, acc0], [acc0.type], [([S32, acc0.type], step)])
    b.op("store_view_tko", [acc, views[2], bx, by, tok], [TOKEN], segments=(1, 1, 2, 1))
    return _module(b)
