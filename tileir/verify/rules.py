"""Type rules of every body op: one ``rule(check, op)`` per op in :data:`VERIFY_RULES`.

A rule sees an op whose operands are in scope and whose operand counts and
attribute kinds already match its signature (tileir/verify.py checked them); it
checks what the op's family demands of types, shapes and attribute values and
calls ``check.fail(message)`` at the first thing wrong.  Rules of the view ops
live in :mod:`tileir.verify.views`, those of the pointer, atomic and other memory
ops in :mod:`tileir.verify.memory`, those of reductions, shapes and control flow in
:mod:`tileir.verify.shapes`.  Where the dialect's verifier was
probed (``tileirdisasm`` verifies what it reads), the rule follows its answer;
tests/verify/test_verify.py holds both verdicts side by side.
"""

from __future__ import annotations

from typing import Callable

from tileir.ir.attr_rules import ftof_roundings
from tileir.ir.dialect import TERMINATORS
from tileir.ir.rule_table import rule_table
from tileir.ir.signatures import SIGNATURES, attr_of
from tileir.types import F32, I1, Format, PointerType, TileType
from tileir.verify.common import float_tile, int_tile, names_of, one_result, same_types, tile
from tileir.verify.memory import VERIFY_MEMORY_RULES
from tileir.verify.multimem import VERIFY_MULTIMEM_RULES
from tileir.verify.shapes import VERIFY_SHAPE_RULES
from tileir.verify.views import VERIFY_VIEW_RULES

__all__ = ["VERIFY_RULES", "TERMINATORS"]


_IEEE = ("nearest_even", "zero", "negative_inf", "positive_inf")
_ROUNDING = {
    "addf": _IEEE,
    "subf": _IEEE,
    "mulf": _IEEE,
    "fma": _IEEE,
    "divf": _IEEE + ("approx", "full"),
    "sqrt": _IEEE + ("approx",),
    "exp": ("approx", "full"),
    "tanh": ("approx", "full"),
}


def _float_modifiers(c, op, fmt) -> None:
    attrs = {name for name, _k, _d in SIGNATURES[op.name].attrs}
    if "rounding" in attrs and op.name in _ROUNDING:
        r = attr_of(op, "rounding")
        if r not in _ROUNDING[op.name]:
            c.fail(
                f"rounding<{r}> is not allowed; `{op.name}` takes {', '.join(_ROUNDING[op.name])}"
            )
        # approx is f32-only everywhere; full is f32-only on divf (it is exp's and tanh's
        # default, there for every format)
        if (r == "approx" or (r == "full" and op.name == "divf")) and fmt != F32:
            c.fail(f"rounding<{r}> is for f32 only, the operands are {fmt}")
    if "flush_to_zero" in attrs and attr_of(op, "flush_to_zero") and fmt != F32:
        c.fail(f"flush_to_zero is for f32 only, the operands are {fmt}")


# the element formats arithmetic takes (probed with tileirdisasm, op by op)
ARITH_FORMATS = {"float": ("f16", "bf16", "f32", "f64"), "int": ("i1", "i8", "i16", "i32", "i64")}


def _arith_format(c, op, t: TileType, kind: str) -> None:
    if not isinstance(t.element, Format) or t.element.name not in ARITH_FORMATS[kind]:
        c.fail(f"`{op.name}` computes on {', '.join(ARITH_FORMATS[kind])} tiles, not {t}")


def _elementwise(kind: str) -> Callable:
    """n operands of one tile type of `kind` elements, one result of that type."""

    def rule(c, op):
        names = names_of(op)
        check = float_tile if kind == "float" else int_tile
        for v, name in zip(op.operands, names):
            check(c, v, name)
        same_types(c, op.operands, names)
        _arith_format(c, op, op.operands[0].type, kind)
        one_result(c, op, op.operands[0].type)
        if kind == "float":
            _float_modifiers(c, op, op.operands[0].type.element)

    return rule


def _negi(c, op):
    _elementwise("int")(c, op)
    if attr_of(op, "overflow") == "no_unsigned_wrap":
        c.fail("overflow<no_unsigned_wrap> is not allowed on negi (none, no_signed_wrap, no_wrap)")


