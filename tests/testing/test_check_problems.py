"""check_kernel draws whole problems: a factory records the kernel for drawn sizes, the
reference gets arrays in their declared shapes, per-format ulp tolerances pass correct
kernels, and each planted bug fails as one tileir error whose message names its cause
(what the debugger's finder says) and the line of the test."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import strategies as st

import tileir
import tileir.testing
from tileir import (
    BF16,
    F8E4M3FN,
    F8E5M2,
    F16,
    F32,
    F64,
    TF32,
    In,
    Out,
    Shared,
    TileIRError,
    Tolerance,
    block_id,
    cells,
    exp,
    load_cell,
    reduce_max,
    reduce_sum,
    reshape,
    rsqrt,
    store,
    store_cell,
    tanh,
    trace,
)
from tileir.fake.compare import CHECK_ULPS, check_tolerance, first_difference, ulp
from tileir.testing import (
    CheckArgumentError,
    KernelMismatch,
    KernelRunFailed,
    as_pytest_plugins,
    check_kernel,
)

pytest_plugins = as_pytest_plugins()

REPO = Path(__file__).resolve().parents[2]


def _eighths(fmt):
    """Multiples of 1/8 in [-8, 8]: a row's sum and mean over a power-of-two length are
    exact in f32, so a layer norm's answer is well conditioned (see docs/testing.md)."""
    return st.integers(-64, 64).map(lambda v: v / 8)


# ----------------------------------------------------------------------------- a new user's kernels

ROWS = 4  # rows per block


def _layer_norm(x, out):
    t = yield load_cell(x)
    n = t.shape[1]
    mean = reduce_sum(t, 1, keepdims=True) * (1.0 / n)
    d = t - mean
    var = reduce_sum(d * d, 1, keepdims=True) * (1.0 / n)
    yield store_cell(out, d * rsqrt(var + 1e-5))


def make_layer_norm(rows, log_cols):
    g = cells([rows, 2**log_cols], [ROWS, 2**log_cols])
    return trace("layer_norm", _layer_norm, In(F32, g), Out(F32, g))


def layer_norm_reference(args):
    x, out = args
    assert x.ndim == 2  # the reference sees the declared [rows, cols]
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
    return [x, (x64 - mean) / np.sqrt(var + 1e-5)]


def test_a_layer_norm_passes_with_drawn_shapes_and_default_tolerances():
    check_kernel(
        make_layer_norm,
        layer_norm_reference,
        sizes=st.tuples(st.integers(1, 20), st.integers(0, 8)),
        values=_eighths,
        max_examples=40,
    )


def _gelu(x, out):
    t = yield load_cell(x)
    inner = 0.7978845608028654 * (t + 0.044715 * t * t * t)
    yield store_cell(out, 0.5 * t * (1.0 + tanh(inner)))


def make_gelu(n, tile):
    g = cells([n], [tile])
    return trace("gelu", _gelu, In(F32, g), Out(F32, g))


def gelu_reference(args):
    x, out = args
    x64 = x.astype(np.float64)
    return [x, 0.5 * x64 * (1 + np.tanh(np.sqrt(2 / np.pi) * (x64 + 0.044715 * x64**3)))]


GELU_SIZES = st.fixed_dictionaries(
    {"n": st.integers(1, 2000), "tile": st.sampled_from([16, 64, 256])}
)


def test_a_gelu_passes_with_drawn_shapes_default_values_and_tolerances():
    check_kernel(make_gelu, gelu_reference, sizes=GELU_SIZES, max_examples=40)


def test_gelu_near_zero_is_within_the_default_f32_tolerance():
    # gelu(-5.5) is about -1e-7, computed as 0.5 * x * (1 + tanh(..)) with tanh(..) near -1:
    # its error is one rounding of a value near one, huge relative to the result itself
    x = np.float32(-5.5)
    got = np.float32(0.5) * x * (np.float32(1) + np.tanh(np.float32(-8.4)).astype(np.float32))
    want = gelu_reference([np.array([x]), None])[1]
    assert first_difference(np.array([got]), want.astype(np.float32), check_tolerance(F32)) is None
    # the old default (rtol 1e-5, atol 1e-8) refused it
    assert (
        first_difference(np.array([got]), want.astype(np.float32), Tolerance(rtol=1e-5, atol=1e-8))
        is not None
    )


