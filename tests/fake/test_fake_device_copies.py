"""The fake device's host path copies no more than it must (spies and identities, no timing).

The interpreter never modifies its arguments, so a launch hands it the buffers' own
arrays and writes back only what it wrote; the reference, which may modify what it is
given, gets copies; ``FakeDevice.run`` owns its buffers, so in ``interpret`` mode the
kernel writes them in place and the arrays it returns are the buffers themselves.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import tileir.fake.interpreter as interp_module
from tileir import F32, In, Out, assert_, cells, load_cell, store_cell, trace
from tileir.errors import InterpretError
from tileir.fake import FakeDevice

N, CELL = 4096, 512


def _vadd(a, b, out):
    x = yield load_cell(a)
    y = yield load_cell(b)
    yield store_cell(out, x + y)


def _vadd_kernel():
    g = cells([N], [CELL])
    return trace("copies_vadd", _vadd, In(F32, g), In(F32, g), Out(F32, g))


def _inputs():
    rng = np.random.default_rng(0)
    return [rng.standard_normal(N, dtype=np.float32) for _ in range(2)]


@pytest.fixture
def seen(monkeypatch):
    """The argument lists the interpreter is called with (it still runs)."""
    calls = []
    real = interp_module.interpret

    def spy(module, entry, args, grid, **options):
        calls.append((list(args), options))
        return real(module, entry, args, grid, **options)

    monkeypatch.setattr(interp_module, "interpret", spy)
    return calls


def _buffers(dev, *arrays):
    bufs = []
    for a in arrays:
        buf = dev.alloc(F32, a.size)
        dev.copy_in(buf, a)
        bufs.append(buf)
    return bufs


def test_launch_hands_the_interpreter_the_buffers_and_writes_back_only_the_out(seen):
    x, y = _inputs()
    dev = FakeDevice(mode="interpret")
    a, b, out = _buffers(dev, x, y, np.zeros(N, np.float32))
    handles = [a.handle, b.handle, out.handle]
    for h in handles[:2]:
        h.flags.writeable = False  # a write-back into an In would raise
    dev.launch(_vadd_kernel(), a, b, out)
    ((args, options),) = seen
    assert all(got is h for got, h in zip(args, handles))  # no copy before the launch
    assert options["owned"] == ()  # buffers the caller sees are never written in place
    assert all(buf.handle is h for buf, h in zip((a, b, out), handles))  # written in place
    assert np.array_equal(out.handle, x + y)
    assert np.array_equal(a.handle, x) and np.array_equal(b.handle, y)


def test_both_mode_gives_the_reference_copies_and_the_interpreter_the_buffers(seen):
    x, y = _inputs()
    given = []

    def reference(args):
        given.append(args)
        for arr in args:
            arr[:] = -1.0  # a reference may scribble on what it is given
        return [x.copy(), y.copy(), x + y]

    dev = FakeDevice(mode="both", references={"copies_vadd": reference})
    bufs = _buffers(dev, x, y, np.zeros(N, np.float32))
    report = dev.launch(_vadd_kernel(), *bufs)
    assert "agrees with the reference" in str(report)
    ((args, _),) = seen
    assert all(got is buf.handle for got, buf in zip(args, bufs))
    assert not any(np.shares_memory(r, buf.handle) for r, buf in zip(given[0], bufs))
    assert np.array_equal(bufs[0].handle, x) and np.array_equal(bufs[1].handle, y)
    assert np.array_equal(bufs[2].handle, x + y)


def test_run_lends_the_callers_arrays_and_hands_back_what_the_kernel_made(seen):
    x, y = _inputs()
    out0 = np.full(N, 5.0, np.float32)
    got = FakeDevice(mode="interpret").run(_vadd_kernel(), x, y, out0)
    ((args, options),) = seen
    assert options["owned"] == frozenset()  # every array lent: nothing copied in
    assert all(a.base is not None and not a.flags.writeable for a in args)
    # the Ins come back as read-only views of the caller's own; the Out as a new array
    assert all(np.shares_memory(g, a) and not g.flags.writeable for g, a in zip(got, (x, y)))
    assert not np.shares_memory(got[2], out0)
    assert np.array_equal(got[2], x + y)
    assert np.array_equal(got[0], x) and np.array_equal(got[1], y)
    assert (out0 == 5.0).all()  # the caller's arrays never change


def test_run_copies_an_array_it_cannot_lend_as_it_is(seen):
    x, _ = _inputs()
    strided = np.repeat(x, 2)[::2]  # not contiguous
    got = FakeDevice(mode="interpret").run(_vadd_kernel(), x, strided, np.zeros(N, np.float32))
    ((_, options),) = seen
    assert options["owned"] == {1}  # the strided In was copied into a buffer of its own
    assert not got[0].flags.writeable and got[1].flags.writeable
    assert np.array_equal(got[2], x + x)


def test_run_copies_an_array_passed_twice_so_the_buffers_stay_apart(seen):
    x, _ = _inputs()
    got = FakeDevice(mode="interpret").run(_vadd_kernel(), x, x, x)  # Out = In: allowed in run
    assert np.array_equal(got[2], x + x) and np.array_equal(got[0], x)
    ((_, options),) = seen
    assert options["owned"] == {1, 2}


def test_copy_in_makes_no_temporary_copy():
    dev = FakeDevice(mode="interpret")
    src = np.arange(1 << 20, dtype=np.float32)
    buf = dev.alloc(F32, src.size)
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        dev.copy_in(buf, src)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak - before < src.nbytes // 8
    assert np.array_equal(buf.handle, src)


def _store_then_fail(x, out):
    t = yield load_cell(x)
    yield store_cell(out, t)
    yield assert_(t < t, "the kernel gives up after its store")


def test_a_launch_that_faults_leaves_the_buffers_as_they_were():
    g = cells([N], [CELL])
    kernel = trace("copies_fault", _store_then_fail, In(F32, g), Out(F32, g))
    dev = FakeDevice(mode="interpret")
    x, _ = _inputs()
    a, out = _buffers(dev, x, np.full(N, 3.0, np.float32))
    with pytest.raises(InterpretError, match="gives up"):
        dev.launch(kernel, a, out)
    assert (out.handle == 3.0).all()
    with pytest.raises(InterpretError, match="gives up"):
        dev.run(kernel, x, np.zeros(N, np.float32))
