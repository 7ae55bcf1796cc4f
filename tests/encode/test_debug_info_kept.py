"""Debug information survives decoding and encoding, from any producer; tileir writes its own
helpers' subprograms and call sites.

cuTile Python 1.7.0 records each kernel's subprogram at the decorator's line and, for every
helper function it inlines, a subprogram of its own and ``callsite(op at call)`` locations
(tests/support/cutile_kernels.py has kernels with helpers).  Decoding keeps all of it
(:class:`~tileir.ir.module.Subprogram`, ``Loc.caller``), encoding writes it back, so
``tileirdisasm -g`` prints a round trip exactly as it prints the file; and tileir's own
recordings of a body that calls helpers carry the same structure.
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("cuda.tile")

from support import cutile_kernels  # noqa: E402
from support.cutile_kernels import cutile_bytes  # noqa: E402
from support.tools import needs_tools  # noqa: E402
from tileir import F32, In, Out, cells, load_cell, store_cell, trace  # noqa: E402
from tileir.encode import decode, encode  # noqa: E402
from tileir.ir.module import DIFile, LexicalBlock, Loc, Subprogram, walk  # noqa: E402

CASES = [(n, v) for n in ("helped", "scaled", "row_sums", "vadd") for v in ("13.1", "13.4")]
HERE = cutile_kernels.__file__


def _line_of(text: str) -> int:
    with open(HERE) as f:
        return 1 + next(i for i, line in enumerate(f) if text in line)


def _op_locs(module):
    return [op.loc for fn in module.functions for op in walk(fn.body)]


def test_decoding_keeps_every_subprogram_and_call_site():
    m = decode(cutile_bytes("helped"))
    fn = m.functions[0]
    # the entry's subprogram: cuTile records the decorator's line, the function sits at its def
    entry = fn.loc.scope
    assert isinstance(entry, Subprogram) and entry.name == entry.linkage == "helped"
    assert entry.line == entry.scope_line == _line_of("def helped(a, c):") - 1  # @ct.kernel
    assert fn.loc.line == _line_of("def helped(a, c):")
    assert entry.file == DIFile(os.path.basename(HERE), os.path.dirname(HERE))
    subs = {loc.scope.name: loc.scope for loc in _op_locs(m) if loc is not None}
    assert set(subs) == {"helped", "_shifted", "_twice_plus_one"}
    assert subs["_twice_plus_one"].line == _line_of("def _twice_plus_one(x):")
    assert subs["_twice_plus_one"].linkage != "_twice_plus_one"  # cuTile's own linkage name
    # an op of the innermost helper: called in _shifted, which the kernel called
    fma = next(op for op in walk(fn.body) if op.name == "fma")
    assert fma.loc.scope.name == "_twice_plus_one" and fma.loc.function == "_twice_plus_one"
    assert fma.loc.line == _line_of("return x * 2.0 + 1.0")
    assert [(c.function, c.line) for c in fma.loc.callers()] == [
        ("_shifted", _line_of("return _twice_plus_one(x) - 3.0")),
        ("helped", _line_of("tile=_shifted(x)")),
    ]


@pytest.mark.parametrize("name,version", CASES, ids=[f"{n}-{v}" for n, v in CASES])
def test_a_round_trip_keeps_every_location(name, version):
    theirs = decode(cutile_bytes(name, version))
    again = decode(encode(theirs, debug_info=True))
    assert _op_locs(again) == _op_locs(theirs)
    assert [f.loc for f in again.functions] == [f.loc for f in theirs.functions]


@needs_tools
@pytest.mark.parametrize("name,version", CASES, ids=[f"{n}-{v}" for n, v in CASES])
def test_tileirdisasm_g_of_a_round_trip_equals_the_original(name, version):
    from tileir.real.tileiras import disassemble
    from tileir.text.compare import normalize_ssa
    from tileir.text.render import render

    blob = cutile_bytes(name, version)
    want = disassemble(blob, debug_info=True)
    assert "callsite(" in want or name not in ("helped", "scaled")
    assert disassemble(encode(decode(blob), debug_info=True), debug_info=True) == want
    # and tileir's renderer prints the decoded file as tileirdisasm -g does
    assert normalize_ssa(render(decode(blob), debug_info=True)) == normalize_ssa(want)


def _twice(t):
    return t * 2.0 + 1.0


def _shifted(t):
    return _twice(t) - 3.0


def _load_shifted(x):
    t = yield load_cell(x)
    return _shifted(t)


def _body(x, out):
    t = yield from _load_shifted(x)
    yield store_cell(out, t + 0.5)


def _own():
    g = cells([64], [16])
    return trace("own_helpers", _body, In(F32, g), Out(F32, g))


def test_tileirs_own_helpers_get_subprograms_and_call_sites():
    k = _own()
    ops = list(walk(k.function.body))
    sub = next(op for op in ops if op.name == "subf")
    assert sub.loc.scope.name == "_shifted" and sub.loc.scope.line == _own_line("def _shifted")
    assert sub.loc.caller is not None and sub.loc.caller.line == _own_line("return _shifted(t)")
    assert sub.loc.caller.scope.name == "_load_shifted"
    # the body's own line keeps the entry's scope (None: the function's subprogram)
    assert sub.loc.callers()[-1].line == _own_line("t = yield from _load_shifted(x)")
    assert sub.loc.callers()[-1].scope is None
    store = next(op for op in ops if op.name == "store_view_tko")
    assert store.loc.scope is None and store.loc.caller is None
    # two calls of one helper from different lines are told apart
    mul = next(op for op in ops if op.name == "mulf")
    assert [c.function for c in mul.loc.callers()] == ["_shifted", "_load_shifted", "_body"]
    # and the round trip through bytecode keeps them
    again = decode(encode(k.module, debug_info=True))
    back = [op.loc for op in walk(again.functions[0].body)]
    assert [(x.line, [c.line for c in x.callers()]) for x in back if x is not None] == [
        (x.line, [c.line for c in x.callers()]) for x in (op.loc for op in ops) if x is not None
    ]


def _own_line(text: str) -> int:
    with open(__file__) as f:
        return 1 + next(i for i, line in enumerate(f) if line.lstrip().startswith(text))


@needs_tools
def test_tileirdisasm_g_shows_where_tileirs_helpers_were_called_from():
    from tileir.real.tileiras import assemble, disassemble
    from tileir.text.compare import normalize_ssa
    from tileir.text.render import render

    k = _own()
    blob = encode(k.module, debug_info=True)
    text = disassemble(blob, debug_info=True)
    assert 'name = "_shifted"' in text and "callsite(" in text
    assert f'loc("{__file__}":{_own_line("return _shifted(t)")}:' in text
    assert normalize_ssa(render(k.module, debug_info=True)) == normalize_ssa(text)
    assert assemble(blob, "sm_90", lineinfo=True, kernel=k.name)  # tileiras takes it


@needs_tools
def test_a_lexical_block_and_a_nested_call_are_written_and_printed_as_tileirdisasm_does():
    from tileir.real.tileiras import disassemble
    from tileir.text.compare import normalize_ssa
    from tileir.text.render import render

    k = _own()
    fn = k.function
    file = DIFile("lex.py", "/src")
    sub = Subprogram(file, 3, "own_helpers", "own_helpers", file, 4)
    block = LexicalBlock(LexicalBlock(sub, file, 5, 6), file, 7, 8)
    at = Loc("/src/lex.py", 9, 2, "own_helpers", block)
    helper = Subprogram(file, 20, "h", "h_linkage", DIFile("unit.py", "/u"), 21)
    called = Loc("/src/lex.py", 22, 3, "h", helper, caller=at)
    ops = list(walk(fn.body))
    locs = {id(op): (called if op.name == "mulf" else at) for op in ops}
    import attrs

    def relocate(block_):
        return attrs.evolve(
            block_,
            ops=tuple(
                attrs.evolve(
                    op,
                    loc=locs[id(op)],
                    regions=tuple(relocate(b) for b in op.regions),
                )
                for op in block_.ops
            ),
        )

    fn2 = attrs.evolve(
        fn, body=relocate(fn.body), loc=Loc("/src/lex.py", 3, 1, "own_helpers", sub)
    )
    m = attrs.evolve(k.module, functions=(fn2,))
    blob = encode(m, debug_info=True)
    text = disassemble(blob, debug_info=True)
    assert "di_lexical_block<scope = #di_lexical_block" in text
    assert normalize_ssa(render(m, debug_info=True)) == normalize_ssa(text)
    assert decode(blob).functions[0].body.ops[0].loc == at


def test_the_source_page_says_where_a_helper_was_called_from():
    import re

    from tileir import debug

    k = _own()
    sections = {s.function: s for s in debug.source_map(k).sections}
    assert sections["_body"].called_from == ()
    assert sections["_shifted"].called_from == ((__file__, _own_line("return _shifted(t)")),)
    assert sections["_twice"].called_from == ((__file__, _own_line("return _twice(t) - 3.0")),)
    titles = re.findall("<h2>(.*?)</h2>", debug.explain_html(k))
    base = os.path.basename(__file__)
    assert f"_load_shifted() in {base} · called from {base}:{_own_line('t = yield from')}" in (
        titles
    )
