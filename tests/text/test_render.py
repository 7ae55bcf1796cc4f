"""The renderer against NVIDIA's disassembler.

Every hand-built case (tests/support/module_cases.py, all 105 body ops) is written as
bytecode by cuTile's own writer (tests/support/oracle_cutile.py) and disassembled by
``tileirdisasm``; our text must equal that text up to SSA names.  Two modules
(a vector add and a matmul) are also pinned character for character, their
bytecode written by calling cuTile's encoders directly.
"""

from __future__ import annotations

import random
import struct

import numpy as np
import pytest
from cuda.tile import _bytecode as bc
from cuda.tile._bytecode import encodings as E
from cuda.tile._bytecode.type import PaddingValue, PtrAttr, SimpleType

from support.hand_module import FnBuilder
from support.module_cases import CASES, all_ops
from support.oracle_cutile import oracle_text
from support.tools import needs_tools
from tileir.errors import VerifyError
from tileir.ir.dialect import BODY_OPS
from tileir.ir.module import Block, Dense, DivBy, Function, Global, Hints, Module, Op, Value
from tileir.ir.numerics import dense_of, element_bytes
from tileir.real.tileiras import disassemble
from tileir.text.compare import normalize_ssa, ssa_equal
from tileir.text.float_text import SEMANTICS, float_text
from tileir.text.render import RENDER_RULES, render
from tileir.types import (
    F16,
    F32,
    F64,
    FORMATS,
    I32,
    TOKEN,
    PartitionViewType,
    PointerType,
    TensorViewType,
    TileType,
)

T = TileType


def test_rule_table_covers_every_body_op():
    assert set(RENDER_RULES) == set(BODY_OPS)
    assert len(RENDER_RULES) == 105


def test_oracle_writes_every_body_op():
    from support.oracle_cutile import WRITERS

    assert set(WRITERS) == set(BODY_OPS)


def test_cases_use_every_body_op():
    used = set().union(*(all_ops(build()) for build in CASES.values()))
    assert used == set(BODY_OPS), sorted(set(BODY_OPS) - used)


@needs_tools
@pytest.mark.parametrize("case", sorted(CASES))
def test_case_matches_tileirdisasm(case):
    module = CASES[case]()
    theirs = oracle_text(module)
    ours = render(module)
    assert normalize_ssa(ours) == normalize_ssa(theirs)


@needs_tools
def test_debug_locations_match_tileirdisasm_g():
    module = CASES["debug_locs"]()
    theirs = oracle_text(module, debug_info=True)
    ours = render(module, debug_info=True)
    assert "loc(#loc" in ours and "#di_subprogram = #cuda_tile.di_subprogram<" in ours
    assert normalize_ssa(ours) == normalize_ssa(theirs)


@needs_tools
@pytest.mark.parametrize(
    "version, case", [("13.1", "reduce_ops"), ("13.2", "int_ops"), ("13.3", "control_ops")]
)
def test_older_bytecode_prints_the_same(version, case):
    module = CASES[case]()
    assert ssa_equal(render(module), oracle_text(module, version=version))


# ----------------------------------------------------------------------------- floats


def _patterns(fmt, rng):
    sem = SEMANTICS[fmt.name]
    if sem.bits <= 8:
        # tileirdisasm 13.4.92 dies (SIGILL) printing fnv8E5M3FNU values >= 2.0 (bit 7 set)
        return list(range(0x80 if fmt.name == "fnv8E5M3FNU" else 1 << sem.bits))
    out = [rng.getrandbits(sem.bits) for _ in range(128)]
    for _ in range(128):  # decimal-looking values take the short and the fallback spellings
        v = round(rng.uniform(-1, 1) * 10 ** rng.randint(-8, 12), rng.randint(0, 6))
        f32 = struct.unpack("<I", struct.pack("<f", v))[0] if abs(v) < 3e38 else 0
        out.append(
            {
                "f64": struct.unpack("<Q", struct.pack("<d", v))[0],
                "f32": f32,
                "bf16": f32 >> 16,
                "tf32": f32 >> 13,
                "f16": int(np.array(v).astype(np.float16).view(np.uint16)),
            }[fmt.name]
        )
    return out


