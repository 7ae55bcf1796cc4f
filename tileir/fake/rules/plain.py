"""Which float ops' rules are one plain numpy function (or a fixed few) on their operands.

:mod:`tileir.fake.rules.floats` computes ``f32`` / ``f64`` natively: where an op has the
default rounding (or an approximation, which the interpreter answers correctly rounded) and
no ``flush_to_zero``, its rule is exactly a numpy ufunc applied to the operands.  Code that
evaluates such ops another way (a ``reduce`` whose combiner is one such op,
:mod:`tileir.fake.rules.misc`; the strip fusion, :mod:`tileir.fake.fusion`) calls the same
ufunc, so the bits are the rule's.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from tileir.fake.values import value_dtype
from tileir.ir.module import Op
from tileir.ir.signatures import attr_of
from tileir.types import Format, TileType

__all__ = ["plain_ufuncs"]

_BINARY = {
    "addf": np.add,
    "subf": np.subtract,
    "mulf": np.multiply,
    "divf": np.divide,
    "atan2": np.arctan2,
    "fpowf": np.power,
    "remf": np.fmod,
}
_UNARY = {
    "negf": np.negative,
    "absf": np.abs,
    "exp": np.exp,
    "log": np.log,
    "log2": np.log2,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "ceil": np.ceil,
    "floor": np.floor,
}


def plain_ufuncs(op: Op, dtype: np.dtype) -> Optional[tuple]:
    """The numpy functions ``op``'s rule applies, in order, when the rule is exactly those
    (``tileir.fake.rules.floats``: f32 / f64 compute natively; ``rounding`` at nearest or
    an approximation and no ``flush_to_zero`` take the plain path); None otherwise.  Each
    entry is ``(ufunc, constant first operand or None)``."""
    t = op.results[0].type if op.results else None
    element = t.element if isinstance(t, TileType) else None
    if not isinstance(element, Format) or element.name not in ("f32", "f64"):
        return None
    if value_dtype(element) != dtype:
        return None
    name = op.name
    ftz = dtype == np.float32 and bool(attr_of(op, "flush_to_zero")) if name in _FTZ else False
    if ftz:
        return None
    if name in ("addf", "subf", "mulf", "divf", "sqrt"):
        if attr_of(op, "rounding") not in ("nearest_even", "approx", "full"):
            return None
        return ((np.sqrt, None),) if name == "sqrt" else ((_BINARY[name], None),)
    if name in _BINARY:
        return ((_BINARY[name], None),)
    if name in _UNARY:
        return ((_UNARY[name], None),)
    if name == "exp2":
        return ((np.exp2, None),)
    if name == "rsqrt":  # floats._rsqrt: one divided by the square root
        return ((np.sqrt, None), (np.divide, dtype.type(1)))
    return None


_FTZ = frozenset({"addf", "subf", "mulf", "divf", "sqrt", "exp2", "rsqrt"})
