"""Conversions between format pairs: the fake device's rounding into fnv8E5M3FNU and tf32,
the reference rounding, which pairs tileiras accepts (tileir.kernels.conversions.
dialect_accepts, measured: docs/conversions.md) and that each accepted pair has a kernel.

``python tests/kernels/test_conversion_pairs.py`` measures the whole table again with tileiras
(every op, every pair of the 16 formats, every rounding) and prints it with any
disagreement with ``dialect_accepts``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

# tests/, where the tests' helpers (support/) are, for a run as a script (pytest has it already)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.tools import needs_tools
from tileir import (
    BF16,
    F8E4M3FN,
    F16,
    F32,
    FNV8E5M3FNU,
    I1,
    I4,
    I8,
    TF32,
    In,
    Out,
    bitcast,
    cells,
    convert,
    load_cell,
    store_cell,
    trace,
)
from tileir.errors import RecordingError, ToolError
from tileir.fake import FakeDevice
from tileir.fake.interpreter import interpret
from tileir.ir.module import Module
from tileir.kernels.conversions import covered_by, dialect_accepts
from tileir.kernels.floatref import round_to
from tileir.kernels.registry import specs
from tileir.types import FORMATS, Format, TileType

OPS = ("ftof", "ftoi", "itof", "exti", "trunci", "bitcast")
MODES = ("nearest_even", "zero", "negative_inf", "positive_inf", "nearest_away")


# ----------------------------------------------------------------------------- fnv8 ties


def _fnv8_value(code: int) -> float:
    """fnv8E5M3FNU from its definition: unsigned, 5 exponent bits (bias 15), 3 fraction
    bits, subnormal at exponent 0 (0xFF is NaN, never asked for here)."""
    e, m = code >> 3, code & 7
    return (m / 8) * 2.0**-14 if e == 0 else (1 + m / 8) * 2.0 ** (e - 15)


def _convert_on_fake(src: Format, values: np.ndarray) -> np.ndarray:
    def body(a, out):
        x = yield load_cell(a)
        yield store_cell(out, convert(x, FNV8E5M3FNU))

    n = 256
    g = cells([n], [128])
    k = trace("to_fnv8", body, In(src, g), Out(FNV8E5M3FNU, g))
    x = np.zeros(n, src.numpy_dtype)
    x[: values.size] = values.astype(src.numpy_dtype)
    assert np.array_equal(x[: values.size].astype(np.float64), values)  # exact in src
    out = FakeDevice(mode="interpret").run(k, x, np.zeros(n, np.uint8))
    return np.asarray(out[1])[: values.size].astype(np.int64)


@pytest.mark.parametrize("src", [F32, F16, BF16], ids=str)
def test_fake_ftof_to_fnv8_rounds_ties_to_the_even_code(src):
    # every midpoint between neighbouring codes that src holds (f16 stops at 65504)
    top = {"f16": 65504.0}.get(src.name, np.inf)
    mids, want = [], []
    for code in range(254):  # 0xFE is the largest finite code
        mid = (_fnv8_value(code) + _fnv8_value(code + 1)) / 2
        if mid <= top:
            mids.append(mid)
            want.append(code if code % 2 == 0 else code + 1)
    got = _convert_on_fake(src, np.array(mids))
    assert got[mids.index(47104.0)] == 244  # 45056 (0xF3) .. 49152 (0xF4)
    bad = np.flatnonzero(got != np.array(want))
    assert bad.size == 0, [(mids[i], int(got[i]), want[i]) for i in bad[:5]]
    assert len(mids) > 200


def test_fake_ftof_to_fnv8_47104_gives_244_and_off_ties_go_to_the_nearer():
    assert _convert_on_fake(F32, np.array([47104.0]))[0] == 244  # 45056 (243) .. 49152 (244)
    hair = 2.0**-20  # exact in f32 next to these values
    near = np.array([47103.0, 47105.0, 1.0625, 1.0625 + hair, 1.1875, 1.1875 - hair])
    assert _convert_on_fake(F32, near).tolist() == [243, 244, 120, 121, 122, 121]


# ----------------------------------------------------------------------------- tf32


def test_reference_rounds_f64_to_tf32_once():
    # 1 + 2^-11 is a tf32 tie; a hair above it rounds up, which a first rounding to f32
    # (losing the hair) would turn into a tie going down to the even 1.0
    x = np.array([1 + 2**-11 + 2**-40, -(1 + 2**-11 + 2**-40), 1 + 2**-11])
    assert round_to(x, TF32, "nearest_even").tolist() == [1 + 2**-10, -(1 + 2**-10), 1.0]
    assert round_to(x, TF32, "nearest_away").tolist() == [1 + 2**-10, -(1 + 2**-10), 1 + 2**-10]
    assert round_to(x, TF32, "zero").tolist() == [1.0, -1.0, 1.0]
    assert round_to(x, TF32, "positive_inf").tolist() == [1 + 2**-10, -1.0, 1 + 2**-10]
    assert round_to(x, TF32, "negative_inf").tolist() == [1.0, -(1 + 2**-10), 1.0]


def _cell_ftof(src: Format, dst: Format, mode: str, carrier: Format = None):
    """A kernel's Module converting a cell of ``src`` (in a ``carrier`` buffer, bitcast) to
    ``dst`` rounding ``mode``: recorded with rounding zero, then the ftof's rounding set to
    ``mode``, which the recorder may refuse (tileiras cannot compile it) although the
    dialect's verifier, the interpreter and a third-party producer take it."""
    import attrs

    carrier = carrier or src

    def body(a, out):
        x = yield load_cell(a)
        yield store_cell(
            out, convert(bitcast(x, src) if carrier != src else x, dst, rounding="zero")
        )

    g = cells([128], [128])
    fn = trace("cell_ftof", body, In(carrier, g), Out(dst, g)).function
    ops = tuple(
        attrs.evolve(op, attrs=op.attrs.set("rounding", mode)) if op.name == "ftof" else op
        for op in fn.body.ops
    )
    return Module((attrs.evolve(fn, body=attrs.evolve(fn.body, ops=ops)),))


