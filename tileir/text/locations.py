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
  ``loc(unknown)``;
* a ``loc`` that keeps its own scope (a decoded file's subprograms, a helper's) is a
  ``di_loc`` in that scope, and one with a ``caller`` is ``callsite(#callee at
  #caller)``, as the encoder writes them.
"""

from __future__ import annotations

import os
import re
from typing import Optional

from tileir.ir.module import DIFile, Function, LexicalBlock, Loc, Scope, walk
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


def _file_attr(f: DIFile) -> tuple:
    return ("di_file", f.name, f.directory)


def _scope_attr(scope: Scope) -> tuple:
    """The debug attribute of a subprogram or lexical block the decoder kept."""
    if isinstance(scope, LexicalBlock):
        return (
            "di_lexical_block",
            _scope_attr(scope.scope),
            _file_attr(scope.file),
            scope.line,
            scope.column,
        )
    cu = ("di_compile_unit", _file_attr(scope.unit))
    return (
        "di_subprogram",
        _file_attr(scope.file),
        scope.line,
        scope.name,
        scope.linkage,
        cu,
        scope.scope_line,
    )


def _children(attr) -> tuple:
    kind = attr[0]
    if kind == "di_loc":
        return (attr[2], attr[1])
    if kind == "di_subprogram":
        return (attr[1], attr[5])
    if kind == "di_compile_unit":
        return (attr[1],)
    if kind == "callsite":  # the callee is met before the caller
        return (attr[1], attr[2])
    if kind == "di_lexical_block":
        return (attr[1], attr[2])
    return ()


#: the alias name of each kind of debug attribute; MLIR lists aliases by nesting depth
#: (0 for one that refers to no other, else one more than the deepest it refers to), then
#: by name, then in the order the printer first met them
_ALIAS = {
    "raw": "loc",
    "unknown": "loc",
    "di_file": "di_file",
    "di_compile_unit": "di_compile_unit",
    "di_subprogram": "di_subprogram",
    "di_lexical_block": "di_lexical_block",
    "di_loc": "loc",
    "callsite": "loc",
}


def _depth(attr, memo: dict) -> int:
    found = memo.get(attr)
    if found is None:
        children = _children(attr)
        found = 1 + max(_depth(c, memo) for c in children) if children else 0
        memo[attr] = found
    return found


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
        """The debug attribute of ``loc`` in the current function: a ``di_loc`` in its own
        scope (the function's subprogram when it names none), inside a ``callsite`` per
        caller."""
        if loc is None or self._subprogram is None:
            return UNKNOWN
        scope = self._subprogram if loc.scope is None else _scope_attr(loc.scope)
        here = ("di_loc", ("raw", loc.file, loc.line, loc.column), scope)
        if loc.caller is None:
            return here
        return ("callsite", here, self.attr_of(loc.caller))

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
        memo: dict = {}
        ranked = sorted(self._seen, key=lambda a: (_depth(a, memo), _ALIAS[a[0]]))
        counts: dict[str, int] = {}
        names: dict[tuple, str] = {}
        for attr in ranked:
            base = _ALIAS[attr[0]]
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
        if kind == "di_lexical_block":
            _, scope, file_attr, line, column = attr
            return (
                f"#cuda_tile.di_lexical_block<scope = {names[scope]}, file = "
                f"{names[file_attr]}, line = {line}, column = {column}>"
            )
        if kind == "callsite":
            return f"loc(callsite({names[attr[1]]} at {names[attr[2]]}))"
        return f"#cuda_tile.di_loc<{names[attr[1]]} in {names[attr[2]]}>"