def _divi(c, op):
    _elementwise("int")(c, op)
    r = attr_of(op, "rounding")
    if r not in ("zero", "negative_inf", "positive_inf"):
        c.fail(f"rounding<{r}> is not allowed; divi takes zero, negative_inf, positive_inf")
    if r == "negative_inf" and attr_of(op, "signedness") == "unsigned":
        c.fail("rounding<negative_inf> is not allowed with unsigned")


def _fpowi(c, op):
    base = float_tile(c, op.operands[0], "source")
    _arith_format(c, op, base, "float")
    exp = int_tile(c, op.operands[1], "exponent")
    if exp.element.bits > 32:
        c.fail(f"exponent is {exp}; fpowi takes i1, i8, i16 or i32 exponents")
    if exp.shape != base.shape:
        c.fail(f"exponent is {exp}, its shape must be the source's {base}")
    one_result(c, op, base)


_MMAF = {
    "f16": ("f16", "f32"),
    "bf16": ("f32",),
    "tf32": ("f32",),
    "f32": ("f32",),
    "f64": ("f64",),
    "f8E4M3FN": ("f16", "f32"),
    "f8E5M2": ("f16", "f32"),
}


def _mma_shapes(c, lhs: TileType, rhs: TileType, acc: TileType) -> None:
    if lhs.rank not in (2, 3) or rhs.rank != lhs.rank or acc.rank != lhs.rank:
        c.fail(
            f"operands {lhs}, {rhs}, {acc} must all be rank 2 (M×K, K×N, M×N) or all "
            "rank 3 (batched)"
        )
    if rhs.shape[:-2] != lhs.shape[:-2] or acc.shape[:-2] != lhs.shape[:-2]:
        c.fail(f"batch dimensions of {lhs}, {rhs}, {acc} differ")
    (m, k), (k2, n) = lhs.shape[-2:], rhs.shape[-2:]
    if k != k2 or acc.shape[-2:] != (m, n):
        c.fail(f"shapes {lhs}, {rhs}, {acc} are not M×K, K×N, M×N")


def _mmaf(c, op):
    lhs, rhs, acc = (float_tile(c, v, n) for v, n in zip(op.operands, ("lhs", "rhs", "acc")))
    if lhs.element != rhs.element:
        c.fail(f"lhs {lhs} and rhs {rhs} must have the same element format")
    pairs = _MMAF.get(lhs.element.name)
    if pairs is None or acc.element.name not in pairs:
        table = "; ".join(f"{a} -> {', '.join(b)}" for a, b in _MMAF.items())
        c.fail(
            f"{lhs.element} operands with a {acc.element} accumulator is not a pair mmaf "
            f"has ({table})"
        )
    _mma_shapes(c, lhs, rhs, acc)
    one_result(c, op, acc)


def _mmai(c, op):
    lhs, rhs, acc = (int_tile(c, v, n) for v, n in zip(op.operands, ("lhs", "rhs", "acc")))
    if lhs.element.name != "i8" or rhs.element.name != "i8" or acc.element.name != "i32":
        c.fail(f"mmai multiplies i8 tiles into an i32 accumulator, got {lhs}, {rhs}, {acc}")
    _mma_shapes(c, lhs, rhs, acc)
    one_result(c, op, acc)


# mmaf_scaled: factor format -> {scale format: block sizes (factor elements per scale)};
# probed with tileirdisasm for every factor, scale and block size in 8 .. 64
_SCALED = {
    "f8E4M3FN": {"f8E8M0FNU": (32,)},
    "f8E5M2": {"f8E8M0FNU": (32,)},
    "f4E2M1FN": {"f8E4M3FN": (16,), "f8E8M0FNU": (16, 32), "fnv8E5M3FNU": (16, 32)},
}


