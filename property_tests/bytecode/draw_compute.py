"""Op drawers for tile arithmetic: float and integer element-wise ops and math, comparisons
and ``select``, conversions between formats, ``mmaf`` / ``mmai``, and shape ops
(``reshape``, ``permute``, ``broadcast``, ``cat``, ``iota``, ``extract`` / ``insert``,
``pack`` / ``unpack``).  Each draws legal types, formats and rounding modes for its op,
now and then spelling a default attribute out."""

from __future__ import annotations

from hypothesis import strategies as st

from draw_scope import FLOATS, IEEE, INTS, MATH_FLOATS, S32, SHAPES, Drawer, is_float, is_int
from tileir.types import BF16, F16, F32, I1, I8, I16, I32, I64, TileType

__all__ = ["float_binary", "float_unary", "int_op", "compare_select", "convert", "mma", "shape_op"]


def float_binary(d: Drawer) -> None:
    """A binary float op (``addf`` .. ``atan2``), math ops only on f32 / f64."""
    x = d.pick(is_float) or d.const(TileType(d.draw(st.sampled_from(SHAPES)), F32))
    y = d.of_type(x.type)
    fmt = x.type.element
    names = ["addf", "subf", "mulf", "divf", "remf", "maxf", "minf", "fpowf", "atan2"]
    if fmt not in MATH_FLOATS:
        names = ["addf", "subf", "mulf", "maxf", "minf"]
    name = d.draw(st.sampled_from(names))
    ftz = fmt == F32 and d.draw(st.booleans()) or None
    extra = {}
    if name in ("addf", "subf", "mulf", "divf"):
        modes = IEEE + (("approx", "full") if name == "divf" and fmt == F32 else ())
        extra = d.attrs(
            rounding=d.maybe(d.draw(st.sampled_from(modes)), "nearest_even"), flush_to_zero=ftz
        )
    elif name in ("maxf", "minf"):
        extra = d.attrs(propagate_nan=d.draw(st.booleans()) or None, flush_to_zero=ftz)
    d.op(name, [x, y], [x.type], **extra)


def float_unary(d: Drawer) -> None:
    """A unary float op, ``fma`` or ``fpowi`` on f32 or f64, with its legal modes."""
    x = d.pick(lambda t: is_float(t) and t.element in MATH_FLOATS)
    x = x or d.const(TileType(d.draw(st.sampled_from(SHAPES)), F32))
    f32 = x.type.element == F32
    name = d.draw(
        st.sampled_from(
            [
                "negf",
                "absf",
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
                "fma",
                "fpowi",
            ]
        )
    )
    extra, operands = {}, [x]
    if name in ("exp", "tanh") and f32:
        extra = d.attrs(rounding=d.maybe(d.draw(st.sampled_from(["full", "approx"])), "full"))
    elif name in ("exp2", "rsqrt") and f32:
        extra = d.attrs(flush_to_zero=d.draw(st.booleans()) or None)
    elif name == "sqrt":
        extra = d.attrs(
            rounding=d.draw(st.sampled_from(IEEE + (("approx",) if f32 else ()))),
            flush_to_zero=f32 and d.draw(st.booleans()) or None,
        )
    elif name == "fma":
        operands = [x, d.of_type(x.type), d.of_type(x.type)]
    elif name == "fpowi":
        operands = [x, d.of_type(TileType(x.type.shape, I32))]
    d.op(name, operands, [x.type], **extra)


def int_op(d: Drawer) -> None:
    """An integer op with the overflow / signedness / rounding attributes it takes."""
    x = d.pick(is_int) or d.const(TileType(d.draw(st.sampled_from(SHAPES)), I32))
    name = d.draw(
        st.sampled_from(
            [
                "addi",
                "subi",
                "muli",
                "shli",
                "shri",
                "divi",
                "remi",
                "mulhii",
                "maxi",
                "mini",
                "andi",
                "ori",
                "xori",
                "negi",
                "absi",
            ]
        )
    )
    sign = d.maybe(d.draw(st.sampled_from(["signed", "unsigned"])), "signed")
    ovf = d.maybe(
        d.draw(st.sampled_from(["none", "no_signed_wrap", "no_unsigned_wrap", "no_wrap"])), "none"
    )
    extra = {}
    if name in ("addi", "subi", "muli", "shli"):
        extra = d.attrs(overflow=ovf)
    elif name == "negi":  # negation only knows signed wrap
        extra = d.attrs(
            overflow=d.maybe(d.draw(st.sampled_from(["none", "no_signed_wrap"])), "none")
        )
    elif name in ("shri", "remi", "maxi", "mini"):
        extra = d.attrs(signedness=sign)
    elif name == "divi":
        modes = ["zero", "positive_inf"] + (["negative_inf"] if sign != "unsigned" else [])
        extra = d.attrs(signedness=sign, rounding=d.maybe(d.draw(st.sampled_from(modes)), "zero"))
    operands = [x] if name in ("negi", "absi") else [x, d.of_type(x.type)]
    d.op(name, operands, [x.type], **extra)


