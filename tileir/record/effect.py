"""What a kernel body yields: an :class:`Effect`, and the words for one used as a tile.

An effect is an instruction (a load, a store, a loop ...) that only takes place when the
body ``yield``s it; a helper with effects is a generator function, called with
``yield from``.  Both are easy to use by mistake where a tile is meant, so this module
also says, for any such value, what the user should have written
(:func:`not_a_tile_hint`).  It imports nothing of the recorder, so :mod:`tileir.record.tile`
can use it.
"""

from __future__ import annotations

from types import GeneratorType, MemberDescriptorType
from typing import TYPE_CHECKING, Any, NoReturn, Optional

from tileir.errors import RecordingError
from tileir.record.source import user_loc

if TYPE_CHECKING:
    from tileir.record.builder import Builder

__all__ = ["Effect", "not_a_tile_hint", "EFFECT_MAKER", "mark_effect_makers"]

#: The attribute that marks a function returning an effect (the ops set it on theirs), so
#: the recorder can tell a call whose effect is thrown away (see :mod:`tileir.record.dropped`).
EFFECT_MAKER = "__tileir_effect__"


def mark_effect_makers(*functions: Any) -> None:
    """Mark ``functions`` as returning an effect (a value the body must yield)."""
    for fn in functions:
        setattr(fn, EFFECT_MAKER, True)


def not_a_tile_hint(value: object) -> Optional[str]:
    """What to write instead when ``value`` (an effect, or a helper's generator) was used
    where a tile is expected; None for any other value."""
    if isinstance(value, Effect):
        answers = _answered_type(value)
        what = f"{value.op}, whose yield answers a {answers}" if answers is not None else value.op
        return (
            f"this is an effect ({what}), not a tile: an effect happens when the body "
            f"yields it, and the yield answers its value; write `x = yield load_cell(a)`"
        )
    if isinstance(value, GeneratorType):
        name = getattr(value, "__name__", "helper")
        return (
            f"this is a call of `{name}`, a helper that has effects (a generator), not a tile: "
            f"call it with `yield from`, as in `x = yield from {name}(...)`"
        )
    return None


# Tile facts and methods a user may reach for on an effect mistaken for a tile
_TILE_NAMES = frozenset(
    {"shape", "format", "rank", "type", "to", "astype", "reshape", "broadcast_to", "T"}
    | {"transpose", "sum", "max", "min", "prod"}
)


class Effect:
    """An instruction a kernel body yields.  Subclasses implement ``apply``.

    Arithmetic on an effect, or a tile's attribute asked of one, is refused with the
    ``yield`` the body forgot.
    """

    op = "effect"

    def apply(self, builder: "Builder") -> tuple["Builder", Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def refuse(self, message: str) -> RecordingError:
        loc = getattr(self, "loc", None)
        return RecordingError(message, op=self.op, where=str(loc) if loc else None)

    def _as_operand(self, *_: object) -> NoReturn:
        loc = user_loc()  # the user's line, where the effect was taken for a tile
        raise RecordingError(
            str(not_a_tile_hint(self)), op=self.op, where=str(loc) if loc else None
        )

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _as_operand
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = _as_operand
    __mod__ = __rmod__ = __pow__ = __rpow__ = __matmul__ = __rmatmul__ = _as_operand
    __neg__ = __abs__ = _as_operand
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _as_operand


def _refusing(name: str) -> property:
    """The property that a tile's ``name``, asked of an effect, is (a subclass's own field
    of that name, such as Emit's ``type``, comes first in the lookup)."""

    def get(self: Effect) -> NoReturn:
        self._as_operand()

    return property(get, doc=f"refused: ``{name}`` is a tile's; yield the effect for its tile")


# Properties rather than a __getattr__: a class with __getattr__ defeats CPython's
# specialised attribute reads, and the recorder reads an Emit's fields on every yield.
for _name in _TILE_NAMES:
    setattr(Effect, _name, _refusing(_name))
del _name


def _answered_type(value: Effect) -> Any:
    """The type an effect's yield answers, when it has one (an Emit that makes a value), read
    without the refusing property of an effect that has no type."""
    for klass in type(value).__mro__:
        found = klass.__dict__.get("type")
        if found is not None:
            if isinstance(found, MemberDescriptorType):
                try:
                    return found.__get__(value)
                except AttributeError:
                    return None
            return None
    return None