def test_fake_ftof_into_tf32_toward_an_infinity():
    # the verifier takes f16 -> tf32 rounding toward an infinity (exact: every f16 is a tf32)
    x = np.random.default_rng(1).uniform(-1000, 1000, 128).astype(np.float16)
    got = interpret(
        _cell_ftof(F16, TF32, "positive_inf"),
        "cell_ftof",
        [x, np.zeros(128, np.float32)],
        (1, 1, 1),
    )[1]
    assert np.array_equal(np.asarray(got), x.astype(np.float32))


@pytest.mark.parametrize(
    "src, dst, mode", [(F16, TF32, "negative_inf"), (F8E4M3FN, BF16, "nearest_away")], ids=str
)
def test_the_recorder_refuses_ftof_tileiras_cannot_compile(src, dst, mode):
    def body(a, out):
        x = yield load_cell(a)
        yield store_cell(out, convert(x, dst, rounding=mode))

    g = cells([128], [128])
    with pytest.raises(RecordingError, match="tileiras fails to compile it") as err:
        trace("uncompilable", body, In(src, g), Out(dst, g))
    assert err.value.op == "ftof" and "test_conversion_pairs.py" in err.value.where
    assert mode in dialect_accepts("ftof", src, dst, compiled=False)


# ----------------------------------------------------------------------------- the table


def _combinations(compiled: bool = True):
    for op in OPS:
        for src in FORMATS:
            for dst in FORMATS:
                for mode in dialect_accepts(op, src, dst, compiled):
                    yield op, src.name, dst.name, mode


