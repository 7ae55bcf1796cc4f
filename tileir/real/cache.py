"""Assemble with a cache: a cubin is kept on disk under a key of everything that decides it.

The key is the sha256 of the bytecode, the target ``sm_XX``, the toolchain that
assembles it (tileiras's and the sibling ptxas's versions) and the assembler
options.  Entries live in ``$TILEIR_CACHE_DIR`` or the user cache folder
(``$XDG_CACHE_HOME/tileir``, else ``~/.cache/tileir`` on Linux).

Trust, as ssh treats its keys: a cubin from the cache is handed to the driver
and runs on the GPU, so the cache must be the user's alone.

* The directory (and each two-letter subdirectory) is created private (0700) and
  used only when it is a directory owned by the user and neither group- nor
  world-writable; otherwise the cache is bypassed (the cubin is assembled, nothing
  is read or written) with a RuntimeWarning naming the directory and the reason.
* An entry is opened with ``O_NOFOLLOW | O_NONBLOCK`` and checked with ``fstat``: a
  symlink, a FIFO, a device or a file of another owner is a miss (and is removed),
  never followed, never waited on.
* An entry is bound to its key: its header holds the key (the sha256 of bytecode,
  arch, toolchain and options) and the cubin's own sha256, so an entry copied
  under another name, truncated or corrupted is a miss, removed and assembled
  again rather than handed to the driver.
* Writes go to a temporary file (created 0600) and are renamed into place with
  ``os.replace``, so concurrent processes (pytest-xdist workers) never read half a
  file.

>>> key_a = cache_key(b"bytecode", "sm_90", "tileiras 13.5.37", {"lineinfo": False})
>>> key_b = cache_key(b"bytecode", "sm_100", "tileiras 13.5.37", {"lineinfo": False})
>>> key_c = cache_key(b"bytecode", "sm_90", "tileiras 13.4.92", {"lineinfo": False})
>>> len(key_a), key_a == key_b, key_a == key_c
(64, False, False)
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any, Mapping, Optional

from tileir.real import tileiras

__all__ = ["cache_dir", "cache_key", "cache_path", "cubin_for", "untrusted_reason"]

_MAGIC = b"tileir-cubin-2\n"
_DIGEST = 64  # hex characters of a sha256
#: the largest entry read (cubins are a few MB at most; a bigger file is not ours)
_MAX_ENTRY = 256 << 20
_PRIVATE = 0o700


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


def untrusted_reason(directory: Path) -> Optional[str]:
    """Why ``directory`` may not hold cubins (None when it may): it must be a directory
    owned by the user, writable by nobody else.  (On systems without user ids, the
    check is the platform's.)"""
    try:
        st = os.stat(directory)
    except OSError as exc:
        return f"it cannot be read ({exc.strerror})"
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a directory"
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return None
    if st.st_uid != getuid():
        return f"it is owned by user id {st.st_uid}, not by you ({getuid()})"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"it is writable by others (mode {stat.S_IMODE(st.st_mode):04o}); chmod 700 it"
    return None


def _private_dir(directory: Path) -> Optional[str]:
    """Create ``directory`` private to the user if it is missing; why it may not be used,
    or None."""
    try:
        directory.mkdir(mode=_PRIVATE, parents=True, exist_ok=True)
    except OSError as exc:
        return f"it cannot be created ({exc.strerror})"
    return untrusted_reason(directory)


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def _open_entry(path: Path) -> Optional[bytes]:
    """The bytes of the regular file ``path``, opened without following a link and
    without blocking (a FIFO or device answers at once); None for anything else."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError:  # ELOOP: a symlink; anything else we cannot open is a miss too
        _remove(path)
        return None
    try:
        st = os.fstat(fd)
        getuid = getattr(os, "getuid", None)
        if (
            not stat.S_ISREG(st.st_mode)
            or st.st_size > _MAX_ENTRY
            or (getuid is not None and st.st_uid != getuid())
        ):
            _remove(path)
            return None
        chunks = []
        left = st.st_size + 1  # one byte more: a file that grew is noticed by its hash
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _header(key: str, cubin: bytes) -> bytes:
    return _MAGIC + key.encode() + b"\n" + hashlib.sha256(cubin).hexdigest().encode() + b"\n"


def _read(path: Path, key: str) -> Optional[bytes]:
    data = _open_entry(path)
    if data is None:
        return None
    head = len(_MAGIC) + 2 * (_DIGEST + 1)
    cubin = data[head:]
    if len(data) > head and data[:head] == _header(key, cubin):
        return cubin
    _remove(path)  # damaged, or another key's entry: assemble again
    return None


def _write(path: Path, key: str, cubin: bytes) -> None:
    try:
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
            f.write(_header(key, cubin) + cubin)
        os.replace(tmp, path)
    except OSError as exc:
        warnings.warn(
            f"tileir: cannot write the cubin cache entry {path}: {exc}",
            RuntimeWarning,
            stacklevel=3,
        )
        _remove(Path(tmp))


def cubin_for(
    bytecode: bytes,
    arch: str,
    *,
    lineinfo: bool = False,
    opt_level: int = 3,
    kernel: Optional[str] = None,
    directory: Optional[Path] = None,
    tools_dir: Optional[str] = None,
) -> bytes:
    """The cubin of ``bytecode`` for ``arch``, assembled by tileiras only when not cached.

    ``kernel`` names the kernel in a ToolError; ``directory`` overrides :func:`cache_dir`;
    ``tools_dir`` assembles with the tileiras there (another release: its own entries, as
    the key holds the toolchain).
    """
    options = {"lineinfo": bool(lineinfo), "opt_level": int(opt_level)}
    toolchain = tileiras.toolchain_id() if tools_dir is None else tileiras.toolchain_id(tools_dir)
    key = cache_key(bytecode, arch, toolchain, options)
    root = directory or cache_dir()
    path = cache_path(key, root)
    why = None
    for folder in (root, path.parent):
        reason = _private_dir(folder)
        if reason is not None:
            why = f"{folder} {reason}"
            break
    if why is None:
        cubin = _read(path, key)
        if cubin is not None:
            return cubin
    how: dict = {} if tools_dir is None else {"tools_dir": tools_dir}
    cubin = tileiras.assemble(
        bytes(bytecode), arch, lineinfo=lineinfo, opt_level=opt_level, kernel=kernel, **how
    )
    if why is None:
        _write(path, key, cubin)
    else:
        warnings.warn(f"tileir: the cubin cache is not used: {why}", RuntimeWarning, stacklevel=2)
    return cubin
