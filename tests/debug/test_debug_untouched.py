"""find_untouched: In elements no block reads and Out elements no block writes, by buffer
and range, with the nearest access; silent on every bundled kernel."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from tileir import F32, FREE_AXIS, In, Out, block_id, cells, load_at, load_cell, store_cell, trace
from tileir.cli.main import main
from tileir.debug import find_untouched
from tileir.debug.untouched import untouched_ranges
from tileir.kernels.registry import specs

#: The bundled kernels that read only some of an In, on purpose: each reads a FREE_AXIS
#: input whose cells it picks (a gather by row indices, windows that skip cells, a loop
#: of step 2, loops bounded by a Scalar or stopping at a first hit).
LEAVE_IN_ELEMENTS_UNREAD = {
    "gather_rows_f32",
    "gather_rows_f16",
    "window_128_step64",
    "window_64_step128",
    "loop_first_hit_f32",
    "loop_first_hit_i32",
    "for_step2_sum",
    "for_scalar_bound",
    "for_scalar_bound_unsigned",
}


def _copy(x, out):
    t = yield load_cell(x)
    yield store_cell(out, t)


def test_an_out_one_short_of_its_data_is_found_with_its_range_and_store():
    k = trace("copy", _copy, In(F32, cells([300], [64])), Out(F32, cells([299], [64])))
    xs = np.arange(300, dtype=np.float32)
    (found,) = find_untouched(k, [xs, np.zeros(300, np.float32)])
    assert (found.kind, found.detail, found.element, found.count) == (
        "untouched",
        "never-written",
        299,
        1,
    )
    assert "no block writes 1 of the 300 element(s) of argument 1 (Out f32): element(s) 299" in (
        found.message
    )
    assert "past the marker's extent [299] (299 element(s)) of a buffer of 300" in found.message
    assert "which writes element 298" in found.message
    assert found.op.name == "store_view_tko" and found.block == (4, 0, 0)
    lines, first = inspect.getsourcelines(_copy)
    assert found.line == first + 2  # the store_cell line


def test_an_in_one_short_is_found_and_the_fixed_kernel_is_silent():
    short = trace("copy", _copy, In(F32, cells([299], [64])), Out(F32, cells([299], [64])))
    xs = np.arange(300, dtype=np.float32)
    (found,) = find_untouched(short, [xs, np.zeros(299, np.float32)])
    assert found.detail == "never-read" and "no block reads 1 of the 300" in found.message
    assert "the nearest access is `load_view_tko`" in found.message
    right = trace("copy", _copy, In(F32, cells([300], [64])), Out(F32, cells([300], [64])))
    assert find_untouched(right, [xs, np.zeros(300, np.float32)]) == []


def _every_other_cell(x, out):
    t = yield load_at(x, [2 * block_id(0)])
    yield store_cell(out, t)


def test_a_free_axis_in_is_judged_only_when_strict_and_allow_silences_a_buffer():
    k = trace(
        "every_other",
        _every_other_cell,
        In(F32, cells([256], [32], along=[FREE_AXIS])),
        Out(F32, cells([128], [32])),
    )
    args = [np.arange(256, dtype=np.float32), np.zeros(128, np.float32)]
    assert find_untouched(k, args) == []  # the kernel picks which cells it reads
    (found,) = find_untouched(k, args, strict=True)
    assert found.count == 128 and "element(s) 32..63, 96..127, 160..191, 224..255" in (
        found.message
    )
    assert find_untouched(k, args, strict=True, allow=[0]) == []


def test_ranges_of_untouched_elements():
    assert untouched_ranges(np.ones(4, bool)) == []
    assert untouched_ranges(np.zeros(3, bool)) == [(0, 3)]
    assert untouched_ranges(np.array([False, True, False])) == [(0, 1), (2, 3)]


@pytest.mark.slow
def test_every_bundled_kernel_is_silent_and_the_ones_that_skip_on_purpose_are_known():
    skipping = set()
    for spec in specs():
        kernel = spec.kernel()
        args, grid = spec.inputs(np.random.default_rng(0))
        assert find_untouched(kernel, args, grid) == [], spec.name
        strict = find_untouched(kernel, args, grid, strict=True)
        assert all(f.detail == "never-read" for f in strict), spec.name
        if strict:
            skipping.add(spec.name)
    assert skipping == LEAVE_IN_ELEMENTS_UNREAD


def test_trace_find_untouched_on_the_command_line(tmp_path, capsys):
    src = tmp_path / "short.py"
    src.write_text(
        "import numpy as np\n"
        "from tileir import F32, In, Out, cells, load_cell, store_cell, trace\n"
        "from tileir.kernels.registry import KernelSpec\n"
        "def copy(x, out):\n"
        "    yield store_cell(out, (yield load_cell(x)))\n"
        "SPEC = KernelSpec('short_copy', lambda: trace('short_copy', copy,"
        " In(F32, cells([300], [64])), Out(F32, cells([299], [64]))), lambda a: a,"
        " lambda rng: ([rng.uniform(-1, 1, 300).astype(np.float32),"
        " np.zeros(300, np.float32)], None))\n"
    )
    code = main(["trace", f"{src}:SPEC", "--find", "untouched", "--limit", "2"])
    out = capsys.readouterr().out
    assert code == 1
    assert "untouched: 1 finding(s)" in out and "untouched (never-written)" in out
    assert "element(s) 299" in out
