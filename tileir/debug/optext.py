"""Each op's Tile IR text: the module is rendered once and its lines are given to the ops.

The renderer (:mod:`tileir.text.render`) has no public function for one op's
text: value names (``%12``) are only known once every earlier definition has
been printed.  So :func:`op_texts` renders the whole module once and walks it
with the ops in the order the printer visits them (pre-order; an operand-less
``continue`` / ``yield`` that a region implies is not printed), giving each op
the lines it starts:

* an op without regions prints exactly one line;
* a region op prints header lines up to the first one ending in ``{`` (a
  ``reduce`` / ``scan`` puts its block arguments on a second line), then its
  regions' ops, with ``} else {`` between the two regions of an ``if`` and a
  closing ``}`` at the end.

Every step of the walk checks the line it consumes, so a change of the
renderer's layout fails loudly (a ``TileIRError`` of kind ``debug.render_map``)
instead of mislabelling ops.  Ops are keyed by ``id(op)``: a Module is
immutable and the interpreter walks the very same Op objects.
"""

from __future__ import annotations

from typing import Optional

import attrs

from tileir.errors import TileIRError
from tileir.ir.module import Block, Module, Op
from tileir.text.render import render

__all__ = ["OpText", "OpTexts", "op_texts"]


@attrs.frozen
class OpText:
    """Where one op is in the rendered text: ``line`` (1-based; 0 when the op is not
    printed), ``lines`` (how many header lines) and ``text`` (the header joined into one
    line, indentation stripped; for an implied terminator, its name and ``(implied)``)."""

    line: int
    lines: int
    text: str


@attrs.frozen
class OpTexts:
    """The rendered module and every op's :class:`OpText`, by ``id(op)``."""

    text: str
    by_op: dict = attrs.field(eq=False, repr=False)

    @property
    def line_count(self) -> int:
        return len(self.text.splitlines())

    def of(self, op: Op) -> OpText:
        """The text of ``op`` (an op of the rendered module)."""
        got = self.by_op.get(id(op))
        if got is None:
            return OpText(0, 0, f"{op.name} (not in the rendered module)")
        return got


def _printed(block: Block, parent: Optional[Op]) -> tuple:
    # mirrors the printer: an operand-less terminator its region implies is left out
    ops = block.ops
    if ops and parent is not None and not ops[-1].operands:
        last = ops[-1].name
        if (parent.name in ("for", "loop") and last == "continue") or (
            parent.name == "if" and last == "yield"
        ):
            return ops[:-1]
    return ops


class _Walker:
    def __init__(self, lines: list[str], kernel: Optional[str]):
        self.lines = lines
        self.at = 0
        self.kernel = kernel
        self.found: dict[int, OpText] = {}

    def fail(self, what: str) -> TileIRError:
        got = self.lines[self.at] if self.at < len(self.lines) else "<end of text>"
        return TileIRError(
            f"cannot pair the rendered text with the ops: expected {what} at "
            f"line {self.at + 1}, found {got.strip()!r}",
            kernel=self.kernel,
            kind="debug.render_map",
        )

    def take(self) -> str:
        if self.at >= len(self.lines):
            raise self.fail("another line")
        line = self.lines[self.at]
        self.at += 1
        return line

    def block(self, block: Block, parent: Optional[Op]) -> None:
        shown = _printed(block, parent)
        for op in block.ops[len(shown) :]:
            self.found[id(op)] = OpText(0, 0, f"{op.name} (implied)")
        for op in shown:
            self.op(op)

    def op(self, op: Op) -> None:
        start = self.at
        first = self.take()
        if first.strip().startswith("}"):
            self.at = start
            raise self.fail(f"the op `{op.name}`")
        header = [first]
        if op.regions:
            while not header[-1].rstrip().endswith("{"):
                header.append(self.take())
        text = " ".join(h.strip() for h in header)
        self.found[id(op)] = OpText(start + 1, len(header), text)
        for i, region in enumerate(op.regions):
            if i:
                if self.take().strip() != "} else {":
                    self.at -= 1
                    raise self.fail("`} else {`")
            self.block(region, op)
        if op.regions and self.take().strip() != "}":
            self.at -= 1
            raise self.fail(f"the `}}` closing `{op.name}`")


def op_texts(module: Module) -> OpTexts:
    """Render ``module`` once and give every op of every function its line(s) of text."""
    text = render(module)
    lines = text.splitlines()
    name = module.functions[0].name if module.functions else None
    walker = _Walker(lines, name)
    for fn in module.functions:
        # skip globals, the producer comment and anything before this entry's header
        while walker.at < len(lines) and not lines[walker.at].startswith("entry "):
            walker.at += 1
        walker.take()
        walker.block(fn.body, None)
        if walker.take().strip() != "}":
            walker.at -= 1
            raise walker.fail(f"the `}}` closing entry `{fn.name}`")
    return OpTexts(text, walker.found)
