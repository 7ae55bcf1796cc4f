"""find_uninitialized: reads of an Out, a marked argument or scratch memory before anything
wrote them (op, block, element, line); silent on every bundled kernel; the command line."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from tileir import (
    F32,
    In,
    Out,
    Shared,
    block_id,
    cells,
    load,
    load_cell,
    scratch,
    store,
    store_cell,
    trace,
)
from tileir.cli.main import main
from tileir.debug import find_uninitialized
from tileir.errors import UsageError
from tileir.kernels.registry import specs


def _line(fn, text: str) -> int:
    lines, first = inspect.getsourcelines(fn)
    hits = [first + i for i, line in enumerate(lines) if text in line]
    assert len(hits) == 1, (text, hits)
    return hits[0]


def _accumulate(x, out):
    t = yield load_cell(x)
    old = yield load_cell(out)  # planted: the Out is read before anything wrote it
    yield store_cell(out, old + t)


def _copy_then_read(x, out):
    t = yield load_cell(x)
    yield store_cell(out, t)
    again = yield load_cell(out)
    yield store_cell(out, again * 2.0)


def _shifted_read(x, buf):
    t = yield load_cell(x)
    yield store(buf, block_id(0) * 4, t)
    u = yield load(buf, block_id(0) * 4 + 1, shape=(4,))  # planted: the last reads 16
    yield store(buf, block_id(0) * 4 + 20, u)


def _scratch_early(x, out):
    t = yield load_cell(x)
    buf = yield scratch(F32, 8)
    yield store(buf, 0, t)
    u = yield load(buf, 2, shape=(4,))  # planted: elements 4 and 5 were never stored
    yield store_cell(out, u)


def _scratch_ok(x, out):
    t = yield load_cell(x)
    buf = yield scratch(F32, 8)
    yield store(buf, 4, t)
    yield store_cell(out, (yield load(buf, 4, shape=(4,))))


G8 = cells([8], [4])
X8 = np.arange(8, dtype=np.float32)


def test_an_out_read_before_the_kernel_writes_it_is_found():
    k = trace("accumulate", _accumulate, In(F32, G8), Out(F32, G8))
    (f,) = find_uninitialized(k, [X8, np.zeros(8, np.float32)])
    assert (f.kind, f.detail, f.op.name, f.block, f.element) == (
        "uninitialized",
        "unwritten-argument",
        "load_view_tko",
        (0, 0, 0),
        0,
    )
    assert f.line == _line(_accumulate, "old = yield load_cell(out)")
    assert f.count == 8 and "in 2 block(s)" in f.message
    assert "element 0 of argument 1 (Out f32) before anything wrote it" in f.message
    assert "old = yield load_cell(out)" in str(f)
    # the caller's contents count when the kernel means to read them back
    assert find_uninitialized(k, [X8, np.zeros(8, np.float32)], undefined=()) == []


def test_an_out_read_after_the_block_wrote_it_is_clean():
    k = trace("copy_read", _copy_then_read, In(F32, G8), Out(F32, G8))
    assert find_uninitialized(k, [X8, np.zeros(8, np.float32)]) == []


def test_one_unwritten_element_of_a_marked_buffer_is_named_exactly():
    k = trace("shifted_read", _shifted_read, In(F32, cells([16], [4])), Shared(F32))
    args = [np.arange(16, dtype=np.float32), np.zeros(40, np.float32)]
    # a Shared buffer is the caller's unless marked undefined
    assert find_uninitialized(k, args, grid=(4,)) == []
    (f,) = find_uninitialized(k, args, grid=(4,), undefined=[1])
    assert (f.detail, f.op.name, f.block, f.element, f.count) == (
        "unwritten-argument",
        "load_ptr_tko",
        (3, 0, 0),
        16,
        1,
    )
    assert f.line == _line(_shifted_read, "u = yield load(buf")


def test_scratch_read_before_its_store_is_found_per_block():
    k = trace("scratch_early", _scratch_early, In(F32, G8), Out(F32, G8))
    (f,) = find_uninitialized(k, [X8, np.zeros(8, np.float32)])
    assert (f.kind, f.detail, f.op.name, f.block, f.element) == (
        "uninitialized",
        "alloca",
        "load_ptr_tko",
        (0, 0, 0),
        4,
    )
    assert f.line == _line(_scratch_early, "u = yield load(buf, 2")
    assert f.count == 4 and "in 2 block(s)" in f.message  # elements 4, 5 of each block
    assert "reads element 4 of the block's scratch alloca%" in f.message
    ok = trace("scratch_ok", _scratch_ok, In(F32, G8), Out(F32, G8))
    assert find_uninitialized(ok, [X8, np.zeros(8, np.float32)]) == []


def test_a_scratch_buffer_starts_afresh_each_time_its_alloca_runs():
    from tileir import for_range

    def trip(k, acc):
        buf = yield scratch(F32, 4)
        u = yield load(buf, 0, shape=(4,))  # each trip's scratch is a fresh one
        yield store(buf, 0, acc)
        return acc + u

    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, (yield for_range(0, 2, trip, init=t)))

    k = trace("scratch_loop", body, In(F32, G8), Out(F32, G8))
    (f,) = find_uninitialized(k, [X8, np.zeros(8, np.float32)])
    assert f.detail == "alloca" and f.count == 16  # 4 lanes x 2 blocks x 2 trips


def test_bad_undefined_arguments_are_refused_by_name():
    k = trace("accumulate", _accumulate, In(F32, G8), Out(F32, G8))
    with pytest.raises(UsageError, match=r"undefined=\[5\] names argument 5"):
        find_uninitialized(k, [X8, np.zeros(8, np.float32)], undefined=[5])


@pytest.mark.slow
def test_every_bundled_kernel_is_silent():
    for spec in specs():
        args, grid = spec.inputs(np.random.default_rng(0))
        assert find_uninitialized(spec.kernel(), args, grid) == [], spec.name


def test_trace_find_uninitialized_on_the_command_line(tmp_path, capsys):
    src = tmp_path / "acc.py"
    src.write_text(
        "import numpy as np\n"
        "from tileir import F32, In, Out, cells, load_cell, store_cell, trace\n"
        "from tileir.kernels.registry import KernelSpec\n"
        "def acc(x, out):\n"
        "    old = yield load_cell(out)\n"
        "    yield store_cell(out, old + (yield load_cell(x)))\n"
        "G = cells([8], [4])\n"
        "SPEC = KernelSpec('acc', lambda: trace('acc', acc, In(F32, G), Out(F32, G)),"
        " lambda a: a, lambda rng: ([np.ones(8, np.float32), np.zeros(8, np.float32)], None))\n"
    )
    code = main(["trace", f"{src}:SPEC", "--find", "uninitialized", "--limit", "1"])
    out = capsys.readouterr().out
    assert code == 1
    assert "uninitialized: 1 finding(s)" in out
    assert "uninitialized (unwritten-argument): kernel `acc`, `load_view_tko` at acc.py:5" in out


def test_masked_lanes_without_padding_that_reach_a_store_are_found_on_a_bare_module():
    from support.undefined_lanes import masked_copy

    m = masked_copy()
    args = [np.arange(8, dtype=np.float32), np.zeros(8, np.float32)]
    (f,) = find_uninitialized(m, args, grid=(1,))
    assert (f.detail, f.op.name, f.block, f.element) == (
        "undefined-lanes",
        "load_ptr_tko",
        (0, 0, 0),
        (3,),
    )
    assert "2 lane(s) of the loaded tile are masked off in a pointer load with no padding" in (
        f.message
    )
    assert f.related[0].op.name == "store_ptr_tko" and "element 3 of argument 1" in f.message
    assert find_uninitialized(m, args, grid=(1,), lanes=False) == []
