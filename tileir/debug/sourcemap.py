"""Pairing a kernel's Python source lines with the Tile IR ops they recorded.

Every op keeps ``op.loc``: the file, line and column of the user's code that
made it (the column is where the call or operator expression starts).  The
source shown is the kernel body's function and every other function an op
points into (helpers, nested loop bodies are inside the body already), found
with :mod:`ast` in the file.  For each line, the ops it recorded (in the
order the module holds them) are cut into *calls*: runs of ops made at the same
column, labelled with what starts there (``load_cell``, ``mma``, ``mul`` for a
``*``...).  In each call the *main* op is the last one that is not plumbing the
lowering adds (views, block ids, constants, broadcasts; see
``opkinds.PLUMBING``); a line's main op is that of its last call, the outermost
call of the line.
"""

from __future__ import annotations

import ast
import linecache
from typing import TYPE_CHECKING, Optional

import attrs

from tileir.debug.flow import Structure
from tileir.debug.opkinds import PLUMBING
from tileir.debug.optext import op_texts
from tileir.debug.summary import describe_values
from tileir.encode import encode
from tileir.ir.module import walk

if TYPE_CHECKING:
    from tileir.debug.tracer import Block3, Trace
    from tileir.kernel import Kernel

__all__ = ["OpRow", "Call", "SourceLine", "Section", "SourceMap", "source_map"]

_MAX_VISITS = 4

# the Python operator an arithmetic op comes from (ast node class names)
_OPERATOR_OF = {
    "addf": "Add",
    "addi": "Add",
    "subf": "Sub",
    "subi": "Sub",
    "mulf": "Mult",
    "muli": "Mult",
    "divf": "Div",
    "divi": "FloorDiv",
    "remf": "Mod",
    "remi": "Mod",
    "andi": "BitAnd",
    "ori": "BitOr",
    "xori": "BitXor",
    "shli": "LShift",
    "shri": "RShift",
    "negf": "USub",
    "negi": "USub",
    "fpowf": "Pow",
    "fpowi": "Pow",
    "cmpf": "Compare",
    "cmpi": "Compare",
    "select": "Compare",
}
_NAMES = {
    "Add": "add",
    "Sub": "sub",
    "Mult": "mul",
    "Div": "div",
    "FloorDiv": "floordiv",
    "Mod": "mod",
    "Pow": "pow",
    "BitAnd": "and",
    "BitOr": "or",
    "BitXor": "xor",
    "LShift": "shl",
    "RShift": "shr",
    "MatMult": "matmul",
    "USub": "neg",
    "UAdd": "pos",
    "Invert": "invert",
    "Not": "not",
    "Compare": "compare",
    "And": "and",
    "Or": "or",
}


@attrs.frozen(eq=False)
class OpRow:
    """One op as the page shows it: its Tile IR text and line number in the rendered
    module (0 for a terminator the text implies), whether it is its call's main op, and
    the traced values (one text per run of the op by the traced block)."""

    op: object
    text: str
    ir_line: int
    main: bool
    values: tuple = ()


@attrs.frozen(eq=False)
class Call:
    label: str
    column: int
    rows: tuple


@attrs.frozen(eq=False)
class SourceLine:
    number: int
    text: str
    calls: tuple = ()
    main: Optional[OpRow] = None

    @property
    def op_count(self) -> int:
        return sum(len(c.rows) for c in self.calls)


@attrs.frozen(eq=False)
class Section:
    """A function of the user's source: file, name and its lines; ``called_from`` lists
    where the kernel called it, when it is a helper (``(file, line)`` of each call site its
    ops' locations name, in order)."""

    file: str
    function: str
    lines: tuple
    called_from: tuple = ()


@attrs.frozen(eq=False)
class SourceMap:
    kernel: str
    sections: tuple
    unplaced: tuple
    op_count: int
    call_count: int
    ir_line_count: int
    byte_size: int
    ir_text: str
    block: Optional[tuple] = None


def _tree(file: str):
    lines = linecache.getlines(file)
    if not lines:
        return None
    try:
        return ast.parse("".join(lines))
    except (SyntaxError, ValueError):
        return None


def _functions(tree) -> list:
    if tree is None:
        return []
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _span(fn_node) -> tuple[int, int]:
    first = min([fn_node.lineno] + [d.lineno for d in fn_node.decorator_list])
    return first, fn_node.end_lineno or fn_node.lineno


def _sections(kernel_loc, locs: list) -> list:
    """(file, function, first, last) for the body and every function an op points into."""
    trees: dict = {}
    spans: list = []

    def covered(file, line):
        return any(f == file and a <= line <= b for f, _n, a, b in spans)

    def add_enclosing(file, line, exact_def=False):
        tree = trees.setdefault(file, _tree(file))
        best = None
        for fn in _functions(tree):
            a, b = _span(fn)
            if (fn.lineno == line) if exact_def else (a <= line <= b):
                if best is None or a >= _span(best)[0]:
                    best = fn
        if exact_def and best is not None:
            spans.append((file, best.name, *_span(best)))
            return
        if best is not None:
            # the outermost function around a nested one: show the whole helper
            outer = [
                fn
                for fn in _functions(tree)
                if _span(fn)[0] <= _span(best)[0]
                and _span(best)[1] <= _span(fn)[1]
                and fn.col_offset == 0
            ]
            chosen = outer[0] if outer else best
            spans.append((file, chosen.name, *_span(chosen)))
        else:
            spans.append((file, "", line, line))

    if kernel_loc is not None:
        add_enclosing(kernel_loc.file, kernel_loc.line, exact_def=True)
    for loc in locs:
        if not covered(loc.file, loc.line) and linecache.getline(loc.file, loc.line):
            add_enclosing(loc.file, loc.line)
    first = spans[:1]
    rest = sorted(spans[1:], key=lambda s: (s[0], s[2]))
    return first + rest


