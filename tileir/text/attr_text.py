"""Attribute values in the spelling ``tileirdisasm`` 13.4.92 prints.

Dense constants (``<f32: 1.500000e+00>``, nested lists, the quoted hex form of
large ones), typed scalars of reduce / scan identities, optimization hints,
assume predicates and string literals.  Each was pinned by disassembling
bytecode written with NVIDIA cuTile's writer (tests/text/test_render.py).

>>> from tileir.types import TileType, F32, I32
>>> from tileir.ir.numerics import dense_of
>>> dense_text(dense_of(TileType((16,), F32), 1.5))
'<f32: 1.500000e+00>'
>>> dense_text(dense_of(TileType((2, 2), I32), [[1, -2], [3, 4]]))
'<i32: [[1, -2], [3, 4]]>'
>>> scalar_text(ScalarAttr.of(F32, float("-inf")))
'0xFF800000 : f32'
>>> string_text('v=%d\\n')
'"v=%d\\\\0A"'
"""

from __future__ import annotations

import re

from tileir.ir.module import Bounded, Dense, DivBy, Hints, SameElements, ScalarAttr
from tileir.ir.numerics import dense_format, element_bytes
from tileir.text.float_text import float_text
from tileir.types import Format

__all__ = [
    "dense_text",
    "scalar_text",
    "hints_text",
    "predicate_text",
    "string_text",
    "element_text",
    "symbol_text",
    "HEX_THRESHOLD",
]

#: A non-splat constant with more elements than this prints as one quoted hex string
#: (MLIR's default; tile sizes are powers of two, so 64 prints as a list and 128 as hex).
HEX_THRESHOLD = 100


def _signed(fmt: Format, bits: int) -> int:
    bits &= (1 << fmt.bits) - 1
    return bits - (1 << fmt.bits) if bits >> (fmt.bits - 1) else bits


def element_text(fmt: Format, bits: int) -> str:
    """One element of a dense constant (``tf32`` bits: its 19-bit storage pattern)."""
    if fmt.name == "i1":
        return "true" if bits & 1 else "false"
    if fmt.is_int:
        return str(_signed(fmt, bits))
    return float_text(fmt, bits)


def _elements(dense: Dense) -> list[int]:
    fmt = dense_format(dense)
    count = dense.type.size
    data = dense.data
    if fmt.name == "i1":
        if len(data) == 1 and data[0] in (0x00, 0xFF):
            return [1 if data[0] else 0]
        return [(data[i // 8] >> (i % 8)) & 1 for i in range(count)]
    width = element_bytes(fmt)
    return [int.from_bytes(data[i : i + width], "little") for i in range(0, len(data), width)]


def _nested(items: list[str], shape: tuple[int, ...]) -> str:
    if len(shape) <= 1:
        return "[" + ", ".join(items) + "]"
    step = len(items) // shape[0]
    return (
        "["
        + ", ".join(_nested(items[i : i + step], shape[1:]) for i in range(0, len(items), step))
        + "]"
    )


def dense_text(dense: Dense) -> str:
    """``<T: v>`` when every element has the same bits, else ``<T: [[..], ..]>`` by shape, or
    ``<T: "0x..">`` (the raw bytes) past the threshold."""
    fmt = dense_format(dense)
    values = _elements(dense)
    if len(set(values)) == 1:
        # bitwise-equal elements print as a splat, however they were stored
        return f"<{fmt}: {element_text(fmt, values[0])}>"
    if len(values) > HEX_THRESHOLD:
        if fmt.name == "i1":
            raw = bytes(values)  # printed one byte per element, not bit-packed
        else:
            raw = dense.data
        return f'<{fmt}: "0x{raw.hex().upper()}">'
    return f"<{fmt}: {_nested([element_text(fmt, v) for v in values], dense.type.shape)}>"


def scalar_text(s: ScalarAttr) -> str:
    """A typed scalar attribute: ``0.000000e+00 : f32``, ``-7`` (i64), ``true`` (i1)."""
    fmt = s.format
    if fmt.name == "i1":
        return "true" if s.bits & 1 else "false"
    if fmt.is_int:
        value = str(_signed(fmt, s.bits))
        return value if fmt.name == "i64" else f"{value} : {fmt}"
    bits = s.bits >> 13 if fmt.name == "tf32" else s.bits  # a tf32 ScalarAttr holds the f32 word
    text = float_text(fmt, bits)
    if fmt.name == "f64" and not text.startswith("0x"):
        return text  # MLIR elides f64, unless the value printed as hex
    return f"{text} : {fmt}"


def _hint_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(int(v))


def hints_text(hints: Hints) -> str:
    """``<arch = {key = value, ...}, ...>``: architectures and keys sorted, as MLIR sorts them."""
    parts = []
    for arch, items in sorted(hints.by_arch, key=lambda a: a[0]):
        inner = ", ".join(f"{k} = {_hint_value(v)}" for k, v in sorted(items, key=lambda i: i[0]))
        parts.append(f"{arch} = {{{inner}}}")
    return "<" + ", ".join(parts) + ">"


def predicate_text(p) -> str:
    """An assume predicate: ``div_by<16>``, ``div_by<4, every 4 along 1>``, ``bounded<0, ?>``,
    ``same_elements<[2, 4]>``."""
    if isinstance(p, DivBy):
        if p.every is None and p.along is None:
            return f"div_by<{p.divisor}>"
        return f"div_by<{p.divisor}, every {p.every} along {p.along}>"
    if isinstance(p, Bounded):
        lo = "?" if p.lower is None else str(p.lower)
        hi = "?" if p.upper is None else str(p.upper)
        return f"bounded<{lo}, {hi}>"
    if isinstance(p, SameElements):
        return f"same_elements<[{', '.join(str(v) for v in p.values)}]>"
    raise TypeError(f"not an assume predicate: {p!r}")


def string_text(s: str) -> str:
    """A quoted string as MLIR escapes it: printable ASCII kept, backslash doubled, every
    other byte of its UTF-8 as ``\\XX`` (two upper-case hex digits)."""
    out = []
    for byte in s.encode("utf-8"):
        ch = chr(byte)
        if ch == "\\":
            out.append("\\\\")
        elif 0x20 <= byte < 0x7F and ch != '"':
            out.append(ch)
        else:
            out.append(f"\\{byte:02X}")
    return '"' + "".join(out) + '"'


_BARE_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")


def symbol_text(name: str) -> str:
    """``@name``, quoted when it is not a bare identifier (``@"my-kernel"``)."""
    return "@" + (name if _BARE_SYMBOL.match(name) else string_text(name))
