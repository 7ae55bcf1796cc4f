"""The fake device runs multimem kernels on replicas: a multicast buffer is ``devices``
replicas back to back; load-reduce reduces across them, reduce reduces into each, store
writes each; references see every replica."""

from __future__ import annotations

import numpy as np
import pytest

from tileir import (
    F16,
    F32,
    FREE_AXIS,
    I32,
    I64,
    In,
    Out,
    Shared,
    cells,
    load_cell,
    load_reduce_cell,
    reduce_cell,
    store_cell,
    store_cell_all,
    trace,
)
from tileir.errors import InterpretError, MismatchError, UsageError
from tileir.fake import FakeDevice
from tileir.kernels.multimem import reduce_rows

G = cells([200], [64])  # four blocks, the last with 56 lanes past the extent


def _load_kernel(fmt, reduction):
    def body(x, out):
        yield store_cell(out, (yield load_reduce_cell(x, reduction=reduction)))

    return trace("lr", body, In(fmt, G, ptr_attr="multicast"), Out(fmt, G))


def _run(kernel, devices, *arrays, grid=None):
    dev = FakeDevice(mode="interpret", devices=devices)
    return dev.run(kernel, *arrays, grid=grid)


@pytest.mark.parametrize("devices", [1, 2, 5])
@pytest.mark.parametrize(
    "fmt,reduction",
    [
        (I32, "add"),
        (I64, "umin"),
        (I32, "umax"),
        (I32, "min"),
        (I64, "xor"),
        (I32, "and"),
        (I64, "or"),
        (F16, "max"),
        (F32, "add"),
    ],
)
def test_load_reduce_reduces_the_corresponding_elements_of_every_replica(devices, fmt, reduction):
    rng = np.random.default_rng(devices)
    if fmt.is_float:
        x = rng.uniform(-8, 8, devices * 200).astype(fmt.numpy_dtype)
    else:
        info = np.iinfo(fmt.numpy_dtype)
        x = rng.integers(info.min, info.max, devices * 200, dtype=fmt.numpy_dtype)
    _, out = _run(_load_kernel(fmt, reduction), devices, x, np.zeros(200, fmt.numpy_dtype))
    np.testing.assert_array_equal(out, reduce_rows(reduction, x.reshape(devices, 200)))


def test_umin_and_umax_compare_the_unsigned_bits():
    x = np.array([[-1] * 200, [1] * 200], dtype=np.int32).reshape(-1)
    _, lo = _run(_load_kernel(I32, "umin"), 2, x, np.zeros(200, np.int32))
    _, hi = _run(_load_kernel(I32, "umax"), 2, x, np.zeros(200, np.int32))
    _, signed = _run(_load_kernel(I32, "min"), 2, x, np.zeros(200, np.int32))
    assert (lo == 1).all() and (hi == -1).all() and (signed == -1).all()


def test_float_adds_round_in_their_format_in_replica_order():
    # 2048 + 1 is 2048 in f16 (ties to even), so the order of the additions shows
    rows = np.array([[2048.0] * 200, [1.0] * 200, [1.0] * 200], dtype=np.float16)
    _, out = _run(_load_kernel(F16, "add"), 3, rows.reshape(-1), np.zeros(200, np.float16))
    assert (out == np.float16(2048)).all()
    rows = rows[::-1].copy()  # 1 + 1 + 2048 = 2050
    _, out = _run(_load_kernel(F16, "add"), 3, rows.reshape(-1), np.zeros(200, np.float16))
    assert (out == np.float16(2050)).all()


def test_store_writes_every_replica_and_no_lane_past_the_extent():
    def body(x, out):
        yield store_cell_all(out, (yield load_cell(x)))

    k = trace("st", body, In(F32, G), Out(F32, cells([200], [64]), ptr_attr="multicast"))
    x = np.arange(200, dtype=np.float32)
    before = np.full(3 * 256, -1.0, np.float32)  # replicas of 256: 56 elements past 200 each
    _, out = _run(k, 3, x, before)
    rows = out.reshape(3, 256)
    for r in range(3):
        np.testing.assert_array_equal(rows[r, :200], x)
        assert (rows[r, 200:] == -1).all()


def test_reduce_adds_every_blocks_tile_into_every_replica_atomically():
    acc = cells([64], [64], along=[FREE_AXIS])

    def body(x, a):
        yield reduce_cell(a, (yield load_cell(x)), [0])

    k = trace("rd", body, In(I32, cells([256], [64])), Shared(I32, acc, ptr_attr="multicast"))
    x = np.arange(256, dtype=np.int32)
    start = np.arange(4 * 64, dtype=np.int32) * 1000
    _, got = _run(k, 4, x, start, grid=[4])
    want = start.reshape(4, 64) + x.reshape(4, 64).sum(axis=0)
    np.testing.assert_array_equal(got.reshape(4, 64), want)


def test_a_reference_that_misses_a_replica_is_caught():
    def body(x, out):
        yield store_cell_all(out, (yield load_reduce_cell(x)))

    k = trace("ar", body, In(I32, G, ptr_attr="multicast"), Out(I32, G, ptr_attr="multicast"))

    def first_replica_only(args):
        x, out = args[0].reshape(3, -1), args[1].copy()
        out[:200] = x.sum(axis=0, dtype=np.int32)  # forgets replicas 1 and 2
        return [args[0], out]

    def every_replica(args):
        x = args[0].reshape(3, -1)
        return [args[0], np.tile(x.sum(axis=0, dtype=np.int32), 3)]

    x = np.arange(600, dtype=np.int32)
    dev = FakeDevice(devices=3, references={"ar": every_replica})
    dev.run(k, x, np.zeros(600, np.int32))
    dev = FakeDevice(devices=3, references={"ar": first_replica_only})
    with pytest.raises(MismatchError, match="at element 200"):
        dev.run(k, x, np.zeros(600, np.int32))


def test_alloc_multicast_and_bad_replica_counts():
    dev = FakeDevice(devices=4)
    assert dev.alloc_multicast(F32, 10).length == 40
    for bad in (0, -1, True, 2.0):
        with pytest.raises(UsageError, match="devices="):
            FakeDevice(devices=bad)
    with pytest.raises(InterpretError, match="not 3 equal replicas"):
        _run(_load_kernel(I32, "add"), 3, np.zeros(601, np.int32), np.zeros(200, np.int32))
