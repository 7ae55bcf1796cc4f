"""Conversions between formats, bit reinterpretation, pointer casts, and packing to bytes.

>>> from tileir.types import F32, F8E4M3FN, F8E8M0FNU, I8, I32
>>> from tileir.record.tile import constant
>>> x = constant(1.5, F32, (4,))
>>> convert(x, F8E4M3FN).op, convert(x, I32, saturating=True).attrs["saturating"]
('ftof', True)
>>> convert(x, F8E8M0FNU, rounding="positive_inf").attrs["rounding"]
'positive_inf'
>>> pack(x).type, unpack(pack(x), F32).type
(tile<16xi8>, tile<4xf32>)
"""

from __future__ import annotations

from typing import Any, Optional

from tileir.ir.attr_rules import check_overflow, ftof_compiles, ftof_roundings
from tileir.record.source import user_loc
from tileir.record.tile import Tile, TileLike, as_tile, drop_defaults, refuse
from tileir.shape_rules import RuleError
from tileir.types import I1, I8, I64, PTR_ATTRS, Format, PointerType

__all__ = ["convert", "bitcast", "ptr_to_int", "int_to_ptr", "ptr_to_ptr", "pack", "unpack"]


def _kind(fmt: Format) -> str:
    return "float" if fmt.is_float else "int"


def convert(
    t: TileLike,
    fmt: Format,
    rounding: Optional[str] = None,
    signed: Optional[bool] = None,
    *,
    saturating: bool = False,
    overflow: Optional[str] = None,
) -> Tile:
    """``t`` in format ``fmt``: ``ftof``, ``itof``, ``ftoi``, ``exti`` or ``trunci`` as the
    formats need.

    ``rounding``: ftof takes nearest_even (default), zero, negative_inf, positive_inf or
    nearest_away where the pair allows (into fp8 / fp4 nearest_even only; into f8E8M0FNU
    ``zero`` or ``positive_inf``, which must be given).  ``signed``: how itof / ftoi / exti
    read or make integers (default: signed, except an i1 source, a mask, which reads as 0 or
    1; ``signed=True`` reads a true i1 as -1).  ``saturating`` (ftoi, 13.4): out-of-range
    values clamp.
    ``overflow`` (trunci): a promise about the dropped bits.
    """
    t = as_tile(t, None, "convert")
    src = t.format
    if not isinstance(src, Format) or not isinstance(fmt, Format):
        raise refuse(
            "convert",
            f"cannot convert {t.type} to {fmt}; pointers convert with "
            f"ptr_to_int / int_to_ptr / ptr_to_ptr",
            user_loc(),
        )
    if src == fmt:
        return t
    # an i1 holds 0 or 1 (a mask): unless asked, it converts unsigned (true -> 1, not -1)
    sign = "signed" if (signed if signed is not None else src != I1) else "unsigned"
    pair = f"{t.type} -> {t.type.with_element(fmt)}"
    attrs_: dict[str, Any]
    if src.is_float and fmt.is_float:
        op = "ftof"
        allowed = ftof_roundings(src, fmt)
        if rounding is None and "nearest_even" not in allowed:
            raise refuse(op, f"{pair} needs a rounding: {' or '.join(allowed)}", user_loc())
        rounding = rounding or "nearest_even"
        if rounding not in allowed:
            raise refuse(
                op, f"{pair}: rounding {rounding!r} is not one of {', '.join(allowed)}", user_loc()
            )
        if not ftof_compiles(src, fmt, rounding):
            others = [m for m in allowed if ftof_compiles(src, fmt, m)]
            raise refuse(
                op,
                f"{pair} rounding {rounding}: the dialect's verifier takes it but "
                f'tileiras fails to compile it (13.4.92: "failed to compile Tile IR '
                f'program"; 13.5.37 dies of SIGILL); use {", ".join(others)}',
                user_loc(),
            )
        attrs_ = {"rounding": rounding}
    elif src.is_int and fmt.is_float:
        op, attrs_ = "itof", {"signedness": sign}
        if src.name == "i4":
            raise refuse(
                op,
                f"{pair}: itof does not read i4 tiles; widen them first with convert(x, I8)",
                user_loc(),
            )
        if fmt.name == "f8E8M0FNU":
            raise refuse(
                op, f"{pair}: itof does not make f8E8M0FNU tiles; convert to f32 first", user_loc()
            )
        if rounding not in (None, "nearest_even"):
            raise refuse(
                op, f"{pair}: itof rounds nearest_even only, not {rounding!r}", user_loc()
            )
    elif src.is_float and fmt.is_int:
        op, attrs_ = "ftoi", {"signedness": sign, "saturating": saturating}
        if fmt.name == "i4":
            raise refuse(
                op, f"{pair}: ftoi does not make i4 tiles; convert to i8 and trunci", user_loc()
            )
        if rounding not in (None, "nearest_int_to_zero"):
            raise refuse(
                op,
                f"{pair}: ftoi rounds toward zero (nearest_int_to_zero) only, not {rounding!r}",
                user_loc(),
            )
    elif fmt.bits > src.bits:
        op, attrs_ = "exti", {"signedness": sign}
    else:
        op, attrs_ = "trunci", {"overflow": overflow}
    if rounding is not None and op in ("exti", "trunci"):
        raise refuse(op, f"{pair}: integer conversions take no rounding", user_loc())
    if saturating and op != "ftoi":
        raise refuse(
            op, f"{pair}: saturating is for float -> integer conversions (ftoi)", user_loc()
        )
    if overflow is not None:
        if op != "trunci":
            raise refuse(
                op, f"{pair}: overflow is for narrowing integer conversions (trunci)", user_loc()
            )
        try:
            check_overflow(op, overflow)
        except RuleError as err:
            raise refuse(op, f"{pair}: {err}", user_loc()) from None
    return Tile(op, (t,), drop_defaults(op, attrs_), t.type.with_element(fmt), user_loc())


