"""The bytecode encoder against NVIDIA's tools, version by version.

Hand-built Modules (``support.samples``: every body op, family by
family) are encoded for each version that holds them; ``tileirdisasm`` (which
runs the dialect's verifier on what it reads) must accept every one, a sample
must assemble with ``tileiras`` for sm_90, and decoding must give the
canonical Module back.  Version selection, version refusals, structural
refusals and debug info are checked here too.
"""

from __future__ import annotations

import pytest

from support.build import FunctionBuilder
from support.samples import (
    FAMILIES,
    control_family,
    family_versions,
    matmul_loop_module,
    memory_family,
    reduce_family,
    vadd_module,
)
from support.tools import needs_tools
from tileir.encode import OP_CODECS, canonicalize, decode, encode, required_version, version_needs
from tileir.encode.typecodec import TypeTable
from tileir.errors import EncodeError
from tileir.ir.dialect import BODY_OPS, VERSIONS
from tileir.ir.memo import clear_memos
from tileir.ir.module import (
    Block,
    Dense,
    DIFile,
    Function,
    Global,
    Loc,
    Module,
    Op,
    Subprogram,
    Value,
    walk,
)
from tileir.ir.numerics import dense_of
from tileir.real import tileiras
from tileir.types import (
    F4E2M1FN,
    F8E8M0FNU,
    F16,
    F32,
    FNV8E5M3FNU,
    I1,
    I4,
    I8,
    I32,
    I64,
    TF32,
    TOKEN,
    PartitionViewType,
    PointerType,
    TensorViewType,
    TileType,
)

S32, S1 = TileType((), I32), TileType((), I1)
T16 = TileType((16,), F32)
CASES = list(family_versions())


def test_codec_table_covers_every_body_op():
    assert set(OP_CODECS) == set(BODY_OPS)
    assert all(OP_CODECS[name].name == name for name in BODY_OPS)


def test_sample_families_use_every_body_op():
    used = {op.name for _, _, m in CASES for f in m.functions for op in walk(f.body)}
    assert used == set(BODY_OPS), sorted(set(BODY_OPS) - used)


@needs_tools
@pytest.mark.parametrize(
    "family,version,module", CASES, ids=[f"{name}-{v[0]}.{v[1]}" for name, v, _ in CASES]
)
def test_tileirdisasm_accepts_every_family_in_every_version(family, version, module):
    data = encode(module, version)
    assert data[:12] == b"\x7fTileIR\x00" + bytes(version) + b"\x00\x00"
    text = tileiras.disassemble(data)
    name = module.functions[0].name
    assert f"entry @{name}(" in text
    back = decode(data)
    assert back == canonicalize(module)
    assert encode(back, version) == data


@needs_tools
def test_our_bytes_print_as_cutiles_writer_prints_the_same_module():
    # tests/support/oracle_cutile.py (the renderer's oracle) writes a Module with NVIDIA's encoders
    oracle = pytest.importorskip("support.oracle_cutile")
    for family, version, module in CASES:
        if family == "control" and version == (13, 1):
            continue  # cuTile's 13.1 print has no token result for the oracle to bind
        theirs = oracle.oracle_text(module, version=f"{version[0]}.{version[1]}")
        assert tileiras.disassemble(encode(module, version)) == theirs, (family, version)


@pytest.mark.parametrize("name,first,build", FAMILIES, ids=[f[0] for f in FAMILIES])
def test_a_family_built_for_its_first_version_needs_exactly_that(name, first, build):
    assert required_version(build(first)) == first


@needs_tools
@pytest.mark.parametrize(
    "module,version",
    [
        (vadd_module(), (13, 1)),
        (matmul_loop_module(), (13, 2)),
        (reduce_family((13, 3)), (13, 3)),
        (control_family((13, 1)), (13, 1)),
        (memory_family((13, 4)), (13, 4)),
    ],
    ids=["vadd", "matmul-for-mmaf", "reduce-scan", "if-loop-break", "atomics-pointers"],
)
def test_tileiras_assembles_a_sample_for_sm_90(module, version):
    cubin = tileiras.assemble(encode(module, version, debug_info=True), "sm_90", lineinfo=True)
    assert cubin[:4] == b"\x7fELF"


# ----------------------------------------------------------------------------- versions


