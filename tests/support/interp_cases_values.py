"""Per-op cases: integer arithmetic, conversions, shapes, reductions (see interp_cases)."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from support.interp_cases import bits_equal, case, eval_op, one
from support.module_builder import FunctionBuilder, scalar, tile
from tileir.types import BF16, F8E4M3FN, F8E8M0FNU, F16, F32, F64, I1, I4, I8, I16, I32, I64, TF32

I32MAX = 2**31 - 1


@case("addi", "subi", "muli", "negi", "absi")
def integer_wraparound(run):
    a = np.array([I32MAX, -(2**31), 7, -7], np.int32)
    b = np.array([1, -1, -9, 3], np.int32)
    assert one(run, "addi", [(a, I32), (b, I32)]).tolist() == [-(2**31), I32MAX, -2, -4]
    assert one(run, "subi", [(a, I32), (b, I32)]).tolist() == [I32MAX - 1, -(2**31) + 1, 16, -10]
    assert one(run, "muli", [(a, I32), (b, I32)]).tolist() == [I32MAX, -(2**31), -63, -21]
    assert one(run, "negi", [(a, I32)]).tolist() == [-I32MAX, -(2**31), -7, 7]
    assert one(run, "absi", [(a, I32)]).tolist() == [I32MAX, -(2**31), 7, 7]
    i8 = np.array([127, -128, 100], np.int8)
    assert one(run, "addi", [(i8, I8), (np.int8([1, -1, 100]), I8)]).tolist() == [-128, 127, -56]
    i64 = np.array([2**63 - 1], np.int64)
    assert one(run, "addi", [(i64, I64), (np.int64([1]), I64)]).tolist() == [-(2**63)]
    bools = np.array([True, True, False])
    assert one(run, "addi", [(bools, I1), (np.array([True, False, False]), I1)]).tolist() == [
        False,
        True,
        False,
    ]
    four = np.array([7, -8, 3], ml_dtypes.int4)
    got = one(run, "addi", [(four, I4), (np.array([1, -1, 2], ml_dtypes.int4), I4)])
    assert got.tolist() == [-8, 7, 5]
    assert one(run, "muli", [(four, I4), (np.array([2, 1, 3], ml_dtypes.int4), I4)]).tolist() == [
        -2,
        -8,
        -7,
    ]


@case("shli", "shri")
def shifts(run):
    a = np.array([1, -16, -16, 0x40000000], np.int32)
    s = np.array([31, 2, 40, 2], np.int32)
    assert one(run, "shli", [(a, I32), (s, I32)]).tolist() == [-(2**31), -64, 0, 0]
    assert one(run, "shri", [(a, I32), (s, I32)], signedness="signed").tolist() == [
        0,
        -4,
        -1,
        0x10000000,
    ]
    assert one(run, "shri", [(a, I32), (s, I32)], signedness="unsigned").tolist() == [
        0,
        (2**32 - 16) >> 2,
        0,
        0x10000000,
    ]
    assert one(run, "shli", [(np.int8([-1]), I8), (np.int8([7]), I8)]).tolist() == [-128]


@case("divi", "remi")
def division(run):
    a = np.array([7, 7, -7, -7, -(2**31), 5], np.int32)
    b = np.array([3, -3, 3, -3, -1, 0], np.int32)
    q = one(run, "divi", [(a, I32), (b, I32)], signedness="signed")
    assert q.tolist() == [2, -2, -2, 2, -(2**31), -1]
    q = one(run, "divi", [(a, I32), (b, I32)], signedness="signed", rounding="negative_inf")
    assert q[:4].tolist() == [2, -3, -3, 2]
    q = one(run, "divi", [(a, I32), (b, I32)], signedness="signed", rounding="positive_inf")
    assert q[:4].tolist() == [3, -2, -2, 3]
    r = one(run, "remi", [(a, I32), (b, I32)], signedness="signed")
    assert r.tolist() == [1, 1, -1, -1, 0, 5]
    ua = np.array([-1, 7], np.int32)  # 2**32 - 1 as unsigned
    ub = np.array([2, 2], np.int32)
    assert one(run, "divi", [(ua, I32), (ub, I32)], signedness="unsigned").tolist() == [
        2**31 - 1,
        3,
    ]
    assert one(
        run, "divi", [(ua, I32), (ub, I32)], signedness="unsigned", rounding="positive_inf"
    ).tolist() == [-(2**31), 4]
    assert one(run, "remi", [(ua, I32), (ub, I32)], signedness="unsigned").tolist() == [1, 1]
    big = np.array([-(2**63), 2**62 + 1], np.int64)
    assert one(run, "divi", [(big, I64), (np.int64([-1, 2]), I64)]).tolist() == [-(2**63), 2**61]


@case("mulhii", "maxi", "mini", "andi", "ori", "xori")
def bits_and_extremes(run):
    a = np.array([-1, 0x10000, 3], np.int32)
    b = np.array([-1, 0x10000, -1], np.int32)
    assert one(run, "mulhii", [(a, I32), (b, I32)]).tolist() == [-2, 1, 2]
    x = np.array([-1], np.int64)
    assert one(run, "mulhii", [(x, I64), (x, I64)]).tolist() == [-2]
    y = np.array([2**40 + 3], np.int64)
    assert one(run, "mulhii", [(y, I64), (y, I64)]).tolist() == [(int(y[0]) ** 2) >> 64]
    c = np.array([-5, 3], np.int32)
    d = np.array([2, -7], np.int32)
    assert one(run, "maxi", [(c, I32), (d, I32)], signedness="signed").tolist() == [2, 3]
    assert one(run, "maxi", [(c, I32), (d, I32)], signedness="unsigned").tolist() == [-5, -7]
    assert one(run, "mini", [(c, I32), (d, I32)], signedness="signed").tolist() == [-5, -7]
    assert one(run, "mini", [(c, I32), (d, I32)], signedness="unsigned").tolist() == [2, 3]
    assert one(run, "andi", [(c, I32), (d, I32)]).tolist() == [-5 & 2, 3 & -7]
    assert one(run, "ori", [(c, I32), (d, I32)]).tolist() == [-5 | 2, 3 | -7]
    assert one(run, "xori", [(c, I32), (d, I32)]).tolist() == [-5 ^ 2, 3 ^ -7]
    t = np.array([True, False])
    assert one(run, "xori", [(t, I1), (np.array([True, True]), I1)]).tolist() == [False, True]


@case("cmpi")
def integer_compare(run):
    a = np.array([-1, 1, 5], np.int32)
    b = np.array([1, 1, 2], np.int32)

    def cmp(pred, sign):
        return eval_op(
            run,
            "cmpi",
            [(a, I32), (b, I32)],
            [tile((3,), I1)],
            {"comparison_predicate": pred, "signedness": sign},
        )[0].tolist()

    assert cmp("less_than", "signed") == [True, False, False]
    assert cmp("less_than", "unsigned") == [False, False, False]
    assert cmp("greater_than", "unsigned") == [True, False, True]
    assert cmp("equal", "signed") == [False, True, False]
    assert cmp("not_equal", "signed") == [True, False, True]
    assert cmp("less_than_or_equal", "signed") == [True, True, False]
    assert cmp("greater_than_or_equal", "signed") == [False, True, True]


@case("select")
def select_values(run):
    c = np.array([True, False, True])
    got = one(
        run,
        "select",
        [(c, I1), (np.float32([1, 2, 3]), F32), (np.float32([4, 5, 6]), F32)],
        fmt=F32,
    )
    assert got.tolist() == [1.0, 5.0, 3.0]


# ----------------------------------------------------------------------------- conversions


@case("ftof")
def float_to_float(run):
    x = np.array([1 + 2**-8 + 2**-30, 1 + 2**-8, 3.4e38, -1e-50], np.float64)
    got = one(run, "ftof", [(x, F64)], fmt=BF16)
    # a correct single rounding (ml_dtypes' own cast double-rounds the first element)
    assert got.astype(float).tolist()[:2] == [1.0078125, 1.0]
    assert np.isinf(got[2].astype(float)) and np.signbit(got[3].astype(float))
    got = one(run, "ftof", [(x, F64)], fmt=BF16, rounding="zero")
    assert got.astype(float).tolist()[:3] == [
        1.0,
        1.0,
        float(ml_dtypes.finfo(ml_dtypes.bfloat16).max),
    ]
    got = one(run, "ftof", [(np.float32([1.0 + 2**-11]), F32)], fmt=F16, rounding="positive_inf")
    assert got.tolist() == [1.0 + 2**-10]
    got = one(run, "ftof", [(np.float32([1.0 + 2**-11 + 2**-13, -2.5]), F32)], fmt=TF32)
    assert got.dtype == np.float32 and got.tolist() == [1.0 + 2**-10, -2.5]
    got = one(run, "ftof", [(np.float32([1.0 + 2**-11]), F32)], fmt=TF32, rounding="nearest_away")
    assert got.tolist() == [1.0 + 2**-10]
    got = one(run, "ftof", [(np.float32([3.0, 0.75]), F32)], fmt=F8E8M0FNU, rounding="zero")
    assert got.astype(float).tolist() == [2.0, 0.5]
    got = one(
        run, "ftof", [(np.float32([3.0, 0.75]), F32)], fmt=F8E8M0FNU, rounding="positive_inf"
    )
    assert got.astype(float).tolist() == [4.0, 1.0]
    got = one(run, "ftof", [(np.float32([1 + 2**-4 + 2**-20, 500.0]), F32)], fmt=F8E4M3FN)
    assert got.astype(float).tolist()[0] == 1.125
    h = np.array([0.1, 65504.0], np.float16)
    assert bits_equal(one(run, "ftof", [(h, F16)], fmt=F32), h.astype(np.float32))


@case("ftoi")
def float_to_int(run):
    x = np.array([2.9, -2.9, 3e9, -3e9, np.nan, -0.5], np.float32)
    assert one(run, "ftoi", [(x, F32)], fmt=I32, signedness="signed").tolist() == [
        2,
        -2,
        I32MAX,
        -(2**31),
        0,
        0,
    ]
    assert one(run, "ftoi", [(x, F32)], fmt=I32, signedness="unsigned").tolist() == [
        2,
        0,
        -1294967296,
        0,
        0,
        0,
    ]  # 3e9 as unsigned i32 bits
    big = np.array([1e19, -1e19, 2.0**62], np.float64)
    assert one(
        run, "ftoi", [(big, F64)], fmt=I64, signedness="signed", saturating=True
    ).tolist() == [2**63 - 1, -(2**63), 2**62]
    assert one(
        run, "ftoi", [(np.float16([300.0, -300.0]), F16)], fmt=I8, signedness="signed"
    ).tolist() == [127, -128]


@case("itof")
def int_to_float(run):
    x = np.array([2**24 + 1, -3, 2**31 - 1], np.int32)
    got = one(run, "itof", [(x, I32)], fmt=F32, signedness="signed")
    assert got.tolist() == [2.0**24, -3.0, 2.0**31]
    got = one(run, "itof", [(np.int32([-1]), I32)], fmt=F32, signedness="unsigned")
    assert got.tolist() == [2.0**32]
    # 2**24 + 2**16 + 1 lies just above a bf16 tie: one correct rounding goes up
    got = one(run, "itof", [(np.int32([2**24 + 2**16 + 1]), I32)], fmt=BF16, signedness="signed")
    assert float(got[0]) == 2.0**24 + 2.0**17
    big = np.array([2**62 + 2**38 + 1, -(2**63)], np.int64)
    got = one(run, "itof", [(big, I64)], fmt=F32, signedness="signed")
    assert got.tolist() == [2.0**62 + 2.0**39, -(2.0**63)]
    got = one(run, "itof", [(np.int64([-1]), I64)], fmt=F64, signedness="unsigned")
    assert got.tolist() == [2.0**64]
    got = one(
        run,
        "itof",
        [(np.int32([2**24 + 1]), I32)],
        fmt=F32,
        signedness="signed",
        rounding="positive_inf",
    )
    assert got.tolist() == [2.0**24 + 2]
    got = one(run, "itof", [(np.array([True, False]), I1)], fmt=F32, signedness="unsigned")
    assert got.tolist() == [1.0, 0.0]


@case("exti", "trunci")
def int_widths(run):
    x = np.array([-1, 127, -128], np.int8)
    assert one(run, "exti", [(x, I8)], fmt=I32, signedness="signed").tolist() == [-1, 127, -128]
    assert one(run, "exti", [(x, I8)], fmt=I32, signedness="unsigned").tolist() == [255, 127, 128]
    assert one(run, "exti", [(np.array([True]), I1)], fmt=I16, signedness="signed").tolist() == [
        -1
    ]
    four = np.array([-8, 7], ml_dtypes.int4)
    assert one(run, "exti", [(four, I4)], fmt=I8, signedness="unsigned").tolist() == [8, 7]
    y = np.array([0x12345678, -1, 0x80], np.int32)
    assert one(run, "trunci", [(y, I32)], fmt=I8).tolist() == [0x78, -1, -128]
    assert one(run, "trunci", [(y, I32)], fmt=I1).tolist() == [False, True, False]


@case("bitcast")
def bitcasts(run):
    f = np.float32([1.0, -0.0])
    assert one(run, "bitcast", [(f, F32)], fmt=I32).tolist() == [0x3F800000, -(2**31)]
    i = np.int16([0x3C00])
    assert one(run, "bitcast", [(i, I16)], fmt=F16).tolist() == [1.0]
    b = np.array([1.5], ml_dtypes.bfloat16)
    assert one(run, "bitcast", [(b, BF16)], fmt=I16).tolist() == [0x3FC0]
    assert one(run, "bitcast", [(np.float64([2.0]), F64)], fmt=I64).tolist() == [
        0x4000000000000000
    ]


@case("pack", "unpack")
def pack_bytes(run):
    x = np.array([0x0102, -2], np.int16)
    packed = one(run, "pack", [(x, I16)], fmt=I8, shape=(4,))
    assert packed.tolist() == [2, 1, -2, -1]  # little-endian
    back = one(run, "unpack", [(packed, I8)], fmt=I16, shape=(2,))
    assert back.tolist() == x.tolist()
    f = np.float32([1.0])
    assert one(run, "pack", [(f, F32)], fmt=I8, shape=(4,)).tolist() == [0, 0, -128, 63]
    four = np.array([1, -2, 3, 7], ml_dtypes.int4)
    p4 = one(run, "pack", [(four, I4)], fmt=I8, shape=(2,))
    assert p4.tolist() == [0xE1 - 256, 0x73]  # element 2i in the low nibble
    assert one(run, "unpack", [(p4, I8)], fmt=I4, shape=(4,)).tolist() == [1, -2, 3, 7]


# ----------------------------------------------------------------------------- shapes


@case("constant", "iota", "broadcast", "reshape", "permute")
def shapes(run):
    m = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert one(run, "reshape", [(m, I32)], shape=(3, 2)).tolist() == m.reshape(3, 2).tolist()
    got = one(run, "permute", [(m, I32)], shape=(3, 2), permutation=(1, 0))
    assert got.tolist() == m.T.tolist()
    cube = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    got = one(run, "permute", [(cube, I32)], shape=(4, 2, 3), permutation=(2, 0, 1))
    assert got.tolist() == np.transpose(cube, (2, 0, 1)).tolist()
    row = np.array([[1.0, 2.0]], np.float32)
    assert one(run, "broadcast", [(row, F32)], shape=(3, 2)).tolist() == [[1, 2]] * 3
    assert one(run, "reshape", [(np.float32(5.0), F32)], shape=(1, 1)).tolist() == [[5.0]]
    got = eval_op(run, "iota", [], [tile((8,), I8)])[0]
    assert got.dtype == np.int8 and got.tolist() == list(range(8))
    got = eval_op(run, "iota", [], [tile((256,), I8)])[0]
    assert got[255] == -1  # 255 wraps in i8 (read unsigned it is 255)
    splat = one(run, "reshape", [(np.full((2, 2), 7, np.int64), I64)], shape=(4,))
    assert splat.tolist() == [7] * 4


@case("cat", "extract", "insert")
def pieces(run):
    a = np.arange(8, dtype=np.float32).reshape(2, 4)
    b = -np.arange(8, dtype=np.float32).reshape(2, 4)
    got = one(run, "cat", [(a, F32), (b, F32)], shape=(2, 8), dim=1)
    assert got.tolist() == np.concatenate([a, b], axis=1).tolist()
    got = one(run, "cat", [(a, F32), (b, F32)], shape=(4, 4), dim=0)
    assert got.tolist() == np.concatenate([a, b], axis=0).tolist()
    big = np.arange(64, dtype=np.int32).reshape(8, 8)
    got = one(run, "extract", [(big, I32), (np.int32(1), I32), (np.int32(3), I32)], shape=(4, 2))
    assert got.tolist() == big[4:8, 6:8].tolist()
    piece = np.full((4, 2), -1, np.int32)
    got = eval_op(
        run,
        "insert",
        [(piece, I32), (big, I32), (np.int32(0), I32), (np.int32(2), I32)],
        [tile((8, 8), I32)],
    )[0]
    want = big.copy()
    want[0:4, 4:6] = -1
    assert got.tolist() == want.tolist()


@case("extract", "insert", "get_tile_block_id")
def pieces_per_block(run):
    # each block extracts a different piece: indices differ across the batch
    fb = FunctionBuilder("k", [])
    big = fb.const(np.arange(16, dtype=np.int32).reshape(4, 4), tile((4, 4), I32))
    bx, _, _ = fb.block_id()
    zero = fb.c32(0)
    piece = fb.op1("extract", (big, bx, zero), tile((2, 4), I32))
    ins = fb.op1("insert", (piece, big, zero, zero), tile((4, 4), I32))
    fb.ret()
    m = fb.module()
    from support.interp_cases import Capture

    ops = m.functions[0].body.ops
    cap = Capture(ops[3], ops[4])
    run(m, "k", [], (2,), observer=cap)
    got = cap.results[0][0]
    assert got.shape == (2, 2, 4)
    assert got[0].tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert got[1].tolist() == [[8, 9, 10, 11], [12, 13, 14, 15]]
    ins = cap.results[1][0]
    assert ins[1][:2].tolist() == [[8, 9, 10, 11], [12, 13, 14, 15]]
    assert ins[1][2:].tolist() == [[8, 9, 10, 11], [12, 13, 14, 15]]


# ----------------------------------------------------------------------------- reductions


def _reduce_case(
    run, values, fmt, dim, identity, combine_name, scan=False, reverse=False, **attrs
):
    fb = FunctionBuilder("k", [])
    x = fb.const(values, tile(values.shape, fmt))
    fb.reduce(  # the reduction's own results are checked by the case's runner
        [x],
        dim,
        [identity],
        lambda e, a: [fb.binop(combine_name, a, e, **attrs)],
        scan=scan,
        reverse=reverse,
    )
    fb.ret()
    m = fb.module()
    from support.interp_cases import Capture

    cap = Capture(m.functions[0].body.ops[1])
    run(m, "k", [], (1,), observer=cap)
    return cap.results[0][0][0]


@case("reduce", "scan", "yield")
def reductions(run):
    x = np.arange(24, dtype=np.float32).reshape(4, 6) - 7
    assert _reduce_case(run, x, F32, 1, 0.0, "addf").tolist() == x.sum(axis=1).tolist()
    assert _reduce_case(run, x, F32, 0, -np.inf, "maxf").tolist() == x.max(axis=0).tolist()
    i = np.array([[3, -1, 8, 2]], np.int32)
    assert _reduce_case(run, i, I32, 1, 2**31 - 1, "mini", signedness="signed").tolist() == [-1]
    assert _reduce_case(run, i, I32, 1, 0, "maxi", signedness="unsigned").tolist() == [-1]
    s = _reduce_case(run, x, F32, 1, 0.0, "addf", scan=True)
    assert s.tolist() == np.cumsum(x, axis=1).tolist()
    s = _reduce_case(run, x, F32, 0, 0.0, "addf", scan=True, reverse=True)
    assert s.tolist() == np.cumsum(x[::-1], axis=0)[::-1].tolist()
    # the reduction order: a pairwise tree (documented); its float rounding is that of one
    v = np.array([[1.0, 2.0**-24, 2.0**-24, 2.0**-24]], np.float32)
    got = _reduce_case(run, v, F32, 1, 0.0, "addf")
    tree = (np.float32(1.0) + np.float32(2.0**-24)) + (np.float32(2.0**-24) * 2)
    assert got[0] == tree and got[0] != np.float32(1.0)
    # a non-commutative but associative combiner keeps the operand order
    fb = FunctionBuilder("k", [])
    vals = fb.const(np.array([5, 1, 4, 2, 3], np.int32), tile((5,), I32))
    pos = fb.const(np.arange(5, dtype=np.int32), tile((5,), I32))

    def argmax(e, ea, p, pa):  # (element, accumulator) pairs for the two operands
        take_e = fb.op1(
            "cmpi",
            (e, ea),
            scalar(I1),
            {"comparison_predicate": "greater_than", "signedness": "signed"},
        )
        return [
            fb.op1("select", (take_e, e, ea), scalar(I32)),
            fb.op1("select", (take_e, p, pa), scalar(I32)),
        ]

    fb.reduce([vals, pos], 0, [-(2**31), 0], argmax)
    fb.ret()
    m = fb.module()
    from support.interp_cases import Capture

    cap = Capture(m.functions[0].body.ops[2])
    run(m, "k", [], (1,), observer=cap)
    assert [int(r[0]) for r in cap.results[0]] == [5, 0]


@case("reduce")
def reduce_per_block_values(run):
    fb = FunctionBuilder("k", [])
    bx, _, _ = fb.block_id()
    row = fb.op1("broadcast", (fb.op1("reshape", (bx,), tile((1,), I32)),), tile((8,), I32))
    (total,) = fb.reduce([row], 0, [0], lambda e, a: [fb.binop("addi", a, e)])
    fb.ret()
    m = fb.module()
    from support.interp_cases import Capture

    cap = Capture(m.functions[0].body.ops[3])
    run(m, "k", [], (3,), observer=cap)
    assert cap.results[0][0].tolist() == [0, 8, 16]
