"""Reading a cubin (CUDA ELF64) without any library: sections, symbols and kernel attributes.

A cubin that ``tileiras`` writes is an ELF64 file (``e_machine`` 190, EM_CUDA).
Each kernel has a section ``.nv.info.<kernel>`` holding *EIATTR records*, the
driver's description of the kernel: its parameter table (ordinal, offset and
size of each parameter in the constant bank), the total parameter size, the
threads per CTA tileiras chose, the register cap and, for clustered kernels,
the CTAs per cluster.  The real device checks its own parameter packing
against that table before every launch, so a disagreement is caught on the
host, not by a kernel reading garbage.

Record layout (little endian; every record starts 4-byte aligned):

* byte 0: format -- EIFMT_NVAL (1), EIFMT_BVAL (2), EIFMT_HVAL (3), EIFMT_SVAL (4);
* byte 1: attribute id (EIATTR_*);
* NVAL / BVAL / HVAL: a 2-byte field (no value / a byte then a pad byte / a u16);
* SVAL: a u16 payload size, then the payload.

Sources of the formats and ids: VivekPanyam/cudaparsers ``src/cubin.rs``
(``NVInfoFormat``, ``NVInfoAttribute`` enum in id order, the KPARAM_INFO field
layout) and redplait's ``nvd.cc`` id table (``s_ei``, EIATTR 0x01..0x5a, the
EIFMT sizes); every id used below was checked [EXP] against cubins tileiras
13.4.92 wrote on this machine (tests/real/test_real_cubin.py).

>>> kernel_info(b"not an elf", "k")
Traceback (most recent call last):
...
tileir.errors.ToolError: tileir: kernel `k`: not a cubin: it does not start with the ELF magic
"""

from __future__ import annotations

import struct
from typing import Optional, Union

import attrs

from tileir.errors import ToolError

__all__ = [
    "Section",
    "Symbol",
    "Attribute",
    "ParamInfo",
    "KernelInfo",
    "sections",
    "symbols",
    "kernel_names",
    "kernel_info",
    "cubin_arch",
    "attributes",
    "EIATTR",
]

# ELF constants (System V gABI).
_ELF_MAGIC = b"\x7fELF"
_EM_CUDA = 190
_SHT_SYMTAB = 2
_STT_FUNC = 2
_STB_GLOBAL = 1
# st_other bit the CUDA toolchain sets on kernel entry symbols (nvd.cc STO_CUDA_ENTRY).
_STO_CUDA_ENTRY = 0x10

# Record formats (cudaparsers NVInfoFormat).
EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL, EIFMT_SVAL = 1, 2, 3, 4

#: The EIATTR ids tileir reads, by name.  Ids from cudaparsers' NVInfoAttribute
#: (position in the enum) and nvd.cc's table, which agree; [EXP] marks the ones
#: seen with the expected payload in tileiras 13.4.92 cubins here.
EIATTR = {
    "EIATTR_PARAM_CBANK": 0x0A,  # [EXP] SVAL 8: u32 symbol, u16 offset (0x210), u16 size
    "EIATTR_REQNTID": 0x10,  # [EXP] SVAL 12: three u32, threads per CTA (x, y, z)
    "EIATTR_FRAME_SIZE": 0x11,  # [EXP] in .nv.info: SVAL (u32 symbol, u32 bytes)
    "EIATTR_MIN_STACK_SIZE": 0x12,  # [EXP] in .nv.info: SVAL (u32 symbol, u32 bytes)
    "EIATTR_KPARAM_INFO": 0x17,  # [EXP] SVAL 12: one parameter (see _kparam)
    "EIATTR_CBANK_PARAM_SIZE": 0x19,  # [EXP] HVAL: total parameter bytes
    "EIATTR_MAXREG_COUNT": 0x1B,  # [EXP] HVAL: register cap (255)
    "EIATTR_EXIT_INSTR_OFFSETS": 0x1C,  # [EXP] SVAL: u32 offsets of EXIT instructions
    "EIATTR_REGCOUNT": 0x2F,  # [EXP] in .nv.info: SVAL (u32 symbol, u32 registers)
    "EIATTR_SW_WAR": 0x36,
    "EIATTR_CUDA_API_VERSION": 0x37,  # [EXP] SVAL 4: u32, 135 = CUDA 13.5 (the ptxas used)
    "EIATTR_CTA_PER_CLUSTER": 0x3D,  # [EXP] SVAL 12: three u32 (num_cta_in_cga hint)
    "EIATTR_EXPLICIT_CLUSTER": 0x3E,
    "EIATTR_MAX_CLUSTER_RANK": 0x3F,
    # [EXP] SVAL 12, one parameter, in place of KPARAM_INFO in tileiras 13.4.92 cubins of
    # kernels whose loads use the tensor-memory engine (softmax, matmul ...): u32 index,
    # u16 ordinal, u16 offset, u32 size in bytes (bit 26 set for pointers).  Such kernels
    # declare a CBANK_PARAM_SIZE beyond their parameters: room the driver's Tile IR hooks
    # (.nv.host) fill at launch.  Name as cuobjdump gives it (not checked against it here).
    "EIATTR_KPARAM_INFO_V2": 0x45,
}
_ID = EIATTR


