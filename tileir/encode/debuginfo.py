"""The Debug section: source locations of functions and ops (docs/bytecode.md §3.8).

One row per function: the function's location, then one entry per op in
emission pre-order (nested ops included).  An entry is a 1-based index into a
table of debug attributes (0 = unknown); ops point at a ``DILoc`` whose scope
is the function's ``DISubprogram`` (the dialect's verifier wants every op's
scope to be its function's), which points at a ``DIFile`` and a
``DICompileUnit``.  The function table's ``loc`` field is the row number + 1
(0: the function has no row and all its ops are unknown).

Read back, a ``DILoc`` becomes a :class:`~tileir.ir.module.Loc` with the file,
line and column it holds, its ``scope`` (the :class:`~tileir.ir.module.Subprogram` or
:class:`~tileir.ir.module.LexicalBlock`, every field kept: a producer's own line,
scope line and linkage name survive) and ``function`` = the name of its subprogram; a
``CallSite`` becomes its callee's Loc with ``caller`` = the caller's.  Written back,
a Loc with a scope is a DILoc in that scope and one with a caller a CallSite, so
``tileirdisasm -g`` prints a round trip of any producer's file as it prints the file.
A Loc without a scope (tileir's recordings) lies in the function's own subprogram,
made from the function as described above.
"""

from __future__ import annotations

import os
from typing import Callable, Optional

import attrs

from tileir.encode.pools import Pools, ReadPools, append_table, read_table
from tileir.encode.wire import PADDING, Sink, Source, leb128, packer
from tileir.errors import EncodeError
from tileir.ir.memo import memo_table, remember
from tileir.ir.module import DIFile, LexicalBlock, Loc, Scope, Subprogram

__all__ = ["DebugWriter", "DebugReader"]

_CU, _FILE, _BLOCK, _LOC, _SUBPROGRAM, _CALLSITE = 1, 2, 3, 4, 5, 6
_U64 = (1 << 64) - 1
_V5 = (13, 5)
# DISubprogram's flags varint (13.5, after scope_line; docs/bytecode.md §2.5): bit 0 marks a
# declaration, no other bit is defined.  An entry is a definition, so tileir writes 0.
_SUBPROGRAM_DECLARATION = 0x01


def _subprogram_flags(version: tuple[int, int]) -> tuple[int, ...]:
    """The DISubprogram fields that follow scope_line at ``version``: 13.5's flags (0)."""
    return (0,) if version >= _V5 else ()


def _read_subprogram_flags(src: Source) -> int:
    at = src.offset
    flags = src.varint()
    if flags & ~_SUBPROGRAM_DECLARATION:
        src.fail(f"DISubprogram flags {flags:#x} set bits other than bit 0 (declaration)", at)
    return flags


_UNSET = object()  # no location seen yet

# (version, function name, rows, entries and strings so far, ids of the function's Loc and
# its ops' Locs) -> (the row, the entries and the String table changes it made, the Locs):
# a memo of a pure function of immutable values (see DebugWriter.function)
_ROWS: dict[tuple, tuple] = memo_table("encode.debuginfo: function rows")
_MAX_ROWS = 1024
# (the rows, the entries) -> the section's payload: a memo of a pure function of immutable values
_PAYLOADS: dict[tuple, bytes] = memo_table("encode.debuginfo: payloads")
# file name -> os.path.split of it: a memo of a pure function of a string
_SPLITS: dict[str, tuple[str, str]] = memo_table("encode.debuginfo: file names split")


