"""C printf for ``print_tko``: one line of text per block from a format and tile values.

A conversion (``%[flags][width][.precision][length]specifier``, specifiers
``diouxXeEfFgGaAc``) consumes one operand.  A rank-0 tile prints as one number; a
larger tile prints as nested brackets ``[1.000000, 2.000000]`` with every element
in that conversion.  Length modifiers are accepted and ignored (every value
prints at its own width); ``%u`` / ``%o`` / ``%x`` print the unsigned reading.

>>> import numpy as np
>>> from tileir.types import F32, I32
>>> format_block("v=%d %5.2f\\n", [np.int32(-3), np.float32(1.5)], [I32, F32])
'v=-3  1.50\\n'
"""

from __future__ import annotations

import re

import numpy as np

__all__ = ["format_block"]

_SPEC = re.compile(
    r"%(?P<flags>[-+ #0]*)(?P<width>\d+)?(?:\.(?P<prec>\d+))?"
    r"(?P<len>hh|h|ll|l|L|z|j|t)?(?P<conv>[diouxXeEfFgGaAc%])"
)


def _one(conv: str, spec: str, v, fmt) -> str:
    if conv in "aA":
        text = float(v).hex()
        return text.upper() if conv == "A" else text
    if conv in "eEfFgG":
        return (spec + conv) % float(v)
    if conv == "c":
        return chr(int(v) & 0xFF)
    x = int(v)
    if conv in "ouxX" and getattr(fmt, "is_int", False) and x < 0:
        x += 1 << fmt.bits
    if conv in "iu":
        conv = "d"
    return (spec + conv) % x


def _tile(conv: str, spec: str, arr: np.ndarray, fmt) -> str:
    if arr.ndim == 0:
        return _one(conv, spec, arr[()], fmt)
    return "[" + ", ".join(_tile(conv, spec, a, fmt) for a in arr) + "]"


def format_block(fmt_string: str, values: list, formats: list) -> str:
    """The text one block prints: ``values`` are that block's tiles (numpy arrays)."""
    out = []
    at = 0
    pos = 0
    for m in _SPEC.finditer(fmt_string):
        out.append(fmt_string[pos : m.start()])
        pos = m.end()
        conv = m.group("conv")
        if conv == "%":
            out.append("%")
            continue
        spec = "%" + m.group("flags") + (m.group("width") or "")
        if m.group("prec") is not None:
            spec += "." + m.group("prec")
        if at >= len(values):
            out.append(m.group(0))
            continue
        out.append(_tile(conv, spec, np.asarray(values[at]), formats[at]))
        at += 1
    out.append(fmt_string[pos:])
    return "".join(out)