def compare_select(d: Drawer) -> None:
    """``cmpf`` or ``cmpi`` of two same-typed tiles, maybe a ``select`` on it."""
    x = d.pick(lambda t: is_float(t) or is_int(t))
    x = x or d.const(TileType(d.draw(st.sampled_from(SHAPES)), I32))
    y = d.of_type(x.type)
    pred = d.draw(
        st.sampled_from(
            [
                "equal",
                "not_equal",
                "less_than",
                "less_than_or_equal",
                "greater_than",
                "greater_than_or_equal",
            ]
        )
    )
    cond_t = TileType(x.type.shape, I1)
    if is_float(x.type):
        order = d.maybe(d.draw(st.sampled_from(["ordered", "unordered"])), "ordered")
        c = d.op(
            "cmpf",
            [x, y],
            [cond_t],
            **d.attrs(comparison_predicate=pred, comparison_ordering=order),
        )
    else:
        c = d.op(
            "cmpi",
            [x, y],
            [cond_t],
            comparison_predicate=pred,
            signedness=d.draw(st.sampled_from(["signed", "unsigned"])),
        )
    if d.draw(st.booleans()):
        d.op("select", [c, x, y], [x.type])


def convert(d: Drawer) -> None:
    """A conversion of a float or integer tile (``ftof`` .. ``trunci``, ``bitcast``)."""
    x = d.pick(lambda t: is_float(t) or is_int(t))
    x = x or d.const(TileType(d.draw(st.sampled_from(SHAPES)), F32))
    fmt, shape = x.type.element, x.type.shape
    sign = d.draw(st.sampled_from(["signed", "unsigned"]))
    if fmt in FLOATS:
        choice = d.draw(st.sampled_from(["ftof", "ftoi", "bitcast"]))
        if choice == "ftof":
            to = d.draw(st.sampled_from([f for f in FLOATS if f != fmt]))
            d.op("ftof", [x], [TileType(shape, to)])
        elif choice == "ftoi":
            sat = d.draw(st.booleans()) or None
            d.op(
                "ftoi",
                [x],
                [TileType(shape, d.draw(st.sampled_from(INTS)))],
                **d.attrs(signedness=sign, saturating=sat),
            )
        else:
            to = {16: I16, 32: I32, 64: I64}[fmt.bits]
            d.op("bitcast", [x], [TileType(shape, to)])
    else:
        choice = d.draw(st.sampled_from(["itof", "exti", "trunci"]))
        if choice == "itof":
            d.op("itof", [x], [TileType(shape, d.draw(st.sampled_from(FLOATS)))], signedness=sign)
        elif choice == "exti" and fmt != I64:
            wider = [f for f in INTS if f.bits > fmt.bits]
            d.op("exti", [x], [TileType(shape, d.draw(st.sampled_from(wider)))], signedness=sign)
        elif fmt != I8:
            narrower = [f for f in INTS if f.bits < fmt.bits]
            d.op("trunci", [x], [TileType(shape, d.draw(st.sampled_from(narrower)))])


def mma(d: Drawer) -> None:
    """``mmaf`` (f16 / bf16 into f32) or ``mmai`` (i8 into i32) on 16x16 tiles."""
    if d.draw(st.booleans()):
        a = d.of_type(TileType((16, 16), d.draw(st.sampled_from([F16, BF16]))))
        acc = d.of_type(TileType((16, 16), F32))
        d.op(
            "mmaf",
            [a, d.of_type(a.type), acc],
            [acc.type],
            **d.attrs(fast_acc=d.draw(st.booleans()) or None),
        )
    else:
        acc = d.of_type(TileType((16, 16), I32))
        d.op(
            "mmai",
            [d.of_type(TileType((16, 32), I8)), d.of_type(TileType((32, 16), I8)), acc],
            [acc.type],
            signedness_lhs=d.draw(st.sampled_from(["signed", "unsigned"])),
            signedness_rhs=d.draw(st.sampled_from(["signed", "unsigned"])),
        )


def shape_op(d: Drawer) -> None:
    """A shape op, ``iota``, or ``pack`` then ``unpack`` (13.3)."""
    fmt = d.draw(st.sampled_from((F32, I32, F16)))
    name = d.draw(
        st.sampled_from(
            ["reshape", "permute", "broadcast", "cat", "iota", "extract", "insert", "pack"]
        )
    )
    if name == "pack":  # 13.3: a tile as raw bytes and back
        raw = d.op("pack", [d.of_type(TileType((4,), F16))], [TileType((8,), I8)])
        d.op("unpack", [raw], [TileType((4,), F16)])
    elif name == "iota":
        d.op("iota", [], [TileType((d.draw(st.sampled_from([4, 8])),), I32)])
    elif name == "reshape":
        x = d.of_type(TileType((2, 4), fmt))
        d.op("reshape", [x], [TileType(d.draw(st.sampled_from([(8,), (4, 2), (1, 8)])), fmt)])
    elif name == "permute":
        d.op(
            "permute",
            [d.of_type(TileType((2, 4), fmt))],
            [TileType((4, 2), fmt)],
            permutation=(1, 0),
        )
    elif name == "broadcast":
        d.op("broadcast", [d.of_type(TileType((1, 4), fmt))], [TileType((2, 4), fmt)])
    elif name == "cat":
        x = d.of_type(TileType((4,), fmt))
        d.op("cat", [x, d.of_type(x.type)], [TileType((8,), fmt)], dim=0)
    else:
        big, small = d.of_type(TileType((2, 4), fmt)), TileType((1, 4), fmt)
        i, j = d.of_type(S32), d.of_type(S32)
        if name == "extract":
            d.op("extract", [big, i, j], [small])
        else:
            d.op("insert", [d.of_type(small), big, i, j], [big.type])
