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

from typing import NoReturn

from tileir.errors import DecodeError

__all__ = ["MAGIC", "PAD", "SECTION", "SECTION_NAMES", "Sink", "Source", "zigzag", "unzigzag"]

MAGIC = b"\x7fTileIR\x00"
#: The byte that fills alignment padding.
PAD = 0xCB

#: Section ids (low 7 bits of a section's first byte; bit 7 says an alignment follows).
SECTION = {"end": 0, "string": 1, "func": 2, "debug": 3, "constant": 4, "type": 5,
           "global": 6, "producer": 7}
SECTION_NAMES = {v: k for k, v in SECTION.items()}

_U64 = (1 << 64) - 1


def zigzag(value: int) -> int:
    """The zigzag code of a 64-bit two's-complement value (as the C++ writer computes it)."""
    v = value & _U64
    if v >= 1 << 63:
        v -= 1 << 64
    return ((v << 1) ^ (v >> 63)) & _U64


def unzigzag(code: int) -> int:
    """The signed value of a zigzag code."""
    return (code >> 1) ^ -(code & 1)


class Sink:
    """A growing byte buffer with the writers the format needs."""

    def __init__(self) -> None:
        self.buf = bytearray()

    def __len__(self) -> int:
        return len(self.buf)

    def byte(self, value: int) -> None:
        self.buf.append(value)

    def raw(self, data: bytes) -> None:
        self.buf.extend(data)

    def varint(self, value: int) -> None:
        if 0 <= value < 0x80:  # most varints (indices, counts, tags) take one byte
            self.buf.append(value)
            return
        if value < 0 or value > _U64:
            raise ValueError(f"varint {value} is outside 0 .. 2^64-1")
        while value >= 0x80:
            self.buf.append((value & 0x7F) | 0x80)
            value >>= 7
        self.buf.append(value)

    def svarint(self, value: int) -> None:
        self.varint(zigzag(value))

    def word(self, value: int, width: int) -> None:
        self.buf.extend((value & ((1 << (8 * width)) - 1)).to_bytes(width, "little"))

    def ints(self, values, width: int) -> None:
        """A count, then each value as a signed little-endian word of ``width`` bytes."""
        buf = self.buf
        if len(values) < 0x80:
            buf.append(len(values))
        else:
            self.varint(len(values))
        for v in values:
            buf += int(v).to_bytes(width, "little", signed=True)

    def pad_to(self, alignment: int, base: int = 0) -> None:
        """Pad with 0xCB until ``base + len`` is a multiple of ``alignment``."""
        self.buf.extend(bytes([PAD]) * (-(base + len(self.buf)) % alignment))


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
        out = self.data[self.pos:self.pos + n]
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