_WIDTH = {"tf32": 19}  # tf32 occupies 32 bits of memory but is 19 bits wide


def bitcast(t: Tile, fmt: Format) -> Tile:
    """``t``'s bits read as ``fmt`` (same width; never i4; i1 and f4E2M1FN only as
    themselves) (``bitcast``)."""
    t = as_tile(t, None, "bitcast")
    if not isinstance(t.format, Format) or not isinstance(fmt, Format):
        raise refuse(
            "bitcast",
            f"bitcast reinterprets numbers ({t.type} as {fmt}); pointers "
            f"use ptr_to_int / int_to_ptr / ptr_to_ptr",
            user_loc(),
        )
    if "i4" in (t.format.name, fmt.name):
        raise refuse("bitcast", f"bitcast does not take i4 tiles ({t.type} as {fmt})", user_loc())
    if _WIDTH.get(t.format.name, t.format.bits) != _WIDTH.get(fmt.name, fmt.bits):
        raise refuse("bitcast", f"{t.type} as {fmt}: the widths differ", user_loc())
    return Tile("bitcast", (t,), {}, t.type.with_element(fmt), user_loc())


def _pointer_tile(t: object, op: str) -> Tile:
    if not isinstance(t, Tile) or not isinstance(t.format, PointerType):
        raise refuse(
            op,
            f"expected a tile of pointers (address(p), offset(...), scratch(...)), "
            f"got {getattr(t, 'type', t)!r}",
            user_loc(),
        )
    return t


def ptr_to_int(ptrs: Tile) -> Tile:
    """The addresses of a tile of pointers, as ``i64`` (``ptr_to_int``)."""
    ptrs = _pointer_tile(ptrs, "ptr_to_int")
    return Tile("ptr_to_int", (ptrs,), {}, ptrs.type.with_element(I64), user_loc())


