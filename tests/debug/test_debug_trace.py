"""Tracing kernels on the fake device (tileir.debug): steps, values, texts, the CLI."""

from __future__ import annotations

import numpy as np
import pytest

from support.debug_kernels import DEBUG_KERNELS, adds_floats_atomically
from tileir import (
    F64,
    In,
    Out,
    Shared,
    block_id,
    cells,
    exp,
    for_range,
    load_cell,
    log,
    reduce_sum,
    store,
    store_cell,
    trace,
)
from tileir.debug import op_texts, trace_kernel
from tileir.debug.runner import run as debug_run
from tileir.debug.summary import describe
from tileir.fake.interpreter import interpret
from tileir.host.launch import ArgInfo, check_launch, entry_values
from tileir.ir.module import walk
from tileir.ir.signatures import attr_of
from tileir.kernels.common import ulp
from tileir.kernels.floatref import round_to
from tileir.kernels.registry import get
from tileir.text.render import render
from tileir.types import TOKEN, PointerType, TileType

_ARITH = {
    "addf": np.add,
    "subf": np.subtract,
    "mulf": np.multiply,
    "divf": np.divide,
    "maxf": np.maximum,
    "exp": np.exp,
    "addi": np.add,
    "muli": np.multiply,
    "andi": np.bitwise_and,
}


def _inputs(name, seed=0):
    spec = get(name)
    args, grid = spec.inputs(np.random.default_rng(seed))
    return spec, spec.kernel(), args, grid


def _entry_args(kernel, args, grid):
    infos = []
    for p, a in zip(kernel.params, args):
        if p.role == "Scalar":
            infos.append(ArgInfo(value=a, is_buffer=False))
        else:
            infos.append(ArgInfo(p.format, np.asarray(a).size, (id(a), id(a) + 1)))
    plan = check_launch(kernel, infos, grid)
    return entry_values(kernel, plan, list(args)), plan.grid


@pytest.mark.parametrize("name", DEBUG_KERNELS)
def test_debug_driver_agrees_with_interpret(name):
    _, kernel, args, grid = _inputs(name)
    values, g = _entry_args(kernel, args, grid)
    want = interpret(kernel.module, kernel.name, values, g)
    got = debug_run(kernel.module, kernel.name, values, g)
    assert got.error is None
    for w, o in zip(want, got.outputs):
        if isinstance(w, np.ndarray):
            assert np.array_equal(np.asarray(w), np.asarray(o), equal_nan=True)
    # many small batches, as the interpreter chunks a big grid
    chunked = debug_run(kernel.module, kernel.name, values, g, max_chunk_bytes=1)
    for w, o in zip(want, chunked.outputs):
        if isinstance(w, np.ndarray):
            assert np.array_equal(np.asarray(w), np.asarray(o), equal_nan=True)
    # one block at a time, in reverse order: a race-free kernel gives the same answer
    order = [(x, y, z) for z in range(g[2]) for y in range(g[1]) for x in range(g[0])][::-1]
    again = debug_run(kernel.module, kernel.name, values, g, order=order)
    for w, o in zip(want, again.outputs):
        if isinstance(w, np.ndarray):
            if adds_floats_atomically(kernel):  # sums round by the order blocks add in
                assert np.allclose(np.asarray(w, float), np.asarray(o, float), equal_nan=True)
            else:
                assert np.array_equal(np.asarray(w), np.asarray(o), equal_nan=True)


@pytest.mark.parametrize("name", DEBUG_KERNELS)
def test_op_texts_pair_every_op_with_its_rendered_line(name):
    kernel = get(name).kernel()
    texts = op_texts(kernel.module)
    lines = render(kernel.module).splitlines()
    ops = list(walk(kernel.function.body))
    assert len(texts.by_op) == len(ops)
    used = set()
    for op in ops:
        t = texts.of(op)
        if t.line == 0:  # a terminator the text implies
            assert op.name in ("continue", "yield") and not op.operands
            continue
        header = " ".join(line.strip() for line in lines[t.line - 1 : t.line - 1 + t.lines])
        assert header == t.text
        assert op.name in t.text and (t.lines == 1) == (
            not op.regions or op.name in ("for", "loop", "if")
        )
        assert t.line not in used
        used.add(t.line)


