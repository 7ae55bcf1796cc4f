"""Each finder of tileir.debug catches a planted bug and stays quiet on the fixed kernel."""

from __future__ import annotations

import numpy as np
import pytest

from support.debug_kernels import CHAPTER, DEBUG_KERNELS, adds_floats_atomically
from tileir import (
    F64,
    FREE_AXIS,
    In,
    Out,
    Shared,
    atomic_add,
    block_id,
    cells,
    exp,
    for_range,
    iota,
    load,
    load_at,
    load_cell,
    log,
    mma,
    reduce_max,
    reduce_sum,
    store,
    store_cell,
    trace,
    zeros,
)
from tileir.debug import (
    find_nonfinite,
    find_out_of_bounds,
    find_padding_leaks,
    find_races,
    trace_kernel,
)
from tileir.debug.launching import prepare
from tileir.debug.nonfinite import NONFINITE_RULES
from tileir.debug.opkinds import OP_KINDS
from tileir.debug.runner import run as debug_run
from tileir.debug.taint import TAINT_RULES
from tileir.ir.dialect import BODY_OPS
from tileir.kernels.registry import specs

G8 = cells([8], [4])


def _line_of(fn, text: str) -> int:
    import inspect

    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


# ----------------------------------------------------------------------------- rule tables


@pytest.mark.parametrize(
    "table", [OP_KINDS, TAINT_RULES, NONFINITE_RULES], ids=["kinds", "taint", "nonfinite"]
)
def test_tables_cover_every_body_op(table):
    assert set(table) == set(BODY_OPS)


# ----------------------------------------------------------------------------- NaN sources


def log_of_shifted(x, out):
    t = yield load_cell(x)
    y = log(t - 1.0)  # t < 1 makes a negative argument: NaN
    yield store_cell(out, y * 2.0)


def log_of_shifted_fixed(x, out):
    t = yield load_cell(x)
    y = log(t + 1.0)
    yield store_cell(out, y * 2.0)


def centred_ratio(x, out):
    t = yield load_cell(x)
    d = t - reduce_max(t)  # zero at the maximum
    yield store_cell(out, d / d)


def centred_ratio_fixed(x, out):
    t = yield load_cell(x)
    d = t - reduce_max(t)
    yield store_cell(out, d / (d - 1.0))


def overflow(x, out):
    t = yield load_cell(x)
    yield store_cell(out, exp(t * 1000.0))


def test_nonfinite_finds_the_log_of_a_negative_value():
    k = trace("log_shift", log_of_shifted, In(F64, G8), Out(F64, G8))
    x = np.linspace(0.0, 3.0, 8)
    found = find_nonfinite(k, [x, np.zeros(8)])
    assert len(found) == 1
    f = found[0]
    assert (f.kind, f.detail, f.op.name) == ("nonfinite", "nan", "log")
    assert f.line == _line_of(log_of_shifted, "y = log(t - 1.0)")
    assert f.block == (0, 0, 0) and f.element == (0,)
    assert "log(-1) = nan" in f.message and "3 lane(s)" in f.message
    assert "log %" in f.text
    # the mulf after it only propagates the NaN: not reported
    fixed = trace("log_shift_ok", log_of_shifted_fixed, In(F64, G8), Out(F64, G8))
    assert find_nonfinite(fixed, [x, np.zeros(8)]) == []


def test_nonfinite_finds_zero_over_zero_after_a_subtraction():
    k = trace("ratio", centred_ratio, In(F64, G8), Out(F64, G8))
    x = np.array([0.5, 2.0, 1.0, 0.0, 3.0, 1.0, 9.0, 4.0])
    found = find_nonfinite(k, [x, np.zeros(8)])
    assert [f.op.name for f in found] == ["divf"]
    f = found[0]
    assert f.detail == "nan" and f.line == _line_of(centred_ratio, "d / d")
    assert f.block == (0, 0, 0) and f.element == (1,)  # the maximum of block 0 is lane 1
    assert "divf(0, 0) = nan" in f.message and "2 block(s)" in f.message
    fixed = trace("ratio_ok", centred_ratio_fixed, In(F64, G8), Out(F64, G8))
    assert find_nonfinite(fixed, [x, np.zeros(8)]) == []


