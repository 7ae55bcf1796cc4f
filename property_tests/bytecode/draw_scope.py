"""What every op drawer of :mod:`module_strategies` shares: the formats and shapes it draws
from, and :class:`Drawer`, one function's drawing state (the builder and the values in
scope per block).

Op drawers are plain functions ``drawer(d: Drawer) -> None`` that append zero or more
well-typed ops through ``d.op`` (which also puts their results in scope).
"""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np
from hypothesis import strategies as st

from support.build import FunctionBuilder
from tileir.ir.module import DIFile, LexicalBlock, Loc, Scope, Subprogram, Value
from tileir.ir.numerics import dense_of
from tileir.types import (
    BF16,
    F8E4M3FN,
    F8E5M2,
    F8E8M0FNU,
    F16,
    F32,
    F64,
    I1,
    I8,
    I16,
    I32,
    I64,
    PTR_ATTRS,
    Format,
    PointerType,
    TileType,
)

__all__ = [
    "SHAPES",
    "FLOATS",
    "INTS",
    "MATH_FLOATS",
    "CONST_ONLY",
    "IEEE",
    "S32",
    "S1",
    "PTR_ATTR_CHOICES",
    "is_float",
    "is_int",
    "is_scalar_pointer",
    "is_f32_pointer",
    "Drawer",
]

#: Tile shapes drawn (every dim a power of two).
SHAPES = ((), (4,), (2, 4))
FLOATS = (F16, BF16, F32, F64)
INTS = (I8, I16, I32, I64)
MATH_FLOATS = (F32, F64)
CONST_ONLY = (F8E4M3FN, F8E5M2, F8E8M0FNU)
IEEE = ("nearest_even", "zero", "negative_inf", "positive_inf")
S32, S1 = TileType((), I32), TileType((), I1)
#: A pointer drawn fresh carries a ptr_attr or not (None first: it shrinks to "absent"); not
#: multicast, which only the multimem ops may access (every other memory op refuses it)
PTR_ATTR_CHOICES = (None,) + tuple(a for a in PTR_ATTRS if a != "multicast")


def is_float(t) -> bool:
    """Is ``t`` a tile of one of :data:`FLOATS`?"""
    return isinstance(t, TileType) and isinstance(t.element, Format) and t.element in FLOATS


def is_int(t) -> bool:
    """Is ``t`` a tile of one of :data:`INTS`?"""
    return isinstance(t, TileType) and isinstance(t.element, Format) and t.element in INTS


def is_scalar_pointer(t) -> bool:
    """Is ``t`` a rank-0 tile of a pointer (any pointee, with or without a ptr_attr)?"""
    return isinstance(t, TileType) and t.rank == 0 and isinstance(t.element, PointerType)


def is_f32_pointer(t) -> bool:
    """Is ``t`` a rank-0 ``ptr<f32>``, with or without a ptr_attr?"""
    return is_scalar_pointer(t) and t.element.pointee == F32