@pytest.mark.parametrize("fmt", [F64, F32, TF32, F16, BF16, F8E4M3FN, F8E5M2], ids=str)
@pytest.mark.parametrize("value", [1.0, 1.5, -3.0, 0.25, 100.0])
def test_the_default_tolerance_allows_its_ulps_of_each_format_and_no_more(fmt, value):
    b = np.array([value]).astype(fmt.numpy_dtype)  # the value the format holds
    step = float(ulp(fmt, b.astype(np.float64))[0])
    n = CHECK_ULPS[fmt.name]
    tol = check_tolerance(fmt)
    inside = (b.astype(np.float64) + n * step).astype(fmt.numpy_dtype)
    outside = (b.astype(np.float64) + (n + 1) * step).astype(fmt.numpy_dtype)
    assert first_difference(inside, b, tol, fmt) is None
    assert first_difference(outside, b, tol, fmt) is not None
    assert str(tol) == f"{n:g} ulps"


def _cell_sums(x, sums):
    t = yield load_cell(x)
    yield store(sums, block_id(0), reshape(reduce_sum(t), [1]))


def make_cell_sums(n, tile):
    return trace("cell_sums", _cell_sums, In(F32, cells([n], [tile])), Shared(F32))


def _blocks(n, tile):
    return -(-n // tile)


def cell_sums_reference(args, sizes):
    x, sums = args
    n, tile = sizes
    padded = np.zeros(_blocks(n, tile) * tile, dtype=np.float64)
    padded[:n] = x
    return [x, padded.reshape(-1, tile).sum(axis=1)]


SUM_SIZES = st.tuples(st.integers(1, 600), st.sampled_from([16, 32, 128]))


def test_a_shared_buffer_kernel_draws_its_grid_and_buffer_length():
    check_kernel(
        make_cell_sums,
        cell_sums_reference,
        sizes=SUM_SIZES,
        grid=_blocks,
        lengths=lambda n, tile: {1: _blocks(n, tile)},
        values=_eighths,
        max_examples=30,
    )


def test_a_kernel_that_carries_its_reference_needs_no_other(tileir_device):
    g = cells([300], [128])
    kernel = make_gelu(300, 128).with_reference(
        lambda args: [args[0], gelu_reference(args)[1].astype(np.float32)]
    )
    check_kernel(kernel, device=tileir_device, max_examples=10)
    # and a factory may return kernels that carry theirs
    check_kernel(
        lambda n: trace(
            "gelu", _gelu, In(F32, cells([n], [64])), Out(F32, cells([n], [64]))
        ).with_reference(lambda args: [args[0], gelu_reference(args)[1]]),
        sizes=st.integers(1, 500),
        max_examples=10,
    )
    assert g.extent == (300,)


# ----------------------------------------------------------------------------- planted bugs


def _copy(x, out):
    yield store_cell(out, (yield load_cell(x)))


def make_one_short_copy(n):
    # the Out's extent is one short of the data it is launched on
    return trace("copy", _copy, In(F32, cells([n], [64])), Out(F32, cells([n - 1], [64])))


@pytest.mark.slow
def test_an_out_one_element_short_is_named_by_find_untouched():
    with pytest.raises(KernelMismatch) as caught:
        check_kernel(
            make_one_short_copy,
            lambda args: [args[0], args[0]],
            sizes=st.integers(2, 300),
            valid=lambda n: (n - 1) % 64 != 0,  # where the two cut a different grid
            lengths=lambda n: {1: n},
            max_examples=50,
        )
    message = str(caught.value)
    assert "untouched (never-written)" in message and "find_untouched" in message
    assert "no block writes 1 of the" in message
    assert "past the marker's extent" in message


def _softmax(x, out):
    t = yield load_cell(x)
    e = exp(t - reduce_max(t, 1, keepdims=True))
    yield store_cell(out, e / reduce_sum(e, 1, keepdims=True))


def make_softmax(rows, cols, pad="neg_inf"):
    width = 1 << (cols - 1).bit_length()
    g_in = cells([rows, cols], [ROWS, width], pad=pad)
    return trace("softmax", _softmax, In(F32, g_in), Out(F32, cells([rows, cols], [ROWS, width])))


def softmax_reference(args):
    x, out = args
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return [x, e / e.sum(axis=1, keepdims=True)]


SOFTMAX_SIZES = st.tuples(st.integers(1, 9), st.integers(1, 40))


def test_a_softmax_padded_with_neg_inf_passes():
    check_kernel(make_softmax, softmax_reference, sizes=SOFTMAX_SIZES, max_examples=30)


def test_a_softmax_padded_with_zero_is_named_by_find_padding_leaks():
    with pytest.raises(KernelMismatch) as caught:
        check_kernel(
            lambda rows, cols: make_softmax(rows, cols, pad="zero"),
            softmax_reference,
            sizes=SOFTMAX_SIZES,
            max_examples=60,
        )
    message = str(caught.value)
    assert "padding-leak" in message and "find_padding_leaks" in message


def _cell_sums_racing(x, sums):
    t = yield load_cell(x)
    yield store(sums, block_id(0) // 2, reshape(reduce_sum(t), [1]))  # blocks 0 and 1 meet


def test_two_blocks_writing_one_shared_element_is_named_a_race():
    with pytest.raises(KernelMismatch) as caught:
        check_kernel(
            lambda n, tile: trace(
                "cell_sums", _cell_sums_racing, In(F32, cells([n], [tile])), Shared(F32)
            ),
            cell_sums_reference,
            sizes=SUM_SIZES,
            grid=_blocks,
            lengths=lambda n, tile: {1: _blocks(n, tile)},
            values=_eighths,
            max_examples=60,
        )
    message = str(caught.value)
    assert "(Shared" in message
    assert "this looks like a race between blocks" in message and "find_races" in message
    assert "write-write" in message


def _cell_sums_one_past(x, sums):
    t = yield load_cell(x)
    yield store(sums, block_id(0) + 1, reshape(reduce_sum(t), [1]))  # one past the end


def test_a_store_one_past_the_end_names_the_element_and_the_buffer_length():
    with pytest.raises(KernelRunFailed) as caught:
        check_kernel(
            lambda n, tile: trace(
                "cell_sums", _cell_sums_one_past, In(F32, cells([n], [tile])), Shared(F32)
            ),
            cell_sums_reference,
            sizes=SUM_SIZES,
            grid=_blocks,
            lengths=lambda n, tile: {1: _blocks(n, tile)},
            max_examples=30,
        )
    message = str(caught.value)
    assert "the launch failed for sizes (1, 16)" in message  # shrunk to one block
    assert "element 1 of argument 1 (Shared, 1 element(s)), past its last element 0" in message
    assert "find_out_of_bounds" in message


@pytest.mark.slow
def test_a_wrong_reference_is_said_when_no_finder_explains_the_mismatch():
    def erf_gelu(args):  # the kernel computes the tanh approximation
        from math import erf

        x, out = args
        return [x, np.vectorize(lambda v: 0.5 * v * (1 + erf(v / np.sqrt(2))))(x)]

    with pytest.raises(KernelMismatch) as caught:
        check_kernel(make_gelu, erf_gelu, sizes=GELU_SIZES, max_examples=60)
    message = str(caught.value)
    assert "no finder explains it" in message and "check the reference" in message


def _through_f16(x, out):
    t = yield load_cell(x)
    yield store_cell(out, t.to(F16).to(F32) * 2.0)


def test_one_rounding_through_a_narrower_format_is_caught_by_the_default_tolerance():
    with pytest.raises(KernelMismatch) as caught:
        check_kernel(
            lambda n: trace(
                "double", _through_f16, In(F32, cells([n], [64])), Out(F32, cells([n], [64]))
            ),
            lambda args: [args[0], args[0].astype(np.float64) * 2],
            sizes=st.integers(1, 200),
            max_examples=60,
        )
    assert "(64 ulps)" in str(caught.value)


# ----------------------------------------------------------------------------- arguments, places


def test_bad_arguments_are_refused_naming_check_kernel_the_value_and_the_tests_line():
    line = inspect.currentframe().f_lineno + 2
    with pytest.raises(CheckArgumentError) as caught:
        check_kernel(_gelu, gelu_reference)
    message = str(caught.value)
    assert "`check_kernel`" in message and "'_gelu' is a kernel body" in message
    assert message.endswith(f"(at test_check_problems.py:{line})")
    cases = [
        (dict(kernel=make_gelu, reference=gelu_reference, grid="3"), "grid is '3'"),
        (dict(kernel=make_gelu, reference=gelu_reference, grid=[0]), "grid is [0]"),
        (dict(kernel=make_gelu, reference=gelu_reference, sizes=[1, 2]), "sizes is list"),
        (dict(kernel=make_gelu, reference=3), "reference is int 3"),
        (dict(kernel=make_gelu(10, 16)), "carries no reference"),
        (dict(kernel=make_gelu, reference=gelu_reference, tolerance=1e-3), "tolerance is float"),
        (dict(kernel=42, reference=gelu_reference), "the kernel is int 42"),
    ]
    for kwargs, said in cases:
        with pytest.raises(CheckArgumentError) as caught:
            check_kernel(**kwargs)
        assert said in str(caught.value) and "`check_kernel`" in str(caught.value)
        assert isinstance(caught.value, TileIRError) and isinstance(caught.value, TypeError)


def test_a_grid_function_of_the_sizes_giving_a_bad_grid_is_refused():
    with pytest.raises(CheckArgumentError, match=r"grid\(600, 16\) is 'x'|grid\(.*\) is 'x'"):
        check_kernel(
            make_cell_sums,
            cell_sums_reference,
            sizes=SUM_SIZES,
            grid=lambda n, tile: "x",
            lengths=lambda n, tile: {1: _blocks(n, tile)},
            max_examples=5,
        )


def test_a_failure_ends_with_the_tests_line():
    line = inspect.currentframe().f_lineno + 2
    with pytest.raises(KernelMismatch) as caught:
        check_kernel(
            make_one_short_copy,
            lambda args: [args[0], args[0]],
            sizes=st.integers(2, 60),
            valid=lambda n: (n - 1) % 64 != 0,
            lengths=lambda n: {1: n},
            max_examples=20,
        )
    assert caught.value.where == f"test_check_problems.py:{line}"


def test_tolerance_is_exported_from_tileir_and_tileir_testing():
    assert tileir.Tolerance is tileir.testing.Tolerance is Tolerance
    assert "Tolerance" in tileir.__all__ and "Tolerance" in tileir.testing.__all__


_OUTSIDE_PYTEST = textwrap.dedent("""
    import numpy as np
    from hypothesis import strategies as st
    from tileir import F32, In, Out, cells, load_cell, store_cell, trace
    from hypothesis.configuration import storage_directory
    from tileir.testing import check_kernel

    def copy(x, out):
        yield store_cell(out, (yield load_cell(x)))

    def make(n):
        return trace("copy", copy, In(F32, cells([n], [64])), Out(F32, cells([n - 1], [64])))

    # where Hypothesis would write while the check runs (whether it writes anything at all
    # is its own choice: it caches a module's constants only when a draw asks for one)
    storage = []

    def reference(args):
        storage.append(str(storage_directory("probe", intent_to_write=False).path))
        return [args[0], args[0]]

    try:
        check_kernel(make, reference, sizes=st.integers(2, 200),
                     valid=lambda n: (n - 1) % 64 != 0, lengths=lambda n: {1: n},
                     max_examples=50)
    except Exception as err:
        print(type(err).__name__)
        print(err)
    print("storage:", *sorted(set(storage)))
""")


@pytest.mark.slow
def test_outside_pytest_one_error_says_what_failed_and_no_hypothesis_directory_is_left(tmp_path):
    (tmp_path / "check_copy.py").write_text(_OUTSIDE_PYTEST)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HYPOTHESIS")}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, "check_copy.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    first, rest = done.stdout.split("\n", 1)
    assert first == "KernelMismatch"  # one error, not a group
    assert "the kernel disagrees with its reference for sizes" in rest
    assert "no block writes 1 of the" in rest and "(at check_copy.py:" in rest
    assert not (tmp_path / ".hypothesis").exists()
    (where,) = done.stdout.strip().rsplit("\n", 1)[1].split()[1:]  # one place, outside the cwd
    assert not Path(where).is_relative_to(tmp_path), where
    # a storage directory the user names is used as Hypothesis uses it, the cwd still clean
    env["HYPOTHESIS_STORAGE_DIRECTORY"] = str(tmp_path / "store")
    again = subprocess.run(
        [sys.executable, "check_copy.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.stdout.split("\n", 1)[0] == "KernelMismatch", again.stderr
    (where,) = again.stdout.strip().rsplit("\n", 1)[1].split()[1:]
    assert Path(where).parent == tmp_path / "store", where
    assert not (tmp_path / ".hypothesis").exists()


def test_a_grid_function_that_raises_is_named_with_the_sizes():
    with pytest.raises(CheckArgumentError, match=r"grid\(\(\d+, \d+\)\) raised ZeroDivisionError"):
        check_kernel(
            make_cell_sums,
            cell_sums_reference,
            sizes=SUM_SIZES,
            grid=lambda n, tile: n // 0,
            lengths=lambda n, tile: {1: _blocks(n, tile)},
            max_examples=5,
        )


def test_an_int_grid_is_a_one_axis_grid():
    check_kernel(
        make_cell_sums(100, 32),
        lambda args: [args[0], np.add.reduceat(args[0].astype(np.float64), [0, 32, 64, 96])],
        grid=4,
        lengths={1: 4},
        values=_eighths,
        max_examples=5,
    )
