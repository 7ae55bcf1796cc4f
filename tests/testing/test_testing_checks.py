"""tileir.testing: check_kernel catches a user's mistakes with a shrunk example, its
strategies draw what the dialect allows, and the tileir_device fixture runs the fake
device always and reports the real one as skipped, with the reason, where there is none."""

from __future__ import annotations

import math
import os
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from tileir import (
    F16,
    F32,
    FREE_AXIS,
    I8,
    I32,
    In,
    Out,
    Shared,
    block_id,
    broadcast,
    cells,
    load_at,
    load_cell,
    num_blocks,
    reduce_sum,
    reshape,
    store_cell,
    trace,
)
from tileir.testing import (
    KernelMismatch,
    KernelNotRecorded,
    KernelRunFailed,
    as_pytest_plugins,
    buffers,
    cells_for,
    check_kernel,
    element_values,
    formats,
    inputs_for,
    markers_for,
    tile_shapes,
)
from tileir.types import MAX_TILE_ELEMENTS, PADDING_VALUES

pytest_plugins = as_pytest_plugins() + ["pytester"]

REPO = Path(__file__).resolve().parents[2]


def INTEGRAL(fmt):  # noqa: N802 - used like the strategy constants beside it
    return st.integers(-100, 100).map(float)  # sums of these are exact


def _vadd(a, b, out):
    x = yield load_cell(a)
    y = yield load_cell(b)
    yield store_cell(out, x + y)


def _vadd_markers(n):
    g = cells([n], [128])
    return In(F32, g), In(F32, g), Out(F32, g)


def _vadd_kernel(n):
    return trace("vadd", _vadd, *_vadd_markers(n))


def _vadd_reference(args):
    a, b, out = args
    with np.errstate(invalid="ignore"):  # inf - inf is NaN, as on the device
        return [a, b, a + b]


# ----------------------------------------------------------------------------- passing


def test_a_right_kernel_passes_on_drawn_shapes():
    assert check_kernel(_vadd_kernel, _vadd_reference, max_examples=25) is None


def test_a_right_kernel_passes_with_nan_infinities_and_subnormals():
    check_kernel(
        _vadd_kernel,
        _vadd_reference,
        nan=True,
        infinity=True,
        subnormal=True,
        max_examples=25,
    )


def test_fixed_markers_draw_only_inputs(tileir_device):
    g = cells([300], [128])
    check_kernel(
        trace("vadd", _vadd, In(F32, g), In(F32, g), Out(F32, g)),
        _vadd_reference,
        device=tileir_device,
        max_examples=10,
    )


# ----------------------------------------------------------------------------- caught mistakes


def _cell_sums(x, out):
    t = yield load_cell(x)
    yield store_cell(out, reshape(reduce_sum(t), [1]))


def _sums_of_128(args):
    x, out = args
    out = out.copy()
    sums = [x[i : i + 128].sum() for i in range(0, x.size, 128)]
    out[: len(sums)] = sums
    return [x, out]


