"""The bytecode's primitives: LEB128 varints, zigzag, little-endian words, padding.

:class:`Sink` appends to a growing buffer; :class:`Source` reads a byte string
and raises :class:`~tileir.errors.DecodeError` naming the file offset of any
fault, never an ``IndexError`` or ``struct.error``.

>>> s = Sink()
>>> s.varint(300); s.svarint(-3); s.word(7, 4)
>>> bytes(s.buf).hex()
'ac020507000000'
>>> r = Source(bytes(s.buf))
>>> r.varint(), r.svarint(), r.word(4)
(300, -3, 7)
"""

from __future__ import annotations

import struct
from typing import NoReturn, Sequence

from tileir.errors import DecodeError, EncodeError
from tileir.ir.memo import memo_table, remember

__all__ = [
    "MAGIC",
    "PAD",
    "SECTION",
    "SECTION_NAMES",
    "PADDING",
    "Sink",
    "Source",
    "leb128",
    "packer",
    "zigzag",
    "unzigzag",
    "as_int64",
    "INT64_MIN",
    "INT64_MAX",
    "U64_MAX",
]

MAGIC = b"\x7fTileIR\x00"

# (count, struct code) -> the little-endian Struct of that many words: a memo of a pure
# function of two small values
_PACKERS: dict[tuple[int, str], struct.Struct] = memo_table("encode.wire: word packers")


def packer(count: int, code: str) -> struct.Struct:
    """The :class:`struct.Struct` of ``count`` little-endian words of struct ``code``
    (``B H I Q``, lower case for signed ones).  Kept per count: ``struct.pack`` with a format
    made on each call would format an int and hash a new string first, every table of every
    file.

    >>> packer(3, "H").pack(1, 2, 3)
    b'\\x01\\x00\\x02\\x00\\x03\\x00'
    """
    found = _PACKERS.get((count, code))
    if found is None:
        found = remember(_PACKERS, (count, code), struct.Struct(f"<{count}{code}"), 1024)
    return found


#: The byte that fills alignment padding.
PAD = 0xCB
#: Padding bytes, more than any alignment the format asks for (slice what a gap needs).
PADDING = bytes([PAD]) * 64
_SIGNED_CODES = {1: "b", 2: "h", 4: "i", 8: "q"}  # struct codes of signed words by width

#: Section ids (low 7 bits of a section's first byte; bit 7 says an alignment follows).
SECTION = {
    "end": 0,
    "string": 1,
    "func": 2,
    "debug": 3,
    "constant": 4,
    "type": 5,
    "global": 6,
    "producer": 7,
}
SECTION_NAMES = {v: k for k, v in SECTION.items()}

_U64 = (1 << 64) - 1
#: The ranges of the format's integer fields: a signed varint holds an int64, a varint a u64.
INT64_MIN, INT64_MAX, U64_MAX = -(1 << 63), (1 << 63) - 1, _U64


def _out_of_range(what: str, value: int, low: int, high: int) -> EncodeError:
    # Python ints never overflow, so a value past a field's range would otherwise be written
    # wrapped around (another number) or fail with a bare OverflowError: name both instead.
    return EncodeError(f"{what} {value} is outside the field's range {low} .. {high}")


def zigzag(value: int, what: str = "signed varint") -> int:
    """The zigzag code of an int64 ``value`` (as the C++ writer computes it).

    Raises :class:`~tileir.errors.EncodeError` naming ``what``, the value and the
    int64 range when ``value`` lies outside it (an unsigned bit pattern must be
    converted with :func:`as_int64` first).
    """
    if not INT64_MIN <= value <= INT64_MAX:
        raise _out_of_range(what, value, INT64_MIN, INT64_MAX)
    return ((value << 1) ^ (value >> 63)) & _U64


def unzigzag(code: int) -> int:
    """The signed value of a zigzag code."""
    return (code >> 1) ^ -(code & 1)


def as_int64(pattern: int) -> int:
    """The int64 whose two's-complement bits are the unsigned 64-bit ``pattern``
    (how the C++ writer sees a float's bit pattern before zigzagging it)."""
    if not 0 <= pattern <= _U64:
        raise _out_of_range("64-bit pattern", pattern, 0, _U64)
    return pattern - (1 << 64) if pattern > INT64_MAX else pattern


def leb128(values: Sequence[int]) -> bytes:
    """Varints of ``values`` (ints in 0 .. 2**64-1, unchecked) back to back, as
    :meth:`Sink.varint` writes them: the bytes of a table entry made of fields."""
    out: list[int] = []
    for v in values:
        if v < 0x80:  # most fields: an index, a count, a tag
            out.append(v)
        elif v < 0x4000:  # a line number
            out += ((v & 0x7F) | 0x80, v >> 7)
        else:
            while v >= 0x80:
                out.append((v & 0x7F) | 0x80)
                v >>= 7
            out.append(v)
    return bytes(out)


