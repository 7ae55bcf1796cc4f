"""numpy rules of the integer ops.

Integers wrap at their width (two's complement), whatever the ``overflow``
attribute promises: a promise broken is undefined behaviour on the device, and
wrapping is one of its outcomes.  ``signedness`` picks how ``divi`` / ``remi`` /
``shri`` / ``maxi`` / ``mini`` / ``cmpi`` read their operands.  Shifts by the
width or more give 0 (``shli``, unsigned ``shri``) or the sign fill (signed
``shri``).  Division by zero is undefined on the device; here ``divi`` gives all
ones and ``remi`` gives the dividend, so a padded lane that divides by zero does
not stop the kernel.  ``mulhii`` is the high half of the unsigned product.
"""

from __future__ import annotations

import numpy as np

from tileir.fake.values import signed, unsigned, wrap_int
from tileir.ir.signatures import attr_of

__all__ = ["NUMPY_INT_RULES", "compare_ints"]


def _fmt(op, i: int = 0):
    return op.operands[i].type.element


def _native(fn):
    """An op that numpy's fixed-width ints already wrap correctly (i1 / i4 via int16)."""

    def rule(ctx, op, args):
        fmt = _fmt(op)
        if fmt.name in ("i1", "i4"):
            return [wrap_int(fn(*(np.asarray(a).astype(np.int16) for a in args)), fmt)]
        return [fn(*args)]

    return rule


def _bitwise(fn):
    def rule(ctx, op, args):
        return [fn(args[0], args[1])]

    return rule


def _wide(x, fmt, is_signed: bool) -> np.ndarray:
    """Values as int64 (signed) or uint64 (unsigned) numbers of their width."""
    if is_signed:
        return signed(x, fmt).astype(np.int64)
    return unsigned(x, fmt).astype(np.uint64)


def _shli(ctx, op, args):
    fmt = _fmt(op)
    a = unsigned(args[0], fmt).astype(np.uint64)
    s = unsigned(args[1], fmt).astype(np.uint64)
    out = np.left_shift(a, np.minimum(s, np.uint64(63)))
    return [wrap_int(np.where(s >= fmt.bits, np.uint64(0), out), fmt)]


def _shri(ctx, op, args):
    fmt = _fmt(op)
    s = unsigned(args[1], fmt).astype(np.uint64)
    if attr_of(op, "signedness") == "signed":
        a = signed(args[0], fmt).astype(np.int64)
        out = np.right_shift(a, np.minimum(s, np.uint64(fmt.bits - 1)).astype(np.int64))
    else:
        a = unsigned(args[0], fmt).astype(np.uint64)
        out = np.where(
            s >= fmt.bits, np.uint64(0), np.right_shift(a, np.minimum(s, np.uint64(63)))
        )
    return [wrap_int(out, fmt)]


def _divi(ctx, op, args):
    fmt = _fmt(op)
    mode = attr_of(op, "rounding")
    is_signed = attr_of(op, "signedness") == "signed"
    a, b = _wide(args[0], fmt, is_signed), _wide(args[1], fmt, is_signed)
    zero = b == 0
    one = np.ones(1, dtype=b.dtype)
    b1 = np.where(zero, one, b)
    q = a // b1
    r = a - q * b1  # floor remainder: has the sign of the divisor
    if is_signed:
        if mode == "zero":
            q = q + ((r != 0) & ((a < 0) != (b1 < 0))).astype(np.int64)
        elif mode == "positive_inf":
            q = q + (r != 0).astype(np.int64)
        q = np.where(b1 == -1, 0 - a, q)  # MIN / -1 wraps
    elif mode == "positive_inf":
        q = q + (r != 0).astype(np.uint64)
    q = np.where(zero, -1 if is_signed else np.iinfo(np.uint64).max, q)
    return [wrap_int(q, fmt)]


def _remi(ctx, op, args):
    fmt = _fmt(op)
    is_signed = attr_of(op, "signedness") == "signed"
    a, b = _wide(args[0], fmt, is_signed), _wide(args[1], fmt, is_signed)
    zero = b == 0
    b1 = np.where(zero, np.ones(1, dtype=b.dtype), b)
    if is_signed:
        r = np.where(b1 == -1, 0, np.fmod(a, b1))
    else:
        r = a % b1
    return [wrap_int(np.where(zero, a, r), fmt)]


def _mulhii(ctx, op, args):
    fmt = _fmt(op)
    a = unsigned(args[0], fmt).astype(np.uint64)
    b = unsigned(args[1], fmt).astype(np.uint64)
    if fmt.bits <= 32:
        return [wrap_int((a * b) >> np.uint64(fmt.bits), fmt)]
    m = np.uint64(0xFFFFFFFF)
    s = np.uint64(32)
    al, ah, bl, bh = a & m, a >> s, b & m, b >> s
    ll, hl, lh, hh = al * bl, ah * bl, al * bh, ah * bh
    cross = (ll >> s) + (hl & m) + lh
    return [wrap_int(hh + (hl >> s) + (cross >> s), fmt)]


def _extremum(is_max: bool):
    def rule(ctx, op, args):
        fmt = _fmt(op)
        a, b = args
        is_signed = attr_of(op, "signedness") == "signed"
        ka, kb = (
            (signed(a, fmt), signed(b, fmt)) if is_signed else (unsigned(a, fmt), unsigned(b, fmt))
        )
        take_a = ka >= kb if is_max else ka <= kb
        return [np.where(take_a, a, b)]

    return rule


def compare_ints(pred: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``cmpi``'s predicate on numbers already read with the right signedness."""
    return {
        "equal": np.equal,
        "not_equal": np.not_equal,
        "less_than": np.less,
        "less_than_or_equal": np.less_equal,
        "greater_than": np.greater,
        "greater_than_or_equal": np.greater_equal,
    }[pred](a, b)


def _cmpi(ctx, op, args):
    fmt = _fmt(op)
    a, b = args
    if attr_of(op, "signedness") == "signed":
        a, b = signed(a, fmt), signed(b, fmt)
    else:
        a, b = unsigned(a, fmt), unsigned(b, fmt)
    return [compare_ints(attr_of(op, "comparison_predicate"), a, b)]


def _negi(ctx, op, args):
    fmt = _fmt(op)
    return [wrap_int(0 - signed(args[0], fmt).astype(np.int64), fmt)]


def _absi(ctx, op, args):
    fmt = _fmt(op)
    return [wrap_int(np.abs(signed(args[0], fmt).astype(np.int64)), fmt)]


def _mmai(ctx, op, args):
    a, b, c = args
    i8 = op.operands[0].type.element
    la = _wide(a, i8, attr_of(op, "signedness_lhs") == "signed").astype(np.int64)
    lb = _wide(b, i8, attr_of(op, "signedness_rhs") == "signed").astype(np.int64)
    out = np.matmul(la, lb) + c.astype(np.int64)
    return [wrap_int(out, op.results[0].type.element)]


NUMPY_INT_RULES = {
    "addi": _native(np.add),
    "subi": _native(np.subtract),
    "muli": _native(np.multiply),
    "shli": _shli,
    "shri": _shri,
    "divi": _divi,
    "remi": _remi,
    "mulhii": _mulhii,
    "maxi": _extremum(True),
    "mini": _extremum(False),
    "negi": _negi,
    "absi": _absi,
    "andi": _bitwise(np.bitwise_and),
    "ori": _bitwise(np.bitwise_or),
    "xori": _bitwise(np.bitwise_xor),
    "cmpi": _cmpi,
    "mmai": _mmai,
}