@needs_tools
def test_float_text_matches_tileirdisasm_for_every_format():
    rng = random.Random(20240607)
    b = FnBuilder("floats", [])
    expected = []
    for fmt in (f for f in FORMATS if f.is_float):
        with np.errstate(over="ignore"):
            pats = _patterns(fmt, rng)
        width = element_bytes(fmt)
        for i in range(0, len(pats), 64):
            chunk = pats[i : i + 64] + [0] * (64 - len(pats[i : i + 64]))
            chunk[-1] = chunk[0] ^ 1  # never a splat
            t = T((64,), fmt)
            b.op(
                "constant",
                [],
                [t],
                value=Dense(t, b"".join(p.to_bytes(width, "little") for p in chunk)),
            )
            expected.append((fmt, chunk))
    text = oracle_text(Module((b.finish(),)))
    lines = [line for line in text.splitlines() if " constant <" in line]
    assert len(lines) == len(expected)
    for (fmt, chunk), line in zip(expected, lines):
        printed = line[line.index("[") + 1 : line.rindex("]")].split(", ")
        ours = [float_text(fmt, p) for p in chunk]
        assert ours == printed, fmt


def test_float_text_spellings():
    assert float_text(F32, 0x00000000) == "0.000000e+00"
    assert float_text(F32, 0x80000000) == "-0.000000e+00"
    assert float_text(F32, 0x7FC00000) == "0x7FC00000"
    assert float_text(F32, 0x4CEB79A3) == "0x4CEB79A3"  # 123456792: no point, so hex
    assert float_text(F32, 0x38D1B717) == "9.99999974E-5"
    assert float_text(F64, 0x400921FB54442D18) == "3.1415926535897931"
    assert float_text(F16, 0x7C00) == "0x7C00"


# ----------------------------------------------------------------------------- pins

_VADD = """\
entry @vadd(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>, %arg2: tile<ptr<f64>>, %arg3: tile<i32>) optimization_hints=<sm_90 = {}> {
  %0 = make_token : token
  %1 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %2 = make_tensor_view %1, shape = [%arg3], strides = [1] : tile<i32> -> tensor_view<?xf64, strides=[1]>
  %3 = make_partition_view %2 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf64, strides=[1]>>
  %4 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [%arg3], strides = [1] : tile<i32> -> tensor_view<?xf64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf64, strides=[1]>>
  %7 = assume div_by<16>, %arg2 : tile<ptr<f64>>
  %8 = make_tensor_view %7, shape = [%arg3], strides = [1] : tile<i32> -> tensor_view<?xf64, strides=[1]>
  %9 = make_partition_view %8 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf64, strides=[1]>>
  %10, %11, %12 = get_tile_block_id : tile<i32>
  %13, %14 = load_view_tko weak %3[%10] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf64, strides=[1]>>, tile<i32> -> tile<128xf64>, token
  %15, %16 = load_view_tko weak %6[%10] token = %14 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf64, strides=[1]>>, tile<i32> -> tile<128xf64>, token
  %17 = addf %13, %15  : tile<128xf64>
  %18 = store_view_tko weak %17, %9[%10] token = %16 : tile<128xf64>, partition_view<tile=(128), padding_value = zero, tensor_view<?xf64, strides=[1]>>, tile<i32> -> token
  return
}
"""