class DebugWriter:
    """Collects rows of debug-attribute indices; ``payload()`` is the section's bytes."""

    __slots__ = ("pools", "entries", "_ids", "_by_fields", "rows")

    def __init__(self, pools: Pools) -> None:
        self.pools = pools
        self.entries: list[bytes] = []
        self._ids: dict[bytes, int] = {}
        # (tag, *fields) -> index, for fields that are all exact ints (their bytes are then
        # determined by the tuple, and were checked when first written)
        self._by_fields: dict[tuple, int] = {}
        self.rows: list[tuple[int, ...]] = []

    def _attr(self, tag: int, *fields: int) -> int:
        for f in fields:
            if type(f) is not int:
                return self._attr_bytes(tag, fields)
        return self._intern(tag, fields)

    def _intern(self, tag: int, fields: tuple) -> int:
        # fields: one or more exact ints
        key = (tag, *fields)
        found = self._by_fields.get(key)
        if found is not None:
            return found
        if min(fields) < 0 or max(key) > _U64:
            found = self._attr_bytes(tag, fields)  # raises the fault
        else:
            found = self._add(leb128(key))
        self._by_fields[key] = found
        return found

    def _attr_bytes(self, tag: int, fields: tuple) -> int:
        s = Sink()
        s.varint(tag)
        for f in fields:
            if f < 0:
                raise EncodeError(
                    f"debug info field {f} is negative (lines and columns start at 0)"
                )
            s.varint(f)
        return self._add(bytes(s.buf))

    def _add(self, key: bytes) -> int:
        found = self._ids.get(key)
        if found is None:
            self.entries.append(key)
            found = self._ids[key] = len(self.entries)  # 1-based: 0 means unknown
        return found

    def _file(self, f: DIFile) -> int:
        string = self.pools.string
        return self._attr(_FILE, string(f.name), string(f.directory))

    def _scope(self, scope: Scope) -> int:
        """The index of a subprogram or lexical block (and of what it refers to)."""
        if isinstance(scope, LexicalBlock):
            parent = self._scope(scope.scope)
            return self._attr(_BLOCK, parent, self._file(scope.file), scope.line, scope.column)
        string = self.pools.string
        unit = self._attr(_CU, self._file(scope.unit))
        return self._attr(
            _SUBPROGRAM,
            self._file(scope.file),
            scope.line,
            string(scope.name),
            string(scope.linkage),
            unit,
            scope.scope_line,
            *_subprogram_flags(self.pools.version),
        )

    def _located(self, x: Loc, default: Callable[[], int]) -> int:
        """The index of a location with a scope or a caller: a DILoc in its scope (the
        function's own subprogram, ``default()``, when it has none), wrapped in a
        CallSite per caller."""
        sub = self._scope(x.scope) if x.scope is not None else default()
        here = self._attr(_LOC, sub, self.pools.string(x.file), x.line, x.column)
        if x.caller is None:
            return here
        return self._attr(_CALLSITE, here, self._located(x.caller, default))

    def function(self, name: str, loc: Optional[Loc], op_locs: list[Optional[Loc]]) -> int:
        """Add a row for function ``name``; answers the function table's ``loc`` field."""
        # A row is a pure function of the name, the Loc objects (kept by the memo's entry,
        # so their ids name no others meanwhile), the version and where this table and the
        # String table stand: a kernel recorded again has the same shared Locs (see
        # tileir.record.source), so its row and what making it added are found here.
        pools = self.pools
        key = (
            pools.version,
            name,
            len(self.rows),
            tuple(self.entries),
            tuple(pools.strings),
            id(loc),
            *map(id, op_locs),
        )
        known = _ROWS.get(key)
        if known is not None:  # (its entries were new: _function puts them in _ids)
            self.rows.append(known[0])
            self.entries += known[1]
            pools.add_string_changes(known[2])
            return len(self.rows)
        n_entries, mark = len(self.entries), pools.string_mark()
        answer = self._function(name, loc, op_locs)
        if not answer:  # (no location at all: no row, nothing added)
            return answer
        remember(
            _ROWS,
            key,
            (
                self.rows[-1],
                tuple(self.entries[n_entries:]),
                pools.string_changes(mark),
                (loc, *op_locs),  # (held: the ids in the key stay theirs)
            ),
            _MAX_ROWS,
        )
        return answer

    def _function(self, name: str, loc: Optional[Loc], op_locs: list[Optional[Loc]]) -> int:
        ids, entries = self._ids, self.entries
        for i in range(len(ids), len(entries)):  # the entries rows found in _ROWS added
            ids[entries[i]] = i + 1
        anchor = loc or next((x for x in op_locs if x is not None), None)
        if anchor is None:
            return 0
        string = self.pools.string
        ids, entries = self._ids, self.entries
        sub = 0  # the function's own subprogram (0: not made yet)
        # the index of each location by its entry's bytes (ops made from one instruction
        # share their Loc and come one after another: those take the index just found)
        row: list[int] = []
        append = row.append
        found: Optional[int]  # a location's index (None while it is looked up)
        last, found = _UNSET, 0
        file, named = None, 0  # the last file name seen and its string index
        small = False  # the subprogram's and the file name's indices take one byte each
        for x in (anchor, *op_locs):
            if x is last:
                append(found)
                continue
            last = x
            if x is None:
                found = 0
            elif x.scope is not None or x.caller is not None:
                found, sub = self._scoped(x, sub, anchor, name)
                file = None  # (its strings may have come first: look the file up again)
            else:
                line, column = x.line, x.column
                if not sub:  # (its strings come before the file's, as they always did)
                    sub = self._own_subprogram(anchor.file, anchor.line, name)
                    file = None
                if x.file is not file:
                    file = x.file
                    named = string(file)
                    small = sub < 0x80 and named < 0x80
                if (
                    small
                    and type(line) is int
                    and type(column) is int
                    and 0 <= column < 0x80
                    and 0 <= line < 0x4000
                ):
                    # the usual entry, its varints spelt out: one byte each but the line's,
                    # which takes two from 128 on
                    entry = bytes(
                        (_LOC, sub, named, line, column)
                        if line < 0x80
                        else (_LOC, sub, named, line & 0x7F | 0x80, line >> 7, column)
                    )
                    found = ids.get(entry)
                    if found is None:
                        entries.append(entry)
                        found = ids[entry] = len(entries)
                else:  # (the checked way: a negative, huge or odd field is refused there)
                    found = self._attr(_LOC, sub, named, line, column)
            append(found)
        self.rows.append(tuple(row))
        return len(self.rows)

    def _scoped(self, x: Loc, sub: int, anchor: Loc, name: str) -> tuple[int, int]:
        """The index of a location with a scope or a caller, and the function's own
        subprogram (``sub``, 0 while not made): made on the way where a location in the
        chain names no scope (from the anchor, named after the entry)."""
        own = [sub]

        def default() -> int:
            if not own[0]:
                own[0] = self._own_subprogram(anchor.file, anchor.line, name)
            return own[0]

        return self._located(x, default), own[0]

    def _own_subprogram(self, file_name: str, line: int, name: str) -> int:
        """The index of entry ``name``'s own subprogram anchored at ``file_name:line``: what
        ``_scope`` gives for ``Subprogram(f, line, name, name, f, line)`` with ``f`` the
        DIFile of ``file_name``, without building them."""
        if type(line) is not int or line < 0 or line > _U64:
            folder, base = os.path.split(file_name)
            f = DIFile(base, folder)
            return self._scope(Subprogram(f, line, name, name, f, line))
        split = _SPLITS.get(file_name)
        if split is None:
            split = os.path.split(file_name)
            remember(_SPLITS, file_name, split, 1024)
        folder, base = split
        string = self.pools.string
        # (every field a non-negative int in range: the entries' bytes are their varints)
        file = self._add(leb128((_FILE, string(base), string(folder))))
        unit = self._add(leb128((_CU, file)))
        named = string(name)
        flags = _subprogram_flags(self.pools.version)
        return self._add(leb128((_SUBPROGRAM, file, line, named, named, unit, line, *flags)))

    def payload(self) -> Optional[bytes]:
        if not self.rows:
            return None
        # (a pure function of the rows and the entries: those of a kernel recorded again are
        # the same objects, which the key compares by identity)
        key = (tuple(self.rows), tuple(self.entries))
        known = _PAYLOADS.get(key)
        if known is None:
            known = remember(_PAYLOADS, key, self._payload(), 256)
        return known

    def _payload(self) -> bytes:
        rows = self.rows
        buf = bytearray(leb128((len(rows),)))
        buf += PADDING[: -len(buf) % 4]
        starts, at = [], 0
        for row in rows:
            starts.append(at & 0xFFFFFFFF)
            at += len(row)
        buf += packer(len(starts), "I").pack(*starts)
        buf += leb128((at,))
        buf += PADDING[: -len(buf) % 8]
        for row in rows:  # indices count up from 1: each fits its 8-byte word
            buf += packer(len(row), "Q").pack(*row)
        append_table(buf, self.entries, 4)  # the attribute table
        return bytes(buf)