class Drawer:
    """What one function's drawing needs: the builder and the values in scope per block.

    ``any_op(d)`` draws one op of any kind; nested regions call it to fill their blocks
    (it is handed in so the region drawers need not import the pool that lists them).
    ``ptr_attrs`` False: pointers made fresh never carry 13.4's ptr_attr (so a function
    without one stays encodable below 13.4).
    """

    def __init__(
        self,
        draw,
        b: FunctionBuilder,
        depth: int,
        fn_name: str,
        any_op: Callable[["Drawer"], None],
        ptr_attrs: bool = True,
    ) -> None:
        self.draw, self.b, self.depth, self.fn, self.any_op = draw, b, depth, fn_name, any_op
        self.ptr_attrs = ptr_attrs
        self.scopes: list[list[Value]] = [list(b.params)]
        self.line = 10

    def add(self, *values) -> None:
        """Put ``values`` (Nones and non-Values skipped) in the innermost scope."""
        for v in values:
            if isinstance(v, Value):
                self.scopes[-1].append(v)

    def add_results(self, out) -> None:
        """Put what ``FunctionBuilder.op`` / ``region_op`` answered in scope."""
        self.add(*(out if isinstance(out, tuple) else (out,)))

    def values(self, pred: Callable) -> list[Value]:
        """Every value in scope whose type satisfies ``pred``."""
        return [v for scope in self.scopes for v in scope if pred(v.type)]

    def pick(self, pred: Callable) -> Optional[Value]:
        """One value in scope whose type satisfies ``pred``, or None."""
        found = self.values(pred)
        return self.draw(st.sampled_from(found)) if found else None

    def loc(self) -> Optional[Loc]:
        """A source location, or None (locations are not part of equality); some lie in a
        helper's subprogram (or a lexical block of it), called from a line of the body,
        perhaps through another helper, as producers write inlined helpers."""
        self.line += 1
        if not self.draw(st.booleans()):
            return None
        column = self.draw(st.integers(0, 40))
        here = Loc("/kern/drawn.py", self.line, column, self.fn)
        depth = self.draw(st.sampled_from([0, 0, 1, 2]))
        for level in range(depth):
            file = DIFile(f"help{level}.py", "/kern/lib")
            sub: Scope = Subprogram(file, 10 * level + 1, f"h{level}", f"h{level}_s", file, 2)
            if self.draw(st.booleans()):
                sub = LexicalBlock(sub, file, 10 * level + 3, 4)
            here = Loc(f"/kern/lib/help{level}.py", 10 * level + 5, column, f"h{level}", sub, here)
        return here

    def op(self, name, operands, result_types, **attrs):
        """Append op ``name`` (maybe with a location); its results go in scope."""
        out = self.b.op(name, operands, result_types, loc=self.loc(), **attrs)
        self.add_results(out)
        return out

    def maybe(self, value, default=None):
        """``value``, or the default spelled out or left out (canonicalization fodder)."""
        return self.draw(st.sampled_from([value, None])) if value == default else value

    def attrs(self, **pairs) -> dict:
        """Keyword attrs with None values dropped."""
        return {k: v for k, v in pairs.items() if v is not None}

    def ptr_attr(self) -> Optional[str]:
        """13.4's pointer attribute for a pointer made fresh: absent or one of PTR_ATTRS."""
        return self.draw(st.sampled_from(PTR_ATTR_CHOICES)) if self.ptr_attrs else None

    def const(self, t: TileType) -> Value:
        """A new ``constant`` of type ``t`` (a splat or not) from a small pool of values."""
        fmt = t.element
        n = t.size if t.size <= 8 else 1  # big tiles are splats (keeps draws small)
        if fmt == I1:
            values = self.draw(st.lists(st.booleans(), min_size=n, max_size=n))
        elif fmt.is_int:
            lo, hi = -(1 << (fmt.bits - 1)), (1 << (fmt.bits - 1)) - 1
            values = self.draw(st.lists(st.integers(lo, hi), min_size=n, max_size=n))
        else:
            finite = st.sampled_from([0.0, -0.0, 1.0, -1.5, 0.25, 3.0, 448.0])
            extra = st.sampled_from([float("inf"), float("-inf"), float("nan")])
            pool = finite if fmt in (F8E4M3FN, F8E8M0FNU) else finite | extra
            if fmt == F8E8M0FNU:
                pool = st.sampled_from([1.0, 2.0, 0.5, 4.0])
            values = self.draw(st.lists(pool, min_size=n, max_size=n))
        arr = np.array(values).reshape(t.shape) if t.shape and n == t.size else values[0]
        if self.draw(st.booleans()):
            arr = values[0]  # a splat
        return self.op("constant", [], [t], value=dense_of(t, arr))

    def of_type(self, t) -> Value:
        """A value of type ``t``: one in scope or a new constant."""
        v = self.pick(lambda u: u == t)
        return v if v is not None and self.draw(st.booleans()) else self.const(t)