def _one_op(build, loc=Loc("/src/k.py", 42, 7)):
    b = FunctionBuilder("k", [S32, TileType((), PointerType(F32))])
    build(b, loc)
    return Module((b.finish(),))


def _const(b, t, v=1.0):
    return b.op("constant", [], [t], value=dense_of(t, v))


def _iv(b):
    return _const(b, S32, 0)


VERSION_CASES = {
    "atan2": ((13, 2), lambda b, at: b.op("atan2", [_const(b, T16)] * 2, [T16], loc=at)),
    "f8E8M0FNU": ((13, 2), lambda b, at: _const(b, TileType((4,), F8E8M0FNU))),
    "print_tko with a token": (
        (13, 2),
        lambda b, at: b.op(
            "print_tko",
            [b.params[0], b.op("make_token", [], [TOKEN])],
            [TOKEN],
            segments=(1, 1),
            format="%d",
            loc=at,
        ),
    ),
    "print_tko result used": (
        (13, 2),
        lambda b, at: b.op(
            "join_tokens",
            [
                b.op("print_tko", [b.params[0]], [TOKEN], segments=(1, 0), format="%d", loc=at),
                b.op("make_token", [], [TOKEN]),
            ],
            [TOKEN],
        ),
    ),
    "unsigned_cmp": (
        (13, 2),
        lambda b, at: b.region_op(
            "for",
            [b.params[0]] * 3,
            [],
            [([S32], lambda bb, i: bb.op("continue", []))],
            unsigned_cmp=True,
            loc=at,
        ),
    ),
    "tanh rounding": (
        (13, 2),
        lambda b, at: b.op("tanh", [_const(b, T16)], [T16], rounding="approx", loc=at),
    ),
    "negi overflow": (
        (13, 2),
        lambda b, at: b.op("negi", [b.params[0]], [S32], overflow="no_signed_wrap", loc=at),
    ),
    "exp rounding": (
        (13, 3),
        lambda b, at: b.op("exp", [_const(b, T16)], [T16], rounding="approx", loc=at),
    ),
    "mmaf fast_acc": (
        (13, 3),
        lambda b, at: b.op(
            "mmaf",
            [_const(b, TileType((16, 16), F16))] * 2 + [_const(b, TileType((16, 16), F32))],
            [TileType((16, 16), F32)],
            fast_acc=True,
            loc=at,
        ),
    ),
    "pack": (
        (13, 3),
        lambda b, at: b.op("pack", [_const(b, TileType((4,), F16))], [TileType((8,), I8)], loc=at),
    ),
    "alloca": (
        (13, 3),
        lambda b, at: b.op(
            "alloca", [], [TileType((), PointerType(F32))], num_elem=4, alignment=16, loc=at
        ),
    ),
    "i4": (
        (13, 3),
        lambda b, at: b.op(
            "trunci", [_const(b, TileType((4,), I8), 1)], [TileType((4,), I4)], loc=at
        ),
    ),
    "f4E2M1FN": ((13, 3), lambda b, at: _const(b, TileType((4,), F4E2M1FN))),
    "insert": (
        (13, 4),
        lambda b, at: b.op(
            "insert",
            [_const(b, TileType((4,), F32)), _const(b, TileType((8,), F32)), _iv(b)],
            [TileType((8,), F32)],
            loc=at,
        ),
    ),
    "fpowi": (
        (13, 4),
        lambda b, at: b.op(
            "fpowi", [_const(b, T16), _const(b, TileType((16,), I32), 2)], [T16], loc=at
        ),
    ),
    "gdc_wait_tko": ((13, 4), lambda b, at: b.op("gdc_wait_tko", [], [TOKEN], loc=at)),
    "gdc_launch_dependents_tko": (
        (13, 4),
        lambda b, at: b.op("gdc_launch_dependents_tko", [], [TOKEN], loc=at),
    ),
    "memory_fence_alias_tko": (
        (13, 4),
        lambda b, at: b.op(
            "memory_fence_alias_tko", [b.op("make_token", [], [TOKEN])], [TOKEN], loc=at
        ),
    ),
    "fnv8E5M3FNU": ((13, 4), lambda b, at: _const(b, TileType((4,), FNV8E5M3FNU))),
    "nearest_away": (
        (13, 4),
        lambda b, at: b.op(
            "ftof", [_const(b, T16)], [TileType((16,), TF32)], rounding="nearest_away", loc=at
        ),
    ),
    "saturating": (
        (13, 4),
        lambda b, at: b.op(
            "ftoi", [_const(b, T16)], [TileType((16,), I32)], saturating=True, loc=at
        ),
    ),
    "true inbounds": ((13, 4), lambda b, at: _inbounds(b, at)),
    "ptr_attr": (
        (13, 4),
        lambda b, at: b.op(
            "int_to_ptr",
            [_const(b, TileType((4,), I64), 0)],
            [TileType((4,), PointerType(F32, "none"))],
            loc=at,
        ),
    ),
}


