"""``AttrMap``: the immutable attribute map of an Op or a Tile (a read-only dict).

Every op and tile carries one, and the recorder, the lowering and the writer read them on
every op: a dict's lookups, ``in`` and iteration run in C, where a persistent map
(pyrsistent's PMap, which this replaces) runs Python for each and was found costly (issue
#19: its ``__getitem__``, ``__hash__`` and the plain-dict copies kept beside it).  The
mutating dict methods refuse; ``set`` / ``discard`` give a new map, as PMap's did.  The hash
is that of the items' frozenset, computed on first use and kept.

>>> m = AttrMap({"dim": 0})
>>> m["dim"], m.get("axis"), m.set("axis", 1) == {"dim": 0, "axis": 1}
(0, None, True)
>>> m["dim"] = 1
Traceback (most recent call last):
...
TypeError: an attribute map is immutable; make a new one with .set
"""

from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["AttrMap"]


class AttrMap(dict[str, Any]):
    """An immutable ``str -> value`` map: a dict whose mutating methods refuse, hashable."""

    __slots__ = ("_hash",)
    _hash: int

    def __hash__(self) -> int:  # type: ignore[override]  # a dict is unhashable; this is not
        try:
            return self._hash
        except AttributeError:
            h = self._hash = hash(frozenset(self.items()))
            return h

    def set(self, key: str, value: Any) -> AttrMap:
        """A new map with ``key`` set to ``value``."""
        new = dict(self)
        new[key] = value
        return AttrMap(new)

    def discard(self, key: str) -> AttrMap:
        """A new map without ``key`` (this one when it has no ``key``)."""
        if key not in self:
            return self
        return AttrMap({k: v for k, v in self.items() if k != key})

    def __repr__(self) -> str:
        return f"AttrMap({dict.__repr__(self)})"

    def __reduce__(self) -> tuple:
        # pickle and copy rebuild the map from a plain dict (item by item would refuse)
        return (AttrMap, (dict(self),))

    def _immutable(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("an attribute map is immutable; make a new one with .set")

    def __setitem__(self, key: str, value: Any) -> NoReturn:
        self._immutable()

    def __delitem__(self, key: str) -> NoReturn:
        self._immutable()

    def __ior__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        self._immutable()

    update = _immutable
    pop = _immutable
    popitem = _immutable
    clear = _immutable
    setdefault = _immutable