_MATMUL = """\
entry @matmul(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<f16>>, %arg2: tile<ptr<f32>>) optimization_hints=<default = {num_cta_in_cga = 1}> {
  %0 = make_token : token
  %1 = make_tensor_view %arg0, shape = [256, 256], strides = [256, 1] : tensor_view<256x256xf16, strides=[256,1]>
  %2 = make_partition_view %1 : partition_view<tile=(64x32), tensor_view<256x256xf16, strides=[256,1]>>
  %3 = make_tensor_view %arg1, shape = [256, 256], strides = [256, 1] : tensor_view<256x256xf16, strides=[256,1]>
  %4 = make_partition_view %3 : partition_view<tile=(32x64), tensor_view<256x256xf16, strides=[256,1]>>
  %5 = make_tensor_view %arg2, shape = [256, 256], strides = [256, 1] : tensor_view<256x256xf32, strides=[256,1]>
  %6 = make_partition_view %5 : partition_view<tile=(64x64), tensor_view<256x256xf32, strides=[256,1]>>
  %7, %8, %9 = get_tile_block_id : tile<i32>
  %10 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %11 = constant <i32: 0> : tile<i32>
  %12 = constant <i32: 8> : tile<i32>
  %13 = constant <i32: 1> : tile<i32>
  %14, %15 = for %16 in (%11 to %12, step %13) : tile<i32> iter_values(%17 = %10, %18 = %0) -> (tile<64x64xf32>, token) {
    %19, %20 = load_view_tko weak %2[%7, %16] token = %18 : partition_view<tile=(64x32), tensor_view<256x256xf16, strides=[256,1]>>, tile<i32> -> tile<64x32xf16>, token
    %21, %22 = load_view_tko weak %4[%16, %8] token = %20 : partition_view<tile=(32x64), tensor_view<256x256xf16, strides=[256,1]>>, tile<i32> -> tile<32x64xf16>, token
    %23 = mmaf %19, %21, %17 : tile<64x32xf16>, tile<32x64xf16>, tile<64x64xf32>
    continue %23, %22 : tile<64x64xf32>, token
  }
  %24 = store_view_tko weak %14, %6[%7, %8] token = %15 : tile<64x64xf32>, partition_view<tile=(64x64), tensor_view<256x256xf32, strides=[256,1]>>, tile<i32> -> token
  return
}
"""


def _vadd_module() -> Module:
    ptr, i32 = T((), PointerType(F64)), T((), I32)
    b = FnBuilder("vadd", [ptr, ptr, ptr, i32], hints=Hints((("sm_90", ()),)))
    *ptrs, n = b.params
    tok = b.op("make_token", [], [TOKEN])
    tv_t = TensorViewType(F64, (None,), (1,))
    pv_t = PartitionViewType((128,), tv_t, (0,), "zero")
    views = []
    for p in ptrs:
        base = b.op("assume", [p], [ptr], predicate=DivBy(16))
        tv = b.op("make_tensor_view", [base, n], [tv_t], segments=(1, 1, 0))
        views.append(b.op("make_partition_view", [tv], [pv_t]))
    bx, _by, _bz = b.op("get_tile_block_id", [], [i32] * 3)
    tile = T((128,), F64)
    x, t1 = b.op("load_view_tko", [views[0], bx, tok], [tile, TOKEN], segments=(1, 1, 1))
    y, t2 = b.op("load_view_tko", [views[1], bx, t1], [tile, TOKEN], segments=(1, 1, 1))
    s = b.op("addf", [x, y], [tile])
    b.op("store_view_tko", [s, views[2], bx, t2], [TOKEN], segments=(1, 1, 1, 1))
    return Module((b.finish(),))


