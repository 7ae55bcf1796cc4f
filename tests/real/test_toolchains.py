"""Two tileiras releases side by side: the pinned 13.5.37 and 13.4.92, which CI checks too.

What differs between them is data (tileir.real.toolchains, docs/launch.md §8); each tools
test here asks the release it runs what the data says of it, so the data cannot drift
from either binary: the installed toolchain always, the second where
``$TILEIR_TOOLS_DIR_13_4`` names it (CI sets it).
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from support.build import FunctionBuilder
from support.tools import (
    SECOND_TOOLS,
    TOOLS,
    needs_second_toolchain,
    needs_tools,
    second_tools_dir,
)
from tileir.encode import encode
from tileir.errors import ToolError
from tileir.ir.module import Module
from tileir.kernels.common import ARCHS_FP8, archs_for
from tileir.kernels.gates import golden_paths
from tileir.real import cache, tileiras
from tileir.real.toolchains import FACTS, PINNED, SECOND, archs_needing, facts_for
from tileir.types import (
    F8E4M3FN,
    F32,
    I32,
    TOKEN,
    PartitionViewType,
    PointerType,
    TensorViewType,
    TileType,
)

REPO = Path(__file__).resolve().parents[2]


def test_the_extras_pin_the_release_the_facts_call_pinned():
    # (tomllib is 3.11 on; the pins are plain strings in pyproject.toml)
    pins = re.findall(r'"nvidia-cuda-tileiras([^"]*)"', (REPO / "pyproject.toml").read_text())
    assert pins == [f"=={PINNED}"] * 2, pins  # the tileiras extra and the test extra
    ci = (REPO / ".ci" / "run").read_text()
    assert f"nvidia-cuda-tileiras=={SECOND}" in ci and "TILEIR_TOOLS_DIR_13_4" in ci


def test_the_facts_differ_where_the_releases_do():
    new, old = FACTS[PINNED], FACTS[SECOND]
    for fp8 in ("f8E4M3FN", "f8E5M2"):
        assert "sm_89" in new.format_archs[fp8] and "sm_89" not in old.format_archs[fp8]
        assert set(new.format_archs[fp8]) - set(old.format_archs[fp8]) == {"sm_89"}
    for kind in ("ptr:unicast", "ptr:multicast"):
        assert new.format_archs[kind] == ("sm_100", "sm_103", "sm_107")
        assert archs_needing([kind], SECOND) == ()  # 13.4.92 has no such pointers
    assert new.atomic_red_padded_view and not old.atomic_red_padded_view
    assert "13.5" in new.bytecode_versions and "13.5" not in old.bytecode_versions
    assert ARCHS_FP8 == new.format_archs["f8E4M3FN"]
    assert archs_needing(["f32", "i4"]) is None  # formats every chip has limit nothing


def test_a_release_is_found_by_its_series_and_an_unknown_series_is_refused():
    assert facts_for("13.5.37") is FACTS["13.5.37"]
    assert facts_for("13.4.99") is FACTS["13.4.92"]
    with pytest.raises(ValueError, match=r"tileiras 13\.6\.1 .*known: 13\.4\.92, 13\.5\.37"):
        facts_for("13.6.1")


def test_a_kernels_archs_answer_for_either_release():
    fp8 = archs_for(F8E4M3FN)
    assert fp8 is not None and "sm_89" in fp8 and "sm_89" not in fp8.under(SECOND)
    assert archs_for(F32) is None
    assert fp8.under(PINNED) == tuple(fp8)


# -- the release on the machine answers as the data says -----------------------------------------


def _toolchains() -> list:
    """The installed toolchain, and the second (skipped, saying why, where it is unset)."""
    return [
        pytest.param(None, id="installed", marks=TOOLS),
        pytest.param("second", id="second", marks=SECOND_TOOLS),
    ]


def _dir(which):
    return None if which is None else second_tools_dir()


def _release(where) -> str:
    return tileiras.tool_version("tileiras", where) if where else tileiras.tool_version()


def _assembles(data: bytes, arch: str, where) -> bool:
    how = {} if where is None else {"tools_dir": where}
    try:
        tileiras.assemble(data, arch, kernel="k", **how)
    except ToolError as err:
        assert err.kind == "tool.refused", err
        return False
    return True


@pytest.mark.parametrize("which", _toolchains())
def test_fp8_on_sm_89_is_what_the_release_says(which):
    where = _dir(which)
    facts = facts_for(_release(where))
    data = golden_paths("cvt_f16_e4m3")["bytecode"].read_bytes()
    assert _assembles(data, "sm_89", where) == ("sm_89" in facts.format_archs["f8E4M3FN"])
    assert not _assembles(data, "sm_86", where)  # no release takes fp8 below Ada
    assert _assembles(data, "sm_90", where)


def _atomic_red_through(padding) -> Module:
    """``atomic_red_view_tko`` (addf) through a partition view with ``padding`` (or none)."""
    P = TileType((), PointerType(F32))
    b = FunctionBuilder("k", [P])
    (base,) = b.params
    tv_t = TensorViewType(F32, (256,), (1,))
    tv = b.op("make_tensor_view", [base], [tv_t], segments=(1, 0, 0))
    pv = b.op("make_partition_view", [tv], [PartitionViewType((64,), tv_t, (0,), padding)])
    bx, _by, _bz = b.op("get_tile_block_id", [], [TileType((), I32)] * 3)
    one = b.op("constant", [], [TileType((64,), F32)], value=_ones())
    b.op(
        "atomic_red_view_tko",
        [pv, bx, one],
        [TOKEN],
        segments=(1, 1, 1, 0),
        memory_ordering="relaxed",
        memory_scope="device",
        mode="addf",
    )
    return Module((b.finish(),))


def _ones():
    from tileir.ir.numerics import dense_of

    return dense_of(TileType((64,), F32), 1.0)


@pytest.mark.parametrize("which", _toolchains())
def test_atomic_reduction_through_a_padded_view_is_what_the_release_says(which):
    where = _dir(which)
    facts = facts_for(_release(where))
    assert _assembles(encode(_atomic_red_through(None)), "sm_90", where)
    padded = encode(_atomic_red_through("zero"))
    assert _assembles(padded, "sm_90", where) == facts.atomic_red_padded_view


# -- the cubin cache keeps the two releases apart -------------------------------------------------


def test_the_real_devices_cubins_are_keyed_by_the_toolchain(monkeypatch, tmp_path):
    # RealDevice._cubin goes through cache.cubin_for, whose key holds tileiras's and ptxas's
    # versions: a new toolchain assembles anew, and the device says which ones it used.
    from tileir.real.device import RealDevice

    runs = []

    def fake_assemble(bytecode, arch, *, lineinfo=False, opt_level=3, kernel=None):
        runs.append(chain[0])
        return b"\x7fELF " + chain[0].encode()

    chain = ["tileiras 13.5.37; ptxas 13.5.37"]
    monkeypatch.setattr(tileiras, "assemble", fake_assemble)
    monkeypatch.setattr(tileiras, "toolchain_id", lambda: chain[0])
    monkeypatch.setenv("TILEIR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TILEIR_CUBIN_DIR", raising=False)
    device = SimpleNamespace(arch="sm_90", _assembler=None, _toolchains=set())
    first = RealDevice._cubin(device, b"code", "k")
    assert RealDevice._cubin(device, b"code", "k") == first and len(runs) == 1  # cached
    chain[0] = "tileiras 13.4.92; ptxas 13.5.37"
    assert RealDevice._cubin(device, b"code", "k") == b"\x7fELF " + chain[0].encode()
    assert runs == ["tileiras 13.5.37; ptxas 13.5.37", "tileiras 13.4.92; ptxas 13.5.37"]
    assert device._toolchains == {"tileiras 13.5.37; ptxas 13.5.37", chain[0]}


@needs_second_toolchain
@needs_tools
def test_the_two_installed_releases_have_their_own_cache_entries(tmp_path, monkeypatch):
    where = second_tools_dir()
    monkeypatch.setenv("TILEIR_CACHE_DIR", str(tmp_path / "cache"))
    ids = (tileiras.toolchain_id(), tileiras.toolchain_id(where))
    assert ids[0] != ids[1] and all(re.match(r"tileiras 13\.\d+\.\d+", i) for i in ids)
    data = golden_paths("vadd")["bytecode"].read_bytes()
    keys = {cache.cache_key(data, "sm_90", i, {"lineinfo": False, "opt_level": 3}) for i in ids}
    assert len(keys) == 2
    cache.cubin_for(data, "sm_90", kernel="vadd")
    cache.cubin_for(data, "sm_90", kernel="vadd", tools_dir=where)
    assert len(list((tmp_path / "cache").rglob("*.cubin"))) == 2
