"""Element-wise arithmetic, math and comparisons, with every attribute the dialect gives them.

One function per operation, picking the float or the integer op from the
operands' format, with the op's attributes as keywords:

=====================  =========================================================
keyword                ops (and values)
=====================  =========================================================
``rounding``           addf subf mulf divf fma sqrt: ``nearest_even`` (default),
                       ``zero``, ``negative_inf``, ``positive_inf``; divf adds
                       ``approx`` / ``full``, sqrt ``approx``; exp / tanh:
                       ``full`` (default) or ``approx``; divi: ``zero``
                       (default), ``negative_inf``, ``positive_inf``
``flush_to_zero``      addf subf mulf divf fma sqrt rsqrt exp2 maxf minf (f32)
``propagate_nan``      maxf minf
``overflow``           addi subi muli shli negi: ``none``, ``no_signed_wrap``,
                       ``no_unsigned_wrap``, ``no_wrap``
``signed``             divi remi maxi mini shri cmpi (False: unsigned)
``ordering``           cmpf: ``ordered`` (false where a NaN is) or ``unordered``
=====================  =========================================================

>>> from tileir.types import F32, I32
>>> from tileir.record.tile import constant
>>> x = constant(1.5, F32, (4,))
>>> add(x, x, rounding="zero", flush_to_zero=True).attrs["rounding"]
'zero'
>>> div(constant(7, I32, (4,)), 2, rounding="positive_inf", signed=False).op
'divi'
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from tileir.ir.attr_rules import check_float_modifiers, check_int_division, check_overflow
from tileir.ir.signatures import SIGNATURES
from tileir.record.source import user_loc
from tileir.record.tile import (
    Tile,
    TileLike,
    _arith_format,
    _widen_to,
    as_tile,
    binary,
    drop_defaults,
    refuse,
    unary,
    widen_pair,
)
from tileir.record.tile import compare as _compare
from tileir.shape_rules import RuleError, widen_many
from tileir.types import I1, Format, PointerType

__all__ = [
    "add",
    "sub",
    "mul",
    "div",
    "rem",
    "maximum",
    "minimum",
    "mulhi",
    "shl",
    "shr",
    "neg",
    "absolute",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_not",
    "fma",
    "exp",
    "exp2",
    "log",
    "log2",
    "sqrt",
    "rsqrt",
    "sin",
    "cos",
    "tan",
    "sinh",
    "cosh",
    "tanh",
    "ceil",
    "floor",
    "pow",
    "atan2",
    "compare",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_not",
]

_FLOAT = {
    "add": "addf",
    "sub": "subf",
    "mul": "mulf",
    "div": "divf",
    "rem": "remf",
    "max": "maxf",
    "min": "minf",
}
_INT = {
    "add": "addi",
    "sub": "subi",
    "mul": "muli",
    "div": "divi",
    "rem": "remi",
    "max": "maxi",
    "min": "mini",
    "mulhi": "mulhii",
    "shl": "shli",
    "shr": "shri",
    "and": "andi",
    "or": "ori",
    "xor": "xori",
}


def _format_of(kind: str, *values: object) -> Format:
    """The format the operation computes in: that of its first tile operand."""
    for v in values:
        if isinstance(v, Tile):
            if isinstance(v.format, PointerType):
                raise refuse(
                    kind,
                    f"{v.type} holds pointers; use offset() for pointer arithmetic",
                    user_loc(),
                )
            return v.format
    raise refuse(kind, f"none of {', '.join(repr(v) for v in values)} is a tile", user_loc())


def _signedness(signed: bool) -> Optional[str]:
    return None if signed else "unsigned"


def _checked(op: str, fmt: Format, given: dict[str, Any], types: str) -> dict[str, Any]:
    """``given`` (attribute name -> value, None / False when not asked for) checked against
    what ``op`` has and allows; answers the attributes to set."""
    names = {a for a, _k, _d in SIGNATURES[op].attrs}
    out: dict[str, Any] = {}
    for key, value in given.items():
        if value is None or value is False:
            continue
        if key not in names:
            word = {"signedness": "signed=False", "flush_to_zero": "flush_to_zero"}.get(key, key)
            raise refuse(op, f"`{op}` ({types}) takes no {word}", user_loc())
        out[key] = value
    try:
        if fmt.is_float:
            check_float_modifiers(op, fmt, out.get("rounding"), bool(out.get("flush_to_zero")))
        elif op == "divi":
            check_int_division(out.get("rounding"), out.get("signedness") != "unsigned")
        check_overflow(op, out.get("overflow"))
    except RuleError as err:
        raise refuse(op, f"{types}: {err}", user_loc()) from None
    return out


def _binary(kind: str, a: TileLike, b: TileLike, **given: Any) -> Tile:
    fmt = _format_of(kind, a, b)
    table = _FLOAT if fmt.is_float else _INT
    if kind not in table:
        family = "float" if fmt.is_float else "integer"
        raise refuse(kind, f"`{kind}` is not defined on {family} tiles ({fmt})", user_loc())
    if not _asks(given):  # nothing to check, and no attribute to set
        return binary(kind, a, b)
    op = table[kind]
    types = ", ".join(str(v.type) if isinstance(v, Tile) else repr(v) for v in (a, b))
    return binary(kind, a, b, **_checked(op, fmt, given, types))


def _asks(given: dict[str, Any]) -> bool:
    """True when some keyword of ``given`` asks for something (is neither None nor False):
    :func:`_checked` answers no attribute, and checks nothing, for the rest."""
    for value in given.values():
        if value is not None and value is not False:
            return True
    return False


def add(
    a: TileLike,
    b: TileLike,
    *,
    rounding: Optional[str] = None,
    flush_to_zero: bool = False,
    overflow: Optional[str] = None,
) -> Tile:
    """``a + b`` element-wise (``addf`` with ``rounding`` / ``flush_to_zero``; ``addi`` with
    ``overflow``)."""
    return _binary("add", a, b, rounding=rounding, flush_to_zero=flush_to_zero, overflow=overflow)


def sub(
    a: TileLike,
    b: TileLike,
    *,
    rounding: Optional[str] = None,
    flush_to_zero: bool = False,
    overflow: Optional[str] = None,
) -> Tile:
    """``a - b`` element-wise (``subf`` / ``subi``; keywords as :func:`add`)."""
    return _binary("sub", a, b, rounding=rounding, flush_to_zero=flush_to_zero, overflow=overflow)


def mul(
    a: TileLike,
    b: TileLike,
    *,
    rounding: Optional[str] = None,
    flush_to_zero: bool = False,
    overflow: Optional[str] = None,
) -> Tile:
    """``a * b`` element-wise (``mulf`` / ``muli``; keywords as :func:`add`)."""
    return _binary("mul", a, b, rounding=rounding, flush_to_zero=flush_to_zero, overflow=overflow)


def div(
    a: TileLike,
    b: TileLike,
    *,
    rounding: Optional[str] = None,
    flush_to_zero: bool = False,
    signed: bool = True,
) -> Tile:
    """``a / b`` element-wise: ``divf`` (IEEE roundings, ``approx``, ``full``;
    ``flush_to_zero``) or ``divi`` (``rounding`` zero / negative_inf / positive_inf,
    ``signed``)."""
    return _binary(
        "div", a, b, rounding=rounding, flush_to_zero=flush_to_zero, signedness=_signedness(signed)
    )


def rem(a: TileLike, b: TileLike, *, signed: bool = True) -> Tile:
    """The remainder of ``a / b`` with the sign of ``a`` (``remf`` / ``remi``)."""
    return _binary("rem", a, b, signedness=_signedness(signed))


def maximum(
    a: TileLike,
    b: TileLike,
    *,
    propagate_nan: bool = False,
    flush_to_zero: bool = False,
    signed: bool = True,
) -> Tile:
    """Element-wise maximum: ``maxf`` (a NaN loses unless ``propagate_nan``) or ``maxi``."""
    return _binary(
        "max",
        a,
        b,
        propagate_nan=propagate_nan,
        flush_to_zero=flush_to_zero,
        signedness=_signedness(signed),
    )


def minimum(
    a: TileLike,
    b: TileLike,
    *,
    propagate_nan: bool = False,
    flush_to_zero: bool = False,
    signed: bool = True,
) -> Tile:
    """Element-wise minimum: ``minf`` or ``mini`` (keywords as :func:`maximum`)."""
    return _binary(
        "min",
        a,
        b,
        propagate_nan=propagate_nan,
        flush_to_zero=flush_to_zero,
        signedness=_signedness(signed),
    )


def mulhi(a: TileLike, b: TileLike) -> Tile:
    """The high half of the (unsigned) double-width product of integer tiles (``mulhii``)."""
    return _binary("mulhi", a, b)


def shl(a: TileLike, shift: TileLike, *, overflow: Optional[str] = None) -> Tile:
    """``a << shift`` (``shli``)."""
    return _binary("shl", a, shift, overflow=overflow)


def shr(a: TileLike, shift: TileLike, *, signed: bool = True) -> Tile:
    """``a >> shift`` (``shri``): arithmetic when ``signed``, logical otherwise."""
    return _binary("shr", a, shift, signedness=_signedness(signed))


def bitwise_and(a: TileLike, b: TileLike) -> Tile:
    """``a & b`` of integer (or i1) tiles (``andi``)."""
    return _binary("and", a, b)


def bitwise_or(a: TileLike, b: TileLike) -> Tile:
    """``a | b`` (``ori``)."""
    return _binary("or", a, b)


def bitwise_xor(a: TileLike, b: TileLike) -> Tile:
    """``a ^ b`` (``xori``)."""
    return _binary("xor", a, b)


def bitwise_not(a: Tile) -> Tile:
    """Every bit flipped (``xori`` with all ones)."""
    fmt = _format_of("xori", a)
    return _binary("xor", a, True if fmt == I1 else -1)


logical_and, logical_or = bitwise_and, bitwise_or


def logical_not(a: Tile) -> Tile:
    """``not`` of an i1 mask (``xori`` with true)."""
    return binary("xor", a, True)


def neg(x: Tile, *, overflow: Optional[str] = None) -> Tile:
    """``-x`` (``negf``; ``negi`` with ``overflow``)."""
    fmt = _format_of("neg", x)
    op = "negf" if fmt.is_float else "negi"
    return unary("neg", x, **_checked(op, fmt, {"overflow": overflow}, str(x.type)))


def absolute(x: TileLike) -> Tile:
    """Element-wise absolute value (``absf`` / ``absi``)."""
    return unary("abs", x)


def _math_unary(op: str, x: TileLike, **given: Any) -> Tile:
    x = as_tile(x, None, op)
    fmt = _format_of(op, x)
    if not fmt.is_float:
        raise refuse(
            op, f"`{op}` takes a float tile, got {x.type}; convert with .to(F32)", user_loc()
        )
    if not _asks(given):  # nothing to check, and no attribute to set
        return unary(op, x)
    return unary(op, x, **_checked(op, fmt, given, str(x.type)))


def exp(x: TileLike, *, rounding: Optional[str] = None) -> Tile:
    """``e ** x`` (``exp``; ``rounding="approx"`` for the fast f32 approximation)."""
    return _math_unary("exp", x, rounding=rounding)


def tanh(x: TileLike, *, rounding: Optional[str] = None) -> Tile:
    """Hyperbolic tangent (``tanh``; ``rounding="approx"`` for the fast f32 one)."""
    return _math_unary("tanh", x, rounding=rounding)


def sqrt(x: TileLike, *, rounding: Optional[str] = None, flush_to_zero: bool = False) -> Tile:
    """Square root (``sqrt``: IEEE roundings or ``approx``; ``flush_to_zero``)."""
    return _math_unary("sqrt", x, rounding=rounding, flush_to_zero=flush_to_zero)


def exp2(x: TileLike, *, flush_to_zero: bool = False) -> Tile:
    """``2 ** x`` (``exp2``)."""
    return _math_unary("exp2", x, flush_to_zero=flush_to_zero)


def rsqrt(x: TileLike, *, flush_to_zero: bool = False) -> Tile:
    """``1 / sqrt(x)`` (``rsqrt``)."""
    return _math_unary("rsqrt", x, flush_to_zero=flush_to_zero)


def _plain(name: str) -> Callable[[TileLike], Tile]:
    def op(x: TileLike) -> Tile:
        return _math_unary(name, x)

    op.__name__ = name
    op.__qualname__ = name
    op.__doc__ = f"Element-wise ``{name}`` of a float tile."
    return op


log, log2, sin, cos, tan = (_plain(n) for n in ("log", "log2", "sin", "cos", "tan"))
sinh, cosh, ceil, floor = (_plain(n) for n in ("sinh", "cosh", "ceil", "floor"))


def fma(
    a: TileLike,
    b: TileLike,
    c: TileLike,
    *,
    rounding: Optional[str] = None,
    flush_to_zero: bool = False,
) -> Tile:
    """``a * b + c`` with one rounding (float tiles of one format)."""
    a = as_tile(a, None, "fma")
    b, c = as_tile(b, a, "fma"), as_tile(c, a, "fma")
    types = f"{a.type}, {b.type}, {c.type}"
    if not (isinstance(a.format, Format) and a.format.is_float) or not (
        a.format == b.format == c.format
    ):
        raise refuse("fma", f"fma takes float tiles of one format: {types}", user_loc())
    attrs_ = _checked(
        "fma", a.format, {"rounding": rounding, "flush_to_zero": flush_to_zero}, types
    )
    _arith_format("fma", a.type)
    try:
        shape = widen_many([a.shape, b.shape, c.shape])
    except RuleError as err:
        raise refuse("fma", f"{types}: {err}", user_loc()) from None
    a, b, c = (_widen_to(x, shape, "fma") for x in (a, b, c))
    return Tile("fma", (a, b, c), drop_defaults("fma", attrs_), a.type, user_loc())


def pow(base: TileLike, exponent: TileLike) -> Tile:  # noqa: A001 - the math name
    """``base ** exponent`` (``fpowf``; ``fpowi`` when the exponent is an integer tile)."""
    base = as_tile(base, None, "fpowf")
    if (
        isinstance(exponent, Tile)
        and isinstance(exponent.format, Format)
        and exponent.format.is_int
    ):
        _arith_format("fpowi", base.type)
        if exponent.format.bits > 32:
            raise refuse(
                "fpowi",
                f"the exponent is {exponent.type}; fpowi takes i1, i8, i16 or i32 exponents",
                user_loc(),
            )
        lhs, rhs = widen_pair("fpowi", base, exponent)
        return Tile("fpowi", (lhs, rhs), {}, lhs.type, user_loc())
    return binary("pow", base, exponent)


def atan2(y: TileLike, x: TileLike) -> Tile:
    """The angle of the point ``(x, y)`` element-wise (``atan2``)."""
    return binary("atan2", y, x)


def compare(
    predicate: str, a: TileLike, b: TileLike, *, ordering: str = "ordered", signed: bool = True
) -> Tile:
    """An i1 mask of ``a PREDICATE b`` (``cmpf`` / ``cmpi``).  ``predicate`` is ``equal``,
    ``not_equal``, ``less_than``, ``less_than_or_equal``, ``greater_than`` or
    ``greater_than_or_equal``; ``ordering`` is for floats, ``signed`` for integers."""
    return _compare(predicate, a, b, ordering, signed)


def equal(a: TileLike, b: TileLike, *, ordering: str = "ordered", signed: bool = True) -> Tile:
    """Element-wise ``a == b`` as an i1 mask (``==`` on tiles compares the values recorded)."""
    return _compare("equal", a, b, ordering, signed)


def not_equal(
    a: TileLike, b: TileLike, *, ordering: str = "unordered", signed: bool = True
) -> Tile:
    """Element-wise ``a != b`` as an i1 mask (true where a NaN is, by default)."""
    return _compare("not_equal", a, b, ordering, signed)


def less(a: TileLike, b: TileLike, *, ordering: str = "ordered", signed: bool = True) -> Tile:
    """Element-wise ``a < b`` (``less_than``)."""
    return _compare("less_than", a, b, ordering, signed)


def less_equal(
    a: TileLike, b: TileLike, *, ordering: str = "ordered", signed: bool = True
) -> Tile:
    """Element-wise ``a <= b`` (``less_than_or_equal``)."""
    return _compare("less_than_or_equal", a, b, ordering, signed)


def greater(a: TileLike, b: TileLike, *, ordering: str = "ordered", signed: bool = True) -> Tile:
    """Element-wise ``a > b`` (``greater_than``)."""
    return _compare("greater_than", a, b, ordering, signed)


def greater_equal(
    a: TileLike, b: TileLike, *, ordering: str = "ordered", signed: bool = True
) -> Tile:
    """Element-wise ``a >= b`` (``greater_than_or_equal``)."""
    return _compare("greater_than_or_equal", a, b, ordering, signed)