def _cutile_vadd() -> bytes:
    """The same kernel, written by calling cuTile's encoders by hand."""
    buf = bytearray()
    with bc.write_bytecode(1, buf, bc.BytecodeVersion.V_13_4) as w:
        tt = w.type_table
        f64 = tt.simple(SimpleType.F64)
        ptr = tt.tile(tt.pointer(f64, PtrAttr.Missing), [])
        i32 = tt.tile(tt.I32, [])
        tv = tt.tensor_view(f64, [bc.DYNAMIC_SHAPE], [1], PtrAttr.Missing)
        pv = tt.partition_view([128], tv, [0], PaddingValue.Zero)
        tile, tok_t = tt.tile(f64, [128]), tt.Token
        with w.function(
            "vadd",
            [ptr, ptr, ptr, i32],
            [],
            True,
            {"sm_90": bc.EntryHints()},
            bc.MISSING_DEBUG_ATTR_ID,
        ) as (cb, params):
            *ptrs, n = params
            tok = E.encode_MakeTokenOp(cb, tok_t)
            views = []
            for p in ptrs:
                base = E.encode_AssumeOp(cb, ptr, p, bc.DivBy(16))
                view = E.encode_MakeTensorViewOp(cb, tv, base, [n], [])
                views.append(E.encode_MakePartitionViewOp(cb, pv, view))
            bx, _, _ = E.encode_GetTileBlockIdOp(cb, i32, i32, i32)
            weak = E.MemoryOrderingSemantics.WEAK
            x, t1 = E.encode_LoadViewTkoOp(
                cb, tile, tok_t, views[0], [bx], tok, weak, None, None, [False]
            )
            y, t2 = E.encode_LoadViewTkoOp(
                cb, tile, tok_t, views[1], [bx], t1, weak, None, None, [False]
            )
            s = E.encode_AddFOp(cb, tile, x, y, E.RoundingMode.NEAREST_EVEN, False)
            E.encode_StoreViewTkoOp(cb, tok_t, s, views[2], [bx], t2, weak, None, None, [False])
            E.encode_ReturnOp(cb, [])
    return bytes(buf)


def _matmul_module() -> Module:
    i32 = T((), I32)
    ptrs = [T((), PointerType(F16)), T((), PointerType(F16)), T((), PointerType(F32))]
    b = FnBuilder("matmul", ptrs, hints=Hints((("default", (("num_cta_in_cga", 1),)),)))
    tok = b.op("make_token", [], [TOKEN])
    views = []
    for p, fmt, tile in zip(b.params, (F16, F16, F32), ((64, 32), (32, 64), (64, 64))):
        tv_t = TensorViewType(fmt, (256, 256), (256, 1))
        tv = b.op("make_tensor_view", [p], [tv_t], segments=(1, 0, 0))
        views.append(b.op("make_partition_view", [tv], [PartitionViewType(tile, tv_t, (0, 1))]))
    bx, by, _bz = b.op("get_tile_block_id", [], [i32] * 3)
    acc_t = T((64, 64), F32)
    zero = b.op("constant", [], [acc_t], value=dense_of(acc_t, 0.0))
    lb, ub, step = (b.op("constant", [], [i32], value=dense_of(i32, v)) for v in (0, 8, 1))

    def body(bb, k, acc, t):
        ta, t1 = bb.op(
            "load_view_tko", [views[0], bx, k, t], [T((64, 32), F16), TOKEN], segments=(1, 2, 1)
        )
        tb, t2 = bb.op(
            "load_view_tko", [views[1], k, by, t1], [T((32, 64), F16), TOKEN], segments=(1, 2, 1)
        )
        bb.op("continue", [bb.op("mmaf", [ta, tb, acc], [acc_t]), t2])

    acc, t_end = b.region_op(
        "for", [lb, ub, step, zero, tok], [acc_t, TOKEN], [([i32, acc_t, TOKEN], body)]
    )
    b.op("store_view_tko", [acc, views[2], bx, by, t_end], [TOKEN], segments=(1, 1, 2, 1))
    return Module((b.finish(),))


