"""Print a Module as text, in exactly the syntax ``tileirdisasm`` 13.4.92 prints.

The text is what NVIDIA's disassembler prints for the same module's bytecode,
line for line and space for space (attribute spellings, omitted defaults,
globals first, a ``// Producer:`` comment, the layout of ``for`` / ``loop`` /
``if`` / ``reduce`` / ``scan``), except for the names of SSA values: parameters
are ``%argN`` and every other value ``%N``, numbered in the order the text
defines them.  :func:`tileir.text.compare.normalize_ssa` makes the two
comparable.

``wrap=True`` gives the dialect's own MLIR form instead, the entries inside
``cuda_tile.module @name { ... }``; ``debug_info=True`` adds the ``loc(#locN)``
annotations and alias lines ``tileirdisasm -g`` prints (see ``tileir.text.locations``
for the location convention).

>>> from tileir.ir.module import Module, Function, Block, Op, Value
>>> from tileir.types import TileType, F32
>>> x = Value(0, TileType((4,), F32))
>>> y = Value(1, TileType((4,), F32))
>>> body = Block((), (Op("addf", (x, x), (y,)), Op("return")))
>>> print(render(Module((Function("k", (x,), body),))), end="")
entry @k(%arg0: tile<4xf32>) {
  %0 = addf %arg0, %arg0  : tile<4xf32>
  return
}
"""

from __future__ import annotations

from typing import Optional

from tileir.errors import VerifyError
from tileir.ir.module import Block, Function, Global, Module, Op, Value
from tileir.text.attr_text import dense_text, hints_text, symbol_text
from tileir.text.locations import UNKNOWN, LocTable
from tileir.text.rules import RENDER_RULES

__all__ = ["render", "RENDER_RULES"]


class _Printer:
    """Names values in the order the text defines them and prints blocks with their indent."""

    def __init__(self, fn: Function, locs: Optional[LocTable]):
        self.fn = fn
        self.locs = locs
        self.names: dict[int, str] = {}
        self.count = 0
        self.indent = ""
        self.op: Optional[Op] = None

    def param(self, v: Value, i: int) -> str:
        self.names[v.id] = f"%arg{i}"
        return self.names[v.id]

    def define(self, v: Value) -> str:
        # ids may be reused by a sibling region: the latest definition wins
        self.names[v.id] = f"%{self.count}"
        self.count += 1
        return self.names[v.id]

    def use(self, v: Value) -> str:
        try:
            return self.names[v.id]
        except KeyError:
            op = self.op.name if self.op is not None else "?"
            where = str(self.op.loc) if self.op is not None and self.op.loc else None
            raise VerifyError(
                f"operand %{v.id} ({v.type}) is used before any definition",
                kernel=self.fn.name,
                op=op,
                where=where,
            ) from None

    def region(self, block: Block, parent: Op) -> str:
        outer = self.indent
        self.indent = outer + "  "
        try:
            return "".join(self.line(op) for op in _printed_ops(block, parent))
        finally:
            self.indent = outer

    def line(self, op: Op) -> str:
        outer_op, self.op = self.op, op
        try:
            mark = self.locs.mark(self.locs.attr_of(op.loc)) if self.locs else None
            head = ", ".join(self.define(v) for v in op.results)
            text = self.indent + (head + " = " if head else "") + RENDER_RULES[op.name](self, op)
        finally:
            self.op = outer_op
        return text + (f" {mark}" if mark else "") + "\n"


def _printed_ops(block: Block, parent: Optional[Op]):
    ops = block.ops
    if ops and parent is not None and not ops[-1].operands:
        last = ops[-1].name
        # an operand-less terminator the region implies is left out
        if (parent.name in ("for", "loop") and last == "continue") or (
            parent.name == "if" and last == "yield"
        ):
            return ops[:-1]
    return ops


def _function(fn: Function, locs: Optional[LocTable]) -> str:
    p = _Printer(fn, locs)
    fn_mark = locs.mark(locs.enter_function(fn)) if locs else None
    params = ", ".join(f"{p.param(v, i)}: {v.type}" for i, v in enumerate(fn.params))
    head = f"entry {symbol_text(fn.name)}({params})"
    if fn.hints is not None and fn.hints.by_arch:
        head += f" optimization_hints={hints_text(fn.hints)}"
    p.indent = "  "
    body = "".join(p.line(op) for op in _printed_ops(fn.body, None))
    return head + " {\n" + body + "}" + (f" {fn_mark}" if fn_mark else "") + "\n"


def _global(g: Global, locs: Optional[LocTable]) -> str:
    # `global  constant @g`, `global private  @g`: the visibility word carries its own space
    visibility = "private " if g.visibility == "private" else ""
    text = f"global {visibility} {'constant ' if g.constant else ''}{symbol_text(g.name)}"
    if g.alignment:
        text += f" alignment = {g.alignment}"
    text += f" {dense_text(g.value)} : {g.value.type}"
    if locs is not None:
        text += " " + locs.mark(UNKNOWN)
    return text + "\n"


def render(module: Module, *, debug_info: bool = False, wrap: bool = False) -> str:
    """The text of ``module``: ``tileirdisasm``'s syntax with ``%argN`` / ``%N`` value names.

    ``debug_info`` adds ``loc(...)`` as ``tileirdisasm -g`` does; ``wrap`` puts the entries
    inside ``cuda_tile.module @<module.name> { ... }``, indented.
    Raises :class:`tileir.errors.VerifyError` for an operand used before it is defined.
    """
    locs = LocTable() if debug_info else None
    parts = [_global(g, locs) for g in module.globals]
    parts += [_function(fn, locs) for fn in module.functions]
    text = "".join(parts)
    if wrap:
        inner = "".join("  " + line + "\n" for line in text.splitlines())
        text = f"cuda_tile.module {symbol_text(module.name)} {{\n{inner}}}\n"
    if locs is not None:
        text = locs.finish(text)
    if module.producer is not None:
        text = f"// Producer: {module.producer}\n" + text
    return text
