"""tileir.real.cache: assemble once per (bytecode, arch, toolchain, options), survive damage."""

from __future__ import annotations

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
    with pytest.warns(RuntimeWarning, match="cannot write the cubin cache"):
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