def _cutile_matmul() -> bytes:
    buf = bytearray()
    with bc.write_bytecode(1, buf, bc.BytecodeVersion.V_13_4) as w:
        tt = w.type_table
        f16, f32 = tt.simple(SimpleType.F16), tt.F32
        i32 = tt.tile(tt.I32, [])
        ptrs = [tt.tile(tt.pointer(f, PtrAttr.Missing), []) for f in (f16, f16, f32)]
        tok_t = tt.Token
        acc_t = tt.tile(f32, [64, 64])
        with w.function(
            "matmul",
            ptrs,
            [],
            True,
            {"default": bc.EntryHints(num_cta_in_cga=1)},
            bc.MISSING_DEBUG_ATTR_ID,
        ) as (cb, params):
            tok = E.encode_MakeTokenOp(cb, tok_t)
            views = []
            for p, f, tile in zip(params, (f16, f16, f32), ((64, 32), (32, 64), (64, 64))):
                tv_t = tt.tensor_view(f, [256, 256], [256, 1], PtrAttr.Missing)
                tv = E.encode_MakeTensorViewOp(cb, tv_t, p, [], [])
                pv_t = tt.partition_view(list(tile), tv_t, [0, 1], PaddingValue.Missing)
                views.append((E.encode_MakePartitionViewOp(cb, pv_t, tv), pv_t))
            bx, by, _ = E.encode_GetTileBlockIdOp(cb, i32, i32, i32)
            zero = E.encode_ConstantOp(cb, acc_t, struct.pack("<f", 0.0))
            lb, ub, step = (E.encode_ConstantOp(cb, i32, struct.pack("<i", v)) for v in (0, 8, 1))
            loop = E.encode_ForOp(cb, [acc_t, tok_t], lb, ub, step, [zero, tok], False)
            weak = E.MemoryOrderingSemantics.WEAK
            with loop.new_block([i32, acc_t, tok_t]) as (k, acc, t):
                ta, t1 = E.encode_LoadViewTkoOp(
                    cb,
                    tt.tile(f16, [64, 32]),
                    tok_t,
                    views[0][0],
                    [bx, k],
                    t,
                    weak,
                    None,
                    None,
                    [False, False],
                )
                tb, t2 = E.encode_LoadViewTkoOp(
                    cb,
                    tt.tile(f16, [32, 64]),
                    tok_t,
                    views[1][0],
                    [k, by],
                    t1,
                    weak,
                    None,
                    None,
                    [False, False],
                )
                prod = E.encode_MmaFOp(cb, acc_t, ta, tb, acc, False)
                E.encode_ContinueOp(cb, [prod, t2])
            acc, t_end = loop.done()
            E.encode_StoreViewTkoOp(
                cb, tok_t, acc, views[2][0], [bx, by], t_end, weak, None, None, [False, False]
            )
            E.encode_ReturnOp(cb, [])
    return bytes(buf)


def test_vadd_text_is_pinned():
    assert render(_vadd_module()) == _VADD


def test_matmul_text_is_pinned():
    assert render(_matmul_module()) == _MATMUL


@needs_tools
def test_pins_are_what_tileirdisasm_prints_for_cutile_bytecode():
    assert ssa_equal(_VADD, disassemble(_cutile_vadd()))
    assert ssa_equal(_MATMUL, disassemble(_cutile_matmul()))


def test_wrapped_form_indents_the_entries_inside_a_module():
    module = _vadd_module()
    plain = render(module)
    wrapped = render(module, wrap=True)
    inner = "".join("  " + line + "\n" for line in plain.splitlines())
    assert wrapped == "cuda_tile.module @kernels {\n" + inner + "}\n"
    assert wrapped.splitlines()[1].startswith("  entry @vadd(")


def test_producer_comment_and_globals_come_first():
    text = render(CASES["memory_ops"]())
    lines = text.splitlines()
    assert lines[0] == "// Producer: tileir tests"
    assert (
        lines[1]
        == "global  constant @table alignment = 16 <f32: [1.000000e+00, 2.000000e+00]> : tile<2xf32>"
    )
    assert lines[2] == "global private  @counts alignment = 8 <i32: [1, 2, 3, 4]> : tile<4xi32>"
    assert lines[3] == "global  @zeros <f64: 0.000000e+00> : tile<8xf64>"
    assert lines[5].startswith("entry @memory_ops(")
    assert (
        "optimization_hints=<default = {}, sm_90 = {num_cta_in_cga = 2, occupancy = 2}>"
        in lines[5]
    )