def int_to_ptr(addresses: TileLike, fmt: Format, *, ptr_attr: Optional[str] = None) -> Tile:
    """``i64`` addresses as pointers to ``fmt`` elements (``int_to_ptr``); ``ptr_attr``
    gives them 13.4's pointer attribute (``"none"``)."""
    t = as_tile(addresses, None, "int_to_ptr")
    if t.format != I64:
        raise refuse("int_to_ptr", f"addresses are i64 tiles, got {t.type}", user_loc())
    if not isinstance(fmt, Format) or fmt.name == "i4":
        raise refuse("int_to_ptr", f"pointers point at numbers (not i4), got {fmt!r}", user_loc())
    pointer = PointerType(fmt, ptr_attr_of(ptr_attr, "int_to_ptr"))
    return Tile("int_to_ptr", (t,), {}, t.type.with_element(pointer), user_loc())


#: ``ptr_to_ptr``'s default: the result keeps the source pointers' ptr_attr.
SAME_ATTR = "same"


def ptr_to_ptr(ptrs: Tile, fmt: Format, *, ptr_attr: Optional[str] = SAME_ATTR) -> Tile:
    """The same addresses as pointers to ``fmt`` elements (``ptr_to_ptr``).  The result
    keeps the source's 13.4 pointer attribute unless ``ptr_attr`` names another (``None``
    drops it; the dialect allows either)."""
    ptrs = _pointer_tile(ptrs, "ptr_to_ptr")
    if not isinstance(fmt, Format) or fmt.name == "i4":
        raise refuse("ptr_to_ptr", f"pointers point at numbers (not i4), got {fmt!r}", user_loc())
    src = ptrs.format
    assert isinstance(src, PointerType)  # as _pointer_tile checked
    attr = src.attr if ptr_attr == SAME_ATTR else ptr_attr_of(ptr_attr, "ptr_to_ptr")
    return Tile(
        "ptr_to_ptr", (ptrs,), {}, ptrs.type.with_element(PointerType(fmt, attr)), user_loc()
    )


def ptr_attr_of(value: Optional[str], op: str) -> Optional[str]:
    """``value`` as a pointer attribute for ``op`` (None or one of ``PTR_ATTRS``), else a
    refusal naming the op and the user's line."""
    if value is not None and value not in PTR_ATTRS:
        raise refuse(
            op,
            f"ptr_attr must be None or one of {PTR_ATTRS} (none: 13.4; unicast, "
            f"multicast: 13.5), got {value!r}",
            user_loc(),
        )
    return value


def pack(t: Tile) -> Tile:
    """A rank-1 tile's raw bytes as a rank-1 ``i8`` tile (little-endian; 4-bit elements two
    to a byte, element ``2i`` in the low nibble) (``pack``, 13.3)."""
    t = as_tile(t, None, "pack")
    if t.rank != 1 or not isinstance(t.format, Format) or t.format.bits == 8:
        raise refuse(
            "pack",
            f"pack takes a rank-1 tile of numbers that are not 8 bits wide "
            f"(those bitcast to i8), got {t.type}",
            user_loc(),
        )
    nbits = t.type.size * t.format.bits
    if nbits % 8 or nbits < 8:
        raise refuse("pack", f"{t.type} holds {nbits} bits, not whole bytes", user_loc())
    return Tile("pack", (t,), {}, t.type.with_shape((nbits // 8,)).with_element(I8), user_loc())


def unpack(t: Tile, fmt: Format) -> Tile:
    """A rank-1 ``i8`` tile's bytes read as a rank-1 tile of ``fmt`` (``unpack``, 13.3)."""
    t = as_tile(t, None, "unpack")
    if t.rank != 1 or t.format != I8:
        raise refuse("unpack", f"unpack takes a rank-1 i8 tile, got {t.type}", user_loc())
    if not isinstance(fmt, Format) or fmt.bits == 8:
        raise refuse(
            "unpack",
            f"unpack makes numbers that are not 8 bits wide (bitcast makes those), got {fmt!r}",
            user_loc(),
        )
    nbits = t.type.size * 8
    if nbits % fmt.bits:
        raise refuse(
            "unpack", f"{t.type} holds {nbits} bits, not a whole number of {fmt}", user_loc()
        )
    n = nbits // fmt.bits
    if n & (n - 1):
        raise refuse(
            "unpack", f"{t.type} as {fmt} makes {n} elements, not a power of two", user_loc()
        )
    return Tile("unpack", (t,), {}, t.type.with_shape((n,)).with_element(fmt), user_loc())
