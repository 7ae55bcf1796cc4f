"""``decode``: Tile IR bytecode (13.1 ... 13.5, any producer) back into a Module.

Malformed input raises :class:`~tileir.errors.DecodeError` with the byte
offset of the fault, and nothing else: every read goes through
``wire.Source``, whose faults are DecodeErrors, and the checks NVIDIA's reader
makes (magic, version, section ids and alignment, table indices, opcodes the
version lacks, block terminators, trailing bytes) are made here too.
"""

from __future__ import annotations

from typing import Optional

from tileir.encode.attrcodec import read_tagged
from tileir.encode.debuginfo import DebugReader
from tileir.encode.opread import ReadScope, read_ops
from tileir.encode.optable import VALUE_TYPES, dense_fault
from tileir.encode.pools import ReadPools, read_table
from tileir.encode.typecodec import TypeReader
from tileir.encode.wire import MAGIC, SECTION, SECTION_NAMES, Source
from tileir.errors import DecodeError, TileIRError
from tileir.ir.dialect import VERSIONS, version_text
from tileir.ir.module import Block, Dense, Function, Global, Hints, Module, Value
from tileir.types import FunctionType, TileType

__all__ = ["decode"]

#: Bit 0 of the header's version tag: the file holds public-preview (SIMT) content.
PREVIEW_BIT = 0x0001
_V5 = (13, 5)
# 13.5 function-table flags (docs/bytecode.md §3.2)
_PRIVATE, _KERNEL, _EXTERN_IMPL = 0x01, 0x02, 0x04
# sections whose alignment flag is mandatory, with the multiple it must be
_ALIGNMENT = {"string": 4, "type": 4, "func": 8, "constant": 8, "debug": 8}


def decode(data: bytes, *, preview: bool = False) -> Module:
    """Read bytecode into a Module (value ids numbered as ``canonicalize`` numbers them).

    Op and function locations come back from a Debug section when there is one.
    Raises :class:`~tileir.errors.DecodeError`, naming the byte offset, for any
    input that is not valid bytecode of a version tileir reads (13.1 to 13.5).  A 13.5
    file whose header marks public-preview content is refused unless ``preview=True``
    (as ``tileirdisasm`` refuses it without ``--preview=simt``).
    """
    try:
        return _decode(bytes(data), preview)
    except DecodeError:
        raise
    except TileIRError as e:  # a value our Module constructors refused
        raise DecodeError(f"malformed bytecode ({e.message}; at byte offset unknown)") from None
    except RecursionError:
        raise DecodeError("regions nest too deeply to read (at byte offset unknown)") from None
    except (IndexError, ValueError, KeyError, TypeError, OverflowError, AttributeError) as e:
        # a fault our own checks missed: still a DecodeError, never a bare exception
        raise DecodeError(
            f"malformed bytecode ({type(e).__name__}: {e}; at byte offset unknown)"
        ) from None


def _header(src: Source) -> tuple[tuple[int, int], bool]:
    """The file's version, and whether its header marks public-preview content."""
    for i, want in enumerate(MAGIC):
        if src.remaining() == 0 or src.data[src.pos] != want:
            src.fail(f"bad magic number at byte {i}: this is not Tile IR bytecode")
        src.pos += 1
    at = src.offset
    major, minor, tag = src.byte(), src.byte(), src.word(2)
    if (major, minor) not in VERSIONS:
        known = ", ".join(map(version_text, VERSIONS))
        src.fail(f"unsupported bytecode version {major}.{minor}.{tag} (supported: {known})", at)
    # the version tag (docs/bytecode.md §3.1): bit 0 = public-preview content, only valid at
    # the current version 13.5; every other bit is refused, as tileirdisasm 13.5.37 does
    if tag & ~PREVIEW_BIT:
        src.fail(f"the header has unrecognized version tag bits ({tag & ~PREVIEW_BIT:#x})", at)
    if tag & PREVIEW_BIT and (major, minor) < _V5:
        src.fail(
            f"public-preview bytecode at version {major}.{minor}.{tag} is not readable; "
            "preview content is only valid at version 13.5",
            at,
        )
    return (major, minor), bool(tag & PREVIEW_BIT)


