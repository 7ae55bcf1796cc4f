"""The fake device as a host program sees it: the seed's launches in all three modes."""

import numpy as np
import pytest

from tileir import F32, F64, In, LaunchError, MismatchError, Out, TileIRError, cells, trace
from tileir.fake import FakeDevice
from tileir.kernels.chapter import softmax, vadd
from tileir.kernels.registry import get

SOFTMAX_3_OF_4 = np.array([1.0, 2.0, 3.0, 0.0])
EXPECTED = [0.09003057317038043, 0.24472847105479767, 0.6652409557748218, 9.0]


def _softmax_kernel():
    return trace("softmax", softmax, In(F64, cells([3], [4], pad="neg_inf")),
                 Out(F64, cells([3], [4])))


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
        assert str(info.value) == ("tileir: kernel `vadd_tail`: `launch`: argument 0 (In) holds "
                                   "999 element(s) and its cells reach 1000")


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