def _inbounds(b, at):
    tv_t = TensorViewType(F32, (64,), (1,))
    tv = b.op("make_tensor_view", [b.params[1]], [tv_t], segments=(1, 0, 0))
    pv = b.op("make_partition_view", [tv], [PartitionViewType((16,), tv_t, (0,))])
    b.op(
        "load_view_tko",
        [pv, b.params[0]],
        [T16, TOKEN],
        segments=(1, 1, 0),
        inbounds=(True,),
        loc=at,
    )


@pytest.mark.tools  # tileirdisasm reads each file where it is installed
@pytest.mark.parametrize("what", sorted(VERSION_CASES))
def test_required_version_and_refusal_below_it(what):
    need, build = VERSION_CASES[what]
    m = _one_op(build)
    assert required_version(m) == need
    assert max(v for _, v in version_needs(m)) == need
    data = encode(m)
    assert data[8:10] == bytes(need)
    assert decode(data) == canonicalize(m)
    if tileiras.available():
        tileiras.disassemble(data)
    below = VERSIONS[VERSIONS.index(need) - 1]
    with pytest.raises(EncodeError) as err:
        encode(m, below)
    text = str(err.value)
    assert "kernel `k`" in text and f"needs bytecode {need[0]}.{need[1]}" in text
    assert f"{below[0]}.{below[1]} was asked" in text
    if "at /src/k.py:42" not in text:  # types and constants carry no op location
        assert "type" in text


def test_version_needs_explains_in_module_order():
    m = _one_op(
        lambda b, at: [VERSION_CASES["atan2"][1](b, at), VERSION_CASES["insert"][1](b, at)]
    )
    needs = version_needs(m)
    assert [v for _, v in needs] == [(13, 2), (13, 4)]
    assert "op `atan2` in function `k` (at /src/k.py:42)" == needs[0][0]
    assert "op `insert`" in needs[1][0]


def test_plain_modules_need_13_1_and_versions_may_be_text():
    m = vadd_module()
    assert required_version(m) == (13, 1) and version_needs(m) == []
    assert encode(m, "13.3")[8:10] == bytes((13, 3))
    for bad in ("13.0", "13.6", "fourteen", (12, 9)):
        with pytest.raises(EncodeError, match="not"):
            encode(m, bad)


def test_producer_and_global_flags_need_13_3():
    g = Global("g", dense_of(TileType((2,), F32), [1.0, 2.0]), constant=False)
    b = FunctionBuilder("k")
    b.op("get_global", [], [TileType((), PointerType(F32))], name="g")
    m = Module((b.finish(),), (g,))
    assert required_version(m) == (13, 1)
    assert required_version(Module(m.functions, (g,), producer="me")) == (13, 3)
    constant = Global("g", g.value, constant=True)
    assert required_version(Module(m.functions, (constant,))) == (13, 3)
    for v in VERSIONS:
        assert decode(encode(m, v)) == m


# ----------------------------------------------------------------------------- structure


def _fn(*ops, params=(Value(0, S32),)):
    return Module((Function("k", params, Block((), ops)),))


