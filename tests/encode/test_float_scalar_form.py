"""A float scalar attribute's bytes in every float format (issue 18, point 2).

The rule (docs/bytecode.md, tagged attributes): tag 2, the type's index, then the value's
APFloat pattern in the format's width: one raw byte for widths up to 8 bits (the fp8s,
f4E2M1FN), otherwise the zigzag varint of the pattern read as a signed 64-bit word; tf32
is a 19-bit APFloat, so its f32 pattern is shifted down by its 13 unused low bits first.
The expected bytes are built here from that rule, not with the encoder's helpers.
"""

from __future__ import annotations

import pytest

from tileir.encode.attrcodec import write_tagged
from tileir.encode.pools import Pools
from tileir.encode.wire import Sink
from tileir.ir.module import ScalarAttr
from tileir.types import Format

#: format -> (APFloat width, patterns to write: small, sign bit set, the largest)
CASES = {
    "f4E2M1FN": (4, [0x1, 0x9, 0xF]),
    "f8E4M3FN": (8, [0x01, 0xC0, 0x7E, 0xFE]),
    "f8E5M2": (8, [0x3C, 0xBC, 0xFB]),
    "f8E8M0FNU": (8, [0x7F, 0x80, 0xFE]),
    "fnv8E5M3FNU": (8, [0x40, 0xF0]),
    "f16": (16, [0x3C00, 0xBC00, 0x7BFF]),
    "bf16": (16, [0x3F80, 0xBF80]),
    "tf32": (19, [0x3F800000, 0xBF802000]),
    "f32": (32, [0x3F800000, 0xBF800000]),
    "f64": (64, [0x3FF0000000000000, 0xBFF0000000000000]),
}


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _expected_payload(width: int, bits: int) -> bytes:
    if width == 19:
        bits >>= 13
    if width <= 8:
        return bytes([bits])
    signed = bits - (1 << 64) if bits >= 1 << 63 else bits
    return _varint(((signed << 1) ^ (signed >> 63)) & ((1 << 64) - 1))


@pytest.mark.parametrize(
    ("name", "bits"), [(n, b) for n, (_, patterns) in CASES.items() for b in patterns]
)
def test_a_float_scalar_is_written_in_its_formats_width(name, bits):
    width = CASES[name][0]
    s = Sink()
    write_tagged(s, ScalarAttr(Format(name), bits), Pools((13, 4)))
    assert bytes(s.buf) == b"\x02\x00" + _expected_payload(width, bits)


def test_narrow_formats_take_exactly_one_byte_whatever_the_value():
    for name, (width, patterns) in CASES.items():
        if width > 8:
            continue
        for bits in patterns:
            s = Sink()
            write_tagged(s, ScalarAttr(Format(name), bits), Pools((13, 4)))
            assert len(s.buf) == 3, (name, bits, bytes(s.buf).hex())