@pytest.mark.slow
def test_cells_of_the_wrong_tile_are_caught_with_a_shrunk_example():
    # the reference sums cells of 128; the kernel's markers cut cells of 64
    def markers(n):
        return In(F32, cells([n], [64])), Out(F32, cells([-(-n // 64)], [1]))

    with pytest.raises(KernelMismatch) as caught:
        check_kernel(
            lambda n: trace("cell_sums", _cell_sums, *markers(n)),
            _sums_of_128,
            values=INTEGRAL,
            max_examples=200,
        )
    message = str(caught.value)
    assert "for sizes 65\n" in message  # the first extent where 64 and 128 part
    assert "argument 1 (Out f32) differs at element" in message
    assert "in block [" in message and "the kernel gives" in message
    assert "the reference" in message and "inputs:" in message
    # Hypothesis names the shrunk case "Falsifying example" (before 6.16x) or "Failing test case"
    assert any(
        n.startswith(("Falsifying example", "Failing test case")) for n in caught.value.__notes__
    )


def test_the_right_tile_passes_the_same_check():
    def markers(n):
        return In(F32, cells([n], [128])), Out(F32, cells([-(-n // 128)], [1]))

    check_kernel(
        lambda n: trace("cell_sums", _cell_sums, *markers(n)),
        _sums_of_128,
        values=INTEGRAL,
        max_examples=50,
    )


def _reverse_cells(x, out):
    t = yield load_at(x, [num_blocks(0) - block_id(0)])  # off by one: - 1 forgotten
    yield store_cell(out, t)


def _reverse_markers(k):
    return (In(F32, cells([128 * k], [128], along=[FREE_AXIS])), Out(F32, cells([128 * k], [128])))


def _reversed_cells(args):
    x, out = args
    return [x, x.reshape(-1, 128)[::-1].reshape(-1)]


@pytest.mark.slow
def test_an_index_off_by_one_block_is_caught_at_the_smallest_grid():
    with pytest.raises(KernelRunFailed) as caught:
        check_kernel(
            lambda k: trace("reverse_cells", _reverse_cells, *_reverse_markers(k)),
            _reversed_cells,
            sizes=st.integers(1, 8),
            max_examples=50,
        )
    message = str(caught.value)
    assert "the launch failed for sizes 1\n" in message
    assert "outside the view's index space" in message
    assert "In(f32, cells([128], [128], along=[FREE_AXIS]))" in message


T = 16  # a square tile: the missing keepdims below records


def _center_rows_without_keepdims(x, out):
    t = yield load_cell(x)
    sums = reduce_sum(t, 1)  # [16]: one sum per row (keepdims forgotten)
    # [1, 16] broadcast down the rows records only because the tile is square, and lays
    # each row's sum along a column
    yield store_cell(out, t - broadcast(reshape(sums, [1, T]), [T, T]))


def _center_rows(x, out):
    t = yield load_cell(x)
    yield store_cell(out, t - reduce_sum(t, 1, keepdims=True))


def _rows_markers(m, n):
    g = cells([m, n], [T, T])
    return In(F32, g), Out(F32, g)


def _rows_reference(args, sizes):
    x = args[0]  # in its declared shape, sizes (m, n)
    assert x.shape == sizes
    return [x, x - x.sum(axis=1, keepdims=True)]


ROW_SHAPES = st.tuples(st.integers(1, 40), st.integers(1, T))  # one cell across a row


@pytest.mark.slow
def test_a_missing_keepdims_that_records_is_caught():
    with pytest.raises(KernelMismatch) as caught:
        check_kernel(
            lambda m, n: trace("center_rows", _center_rows_without_keepdims, *_rows_markers(m, n)),
            _rows_reference,
            sizes=ROW_SHAPES,
            values=INTEGRAL,
            max_examples=200,
        )
    message = str(caught.value)
    # shrunk to two elements in one cell, the smallest case where rows and columns differ
    assert "for sizes (1, 2)\n" in message or "for sizes (2, 1)\n" in message
    assert "in block [0, 0]" in message
    assert "of extent [1, 2]" in message or "of extent [2, 1]" in message


def test_the_keepdims_version_passes():
    check_kernel(
        lambda m, n: trace("center_rows", _center_rows, *_rows_markers(m, n)),
        _rows_reference,
        sizes=ROW_SHAPES,
        values=INTEGRAL,
        max_examples=50,
    )


def _grid_of_128_cells(n):
    return In(F32, cells([n], [64])), Out(F32, cells([-(-n // 128)], [1]))


def test_a_kernel_that_cannot_be_recorded_for_drawn_shapes_fails_clearly():
    with pytest.raises(KernelNotRecorded) as caught:
        check_kernel(
            lambda n: trace("cell_sums", _cell_sums, *_grid_of_128_cells(n)),
            _sums_of_128,
            values=INTEGRAL,
            max_examples=100,
        )
    message = str(caught.value)
    assert "could not be recorded for sizes 65\n" in message
    assert "refusal:" in message and "valid=" in message


def test_shapes_said_to_be_invalid_are_not_a_failure():
    check_kernel(
        lambda n: trace("cell_sums", _cell_sums, *_grid_of_128_cells(n)),
        _sums_of_128,
        values=INTEGRAL,
        valid=lambda n: n <= 64,
        sizes=st.integers(1, 200),
        max_examples=30,
    )


@pytest.mark.slow
def test_a_reference_returning_the_wrong_count_is_said():
    with pytest.raises(KernelRunFailed, match="returned 2 value"):
        check_kernel(_vadd_kernel, lambda args: args[:2], max_examples=5)


# ----------------------------------------------------------------------------- strategies


@settings(max_examples=50)
@given(tile_shapes(rank=(0, 4)))
def test_tile_shapes_are_powers_of_two_within_the_dialect_limit(shape):
    assert len(shape) <= 4
    assert all(d > 0 and d & (d - 1) == 0 for d in shape)
    assert math.prod(shape) <= MAX_TILE_ELEMENTS


@settings(max_examples=50)
@given(cells_for(2, max_cells=3, pads=True))
def test_cells_stay_within_their_counts_and_pad_with_a_dialect_value(c):
    assert c.rank == 2 and all(1 <= n <= 3 for n in c.counts)
    assert all(e <= n * t for e, n, t in zip(c.extent, c.counts, c.tile))
    assert c.pad in PADDING_VALUES


@settings(max_examples=30)
@given(markers_for("In, In, Scalar, Out", 2, pads=True))
def test_drawn_markers_record_a_kernel(markers):
    assert [type(m).__name__ for m in markers] == ["In", "In", "Scalar", "Out"]
    assert all(m.cells.pad == "zero" for m in markers if m.cells and not m.format.is_float)

    def copy_first(a, b, s, out):
        t = yield load_cell(a)
        yield store_cell(out, t.to(out.format) if t.format != out.format else t)

    kernel = trace("copy_first", copy_first, *markers)
    assert kernel.grid == markers[-1].cells.counts


@settings(max_examples=40)
@given(formats(narrow=True).flatmap(lambda f: st.tuples(st.just(f), element_values(f))))
def test_element_values_are_held_exactly_by_their_format(pair):
    fmt, v = pair
    held = np.asarray([v]).astype(np.float64 if fmt.is_float else np.int64)
    if fmt.name == "fnv8E5M3FNU" or fmt.bits == 1:
        return  # raw bits / booleans: the format has no numpy arithmetic
    back = held.astype(fmt.numpy_dtype).astype(held.dtype)
    assert np.array_equal(back, held) and np.isfinite(held).all()


def test_specials_come_only_on_request():
    assert math.isnan(find(element_values(F16, nan=True), math.isnan))
    assert math.isinf(find(element_values(F32, infinity=True), math.isinf))
    tiny = find(element_values(F32, subnormal=True), lambda v: 0 < abs(v) < 2.0**-126)
    assert 0 < abs(tiny) < 2.0**-126

    @settings(max_examples=100)
    @given(element_values(F32))
    def plain(v):
        assert math.isfinite(v) and (v == 0 or abs(v) >= 2.0**-126)

    plain()


@settings(max_examples=20)
@given(buffers(I8, 200), buffers(F32, 5))
def test_buffers_have_the_format_dtype_and_length(a, b):
    assert a.dtype == np.int8 and a.shape == (200,)
    assert b.dtype == np.float32 and b.shape == (5,)


def test_inputs_for_a_shared_buffer_need_its_length():
    def touch(s, out):
        yield store_cell(out, broadcast(block_id(0), [4]))

    kernel = trace("touch", touch, Shared(F32), Out(I32, cells([8], [4])))
    with pytest.raises(ValueError, match="lengths="):
        find(inputs_for(kernel), lambda args: True)
    args = find(inputs_for(kernel, lengths={0: 3}), lambda args: True)
    assert args[0].shape == (3,) and args[1].shape == (8,)


# ----------------------------------------------------------------------------- the plugin


_PLUGIN_TEST = textwrap.dedent("""
    from tileir.testing import as_pytest_plugins
    pytest_plugins = as_pytest_plugins()

    def test_runs(tileir_device):
        assert tileir_device.name in ("fake",) or tileir_device.name.startswith("GPU")
""")


def _run_plugin(pytester, monkeypatch, env: dict, *options: str):
    monkeypatch.setenv("PYTHONPATH", str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    pytester.makepyfile(test_plugin_use=_PLUGIN_TEST)
    return pytester.runpytest_subprocess("-rs", "-p", "no:cacheprovider", *options)


@pytest.mark.slow
def test_the_real_device_case_is_skipped_with_its_reason_when_absent(pytester, monkeypatch):
    result = _run_plugin(pytester, monkeypatch, {"TILEIR_REAL_DEVICE": "0"})
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(["*SKIPPED*no real device: the real device is turned off*"])


@pytest.mark.slow
def test_a_plugin_loaded_at_startup_says_in_the_header_why_there_is_no_real_device(
    pytester, monkeypatch
):
    # as an entry point (or -p) loads it: the header names the reason once per session
    result = _run_plugin(
        pytester, monkeypatch, {"TILEIR_REAL_DEVICE": "0"}, "-p", "tileir.testing.plugin"
    )
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(["tileir real device: absent (the real device is turned off*"])


@pytest.mark.slow
def test_requiring_the_real_device_runs_its_case(pytester, monkeypatch):
    from tileir.testing.devices import real_device_status

    if real_device_status()[0]:
        pytest.skip("a real device is present: the case would pass, not error")
    result = _run_plugin(pytester, monkeypatch, {"TILEIR_REAL_DEVICE": "1"})
    result.assert_outcomes(passed=1, errors=1)
