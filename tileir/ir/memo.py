"""The library's memo tables, in one registry, and the table of shared type objects.

A memo here caches a pure function of immutable values (a type's table entry, an attribute
map's plain dict, a code object's column table), so an entry never goes stale; each table is
bounded by the module that fills it.  They stay warm in a user's process, which is what makes
the second kernel cheaper than the first.  :func:`clear_memos` empties every one of them, so
a benchmark can time the cold path too (``bench/record_encode.py`` prints both) and a test can
check that a warm memo gives the same answer as a cold one.

>>> from tileir.types import TileType, F32
>>> a, b = TileType((4,), F32), TileType((4,), F32)
>>> a is b, shared_type(a) is shared_type(b)
(False, True)
>>> clear_memos()
>>> shared_type(b) is b
True
"""

from __future__ import annotations

from typing import Protocol, TypeVar

__all__ = ["register_memo", "memo_table", "clear_memos", "memo_sizes", "shared_type"]


class _Clearable(Protocol):
    def clear(self) -> None: ...

    def __len__(self) -> int: ...


_T = TypeVar("_T", bound=_Clearable)
_Type = TypeVar("_Type")

#: name -> table, for every memo the library keeps
_REGISTRY: dict[str, _Clearable] = {}


def register_memo(name: str, table: _T) -> _T:
    """Register ``table`` (anything with ``clear``) under ``name`` and give it back."""
    if name in _REGISTRY and _REGISTRY[name] is not table:
        raise ValueError(f"a memo table named {name!r} is registered already")
    _REGISTRY[name] = table
    return table


def memo_table(name: str) -> dict:
    """A new plain dict registered as memo ``name`` (a plain dict: its lookups run in C)."""
    return register_memo(name, {})


def clear_memos() -> None:
    """Empty every registered memo table (the next calls take the cold path)."""
    for table in _REGISTRY.values():
        table.clear()


def memo_sizes() -> dict[str, int]:
    """How many entries each memo table holds now, by name."""
    return {name: len(table) for name, table in _REGISTRY.items()}


# type -> the one object the lowering uses for every type equal to it
_TYPES: dict[object, object] = memo_table("ir.memo: shared type objects")
_MAX_TYPES = 4096


def shared_type(t: _Type) -> _Type:
    """The one object kept for every type equal to ``t`` (``t`` itself the first time).

    Types are immutable values that compare by their fields; the lowering gives each op's
    results shared type objects, so the stages after it (the type table, the version check,
    the interpreter) find a type they saw before by identity, without a Python-level
    ``__eq__``.  Equal types encode and render alike, so sharing changes no output.
    """
    found = _TYPES.get(t)
    if found is None:
        if len(_TYPES) >= _MAX_TYPES:  # stays bounded in a long process
            _TYPES.clear()
        found = _TYPES[t] = t
    return found  # type: ignore[return-value]  # an object equal to t, so of t's class
