"""tileir.real.cubin against cubins that tileiras 13.4.92 assembles here.

The bytecode is written with NVIDIA cuTile's own writer (a test-only oracle),
so these tests do not depend on tileir's encoder.  ``entry_bytecode`` is also
used by tests/real/test_real_params.py.
"""

from __future__ import annotations

import struct
from typing import Mapping, Optional, Sequence

import pytest

from support.tools import needs_tools
from tileir.errors import ToolError
from tileir.real import tileiras
from tileir.real.cubin import (
    EIATTR,
    Attribute,
    attributes,
    cubin_arch,
    kernel_info,
    kernel_names,
    sections,
    symbols,
)
from tileir.types import F16, F32, F64, I8, I32, I64, PointerType, TileType


def entry_bytecode(
    entries: Sequence[tuple[str, Sequence[TileType]]],
    *,
    version: str = "13.4",
    hints: Optional[Mapping[str, Mapping[str, int]]] = None,
) -> bytes:
    """Bytecode of entries ``(name, param types)`` whose bodies only return (cuTile's writer)."""
    from cuda.tile._bytecode import encodings, writer
    from cuda.tile._bytecode import type as bctype
    from cuda.tile._bytecode.attribute import EntryHints
    from cuda.tile._bytecode.debug_info import MISSING_DEBUG_ATTR_ID
    from cuda.tile._bytecode.type_base import PtrAttr
    from cuda.tile._bytecode.version import BytecodeVersion

    bc_version = BytecodeVersion[f"V_{version.replace('.', '_')}"]
    buf = bytearray()
    with writer.write_bytecode(len(entries), buf, bc_version) as w:
        table = w.type_table

        def element(fmt):
            return table.simple(bctype.SimpleType[fmt.name.upper()])

        for name, params in entries:
            ids = []
            for t in params:
                e = t.element
                attr = PtrAttr.Missing if getattr(e, "attr", None) is None else PtrAttr.Default
                e_id = (
                    table.pointer(element(e.pointee), attr)
                    if isinstance(e, PointerType)
                    else element(e)
                )
                ids.append(table.tile(e_id, list(t.shape)))
            entry_hints = {arch: EntryHints(**h) for arch, h in (hints or {}).items()}
            with w.function(name, ids, [], True, entry_hints, MISSING_DEBUG_ATTR_ID) as fb:
                encodings.encode_ReturnOp(fb.code_builder, [])
    return bytes(buf)


def ptr(fmt) -> TileType:
    return TileType((), PointerType(fmt))


def scalar(fmt) -> TileType:
    return TileType((), fmt)


MIX = (ptr(F32), scalar(I32), scalar(F64), scalar(F16), scalar(I8), ptr(I8))


@pytest.fixture(scope="module")
def two_kernels() -> bytes:
    code = entry_bytecode([("kmix", MIX), ("kother", (scalar(I64), ptr(F16)))])
    return tileiras.assemble(code, "sm_90")


@needs_tools
def test_kernel_names_and_symbols(two_kernels):
    assert set(kernel_names(two_kernels)) == {"kmix", "kother"}
    names = {s.name for s in symbols(two_kernels)}
    assert {"kmix", "kother", "___NV_TILE_LAUNCH_META_DATA___"} <= names
    section_names = {s.name for s in sections(two_kernels)}
    assert {".nv.info.kmix", ".nv.info.kother", ".text.kmix", ".nv.info"} <= section_names


@needs_tools
def test_parameter_table_of_each_kernel(two_kernels):
    mix = kernel_info(two_kernels, "kmix")
    assert [(p.ordinal, p.offset, p.size) for p in mix.params] == [
        (0, 0, 8),
        (1, 8, 4),
        (2, 16, 8),
        (3, 24, 2),
        (4, 26, 1),
        (5, 32, 8),
    ]
    assert mix.param_size == 40
    other = kernel_info(two_kernels, "kother")
    assert [(p.offset, p.size) for p in other.params] == [(0, 8), (8, 8)]
    assert other.param_size == 16


@needs_tools
def test_launch_facts(two_kernels):
    info = kernel_info(two_kernels, "kmix")
    assert info.arch == "sm_90"
    assert info.reqntid == (32, 1, 1)  # an empty body: one warp (TILEIR_FACTS section 6)
    assert info.maxreg_count == 255
    assert info.cta_per_cluster is None
    assert info.regcount is not None and 0 < info.regcount <= 255
    assert info.cuda_api_version is not None and info.cuda_api_version >= 130


@needs_tools
@pytest.mark.parametrize("arch", tileiras.ARCHITECTURES)
def test_arch_read_from_elf_flags(arch):
    cubin = tileiras.assemble(entry_bytecode([("k", (scalar(I32),))]), arch)
    assert cubin_arch(cubin) == arch
    assert kernel_info(cubin, "k").arch == arch


@needs_tools
def test_cta_per_cluster_from_the_num_cta_in_cga_hint():
    code = entry_bytecode([("k", (scalar(I32),))], hints={"sm_100": {"num_cta_in_cga": 2}})
    assert kernel_info(tileiras.assemble(code, "sm_100"), "k").cta_per_cluster == (2, 1, 1)


@needs_tools
def test_unknown_kernel_names_the_ones_present(two_kernels):
    with pytest.raises(ToolError) as err:
        kernel_info(two_kernels, "vadd")
    assert "no kernel named `vadd`" in str(err.value)
    assert "kmix" in str(err.value) and "kother" in str(err.value)
    assert err.value.kind == "cubin.no_kernel"


@needs_tools
def test_truncated_cubin_is_refused(two_kernels):
    with pytest.raises(ToolError, match="truncated|past the cubin"):
        kernel_info(two_kernels[: len(two_kernels) // 2], "kmix")


def test_not_an_elf():
    with pytest.raises(ToolError, match="ELF magic"):
        kernel_info(b"\x7fTileIR\x00" + bytes(64), "k")


def test_elf_of_another_machine():
    header = bytearray(64)
    header[:4] = b"\x7fELF"
    header[4], header[5] = 2, 1
    header[18:20] = struct.pack("<H", 62)  # EM_X86_64
    with pytest.raises(ToolError, match="EM_CUDA"):
        sections(bytes(header))


def test_attribute_records_of_every_format():
    data = (
        bytes([1, 0x04, 0, 0])  # NVAL
        + bytes([2, 0x6D, 7, 0])  # BVAL: a byte then a pad byte
        + bytes([3, 0x19])
        + struct.pack("<H", 0x38)  # HVAL
        + bytes([4, 0x10])
        + struct.pack("<H", 12)
        + struct.pack("<III", 128, 1, 1)
    )
    assert attributes(data) == (
        Attribute(1, 0x04, 0),
        Attribute(2, 0x6D, 7),
        Attribute(3, EIATTR["EIATTR_CBANK_PARAM_SIZE"], 0x38),
        Attribute(4, EIATTR["EIATTR_REQNTID"], struct.pack("<III", 128, 1, 1)),
    )


def test_attribute_records_refuse_bad_input():
    with pytest.raises(ToolError, match="unknown EIATTR record format 9"):
        attributes(bytes([9, 0x10, 0, 0]))
    with pytest.raises(ToolError, match="claims 12 bytes"):
        attributes(bytes([4, 0x10, 12, 0, 1, 2]))
    with pytest.raises(ToolError, match="truncated"):
        attributes(bytes([3, 0x19, 1]))