def test_nonfinite_finds_an_overflow_and_accepts_a_trace():
    k = trace("overflow", overflow, In(F64, G8), Out(F64, G8))
    x = np.array([0.1, 0.2, 0.9, 0.4, 0.5, 0.6, 0.7, 0.8])  # exp overflows past 709.78
    t = trace_kernel(k, [x, np.zeros(8)])
    found = find_nonfinite(t)
    assert [(f.op.name, f.detail, f.block, f.element) for f in found] == [
        ("exp", "inf", (0, 0, 0), (2,))
    ]
    assert "exp(900) = inf" in found[0].message and "2 block(s)" in found[0].message


# ----------------------------------------------------------------------------- padding


def softmax(x, out):
    t = yield load_cell(x)
    e = exp(t - reduce_max(t))
    yield store_cell(out, e / reduce_sum(e))


def _softmax(pad: str):
    return trace(
        f"softmax_{pad}", softmax, In(F64, cells([3], [4], pad=pad)), Out(F64, cells([3], [4]))
    )


@pytest.mark.parametrize("xs", [[1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]])
def test_padding_leak_of_a_zero_padded_softmax(xs):
    found = find_padding_leaks(_softmax("zero"), [np.array(xs), np.zeros(3)])
    assert len(found) == 1
    f = found[0]
    assert (f.kind, f.detail, f.op.name) == ("padding-leak", "zero", "load_view_tko")
    assert f.line == _line_of(softmax, "t = yield load_cell(x)")
    assert f.block == (0, 0, 0) and f.element == (3,)  # the lane past the extent
    (reach,) = f.related
    assert reach.op.name == "store_view_tko" and "element 0 of argument 1 (Out)" in reach.detail
    assert "3 written element(s)" in f.message
    # the leak goes through a reduction whose result the padding changed
    assert any(h.startswith("reduce@") and "changed" in h for h in f.path)
    assert f.path[0].startswith("load_view_tko@") and f.path[-1].startswith("store_view_tko@")


@pytest.mark.parametrize("xs", [[1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]])
def test_no_padding_leak_with_neg_inf_padding(xs):
    assert find_padding_leaks(_softmax("neg_inf"), [np.array(xs), np.zeros(3)]) == []


def _matmul_k_padded(pad: str):
    def mm(a, b, c):
        def step(k, acc):
            ta = yield load_at(a, [k])
            tb = yield load_at(b, [k])
            return mma(ta, tb, acc)

        acc = yield for_range(0, 3, step, init=zeros(c))
        yield store_cell(c, acc)

    return trace(
        f"mm_{pad}",
        mm,
        In(F64, cells([32, 40], [16, 16], [0, FREE_AXIS], pad)),
        In(F64, cells([40, 32], [16, 16], [FREE_AXIS, 1])),
        Out(F64, cells([32, 32], [16, 16])),
    )


def test_padding_along_k_is_neutral_for_zero_and_leaks_for_inf():
    rng = np.random.default_rng(0)
    args = [rng.normal(size=32 * 40), rng.normal(size=40 * 32), np.zeros(32 * 32)]
    assert find_padding_leaks(_matmul_k_padded("zero"), args) == []
    found = find_padding_leaks(_matmul_k_padded("pos_inf"), args)
    assert found and found[0].op.name == "load_view_tko" and found[0].detail == "pos_inf"
    assert any(h.startswith("mmaf@") for h in found[0].path)


# ----------------------------------------------------------------------------- races


def _overlapping(step: int):
    def body(x, out):
        t = yield load_cell(x)
        yield store(out, block_id(0) * step, t)  # blocks 4 apart are disjoint; 2 apart overlap

    return trace(f"scatter{step}", body, In(F64, cells([16], [4])), Shared(F64)), body


def test_race_between_blocks_storing_overlapping_elements():
    k, body = _overlapping(2)
    found = find_races(k, [np.arange(16.0), np.zeros(16)], grid=(4,))
    assert len(found) == 1
    f = found[0]
    assert (f.kind, f.detail, f.op.name) == ("race", "write-write", "store_ptr_tko")
    assert f.line == _line_of(body, "yield store(out")
    assert f.block == (0, 0, 0) and f.element == 2
    assert f.related[0].block == (1, 0, 0)
    assert "depends on the schedule" in f.message and "6 element(s) conflict" in f.message
    fixed, _ = _overlapping(4)
    assert find_races(fixed, [np.arange(16.0), np.zeros(16)], grid=(4,)) == []


def neighbour(x, out):
    t = yield load(out, (block_id(0) + 1) * 4 % 16, [4])
    yield store(out, block_id(0) * 4, t + 1.0)


