"""FakeDevice(fill=...): undefined memory (fresh allocations, scratch, the Outs `run` stages)
holds a signalling pattern, so reads of it show in the results; zeros stay the default."""

from __future__ import annotations

import numpy as np
import pytest

from tileir import F32, I32, In, Out, cells, load, load_cell, scratch, store, store_cell, trace
from tileir.errors import UsageError
from tileir.fake import FakeDevice, interpret
from tileir.fake.fill import SIGNAL, Fill
from tileir.kernels.registry import get

G8 = cells([8], [4])


def _scratch_early(x, out):
    t = yield load_cell(x)
    buf = yield scratch(x.format, 8)
    yield store(buf, 0, t)
    yield store_cell(out, (yield load(buf, 2, shape=(4,))))  # elements 4, 5: never stored


def _kernel(fmt):
    return trace(f"scratch_early_{fmt}", _scratch_early, In(fmt, G8), Out(fmt, G8))


def test_scratch_read_before_its_store_shows_nan_with_the_signal_fill():
    k = _kernel(F32)
    x, out = np.arange(8, dtype=np.float32), np.zeros(8, np.float32)
    got = FakeDevice("interpret", fill="signal").run(k, x, out)[1]
    want = np.array([2, 3, np.nan, np.nan, 6, 7, np.nan, np.nan], np.float32)
    np.testing.assert_array_equal(got, want)
    # the default fill is zeros, as before
    plain = FakeDevice("interpret").run(k, x, out)[1]
    np.testing.assert_array_equal(plain, [2, 3, 0, 0, 6, 7, 0, 0])


def test_integers_get_the_chosen_pattern():
    k = _kernel(I32)
    x, out = np.arange(8, dtype=np.int32), np.zeros(8, np.int32)
    got = FakeDevice("interpret", fill="signal").run(k, x, out)[1]
    assert [int(v) & 0xFFFFFFFF for v in got[2:4]] == [0xA5A5A5A5] * 2
    mine = FakeDevice("interpret", fill=Fill(integer=-7)).run(k, x, out)[1]
    assert list(mine) == [2, 3, -7, -7, 6, 7, -7, -7]
    # the interpreter takes the same fill
    ran = interpret(k.module, k.name, [x, out], (2,), fill=Fill(integer=99))[1]
    assert list(ran) == [2, 3, 99, 99, 6, 7, 99, 99]


def _short_copy():
    def copy(x, out):
        yield store_cell(out, (yield load_cell(x)))

    return trace("copy7", copy, In(F32, cells([7], [4])), Out(F32, cells([7], [4])))


def test_an_out_element_the_kernel_never_writes_comes_back_as_the_pattern():
    k = _short_copy()
    x, out = np.arange(8, dtype=np.float32), np.full(8, 5.0, np.float32)
    got = FakeDevice("interpret", fill="signal").run(k, x, out)[1]
    assert np.isnan(got[7]) and list(got[:7]) == list(range(7))
    # undefined=() keeps what the caller's arrays held
    kept = FakeDevice("interpret", fill="signal", undefined=()).run(k, x, out)[1]
    assert kept[7] == 5.0
    # and without a fill the caller's contents stay, as before
    assert FakeDevice("interpret").run(k, x, out)[1][7] == 5.0


def test_a_fresh_allocation_holds_the_pattern():
    dev = FakeDevice("interpret", fill=SIGNAL)
    assert np.isnan(dev.copy_out(dev.alloc(F32, 3))).all()
    assert (FakeDevice().copy_out(FakeDevice().alloc(F32, 3)) == 0).all()


def test_the_signal_fill_keeps_bundled_kernels_agreeing_with_their_references():
    for name in ("softmax", "scratch_reverse", "flash_attn"):
        spec = get(name)
        args, grid = spec.inputs(np.random.default_rng(0))
        FakeDevice("both", fill="signal").run(spec.kernel(), *args, grid=grid)


def test_bad_fills_and_undefined_arguments_are_refused_by_name():
    with pytest.raises(UsageError, match=r"fill='nan'.*'signal'"):
        FakeDevice(fill="nan")
    k = _short_copy()
    dev = FakeDevice("interpret", fill="signal", undefined=[4])
    with pytest.raises(UsageError, match=r"undefined=\[4\] names argument 4"):
        dev.run(k, np.zeros(8, np.float32), np.zeros(8, np.float32))


def test_masked_off_lanes_without_a_padding_operand_hold_the_fill():
    from support.undefined_lanes import MASK, masked_copy

    m = masked_copy()
    x = np.arange(8, dtype=np.float32) + 1
    got = interpret(m, "k", [x, np.zeros(8, np.float32)], (1,), fill="signal")[1]
    assert np.isnan(got[~MASK]).all() and (got[MASK] == x[MASK]).all()
    plain = interpret(m, "k", [x, np.zeros(8, np.float32)], (1,))[1]
    assert (plain[~MASK] == 0).all()
