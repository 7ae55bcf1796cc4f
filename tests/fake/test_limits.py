"""Resource limits of the fake device (issue 13, point 3): trips of ``for`` / ``loop``,
elements per tile, bytes per launch; each refusal names the setting to raise."""

from __future__ import annotations

import numpy as np
import pytest

from support.module_builder import F32, I32, I64, FunctionBuilder, ptr, scalar
from tileir.errors import InterpretError
from tileir.fake.interpreter import interpret
from tileir.fake.limits import Limits, power_text
from tileir.types import TileType


def _spin_loop():
    """A ``loop`` whose body only ``continue``s: it never ends on its own."""
    fb = FunctionBuilder("spin", [ptr(F32)])
    zero = fb.c32(0)
    fb.loop([zero], lambda i: fb.op("continue", (i,), ()))
    fb.ret()
    return fb.module()


def _long_for(ub: int):
    fb = FunctionBuilder("long_for", [ptr(F32)])
    lb, hi, step = (fb.const(v, scalar(I64)) for v in (0, ub, 1))
    fb.for_loop(lb, hi, step, [], lambda iv: ())
    fb.ret()
    return fb.module()


def test_a_loop_that_only_continues_stops_at_the_trip_limit():
    with pytest.raises(InterpretError) as e:
        interpret(_spin_loop(), "spin", [np.zeros(1, np.float32)], 1, limits=Limits(max_trips=50))
    text = str(e.value)
    assert "`loop` ran 50 trips" in text and "FakeDevice(max_trips=...)" in text
    assert "spin" in text and "kernel.py" in text


def test_a_for_over_two_to_the_62_is_refused_before_it_starts():
    with pytest.raises(InterpretError, match=r"would run 4611686018427387904 trips.*2\^31"):
        interpret(_long_for(2**62), "long_for", [np.zeros(1, np.float32)], 1)


def test_a_for_within_the_limit_runs():
    out = interpret(_long_for(5), "long_for", [np.zeros(1, np.float32)], 1, limits=Limits(5))
    assert out[0].shape == (1,)
    with pytest.raises(InterpretError, match="would run 5 trips"):
        interpret(_long_for(5), "long_for", [np.zeros(1, np.float32)], 1, limits=Limits(4))


def _big_tile(n: int):
    fb = FunctionBuilder("big", [ptr(F32)])
    fb.op1("iota", (), TileType((n,), I32))
    fb.ret()
    return fb.module()


def test_a_tile_above_the_element_limit_is_refused_before_it_runs():
    with pytest.raises(InterpretError, match=r"1024 elements.*2\^9 elements per tile") as e:
        interpret(
            _big_tile(1024),
            "big",
            [np.zeros(1, np.float32)],
            1,
            limits=Limits(max_tile_elements=512),
        )
    assert "max_tile_elements" in str(e.value) and "`iota`" in str(e.value)


def test_the_dialects_tile_cap_is_enforced_by_the_checker():
    from tileir.errors import VerifyError

    with pytest.raises(VerifyError, match="more than the 16777216"):
        interpret(_big_tile(1 << 25), "big", [np.zeros(1, np.float32)], 1)


def test_launch_bytes_bound_one_blocks_values():
    with pytest.raises(InterpretError, match="max_launch_bytes"):
        interpret(
            _big_tile(1 << 16),
            "big",
            [np.zeros(1, np.float32)],
            1,
            limits=Limits(max_launch_bytes=1 << 16),
        )


def test_launch_bytes_bound_allocas():
    fb = FunctionBuilder("alloc", [ptr(F32)])
    fb.op1("alloca", (), ptr(F32), {"num_elem": 1 << 12, "alignment": 16})
    fb.ret()
    m = fb.module()
    interpret(m, "alloc", [np.zeros(1, np.float32)], 4)  # 64 KiB: well inside the default
    with pytest.raises(InterpretError, match="an alloca of 4096 elements for 4 block"):
        interpret(
            m, "alloc", [np.zeros(1, np.float32)], 4, limits=Limits(max_launch_bytes=1 << 15)
        )


def test_fake_device_takes_the_limits():
    from tileir.fake.device import FakeDevice

    dev = FakeDevice(mode="interpret", max_trips=7, max_tile_elements=64, max_launch_bytes=1 << 20)
    assert dev.limits == Limits(7, 64, 1 << 20)
    with pytest.raises(ValueError, match="max_trips must be a positive int"):
        FakeDevice(max_trips=0)


def test_limits_read_as_powers():
    assert power_text(1 << 31) == "2^31" and power_text(12) == "12"
