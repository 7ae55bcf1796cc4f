"""The library's memo tables, in one registry.

A memo here caches a pure function of immutable values (a type's table entry, an attribute
map's plain dict, a code object's column table), so an entry never goes stale; each table is
bounded by the module that fills it.  They stay warm in a user's process, which is what makes
the second kernel cheaper than the first.  :func:`clear_memos` empties every one of them, so
a benchmark can time the cold path too (``bench/record_encode.py`` prints both) and a test can
check that a warm memo gives the same answer as a cold one.

>>> table = memo_table("doctest: squares")
>>> table[3] = 9
>>> memo_sizes()["doctest: squares"]
1
>>> clear_memos()
>>> memo_sizes()["doctest: squares"]
0
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

__all__ = ["register_memo", "memo_table", "remember", "clear_memos", "memo_sizes"]


class _Clearable(Protocol):
    def clear(self) -> None: ...

    def __len__(self) -> int: ...


_T = TypeVar("_T", bound=_Clearable)

#: name -> table, for every memo the library keeps
_REGISTRY: dict[str, _Clearable] = {}


def register_memo(name: str, table: _T) -> _T:
    """Register ``table`` (anything with ``clear``) under ``name`` and give it back (a
    module reloaded registers its new table in place of the old one)."""
    _REGISTRY[name] = table
    return table


def memo_table(name: str) -> dict:
    """A new plain dict registered as memo ``name`` (a plain dict: its lookups run in C)."""
    return register_memo(name, {})


_V = TypeVar("_V")


def remember(table: dict[Any, Any], key: object, value: _V, limit: int = 4096) -> _V:
    """Store ``value`` under ``key`` in memo ``table`` and give it back; a table that holds
    ``limit`` entries is emptied first, so a memo stays bounded in a long process.

    >>> squares = memo_table("doctest: bounded squares")
    >>> remember(squares, 3, 9, limit=1), remember(squares, 4, 16, limit=1), squares
    (9, 16, {4: 16})
    """
    if len(table) >= limit:
        table.clear()
    table[key] = value
    return value


def clear_memos() -> None:
    """Empty every registered memo table (the next calls take the cold path)."""
    for table in _REGISTRY.values():
        table.clear()


def memo_sizes() -> dict[str, int]:
    """How many entries each memo table holds now, by name."""
    return {name: len(table) for name, table in _REGISTRY.items()}