def _labels(file: str, trees: dict) -> dict:
    out: dict = {}
    tree = trees.setdefault(file, _tree(file))
    if tree is None:
        return out
    for node in ast.walk(tree):
        if isinstance(node, (ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp)):
            out.setdefault((node.lineno, node.col_offset + 1), []).append(node)
    return out


def _operator(node) -> str:
    if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.BoolOp)):
        return type(node.op).__name__
    return "Compare"


def _label(nodes: list, main_op) -> str:
    """What starts at an op's column: the operator its main op computes, else the call."""
    calls = [n for n in nodes if isinstance(n, ast.Call)]
    opers = [n for n in nodes if not isinstance(n, ast.Call)]
    want = _OPERATOR_OF.get(main_op.name) if main_op is not None else None
    match = [n for n in opers if _operator(n) == want]
    if match or (opers and not calls):
        return _NAMES.get(_operator((match or opers)[0]), "operator")
    if calls:
        f = calls[0].func
        return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "call")
    return main_op.name if main_op is not None else "?"


def _main(rows: list, combiner: set) -> Optional[int]:
    for i in range(len(rows) - 1, -1, -1):
        op = rows[i].op
        if op.name not in PLUMBING and id(op) not in combiner:
            return i
    return None


def _values(trace, block) -> dict:
    if trace is None or block is None:
        return {}
    out: dict = {}
    for s in trace.steps:
        if s.block == block and not s.combiner and s.values:
            text = describe_values(s.values, [r.type for r in s.op.results])
            if text == "token":
                continue
            got = out.setdefault(id(s.op), [])
            if len(got) <= _MAX_VISITS:
                got.append(text)
    return out


def source_map(
    kernel: Kernel, trace: Optional[Trace] = None, block: Optional[Block3] = None
) -> SourceMap:
    """The kernel's source lines, each with the ops it recorded (and, given a ``trace``,
    their values in ``block``, default the trace's first block)."""
    module = kernel.module
    fn = kernel.function
    texts = op_texts(module)
    if trace is not None and block is None:
        blocks = trace.traced_blocks()
        block = blocks[0] if blocks else None
    values = _values(trace, block)
    ops = list(walk(fn.body))
    structure = Structure(fn)
    by_line: dict = {}
    unplaced = []
    for op in ops:
        t = texts.of(op)
        shown = values.get(id(op), [])
        if len(shown) > _MAX_VISITS:
            shown = shown[:_MAX_VISITS] + ["…"]
        row = OpRow(op, t.text, t.line, False, tuple(shown))
        if op.loc is None or not linecache.getline(op.loc.file, op.loc.line):
            unplaced.append(row)
        else:
            by_line.setdefault((op.loc.file, op.loc.line), []).append(row)
    spans = _sections(getattr(kernel.program, "loc", None), [op.loc for op in ops if op.loc])
    trees: dict = {}
    sections, calls_total = [], 0
    for file, name, first, last in spans:
        labels = _labels(file, trees)
        lines = []
        for n in range(first, last + 1):
            text = linecache.getline(file, n).rstrip("\n")
            rows = by_line.get((file, n), [])
            calls: list[tuple[int, list]] = []
            for row in rows:
                col = row.op.loc.column
                if calls and calls[-1][0] == col:
                    calls[-1][1].append(row)
                else:
                    calls.append((col, [row]))
            made, line_main = [], None
            for col, group in calls:
                k = _main(group, structure.combiner)
                if k is not None:
                    group[k] = attrs.evolve(group[k], main=True)
                    line_main = group[k]
                made.append(
                    Call(
                        _label(labels.get((n, col), []), group[k if k is not None else 0].op),
                        col,
                        tuple(group),
                    )
                )
            if rows and line_main is None:
                made[0] = attrs.evolve(
                    made[0], rows=(attrs.evolve(made[0].rows[0], main=True),) + made[0].rows[1:]
                )
                line_main = made[0].rows[0]
            calls_total += len(made)
            lines.append(SourceLine(n, text, tuple(made), line_main))
        sites = {
            (op.loc.caller.file, op.loc.caller.line): None
            for op in ops
            if op.loc is not None
            and op.loc.caller is not None
            and op.loc.file == file
            and first <= op.loc.line <= last
        }
        sections.append(Section(file, name, tuple(lines), tuple(sorted(sites))))
    return SourceMap(
        kernel.name,
        tuple(sections),
        tuple(unplaced),
        len(ops),
        calls_total,
        texts.line_count,
        len(encode(module)),
        texts.text,
        block,
    )
