"""The three CPU gates pass on the chapter's kernels and turn red on mutants of what they guard."""

import shutil

import pytest

from tileir.gates import gate_asm, gate_fake, gate_text, golden_paths, run_gate
from tileir.kernels.registry import KernelSpec, get
from tileir.real.tileiras import available

CHAPTER = ["vadd", "vadd_tail", "softmax", "matmul", "row_softmax", "transpose", "histogram",
           "flash_attn"]
needs_tools = pytest.mark.skipif(not available(), reason="tileiras / tileirdisasm not installed")


@needs_tools
def test_gate_text_passes_on_the_chapter():
    results = run_gate("text", [get(n) for n in CHAPTER])
    assert all(r.ok for r in results), [r.line() for r in results if not r.ok]


@needs_tools
def test_gate_asm_passes_on_two_chapter_kernels_for_every_architecture():
    results = run_gate("asm", [get("matmul"), get("histogram")],
                       archs=("sm_80", "sm_90", "sm_100", "sm_120"))
    assert all(r.ok for r in results), [r.line() for r in results if not r.ok]


def test_gate_fake_passes_on_the_chapter():
    results = run_gate("fake", [get(n) for n in CHAPTER])
    assert all(r.ok for r in results), [r.line() for r in results if not r.ok]


@needs_tools
def test_gate_text_turns_red_when_the_lowering_changes(monkeypatch):
    import attrs

    import tileir.lower.lowering as lowering
    from tileir.module import DivBy

    original = lowering.lower

    def weaker_alignment(program):  # a mutant lowering: `assume div_by<8>` instead of 16
        module = original(program)
        fn = module.functions[0]
        ops = tuple(attrs.evolve(op, attrs={"predicate": DivBy(8)}) if op.name == "assume"
                    else op for op in fn.body.ops)
        body = attrs.evolve(fn.body, ops=ops)
        return attrs.evolve(module, functions=(attrs.evolve(fn, body=body),))

    monkeypatch.setattr(lowering, "lower", weaker_alignment)
    result = gate_text(get("vadd"))
    assert not result.ok and "text differs from vadd.mlir" in result.detail


@needs_tools
def test_gate_text_turns_red_when_the_renderer_changes(monkeypatch):
    import tileir.lower.render as render_module

    original = render_module.render
    monkeypatch.setattr(render_module, "render",
                        lambda m, **kw: original(m, **kw).replace("addf", "subf"))
    result = gate_text(get("vadd"))
    assert not result.ok and "text differs" in result.detail


@needs_tools
def test_gate_text_turns_red_when_render_and_tileirdisasm_disagree(monkeypatch, tmp_path):
    import tileir.lower.render as render_module
    from tileir.gates import write_golden

    original = render_module.render
    monkeypatch.setattr(render_module, "render",
                        lambda m, **kw: original(m, **kw).replace("weak", "relaxed"))
    write_golden([get("vadd")], tmp_path)  # pinned with the mutant: only tileirdisasm can tell
    result = gate_text(get("vadd"), tmp_path)
    assert not result.ok and "tileirdisasm prints other text" in result.detail


@needs_tools
def test_gate_asm_turns_red_on_bytecode_tileiras_refuses(tmp_path):
    spec = get("vadd")
    for kind, path in golden_paths("vadd").items():
        if path.exists():
            shutil.copy(path, golden_paths("vadd", tmp_path)[kind])
    target = golden_paths("vadd", tmp_path)["bytecode"]
    data = bytearray(target.read_bytes())
    body = data.index(bytes([0x44]), 16)  # the make_token opcode in the function body
    data[body] = 0x19  # an opcode hole: no op has it
    target.write_bytes(bytes(data))
    result = gate_asm(spec, ("sm_90",), tmp_path)
    assert not result.ok and "`tileiras` refused the bytecode for sm_90" in result.detail


def test_gate_fake_turns_red_when_an_interpreter_rule_is_wrong(monkeypatch):
    from tileir.fake.rules import NUMPY_RULES

    monkeypatch.setitem(NUMPY_RULES, "addf", NUMPY_RULES["subf"])
    result = run_gate("fake", [get("vadd")])[0]
    assert not result.ok
    assert "argument 2 (Out) differs from the reference at element 0 (block [0, 0, 0])" \
        in result.detail


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

    from tileir.module import Block, Value

    def value(v):
        return Value(v.id, change(v.type))

    def block(b):
        return Block([value(a) for a in b.args], [
            attrs.evolve(op, operands=[value(v) for v in op.operands],
                         results=[value(v) for v in op.results],
                         regions=[block(r) for r in op.regions]) for op in b.ops])

    fns = [attrs.evolve(f, params=[value(p) for p in f.params], body=block(f.body))
           for f in module.functions]
    return attrs.evolve(module, functions=fns)


def test_gate_fake_turns_red_when_the_lowering_drops_padding(monkeypatch):
    """softmax over 3 of 4 lanes: with zero padding instead of neg_inf every value is off."""
    import attrs

    import tileir.lower.lowering as lowering
    from tileir.types import PartitionViewType

    original = lowering.lower

    def zero_padding(program):
        return _retyped(original(program), lambda t: attrs.evolve(t, padding="zero")
                        if isinstance(t, PartitionViewType) else t)

    monkeypatch.setattr(lowering, "lower", zero_padding)
    result = gate_fake(get("softmax"))
    assert not result.ok and "argument 1 (Out)" in result.detail