@needs_tools
def test_symbols_are_quoted_unless_bare():
    b = FnBuilder("my-kernel", [])
    b.op("get_global", [], [T((), PointerType(F32))], name="g.x$1")
    b.op("get_global", [], [T((), PointerType(F32))], name="9-lives")
    module = Module(
        (b.finish(),),
        globals=(
            Global("g.x$1", dense_of(T((2,), F32), 1.0)),
            Global("9-lives", dense_of(T((2,), F32), 2.0)),
        ),
    )
    text = render(module)
    assert 'entry @"my-kernel"() {' in text and "get_global @g.x$1 :" in text
    assert '@"9-lives" alignment = 16' in text
    assert ssa_equal(text, oracle_text(module))


def test_undefined_operand_is_a_verify_error():
    x = Value(0, T((4,), F32))
    ghost = Value(7, T((4,), F32))
    fn = Function(
        "k", (x,), Block((), (Op("addf", (x, ghost), (Value(1, x.type),)), Op("return")))
    )
    with pytest.raises(VerifyError, match=r"kernel `k`: `addf`: operand %7"):
        render(Module((fn,)))


# ----------------------------------------------------------------------------- normalize_ssa

_BASE = """\
entry @k(%arg0: tile<4xf32>) {
  %a = addf %arg0, %arg0 rounding<zero> : tile<4xf32>
  %b = mulf %a, %arg0  : tile<4xf32>
  return
}
"""


@pytest.mark.parametrize(
    "mutant",
    [
        _BASE.replace("rounding<zero>", "rounding<approx>"),  # an attribute
        _BASE.replace("mulf %a, %arg0  :", "mulf %a, %arg0 :"),  # spacing
        _BASE.replace("tile<4xf32>) {", "tile<8xf32>) {"),  # a type
        _BASE.replace("mulf", "subf"),  # an op
        _BASE.replace("mulf %a, %arg0", "mulf %arg0, %a"),  # operand order
        _BASE.replace("mulf %a, %arg0", "mulf %a, %a"),  # which value
        _BASE.replace("  return\n", ""),  # a line
    ],
)
def test_normalize_keeps_real_differences(mutant):
    assert mutant != _BASE
    assert normalize_ssa(mutant) != normalize_ssa(_BASE)


def test_normalize_forgets_names_only():
    renamed = _BASE.replace("%a", "%cst_1_f32").replace("%b", "%0").replace("%arg0", "%x")
    assert normalize_ssa(renamed) == normalize_ssa(_BASE)


def test_normalize_reads_result_packs_and_sibling_scopes():
    theirs = """\
  %1:2 = get_tensor_shape %tview : tensor_view<?xf32> -> tile<i32>
  for %loopIdx in (%1#0 to %1#1, step %c) : tile<i32> {
    %5 = addi %loopIdx, %1#1 : tile<i32>
  }
  for %loopIdx in (%1#1 to %1#0, step %c) : tile<i32> {
    %5 = addi %5, %loopIdx : tile<i32>
  }
  print_tko "%d %5", %1#0 token=%t -> token
"""
    ours = """\
  %3, %4 = get_tensor_shape %tview : tensor_view<?xf32> -> tile<i32>
  for %5 in (%3 to %4, step %c) : tile<i32> {
    %6 = addi %5, %4 : tile<i32>
  }
  for %7 in (%4 to %3, step %c) : tile<i32> {
    %8 = addi %8, %7 : tile<i32>
  }
  print_tko "%d %5", %3 token=%t -> token
"""
    assert normalize_ssa(theirs) == normalize_ssa(ours)
    assert '"%d %5"' in normalize_ssa(ours)  # strings are left alone
    swapped = ours.replace("(%4 to %3,", "(%3 to %4,")
    assert normalize_ssa(theirs) != normalize_ssa(swapped)


