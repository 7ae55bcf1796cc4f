"""The one way every interpretation of the ops builds its table of rules.

Rendering, the bytecode codecs, the numpy interpreter, the checker, the
debugger's analyses and the lowering each say what an op means to them in a
table keyed by op (by the dialect's op name, or for the lowering by the
recorded instruction's class).  :func:`rule_table` joins a table from groups of
rules, and refuses, while the table is built (so at import time, never later
during a run):

* an op defined twice, in one group or in two;
* a key the domain does not have (a misspelt op name, an op of another dialect).

Whether a table covers every op of its domain is a property of the table that
the test suite checks for each one (:meth:`RuleTable.missing`).

>>> t = rule_table("DEMO_RULES", {"addf": "add floats"}, {"addi": "add integers"})
>>> t["addi"], len(t), t.name
('add integers', 2, 'DEMO_RULES')
>>> rule_table("DEMO_RULES", {"addf": 1}, {"addf": 2})
Traceback (most recent call last):
...
ValueError: DEMO_RULES: op `addf` is defined twice
>>> rule_table("DEMO_RULES", [("addf", 1), ("subf", 2), ("addf", 3)])
Traceback (most recent call last):
...
ValueError: DEMO_RULES: op `addf` is defined twice
>>> rule_table("DEMO_RULES", {"add_floats": 1})
Traceback (most recent call last):
...
ValueError: DEMO_RULES: `add_floats` is not a body op of the dialect
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Generic, Optional, TypeVar, Union

from tileir.ir.dialect import BODY_OPS

__all__ = ["RuleTable", "rule_table"]

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")


class RuleTable(dict, Generic[K, R]):
    """A read-only table of rules, with the name of the interpretation it serves and the
    domain of keys it was checked against.

    A dict underneath, so a lookup in an interpreter's inner loop costs what a dict's does;
    every way of changing it is refused.
    """

    def __init__(self, name: str, rules: dict, domain: tuple):
        super().__init__(rules)
        self.name = name
        self.domain = domain

    def missing(self) -> list:
        """The keys of the domain this table has no rule for (none, for a complete table)."""
        return [k for k in self.domain if k not in self]

    def __repr__(self) -> str:
        return f"<rule table {self.name}: {len(self)} of {len(self.domain)}>"

    def _refuse(self, *args, **kwargs):
        raise TypeError(f"rule table {self.name} is read-only: build another with rule_table")

    __setitem__ = __delitem__ = __ior__ = _refuse
    update = pop = popitem = clear = setdefault = _refuse

    def __reduce__(self):  # pickles as its name, rules and domain, not through __setitem__
        return (RuleTable, (self.name, dict(self), self.domain))


def _key_text(key) -> str:
    return key.__name__ if isinstance(key, type) else str(key)


def rule_table(
    name: str,
    *groups: Union[Mapping, Iterable[tuple]],
    domain: Optional[Iterable] = None,
    what: str = "body op of the dialect",
) -> RuleTable:
    """The table ``name`` joined from ``groups``: each a mapping of key -> rule, or an
    iterable of ``(key, rule)`` pairs (so a family that names several ops, written as a
    generator, is checked for repeats too: a dict literal would keep the last silently).

    ``domain`` is the keys a rule may have: the dialect's body ops unless given (the
    lowering passes its instruction classes); ``what`` names one key of it in the error.
    """
    keys = tuple(BODY_OPS if domain is None else domain)
    allowed = frozenset(keys)
    table: dict = {}
    for group in groups:
        pairs = group.items() if isinstance(group, Mapping) else group
        for key, rule in pairs:
            if key not in allowed:
                raise ValueError(f"{name}: `{_key_text(key)}` is not a {what}")
            if key in table:
                raise ValueError(f"{name}: op `{_key_text(key)}` is defined twice")
            table[key] = rule
    return RuleTable(name, table, keys)
