"""Compare two printings of a module while ignoring the names of SSA values, and nothing else.

``tileirdisasm`` invents names (``%tview``, ``%cst_0_f32``, ``%blockId_x``,
``%loopIdx``, packs such as ``%1:2`` used as ``%1#1``); :func:`tileir.text.render`
prints ``%argN`` and ``%N``.  :func:`normalize_ssa` renames every SSA value of a
text to ``%vK``, K counting definitions in the order they appear, and leaves
every other character as it was, so two texts normalize equal exactly when they
differ in SSA spellings alone.

A definition always takes a fresh name (``tileirdisasm`` reuses ``%5`` or
``%loopIdx`` in sibling regions for different values); a use takes the name
of the latest definition of its spelling, which is the right one in any text
where every use follows its definition.  Definitions are the result list at the
start of a line (``%a, %b = ...``, ``%p:2 = ...``), typed arguments
(``%arg0: tile<i32>``, region headers), ``for``'s induction variable
(``for %i in``) and ``iter_values(%x = ...)`` entries.

>>> normalize_ssa('%tview = make_token : token\\n%1:2 = f %tview\\ng %1#1')
'%v0 = make_token : token\\n%v1, %v2 = f %v0\\ng %v2'
"""

from __future__ import annotations

import re

__all__ = ["normalize_ssa", "ssa_equal"]

_NAME = r"%[A-Za-z0-9_$.\-]+"
# one token: a string literal (skipped whole), or an SSA name with its suffix
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|(' + _NAME + r")(?::(\d+)(?![\w])|#(\d+))?")
_RESULTS = re.compile(r"^(\s*)((?:" + _NAME + r"(?::\d+)?)(?:, " + _NAME + r"(?::\d+)?)*) = ")


class _Names:
    def __init__(self) -> None:
        self.count = 0
        self.current: dict[str, list[str]] = {}

    def define(self, name: str, width: int = 1) -> list[str]:
        fresh = [f"%v{self.count + i}" for i in range(width)]
        self.count += width
        self.current[name] = fresh
        return fresh

    def use(self, name: str, index: int | None) -> str:
        if name not in self.current:
            self.define(name)  # a name never defined in this text (a fragment)
        fresh = self.current[name]
        if index is None:
            return fresh[0] if len(fresh) == 1 else f"{fresh[0]}#pack{len(fresh)}"
        if index >= len(fresh):
            return f"{fresh[0]}#{index}!"  # an out-of-range pack index stays visible
        return fresh[index]


def _rewrite(line: str, names: _Names) -> str:
    out, at = [], 0
    head = _RESULTS.match(line)
    if head:
        # the op's results: all definitions, in order
        pieces = []
        for item in head.group(2).split(", "):
            name, _, width = item.partition(":")
            pieces.extend(names.define(name, int(width) if width else 1))
        out.append(head.group(1) + ", ".join(pieces) + " = ")
        at = head.end()
    for m in _TOKEN.finditer(line, at):
        out.append(line[at : m.start()])
        at = m.end()
        if m.group(1) is None:  # a string literal
            out.append(m.group(0))
            continue
        name = m.group(1)
        after = line[m.end() :]
        before = line[: m.start()]
        if m.group(2) is not None:
            # `%x:2` outside a result list is a pack definition too
            out.append(", ".join(names.define(name, int(m.group(2)))))
        elif m.group(3) is not None:
            out.append(names.use(name, int(m.group(3))))
        elif (
            after.startswith(": ")
            or after.startswith(" in (")
            or (after.startswith(" = ") and _in_iter_values(before))
        ):
            out.append(names.define(name)[0])
        else:
            out.append(names.use(name, None))
    out.append(line[at:])
    return "".join(out)


def _in_iter_values(before: str) -> bool:
    # `iter_values(%a = %x, %b = %y)`: is this name inside such a list?
    open_at = before.rfind("iter_values(")
    return open_at >= 0 and before.count("(", open_at) > before.count(")", open_at)


def normalize_ssa(text: str) -> str:
    """``text`` with every SSA name replaced by ``%vK`` in order of definition.

    ``// ...`` comment lines and string literals are kept as they are.
    """
    names = _Names()
    lines = []
    for line in text.split("\n"):
        if line.lstrip().startswith("//"):
            lines.append(line)
        else:
            lines.append(_rewrite(line, names))
    return "\n".join(lines)


def ssa_equal(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ in the spelling of SSA names at most."""
    return normalize_ssa(a) == normalize_ssa(b)