@pytest.mark.parametrize(
    "module,words",
    [
        (
            _fn(Op("addi", (Value(0, S32), Value(5, S32)), (Value(1, S32),)), Op("return")),
            "%5 is not defined",
        ),
        (
            _fn(Op("addi", (Value(0, S32), Value(0, S32)), (Value(1, S32),))),
            "must end in `return`",
        ),
        (_fn(Op("return"), Op("return")), "middle of a block"),
        (_fn(Op("addi", (Value(0, S32), Value(0, S32)), ()), Op("return")), "has 0 results"),
        (
            _fn(Op("negi", (Value(0, S32),), (Value(1, S32),), {"speed": 3}), Op("return")),
            "no attribute 'speed'",
        ),
        (
            _fn(Op("cmpi", (Value(0, S32), Value(0, S32)), (Value(1, S1),)), Op("return")),
            "'comparison_predicate' is required",
        ),
        (
            _fn(
                Op("constant", (), (Value(1, T16),), {"value": Dense(T16, b"\0\0")}), Op("return")
            ),
            "do not hold",
        ),
        (
            _fn(
                Op("addi", (Value(0, TileType((), F32)), Value(0, S32)), (Value(1, S32),)),
                Op("return"),
            ),
            "has type tile<f32> but was defined as tile<i32>",
        ),
        (_fn(Op("frobnicate"), Op("return")), "not a body op"),
        (
            _fn(Op("if", (Value(0, S1),), (), (), ()), Op("return"), params=(Value(0, S1),)),
            "0 regions",
        ),
    ],
    ids=[
        "scope",
        "no-return",
        "two-terminators",
        "results",
        "unknown-attr",
        "missing-attr",
        "dense-length",
        "operand-type",
        "unknown-op",
        "regions",
    ],
)
def test_structural_faults_are_encode_errors_naming_the_op(module, words):
    with pytest.raises(EncodeError, match=words) as err:
        encode(module, (13, 1))
    assert "kernel `k`" in str(err.value)


def test_block_values_go_out_of_scope_when_the_block_closes():
    b = FunctionBuilder("k", [S32])
    inner = []
    b.region_op(
        "for",
        [b.params[0]] * 3,
        [],
        [
            (
                [S32],
                lambda bb, i: (inner.append(bb.op("addi", [i, i], [S32])), bb.op("continue", [])),
            )
        ],
    )
    b.op("negi", [inner[0]], [S32])
    with pytest.raises(EncodeError, match="not defined"):
        encode(Module((b.finish(),)))


def test_canonical_modules_are_fixed_points_and_ids_never_roll_back():
    m = decode(encode(control_family((13, 4))))
    assert canonicalize(m) == m
    ids = [
        v.id
        for f in m.functions
        for op in walk(f.body)
        for v in op.results + tuple(a for r in op.regions for a in r.args)
    ]
    assert len(ids) == len(set(ids))  # unique function-wide, unlike bytecode indices


# ----------------------------------------------------------------------------- debug info


def test_debug_info_round_trips_locations():
    m = vadd_module()
    back = decode(encode(m, debug_info=True))
    fn, got = m.functions[0], back.functions[0]
    # the function's own subprogram comes back as a value: tileir's is made from its `def`
    file = DIFile("vadd.py", "/work")
    sub = Subprogram(file, 5, "vadd", "vadd", file, 5)
    assert got.loc == Loc("/work/vadd.py", 5, 0, "vadd", sub)
    for ours, theirs in zip(walk(fn.body), walk(got.body)):
        # file, line and column come back; `function` is the entry the op sits in
        assert _where(theirs.loc) == _where(ours.loc)
        assert theirs.loc is None or theirs.loc.function == "vadd"
    assert any(op.loc for op in walk(got.body))
    assert all(op.loc is None for op in walk(decode(encode(m)).functions[0].body))


def _where(loc):
    return None if loc is None else (loc.file, loc.line, loc.column)


@needs_tools
def test_tileirdisasm_g_shows_the_python_file_and_line():
    text = tileiras.disassemble(encode(vadd_module(), debug_info=True), debug_info=True)
    assert '#cuda_tile.di_file<"vadd.py" in "/work">' in text
    assert 'loc("/work/vadd.py":9:12)' in text
    assert 'name = "vadd", linkageName = "vadd"' in text
    assert "loc(#loc" in text


def test_a_type_object_an_earlier_file_held_gets_the_entry_a_cold_table_gives():
    # the entries kept per type object (typecodec._OBJECT_ENTRIES) depend on its part's
    # index, which differs from file to file: each table must give what a cold one gives
    tile = TileType((4,), F32)
    view = TensorViewType(F32, (4,), (1,))
    orders = [[tile, view], [I32, tile, view], [PointerType(I32), view, tile], [view, tile]]

    def table(order):
        t = TypeTable((13, 4))
        return [t.index(x) for x in order], t.entries

    cold = []
    for order in orders:
        clear_memos()
        cold.append(table(order))
    assert [table(order) for order in orders] == cold  # each after the others, warm
    assert [table(order) for order in reversed(orders)] == cold[::-1]