def _sections(src: Source) -> dict[str, tuple[bytes, int]]:
    found: dict[str, tuple[bytes, int]] = {}
    while True:
        at = src.offset
        head = src.byte()
        sid, aligned = head & 0x7F, bool(head & 0x80)
        if sid == SECTION["end"]:
            if aligned:
                src.fail("the end marker must not carry an alignment flag", at)
            if src.remaining():
                src.fail(f"{src.remaining()} trailing bytes after the end of the bytecode")
            return found
        name = SECTION_NAMES.get(sid)
        if name is None:
            src.fail(f"unknown section id {sid}", at)
        if name in found:
            src.fail(f"section {name} appears twice", at)
        length = src.varint()
        if aligned:
            al_at = src.offset
            alignment = src.varint()
            if alignment == 0 or alignment & (alignment - 1):
                src.fail(f"section alignment {alignment} is not a power of two", al_at)
            src.skip_pad(alignment)
        need = _ALIGNMENT.get(name)
        if need and (not aligned or alignment % need):
            src.fail(f"section {name} must be aligned to a multiple of {need} bytes", at)
        if length > src.remaining():
            src.fail(
                f"section {name} of {length} bytes runs past the end "
                f"({src.remaining()} bytes left)",
                at,
            )
        base = src.offset
        found[name] = (src.take(length), base)


def _table(sections, name: str, width: int):
    if name not in sections:
        return b"", [], 0
    payload, base = sections[name]
    return read_table(Source(payload, base, f"{name.title()} section"), width)


def _decode(data: bytes, preview: bool) -> Module:
    src = Source(data, 0, "file")
    version, marked = _header(src)
    if marked and not preview:
        src.fail(
            "the header marks public-preview (SIMT preview) content, which is read only when "
            "asked for: decode(data, preview=True)",
            8,
        )
    sections = _sections(src)
    for needed in ("string", "func"):
        if needed not in sections:
            src.fail(f"the {needed} section is missing")
    type_data, type_offsets, type_base = _table(sections, "type", 4)
    pools = ReadPools(
        version,
        _table(sections, "string", 4),
        TypeReader(type_data, type_offsets, type_base, version),
        _table(sections, "constant", 8),
    )
    producer = None
    if "producer" in sections:
        p = Source(*sections["producer"], "Producer section")
        producer = pools.string(p, "producer string")
        if p.remaining():
            p.fail("stray bytes after the producer string")
    globals_ = _globals(*sections["global"], pools) if "global" in sections else ()
    debug_payload, debug_base = sections.get("debug", (None, 0))
    debug = DebugReader(debug_payload, debug_base, pools)
    functions = _functions(*sections["func"], pools, debug)
    return Module(functions, globals_, producer)


def _check_entry_flags_v5(src: Source, name: str, flags: int, at: int) -> None:
    """A 13.5 function-table entry's flags: tileir reads public kernels (bit 1) alone."""
    if flags & ~0x07:
        src.fail(f"function {name}: flags {flags:#x} set unrecognized bits", at)
    if flags & _PRIVATE:
        src.fail(f"function {name}: a kernel must have public symbol visibility", at)
    if flags & _KERNEL and flags & _EXTERN_IMPL:
        src.fail(f"function {name}: an entry cannot be both kernel and extern impl", at)
    if not flags & _KERNEL:
        what = "an extern implementation" if flags & _EXTERN_IMPL else "a preview$func"
        src.fail(
            f"function {name}: flags {flags:#x} mark {what} (SIMT preview content), "
            "which tileir does not read",
            at,
        )


