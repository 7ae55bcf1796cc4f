"""The shared pools one file's sections refer into: strings, types, constants.

The writer interns into :class:`Pools` while it writes function bodies, then
lays each pool out as an indexed table (count, padding, offsets, data).  The
reader parses those tables into :class:`ReadPools`, whose lookups check every
index and name the offset of a bad one.

>>> p = Pools((13, 1))
>>> p.string("vadd"), p.string("k"), p.string("vadd")
(0, 1, 0)
>>> s = Sink(); write_table(s, p.strings, 4); bytes(s.buf).hex()
'02cbcbcb0000000004000000766164646b'
"""

from __future__ import annotations

from typing import Any

from tileir.encode.typecodec import TypeReader, TypeTable
from tileir.encode.wire import PADDING, Sink, Source, leb128, packer
from tileir.ir.memo import memo_table, remember

__all__ = [
    "Pools",
    "ReadPools",
    "write_table",
    "append_table",
    "table_parts",
    "read_table",
    "to_bytes",
    "to_str",
]


# text -> its bytes in the String table (UTF-8, lone surrogates kept): a memo of a pure
# function of a string (the same names come back file after file)
_UTF8: dict[str, bytes] = memo_table("encode.pools: texts' bytes")


def to_bytes(text: str) -> bytes:
    # surrogateescape keeps any byte string a decoded file held
    return text.encode("utf-8", "surrogateescape")


