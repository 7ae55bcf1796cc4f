"""The golden kernel library through the three gates.

* gate 0 (every kernel): recorded twice, equal to its pinned text and bytecode (lowest
  version and 13.4), ``tileirdisasm`` of each pinned bytecode prints the rendered text
  (SSA names aside), both decode to the recorded Module, and the checker accepts it; the
  versions between encode and decode back too;
* gate 2 (every kernel): the fake device's interpreter agrees with the reference, on
  two seeds;
* gate 1 (every kernel, sampled architectures): ``tileiras`` assembles each pinned
  bytecode.  Assembling every kernel for every architecture and both versions is about
  4,800 tileiras runs (``tileir gates asm``, or this test with ``TILEIR_GATE1=full``:
  23 minutes on two busy cores); CI runs about 1,260: each kernel's lowest-version bytecode
  for one of its architectures and its 13.4 bytecode (when it has a separate one) for
  another, picked by a hash of its name, so every kernel and both versions are assembled
  and each architecture takes about a quarter of the kernels at each version
  (``test_gate1_sample_reaches_every_arch``): about 3 minutes on two workers.  Kernels
  whose formats only some architectures have (``KernelSpec.archs``) are assembled for
  those.  Cubins come through the content cache (``tileir.real.cache.cubin_for``, in
  ``$TILEIR_CACHE_DIR`` or the user cache folder), so a second run assembles only what
  changed.
* gate 1 with the second toolchain (tileiras 13.4.92, ``$TILEIR_TOOLS_DIR_13_4``, which
  CI sets): each kernel's one pinned bytecode (of the versions 13.4.92 reads, 13.1 to 13.4:
  all of them) for one architecture, another than the pinned toolchain's sample took, about
  880 runs (``second_sample_plan``).

The pinned files are laid out one folder per family (``golden_folder``), none holding over
``MAX_GOLDEN_FOLDER_FILES`` files, and every file there belongs to a kernel.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter

import pytest

from support.tools import needs_second_toolchain, needs_tools, second_tools_dir
from tileir.kernels.gates import (
    MAX_GOLDEN_FOLDER_FILES,
    gate_asm,
    gate_fake,
    gate_text,
    golden_dir,
    golden_folder,
    golden_paths,
    stray_golden_files,
)
from tileir.kernels.registry import BUNDLED_MODULES, get, specs
from tileir.real.tileiras import ARCHITECTURES
from tileir.real.toolchains import FACTS, SECOND

SPECS = specs()
NAMES = [s.name for s in SPECS]
FULL = os.environ.get("TILEIR_GATE1", "") == "full"


def test_the_library():
    assert len(SPECS) >= 250, len(SPECS)
    assert len(set(NAMES)) == len(NAMES)
    families = Counter(s.family for s in SPECS)
    for family in (
        "elementwise",
        "math",
        "reduction",
        "scan",
        "norm",
        "matmul",
        "attention",
        "conversion",
        "memory",
        "control",
        "atomic",
    ):
        assert families[family] >= 5, (family, families)
    for spec in SPECS:
        assert spec.doc, spec.name
        assert spec.archs is None or (spec.archs and all(a.startswith("sm_") for a in spec.archs))
    assert all(m.startswith("tileir.kernels.") for m in BUNDLED_MODULES)


@needs_tools
@pytest.mark.parametrize("name", NAMES)
def test_gate0_text(name):
    from tileir.encode import decode, encode, required_version
    from tileir.ir.dialect import VERSIONS
    from tileir.real.tileiras import disassemble
    from tileir.text.compare import normalize_ssa
    from tileir.verify.checker import verify

    spec = get(name)
    result = gate_text(spec)
    assert result.ok, result.detail
    paths = golden_paths(name)
    module = spec.kernel().module
    verify(module)
    if paths["latest"].exists():  # gate_text disassembles the lowest version; here 13.4
        data = paths["latest"].read_bytes()
        assert decode(data) == module
        assert normalize_ssa(disassemble(data, kernel=name)) == normalize_ssa(
            paths["text"].read_text()
        )
    lowest = required_version(module)
    for version in VERSIONS:
        if version >= lowest:
            assert decode(encode(module, version)) == module, version


@pytest.mark.parametrize("name", NAMES)
def test_gate2_fake(name):
    spec = get(name)
    for seed in (0, 1):
        result = gate_fake(spec, seed=seed)
        assert result.ok, result.detail


def _archs(spec) -> tuple:
    return spec.asm_archs(ARCHITECTURES)


def sample_plan(spec) -> list:
    """``[(golden key, arch)]`` CI assembles for ``spec``: each pinned bytecode for one
    architecture, chosen by a hash of the name, the two versions on different ones."""
    archs = _archs(spec)
    h = int(hashlib.sha256(spec.name.encode()).hexdigest(), 16)
    keys = ["bytecode"] + (["latest"] if golden_paths(spec.name)["latest"].exists() else [])
    return [(key, archs[(h + i) % len(archs)]) for i, key in enumerate(keys)]


def test_gate1_sample_reaches_every_arch():
    per_version = {"bytecode": Counter(), "latest": Counter()}
    for spec in SPECS:
        for key, arch in sample_plan(spec):
            per_version[key][arch] += 1
    for key, counts in per_version.items():
        for arch in ARCHITECTURES:
            assert counts[arch] >= 20, (key, dict(counts))


@needs_tools
@pytest.mark.parametrize("name", NAMES)
def test_gate1_asm(name):
    from tileir.real.cache import cubin_for
    from tileir.real.cubin import kernel_names

    spec = get(name)
    if FULL:
        result = gate_asm(spec, _archs(spec))
        assert result.ok, result.detail
        return
    paths = golden_paths(name)
    for key, arch in sample_plan(spec):
        cubin = cubin_for(paths[key].read_bytes(), arch, kernel=name)
        assert name in kernel_names(cubin), (key, arch)


def _second_takes(spec) -> bool:
    """Whether tileiras 13.4.92 can take ``spec`` at all: some architecture assembles its
    features, and it reads the version of the kernel's pinned bytecode (13.5-only kernels,
    such as the multimem family, it does not)."""
    data = golden_paths(spec.name)["bytecode"].read_bytes()
    readable = FACTS[SECOND].bytecode_versions
    return bool(spec.asm_archs(ARCHITECTURES, SECOND)) and f"{data[8]}.{data[9]}" in readable


SECOND_SPECS = [s for s in SPECS if _second_takes(s)]
SECOND_NAMES = [s.name for s in SECOND_SPECS]


def test_the_second_sample_leaves_out_only_what_13_4_cannot_take():
    left_out = {s.name for s in SPECS} - set(SECOND_NAMES)
    assert left_out == {s.name for s in SPECS if s.family == "multimem"}, sorted(left_out)


def second_sample_plan(spec) -> tuple:
    """``(golden key, arch)`` CI assembles for ``spec`` with tileiras 13.4.92: one of its
    pinned bytecodes (by a hash of the name), on the architecture after the one the pinned
    toolchain's plan gives that bytecode, so the two toolchains together cover more pairs."""
    archs = spec.asm_archs(ARCHITECTURES, SECOND)
    h = int(hashlib.sha256(spec.name.encode()).hexdigest(), 16)
    keys = ["bytecode"] + (["latest"] if golden_paths(spec.name)["latest"].exists() else [])
    i = (h >> 16) % len(keys)
    return keys[i], archs[(h + i + 1) % len(archs)]


