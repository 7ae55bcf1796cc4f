"""The gates: how a bundled kernel is known to be right.

0. ``text``: the kernel is recorded twice and both equal the pinned text and
   bytecode in ``golden/``; ``tileirdisasm`` of the bytecode equals the rendered
   text, SSA names aside; the bytecode decodes back to the same Module.
1. ``asm``: ``tileiras`` assembles the pinned bytecode for each architecture,
   and the cubin holds the kernel's symbol.  Cubins come through the content cache
   (:func:`tileir.real.cache.cubin_for`: keyed by the bytes, the architecture, the
   toolchain's versions and the options), so unchanged bytecode is assembled once.
2. ``fake``: on the fake device, the interpreted kernel agrees with its
   reference on random inputs.  (``device`` does the same on a GPU:
   :mod:`tileir.kernels.device_gate`.)

Each gate returns one :class:`GateResult` a kernel; the command line prints a
line each and a total.
"""

from __future__ import annotations

import concurrent.futures
import functools
import os
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence, Union

import attrs
import numpy as np

from tileir.encode import decode, encode, required_version
from tileir.errors import TileIRError
from tileir.fake import FakeDevice
from tileir.ir.dialect import version_text
from tileir.kernels.registry import KernelSpec, get
from tileir.real.cache import cubin_for
from tileir.real.cubin import kernel_names
from tileir.real.tileiras import disassemble, tool_version

# the module, not the function: a test's mutant renderer (monkeypatched) must reach the gate
from tileir.text import render as text_render
from tileir.text.compare import normalize_ssa

__all__ = [
    "GateResult",
    "golden_dir",
    "golden_folder",
    "golden_paths",
    "stray_golden_files",
    "write_golden",
    "gate_text",
    "gate_asm",
    "gate_fake",
    "run_gate",
    "GATES",
    "SPLIT_BY_SOURCE",
    "MAX_GOLDEN_FOLDER_FILES",
]


@attrs.frozen
class GateResult:
    kernel: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'pass' if self.ok else 'FAIL'}  {self.kernel:<28} {self.detail}"


def _guarded(gate: Callable) -> Callable:
    """A gate answers a failing GateResult for any tileir error (a refusal, a mismatch, a
    tool that refused), so one broken kernel never hides the others."""

    @functools.wraps(gate)
    def run(spec: KernelSpec, *args, **kwargs) -> GateResult:

        try:
            return gate(spec, *args, **kwargs)
        except TileIRError as err:
            return GateResult(spec.name, False, str(err).replace("\n", " / "))

    return run


