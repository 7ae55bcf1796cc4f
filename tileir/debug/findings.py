"""What a finder reports: the op, the user's source line, the block and the element.

Every finder answers a list of :class:`Finding` (empty when it found nothing),
ordered by when the fault first happened.  ``str(finding)`` is the report a
person reads: a headline, the source line, the op's Tile IR, what happened,
and the other ops involved (the store a padding leak reaches, the other block
of a race, the path a value took).
"""

from __future__ import annotations

import linecache
from typing import Any, Optional, Sequence

import attrs

from tileir.ir.module import Loc, Op

__all__ = ["Finding", "Related", "where", "source_line", "format_findings"]


def where(loc: Optional[Loc]) -> str:
    """``file.py:12`` (short file name) or ``?``."""
    if loc is None:
        return "?"
    return f"{loc.file.rsplit('/', 1)[-1]}:{loc.line}"


def source_line(loc: Optional[Loc]) -> str:
    """The user's line at ``loc``, stripped (empty when unknown)."""
    if loc is None:
        return ""
    return linecache.getline(loc.file, loc.line).strip()


@attrs.frozen(eq=False)
class Related:
    """Another op a finding involves: ``role`` says how (``reaches``, ``also writes``,
    ``via``, ...), ``detail`` what it did there."""

    role: str
    op: Op
    text: str
    loc: Optional[Loc]
    block: Optional[tuple] = None
    detail: str = ""

    def line(self) -> str:
        at = f" block {self.block}" if self.block is not None else ""
        extra = f": {self.detail}" if self.detail else ""
        return f"{self.role} `{self.op.name}` at {where(self.loc)}{at}{extra}"


@attrs.frozen(eq=False)
class Finding:
    """One fault.  ``kind`` is the finder's (``nonfinite``, ``padding-leak``, ``race``,
    ``out-of-bounds``, ``untouched``, ``uninitialized``), ``detail`` the sort of it (``nan``, ``write-write``, ...);
    ``op`` / ``text`` / ``loc`` / ``block`` / ``element`` locate it (``element`` is a tile
    lane ``(i, j)`` or a flat buffer element, as ``message`` says); ``count`` is how many
    elements or blocks show the same fault; ``path`` lists the ops between cause and
    effect, where a finder knows them; ``elements`` lists ``(buffer, flat element indices)``
    of every buffer element the fault marks, where a finder knows them beyond the first
    (the outputs a padding leak reaches, the addresses past a buffer), for the memory map
    (:mod:`tileir.debug.memmap`)."""

    kind: str
    detail: str
    kernel: str
    op: Op
    text: str
    loc: Optional[Loc]
    block: Optional[tuple]
    element: Any
    message: str
    related: tuple = ()
    path: tuple = ()
    count: int = 1
    elements: tuple = ()

    @property
    def line(self) -> Optional[int]:
        """The user's source line number (None when unknown)."""
        return None if self.loc is None else self.loc.line

    @property
    def source(self) -> str:
        return source_line(self.loc)

    def __str__(self) -> str:
        head = (
            f"{self.kind} ({self.detail}): kernel `{self.kernel}`, `{self.op.name}` at "
            f"{where(self.loc)}, block {self.block}, element {self.element}"
        )
        lines = [head]
        if self.source:
            lines.append(f"    source: {self.source}")
        lines.append(f"    op:     {self.text}")
        lines.append(f"    what:   {self.message}")
        for r in self.related:
            lines.append(f"    {r.line()}")
        if self.path:
            lines.append("    path:   " + " -> ".join(self.path))
        return "\n".join(lines)


def format_findings(findings: Sequence[Finding], title: str) -> str:
    """A report of several findings under ``title`` (says so when there are none)."""
    if not findings:
        return f"{title}: nothing found"
    body = "\n".join(str(f) for f in findings)
    return f"{title}: {len(findings)} finding(s)\n{body}"
