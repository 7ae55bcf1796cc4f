"""Cubins assembled on another machine, found by the content of their bytecode.

A GPU machine need not have ``tileiras``: its wheel, with the ``ptxas`` and NVVM
it runs, is hundreds of megabytes.  :func:`prebuild` assembles kernels on a
machine that has it (a CPU is enough) into a folder; on the GPU machine
``$TILEIR_CUBIN_DIR`` names that folder, and :class:`tileir.real.RealDevice`
takes a kernel's cubin from there when one was built for the same bytecode and
the same ``sm_XX``, assembling with the cache otherwise.

Layout of the folder: ``<arch>/<sha256 of the bytecode>.cubin`` per cubin and a
``TOOLCHAIN`` file holding :func:`tileir.real.tileiras.toolchain_id` of the
assembler that made them (the ledger of the device gate reports it).

``python -m tileir.kernels.prebuild --arch sm_90 --out DIR`` prebuilds the bundled
kernels.

>>> entry_path(Path("cubins"), b"bytecode", "sm_90").as_posix()[:22]
'cubins/sm_90/8e8961871'
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Iterable, Optional

from tileir.real import cache, tileiras

__all__ = [
    "ENV",
    "cubin_dir",
    "entry_path",
    "lookup",
    "toolchain",
    "tileiras_version",
    "prebuild",
]

#: The environment variable naming a folder of prebuilt cubins.
ENV = "TILEIR_CUBIN_DIR"
_TOOLCHAIN = "TOOLCHAIN"
_ELF_MAGIC = b"\x7fELF"


def cubin_dir() -> Optional[Path]:
    """The folder ``$TILEIR_CUBIN_DIR`` names, or None when it is unset or empty."""
    value = os.environ.get(ENV, "")
    return Path(value).expanduser() if value else None


def entry_path(directory: Path, bytecode: bytes, arch: str) -> Path:
    """Where the cubin of ``bytecode`` for ``arch`` lives in ``directory``."""
    return Path(directory) / arch / f"{hashlib.sha256(bytes(bytecode)).hexdigest()}.cubin"


def lookup(bytecode: bytes, arch: str, directory: Optional[Path] = None) -> Optional[bytes]:
    """The prebuilt cubin of ``bytecode`` for ``arch``, or None (no folder, no such entry)."""
    directory = directory if directory is not None else cubin_dir()
    if directory is None:
        return None
    try:
        cubin = entry_path(directory, bytecode, arch).read_bytes()
    except OSError:
        return None
    # A file that is not an ELF is not handed to the driver; it is assembled afresh.
    return cubin if cubin.startswith(_ELF_MAGIC) else None


def toolchain(directory: Optional[Path] = None) -> Optional[str]:
    """What assembled the folder's cubins (``"tileiras 13.4.92; ptxas 13.5.37"``), if said."""
    directory = directory if directory is not None else cubin_dir()
    if directory is None:
        return None
    try:
        return (Path(directory) / _TOOLCHAIN).read_text().strip() or None
    except OSError:
        return None


def tileiras_version(toolchain_text: Optional[str]) -> Optional[str]:
    """The tileiras release in a toolchain description (``"13.4.92"``), if it names one.

    >>> tileiras_version("tileiras 13.4.92; ptxas 13.5.37")
    '13.4.92'
    """
    for part in (toolchain_text or "").split(";"):
        words = part.split()
        if len(words) == 2 and words[0] == "tileiras":
            return words[1]
    return None


def prebuild(kernels: Iterable, arch: str, directory: Path) -> list[Path]:
    """Assemble each recorded kernel for ``arch`` into ``directory``; the files written.

    Each kernel's bytecode is the one the real device launches
    (``kernel.bytecode()``), so the device finds the cubin by its content.
    """
    directory = Path(directory)
    written = []
    for kernel in kernels:
        bytecode = kernel.bytecode()
        cubin = cache.cubin_for(bytecode, arch, kernel=kernel.name)
        path = entry_path(directory, bytecode, arch)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(cubin)
        written.append(path)
    stamp = directory / _TOOLCHAIN
    directory.mkdir(parents=True, exist_ok=True)
    stamp.write_text(tileiras.toolchain_id() + "\n")
    return written + [stamp]
