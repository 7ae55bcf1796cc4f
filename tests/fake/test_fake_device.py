"""The fake device as a host program sees it: the seed's launches in all three modes."""

import numpy as np
import pytest

from tileir import (
    F32,
    F64,
    FREE_AXIS,
    In,
    LaunchError,
    MismatchError,
    Out,
    TileIRError,
    block_id,
    cells,
    load_at,
    load_cell,
    permute,
    store_cell,
    trace,
)
from tileir.fake import FakeDevice
from tileir.kernels.chapter import softmax, vadd
from tileir.kernels.registry import get
from tileir.types import FORMATS

SOFTMAX_3_OF_4 = np.array([1.0, 2.0, 3.0, 0.0])
EXPECTED = [0.09003057317038043, 0.24472847105479767, 0.6652409557748218, 9.0]


def _softmax_kernel():
    return trace(
        "softmax", softmax, In(F64, cells([3], [4], pad="neg_inf")), Out(F64, cells([3], [4]))
    )


def _softmax_ref(args):
    x, out = args
    e = np.exp(x[:3] - x[:3].max())
    out = out.copy()
    out[:3] = e / e.sum()
    return [x, out]


@pytest.mark.parametrize("mode", ["interpret", "reference", "both"])
def test_the_sentinel_past_the_extent_survives_in_every_mode(mode):
    dev = FakeDevice(mode=mode, references={"softmax": _softmax_ref})
    x, out = dev.alloc(F64, 4), dev.alloc(F64, 4)
    dev.copy_in(x, SOFTMAX_3_OF_4)
    dev.copy_in(out, np.full(4, 9.0))
    dev.launch(_softmax_kernel(), x, out)
    np.testing.assert_allclose(dev.copy_out(out), EXPECTED, rtol=1e-15)
    assert dev.copy_out(out)[3] == 9.0


def test_the_seeds_short_buffer_is_refused_before_anything_runs():
    k = get("vadd_tail").kernel()
    for mode in ("interpret", "reference", "both"):
        dev = FakeDevice(mode=mode)
        bufs = [dev.alloc(F64, 999) for _ in range(3)]
        with pytest.raises(LaunchError) as info:
            dev.launch(k, *bufs)
        assert info.value.kind == "launch.short_buffer"
        assert str(info.value) == (
            "tileir: kernel `vadd_tail`: `launch`: argument 0 (In) holds "
            "999 element(s) and its cells reach 1000"
        )


def test_a_wrong_reference_is_named_with_buffer_element_block_and_tolerance():
    def wrong(args):
        x, out = _softmax_ref(args)
        out[1] += 1e-3
        return [x, out]

    dev = FakeDevice(mode="both", references={"softmax": wrong})
    with pytest.raises(MismatchError) as info:
        dev.run(_softmax_kernel(), SOFTMAX_3_OF_4, np.full(4, 9.0))
    text = str(info.value)
    assert "argument 1 (Out) differs from the reference at element 1 (block [0, 0, 0])" in text
    assert "the kernel gives 0.2447284710547976" in text and "rtol=" in text


def test_launch_refusals_name_the_kernel_the_argument_and_the_numbers():
    g = cells([1024], [128])
    k = trace("vadd", vadd, In(F32, g), In(F32, g), Out(F32, g))
    dev = FakeDevice(mode="interpret")
    a, b, c = dev.alloc(F32, 1024), dev.alloc(F32, 1024), dev.alloc(F32, 1024)
    cases = {
        "launch.format": lambda: dev.launch(k, dev.alloc(F64, 1024), b, c),
        "launch.grid": lambda: dev.launch(k, a, b, c, grid=[4]),
        "launch.aliased_out": lambda: dev.launch(k, a, b, a),
        "launch.arity": lambda: dev.launch(k, a, b),
    }
    for kind, launch in cases.items():
        with pytest.raises(LaunchError) as info:
            launch()
        assert info.value.kind == kind and "kernel `vadd`" in str(info.value), kind


def test_dyn_dim_launches_need_a_grid_and_whole_cells():
    from tileir import DYN_DIM

    g = cells([DYN_DIM], [128])
    k = trace("vadd_dyn", vadd, In(F32, g), In(F32, g), Out(F32, g))
    dev = FakeDevice(mode="interpret")
    bufs = [dev.alloc(F32, 1024) for _ in range(3)]
    with pytest.raises(LaunchError) as info:
        dev.launch(k, *bufs)
    assert info.value.kind == "launch.no_grid"
    dev.copy_in(bufs[0], np.arange(1024, dtype=np.float32))
    dev.launch(k, *bufs, grid=[8])
    assert dev.copy_out(bufs[2])[-1] == 1023.0
    with pytest.raises(LaunchError) as info:
        dev.launch(k, *bufs, grid=[9])  # nine cells of 128 reach 1152
    assert info.value.kind == "launch.short_buffer" and "reach 1152" in str(info.value)


def test_every_refusal_is_a_tileir_error():
    assert issubclass(LaunchError, TileIRError) and issubclass(MismatchError, TileIRError)


@pytest.mark.parametrize(
    "fmt", [f for f in FORMATS if f.name not in ("i4", "tf32", "fnv8E5M3FNU")], ids=str
)
def test_every_format_with_a_numpy_type_moves_through_views(fmt):
    # one copy through 1-D cells and one through 2-D cells read transposed: every window
    # path of the views (even steps, grids) over buffers of the format's own numpy type;
    # ml_dtypes' float8_e5m2 once broke numpy's as_strided there
    def copy(a, out):
        yield store_cell(out, (yield load_cell(a)))

    def transposed(a, out):
        t = yield load_at(a, [block_id(1), block_id(0)])
        yield store_cell(out, permute(t, (1, 0)))

    rng = np.random.default_rng(3)
    x = (
        rng.integers(0, 2, 64).astype(bool)
        if fmt.name == "i1"
        else rng.uniform(0.25, 4.0, 64).astype(np.float32).astype(fmt.numpy_dtype)
    )
    k = trace("copy", copy, In(fmt, cells([64], [16])), Out(fmt, cells([64], [16])))
    got = FakeDevice(mode="interpret").run(k, x, np.zeros(64, fmt.numpy_dtype))[1]
    assert np.array_equal(np.asarray(got).view(np.uint8), x.view(np.uint8))
    src = cells([8, 8], [4, 4], along=(FREE_AXIS, FREE_AXIS))
    k = trace("transposed", transposed, In(fmt, src), Out(fmt, cells([8, 8], [4, 4])))
    got = FakeDevice(mode="interpret").run(k, x, np.zeros(64, fmt.numpy_dtype))[1]
    want = x.reshape(8, 8).T.reshape(-1)
    assert np.array_equal(np.asarray(got).view(np.uint8), want.view(np.uint8))
