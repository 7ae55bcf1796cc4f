"""Source locations printed the way ``tileirdisasm -g`` prints them.

``tileirdisasm -g`` appends ``loc(#locN)`` to every printed op (and ``}`` of a
function) and lists the aliases at the end of the text.  MLIR numbers those
aliases by sorting them on (nesting depth, alias name) and, within one name, on
the order the printer first met them: each op's location when the op starts,
before its regions; ops the printer leaves out (an operand-less ``continue`` or
``yield`` that closes a region) are never met.

The locations come from the bytecode's debug section; this module assumes the
convention tileir's encoder writes (tileir/encode/debuginfo.py):

* a function gets one ``di_subprogram`` when it or any of its ops has a ``loc``;
  its anchor is the function's ``loc``, else the first op ``loc`` in pre-order:
  the anchor's file split into ``di_file<"base" in "dir">``, ``line`` and
  ``scopeLine`` = the anchor's line, ``name`` and ``linkageName`` = the entry's
  name; the function itself is located at the anchor;
* an op with a ``loc`` gets ``di_loc<loc("file":line:col) in #di_subprogram>``;
  every other op, a function with no location at all, and every global get
  ``loc(unknown)``.
"""

from __future__ import annotations

import os
import re
from typing import Optional

from tileir.ir.module import Function, Loc, walk
from tileir.text.attr_text import string_text

__all__ = ["LocTable", "UNKNOWN"]

UNKNOWN = ("unknown",)


def _anchor(fn: Function) -> Optional[Loc]:
    if fn.loc is not None:
        return fn.loc
    return next((op.loc for op in walk(fn.body) if op.loc is not None), None)


def _subprogram(anchor: Optional[Loc], name: str):
    if anchor is None:
        return None
    directory, base = os.path.split(anchor.file)
    file_attr = ("di_file", base, directory)
    cu = ("di_compile_unit", file_attr)
    return ("di_subprogram", file_attr, anchor.line, name, name, cu, anchor.line)


def _children(attr) -> tuple:
    kind = attr[0]
    if kind == "di_loc":
        return (attr[2], attr[1])
    if kind == "di_subprogram":
        return (attr[1], attr[5])
    if kind == "di_compile_unit":
        return (attr[1],)
    return ()


# (alias name, nesting depth) per kind of debug attribute
_ALIAS = {
    "raw": ("loc", 0),
    "unknown": ("loc", 0),
    "di_file": ("di_file", 0),
    "di_compile_unit": ("di_compile_unit", 1),
    "di_subprogram": ("di_subprogram", 2),
    "di_loc": ("loc", 3),
}


class LocTable:
    """Collects the locations a printing meets, then names and lists their aliases."""

    def __init__(self) -> None:
        self._seen: dict[tuple, None] = {}
        self._order: list[tuple] = []  # the location of each `loc(...)` placeholder
        self._subprogram = None

    def enter_function(self, fn: Function):
        """Start ``fn``; answers the debug attribute of the function itself."""
        anchor = _anchor(fn)
        self._subprogram = _subprogram(anchor, fn.name)
        return self.attr_of(anchor)

    def attr_of(self, loc: Optional[Loc]):
        """The debug attribute tileir's convention gives ``loc`` in the current function."""
        if loc is None or self._subprogram is None:
            return UNKNOWN
        return ("di_loc", ("raw", loc.file, loc.line, loc.column), self._subprogram)

    def mark(self, attr) -> str:
        """Meet ``attr`` now; answers a placeholder :meth:`finish` turns into ``loc(#locN)``."""
        self._visit(attr)
        self._order.append(attr)
        return f"\x00{len(self._order) - 1}\x00"

    def _visit(self, attr) -> None:
        if attr in self._seen:
            return
        self._seen[attr] = None
        for child in _children(attr):
            self._visit(child)

    def finish(self, text: str) -> str:
        """``text`` with placeholders replaced, and the alias lines appended."""
        ranked = sorted(self._seen, key=lambda a: (_ALIAS[a[0]][1], _ALIAS[a[0]][0]))
        counts: dict[str, int] = {}
        names: dict[tuple, str] = {}
        for attr in ranked:
            base = _ALIAS[attr[0]][0]
            n = counts.get(base, 0)
            counts[base] = n + 1
            names[attr] = f"#{base}{n if n else ''}"
        text = re.sub(
            "\x00(\\d+)\x00", lambda m: f"loc({names[self._order[int(m.group(1))]]})", text
        )
        lines = [f"{names[a]} = {self._define(a, names)}" for a in ranked]
        return text + "".join(line + "\n" for line in lines)

    @staticmethod
    def _define(attr, names) -> str:
        kind = attr[0]
        if kind == "unknown":
            return "loc(unknown)"
        if kind == "raw":
            return f"loc({string_text(attr[1])}:{attr[2]}:{attr[3]})"
        if kind == "di_file":
            return f"#cuda_tile.di_file<{string_text(attr[1])} in {string_text(attr[2])}>"
        if kind == "di_compile_unit":
            return f"#cuda_tile.di_compile_unit<file = {names[attr[1]]}>"
        if kind == "di_subprogram":
            _, file_attr, line, name, linkage, cu, scope_line = attr
            return (
                f"#cuda_tile.di_subprogram<file = {names[file_attr]}, line = {line}, "
                f"name = {string_text(name)}, linkageName = {string_text(linkage)}, "
                f"compileUnit = {names[cu]}, scopeLine = {scope_line}>"
            )
        return f"#cuda_tile.di_loc<{names[attr[1]]} in {names[attr[2]]}>"
