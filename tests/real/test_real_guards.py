"""Pointer-path accesses cannot leave their buffer on a GPU (issue 13, point 5).

The checked lowering (tileir/lower/guards.py) passes each pointer-path buffer's element
count and guards every pointer-path access with the dialect's ``assert``.  The same
module runs on the fake device (the assert is an InterpretError naming the op and line)
and, through the fake CUDA driver, on the real device's path: the driver sees the packed
count, the assert traps before the store, and nothing outside the buffer changes.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest
from test_real_device import computing_device

from tileir import (
    F32,
    I8,
    I32,
    Scalar,
    Shared,
    address,
    int_to_ptr,
    iota,
    load,
    offset,
    ptr_to_ptr,
    scalar,
    store,
    trace,
)
from tileir.errors import InterpretError, LaunchError, LoweringError, TileIRError
from tileir.fake import FakeDevice
from tileir.record.convention import entry_param_types


def _poke(x, i):
    yield store(offset(address(x), scalar(i)), 0, 7.0)  # one element at a runtime offset


def poke(checked: bool = True):
    return trace("poke", _poke, Shared(F32), Scalar(I32), checked=checked)


POKE_LINE = _poke.__code__.co_firstlineno + 1


def test_the_checked_entry_takes_the_count_and_guards_the_store():
    k = poke()
    assert k.guarded == (0,)
    assert [str(t) for t in entry_param_types(k.params, k.guarded)] == [
        "tile<ptr<f32>>",
        "tile<i32>",
        "tile<i64>",
    ]
    text = k.text()
    assert "assert" in text and "`store_ptr_tko`" in text and f":{POKE_LINE}" in text
    assert text.index("assert") < text.index("store_ptr_tko weak")  # the guard comes first


def test_the_unchecked_opt_out_has_no_guard_and_no_count():
    k = poke(checked=False)
    assert k.guarded == () and "assert" not in k.text()
    assert [str(t) for t in entry_param_types(k.params, k.guarded)] == [
        "tile<ptr<f32>>",
        "tile<i32>",
    ]


@pytest.mark.parametrize("length, i", [(16, 1000), (16, 16), (16, -1), (0, 0)])
def test_the_fake_device_stops_the_guarded_store(length, i):
    dev = FakeDevice(mode="interpret")
    buf = dev.alloc(F32, length)
    with pytest.raises(InterpretError) as err:
        dev.launch(poke(), buf, i, grid=[1])
    text = str(err.value)
    assert err.value.kernel == "poke" and err.value.op == "assert"
    assert "`store_ptr_tko`: a lane addresses memory outside argument 0 (Shared)" in text
    assert f"test_real_guards.py:{POKE_LINE}" in text
    assert (dev.copy_out(buf) == 0).all()


def test_in_bounds_stores_run_on_both_devices():
    k = poke()
    fake_dev = FakeDevice(mode="interpret")
    fb = fake_dev.alloc(F32, 16)
    fake_dev.launch(k, fb, 15, grid=[1])
    dev, driver = computing_device(k)
    rb = dev.alloc(F32, 16)
    dev.launch(k, rb, 15, grid=[1])
    want = np.zeros(16, np.float32)
    want[15] = 7.0
    assert np.array_equal(fake_dev.copy_out(fb), want) and np.array_equal(dev.copy_out(rb), want)
    # the packed block: the pointer, the i32 offset, then the i64 count read off the allocation
    values = driver.launches[-1][4]
    assert struct.unpack("<i", values[1]) == (15,) and struct.unpack("<q", values[2]) == (16,)


@pytest.mark.parametrize("length, i", [(16, 1000), (0, 0)])
def test_the_real_device_path_stops_a_store_past_the_buffer(length, i):
    k = poke()
    dev, driver = computing_device(k)
    buf = dev.alloc(F32, length)
    guard = dev.alloc(F32, 4096)  # memory after it, which a GPU store at 1000 could reach
    with pytest.raises(LaunchError) as err:
        dev.launch(k, buf, i, grid=[1])
    assert err.value.kind == "launch.trap" and err.value.kernel == "poke"
    text = str(err.value)
    assert "CUDA_ERROR_ASSERT" in text and "`store_ptr_tko`" in text
    assert f"test_real_guards.py:{POKE_LINE}" in text
    assert struct.unpack("<q", driver.launches[-1][4][2]) == (length,)  # the real size was packed
    assert (dev.copy_out(buf) == 0).all() and (dev.copy_out(guard) == 0).all()


def _gather_masked(x, n):
    idx = iota(16) * 100  # lanes 1.. point far past a 16-element buffer
    ok = idx < scalar(n)
    t = yield load(x, offsets=idx, mask=ok, padding=0)
    yield store(x, 0, t, mask=ok)


def test_masked_off_lanes_are_not_checked():
    k = trace("masked", _gather_masked, Shared(F32), Scalar(I32))
    xs = np.arange(16, dtype=np.float32) + 1
    out = FakeDevice(mode="interpret").run(k, xs, 1, grid=[1])[0]
    assert out[0] == 1.0  # lane 0 is the only one in range and enabled
    with pytest.raises(InterpretError, match="`load_ptr_tko`: a lane addresses memory"):
        FakeDevice(mode="interpret").run(k, xs, 1000, grid=[1])  # the mask lets lane 1 through


def _static(x):
    yield store(x, 20, 1.0)  # a constant offset


def test_a_constant_offset_past_the_buffer_is_refused_before_launch_on_both_devices():
    k = trace("static_poke", _static, Shared(F32))
    assert k.static_reach and k.static_reach[0][:2] == (0, 21)
    errors = []
    fake_dev = FakeDevice(mode="interpret")
    dev, driver = computing_device(k)
    for d in (fake_dev, dev):
        with pytest.raises(LaunchError) as err:
            d.launch(k, d.alloc(F32, 16), grid=[1])
        errors.append((err.value.kind, str(err.value)))
    assert errors[0] == errors[1] and errors[0][0] == "launch.pointer_bounds"
    assert "holds 16 element(s), and store_ptr_tko at" in errors[0][1]
    assert "addresses element 20" in errors[0][1] and driver.launches == []
    fake_dev.launch(k, fake_dev.alloc(F32, 21), grid=[1])  # 21 is enough


def _before(x):
    yield store(x, -1, 1.0)


def test_a_negative_constant_offset_is_refused_while_tracing():
    with pytest.raises(LoweringError) as err:
        trace("before", _before, Shared(F32))
    text = str(err.value)
    assert err.value.kernel == "before" and err.value.op == "store_ptr_tko"
    assert "offset -1 of argument 0 (Shared) is before the buffer's start" in text
    assert f"test_real_guards.py:{_before.__code__.co_firstlineno + 1}" in text
    trace("before", _before, Shared(F32), checked=False)  # the opt-out records it


def test_a_pointer_made_of_a_number_needs_the_opt_out():
    from tileir import I64, constant

    def forged(x):
        p = int_to_ptr(constant(4096, I64), F32)
        yield store(p, 0, 1.0)

    with pytest.raises(TileIRError) as err:
        trace("forged", forged, Shared(F32))
    assert "checked=False" in str(err.value) and err.value.kernel == "forged"
    k = trace("forged", forged, Shared(F32), checked=False)
    assert k.guarded == () and "assert" not in k.text()


def _bytes_as_floats(x, i):
    p = offset(ptr_to_ptr(address(x), F32), scalar(i))  # 16 bytes seen as 4 floats
    yield store(p, 0, 1.0)


def test_a_buffer_read_through_another_format_is_bounded_in_its_own_bytes():
    k = trace("bytes_as_floats", _bytes_as_floats, Shared(I8), Scalar(I32))
    dev = FakeDevice(mode="interpret")
    buf = dev.alloc(I8, 16)
    dev.launch(k, buf, 3, grid=[1])  # bytes 12..15: the last whole float
    assert dev.copy_out(buf)[12:].tobytes() == np.float32(1.0).tobytes()
    with pytest.raises(InterpretError, match="outside argument 0"):
        dev.launch(k, dev.alloc(I8, 16), 4, grid=[1])  # bytes 16..19: past the buffer
    with pytest.raises(InterpretError, match="outside argument 0"):
        dev.launch(k, dev.alloc(I8, 18), 4, grid=[1])  # bytes 16..19, two of them past it
