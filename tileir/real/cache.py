"""Assemble with a cache: a cubin is kept on disk under a key of everything that decides it.

The key is the sha256 of the bytecode, the target ``sm_XX``, the toolchain that
assembles it (tileiras's and the sibling ptxas's versions) and the assembler
options.  Entries live in ``$TILEIR_CACHE_DIR`` or the user cache folder
(``$XDG_CACHE_HOME/tileir``, else ``~/.cache/tileir`` on Linux).

Each file holds a short header with the cubin's own sha256, so a truncated or
corrupted entry is noticed, removed and assembled again rather than handed to
the driver.  Files are written to a temporary name and renamed into place, so
concurrent processes (pytest-xdist workers) never read half a file.

>>> key_a = cache_key(b"bytecode", "sm_90", "tileiras 13.4.92", {"lineinfo": False})
>>> key_b = cache_key(b"bytecode", "sm_100", "tileiras 13.4.92", {"lineinfo": False})
>>> len(key_a), key_a == key_b
(64, False)
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any, Mapping, Optional

from tileir.real import tileiras

__all__ = ["cache_dir", "cache_key", "cache_path", "cubin_for"]

_MAGIC = b"tileir-cubin-1\n"
_DIGEST = 64  # hex characters of a sha256


def cache_dir() -> Path:
    """Where cubins are cached: ``$TILEIR_CACHE_DIR``, else the platform's user cache folder."""
    explicit = os.environ.get("TILEIR_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "tileir"
    if os.name == "nt":
        local = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(local) / "tileir" / "Cache"
    # XDG base-directory spec: only an absolute XDG_CACHE_HOME counts.
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "tileir"


def cache_key(bytecode: bytes, arch: str, toolchain: str, options: Mapping[str, Any]) -> str:
    """The sha256 (hex) naming the cubin of ``bytecode`` for ``arch`` with ``options``."""
    digest = hashlib.sha256(b"tileir-cubin-key-1")
    for part in (
        bytes(bytecode),
        arch.encode(),
        toolchain.encode(),
        json.dumps(dict(options), sort_keys=True).encode(),
    ):
        # Length-prefixed, so no two different tuples of parts hash the same bytes.
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.hexdigest()


def cache_path(key: str, directory: Optional[Path] = None) -> Path:
    """The file that holds the entry ``key``."""
    return (directory or cache_dir()) / key[:2] / f"{key}.cubin"


def _read(path: Path) -> Optional[bytes]:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + _DIGEST + 1
    cubin = data[head:]
    if (
        data[: len(_MAGIC)] == _MAGIC
        and len(data) > head
        and data[len(_MAGIC) : head - 1] == hashlib.sha256(cubin).hexdigest().encode()
    ):
        return cubin
    try:  # a damaged entry: drop it and assemble again
        path.unlink()
    except OSError:
        pass
    return None


def _write(path: Path, cubin: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".cubin")
    except OSError as exc:
        warnings.warn(
            f"tileir: cannot write the cubin cache at {path.parent}: {exc}",
            RuntimeWarning,
            stacklevel=3,
        )
        return
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(_MAGIC + hashlib.sha256(cubin).hexdigest().encode() + b"\n" + cubin)
        os.replace(tmp, path)
    except OSError as exc:
        warnings.warn(
            f"tileir: cannot write the cubin cache entry {path}: {exc}",
            RuntimeWarning,
            stacklevel=3,
        )
        try:
            os.unlink(tmp)
        except OSError:
            pass


def cubin_for(
    bytecode: bytes,
    arch: str,
    *,
    lineinfo: bool = False,
    opt_level: int = 3,
    kernel: Optional[str] = None,
    directory: Optional[Path] = None,
) -> bytes:
    """The cubin of ``bytecode`` for ``arch``, assembled by tileiras only when not cached.

    ``kernel`` names the kernel in a ToolError; ``directory`` overrides :func:`cache_dir`.
    """
    options = {"lineinfo": bool(lineinfo), "opt_level": int(opt_level)}
    key = cache_key(bytecode, arch, tileiras.toolchain_id(), options)
    path = cache_path(key, directory)
    cubin = _read(path)
    if cubin is None:
        cubin = tileiras.assemble(
            bytes(bytecode), arch, lineinfo=lineinfo, opt_level=opt_level, kernel=kernel
        )
        _write(path, cubin)
    return cubin