def test_normalize_reads_iter_values_and_region_headers():
    theirs = (
        "  %for = for %loopIdx in (%c0 to %n, step %c1) : tile<i32> iter_values(%iterArg0 = "
        "%c0) -> (tile<i32>) {\n  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {\n"
        "    yield %reduce_rhs, %iterArg0 : tile<f32>\n"
    )
    ours = (
        "  %9 = for %10 in (%c0 to %n, step %c1) : tile<i32> iter_values(%11 = "
        "%c0) -> (tile<i32>) {\n  (%12: tile<f32>, %13: tile<f32>) {\n"
        "    yield %13, %11 : tile<f32>\n"
    )
    assert normalize_ssa(theirs) == normalize_ssa(ours)
    assert normalize_ssa(theirs) != normalize_ssa(ours.replace("yield %13, %11", "yield %12, %11"))


# ----------------------------------------------------------------------------- other producers


@needs_tools
@pytest.mark.parametrize("debug_info", [False, True])
@pytest.mark.parametrize("case", sorted(CASES))
def test_render_equals_disassembly_of_our_encoder(case, debug_info):
    encode = pytest.importorskip("tileir.encode").encode
    module = CASES[case]()
    theirs = disassemble(encode(module, debug_info=debug_info), debug_info=debug_info)
    assert normalize_ssa(render(module, debug_info=debug_info)) == normalize_ssa(theirs)


def _cutile_kernels():
    """Three kernels written in cuTile Python itself (its own lowering, names and layout)."""
    ct = pytest.importorskip("cuda.tile")

    @ct.kernel
    def matmul(a, b, c):
        bx, by = ct.bid(0), ct.bid(1)
        acc = ct.zeros((64, 64), dtype=ct.float32)
        for k in range(ct.num_tiles(a, axis=1, shape=(64, 32))):
            ta = ct.load(a, index=(bx, k), shape=(64, 32), padding_mode=ct.PaddingMode.ZERO)
            tb = ct.load(b, index=(k, by), shape=(32, 64), padding_mode=ct.PaddingMode.ZERO)
            acc = ct.mma(ta, tb, acc)
        ct.store(c, index=(bx, by), tile=acc)

    @ct.kernel
    def softmax(x, y):
        bid = ct.bid(0)
        t = ct.load(x, index=(bid, 0), shape=(16, 64), padding_mode=ct.PaddingMode.NEG_INF)
        e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
        ct.store(y, index=(bid, 0), tile=e / ct.sum(e, axis=1, keepdims=True))

    @ct.kernel
    def clamp(x, y):
        bid = ct.bid(0)
        t = ct.load(x, index=(bid,), shape=(128,))
        u = ct.where(t > 0.5, t * 2.0, -t)
        if bid == 0:
            u = u + 1.0
        ct.store(y, index=(bid,), tile=ct.astype(u, ct.float16))

    return ct, [
        (matmul, [(ct.float16, 2), (ct.float16, 2), (ct.float32, 2)]),
        (softmax, [(ct.float32, 2), (ct.float32, 2)]),
        (clamp, [(ct.float32, 1), (ct.float16, 1)]),
    ]


@needs_tools
@pytest.mark.parametrize("version", ["13.1", "13.4"])
def test_cutile_compiled_kernels_decode_verify_and_render_as_disassembled(version):
    import io

    decode = pytest.importorskip("tileir.encode").decode
    from tileir.verify.checker import verify

    ct, kernels = _cutile_kernels()
    from cuda.tile.compilation import (
        ArrayConstraint,
        CallingConvention,
        KernelSignature,
        export_kernel,
    )

    for kernel, params in kernels:
        arrays = [
            ArrayConstraint(
                dt,
                nd,
                index_dtype=ct.int32,
                stride_lower_bound_incl=0,
                alias_groups=(),
                may_alias_internally=False,
            )
            for dt, nd in params
        ]
        sig = KernelSignature(arrays, CallingConvention.cutile_python_v1(), symbol="kern")
        out = io.BytesIO()
        export_kernel(
            kernel,
            [sig],
            out,
            gpu_code="sm_90",
            output_format="tileir_bytecode",
            bytecode_version=version,
        )
        module = decode(out.getvalue())
        verify(module)
        assert ssa_equal(render(module), disassemble(out.getvalue()))