def test_every_accepted_combination_has_a_kernel_and_no_kernel_holds_another():
    found = set()
    for spec in specs():
        if spec.family == "conversion":
            found |= covered_by(spec.kernel().module)
    accepted = set(_combinations())
    missing = accepted - found
    assert not missing, sorted(missing)
    assert not found - accepted, sorted(found - accepted)
    # the counts docs/conversions.md gives: 213 ftof, 50 ftoi, 45 itof, 15 exti, 15 trunci,
    # 45 bitcast
    per_op = {op: sum(1 for c in accepted if c[0] == op) for op in OPS}
    assert per_op == {"ftof": 213, "ftoi": 50, "itof": 45, "exti": 15, "trunci": 15, "bitcast": 45}


def test_the_verifier_takes_more_ftof_roundings_than_tileiras_compiles():
    verified = set(_combinations(compiled=False)) - set(_combinations())
    assert len(verified) == 21 and {c[0] for c in verified} == {"ftof"}
    assert {c[2] for c in verified} == {"tf32", "bf16"}


@pytest.mark.parametrize("fmt", [I1, Format("f4E2M1FN")], ids=str)
def test_narrow_formats_bitcast_to_themselves_only(fmt):
    def cast(to):
        def body(a, out):
            x = yield load_cell(a)
            yield store_cell(out, bitcast(x, to))

        return body

    g = cells([16], [16])
    same = trace("same_bits", cast(fmt), In(fmt, g), Out(fmt, g))
    assert covered_by(same.module) == {("bitcast", fmt.name, fmt.name, "")}
    with pytest.raises(RecordingError, match="the widths differ"):
        trace("other_bits", cast(I8), In(fmt, g), Out(I8, g))


def test_an_i1_converts_unsigned_unless_asked_and_i4_never_to_float():
    seen = {}

    def body(a, out):
        x = yield load_cell(a)
        m = x > 0.0
        seen["default"] = convert(m, F32).attrs.get("signedness", "signed")
        seen["signed"] = convert(m, F32, signed=True).attrs.get("signedness", "signed")
        with pytest.raises(RecordingError, match="itof does not read i4 tiles"):
            convert(convert(convert(x, I8), I4), F32)
        yield store_cell(out, x)

    g = cells([16], [16])
    trace("masks", body, In(F32, g), Out(F32, g))
    assert seen == {"default": "unsigned", "signed": "signed"}


# ----------------------------------------------------------------------------- tileiras


def _archs(src: Format, dst: Format) -> tuple:
    names = {src.name, dst.name}
    if "fnv8E5M3FNU" in names:
        return ("sm_107",)
    return ("sm_100",) if names & {"f8E8M0FNU", "f4E2M1FN"} else ("sm_90", "sm_100")


def _lone_op(op: str, src: Format, dst: Format, mode: str):
    """A module holding ``op`` from ``src`` to ``dst`` on a constant (i4: trunci of an i8
    constant, a constant cannot be i4).  Its result is unused, so tileiras verifies the op
    but need not compile it."""
    from support.build import FunctionBuilder
    from tileir.ir.module import Module
    from tileir.ir.numerics import dense_of

    b = FunctionBuilder("lone")
    first = I8 if src == I4 else src
    x = b.op("constant", [], [TileType((16,), first)], value=dense_of(TileType((16,), first), 1))
    if src == I4:
        x = b.op("trunci", [x], [TileType((16,), I4)])
    attrs = {"rounding": mode} if op == "ftof" else {}
    b.op(op, [x], [TileType((16,), dst)], **attrs)
    return Module((b.finish(),))


def _verifies(op, src, dst, mode) -> bool:
    from tileir.encode import encode
    from tileir.real.tileiras import assemble

    data = encode(_lone_op(op, src, dst, mode))
    try:
        for arch in _archs(src, dst):
            assemble(data, arch, kernel="lone")
    except ToolError:
        return False
    return True