@attrs.frozen
class Section:
    """One ELF section header (``data`` is sliced from the cubin on demand)."""

    index: int
    name: str
    type: int
    flags: int
    offset: int
    size: int
    link: int
    info: int


@attrs.frozen
class Symbol:
    """One ``.symtab`` entry."""

    name: str
    value: int
    size: int
    bind: int
    type: int
    other: int
    section: int

    @property
    def is_kernel(self) -> bool:
        """A global function marked as a CUDA entry point."""
        return (
            self.type == _STT_FUNC
            and self.bind == _STB_GLOBAL
            and bool(self.other & _STO_CUDA_ENTRY)
        )


@attrs.frozen
class Attribute:
    """One EIATTR record: ``value`` is an int (NVAL: 0, BVAL, HVAL) or the SVAL payload bytes."""

    fmt: int
    id: int
    value: Union[int, bytes]


@attrs.frozen
class ParamInfo:
    """One kernel parameter as EIATTR_KPARAM_INFO records it."""

    ordinal: int
    offset: int
    size: int


@attrs.frozen
class KernelInfo:
    """What the cubin says about one kernel (``None``: the cubin has no such record)."""

    name: str
    arch: str
    params: tuple[ParamInfo, ...]
    param_size: Optional[int]
    reqntid: Optional[tuple[int, int, int]]
    maxreg_count: Optional[int]
    cta_per_cluster: Optional[tuple[int, int, int]]
    regcount: Optional[int]
    cuda_api_version: Optional[int]
    records: tuple[Attribute, ...] = attrs.field(repr=False)


@attrs.frozen
class _Elf:
    flags: int
    sections: tuple[Section, ...]


def _fail(message: str, kernel: Optional[str]) -> ToolError:
    return ToolError(message, kernel=kernel, kind="cubin.malformed")


def _unpack(fmt: str, data: bytes, at: int, what: str, kernel: Optional[str]) -> tuple:
    try:
        return struct.unpack_from(fmt, data, at)
    except struct.error:
        raise _fail(
            f"the cubin is truncated: {what} at byte {at} runs past its {len(data)} bytes", kernel
        ) from None


def _cstring(data: bytes, at: int) -> str:
    end = data.find(b"\0", at)
    return data[at : end if end >= 0 else len(data)].decode("utf-8", "replace")


def _read_elf(cubin: bytes, kernel: Optional[str] = None) -> _Elf:
    if not cubin.startswith(_ELF_MAGIC):
        raise _fail("not a cubin: it does not start with the ELF magic", kernel)
    if len(cubin) < 64 or cubin[4] != 2 or cubin[5] != 1:
        raise _fail("not a cubin: only little-endian ELF64 is read", kernel)
    (machine,) = _unpack("<H", cubin, 18, "e_machine", kernel)
    if machine != _EM_CUDA:
        raise _fail(f"not a cubin: ELF machine {machine}, not EM_CUDA ({_EM_CUDA})", kernel)
    (flags,) = _unpack("<I", cubin, 48, "e_flags", kernel)
    (shoff,) = _unpack("<Q", cubin, 40, "e_shoff", kernel)
    shentsize, shnum, shstrndx = _unpack("<HHH", cubin, 58, "section counts", kernel)
    raw = []
    for i in range(shnum):
        at = shoff + i * shentsize
        name, typ, fl, _addr, off, size, link, info = _unpack(
            "<IIQQQQII", cubin, at, f"section header {i}", kernel
        )
        raw.append((name, typ, fl, off, size, link, info))
    if not 0 <= shstrndx < shnum:
        raise _fail(f"section-name table index {shstrndx} out of {shnum} sections", kernel)
    str_off, str_size = raw[shstrndx][3], raw[shstrndx][4]
    names = cubin[str_off : str_off + str_size]
    out = []
    for i, (name, typ, fl, off, size, link, info) in enumerate(raw):
        if typ != 8 and off + size > len(cubin):  # SHT_NOBITS has no file bytes
            raise _fail(
                f"section {i} ends at byte {off + size}, past the cubin's {len(cubin)} bytes",
                kernel,
            )
        out.append(Section(i, _cstring(names, name), typ, fl, off, size, link, info))
    return _Elf(flags, tuple(out))


