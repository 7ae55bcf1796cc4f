"""run_bytecode: another producer's bytecode (cuTile Python 1.7.0's) on the fake device.

The kernels are exported by cuTile in the test (tests/support/cutile_kernels.py, no GPU
needed) and run against numpy under cuTile's calling convention, with inputs and outputs
of any strides; the ``raw`` and ``tileir`` conventions run tileir's own kernels; a
convention of one's own is a value; bad calls are refused with one clear error.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cuda.tile")

from support.cutile_kernels import cutile_bytes  # noqa: E402
from tileir import F32, In, Out, Scalar, cells, load_cell, scalar, store_cell, trace  # noqa: E402
from tileir.encode import decode  # noqa: E402
from tileir.errors import DecodeError, LaunchError, MismatchError  # noqa: E402
from tileir.fake import FakeDevice, run_bytecode  # noqa: E402
from tileir.fake.bytecode import launch_bytecode  # noqa: E402
from tileir.host.conventions import (  # noqa: E402
    CONVENTIONS,
    ArrayBinding,
    Binding,
    Convention,
    register_convention,
)


def _x(shape=(8, 8), dtype=np.float32):
    return (np.arange(np.prod(shape)) * 0.75 - 7).astype(dtype).reshape(shape)


@pytest.mark.parametrize(
    "view",
    [
        lambda a: a,
        lambda a: a.T,  # transposed: strides (4, 32)
        lambda a: np.asfortranarray(a),
        lambda a: np.pad(a, ((0, 3), (0, 5)))[:8, :8],  # a slice of a wider array
        lambda a: np.repeat(np.repeat(a, 2, 0), 3, 1)[::2, ::3],  # strides of 2 and 3
    ],
    ids=["c-order", "transposed", "fortran", "sliced", "stepped"],
)
def test_a_cutile_kernel_with_helpers_matches_numpy_for_any_strides(view):
    x = view(_x())
    before = x.copy()
    out = np.zeros((8, 8), np.float32)
    a, c = run_bytecode(cutile_bytes("helped"), [x, out], (2,), convention="cutile")
    assert c.shape == (8, 8) and c.dtype == np.float32
    np.testing.assert_array_equal(c, (x * np.float32(2) + np.float32(1)) - np.float32(3))
    np.testing.assert_array_equal(x, before)  # the caller's arrays are never modified
    assert not out.any()
    assert a is x or np.array_equal(a, x)


def test_an_output_of_any_strides_comes_back_in_its_shape_with_a_scalar():
    x, y = _x(), _x().T.copy()
    z = np.zeros((8, 8), np.float32).T  # a transposed (column-major) output
    _, _, got, alpha = run_bytecode(
        cutile_bytes("scaled"), [x.T, y, z, 1.5], (2, 2), convention="cutile"
    )
    assert alpha == 1.5 and got.shape == (8, 8)
    np.testing.assert_array_equal(got, np.float32(1.5) * x.T + y)


def test_an_integer_reduction_is_bit_exact_and_the_written_arrays_are_named():
    x = np.arange(8 * 16, dtype=np.int32).reshape(8, 16) * 7919 - 40000
    run = launch_bytecode(
        cutile_bytes("row_sums"), [x, np.zeros(8, np.int32)], (4,), convention="cutile"
    )
    assert run.written == (1,) and run.entry == "row_sums" and run.grid == (4,)
    np.testing.assert_array_equal(run.outputs[1], x.sum(axis=1, dtype=np.int32))


def test_reference_agrees_or_raises_the_fake_devices_mismatch():
    x, out = _x(), np.zeros((8, 8), np.float32)
    blob = cutile_bytes("helped")
    ref_calls = []

    def good(args):
        ref_calls.append(args)
        return [args[0], args[0] * 2 - 2]

    run_bytecode(blob, [x, out], (2,), convention="cutile", reference=good)
    assert len(ref_calls) == 1 and ref_calls[0][0] is not x  # the reference gets copies

    def off_by_one_element(args):
        want = args[0] * 2 - 2
        want[5, 3] += 1
        return [args[0], want]

    with pytest.raises(MismatchError) as err:
        run_bytecode(blob, [x, out], 2, convention="cutile", reference=off_by_one_element)
    assert err.value.kind == "fake.mismatch" and err.value.kernel == "helped"
    assert "argument 1" in str(err.value) and "element [5, 3]" in str(err.value)
    assert "1 element(s) differ" in str(err.value)
    # a tolerance that admits the difference passes it; None is bit-exact
    from tileir.host.tolerance import Tolerance

    run_bytecode(
        blob,
        [x, out],
        2,
        convention="cutile",
        reference=off_by_one_element,
        tolerance=Tolerance(atol=1.0),
    )


def _double():
    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, t + t)

    g = cells([64], [16])
    return trace("double", body, In(F32, g), Out(F32, g))


def test_raw_convention_runs_tileirs_own_bytecode_as_the_fake_device_does():
    kernel = _double()
    xs = _x((64,))
    want = FakeDevice(mode="interpret").run(kernel, xs, np.zeros(64, np.float32))[1]
    for source in (kernel.bytecode(), kernel.module, decode(kernel.bytecode())):
        _, got = run_bytecode(source, [xs.reshape(4, 16), np.zeros((4, 16), np.float32)], 4)
        assert got.shape == (4, 16)  # the caller's shape, C order
        np.testing.assert_array_equal(got.reshape(-1), want)


def test_tileir_convention_takes_a_kernel_and_its_grid_from_the_cells():
    kernel = _double()
    xs = _x((64,))
    _, got = run_bytecode(kernel, [xs, np.zeros(64, np.float32)], convention="tileir")
    np.testing.assert_array_equal(got, xs + xs)
    with pytest.raises(LaunchError, match="needs the recorded Kernel"):
        run_bytecode(kernel.bytecode(), [xs, np.zeros(64, np.float32)], 4, convention="tileir")


def test_a_convention_of_ones_own_is_a_value():
    # a producer whose entries take the numbers first, then one pointer per array
    def bind(params, args, kernel, grid):
        numbers = [a for a in args if not isinstance(a, np.ndarray)]
        values, arrays = list(numbers), []
        for i, a in enumerate(args):
            if isinstance(a, np.ndarray):
                arrays.append(ArrayBinding(i, len(values), a.shape, None, F32))
                values.append(np.ascontiguousarray(a).reshape(-1))
        return Binding(values, tuple(arrays))

    numbers_first = Convention("numbers_first", "the numbers, then a pointer per array", bind)

    def body(scale, x, out):
        t = yield load_cell(x)
        yield store_cell(out, t * scalar(scale))

    g = cells([32], [32])
    k = trace("numbers_first", body, Scalar(F32), In(F32, g), Out(F32, g))
    xs = _x((32,))
    got_x, got, scale = run_bytecode(
        k.bytecode(),
        [xs.reshape(4, 8), np.zeros((4, 8), np.float32), 2.5],
        1,
        convention=numbers_first,
    )
    assert scale == 2.5 and got.shape == (4, 8)
    np.testing.assert_array_equal(got.reshape(-1), xs * np.float32(2.5))
    assert "numbers_first" not in CONVENTIONS  # passing one registers nothing
    with pytest.raises(ValueError, match="registered already"):
        register_convention(Convention("raw", "again", bind))


@pytest.mark.parametrize(
    "args,convention,message",
    [
        ([_x()], "cutile", "takes 10 parameter"),
        ([_x(), np.zeros((8, 8), np.float32), 3], "cutile", "argument 2 .* has no parameter"),
        ([_x()[0], np.zeros((8, 8), np.float32)], "cutile", "argument 0 has 1 dimension"),
        ([_x(), np.zeros((1, 8, 8), np.float32)], "cutile", "argument 1 has 3 dimension"),
        ([_x().astype(np.float64), np.zeros((8, 8))], "cutile", "holds float64"),
        ([_x()[::-1], np.zeros((8, 8), np.float32)], "cutile", "non-negative strides"),
        ([_x(), np.zeros((8, 8), np.float32)], "raw", "parameter 1 is tile<i32>, not a pointer"),
        ([3.0, np.zeros((8, 8), np.float32)], "cutile", "is the number 3.0"),
        ([_x(), np.zeros((8, 8), np.float32)], "fortran", "no calling convention named"),
    ],
)
def test_bad_calls_are_refused_with_the_argument_named(args, convention, message):
    with pytest.raises(LaunchError, match=message) as err:
        run_bytecode(cutile_bytes("helped"), args, (2,), convention=convention)
    assert "\n" not in str(err.value)


def test_int64_indices_take_i64_shapes_and_strides():
    from tileir.encode import decode as read

    blob = cutile_bytes("vadd_i64")
    assert "tile<i64>" in [str(p.type) for p in read(blob).functions[0].params]
    xs = [np.arange(64, dtype=np.float32)[::2] for _ in range(2)] + [np.zeros(32, np.float32)]
    _, _, c = run_bytecode(blob, xs, 2, convention="cutile")
    np.testing.assert_array_equal(c, xs[0] + xs[1])


def test_the_entry_may_be_left_out_only_for_one_entry():
    blob = cutile_bytes("vadd")
    xs = [np.arange(32, dtype=np.float32) for _ in range(3)]
    _, _, c = run_bytecode(blob, xs, 2, entry="vadd", convention="cutile")
    np.testing.assert_array_equal(c, xs[0] + xs[1])
    with pytest.raises(LaunchError, match="no entry `nope` .*it has vadd"):
        run_bytecode(blob, xs, 2, entry="nope", convention="cutile")
    with pytest.raises(LaunchError, match="needs its grid"):
        run_bytecode(blob, xs, convention="cutile")
    with pytest.raises(DecodeError):
        run_bytecode(b"not bytecode at all", xs, 2)


def test_an_array_passed_twice_is_one_buffer_as_on_a_gpu():
    x = _x()
    a, c = run_bytecode(cutile_bytes("helped"), [x, x], (2,), convention="cutile")
    want = x * np.float32(2) + np.float32(1) - np.float32(3)
    np.testing.assert_array_equal(c, want)
    np.testing.assert_array_equal(a, want)  # the kernel wrote the one buffer in place
    np.testing.assert_array_equal(x, _x())  # and the caller's array is still its own


def test_strides_that_spread_a_view_over_too_much_memory_are_refused():
    from numpy.lib.stride_tricks import as_strided

    x = _x()
    huge = as_strided(x, shape=(8, 8), strides=(1 << 40, 4), writeable=False)
    with pytest.raises(LaunchError, match="spans .* bytes, more than"):
        run_bytecode(
            cutile_bytes("helped"), [huge, np.zeros((8, 8), np.float32)], 2, convention="cutile"
        )


@pytest.mark.slow  # records every bundled kernel to find the ones with launch parameters
def test_the_tileir_convention_fills_extents_and_counts_and_agrees_with_the_reference():
    from tileir.kernels.registry import specs
    from tileir.record.convention import dyn_extents

    dyn = guarded = 0
    for spec in specs():
        k = spec.kernel()
        has_dyn, is_guarded = bool(dyn_extents(k.params)), bool(k.guarded)
        if not has_dyn and not (is_guarded and guarded < 4):
            continue
        dyn, guarded = dyn + has_dyn, guarded + is_guarded
        inputs, grid = spec.inputs(np.random.default_rng(7))
        # DYN_DIM extents and a checked kernel's element counts come from the arrays
        got = run_bytecode(
            k, inputs, grid, convention="tileir", reference=k.reference, tolerance=k.tolerance
        )
        assert len(got) == len(k.params)
    assert dyn >= 1 and guarded >= 1