def _compiles(module, src, dst) -> bool:
    from tileir.encode import encode
    from tileir.real.tileiras import assemble, tool_version
    from tileir.real.toolchains import facts_for

    try:
        for arch in _archs(src, dst):
            assemble(encode(module), arch, kernel=module.functions[0].name)
    except ToolError as err:  # the way this release refuses it, not some other failure
        assert facts_for(tool_version()).ftof_refusal in str(err)
        return False
    return True


_SAMPLE = [
    ("ftof", F16, Format("fnv8E5M3FNU"), "nearest_even"),
    ("ftof", F32, TF32, "zero"),
    ("ftof", F32, TF32, "positive_inf"),
    ("ftof", F16, F16, "nearest_even"),
    ("ftof", Format("f8E8M0FNU"), F32, "positive_inf"),
    ("ftoi", F32, I1, ""),
    ("ftoi", F32, I4, ""),
    ("itof", I1, F8E4M3FN, ""),
    ("itof", I4, F32, ""),
    ("itof", I8, Format("f8E8M0FNU"), ""),
    ("exti", I1, I4, ""),
    ("exti", I4, I8, ""),
    ("exti", I8, I8, ""),
    ("trunci", I4, I1, ""),
    ("trunci", I8, I8, ""),
    ("bitcast", F16, BF16, ""),
    ("bitcast", TF32, F32, ""),
    ("bitcast", I1, I1, ""),
    ("bitcast", I4, I4, ""),
    ("bitcast", Format("fnv8E5M3FNU"), F8E4M3FN, ""),
    ("ftof", I8, F16, "nearest_even"),
    ("itof", F32, F16, ""),
]


@needs_tools
@pytest.mark.parametrize(
    "op, src, dst, mode", _SAMPLE, ids=[f"{o}-{s}-{d}-{m}" for o, s, d, m in _SAMPLE]
)
def test_tileiras_verifies_what_dialect_accepts_says(op, src, dst, mode):
    assert _verifies(op, src, dst, mode) == (mode in dialect_accepts(op, src, dst, False))


@needs_tools
@pytest.mark.parametrize(
    "src, dst, mode",
    [
        (F16, TF32, "negative_inf"),
        (F16, TF32, "zero"),
        (F8E4M3FN, BF16, "nearest_away"),
        (F8E4M3FN, BF16, "zero"),
        (Format("fnv8E5M3FNU"), BF16, "nearest_away"),
    ],
    ids=str,
)
def test_tileiras_compiles_a_used_ftof_as_dialect_accepts_says(src, dst, mode):
    module = _cell_ftof(src, dst, mode, I8 if src.bits == 8 else src)
    assert _compiles(module, src, dst) == (mode in dialect_accepts("ftof", src, dst))
    assert mode in dialect_accepts("ftof", src, dst, compiled=False)


# ----------------------------------------------------------------------------- the audit


def audit() -> int:
    """Measure every (op, src, dst, rounding) with tileiras; print the table (markdown) and
    every disagreement with dialect_accepts(compiled=False); answers the disagreements."""
    rows, wrong = [], 0
    for op in OPS:
        for src in FORMATS:
            for dst in FORMATS:
                modes = MODES if op == "ftof" else ("",)
                taken = tuple(m for m in modes if _verifies(op, src, dst, m))
                if taken != dialect_accepts(op, src, dst, compiled=False):
                    wrong += 1
                    print(
                        f"DIFFERS: {op} {src} -> {dst}: tileiras {taken}, dialect_accepts "
                        f"{dialect_accepts(op, src, dst, compiled=False)}",
                        file=sys.stderr,
                    )
                if taken:
                    rows.append((op, src.name, dst.name, ", ".join(m for m in taken if m)))
    print("| op | source | destination | roundings |\n|---|---|---|---|")
    for op, src, dst, modes in rows:
        print(f"| {op} | {src} | {dst} | {modes} |")
    print(f"{len(rows)} accepted pairs, {wrong} disagreement(s)", file=sys.stderr)
    return wrong


if __name__ == "__main__":
    sys.exit(1 if audit() else 0)
