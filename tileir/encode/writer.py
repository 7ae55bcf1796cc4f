"""``encode``: a Module as Tile IR bytecode of one version (13.1 ... 13.5).

The file is the 12-byte header, then sections (docs/bytecode.md §3):
Func (the entry functions and their bodies), Global, Constant, Debug, Type,
Producer and String, then the end byte.  Bodies are written first because
they fill the string, type and constant pools the other sections lay out.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Optional, Union

from tileir.encode.attrcodec import write_tagged
from tileir.encode.debuginfo import DebugWriter
from tileir.encode.optable import dense_fault
from tileir.encode.opwrite import WriteScope, check_block, write_ops
from tileir.encode.pools import Pools, table_parts
from tileir.encode.versions import (
    LATEST_NEED,
    check_version,
    module_level_need,
    required_version,
)
from tileir.encode.wire import MAGIC, PADDING, SECTION, Sink, leb128
from tileir.errors import EncodeError
from tileir.ir.dialect import VERSIONS, parse_version, version_text
from tileir.ir.module import Dense, Function, Hints, Module

__all__ = ["encode", "resolve_version"]

#: A bytecode version as callers give it: ``(13, 3)``, ``"13.3"``, or None (the lowest that
#: holds the module).
VersionLike = Union[tuple[int, int], str, None]

_ENTRY, _HAS_HINTS = 0x02, 0x04
# 13.5's function-table entry (docs/bytecode.md §3.2): flags bit 1 = kernel, then loc, then
# always a tagged OptimizationHints attribute and a tagged array of argument dictionaries
_V5 = (13, 5)
_EMPTY_ARG_ATTRS = bytes([0x06, 0x00])  # tag Array, no dictionaries (as cuTile writes it)
# "13.4" -> (13, 4) for the canonical spellings (any other string goes through parse_version)
_BY_TEXT = {version_text(v): v for v in VERSIONS}
_VISIBILITY = ("public", "private")


def resolve_version(module: Module, version: VersionLike) -> tuple[int, int]:
    """``version`` as a ``(13, N)`` pair; None picks the module's required version."""
    if version is None:
        return required_version(module)
    if isinstance(version, str):
        known = _BY_TEXT.get(version)
        if known is not None:
            return known
        try:
            return parse_version(version)
        except ValueError as e:
            raise EncodeError(str(e)) from None
    pair: tuple[int, ...]
    try:
        pair = tuple(version)
    except TypeError:
        pair = ()
    if pair not in VERSIONS:
        names = ", ".join(map(version_text, VERSIONS))
        raise EncodeError(f"bytecode version {version!r} is not one tileir writes ({names})")
    return (pair[0], pair[1])  # one of VERSIONS: a (13, N) pair


def encode(module: Module, version: VersionLike = None, *, debug_info: bool = False) -> bytes:
    """Write ``module`` as bytecode of ``version`` (default: the lowest that holds it).

    ``debug_info=True`` adds a Debug section with each op's and function's
    ``loc`` (so ``tileirdisasm -g`` and ``tileiras --lineinfo`` see the user's
    file and line).  Raises :class:`~tileir.errors.EncodeError` when the version
    lacks something the module uses (naming it, its function, its source
    location and the version it needs) or the module breaks the bytecode's
    structure (a value used out of scope, a block without a terminator ...).
    """
    found = _BY_TEXT.get(version) if type(version) is str else None  # (the usual call)
    v = found if found is not None else resolve_version(module, version)
    # The version asked for is checked against what the module needs (the version it requires
    # holds it by definition), without a walk of its own on the way: every type is checked
    # where the type table writes it, and the writer notes an op that may need more (see
    # WriteScope.newer).  Only then, or when writing fails, does ``check_version`` walk the
    # module, so a module that needs more is refused by its message, as before.
    checked = version is not None and v < LATEST_NEED
    try:
        data, newer = _file(module, v, debug_info)
    except EncodeError:
        if checked:
            check_version(module, v)
        raise
    if checked and (
        newer
        or ((module.producer is not None or module.globals) and module_level_need(module) > v)
    ):
        check_version(module, v)
    return data


def _file(module: Module, v: tuple[int, int], debug_info: bool) -> tuple[bytes, bool]:
    """The file's bytes, and whether an op that may need a version after ``v`` is in it."""
    pools = Pools(v)
    debug = DebugWriter(pools) if debug_info else None

    functions, globals_ = module.functions, module.globals
    if len(functions) + len(globals_) > 1:
        names = [f.name for f in functions] + [g.name for g in globals_]
        if len(set(names)) != len(names):
            twice = sorted({n for n in names if names.count(n) > 1})
            raise EncodeError(f"symbol names must be distinct; {', '.join(twice)} appear twice")
    funcs = Sink()
    funcs.varint(len(functions))
    newer = False
    for fn in functions:
        newer = _write_function(funcs, fn, pools, debug) or newer
    global_bytes = _globals(module, pools) if globals_ else None
    producer = None
    if module.producer is not None:
        producer = leb128((pools.string(module.producer),))
    debug_payload = debug.payload() if debug is not None else None

    # the sections, in one buffer: each table is laid out in place (its payload starts
    # aligned to its width, so its padding is the same there as in a buffer of its own)
    buf = bytearray(_HEADER[v])
    _section(buf, _FUNC, funcs.buf, 8)
    if global_bytes is not None:
        _section(buf, _GLOBAL, global_bytes, 1)
    if pools.constants:
        _table(buf, _CONSTANT, pools.constants, 8)
    if debug_payload is not None:
        _section(buf, _DEBUG, debug_payload, 8)
    _table(buf, _TYPE, pools.types.entries, 4)
    if producer is not None:
        _section(buf, _PRODUCER, producer, 1)
    _table(buf, _STRING, pools.strings, 4)
    buf.append(SECTION["end"])
    return bytes(buf), newer


