"""Driving NVIDIA's ``tileiras`` (assembler) and ``tileirdisasm`` (disassembler).

Both come in the ``nvidia-cuda-tileiras`` wheel (``pip install tileir[tileiras]``,
pinned at 13.5.37) and run on a CPU.  ``tileiras`` needs its sibling ``ptxas`` and NVVM
from the same install, so it is always run from where pip put it, never copied.

Every function takes ``tools_dir``: the ``bin`` folder of another install (one made with
``pip install --target DIR nvidia-cuda-tileiras==13.4.92`` has the tools in
``DIR/nvidia/cu13/bin``), so one process can drive two releases side by side, as the
test suite does for 13.4.92 (``$TILEIR_TOOLS_DIR_13_4``).  Without it the tools are
looked up in ``$TILEIR_TOOLS_DIR``, the wheel, then PATH.

>>> find_tool("tileirdisasm").name            # doctest: +SKIP
'tileirdisasm'
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional, Sequence

from tileir.errors import ToolError

__all__ = [
    "find_tool",
    "assemble",
    "disassemble",
    "tool_version",
    "toolchain_id",
    "ARCHITECTURES",
    "available",
]

#: The architectures the gates assemble for.
ARCHITECTURES = ("sm_80", "sm_90", "sm_100", "sm_120")

_TOOLS = ("tileiras", "tileirdisasm")


def _wheel_bin() -> Optional[Path]:
    """``site-packages/nvidia/cu13/bin`` of the nvidia-cuda-tileiras wheel, if installed."""
    try:
        import nvidia  # namespace package of NVIDIA's wheels
    except ImportError:
        return None
    for root in getattr(nvidia, "__path__", []):
        candidate = Path(root) / "cu13" / "bin"
        if (candidate / "tileiras").exists():
            return candidate
    return None


@functools.lru_cache(maxsize=None)
def find_tool(name: str, tools_dir: Optional[str] = None) -> Path:
    """The path of ``tileiras`` or ``tileirdisasm``: in ``tools_dir`` when given (only
    there), else ``$TILEIR_TOOLS_DIR``, the wheel, then PATH."""
    if name not in _TOOLS:
        raise ValueError(f"unknown tool {name!r}; tileir drives {', '.join(_TOOLS)}")
    if tools_dir is not None:
        place = Path(tools_dir) / name
        if place.is_file() and os.access(place, os.X_OK):
            return place
        raise ToolError(
            f"`{name}` is not in {tools_dir}; install a toolchain there with: pip install "
            f"--target DIR 'nvidia-cuda-tileiras==VERSION' (the tools are in DIR/nvidia/cu13/bin)",
            kind="tool.missing",
        )
    places = []
    env_dir = os.environ.get("TILEIR_TOOLS_DIR")
    if env_dir:
        places.append(Path(env_dir) / name)
    wheel = _wheel_bin()
    if wheel is not None:
        places.append(wheel / name)
    on_path = shutil.which(name)
    if on_path:
        places.append(Path(on_path))
    for place in places:
        if place.exists() and os.access(place, os.X_OK):
            return place
    raise ToolError(
        f"`{name}` was not found (looked in $TILEIR_TOOLS_DIR, the nvidia-cuda-tileiras wheel "
        f"and PATH); install it with: pip install 'nvidia-cuda-tileiras==13.5.37'",
        kind="tool.missing",
    )


def available(tools_dir: Optional[str] = None) -> bool:
    """True when both tools can be found."""
    try:
        return all(find_tool(t, tools_dir) for t in _TOOLS)
    except ToolError:
        return False


def _run(
    tool: str,
    argv: Sequence[str],
    what: str,
    kernel: Optional[str],
    tools_dir: Optional[str] = None,
) -> subprocess.CompletedProcess:
    path = find_tool(tool, tools_dir)
    try:
        proc = subprocess.run([str(path), *argv], capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        raise ToolError(
            f"`{tool}` took over 300 s on {what}", kernel=kernel, kind="tool.timeout"
        ) from None
    if proc.returncode != 0:
        said = (proc.stderr.strip() or proc.stdout.strip() or "no message").splitlines()
        raise ToolError(
            f"`{tool}` refused {what} (exit {proc.returncode}): " + " / ".join(said[:8]),
            kernel=kernel,
            kind="tool.refused",
        )
    return proc


def assemble(
    bytecode: bytes,
    arch: str,
    *,
    lineinfo: bool = False,
    opt_level: int = 3,
    kernel: Optional[str] = None,
    tools_dir: Optional[str] = None,
) -> bytes:
    """Assemble Tile IR bytecode into a cubin for ``arch`` (``"sm_90"``) with ``tileiras``."""
    if not arch.startswith("sm_"):
        raise ToolError(
            f"architecture {arch!r} is not of the form sm_NN", kernel=kernel, kind="tool.arch"
        )
    with tempfile.TemporaryDirectory(prefix="tileir-") as tmp:
        src = Path(tmp) / "kernel.tileirbc"
        out = Path(tmp) / "kernel.cubin"
        src.write_bytes(bytecode)
        argv = [f"--gpu-name={arch}", f"--opt-level={opt_level}", "-o", str(out), str(src)]
        if lineinfo:
            argv.insert(0, "--lineinfo")
        _run("tileiras", argv, f"the bytecode for {arch}", kernel, tools_dir)
        return out.read_bytes()


def disassemble(
    bytecode: bytes,
    *,
    debug_info: bool = False,
    kernel: Optional[str] = None,
    tools_dir: Optional[str] = None,
) -> str:
    """The text ``tileirdisasm`` prints for ``bytecode`` (``-g`` with ``debug_info``)."""
    with tempfile.TemporaryDirectory(prefix="tileir-") as tmp:
        src = Path(tmp) / "kernel.tileirbc"
        src.write_bytes(bytecode)
        argv = (["-g"] if debug_info else []) + [str(src)]
        return _run("tileirdisasm", argv, "the bytecode", kernel, tools_dir).stdout


@functools.lru_cache(maxsize=None)
def tool_version(name: str = "tileiras", tools_dir: Optional[str] = None) -> str:
    """The release a tool reports (``"13.5.37"``)."""
    out = _run(name, ["--version"], "--version", None, tools_dir).stdout
    for line in out.splitlines():
        if ", V" in line:
            return line.rsplit(", V", 1)[1].strip()
    return out.strip().splitlines()[-1] if out.strip() else "unknown"


@functools.lru_cache(maxsize=None)
def toolchain_id(tools_dir: Optional[str] = None) -> str:
    """The versions that decide what ``tileiras`` writes: its own and the sibling ``ptxas``'s.

    tileiras hands its PTX to the ``ptxas`` installed beside it (docs/launch.md
    §6), so a new ptxas can change the cubin of unchanged bytecode;
    cache keys use this (``"tileiras 13.5.37; ptxas 13.5.37"``).
    """
    parts = [f"tileiras {tool_version('tileiras', tools_dir)}"]
    ptxas = find_tool("tileiras", tools_dir).parent / "ptxas"
    if ptxas.exists():
        try:
            out = subprocess.run(
                [str(ptxas), "--version"], capture_output=True, text=True, timeout=60
            ).stdout
        except (OSError, subprocess.TimeoutExpired):
            out = ""
        found = [line.rsplit(", V", 1)[1].strip() for line in out.splitlines() if ", V" in line]
        parts.append(f"ptxas {found[0] if found else 'unknown'}")
    return "; ".join(parts)


if __name__ == "__main__":  # pragma: no cover - a manual check
    print(find_tool("tileiras"), tool_version(), file=sys.stderr)