def golden_dir() -> Path:
    """``$TILEIR_GOLDEN_DIR``, else ``golden/`` beside the tileir package (a checkout)."""
    env = os.environ.get("TILEIR_GOLDEN_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "golden"


#: Families whose pinned files would crowd one folder: their kernels are filed one folder
#: further down, by source format (the second ``_``-separated word of the name:
#: ``cvt_<src>_<dst>[_<mode>]``, ``bitcast_<src>_<dst>``).
SPLIT_BY_SOURCE = ("conversion",)
#: The most files one golden folder may hold (tests/kernels/test_golden_library.py checks);
#: a family that outgrows it joins :data:`SPLIT_BY_SOURCE` (or gains a rule of its own).
MAX_GOLDEN_FOLDER_FILES = 300


def golden_folder(spec: KernelSpec) -> Path:
    """Where a kernel's pinned files live, relative to the golden root: a pure function of
    its spec.  ``<family>/``, and for the families of :data:`SPLIT_BY_SOURCE`
    ``<family>/<source format>/``, so that no folder holds over
    :data:`MAX_GOLDEN_FOLDER_FILES` files.

    >>> golden_folder(KernelSpec("vadd", None, None, None, family="chapter")).as_posix()
    'chapter'
    >>> golden_folder(KernelSpec("cvt_bf16_e4m3_zero", None, None, None,
    ...                          family="conversion")).as_posix()
    'conversion/bf16'
    """
    if spec.family in SPLIT_BY_SOURCE:
        words = spec.name.split("_")
        return Path(spec.family) / (words[1] if len(words) > 1 else "other")
    return Path(spec.family)


def golden_paths(spec: Union[KernelSpec, str], root: Optional[Path] = None) -> dict:
    """A kernel's pinned files (``spec``, or the name of a registered kernel), in
    ``root / golden_folder(spec)``: ``text`` (NAME.mlir), ``bytecode`` (NAME.tileirbc, at the
    lowest version that holds the kernel) and ``latest`` (NAME.13.4.tileirbc, only when the
    lowest is older)."""
    if isinstance(spec, str):
        spec = get(spec)
    folder = (root or golden_dir()) / golden_folder(spec)
    name = spec.name
    return {
        "text": folder / f"{name}.mlir",
        "bytecode": folder / f"{name}.tileirbc",
        "latest": folder / f"{name}.13.4.tileirbc",
    }


def stray_golden_files(specs: Iterable[KernelSpec], root: Optional[Path] = None) -> list:
    """Files under the golden root that no kernel of ``specs`` pins (left over by a renamed
    kernel, a changed family or an older layout), sorted."""
    root = root or golden_dir()
    pinned = {path for spec in specs for path in golden_paths(spec, root).values()}
    if not root.exists():
        return []
    return sorted(p for p in root.rglob("*") if p.is_file() and p not in pinned)


def _artifacts(spec: KernelSpec) -> dict:
    module = spec.kernel().module
    lowest = required_version(module)
    out = {"text": text_render.render(module), "bytecode": encode(module, lowest)}
    if lowest < (13, 4):  # (a 13.5 kernel has its lowest version alone)
        out["latest"] = encode(module, (13, 4))
    return out


def write_golden(specs: Iterable[KernelSpec], root: Optional[Path] = None) -> list:
    """Pin every kernel's text and bytecode (at its lowest version, and at 13.4 when that
    differs); returns the files written."""
    root = root or golden_dir()
    written = []
    for spec in specs:
        paths = golden_paths(spec, root)
        paths["text"].parent.mkdir(parents=True, exist_ok=True)
        art = _artifacts(spec)
        paths["text"].write_text(art["text"])
        paths["bytecode"].write_bytes(art["bytecode"])
        written += [paths["text"], paths["bytecode"]]
        if "latest" in art:
            paths["latest"].write_bytes(art["latest"])
            written.append(paths["latest"])
        elif paths["latest"].exists():
            paths["latest"].unlink()
    return written


@_guarded
def gate_text(spec: KernelSpec, root: Optional[Path] = None) -> GateResult:
    """Gate 0 for one kernel."""
    paths = golden_paths(spec, root)
    if not paths["text"].exists() or not paths["bytecode"].exists():
        return GateResult(
            spec.name, False, "no pinned text or bytecode (run `tileir golden --update`)"
        )
    first, second = _artifacts(spec), _artifacts(spec)
    if first != second:
        return GateResult(spec.name, False, "recording twice gave different text or bytes")
    if first["text"] != paths["text"].read_text():
        return GateResult(spec.name, False, f"text differs from {paths['text'].name}")
    if first["bytecode"] != paths["bytecode"].read_bytes():
        return GateResult(spec.name, False, f"bytecode differs from {paths['bytecode'].name}")
    if "latest" in first and first["latest"] != paths["latest"].read_bytes():
        return GateResult(spec.name, False, f"bytecode differs from {paths['latest'].name}")
    module = spec.kernel().module
    if decode(first["bytecode"]) != module:
        return GateResult(spec.name, False, "the bytecode decodes to a different Module")
    lowest = required_version(module)
    if lowest >= (13, 5) and not _reads_13_5():
        return GateResult(
            spec.name,
            False,
            f"the kernel needs bytecode {version_text(lowest)} and tileirdisasm "
            f"{tool_version('tileirdisasm')} reads 13.1 to 13.4: install "
            "nvidia-cuda-tileiras 13.5.37 (or point TILEIR_TOOLS_DIR at it)",
        )
    shown = disassemble(first["bytecode"], kernel=spec.name)
    if normalize_ssa(shown) != normalize_ssa(first["text"]):
        return GateResult(spec.name, False, "tileirdisasm prints other text than render")
    versions = "lowest and 13.4" if "latest" in first else version_text(required_version(module))
    return GateResult(
        spec.name, True, f"text and bytes pinned ({versions}), tileirdisasm agrees, decodes equal"
    )


def _reads_13_5() -> bool:
    """Whether the tileirdisasm found reads bytecode 13.5 (13.5.37 does, 13.4.92 does not)."""
    major_minor = tuple(int(p) for p in tool_version("tileirdisasm").split(".")[:2] if p.isdigit())
    return major_minor >= (13, 5)


@_guarded
def gate_asm(spec: KernelSpec, archs: Sequence[str], root: Optional[Path] = None) -> GateResult:
    """Gate 1 for one kernel: every pinned bytecode assembles for every architecture (a
    cubin already in the cache, :func:`tileir.real.cache.cubin_for`, is not assembled
    again)."""
    paths = golden_paths(spec, root)
    blobs = [paths["bytecode"]] + ([paths["latest"]] if paths["latest"].exists() else [])
    if not paths["bytecode"].exists():
        return GateResult(spec.name, False, "no pinned bytecode (run `tileir golden --update`)")
    archs = spec.asm_archs(archs)  # a format only some chips have is assembled for those
    for path in blobs:
        data = path.read_bytes()
        for arch in archs:
            cubin = cubin_for(data, arch, kernel=spec.name)
            if spec.name not in kernel_names(cubin):
                return GateResult(
                    spec.name,
                    False,
                    f"the {arch} cubin of {path.name} lacks the kernel symbol `{spec.name}`",
                )
    return GateResult(
        spec.name,
        True,
        f"{len(blobs) * len(archs)} cubin(s) for {' '.join(archs)} hold `{spec.name}`",
    )


@_guarded
def gate_fake(spec: KernelSpec, seed: int = 0) -> GateResult:
    """Gate 2 on the fake device: the interpreted kernel agrees with its reference."""
    kernel = spec.kernel()
    inputs, grid = spec.inputs(np.random.default_rng(seed))
    device = FakeDevice(
        mode="both",
        references={spec.name: spec.reference},
        tolerances={spec.name: spec.tolerance},
        devices=spec.devices,
    )
    device.run(kernel, *inputs, grid=grid)
    tol = "bit-exact" if spec.tolerance is None else f"within {spec.tolerance}"
    return GateResult(spec.name, True, f"interpreter agrees with the reference ({tol})")


def run_gate(
    name: str, specs: Sequence[KernelSpec], *, archs: Sequence[str] = (), jobs: int = 2
) -> list:
    """Run gate ``name`` over ``specs`` (``jobs`` kernels at a time for the assembler)."""
    if name == "text":
        return [gate_text(s) for s in specs]
    if name == "fake":
        return [gate_fake(s) for s in specs]
    if name == "asm":
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            return list(pool.map(lambda s: gate_asm(s, archs), specs))
    raise ValueError(f"unknown gate {name!r}; the gates are {', '.join(GATES)}")


GATES = ("text", "asm", "fake", "device")
