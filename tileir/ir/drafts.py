"""Frozen objects made the fast way: as a *draft* that becomes the frozen class.

The hot constructors (an Op, Value or Block per lowered op, a Tile per recorded value, a Load
per cell read ...) make objects whose fields are already what the class's converters would
make of them.  A frozen attrs class refuses plain assignment, and setting its slots one
descriptor call at a time costs a C call with argument parsing per field; so each is made as
its draft: a plain class of the same slots on the same base, whose fields are set by ordinary
attribute stores (which the interpreter specializes), and which then becomes the frozen class
by ``__class__`` assignment.  Python allows that between classes of one layout; it compares
layouts without the weak-reference slot, so a class that has one keeps it in a shared base,
:class:`Referable`.

>>> import attrs
>>> @attrs.frozen
... class Point(Referable):
...     x: int
...     y: int
>>> p = draft_of(Point)()
>>> p.x, p.y = 1, 2
>>> p.__class__ = Point
>>> p == Point(1, 2), type(p) is Point
(True, True)
"""

from __future__ import annotations

__all__ = ["Referable", "draft_of"]


class Referable:
    """A base that holds the weak-reference slot, so that a draft of a subclass's slots can
    take its layout."""

    __slots__ = ("__weakref__",)


def draft_of(cls: type) -> type:
    """The draft class of slotted class ``cls``: the same slots on the same base.

    ``cls``'s own slots must not hold ``__weakref__`` (give it :class:`Referable` as its
    base instead): Python would not let a draft become ``cls`` then."""
    slots = cls.__dict__.get("__slots__")
    if slots is None or "__weakref__" in slots or "__dict__" in slots:
        raise TypeError(f"{cls.__name__} needs slots without __weakref__ for a draft")
    base = cls.__base__
    assert base is not None  # (every class but object has one)
    return type(
        f"{cls.__name__}Draft", (base,), {"__slots__": slots, "__module__": cls.__module__}
    )
