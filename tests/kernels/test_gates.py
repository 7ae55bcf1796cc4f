"""The three CPU gates pass on the chapter's kernels and turn red on mutants of what they guard."""

import shutil

from support.tools import needs_tools
from tileir.kernels.gates import gate_asm, gate_fake, gate_text, golden_paths, run_gate
from tileir.kernels.registry import KernelSpec, get

CHAPTER = [
    "vadd",
    "vadd_tail",
    "softmax",
    "matmul",
    "row_softmax",
    "transpose",
    "histogram",
    "flash_attn",
]


@needs_tools
def test_gate_text_passes_on_the_chapter():
    results = run_gate("text", [get(n) for n in CHAPTER])
    assert all(r.ok for r in results), [r.line() for r in results if not r.ok]


@needs_tools
def test_gate_asm_passes_on_two_chapter_kernels_for_every_architecture():
    results = run_gate(
        "asm", [get("matmul"), get("histogram")], archs=("sm_80", "sm_90", "sm_100", "sm_120")
    )
    assert all(r.ok for r in results), [r.line() for r in results if not r.ok]


def test_gate_fake_passes_on_the_chapter():
    results = run_gate("fake", [get(n) for n in CHAPTER])
    assert all(r.ok for r in results), [r.line() for r in results if not r.ok]


@needs_tools
def test_gate_text_turns_red_when_the_lowering_changes(monkeypatch):
    import attrs

    import tileir.lower.lowering as lowering
    from tileir.ir.module import DivBy

    original = lowering.lower

    def weaker_alignment(program):  # a mutant lowering: `assume div_by<8>` instead of 16
        module = original(program)
        fn = module.functions[0]
        ops = tuple(
            attrs.evolve(op, attrs={"predicate": DivBy(8)}) if op.name == "assume" else op
            for op in fn.body.ops
        )
        body = attrs.evolve(fn.body, ops=ops)
        return attrs.evolve(module, functions=(attrs.evolve(fn, body=body),))

    monkeypatch.setattr(lowering, "lower", weaker_alignment)
    result = gate_text(get("vadd"))
    assert not result.ok and "text differs from vadd.mlir" in result.detail


@needs_tools
def test_gate_text_turns_red_when_the_renderer_changes(monkeypatch):
    import tileir.text.render as render_module

    original = render_module.render
    monkeypatch.setattr(
        render_module, "render", lambda m, **kw: original(m, **kw).replace("addf", "subf")
    )
    result = gate_text(get("vadd"))
    assert not result.ok and "text differs" in result.detail


@needs_tools
def test_gate_text_turns_red_when_render_and_tileirdisasm_disagree(monkeypatch, tmp_path):
    import tileir.text.render as render_module
    from tileir.kernels.gates import write_golden

    original = render_module.render
    monkeypatch.setattr(
        render_module, "render", lambda m, **kw: original(m, **kw).replace("weak", "relaxed")
    )
    write_golden([get("vadd")], tmp_path)  # pinned with the mutant: only tileirdisasm can tell
    result = gate_text(get("vadd"), tmp_path)
    assert not result.ok and "tileirdisasm prints other text" in result.detail


@needs_tools
def test_gate_asm_turns_red_on_bytecode_tileiras_refuses(tmp_path):
    spec = get("vadd")
    for kind, path in golden_paths("vadd").items():
        if path.exists():
            copy = golden_paths("vadd", tmp_path)[kind]
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, copy)
    target = golden_paths("vadd", tmp_path)["bytecode"]
    data = bytearray(target.read_bytes())
    body = data.index(bytes([0x44]), 16)  # the make_token opcode in the function body
    data[body] = 0x19  # an opcode hole: no op has it
    target.write_bytes(bytes(data))
    result = gate_asm(spec, ("sm_90",), tmp_path)
    assert not result.ok and "`tileiras` refused the bytecode for sm_90" in result.detail


