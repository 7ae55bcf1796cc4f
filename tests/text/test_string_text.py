"""Strings in the text as MLIR prints them, byte by byte (issue 18, point 2).

Printable ASCII (0x20 space .. 0x7E tilde) stays as it is, but for the double quote
(escaped ``\\22``) and the backslash (doubled); every other byte, the control characters
0x00 .. 0x1F and 0x7F and each byte of a non-ASCII character's UTF-8, is ``\\XX`` in
upper-case hex.  The table below is written from that rule, one byte at a time.
"""

from __future__ import annotations

import pytest

from tileir.text.attr_text import string_text, symbol_text


def _expected(byte: int) -> str:
    if byte == 0x5C:
        return "\\\\"
    if 0x20 <= byte <= 0x7E and byte != 0x22:
        return chr(byte)
    return "\\" + "0123456789ABCDEF"[byte >> 4] + "0123456789ABCDEF"[byte & 15]


@pytest.mark.parametrize("byte", range(0x80))
def test_every_ascii_byte_alone_and_between_letters(byte):
    ch = chr(byte)
    assert string_text(ch) == f'"{_expected(byte)}"'
    assert string_text(f"a{ch}b") == f'"a{_expected(byte)}b"'


def test_control_characters_are_escaped_never_printed_raw():
    text = string_text("".join(chr(b) for b in range(0x20)) + "\x7f")
    assert all(0x20 <= ord(c) < 0x7F for c in text), repr(text)
    assert text == '"' + "".join(f"\\{b:02X}" for b in list(range(0x20)) + [0x7F]) + '"'


def test_non_ascii_is_escaped_byte_by_byte_in_utf8():
    assert string_text("é") == '"\\C3\\A9"'
    assert string_text("tab\there, 100%") == '"tab\\09here, 100%"'


def test_a_symbol_with_a_control_character_is_quoted_and_escaped():
    assert symbol_text("vadd") == "@vadd"
    assert symbol_text("bad\nname") == '@"bad\\0Aname"'
