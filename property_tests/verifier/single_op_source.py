"""What the families of ``test_verify_vs_tileirdisasm`` share: the pools they draw types
from, and :class:`Src`, the module under construction with values of any type to feed
one target op, and the ways to make a type or attribute wrong on purpose.

A family is a function ``family(s: Src) -> None`` that appends one target op (and what
feeds it) through ``s.op``, its types and attributes now and then twisted.
"""

from __future__ import annotations

from typing import Optional

from hypothesis import strategies as st

from support.build import FunctionBuilder
from tileir.ir.dialect import ENUMS
from tileir.ir.numerics import dense_of
from tileir.ir.signatures import SIGNATURES
from tileir.types import FORMATS, I1, I4, I32, PTR_ATTRS, TOKEN, PointerType, TileType

__all__ = [
    "T",
    "POINTEES",
    "PTR_ATTR_CHOICES",
    "PARAMS",
    "SHAPES",
    "DIMS",
    "MEMORY_ORDERS",
    "F_OPS",
    "I_OPS",
    "CONVERSIONS",
    "FORMAT_STRINGS",
    "Src",
]

T = TileType
POINTEES = tuple(f for f in FORMATS if f != I4)  # ptr<i4> is not a type (probed)
#: 13.4's pointer attribute on a pointer: absent, or one of PTR_ATTRS.
PTR_ATTR_CHOICES = (None,) + PTR_ATTRS
# rank-0 parameters: a pointer per pointee and ptr_attr, plus i4 (no i4 constants exist) and
# two ints
PARAMS = tuple(T((), PointerType(f, a)) for a in PTR_ATTR_CHOICES for f in POINTEES) + (
    T((), I4),
    T((), I32),
    T((), I1),
)
SHAPES = ((), (1,), (2,), (4,), (8,), (2, 4), (4, 4), (1, 4), (2, 2, 2), (3,), (2, 3))
DIMS = (1, 2, 4, 8, 16, 32)
MEMORY_ORDERS = ENUMS["memory_ordering"]

F_OPS = (
    "addf subf mulf divf fma remf negf absf maxf minf exp exp2 log log2 sqrt rsqrt sin cos "
    "tan sinh cosh tanh atan2 fpowf ceil floor"
).split()
I_OPS = "addi subi muli shli shri divi remi mulhii maxi mini negi absi andi ori xori".split()
CONVERSIONS = "ftof ftoi itof exti trunci bitcast int_to_ptr ptr_to_int ptr_to_ptr".split()
FORMAT_STRINGS = ("x=%d\n", "%d %f", "%%", "plain", "x=%", "%5.2f", "%lld", "%z")


class Src:
    """The module under construction, and values of any type to feed the target op."""

    def __init__(self, draw):
        self.draw = draw
        self.b = FunctionBuilder("k", PARAMS)
        self.globals = ()

    def op(self, opname, operands, results, segments=None, **attrs):
        """Append op ``opname``; answers its one result, a tuple of several, or None."""
        return self.b.op(opname, list(operands), list(results), segments=segments, **attrs)

    def tile(self, t: TileType):
        """A value of tile type ``t``: a constant, or a parameter reshaped and broadcast."""
        elem = t.element
        if isinstance(elem, PointerType) or elem == I4:
            base = self.b.params[PARAMS.index(T((), elem))]
            if not t.shape:
                return base
            one = self.op("reshape", [base], [T((1,) * t.rank, base.type.element)])
            return self.op("broadcast", [one], [T(t.shape, base.type.element)])
        return self.op("constant", [], [t], value=dense_of(t, 1 if elem.is_int else 1.0))

    def token(self):
        """A new token (``make_token``)."""
        return self.op("make_token", [], [TOKEN])

    def ptr_attr(self) -> Optional[str]:
        """13.4's pointer attribute, drawn: absent or one of PTR_ATTRS."""
        return self.draw(st.sampled_from(PTR_ATTR_CHOICES))

    def pointer(self, pool=POINTEES) -> PointerType:
        """A pointer to one of ``pool``, with a ptr_attr or not."""
        return PointerType(self.fmt(pool), self.ptr_attr())

    def other_ptr_attr(self, attr: Optional[str]) -> Optional[str]:
        """A ptr_attr other than ``attr`` (absent when ``attr`` is set, else one of PTR_ATTRS)."""
        others = [a for a in PTR_ATTR_CHOICES if a != attr]
        return self.draw(st.sampled_from(others))

    def twist(self, t, p: float = 0.15):
        """``t``, or now and then ``t`` with another element format or shape (or, for a
        pointer tile, another ptr_attr)."""
        if not isinstance(t, TileType) or self.draw(st.integers(0, 99)) >= p * 100:
            return t
        if isinstance(t.element, PointerType) and self.draw(st.integers(0, 2)) == 0:
            pointer = t.element
            return t.with_element(PointerType(pointer.pointee, self.other_ptr_attr(pointer.attr)))
        if self.draw(st.booleans()):
            return t.with_element(self.draw(st.sampled_from(FORMATS)))
        return t.with_shape(self.draw(st.sampled_from(SHAPES)))

    def fmt(self, pool=FORMATS):
        """One format of ``pool``."""
        return self.draw(st.sampled_from(pool))

    def shape(self, pool=SHAPES):
        """One shape of ``pool``."""
        return self.draw(st.sampled_from(pool))

    def attrs(self, name: str, **sensible):
        """Every declared attribute of ``name``: mostly the sensible (or default) value,
        sometimes any value of its kind."""
        out = {}
        for attr, kind, default in SIGNATURES[name].attrs:
            value = sensible.get(attr, default)
            if self.draw(st.integers(0, 9)) < 3 or (value is None and attr not in sensible):
                base, _, enum = kind.partition(":")
                if base == "enum":
                    value = self.draw(
                        st.sampled_from(ENUMS[enum] + ((None,) if default is None else ()))
                    )
                elif base in ("unit", "bool"):
                    value = self.draw(st.booleans())
                elif base == "int":
                    value = self.draw(st.integers(-1, 4))
                elif base == "bool[]":
                    value = tuple(self.draw(st.lists(st.booleans(), max_size=3)))
                elif base == "str":
                    value = self.draw(st.sampled_from(FORMAT_STRINGS))
                elif attr in sensible:
                    value = sensible[attr]
            if value is not None:
                out[attr] = value
        return out