def _mmaf_scaled(c, op):
    lhs, rhs, acc, ls, rs = (float_tile(c, v, n) for v, n in zip(op.operands, names_of(op)))
    for t, name in ((lhs, "lhs"), (rhs, "rhs")):
        if t.element.name not in _SCALED:
            c.fail(f"{name} is {t}; mmaf_scaled takes f8E4M3FN, f8E5M2 or f4E2M1FN")
    if lhs.element != rhs.element:
        c.fail(f"lhs {lhs} and rhs {rhs} must have the same element format")
    if acc.element.name != "f32":
        c.fail(f"acc is {acc}; mmaf_scaled accumulates in f32")
    for t, name in ((ls, "lhs_scale"), (rs, "rhs_scale")):
        if t.element.name not in ("f8E4M3FN", "f8E8M0FNU", "fnv8E5M3FNU") or t.rank != lhs.rank:
            c.fail(
                f"{name} is {t}; scales are f8E4M3FN, f8E8M0FNU or fnv8E5M3FNU tiles of the "
                "operands' rank"
            )
    if ls.element != rs.element:
        c.fail(f"lhs_scale {ls} and rhs_scale {rs} must have the same element format")
    _mma_shapes(c, lhs, rhs, acc)
    k, blocks = lhs.shape[-1], ls.shape[-1]
    if (
        ls.shape[:-1] != lhs.shape[:-1]
        or rs.shape[-1] != rhs.shape[-1]
        or rs.shape[:-2] != rhs.shape[:-2]
        or rs.shape[-2] != blocks
        or k % blocks
    ):
        c.fail(f"scales {ls}, {rs} do not fit M×(K/B), (K/B)×N for {lhs}, {rhs}")
    table = _SCALED[lhs.element.name]
    sizes = table.get(ls.element.name)
    if sizes is None:
        c.fail(f"{lhs.element} factors take {' or '.join(table)} scales, not {ls.element}")
    if k // blocks not in sizes:
        c.fail(
            f"{lhs.element} factors with {ls.element} scales take blocks of "
            f"{' or '.join(map(str, sizes))} elements along K; {lhs} with {ls} makes blocks "
            f"of {k // blocks}"
        )
    one_result(c, op, acc)


# ----------------------------------------------------------------------------- compare, convert


def _cmp(kind):
    def rule(c, op):
        check = float_tile if kind == "float" else int_tile
        lhs = check(c, op.operands[0], "lhs")
        check(c, op.operands[1], "rhs")
        same_types(c, op.operands, ("lhs", "rhs"))
        _arith_format(c, op, lhs, kind)
        one_result(c, op, TileType(lhs.shape, I1))

    return rule


def _select(c, op):
    cond = tile(c, op.operands[0], "cond")
    a = tile(c, op.operands[1], "if_true")
    tile(c, op.operands[2], "if_false")
    if cond.element != I1 or cond.shape != a.shape:
        c.fail(f"cond is {cond}; it must be an i1 tile of the values' shape {a.shape}")
    if getattr(a.element, "name", None) == "f4E2M1FN":
        c.fail(f"select does not take sub-byte f4E2M1FN tiles ({a})")
    same_types(c, op.operands[1:], ("if_true", "if_false"))
    one_result(c, op, a)


def _convert(src_kind: str, dst_kind: str, rule_extra=None):
    def rule(c, op):
        # exti and trunci are the only integer ops that take i4
        i4 = op.name in ("exti", "trunci")
        check = {"float": float_tile, "int": lambda c, v, what: int_tile(c, v, what, i4)}
        src = check[src_kind](c, op.operands[0], "source")
        one_result(c, op)
        dst = check[dst_kind](c, op.results[0], "result")
        if dst.shape != src.shape:
            c.fail(f"result {dst} must keep the source's shape {src.shape}")
        if rule_extra is not None:
            rule_extra(c, op, src.element, dst.element)

    return rule


def _ftof_extra(c, op, src: Format, dst: Format):
    if src == dst:
        c.fail(f"converting {src} to {dst} is a no-op")
    r = attr_of(op, "rounding")
    allowed = ftof_roundings(src, dst)  # one table, shared with the recorder
    if r not in allowed:
        c.fail(f"rounding<{r}> is not allowed for ftof {src} -> {dst} ({', '.join(allowed)})")


def _ftoi_extra(c, op, src, dst):
    if attr_of(op, "rounding") != "nearest_int_to_zero":
        c.fail(f"ftoi rounds nearest_int_to_zero only, not {attr_of(op, 'rounding')}")


def _itof_extra(c, op, src, dst):
    if dst.name == "f8E8M0FNU":
        c.fail("itof does not make f8E8M0FNU tiles")
    if attr_of(op, "rounding") != "nearest_even":
        c.fail(f"itof rounds nearest_even only, not {attr_of(op, 'rounding')}")


def _exti_extra(c, op, src, dst):
    if dst.bits <= src.bits:
        c.fail(f"exti must widen: {src} to {dst}")


