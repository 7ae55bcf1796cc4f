"""The package's layout keeps its promises: imports run one way, no cycles, few loose modules.

The import graph is read from the source (``ast``), imports inside functions included,
so a cycle cannot hide behind a function-level import; ``if TYPE_CHECKING:`` blocks are
left out (they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "tileir"

#: The stages, lowest first: a unit may import only the units before it (and itself).
#: Units on one line do not import each other.
LAYERS: list[tuple[str, ...]] = [
    ("errors", "formats", "_lazy"),
    ("types",),
    ("ir",),
    ("shape_rules",),
    ("record",),
    ("ops", "lower", "host", "text", "verify", "encode"),
    ("lib",),  # pure tile functions over the ops
    ("kernel",),
    ("compose",),  # kernel combinators and transforms over recorded kernels
    ("__init__",),
    ("fake",),
    ("real",),
    ("debug",),  # testing explains a failed check with the finders
    ("kernels", "testing"),
    ("cli",),
    ("__main__",),
]


def _modules() -> dict[str, Path]:
    mods = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = path
    return mods


MODULES = _modules()


def _type_checking_nodes(tree: ast.AST) -> set:
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    return skip


def _imports(module: str, path: Path):
    """(line, imported tileir module, inside a function?) for each import of ``module``."""
    tree = ast.parse(path.read_text())
    skip = _type_checking_nodes(tree)
    in_function = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            in_function.update(id(n) for n in ast.walk(fn))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if id(node) in skip or not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        targets = set()
        if isinstance(node, ast.Import):
            targets = {a.name for a in node.names if a.name in MODULES}
        else:
            base = node.module or ""
            if node.level:
                here = module.split(".")[: None if is_package else -1]
                here = here[: len(here) - (node.level - 1)]
                base = ".".join(here + ([node.module] if node.module else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                targets.add(sub if sub in MODULES else base)
        for t in targets:
            if t in MODULES:
                yield node.lineno, t, id(node) in in_function


def _ancestors(module: str) -> set:
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def _graph() -> dict[str, set]:
    """module -> the modules importing it runs.  Importing ``a.b.c`` runs ``a.b``'s
    ``__init__`` first, unless the importer sits inside ``a.b`` (then it is running
    already); the root package is always running first."""
    edges: dict[str, set] = {m: set() for m in MODULES}
    for m, path in MODULES.items():
        for _line, target, _inner in _imports(m, path):
            for t in ({target} | _ancestors(target)) - _ancestors(m) - {m, "tileir"}:
                edges[m].add(t)
    return edges


def _cycles(edges: dict[str, set]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_no_import_cycle_among_tileirs_modules():
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    # the test above can fail: a two-module cycle and a three-module one are found
    edges = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert sorted(_cycles(edges)) == [["a", "b"], ["c", "d", "e"]]


def test_imports_run_one_way_between_the_stages():
    rank = {u: i for i, layer in enumerate(LAYERS) for u in layer}
    units = {_unit(m) for m in MODULES}
    assert units <= set(rank), f"stages missing from LAYERS: {sorted(units - set(rank))}"
    wrong = []
    for m, path in MODULES.items():
        for line, target, _inner in _imports(m, path):
            src, dst = _unit(m), _unit(target)
            if src != dst and rank[dst] >= rank[src]:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {src} imports {dst}")
    assert not wrong, "\n".join(wrong)


def test_an_import_inside_a_function_says_why():
    # only for an optional dependency or a start-up cost, with a `lazy:` comment saying which
    unexplained = []
    for m, path in MODULES.items():
        lines = path.read_text().splitlines()
        for line, _target, inner in _imports(m, path):
            if not inner:
                continue
            context = " ".join(lines[max(0, line - 4) : line])
            if "lazy:" not in context:
                unexplained.append(f"{path.relative_to(PACKAGE.parent)}:{line}")
    assert not unexplained, unexplained


def test_few_loose_modules_at_the_package_root():
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(loose) <= 10, loose


@pytest.mark.parametrize(
    "name",
    [
        "tileir",
        "tileir.fake",
        "tileir.testing",
        "tileir.debug",
        "tileir.ops",
        "tileir.types",
        "tileir.shape_rules",
        "tileir.encode",
        "tileir.real",
        "tileir.lib",
        "tileir.compose",
    ],
)
def test_public_imports_keep_working(name):
    import importlib

    assert importlib.import_module(name).__all__