def test_trace_softmax_steps_values_and_locs():
    spec, kernel, args, grid = _inputs("softmax")
    t = trace_kernel(kernel, args, grid)
    assert t.error is None
    names = [s.op.name for s in t.steps]
    assert names[0] == "make_token" and names[-1] == "return"
    assert "maxf" not in names  # combiner ops are left out by default
    load = next(s for s in t.steps if s.op.name == "load_view_tko")
    x = np.asarray(args[0])
    assert np.array_equal(load.values[0][:3], x) and load.values[0][3] == -np.inf
    assert load.values[1] is None  # the token
    assert load.memory and load.memory[0].kind == "read"
    assert load.memory[0].mask.tolist() == [True, True, True, False]
    assert load.source == "t = yield load_cell(x)"
    assert load.loc.line == kernel.module.function("softmax").body.ops[5].loc.line
    store = next(s for s in t.steps if s.op.name == "store_view_tko")
    expected = spec.reference([a.copy() for a in args])[1]
    assert np.allclose(store.operands[0][:3], expected)
    assert np.allclose(t.outputs[1], expected)
    assert "load_view_tko" in load.text and load.line > 0


def test_trace_chosen_block_loop_visits_and_operands_recomputed():
    _, kernel, args, grid = _inputs("flash_attn")
    t = trace_kernel(kernel, args, grid, blocks=[(1, 0)])
    assert {s.block for s in t.steps} == {(1, 0, 0)}
    mmas = [s for s in t.steps if s.op.name == "mmaf"]
    assert sorted(s.visit for s in mmas) == [0, 0, 1, 1]  # two mmas, two trips each
    checked = 0
    for s in t.steps:
        fn = _ARITH.get(s.op.name)
        if fn is None:
            continue
        # loop-carried operands (m, l, acc) are rebuilt, never missing
        assert all(o is not None for o in s.operands), (s.index, s.text)
        want = fn(*[np.asarray(o) for o in s.operands])
        assert np.allclose(s.values[0], want, equal_nan=True), (s.index, s.text)
        checked += 1
    assert checked == 19  # 9 arithmetic ops a trip, two trips, and the final divide
    # the block's output rows agree with the reference for that block
    ref = get("flash_attn").reference(
        [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    )[3]
    assert np.allclose(t.outputs[3], ref)


_DIRECTED = ("zero", "negative_inf", "positive_inf")
#: Ops whose exact result float64 holds for operands of at most 24 significant bits.
_EXACT_IN_F64 = ("addf", "subf", "mulf")


def _rounding(op):
    try:
        return attr_of(op, "rounding")
    except KeyError:  # an op without a rounding attribute rounds nearest-even, if at all
        return None


def _recomputes(s) -> str:
    """Check one arithmetic step's result against numpy; answers how: "directed" (recomputed
    in float64 and rounded to the result's format in the op's rounding mode, compared
    exactly), "plain" (numpy in the operands' format, within rtol 1e-5) or "" (no rule)."""
    fn = _ARITH.get(s.op.name)
    if fn is None:
        return ""
    mode = _rounding(s.op)
    fmt = s.op.results[0].type.element
    operands = [np.asarray(o) for o in s.operands]
    if mode in _DIRECTED and s.op.name in _EXACT_IN_F64 and fmt.name != "f64":
        with np.errstate(all="ignore"):
            exact = fn(*[o.astype(np.float64) for o in operands])
        want = round_to(exact, fmt, mode)
        got = np.asarray(s.values[0]).astype(np.float64)
        assert np.array_equal(got, want, equal_nan=True), (s.index, s.text, mode)
        return "directed"
    with np.errstate(all="ignore"):
        want = fn(*operands)
    # a directed rounding this rule cannot redo exactly is within an ulp of nearest
    rtol = 2 * ulp(fmt) if mode in _DIRECTED else 1e-5
    assert np.allclose(s.values[0], want, rtol=rtol, equal_nan=True), (s.index, s.text)
    return "plain"


def _check_steps(name) -> list:
    """Trace kernel ``name``: every step's operands are known and every arithmetic step
    recomputes; answers how each arithmetic step was checked."""
    _, kernel, args, grid = _inputs(name)
    t = trace_kernel(kernel, args, grid)
    assert t.error is None and t.traced_blocks()
    how = []
    for s in t.steps:
        if s.op.name in ("yield", "return") or s.op.name.startswith("make_"):
            continue
        for v, o in zip(s.op.operands, s.operands):
            # only pointer parameters and tokens have no value to show
            pointer = isinstance(v.type, TileType) and isinstance(v.type.element, PointerType)
            assert o is not None or pointer or v.type == TOKEN, (s.index, s.text)
        checked = _recomputes(s)
        if checked:
            how.append(checked)
    return how


@pytest.mark.parametrize("name", DEBUG_KERNELS)
def test_every_step_operand_is_known_and_recomputes_the_result(name):
    _check_steps(name)


@pytest.mark.parametrize(
    "name",
    [
        "round_add_zero_f16",
        "round_sub_positive_inf_bf16",
        "round_mul_negative_inf_f16",
        "round_add_negative_inf_f32",
    ],
)
def test_directed_rounding_steps_recompute_exactly_in_their_mode(name):
    # one ulp of f16 (1e-3) is far outside the plain rule's rtol: only a recomputation in
    # the op's own rounding mode agrees bit for bit
    assert "directed" in _check_steps(name)


def test_trace_refuses_a_block_outside_the_grid():
    _, kernel, args, grid = _inputs("flash_attn")
    with pytest.raises(ValueError, match=r"block \(2, 0, 0\) is outside the grid \[2, 1, 1\]"):
        trace_kernel(kernel, args, grid, blocks=[2])


def test_trace_keeps_combiners_when_asked():
    _, kernel, args, grid = _inputs("softmax")
    t = trace_kernel(kernel, args, grid, combiners=True)
    comb = [s for s in t.steps if s.combiner]
    assert comb and {s.op.name for s in comb} >= {"maxf", "addf"}
    assert all(s.operands == () for s in comb)


def test_describe_summarises_long_tiles():
    a = np.arange(64, dtype=np.float64).reshape(8, 8)
    a[0, 1] = np.nan
    text = describe(a)
    assert text.startswith("[8x8] min 0 max 63 nan 1")
    assert "first [0, nan, 2, 3, ...]" in text
    assert describe(np.array([1.5, -2.0])) == "[2] [1.5, -2]"
    assert describe(np.array(3.0)) == "3"
    assert describe(None) == "token"


def _oob_kernel():
    def body(x, out):
        t = yield load_cell(x)
        yield store(out, block_id(0) * 4 + 2, t)

    return trace("oob", body, In(F64, cells([8], [4])), Shared(F64))


def test_trace_of_a_faulting_kernel_stops_with_the_fault():
    k = _oob_kernel()
    t = trace_kernel(k, [np.arange(8.0), np.zeros(8)], grid=(2,))
    assert t.error is not None and t.fault is not None
    assert t.fault.op.name == "store_ptr_tko" and t.fault.block == (1, 0, 0)
    assert "stopped:" in t.summary()
    assert t.steps[-1].op.name == "offset"  # the store itself never finished


def test_trace_summary_text():
    _, kernel, args, grid = _inputs("row_softmax")
    t = trace_kernel(kernel, args, grid, blocks=[3])
    text = t.summary(limit=100)
    assert "block (3, 0, 0)" in text
    assert "reduce" in text and "[32x64] min" in text
    assert "chapter.py:" in text


def _loop_kernel():
    def body(x, out):
        t = yield load_cell(x)

        def step(i, acc):
            return acc + log(t + 1.0)

        acc = yield for_range(0, 3, step, init=t * 0.0)
        yield store_cell(out, exp(acc) + reduce_sum(t))

    g = cells([8], [4])
    return trace("loop3", body, In(F64, g), Out(F64, g))


def test_trace_follows_loop_carried_values():
    k = _loop_kernel()
    x = np.linspace(0.0, 1.0, 8)
    t = trace_kernel(k, [x, np.zeros(8)], blocks=[(1,)])
    loop = next(op for op in walk(k.function.body) if op.name == "for")
    carried_id = loop.regions[0].args[1].id
    adds = [s for s in t.steps if s.op.name == "addf" and s.op.operands[0].id == carried_id]
    assert [s.visit for s in adds] == [0, 1, 2]
    carried = [np.asarray(s.operands[0]) for s in adds]
    lg = np.log(x[4:] + 1.0)
    for trip, c in enumerate(carried):
        assert np.allclose(c, trip * lg)  # the value carried into each trip
    induction = [s for s in t.steps if s.op.name == "for"]
    assert len(induction) == 1


def test_cli_trace_and_find(capsys, tmp_path):
    from tileir.cli.main import main

    assert main(["trace", "softmax", "--block", "0", "--limit", "6"]) == 0
    out = capsys.readouterr().out
    assert "trace of `softmax`" in out and "load_view_tko" in out
    src = tmp_path / "broken_kernels.py"
    src.write_text(
        "import numpy as np\n"
        "from tileir import F64, In, Out, cells, load_cell, store_cell, trace, exp, reduce_max,"
        " reduce_sum\n"
        "from tileir.kernels.registry import KernelSpec\n"
        "def softmax(x, out):\n"
        "    t = yield load_cell(x)\n"
        "    e = exp(t - reduce_max(t))\n"
        "    yield store_cell(out, e / reduce_sum(e))\n"
        "SPEC = KernelSpec('zero_pad_softmax', lambda: trace('zero_pad_softmax', softmax,"
        " In(F64, cells([3], [4])), Out(F64, cells([3], [4]))), lambda a: a,"
        " lambda rng: ([rng.uniform(-1, 1, 3), np.zeros(3)], None))\n"
    )
    code = main(["trace", f"{src}:SPEC", "--find", "padding", "--limit", "2"])
    out = capsys.readouterr().out
    assert code == 1
    assert "padding: 1 finding(s)" in out and "padding-leak (zero)" in out