def _trunci_extra(c, op, src, dst):
    if dst.bits >= src.bits:
        c.fail(f"trunci must narrow: {src} to {dst}")


def _bitcast(c, op):
    src = tile(c, op.operands[0], "source")
    one_result(c, op)
    dst = tile(c, op.results[0], "result")
    if not isinstance(src.element, Format) or not isinstance(dst.element, Format):
        c.fail(
            f"bitcast converts number tiles ({src} to {dst}); pointers use int_to_ptr, "
            "ptr_to_int, ptr_to_ptr"
        )
    if "i4" in (src.element.name, dst.element.name):
        c.fail(f"bitcast does not take i4 tiles ({src} to {dst})")
    # widths as the dialect counts them: tf32 is 19 bits wide (it takes 32 in memory), so it
    # casts to nothing but tf32; i1 and f4E2M1FN likewise cast only to themselves
    width = {"tf32": 19}
    if src.shape != dst.shape or width.get(src.element.name, src.element.bits) != width.get(
        dst.element.name, dst.element.bits
    ):
        c.fail(f"bitcast keeps shape and bit width: {src} to {dst}")


def _pointer_cast(src_ptr: bool, dst_ptr: bool):
    def rule(c, op):
        src = tile(c, op.operands[0], "source")
        one_result(c, op)
        dst = tile(c, op.results[0], "result")
        for t, want, name in ((src, src_ptr, "source"), (dst, dst_ptr, "result")):
            is_ptr = isinstance(t.element, PointerType)
            if is_ptr != want or (not want and t.element.name != "i64"):
                c.fail(f"{name} is {t}; it must be a tile of {'pointers' if want else 'i64'}")
        if src.shape != dst.shape:
            c.fail(f"result {dst} must keep the source's shape {src.shape}")

    return rule


def _pack(c, op):
    src = tile(c, op.operands[0], "source")
    one_result(c, op)
    dst = tile(c, op.results[0], "result")
    packed, raw = (dst, src) if op.name == "pack" else (src, dst)
    if (
        packed.rank != 1
        or packed.element.name != "i8"
        or raw.rank != 1
        or not isinstance(raw.element, Format)
    ):
        c.fail(f"{op.name} goes between a rank-1 tile and a rank-1 i8 tile, got {src} -> {dst}")
    if raw.element.bits == 8:  # 8-bit tiles are bitcast, not packed
        c.fail(
            f"{op.name} takes tiles of different element widths, got {src} -> {dst} "
            "(8-bit tiles are bitcast)"
        )
    if raw.size * raw.element.bits != packed.size * 8:
        c.fail(
            f"{raw} holds {raw.size * raw.element.bits // 8} bytes, {packed} holds {packed.size}"
        )


_FAMILIES = {
    _elementwise("float"): "addf subf mulf divf fma remf negf absf maxf minf exp exp2 log log2 "
    "sqrt rsqrt sin cos tan sinh cosh tanh atan2 fpowf ceil floor",
    _elementwise("int"): "addi subi muli shli shri remi mulhii maxi mini absi andi ori xori",
    _cmp("float"): "cmpf",
    _cmp("int"): "cmpi",
    _convert("float", "float", _ftof_extra): "ftof",
    _convert("float", "int", _ftoi_extra): "ftoi",
    _convert("int", "float", _itof_extra): "itof",
    _convert("int", "int", _exti_extra): "exti",
    _convert("int", "int", _trunci_extra): "trunci",
    _pointer_cast(False, True): "int_to_ptr",
    _pointer_cast(True, False): "ptr_to_int",
    _pointer_cast(True, True): "ptr_to_ptr",
    _pack: "pack unpack",
}

#: op name -> rule(check, op); one per body op.
VERIFY_RULES = rule_table(
    "VERIFY_RULES",
    ((name, rule) for rule, names in _FAMILIES.items() for name in names.split()),
    {
        "negi": _negi,
        "divi": _divi,
        "fpowi": _fpowi,
        "mmaf": _mmaf,
        "mmai": _mmai,
        "mmaf_scaled": _mmaf_scaled,
        "select": _select,
        "bitcast": _bitcast,
    },
    VERIFY_SHAPE_RULES,
    VERIFY_MEMORY_RULES,
    VERIFY_VIEW_RULES,
    VERIFY_MULTIMEM_RULES,
)