@needs_tools
def test_gate_asm_takes_cached_cubins_and_assembles_only_what_is_missing(monkeypatch, tmp_path):
    from tileir.real import tileiras

    runs = []
    real = tileiras.assemble

    def counted(bytecode, arch, **options):
        runs.append(arch)
        return real(bytecode, arch, **options)

    monkeypatch.setenv("TILEIR_CACHE_DIR", str(tmp_path / "cubins"))
    monkeypatch.setattr(tileiras, "assemble", counted)
    blobs = 1 + golden_paths("vadd")["latest"].exists()  # its lowest version and 13.4
    first = gate_asm(get("vadd"), ("sm_90", "sm_100"))
    assert first.ok, first.detail
    assert sorted(runs) == ["sm_100"] * blobs + ["sm_90"] * blobs
    second = gate_asm(get("vadd"), ("sm_90", "sm_100", "sm_120"))
    assert second.ok, second.detail
    assert runs.count("sm_120") == blobs and len(runs) == 3 * blobs  # only sm_120 was new


def test_golden_files_are_filed_by_family_and_conversions_by_source_format(tmp_path):
    from tileir.kernels.gates import golden_folder, stray_golden_files, write_golden

    assert golden_folder(get("vadd")).as_posix() == "chapter"
    assert golden_folder(get("cvt_f32_bf16")).as_posix() == "conversion/f32"
    assert golden_folder(get("bitcast_i8_e4m3")).as_posix() == "conversion/i8"
    paths = golden_paths("cvt_f32_bf16", tmp_path)
    assert paths["text"] == tmp_path / "conversion" / "f32" / "cvt_f32_bf16.mlir"
    written = write_golden([get("vadd"), get("cvt_f32_bf16")], tmp_path)
    assert {p.parent.relative_to(tmp_path).as_posix() for p in written} == {
        "chapter",
        "conversion/f32",
    }
    assert stray_golden_files([get("vadd"), get("cvt_f32_bf16")], tmp_path) == []
    (tmp_path / "vadd.mlir").write_text("left by the flat layout")
    assert stray_golden_files([get("vadd"), get("cvt_f32_bf16")], tmp_path) == [
        tmp_path / "vadd.mlir"
    ]


def test_gate_fake_turns_red_when_an_interpreter_rule_is_wrong(monkeypatch):
    import tileir.fake.machine as machine
    from tileir.fake.rules import NUMPY_RULES
    from tileir.ir.rule_table import rule_table

    # a mutant table: addf computes a difference (the table itself is read-only)
    mutant = {**NUMPY_RULES, "addf": NUMPY_RULES["subf"]}
    monkeypatch.setattr(machine, "NUMPY_RULES", rule_table("NUMPY_RULES", mutant))
    result = run_gate("fake", [get("vadd")])[0]
    assert not result.ok
    assert (
        "argument 2 (Out) differs from the reference at element 0 (block [0, 0, 0])"
        in result.detail
    )


def test_gate_fake_turns_red_when_a_reference_is_wrong():
    spec = get("row_softmax")

    def wrong(args):
        x, out = spec.reference(args)
        out = out.copy()
        out[5000] += 1e-6
        return [x, out]

    mutant = KernelSpec(spec.name, spec.build, wrong, spec.inputs, spec.tolerance)
    result = run_gate("fake", [mutant])[0]
    assert not result.ok and "element 5000 (block [2, 0, 0])" in result.detail


def _retyped(module, change):
    """``module`` with every value's type passed through ``change`` (a mutant lowering)."""
    import attrs

    from tileir.ir.module import Block, Value

    def value(v):
        return Value(v.id, change(v.type))

    def block(b):
        return Block(
            [value(a) for a in b.args],
            [
                attrs.evolve(
                    op,
                    operands=[value(v) for v in op.operands],
                    results=[value(v) for v in op.results],
                    regions=[block(r) for r in op.regions],
                )
                for op in b.ops
            ],
        )

    fns = [
        attrs.evolve(f, params=[value(p) for p in f.params], body=block(f.body))
        for f in module.functions
    ]
    return attrs.evolve(module, functions=fns)


def test_gate_fake_turns_red_when_the_lowering_drops_padding(monkeypatch):
    """softmax over 3 of 4 lanes: with zero padding instead of neg_inf every value is off."""
    import attrs

    import tileir.lower.lowering as lowering
    from tileir.types import PartitionViewType

    original = lowering.lower

    def zero_padding(program):
        return _retyped(
            original(program),
            lambda t: attrs.evolve(t, padding="zero") if isinstance(t, PartitionViewType) else t,
        )

    monkeypatch.setattr(lowering, "lower", zero_padding)
    result = gate_fake(get("softmax"))
    assert not result.ok and "argument 1 (Out)" in result.detail