def _read_arg_attrs(src: Source, pools: ReadPools, name: str, n_args: int) -> None:
    """13.5's per-argument attribute dictionaries: a tagged array of dictionaries.  tileir's
    Module has no place for argument attributes, so only empty dictionaries are read."""
    at = src.offset
    value = read_tagged(src, pools)
    if not isinstance(value, tuple) or any(
        not isinstance(d, tuple) or any(not isinstance(kv, tuple) for kv in d) for d in value
    ):
        src.fail(f"function {name}: argument attributes {value!r} are not an array of dicts", at)
    if any(value):
        src.fail(
            f"function {name}: argument attributes {value!r} are not empty; tileir keeps no "
            f"argument attributes (the entry has {n_args} arguments)",
            at,
        )


def _globals(payload: bytes, base: int, pools: ReadPools) -> tuple:
    src = Source(payload, base, "Global section")
    out = []
    for _ in range(src.count(4)):
        at = src.offset
        name = pools.string(src, "global name")
        t = pools.type(src, TileType, "global type")
        value = pools.constant(src)
        fault = dense_fault(t, value) or (None if t.rank == 1 else f"{t} is not rank 1")
        if not name or fault:
            src.fail(f"global @{name}: {fault or 'empty name'}", at)
        alignment = src.varint()
        visibility, constant = "public", False
        if pools.version >= (13, 3):
            code = src.varint()
            if code > 1:
                src.fail(f"global @{name}: symbol visibility {code} is not 0 or 1")
            visibility, constant = ("public", "private")[code], src.varint() != 0
        out.append(Global(name, Dense(t, value), alignment, constant, visibility))
    if src.remaining():
        src.fail(f"{src.remaining()} stray bytes after the globals")
    return tuple(out)


def _functions(payload: bytes, base: int, pools: ReadPools, debug: DebugReader) -> tuple:
    src = Source(payload, base, "Func section")
    out = []
    for _ in range(src.count(5)):
        at = src.offset
        name = pools.string(src, "function name")
        sig = pools.type(src, FunctionType, "function signature")
        flags_at = src.offset
        flags = src.byte()
        if not name:
            src.fail("a function without a name", at)
        if pools.version >= _V5:
            _check_entry_flags_v5(src, name, flags, flags_at)
        elif not flags & 0x02 or flags & ~0x07:
            src.fail(
                f"function {name}: flags {flags:#x} do not mark an entry (non-entry "
                "functions are not supported)",
                at,
            )
        if sig.results or not all(isinstance(t, VALUE_TYPES) for t in sig.inputs):
            src.fail(f"function {name}: signature {sig} is not an entry's", at)
        loc_at = src.offset
        loc_index = src.varint()
        hints: Optional[Hints] = None
        if pools.version >= _V5 or flags & 0x04:  # 13.5: always there (empty: none)
            h_at = src.offset
            tagged = read_tagged(src, pools)
            if not isinstance(tagged, Hints):
                src.fail(f"function {name}: optimization hints are {tagged!r}", h_at)
            hints = tagged if tagged.by_arch or pools.version < _V5 else None
        if pools.version >= _V5:
            _read_arg_attrs(src, pools, name, len(sig.inputs))
        length = src.varint()
        if length > src.remaining():
            src.fail(f"function {name}: body of {length} bytes runs past the section", at)
        body_base = src.offset
        body = Source(src.take(length), body_base, f"body of function {name}")
        next_loc = debug.feed(loc_index, src, loc_at)
        fn_loc = next_loc(src)
        params = tuple(Value(i, t) for i, t in enumerate(sig.inputs))
        ops = read_ops(body, ReadScope(pools, params, next_loc), None)
        if ops[-1].name != "return":
            body.fail(f"function {name}: the body ends in `{ops[-1].name}`, not `return`")
        out.append(Function(name, params, Block((), ops), hints, fn_loc))
    if src.remaining():
        src.fail(f"{src.remaining()} stray bytes after the functions")
    return tuple(out)
