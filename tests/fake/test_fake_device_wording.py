"""The fake device's refusals name the kernel, the argument, the device and the fix (issue 14)."""

from __future__ import annotations

import numpy as np
import pytest

from tileir import F32, In, LaunchError, Out, cells, load_cell, store_cell, trace
from tileir.fake import FakeDevice

G = cells([100], [64])


def _double(x, out):
    t = yield load_cell(x)
    yield store_cell(out, t + t)


K = trace("double", _double, In(F32, G), Out(F32, G))


def test_a_buffer_of_another_fake_device_names_both_devices():
    mine, other = FakeDevice(mode="interpret"), FakeDevice(mode="interpret")
    a, o = other.alloc(F32, 100), mine.alloc(F32, 100)
    with pytest.raises(LaunchError) as info:
        mine.launch(K, a, o)
    text = str(info.value)
    assert info.value.kernel == "double" and info.value.kind == "launch.device"
    assert (
        f"argument 0, Buffer(f32[100] on fake), belongs to another device ({other.label})" in text
    )
    assert f"not to this one ({mine.label})" in text and other.label != mine.label
    assert "allocate it with this device's alloc()" in text


def test_copy_in_of_the_wrong_format_names_the_buffer_and_the_conversion():
    dev = FakeDevice(mode="interpret")
    buf = dev.alloc(F32, 100)
    with pytest.raises(LaunchError) as info:
        dev.copy_in(buf, np.zeros(100))
    text = str(info.value)
    assert text.count("copy_in") == 1, text
    assert (
        "`copy_in`: the array holds float64 and Buffer(f32[100] on fake) holds f32 (float32); "
        "convert it first: array.astype(F32.numpy_dtype)"
    ) in text


def test_run_names_the_kernel_and_the_argument_of_a_wrong_array():
    dev = FakeDevice(mode="interpret")
    with pytest.raises(LaunchError) as info:
        dev.run(K, np.arange(100, dtype=np.float32), np.zeros(100))
    text = str(info.value)
    assert text.startswith(
        "tileir: kernel `double`: `run`: argument 1 (Out f32): the array holds float64"
    )
    assert "copy_in: copy_in" not in text