_FUNC, _GLOBAL, _CONSTANT, _DEBUG, _TYPE, _PRODUCER, _STRING = (
    SECTION[name] for name in ("func", "global", "constant", "debug", "type", "producer", "string")
)
#: the file's first 12 bytes per version: the magic, major, minor, then tag (u16 LE) = 0
_HEADER = {v: MAGIC + bytes([v[0], v[1], 0, 0]) for v in VERSIONS}
_ALIGNED = 0x80  # a section id's bit 7: an alignment follows the payload's length


def _table(buf: bytearray, section: int, entries: list[bytes], width: int) -> None:
    """A section holding an indexed table of ``entries``, aligned to ``width``: what
    ``append_table`` lays out in a buffer of its own, written in place (the payload starts
    aligned, so the table's own padding is the same in the file as in that buffer)."""
    words, data = table_parts(entries, width)
    n = len(entries)
    count = bytes((n,)) if n < 0x80 else leb128((n,))
    pad = PADDING[: -len(count) % width]
    _section_head(buf, section, len(count) + len(pad) + len(words) + len(data), width)
    buf += count
    buf += pad
    buf += words
    buf += data


def _section(buf: bytearray, section: int, payload: bytes | bytearray, alignment: int) -> None:
    _section_head(buf, section, len(payload), alignment)
    buf += payload


def _section_head(buf: bytearray, section: int, length: int, alignment: int) -> None:
    """A section's id, its payload's length and alignment, and the padding before it."""
    buf.append(section if alignment == 1 else section | _ALIGNED)
    if length < 0x80:  # (the length's varint, as leb128 spells it)
        buf.append(length)
    elif length < 0x4000:  # (most function sections: two bytes, without leb128's list)
        buf.append((length & 0x7F) | 0x80)
        buf.append(length >> 7)
    else:
        buf += leb128((length,))
    if alignment > 1:
        buf.append(alignment)  # (a varint of one byte)
        buf += PADDING[: -len(buf) % alignment]  # 0xCB until the payload is aligned


#: a parameter's type (in C: no comprehension's code object on every file's path)
_TYPE_OF = attrgetter("type")


def _write_function(s: Sink, fn: Function, pools: Pools, debug: Optional[DebugWriter]) -> bool:
    """Write entry ``fn``; answers whether an op that may need a later version is in it."""
    scope = WriteScope(pools, fn.name)
    if not fn.name:
        raise scope.fail("an entry function needs a name")
    if fn.body.args:
        raise scope.fail("the body block takes no arguments (parameters are Function.params)")
    for p in fn.params:
        scope.define(p)
    body = Sink()
    write_ops(body, fn.body.ops, scope)
    check_block(fn.body, scope, None, final="return")
    loc_index = debug.function(fn.name, fn.loc, scope.locs) if debug is not None else 0

    s.varint(pools.string(fn.name))
    s.varint(pools.types.function(list(map(_TYPE_OF, fn.params))))  # (map: no comprehension)
    if pools.version >= _V5:  # hints and argument dictionaries always there, no hints flag
        s.buf.append(_ENTRY)
        s.varint(loc_index)
        write_tagged(s, fn.hints if fn.hints is not None else Hints(()), pools)
        s.raw(_EMPTY_ARG_ATTRS)
    else:
        s.buf.append(_ENTRY | (_HAS_HINTS if fn.hints is not None else 0))
        s.varint(loc_index)
        if fn.hints is not None:
            write_tagged(s, fn.hints, pools)
    s.varint(len(body.buf))
    s.buf += body.buf
    return scope.newer


def _globals(module: Module, pools: Pools) -> bytes:
    s = Sink()
    s.varint(len(module.globals))
    for g in module.globals:
        where = f"global @{g.name}"
        if not g.name:
            raise EncodeError(f"{where}: a global needs a name")
        if not isinstance(g.value, Dense) or g.value.type.rank != 1:
            raise EncodeError(f"{where}: the value must be a rank-1 dense tile, not {g.value!r}")
        fault = dense_fault(g.value.type, g.value.data)
        if fault:
            raise EncodeError(f"{where}: {fault}")
        if g.visibility not in _VISIBILITY or g.alignment < 0:
            raise EncodeError(f"{where}: visibility {g.visibility!r} / alignment {g.alignment}")
        s.varint(pools.string(g.name))
        s.varint(pools.type(g.value.type))
        s.varint(pools.constant(g.value.data))
        s.varint(g.alignment)
        if pools.version >= (13, 3):
            s.varint(_VISIBILITY.index(g.visibility))
            s.varint(int(bool(g.constant)))
    return bytes(s.buf)
