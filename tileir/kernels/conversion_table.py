"""Which conversions tileiras 13.4.92 accepts, pair by pair (measured: docs/conversions.md,
``python tests/kernels/test_conversion_pairs.py`` measures it again), and which of them a kernel's
Module holds: the library's conversion kernels must cover :func:`dialect_accepts`."""

from __future__ import annotations

from tileir.ir.attr_rules import ftof_compiles, ftof_roundings
from tileir.ir.module import Module, Value, walk
from tileir.ir.signatures import attr_of
from tileir.types import F8E8M0FNU, I4, Format, TileType

__all__ = ["dialect_accepts", "covered_by"]

_WIDTH = {"tf32": 19}  # tf32 takes 32 bits of memory but is 19 bits wide


def dialect_accepts(op: str, src: Format, dst: Format, compiled: bool = True) -> tuple:
    """The roundings ``op`` takes from ``src`` to ``dst`` as tileiras 13.4.92 assembles them
    (ftof: its rounding modes; the other ops: ``("",)``), or ``()`` when it refuses the pair.
    ``compiled=False``: what its verifier takes, some of which it then fails to compile.

    Measured by assembling one op per pair (docs/conversions.md): ftof joins two distinct
    floats with the roundings of :func:`tileir.ir.attr_rules.ftof_roundings` (the same table),
    less those it fails to compile (:func:`tileir.ir.attr_rules.ftof_compiles`, which the
    recorder refuses); ftoi makes i1..i64 (not i4) and itof reads them, not
    into f8E8M0FNU; exti widens and trunci narrows any two of i1, i4, i8 .. i64; bitcast
    keeps the width (tf32 counts 19 bits) and takes no i4.
    """
    f, i = src.is_float, dst.is_float
    if op == "ftof":
        modes = ftof_roundings(src, dst) if f and i and src != dst else ()
        return tuple(m for m in modes if not compiled or ftof_compiles(src, dst, m))
    if op == "ftoi":
        return ("",) if f and dst.is_int and dst != I4 else ()
    if op == "itof":
        return ("",) if src.is_int and src != I4 and i and dst != F8E8M0FNU else ()
    if op in ("exti", "trunci"):
        wider = dst.bits > src.bits if op == "exti" else dst.bits < src.bits
        return ("",) if src.is_int and dst.is_int and wider else ()
    if op == "bitcast":
        same = _WIDTH.get(src.name, src.bits) == _WIDTH.get(dst.name, dst.bits)
        return ("",) if same and I4 not in (src, dst) else ()
    raise ValueError(f"{op!r} is not one of ftof, ftoi, itof, exti, trunci, bitcast")


def _format(v: Value) -> Format:
    """The element format of a conversion's operand or result (a tile of numbers)."""
    if not isinstance(v.type, TileType) or not isinstance(v.type.element, Format):
        raise TypeError(f"a conversion takes and makes tiles of numbers, not {v.type}")
    return v.type.element


def covered_by(module: Module) -> set[tuple[str, str, str, str]]:
    """The (op, src, dst, rounding) conversions a kernel's Module holds (rounding "" but
    for ftof), for checking that every accepted combination has a kernel."""
    found = set()
    for op in walk(module.functions[0].body):
        if op.name in ("ftof", "ftoi", "itof", "exti", "trunci", "bitcast"):
            src, dst = _format(op.operands[0]), _format(op.results[0])
            mode = attr_of(op, "rounding") if op.name == "ftof" else ""
            found.add((op.name, src.name, dst.name, mode))
    return found