class DebugReader:
    """Reads a Debug section; ``feed(loc_index)`` hands out one function's locations."""

    def __init__(self, payload: Optional[bytes], base: int, pools: ReadPools) -> None:
        self.pools = pools
        self.rows: list[int] = []
        self.indices: list[int] = []
        self.table: tuple[bytes, list[int], int] = (b"", [], base)
        self._cache: dict[int, tuple] = {}
        self._busy: set[int] = set()
        if payload is None:
            return
        src = Source(payload, base, "Debug section")
        n_rows = src.count(4)
        src.skip_pad(4)
        self.rows = [src.word(4) for _ in range(n_rows)]
        n_idx = src.count(8)
        src.skip_pad(8)
        self.indices = [src.word(8) for _ in range(n_idx)]
        self.table = read_table(src, 4)

    def feed(self, loc_index: int, src: Source, at: int) -> Callable[[Source], Optional[Loc]]:
        """A function that answers the next location of the function whose row is
        ``loc_index`` (0: always None)."""
        if loc_index == 0:
            return lambda _src: None
        row = loc_index - 1
        if row >= len(self.rows):
            src.fail(
                f"function location index {loc_index} has no row in the Debug section "
                f"({len(self.rows)} rows)",
                at,
            )
        cursor = [self.rows[row]]

        def next_loc(where: Source) -> Optional[Loc]:
            i = cursor[0]
            if i >= len(self.indices):
                where.fail(f"the Debug section's row {row} runs out of op locations")
            cursor[0] += 1
            return self.location(self.indices[i], where)

        return next_loc

    def location(self, index: int, where: Source) -> Optional[Loc]:
        kind, value = self._attr(index, where)
        if kind in ("loc", "call"):
            return value
        if kind == "unknown":
            return None
        where.fail(f"debug attribute {index} is a {kind}, not a location")

    def _attr(self, index: int, where: Source) -> tuple:
        if index == 0:
            return ("unknown", None)
        data, offsets, base = self.table
        i = index - 1
        if i >= len(offsets):
            where.fail(f"debug attribute index {index} out of range ({len(offsets)} attributes)")
        if i in self._cache:
            return self._cache[i]
        if i in self._busy:
            where.fail(f"debug attribute {index} refers to itself")
        start = offsets[i]
        end = offsets[i + 1] if i + 1 < len(offsets) else len(data)
        if not 0 <= start <= end <= len(data):
            where.fail(f"debug attribute {index} has a bad extent [{start}, {end})")
        self._busy.add(i)
        try:
            value = self._parse(Source(data[start:end], base + start, "Debug section"))
        finally:
            self._busy.discard(i)
        self._cache[i] = value
        return value

    def _expect(self, src: Source, kinds: tuple[str, ...]) -> tuple:
        at = src.offset
        index = src.varint()
        got = self._attr(index, src)
        if got[0] not in kinds:
            src.fail(f"debug attribute {index} is a {got[0]}, not a {' or '.join(kinds)}", at)
        return got

    def _parse(self, src: Source) -> tuple:
        tag = src.varint()
        string = self.pools.string
        if tag == _CU:
            return ("compile unit", self._expect(src, ("file",))[1])
        if tag == _FILE:
            return ("file", DIFile(string(src), string(src)))
        if tag == _BLOCK:
            scope = self._expect(src, ("subprogram", "lexical block"))[1]
            file = self._expect(src, ("file",))[1]
            line, column = src.varint(), src.varint()
            return ("lexical block", LexicalBlock(scope, file, line, column))
        if tag == _LOC:
            scope = self._expect(src, ("subprogram", "lexical block"))[1]
            file_name = string(src)
            line, column = src.varint(), src.varint()
            sub = scope.subprogram if isinstance(scope, LexicalBlock) else scope
            return ("loc", Loc(file_name, line, column, sub.name, scope))
        if tag == _SUBPROGRAM:
            file = self._expect(src, ("file",))[1]
            line = src.varint()
            name = string(src)
            linkage = string(src)
            unit = self._expect(src, ("compile unit",))[1]
            scope_line = src.varint()
            if self.pools.version >= _V5:
                _read_subprogram_flags(src)
            return ("subprogram", Subprogram(file, line, name, linkage, unit, scope_line))
        if tag == _CALLSITE:
            callee = self._expect(src, ("loc", "call", "unknown"))[1]
            caller = self._expect(src, ("loc", "call", "unknown"))[1]
            if callee is None:  # an unknown callee: the location is unknown
                return ("unknown", None)
            return ("call", _called_from(callee, caller))
        return ("unknown", None)  # as NVIDIA's reader: an unknown tag is an unknown location


def _called_from(callee: Loc, caller: Optional[Loc]) -> Loc:
    """``callee`` called at ``caller``.  A callee that is a call site already
    (``callsite(callsite(a at b) at c)``, which no known producer writes) is read as the
    same chain ``a at b at c``; an unknown caller leaves the callee as it is."""
    if caller is None:
        return callee
    if callee.caller is None:
        return attrs.evolve(callee, caller=caller)
    return attrs.evolve(callee, caller=_called_from(callee.caller, caller))