def sections(cubin: bytes) -> tuple[Section, ...]:
    """The cubin's section headers, in file order."""
    return _read_elf(cubin).sections


def _data(cubin: bytes, sec: Section) -> bytes:
    return cubin[sec.offset : sec.offset + sec.size]


def _symbols(cubin: bytes, elf: _Elf, kernel: Optional[str] = None) -> tuple[Symbol, ...]:
    tables = [s for s in elf.sections if s.type == _SHT_SYMTAB]
    if not tables:
        return ()
    table = tables[0]
    if not 0 <= table.link < len(elf.sections):
        raise _fail(
            f"the symbol table links to section {table.link}, which does not exist", kernel
        )
    strings = _data(cubin, elf.sections[table.link])
    data = _data(cubin, table)
    out = []
    for at in range(0, len(data) - len(data) % 24, 24):
        name, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", data, at)
        out.append(
            Symbol(_cstring(strings, name), value, size, info >> 4, info & 0xF, other, shndx)
        )
    return tuple(out)


def symbols(cubin: bytes) -> tuple[Symbol, ...]:
    """The cubin's ``.symtab`` entries, in table order (index 0 is the null symbol)."""
    return _symbols(cubin, _read_elf(cubin))


def kernel_names(cubin: bytes) -> tuple[str, ...]:
    """The names of the kernels (entry symbols) the cubin defines."""
    return tuple(s.name for s in symbols(cubin) if s.is_kernel)


def cubin_arch(cubin: bytes) -> str:
    """The ``sm_XX`` the cubin was built for, from the ELF flags.

    Newer cubins keep the SM number in bits 8..15 of ``e_flags`` ([EXP]:
    0x6005a04 for sm_90), older ones in bits 0..7 (nvd.cc reads 16..23 first).
    """
    flags = _read_elf(cubin).flags
    sm = (flags >> 16) & 0xFF or (flags >> 8) & 0xFF or flags & 0xFF
    return f"sm_{sm}"


def attributes(data: bytes, *, kernel: Optional[str] = None) -> tuple[Attribute, ...]:
    """Decode the EIATTR records of one ``.nv.info*`` section's bytes."""
    out = []
    at = 0
    while at < len(data):
        fmt, ident = _unpack("<BB", data, at, "an EIATTR record header", kernel)
        if fmt in (EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL):
            (field,) = _unpack("<H", data, at + 2, f"EIATTR 0x{ident:02x}", kernel)
            value: Union[int, bytes] = (
                0 if fmt == EIFMT_NVAL else field & 0xFF if fmt == EIFMT_BVAL else field
            )
            at += 4
        elif fmt == EIFMT_SVAL:
            (size,) = _unpack("<H", data, at + 2, f"EIATTR 0x{ident:02x} size", kernel)
            if at + 4 + size > len(data):
                raise _fail(
                    f"EIATTR 0x{ident:02x} at byte {at} claims {size} bytes; the "
                    f"section has {len(data) - at - 4} left",
                    kernel,
                )
            value = bytes(data[at + 4 : at + 4 + size])
            at += 4 + size
        else:
            raise _fail(
                f"unknown EIATTR record format {fmt} at byte {at} (attribute 0x{ident:02x})",
                kernel,
            )
        out.append(Attribute(fmt, ident, value))
    return tuple(out)


def _payload(value: Union[int, bytes], what: str, kernel: str) -> bytes:
    """A record's value that must be a byte string (an EIFMT_SVAL record)."""
    if not isinstance(value, bytes):
        raise _fail(f"{what} holds the number {value}, not a byte string", kernel)
    return value


