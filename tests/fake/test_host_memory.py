"""A buffer or launch larger than the host's memory is refused before it starts, with the
numbers (issue 19, point 3), never a bare MemoryError half-way."""

from __future__ import annotations

import numpy as np
import pytest

from tileir import F32, In, Out, cells, load_cell, store_cell, trace
from tileir.errors import InterpretError, LaunchError
from tileir.fake import FakeDevice, limits
from tileir.fake.interpreter import interpret


def _copy(a, out):
    x = yield load_cell(a)
    yield store_cell(out, x)


def test_the_host_says_how_much_memory_it_has():
    have = limits.host_available_bytes()
    assert have is None or have > 1 << 20


def test_an_alloc_beyond_the_host_is_refused_with_both_numbers():
    with pytest.raises(LaunchError) as caught:
        FakeDevice().alloc(F32, 1 << 50)  # 4 PiB
    err = caught.value
    assert err.kind == "fake.memory" and err.op == "alloc"
    assert str(4 << 50) in str(err) and "available" in str(err)


def test_a_launch_whose_buffers_the_host_could_not_copy_is_refused_before_it_runs(monkeypatch):
    g = cells([1024], [256])
    kernel = trace("copy_big", _copy, In(F32, g), Out(F32, g))
    a, out = np.ones(1024, np.float32), np.zeros(1024, np.float32)
    monkeypatch.setattr(limits, "host_available_bytes", lambda: 4096)
    monkeypatch.setattr(limits, "_ALWAYS_THERE", 0)  # ask the (patched) host at any size
    with pytest.raises(InterpretError) as caught:
        interpret(kernel.module, "copy_big", [a, out], kernel.grid)
    text = str(caught.value)
    assert "copy_big" in text and "8192 bytes" in text and "4096 bytes" in text
    assert not out.any()  # nothing ran
    # handed over (owned), the buffers are written in place: nothing to copy, so it runs
    got = interpret(kernel.module, "copy_big", [a, out], kernel.grid, owned=(0, 1))
    assert got[1] is out and (out == 1).all()


def test_within_the_hosts_memory_nothing_is_refused(monkeypatch):
    monkeypatch.setattr(limits, "host_available_bytes", lambda: None)  # the host does not say
    assert limits.beyond_host(1 << 60) is None
    monkeypatch.setattr(limits, "host_available_bytes", lambda: 1000)
    assert limits.beyond_host(1001) is None  # below 256 MiB the host is not even asked
    monkeypatch.setattr(limits, "_ALWAYS_THERE", 0)
    assert limits.beyond_host(1000) is None
    assert "1001 bytes" in limits.beyond_host(1001)