class Sink:
    """A growing byte buffer with the writers the format needs.

    Every integer writer refuses a value its field cannot hold with an
    :class:`~tileir.errors.EncodeError` naming ``what`` the field is, the value
    and the range; none wraps a value around.
    """

    __slots__ = ("buf",)

    def __init__(self) -> None:
        self.buf = bytearray()

    def __len__(self) -> int:
        return len(self.buf)

    def byte(self, value: int, what: str = "byte") -> None:
        """One byte, 0 .. 255."""
        try:
            self.buf.append(value)
        except ValueError:
            raise _out_of_range(what, value, 0, 0xFF) from None

    def raw(self, data: bytes) -> None:
        self.buf.extend(data)

    def varint(self, value: int, what: str = "varint") -> None:
        """An unsigned LEB128 varint, 0 .. 2**64-1."""
        if 0 <= value < 0x80:  # most varints (indices, counts, tags) take one byte
            self.buf.append(value)
            return
        if value < 0 or value > _U64:
            raise _out_of_range(what, value, 0, _U64)
        while value >= 0x80:
            self.buf.append((value & 0x7F) | 0x80)
            value >>= 7
        self.buf.append(value)

    def svarint(self, value: int, what: str = "signed varint") -> None:
        """A zigzag varint of an int64, -2**63 .. 2**63-1."""
        self.varint(zigzag(value, what))

    def word(self, value: int, width: int, what: str = "word") -> None:
        """An unsigned little-endian word of ``width`` bytes, 0 .. 2**(8*width)-1."""
        try:
            self.buf += int(value).to_bytes(width, "little")
        except OverflowError:
            raise _out_of_range(f"{width}-byte {what}", value, 0, (1 << (8 * width)) - 1) from None

    def ints(self, values: Sequence[int], width: int, what: str = "signed word") -> None:
        """A count, then each value as a signed little-endian word of ``width`` bytes."""
        buf = self.buf
        n = len(values)
        if n < 0x80:
            buf.append(n)
        else:
            self.varint(n)
        code = _SIGNED_CODES.get(width)
        if code is not None:
            try:  # all at once (the routine the tables' offsets take too)
                buf += packer(n, code).pack(*values)
                return
            except (struct.error, TypeError):
                pass  # a value past the range, or one int() converts: word by word below
        for v in values:
            try:
                buf += int(v).to_bytes(width, "little", signed=True)
            except OverflowError:
                half = 1 << (8 * width - 1)
                raise _out_of_range(f"{width}-byte {what}", int(v), -half, half - 1) from None

    def pad_to(self, alignment: int, base: int = 0) -> None:
        """Pad with 0xCB until ``base + len`` is a multiple of ``alignment``."""
        n = -(base + len(self.buf)) % alignment
        self.buf += PADDING[:n] if n <= len(PADDING) else bytes([PAD]) * n


class Source:
    """A reader over ``data``; ``base`` is where ``data`` starts in the file (for messages)."""

    def __init__(self, data: bytes, base: int = 0, what: str = "bytecode") -> None:
        self.data = bytes(data)
        self.pos = 0
        self.base = base
        self.what = what

    @property
    def offset(self) -> int:
        """The file offset of the next byte."""
        return self.base + self.pos

    def remaining(self) -> int:
        return len(self.data) - self.pos

    def fail(self, message: str, at: int | None = None) -> NoReturn:
        where = self.offset if at is None else at
        raise DecodeError(f"{message} (at byte offset {where}, in the {self.what})")

    def take(self, n: int) -> bytes:
        if n < 0 or n > self.remaining():
            self.fail(f"truncated: wanted {n} bytes, {self.remaining()} left")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def byte(self) -> int:
        if self.pos >= len(self.data):
            self.fail("truncated: wanted 1 byte, none left")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self, limit: int | None = None) -> int:
        start = self.offset
        value, shift = 0, 0
        while True:
            if shift > 63:
                self.fail("varint longer than 10 bytes", start)
            b = self.byte()
            value |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        value &= _U64
        if limit is not None and value > limit:
            self.fail(f"value {value} exceeds the limit {limit}", start)
        return value

    def svarint(self) -> int:
        return unzigzag(self.varint())

    def word(self, width: int) -> int:
        return int.from_bytes(self.take(width), "little")

    def ints(self, width: int) -> tuple[int, ...]:
        """A count, then that many signed little-endian words of ``width`` bytes."""
        start = self.offset
        n = self.varint()
        if n * width > self.remaining():
            self.fail(f"array of {n} x {width}-byte words runs past the end", start)
        return tuple(int.from_bytes(self.take(width), "little", signed=True) for _ in range(n))

    def count(self, unit: int = 1) -> int:
        """A varint count of items that take at least ``unit`` bytes each (checked)."""
        start = self.offset
        n = self.varint()
        if unit and n > self.remaining() // unit:
            self.fail(f"count {n} cannot fit in the {self.remaining()} bytes left", start)
        return n

    def skip_pad(self, alignment: int) -> None:
        """Skip padding until the position inside ``data`` is a multiple of ``alignment``."""
        self.take(-self.pos % alignment)