def _kparam(value: Union[int, bytes], kernel: str) -> ParamInfo:
    # u32 index (0), u16 ordinal, u16 offset, u32 packed: bits 0..7 log-alignment,
    # 8..11 space, 12..16 cbank, bit 17 "not in cbank", bits 18..31 size in bytes
    # (cudaparsers KParamInfoValue); [EXP] 0x0021f000 = an 8-byte param.
    payload = _payload(value, "EIATTR_KPARAM_INFO", kernel)
    if len(payload) != 12:
        raise _fail(f"EIATTR_KPARAM_INFO has {len(payload)} bytes, not 12", kernel)
    _index, ordinal, offset, packed = struct.unpack("<IHHI", payload)
    return ParamInfo(ordinal, offset, (packed >> 18) & 0x3FFF)


def _kparam_v2(value: Union[int, bytes], kernel: str) -> ParamInfo:
    # u32 index, u16 ordinal, u16 offset, u32: size in the low 16 bits ([EXP] 1, 2, 4, 8),
    # bit 26 set for pointer parameters.
    payload = _payload(value, "EIATTR_KPARAM_INFO_V2", kernel)
    if len(payload) != 12:
        raise _fail(f"EIATTR_KPARAM_INFO_V2 has {len(payload)} bytes, not 12", kernel)
    _index, ordinal, offset, packed = struct.unpack("<IHHI", payload)
    return ParamInfo(ordinal, offset, packed & 0xFFFF)


def _triple(payload: bytes, what: str, kernel: str) -> tuple[int, int, int]:
    if len(payload) != 12:
        raise _fail(f"{what} has {len(payload)} bytes, not 12", kernel)
    x, y, z = struct.unpack("<III", payload)
    return (x, y, z)


def _first(records, ident: int):
    return next((r.value for r in records if r.id == ident), None)


def _per_symbol(records, ident: int, symbol_index: int) -> Optional[int]:
    # .nv.info (no kernel suffix) keeps per-function values as (u32 symbol, u32 value).
    for r in records:
        if r.id == ident and isinstance(r.value, bytes) and len(r.value) == 8:
            sym, value = struct.unpack("<II", r.value)
            if sym == symbol_index:
                return value
    return None


def kernel_info(cubin: bytes, name: str) -> KernelInfo:
    """Everything the cubin records about kernel ``name``; a ToolError if it has no such kernel."""
    elf = _read_elf(cubin, name)
    by_name = {s.name: s for s in elf.sections}
    section = by_name.get(f".nv.info.{name}")
    syms = _symbols(cubin, elf, name)
    if section is None:
        known = ", ".join(s.name for s in syms if s.is_kernel) or "none"
        raise ToolError(
            f"the cubin has no kernel named `{name}` (its kernels: {known})",
            kernel=name,
            kind="cubin.no_kernel",
        )
    records = attributes(_data(cubin, section), kernel=name)
    readers = {_ID["EIATTR_KPARAM_INFO"]: _kparam, _ID["EIATTR_KPARAM_INFO_V2"]: _kparam_v2}
    params = tuple(
        sorted(
            (readers[r.id](r.value, name) for r in records if r.id in readers),
            key=lambda p: p.ordinal,
        )
    )
    reqntid = _first(records, _ID["EIATTR_REQNTID"])
    cluster = _first(records, _ID["EIATTR_CTA_PER_CLUSTER"])
    api = _first(records, _ID["EIATTR_CUDA_API_VERSION"])
    regcount = None
    glob = by_name.get(".nv.info")
    index = next((i for i, s in enumerate(syms) if s.name == name and s.type == _STT_FUNC), None)
    if glob is not None and index is not None:
        regcount = _per_symbol(
            attributes(_data(cubin, glob), kernel=name), _ID["EIATTR_REGCOUNT"], index
        )
    return KernelInfo(
        name=name,
        arch=cubin_arch(cubin),
        params=params,
        param_size=_first(records, _ID["EIATTR_CBANK_PARAM_SIZE"]),
        reqntid=None if reqntid is None else _triple(reqntid, "EIATTR_REQNTID", name),
        maxreg_count=_first(records, _ID["EIATTR_MAXREG_COUNT"]),
        cta_per_cluster=(
            None if cluster is None else _triple(cluster, "EIATTR_CTA_PER_CLUSTER", name)
        ),
        regcount=regcount,
        cuda_api_version=None if api is None or len(api) != 4 else struct.unpack("<I", api)[0],
        records=records,
    )