def test_race_between_a_read_and_another_blocks_write():
    k = trace("neighbour", neighbour, In(F64, cells([16], [4])), Shared(F64))
    found = find_races(k, [np.arange(16.0), np.zeros(16)], grid=(4,))
    assert [f.detail for f in found] == ["read-write"]
    f = found[0]
    assert f.op.name == "load_ptr_tko" and f.related[0].op.name == "store_ptr_tko"
    assert f.block != f.related[0].block


def store_then_count(x, out):
    t = yield load_cell(x)
    yield store(out, block_id(0) * 100, t)  # block 0 stores to 0..3, block 1 to 100..103
    yield atomic_add(out, iota(4), t)  # every block adds into 0..3


def test_race_between_a_store_and_another_blocks_atomics():
    k = trace("store_count", store_then_count, In(F64, G8), Shared(F64))
    found = find_races(k, [np.arange(8.0), np.zeros(200)], grid=(2,))
    assert [(f.detail, f.op.name, f.related[0].op.name) for f in found] == [
        ("write-atomic", "store_ptr_tko", "atomic_rmw_tko")
    ]
    assert found[0].block == (0, 0, 0) and found[0].related[0].block == (1, 0, 0)


# ----------------------------------------------------------------------------- bounds


def _shifted_store(extra: int):
    def body(x, out):
        t = yield load_cell(x)
        yield store(out, block_id(0) * 4 + extra, t)

    return trace(f"shifted{extra}", body, In(F64, cells([16], [4])), Shared(F64)), body


def test_out_of_bounds_shared_store_is_a_finding_not_a_crash():
    k, body = _shifted_store(3)
    found = find_out_of_bounds(k, [np.arange(16.0), np.zeros(16)], grid=(4,))
    assert len(found) == 1
    f = found[0]
    assert (f.kind, f.detail, f.op.name) == ("out-of-bounds", "pointer", "store_ptr_tko")
    assert f.line == _line_of(body, "yield store(out")
    assert f.block == (3, 0, 0) and f.element == 16
    assert "argument 1 (Shared, 16 element(s)), past its last element 15" in f.message
    assert "tile lane (1,)" in f.message and "3 lane(s)" in f.message
    fixed, _ = _shifted_store(0)
    assert find_out_of_bounds(fixed, [np.arange(16.0), np.zeros(16)], grid=(4,)) == []


def _wrong_base(gap: int):
    def body(x, a, b):
        t = yield load_cell(x)
        yield store(a, block_id(0) * 4 + gap, t)  # meant for b, written through a

    return trace("wrong_base", body, In(F64, cells([16], [4])), Shared(F64), Shared(F64))


def test_near_miss_into_another_argument_buffer():
    args = [np.arange(16.0), np.zeros(16), np.zeros(16)]
    # how far argument 2's buffer lies from argument 1's in the fake address space
    prep = prepare(_wrong_base(0), args, grid=(4,))
    memory = debug_run(prep.module, prep.entry, prep.args, prep.grid).memory
    bases = {s.key: s.base for s in memory.segments}
    gap = (bases[2] - bases[1]) // 8
    found = find_out_of_bounds(_wrong_base(gap), args, grid=(4,))
    assert [(f.detail, f.op.name) for f in found] == [("other-buffer", "store_ptr_tko")]
    assert "made from argument 1 (Shared)" in found[0].message
    assert "lands on element 0 of argument 2 (Shared)" in found[0].message
    assert find_out_of_bounds(_wrong_base(0), args, grid=(4,)) == []


# ----------------------------------------------------------------------------- bundled kernels


@pytest.mark.parametrize("name", DEBUG_KERNELS)
def test_bundled_kernels_have_no_findings(name):
    """No bundled kernel races or reaches out of bounds; the chapter's also make no NaN from
    finite inputs and leak no padding (library kernels may do both on purpose: a division
    family divides by drawn zeros, a padding family stores what each padding reads)."""
    spec = next(s for s in specs() if s.name == name)
    kernel = spec.kernel()
    args, grid = spec.inputs(np.random.default_rng(0))
    if name in CHAPTER:
        t = trace_kernel(kernel, args, grid)
        assert find_nonfinite(t) == []
        assert find_padding_leaks(t) == []
    if not adds_floats_atomically(kernel):
        assert find_races(kernel, args, grid) == []
    assert find_out_of_bounds(kernel, args, grid) == []
