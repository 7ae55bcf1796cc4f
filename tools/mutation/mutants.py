"""Single-point mutants of a Python module, made on its source text.

A mutant replaces one span of the source (an operator, a constant, a comparison, a whole
statement) and keeps every other character, so line numbers do not move and the diff is
the bug.  Kinds:

* ``arith``: ``+ -``, ``* /``, ``// %``, ``<< >>``, ``& |`` swapped;
* ``compare``: ``< <=``, ``> >=``, ``== !=``, ``is`` / ``is not``, ``in`` / ``not in``;
* ``logic``: ``and`` / ``or`` swapped, a ``not`` dropped;
* ``constant``: an integer ``n`` becomes ``n + 1`` (0 becomes 1), ``True`` / ``False`` swapped;
* ``statement``: a call statement, an ``assert``, a ``raise`` or an augmented assignment
  replaced by ``pass``.

Docstrings, ``__all__`` and type annotations are never mutated (a change there is no bug).

>>> src = "def f(a, b):\\n    return a + b < 3\\n"
>>> [(m.kind, m.line, m.replacement) for m in mutants_of(src)]
[('arith', 2, '-'), ('compare', 2, '<='), ('constant', 2, '4')]
>>> print(apply(src, mutants_of(src)[0]), end="")
def f(a, b):
    return a - b < 3
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterator

import attrs

__all__ = ["Mutant", "mutants_of", "apply", "diff_of"]

_ARITH = {
    ast.Add: "-",
    ast.Sub: "+",
    ast.Mult: "/",
    ast.Div: "*",
    ast.FloorDiv: "%",
    ast.Mod: "//",
    ast.LShift: ">>",
    ast.RShift: "<<",
    ast.BitAnd: "|",
    ast.BitOr: "&",
}
_ARITH_TEXT = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitAnd: "&",
    ast.BitOr: "|",
}
_COMPARE = {
    ast.Lt: ("<", "<="),
    ast.LtE: ("<=", "<"),
    ast.Gt: (">", ">="),
    ast.GtE: (">=", ">"),
    ast.Eq: ("==", "!="),
    ast.NotEq: ("!=", "=="),
}


@attrs.frozen
class Mutant:
    """One planted bug: replace ``start``..``end`` (offsets into the source) by
    ``replacement``."""

    kind: str
    line: int
    start: int
    end: int
    original: str
    replacement: str

    def describe(self) -> str:
        return f"line {self.line} ({self.kind}): `{self.original}` -> `{self.replacement}`"


def apply(source: str, mutant: Mutant) -> str:
    """``source`` with ``mutant`` planted."""
    return source[: mutant.start] + mutant.replacement + source[mutant.end :]


def diff_of(source: str, mutant: Mutant) -> str:
    """The mutant as a one-line-before / one-line-after diff of the line it changes."""
    lines = source.splitlines()
    before = lines[mutant.line - 1]
    after = apply(source, mutant).splitlines()[mutant.line - 1]
    return f"- {before.strip()}\n+ {after.strip()}"


class _Positions:
    """Offsets into the source text of ``(line, column)`` pairs as ``ast`` gives them: its
    columns count UTF-8 bytes, so a line with a non-ASCII character needs converting."""

    def __init__(self, source: str):
        self.lines = source.splitlines(keepends=True)
        self.starts, total = [], 0
        for line in self.lines:
            self.starts.append(total)
            total += len(line)

    def __call__(self, line: int, col: int) -> int:
        text = self.lines[line - 1]
        if text.isascii():
            return self.starts[line - 1] + col
        return self.starts[line - 1] + len(text.encode()[:col].decode())

    def start(self, node) -> int:
        return self(node.lineno, node.col_offset)

    def end(self, node) -> int:
        return self(node.end_lineno, node.end_col_offset)


def _skipped_nodes(tree: ast.AST) -> set[int]:
    """Nodes never mutated: docstrings, annotations, ``__all__``."""
    skip: set[int] = set()

    def drop(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            drop(body[0])
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            drop(node.returns)
            for a in node.args.args + node.args.kwonlyargs + node.args.posonlyargs:
                drop(a.annotation)
        if isinstance(node, ast.AnnAssign):
            drop(node.annotation)
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            drop(node)
    return skip


def _operator_span(source: str, at: _Positions, left: ast.AST, right: ast.AST, text: str):
    """Where the operator ``text`` stands between ``left`` and ``right``."""
    lo = at.end(left)
    hi = at.start(right)
    # the first token between the operands that spells the operator (parentheses aside)
    segment = source[lo:hi]
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(segment).readline))
    except (tokenize.TokenError, IndentationError):
        return None
    for tok in tokens:
        if tok.type == tokenize.OP and tok.string == text:
            line, col = tok.start
            offset = lo + sum(len(x) for x in segment.splitlines(keepends=True)[: line - 1]) + col
            return offset, offset + len(text)
    return None


def mutants_of(source: str) -> list[Mutant]:
    """Every single-point mutant of ``source``, in source order."""
    tree = ast.parse(source)
    at = _Positions(source)
    skip = _skipped_nodes(tree)
    out: list[Mutant] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        out.extend(_node_mutants(source, at, node))
    return sorted(out, key=lambda m: (m.start, m.kind))


def _node_mutants(source: str, at: _Positions, node: ast.AST) -> Iterator[Mutant]:
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
        span = _operator_span(source, at, node.left, node.right, _ARITH_TEXT[type(node.op)])
        if span:
            yield Mutant(
                "arith",
                node.lineno,
                span[0],
                span[1],
                _ARITH_TEXT[type(node.op)],
                _ARITH[type(node.op)],
            )
    elif isinstance(node, ast.Compare):
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            if type(op) in _COMPARE:
                text, new = _COMPARE[type(op)]
                span = _operator_span(source, at, left, right, text)
                if span:
                    yield Mutant("compare", node.lineno, span[0], span[1], text, new)
            elif isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
                lo = at.end(left)
                hi = at.start(right)
                text = source[lo:hi]
                swap = {
                    ast.Is: (" is ", " is not "),
                    ast.IsNot: (" is not ", " is "),
                    ast.In: (" in ", " not in "),
                    ast.NotIn: (" not in ", " in "),
                }
                old, new = swap[type(op)]
                if text == old:
                    yield Mutant("compare", node.lineno, lo, hi, old, new)
            left = right
    elif isinstance(node, ast.BoolOp) and len(node.values) == 2:
        text = "and" if isinstance(node.op, ast.And) else "or"
        a, b = node.values
        lo = at.end(a)
        hi = at.start(b)
        segment = source[lo:hi]
        k = segment.find(f" {text} ")
        if k >= 0:
            yield Mutant(
                "logic",
                node.lineno,
                lo + k + 1,
                lo + k + 1 + len(text),
                text,
                "or" if text == "and" else "and",
            )
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        lo = at.start(node)
        hi = lo + 3  # the keyword and the blanks after it (a parenthesis stays)
        while source[hi] in " \t":
            hi += 1
        yield Mutant("logic", node.lineno, lo, hi, source[lo:hi], "")
    elif isinstance(node, ast.Constant) and node.end_lineno == node.lineno:
        lo = at.start(node)
        hi = at.end(node)
        text = source[lo:hi]
        if isinstance(node.value, bool):
            yield Mutant("constant", node.lineno, lo, hi, text, str(not node.value))
        elif isinstance(node.value, int) and text.isdigit():
            yield Mutant("constant", node.lineno, lo, hi, text, str(node.value + 1))
    elif isinstance(node, (ast.Expr, ast.Assert, ast.Raise, ast.AugAssign)) and not (
        isinstance(node, ast.Expr) and not isinstance(node.value, ast.Call)
    ):
        lo = at.start(node)
        hi = at.end(node)
        text = source[lo:hi]
        # keep the line count: `pass` then the statement's other lines as blank lines
        yield Mutant(
            "statement",
            node.lineno,
            lo,
            hi,
            text.splitlines()[0],
            "pass" + "\n" * text.count("\n"),
        )