def to_str(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


class Pools:
    """What one file's writer interns: strings, types (per version), constants."""

    __slots__ = (
        "version",
        "types",
        "type",
        "strings",
        "constants",
        "_string_ids",
        "_string_bytes",
        "_constant_ids",
        "_constant_bytes",
    )

    def __init__(self, version: tuple[int, int]) -> None:
        self.version = version
        self.types = TypeTable(version)
        #: ``type(t)``: the Type table index of ``t`` (its ``index`` itself: one call less per
        #: type written)
        self.type = self.types.index
        #: the String and Constant tables' entries, in index order
        self.strings: list[bytes] = []
        self.constants: list[bytes] = []
        self._string_ids: dict[str, int] = {}  # text -> index
        self._string_bytes: dict[bytes, int] = {}  # its bytes -> index (texts may share them)
        self._constant_ids: dict[bytes, int] = {}  # data -> index (one entry per data)
        self._constant_bytes: dict[bytes, int] = {}  # an entry's bytes -> index

    def string(self, text: str) -> int:
        found = self._string_ids.get(text)
        if found is None:
            data = _UTF8.get(text)
            if data is None:  # (once per text: the memo keeps the call off the usual path)
                data = remember(_UTF8, text, to_bytes(text), 1024)
            found = self._string_bytes.get(data)
            if found is None:
                found = self._string_bytes[data] = len(self.strings)
                self.strings.append(data)
            self._string_ids[text] = found
        return found

    def string_mark(self) -> tuple[int, int, int]:
        """Where the String table stands now, for :meth:`string_changes`."""
        return len(self.strings), len(self._string_ids), len(self._string_bytes)

    def string_changes(self, mark: tuple[int, int, int]) -> tuple[tuple, tuple, tuple]:
        """What :meth:`string` added since ``mark``: the entries and the two maps' items, for
        :meth:`add_string_changes` to do again on a table that stood where this one did."""
        n, n_ids, n_bytes = mark
        return (
            tuple(self.strings[n:]),
            tuple(list(self._string_ids.items())[n_ids:]),
            tuple(list(self._string_bytes.items())[n_bytes:]),
        )

    def add_string_changes(self, changes: tuple[tuple, tuple, tuple]) -> None:
        strings, ids, by_bytes = changes
        self.strings += strings
        # (item by item: a handful, and dict.update's C code is one more to bring back into
        # the caches after a collection)
        for data, i in by_bytes:
            self._string_bytes[data] = i
        for text, i in ids:
            self._string_ids[text] = i

    def constant(self, data: bytes) -> int:
        found = self._constant_ids.get(data) if type(data) is bytes else None
        if found is None:
            if type(data) is bytes and len(data) < 0x80:  # (a one-byte count: most constants)
                entry = bytes((len(data),)) + data
            else:
                s = Sink()
                s.varint(len(data))
                s.raw(data)
                entry = bytes(s.buf)
            found = self._constant_bytes.get(entry)
            if found is None:
                found = self._constant_bytes[entry] = len(self.constants)
                self.constants.append(entry)
            if type(data) is bytes:
                self._constant_ids[data] = found
        return found


def table_parts(entries: list[bytes], width: int) -> tuple[bytes, bytes]:
    """The ``width``-byte start offsets and the data of an indexed table of ``entries``."""
    # a kernel recorded again has the same tables, their entries the same bytes objects
    # (the replay memos hand them out again), so the key hashes and compares in C at once
    key = (width, *entries)
    known = _TABLE_PARTS.get(key)
    if known is not None:
        return known
    return remember(_TABLE_PARTS, key, _table_parts(entries, width), 256)


def _table_parts(entries: list[bytes], width: int) -> tuple[bytes, bytes]:
    # (a plain loop: after a full collection each C routine a call first reaches is a cache
    # miss of its own, and this one reaches only the ones the writer uses anyway)
    offsets, at = [], 0
    for entry in entries:
        offsets.append(at)
        at += len(entry)
    if at >> (8 * width):  # some start offsets wrap around their word
        mask = (1 << (8 * width)) - 1
        offsets = [o & mask for o in offsets]
    code = _WORD_CODES.get(width)
    if code is not None:
        words = packer(len(offsets), code).pack(*offsets)
    else:
        words = b"".join([o.to_bytes(width, "little") for o in offsets])
    return words, b"".join(entries)


# (width, *entries) -> table_parts' answer: a memo of a pure function of immutable values
_TABLE_PARTS: dict[tuple, tuple[bytes, bytes]] = memo_table("encode.pools: table layouts")


def append_table(buf: bytearray, entries: list[bytes], width: int) -> None:
    """Count, pad to ``width`` (counted from ``buf``'s start), one ``width``-byte start
    offset per entry, the entries."""
    words, data = table_parts(entries, width)
    buf += leb128((len(entries),))
    buf += PADDING[: -len(buf) % width]
    buf += words
    buf += data


def write_table(s: Sink, entries: list[bytes], width: int) -> None:
    """:func:`append_table` onto ``s``."""
    append_table(s.buf, entries, width)


_WORD_CODES = {1: "B", 2: "H", 4: "I", 8: "Q"}  # struct codes of unsigned words by width


def read_table(src: Source, width: int) -> tuple[bytes, list[int], int]:
    """The data area, the start offsets and the data's file offset of an indexed table."""
    n = src.count(width)
    if n == 0:
        return b"", [], src.offset
    src.skip_pad(width)
    if n > src.remaining() // width:
        src.fail(f"{n} offsets of {width} bytes cannot fit in {src.remaining()} bytes")
    offsets = [src.word(width) for _ in range(n)]
    base = src.offset
    return src.take(src.remaining()), offsets, base


def _slice(data: bytes, offsets: list[int], i: int) -> tuple[int, int]:
    start = offsets[i]
    end = offsets[i + 1] if i + 1 < len(offsets) else len(data)
    return start, end


class ReadPools:
    """The pools of a file being read, with checked lookups."""

    def __init__(
        self,
        version: tuple[int, int],
        strings: tuple[bytes, list[int], int],
        types: TypeReader,
        constants: tuple[bytes, list[int], int],
    ) -> None:
        self.version = version
        self._strings = strings  # (data, offsets, base)
        self.types = types
        self._constants = constants  # (data, offsets, base)

    def string(self, src: Source, what: str = "string") -> str:
        at = src.offset
        i = src.varint()
        data, offsets, _base = self._strings
        if i >= len(offsets):
            src.fail(f"{what} index {i} out of range (the String table has {len(offsets)})", at)
        start, end = _slice(data, offsets, i)
        if not 0 <= start <= end <= len(data):
            src.fail(f"{what} {i} has a bad extent [{start}, {end})", at)
        try:  # names must be text: render, the checker and the host all print them
            return data[start:end].decode("utf-8")
        except UnicodeDecodeError as e:
            src.fail(
                f"{what} {i} is not valid UTF-8 (byte {e.start} of it, at byte offset "
                f"{_base + start + e.start} of the file)",
                at,
            )

    def type(
        self, src: Source, want: type | tuple[type, ...] | None = None, what: str = "type"
    ) -> Any:
        return self.types.read(src, want, what)

    def constant(self, src: Source) -> bytes:
        """The raw dense bytes of the constant whose index ``src`` holds next."""
        at = src.offset
        i = src.varint()
        data, offsets, base = self._constants
        if i >= len(offsets):
            src.fail(
                f"constant index {i} out of range (the Constant table has {len(offsets)})", at
            )
        start, end = _slice(data, offsets, i)
        if not 0 <= start <= end <= len(data):
            src.fail(f"constant {i} has a bad extent [{start}, {end})", at)
        entry = Source(data[start:end], base + start, "Constant section")
        n = entry.varint()
        return entry.take(n)
