"""tileir.real.cache: assemble once per (bytecode, arch, toolchain, options), survive damage."""

from __future__ import annotations

import os
import shutil
import stat
import threading
from pathlib import Path

import pytest
from test_real_cubin import entry_bytecode, scalar

from support.tools import needs_tools
from tileir.real import cache, tileiras
from tileir.real.cubin import kernel_info
from tileir.types import I32


@pytest.fixture
def counted(monkeypatch, tmp_path):
    """Route the cache to a fresh folder and count tileiras runs (a fake assembler)."""
    calls = []

    def fake_assemble(bytecode, arch, *, lineinfo=False, opt_level=3, kernel=None):
        calls.append((bytecode, arch, lineinfo, opt_level))
        return b"\x7fELF cubin of " + bytes(bytecode) + f" for {arch}".encode()

    monkeypatch.setattr(tileiras, "assemble", fake_assemble)
    monkeypatch.setattr(tileiras, "toolchain_id", lambda: "tileiras 13.4.92; ptxas 13.5.37")
    monkeypatch.setenv("TILEIR_CACHE_DIR", str(tmp_path / "cache"))
    return calls


def test_second_call_does_not_run_tileiras(counted):
    first = cache.cubin_for(b"code", "sm_90")
    second = cache.cubin_for(b"code", "sm_90")
    assert first == second == b"\x7fELF cubin of code for sm_90"
    assert len(counted) == 1


def test_different_arch_bytecode_or_options_are_different_entries(counted):
    cache.cubin_for(b"code", "sm_90")
    assert cache.cubin_for(b"code", "sm_100").endswith(b"sm_100")
    cache.cubin_for(b"other", "sm_90")
    cache.cubin_for(b"code", "sm_90", lineinfo=True)
    cache.cubin_for(b"code", "sm_90", opt_level=0)
    assert [(c[1], c[2], c[3]) for c in counted] == [
        ("sm_90", False, 3),
        ("sm_100", False, 3),
        ("sm_90", False, 3),
        ("sm_90", True, 3),
        ("sm_90", False, 0),
    ]
    cache.cubin_for(b"code", "sm_100")  # all of them are cached now
    assert len(counted) == 5


def test_a_new_toolchain_is_a_new_entry(counted, monkeypatch):
    cache.cubin_for(b"code", "sm_90")
    monkeypatch.setattr(tileiras, "toolchain_id", lambda: "tileiras 13.5.1; ptxas 13.5.37")
    cache.cubin_for(b"code", "sm_90")
    assert len(counted) == 2


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated
        lambda data: data[:-1] + bytes([data[-1] ^ 0x01]),  # one bit flipped
        lambda data: b"",  # empty
        lambda data: b"garbage",  # not an entry at all
    ],
)
def test_a_damaged_entry_is_assembled_again(counted, damage):
    good = cache.cubin_for(b"code", "sm_90")
    (entry,) = Path(cache.cache_dir()).rglob("*.cubin")
    entry.write_bytes(damage(entry.read_bytes()))
    assert cache.cubin_for(b"code", "sm_90") == good
    assert len(counted) == 2
    assert cache.cubin_for(b"code", "sm_90") == good  # and the entry is whole again
    assert len(counted) == 2


def test_writes_leave_no_temporary_files(counted):
    for arch in ("sm_80", "sm_90", "sm_100"):
        cache.cubin_for(b"code", arch)
    files = [p.name for p in Path(cache.cache_dir()).rglob("*") if p.is_file()]
    assert len(files) == 3 and not any(name.startswith(".tmp-") for name in files)