def test_second_sample_reaches_every_arch_and_version():
    per_arch: Counter = Counter()
    versions: Counter = Counter()
    for spec in SECOND_SPECS:
        key, arch = second_sample_plan(spec)
        per_arch[arch] += 1
        data = golden_paths(spec.name)[key].read_bytes()
        versions[f"{data[8]}.{data[9]}"] += 1  # the header's major and minor bytes
        assert arch in spec.asm_archs(ARCHITECTURES, SECOND)
    for arch in ARCHITECTURES:
        assert per_arch[arch] >= 20, dict(per_arch)
    readable = FACTS[SECOND].bytecode_versions
    assert set(versions) == set(readable), versions  # every version it reads


@needs_second_toolchain
@pytest.mark.parametrize("name", SECOND_NAMES)
def test_gate1_asm_with_the_second_toolchain(name):
    from tileir.real.cache import cubin_for
    from tileir.real.cubin import kernel_names

    where = second_tools_dir()
    key, arch = second_sample_plan(get(name))
    cubin = cubin_for(golden_paths(name)[key].read_bytes(), arch, kernel=name, tools_dir=where)
    assert name in kernel_names(cubin), (key, arch)


def test_asm_archs_follow_the_formats():
    from tileir.kernels.registry import KernelSpec

    def spec(archs):
        return KernelSpec("k", None, None, None, archs=archs)

    four = ("sm_80", "sm_90", "sm_100", "sm_120")
    assert spec(None).asm_archs(four) == four
    assert spec(("sm_90", "sm_100", "sm_103")).asm_archs(four) == ("sm_90", "sm_100")
    assert spec(("sm_107",)).asm_archs(four) == ("sm_107",)  # none requested: its own
    assert "sm_80" not in get("mm_e4m3_f32").asm_archs(four)  # fp8: sm_89 on
    # the releases differ on sm_89 only, which the gates' four do not hold; a card does
    assert "sm_89" in get("mm_e4m3_f32").archs_on("13.5.37")
    assert "sm_89" not in get("mm_e4m3_f32").archs_on("13.4.92")
    assert get("mm_e4m3_f32").asm_archs(four, "13.4.92") == ("sm_90", "sm_100", "sm_120")
    assert get("cvt_f32_e2m1").asm_archs(four) == ("sm_100", "sm_120")
    assert get("cvt_f32_e5m3").asm_archs(four) == ("sm_107",)
    assert get("mm_f16_f32").asm_archs(four) == four


def test_the_golden_folders_stay_small_and_hold_only_pinned_files():
    root = golden_dir()
    per_folder = Counter(
        p.parent.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()
    )
    crowded = {f: n for f, n in per_folder.items() if n > MAX_GOLDEN_FOLDER_FILES}
    assert not crowded, f"golden folders over {MAX_GOLDEN_FOLDER_FILES} files: {crowded}"
    assert "." not in per_folder, "files at the top of golden/: each belongs in its family's"
    assert stray_golden_files(SPECS) == []
    for spec in SPECS:  # every kernel's files are where golden_folder says, and exist
        paths = golden_paths(spec)
        assert paths["text"].parent == root / golden_folder(spec)
        assert paths["text"].exists() and paths["bytecode"].exists(), spec.name
    assert golden_paths("vadd") == golden_paths(get("vadd"))
