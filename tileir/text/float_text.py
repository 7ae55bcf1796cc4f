"""Float literals spelled the way MLIR (and so ``tileirdisasm``) prints them.

MLIR prints a float attribute with six digits after the point
(``1.500000e+00``) when that text parses back to the very same value; else
with the shortest round-tripping precision of the format (``3.14159274``,
``9.99999974E-5``); and infinities, NaNs and values whose plain form has no
decimal point as their bit pattern in hex (``0xFF800000``).  This module
re-does LLVM's ``APFloat::toString`` digit by digit, on Python integers, so the
text matches for every format the dialect has, narrow ones included.

>>> from tileir.types import F32, F64, BF16
>>> float_text(F32, 0x3FC00000)
'1.500000e+00'
>>> float_text(F32, 0x40490FDB)
'3.14159274'
>>> float_text(F32, 0xFF800000)
'0xFF800000'
>>> float_text(F64, 0x3FB999999999999A)
'1.000000e-01'
>>> float_text(BF16, 0x4049)
'3.140630e+00'
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from tileir.types import Format

__all__ = ["float_text", "FloatSemantics", "SEMANTICS"]


class FloatSemantics(NamedTuple):
    """How a format's bits are read (as LLVM's ``fltSemantics`` says)."""

    bits: int
    exp_bits: int
    man_bits: int
    bias: int
    # "ieee": all-ones exponent is inf/NaN; "nan_ones": only the all-ones pattern is NaN;
    # "finite": no inf, no NaN
    non_finite: str = "ieee"
    signed: bool = True
    # f8E8M0FNU has no mantissa and no zero: its value is 2^(e - bias)
    zero_and_subnormals: bool = True

    @property
    def precision(self) -> int:
        """Significand bits including the implicit one (LLVM's ``precision``)."""
        return self.man_bits + 1

    @property
    def emin(self) -> int:
        # without subnormals the all-zero exponent is an ordinary binade
        return 1 - self.bias if self.zero_and_subnormals else -self.bias


SEMANTICS: dict[str, FloatSemantics] = {
    "f16": FloatSemantics(16, 5, 10, 15),
    "bf16": FloatSemantics(16, 8, 7, 127),
    "f32": FloatSemantics(32, 8, 23, 127),
    # tf32 prints as LLVM's 19-bit FloatTF32; its storage is the top 19 bits of an f32
    "tf32": FloatSemantics(19, 8, 10, 127),
    "f64": FloatSemantics(64, 11, 52, 1023),
    "f8E4M3FN": FloatSemantics(8, 4, 3, 7, "nan_ones"),
    "f8E5M2": FloatSemantics(8, 5, 2, 15),
    "f8E8M0FNU": FloatSemantics(8, 8, 0, 127, "nan_ones", signed=False, zero_and_subnormals=False),
    "f4E2M1FN": FloatSemantics(4, 2, 1, 1, "finite"),
    "fnv8E5M3FNU": FloatSemantics(8, 5, 3, 15, "nan_ones", signed=False),
}


def _decode(sem: FloatSemantics, bits: int):
    """(kind, negative, significand, exponent) with value = significand * 2**exponent."""
    bits &= (1 << sem.bits) - 1
    neg = sem.signed and bool(bits >> (sem.bits - 1))
    exp_field = (bits >> sem.man_bits) & ((1 << sem.exp_bits) - 1)
    man = bits & ((1 << sem.man_bits) - 1)
    top = (1 << sem.exp_bits) - 1
    magnitude = bits & ((1 << (sem.bits - 1)) - 1) if sem.signed else bits
    if sem.non_finite == "ieee" and exp_field == top:
        return ("inf" if man == 0 else "nan"), neg, 0, 0
    if sem.non_finite == "nan_ones" and magnitude == (1 << (sem.bits - int(sem.signed))) - 1:
        return "nan", neg, 0, 0
    if not sem.zero_and_subnormals:
        return "normal", neg, 1, exp_field - sem.bias
    if exp_field == 0:
        if man == 0:
            return "zero", neg, 0, 0
        return "normal", neg, man, sem.emin - sem.man_bits
    return "normal", neg, man | (1 << sem.man_bits), exp_field - sem.bias - sem.man_bits


def _adjust_int(sig: int, exp: int, precision: int) -> tuple[int, int]:
    # LLVM truncates (no rounding) whole powers of ten it cannot need
    bits = sig.bit_length()
    required = (precision * 196 + 58) // 59
    if bits <= required:
        return sig, exp
    tens = (bits - required) * 59 // 196
    if not tens:
        return sig, exp
    return sig // 10**tens, exp + tens


def _adjust_digits(digits: list[int], exp: int, precision: int) -> tuple[list[int], int]:
    # digits are least significant first; round half up to `precision` digits, as LLVM does
    n = len(digits)
    if n <= precision:
        return digits, exp
    first = n - precision
    if digits[first - 1] < 5:
        while first < n and digits[first] == 0:
            first += 1
        return digits[first:], exp + first
    out = list(digits)
    for i in range(first, n):
        if out[i] == 9:
            first += 1
        else:
            out[i] += 1
            break
    if first == n:
        return [1], exp + first
    return out[first:], exp + first


def _to_string(
    sem: FloatSemantics,
    kind: str,
    neg: bool,
    sig: int,
    exp: int,
    precision: int,
    max_padding: int,
    truncate_zero: bool,
) -> str:
    """LLVM ``APFloat::toString`` for a finite value."""
    out = "-" if neg else ""
    if kind == "zero":
        if max_padding:
            return out + "0"
        if truncate_zero:
            return out + "0.0E+0"
        return out + "0.0" + "0" * max(precision - 1, 0) + "e+00"
    if not precision:
        precision = 2 + sem.precision * 59 // 196
    trailing = (sig & -sig).bit_length() - 1
    sig >>= trailing
    exp += trailing
    if exp > 0:
        sig <<= exp
        exp = 0
    elif exp < 0:
        sig *= 5 ** (-exp)
    sig, exp = _adjust_int(sig, exp, precision)
    digits: list[int] = []
    in_trail = True
    while sig:
        sig, d = divmod(sig, 10)
        if in_trail and d == 0:
            exp += 1
        else:
            digits.append(d)
            in_trail = False
    digits, exp = _adjust_digits(digits, exp, precision)
    nd = len(digits)
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or nd + exp > precision
    else:
        msd = exp + nd - 1
        scientific = msd < 0 and -msd > max_padding
    text = "".join(str(d) for d in reversed(digits))
    if scientific:
        exp += nd - 1
        mantissa = text[0] + "."
        if nd == 1 and truncate_zero:
            mantissa += "0"
        else:
            mantissa += text[1:]
        if not truncate_zero and precision > nd - 1:
            mantissa += "0" * (precision - nd + 1)
        e_digits = str(abs(exp))
        if not truncate_zero and len(e_digits) < 2:
            e_digits = "0" + e_digits
        sign = "+" if exp >= 0 else "-"
        return out + mantissa + ("E" if truncate_zero else "e") + sign + e_digits
    if exp >= 0:
        return out + text + "0" * exp
    whole = exp + nd
    if whole > 0:
        return out + text[:whole] + "." + text[whole:]
    return out + "0." + "0" * (-whole) + text


def _parse_round(sem: FloatSemantics, text: str) -> Fraction:
    """The value ``text`` rounds to in ``sem`` (nearest, ties to even), as a Fraction."""
    value = Fraction(text.lower().replace("e+", "e"))
    if value == 0:
        return value
    mag = abs(value)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    e = max(e, sem.emin)
    quantum = Fraction(2) ** (e - sem.man_bits)
    n = mag / quantum
    whole = n.numerator // n.denominator
    rest = n - whole
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2):
        whole += 1
    rounded = whole * quantum
    return rounded if value > 0 else -rounded


def _hex(sem: FloatSemantics, bits: int) -> str:
    return "0x" + format(bits & ((1 << sem.bits) - 1), "X")


def float_text(fmt: Format, bits: int) -> str:
    """How ``tileirdisasm`` prints the float of format ``fmt`` whose bit pattern is ``bits``.

    For ``tf32`` the bits are its 19-bit pattern (the top 19 bits of the f32 word).
    """
    sem = SEMANTICS[fmt.name]
    kind, neg, sig, exp = _decode(sem, bits)
    if kind in ("inf", "nan"):
        return _hex(sem, bits)
    text = _to_string(sem, kind, neg, sig, exp, 6, 0, False)
    exact = Fraction(sig) * Fraction(2) ** exp * (-1 if neg else 1)
    if kind == "zero" or _parse_round(sem, text) == exact:
        return text
    text = _to_string(sem, kind, neg, sig, exp, 0, 3, True)
    if "." in text:
        return text
    return _hex(sem, bits)