def test_an_unwritable_cache_still_returns_the_cubin(counted, monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    monkeypatch.setenv("TILEIR_CACHE_DIR", str(blocker / "cache"))  # under a regular file
    with pytest.warns(RuntimeWarning, match="cubin cache is not used: .* cannot be created"):
        assert cache.cubin_for(b"code", "sm_90").endswith(b"sm_90")


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TILEIR_CACHE_DIR", str(tmp_path / "x"))
    assert cache.cache_dir() == tmp_path / "x"
    monkeypatch.delenv("TILEIR_CACHE_DIR")
    monkeypatch.setattr(cache.sys, "platform", "linux")
    monkeypatch.setattr(cache.os, "name", "posix")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "tileir"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "tileir"


@needs_tools
def test_with_the_real_assembler(monkeypatch, tmp_path):
    monkeypatch.setenv("TILEIR_CACHE_DIR", str(tmp_path))
    code = entry_bytecode([("k", (scalar(I32),))])
    first = cache.cubin_for(code, "sm_90", kernel="k")
    runs = []
    real = tileiras.assemble
    monkeypatch.setattr(tileiras, "assemble", lambda *a, **k: runs.append(a) or real(*a, **k))
    assert cache.cubin_for(code, "sm_90", kernel="k") == first
    assert runs == []
    assert kernel_info(first, "k").param_size == 4


@needs_tools
def test_the_toolchain_id_names_tileiras_and_its_ptxas():
    import re

    assert re.fullmatch(r"tileiras \d+\.\d+\.\d+; ptxas \d+\.\d+\.\d+", tileiras.toolchain_id())


# -- trust: the cache is the user's alone (issue 13, point 6) ----------------------------------


def _entry(root: Path) -> Path:
    (entry,) = root.rglob("*.cubin")
    return entry


def test_the_directory_is_created_private(counted):
    cache.cubin_for(b"code", "sm_90")
    root = Path(cache.cache_dir())
    for folder in (root, _entry(root).parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700


@pytest.mark.parametrize("mode", [0o770, 0o702, 0o777])
def test_a_directory_others_can_write_is_not_used(counted, mode):
    root = Path(cache.cache_dir())
    cache.cubin_for(b"code", "sm_90")
    root.chmod(mode)
    with pytest.warns(RuntimeWarning, match=f"writable by others \\(mode {mode:04o}\\)"):
        assert cache.cubin_for(b"code", "sm_90").endswith(b"sm_90")
    assert len(counted) == 2  # the entry there was not read
    root.chmod(0o700)
    cache.cubin_for(b"code", "sm_90")
    assert len(counted) == 2  # and trusted again, it is


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="chown needs root")
def test_a_directory_owned_by_someone_else_is_not_used(counted):
    root = Path(cache.cache_dir())
    cache.cubin_for(b"code", "sm_90")
    os.chown(root, 12345, -1)
    with pytest.warns(RuntimeWarning, match="owned by user id 12345"):
        cache.cubin_for(b"code", "sm_90")
    assert len(counted) == 2


def test_an_entry_copied_under_another_key_is_a_miss(counted):
    cache.cubin_for(b"evil", "sm_90")
    root = Path(cache.cache_dir())
    planted = _entry(root)
    victim = cache.cache_path(
        cache.cache_key(
            b"code", "sm_90", tileiras.toolchain_id(), {"lineinfo": False, "opt_level": 3}
        ),
        root,
    )
    victim.parent.mkdir(mode=0o700, exist_ok=True)
    shutil.copyfile(planted, victim)  # a valid entry, with its own valid sha256
    assert cache.cubin_for(b"code", "sm_90") == b"\x7fELF cubin of code for sm_90"
    assert len(counted) == 2


def _key_path(bytecode: bytes, arch: str) -> Path:
    key = cache.cache_key(
        bytecode, arch, tileiras.toolchain_id(), {"lineinfo": False, "opt_level": 3}
    )
    path = cache.cache_path(key, Path(cache.cache_dir()))
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(Path(cache.cache_dir()), 0o700)
    return path


def test_a_symlinked_entry_is_not_followed(counted, tmp_path):
    cache.cubin_for(b"other", "sm_90")
    target = _entry(Path(cache.cache_dir()))
    path = _key_path(b"code", "sm_90")
    path.symlink_to(target)
    assert cache.cubin_for(b"code", "sm_90") == b"\x7fELF cubin of code for sm_90"
    assert len(counted) == 2
    assert not path.is_symlink() and path.is_file()  # replaced by a real entry
    assert target.read_bytes().endswith(b"cubin of other for sm_90")  # the target untouched


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_entry_does_not_block(counted):
    path = _key_path(b"code", "sm_90")
    os.mkfifo(path)
    result: list = []
    worker = threading.Thread(target=lambda: result.append(cache.cubin_for(b"code", "sm_90")))
    worker.start()
    worker.join(timeout=10)
    if worker.is_alive():  # unblock it before failing: open the FIFO for writing
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        worker.join(timeout=5)
        pytest.fail("reading a FIFO entry blocked")
    assert result == [b"\x7fELF cubin of code for sm_90"] and path.is_file()


def test_the_header_binds_the_entry_to_its_key(counted):
    cache.cubin_for(b"code", "sm_90")
    entry = _entry(Path(cache.cache_dir()))
    lines = entry.read_bytes().split(b"\n", 3)
    assert lines[0] == b"tileir-cubin-2" and lines[1].decode() == entry.stem
