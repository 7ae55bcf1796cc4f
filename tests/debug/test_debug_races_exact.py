"""find_races at its edges: each kind exactly, the reader that is also the lowest writer,
per-block scratch memory, and the schedules it tries (issue 18, point 2).

Each kernel is made so that exactly one mistake in the finder changes its answer: a
read-write race whose reading block is the lowest-numbered writer of the element (a check
that only looks at the lowest writer misses it), scratch memory every block uses at the
same address in its own alloca (shared, it would look like a write-write race), and a
race whose outcome differs only between the device's order and its reverse (the second
schedule the finder must try).
"""

from __future__ import annotations

import numpy as np

from tileir import F64, In, Out, Shared, block_id, cells, load, load_cell, store, store_cell, trace
from tileir.debug import find_races
from tileir.debug.races import schedules
from tileir.fake import FakeDevice
from tileir.ops.views import scratch


def _reader_is_lowest_writer(x, out):
    t = yield load_cell(x)
    # block 0 reads out[0..4); block 1 reads out[8..12), which nobody writes
    seen = yield load(out, block_id(0) * 8, [4])
    # block 0 writes out[0..4), block 1 out[2..6): elements 2 and 3 have writers {0, 1}
    yield store(out, block_id(0) * 2, t + seen)


def test_a_read_by_the_lowest_writer_of_an_element_is_a_race():
    k = trace("lowest_reader", _reader_is_lowest_writer, In(F64, cells([8], [4])), Shared(F64))
    found = find_races(k, [np.arange(8.0), np.zeros(16)], grid=(2,))
    by_kind = {f.detail: f for f in found}
    assert sorted(by_kind) == ["read-write", "write-write"]
    rw = by_kind["read-write"]
    assert (rw.op.name, rw.block, rw.element) == ("load_ptr_tko", (0, 0, 0), 2)
    assert (rw.related[0].op.name, rw.related[0].block) == ("store_ptr_tko", (1, 0, 0))
    assert "2 element(s) conflict" in rw.message  # elements 2 and 3, nothing else
    ww = by_kind["write-write"]
    assert (ww.op.name, ww.related[0].op.name) == ("store_ptr_tko", "store_ptr_tko")
    assert {ww.block, ww.related[0].block} == {(0, 0, 0), (1, 0, 0)}


def _through_scratch(x, out):
    t = yield load_cell(x)
    tmp = yield scratch(F64, 4)  # each block's own: the same alloca, never shared
    yield store(tmp, 0, t * 2.0)
    back = yield load(tmp, 0, [4])
    yield store_cell(out, back)


def test_per_block_scratch_memory_is_not_shared_between_blocks():
    # every block's alloca holds its own values (read back unchanged), and the finder
    # reports nothing: the blocks' scratch memory lies apart (the interpreter puts their
    # allocations back to back), so no element has two blocks' accesses
    g = cells([16], [4])
    k = trace("scratch_pass", _through_scratch, In(F64, g), Out(F64, g))
    x = np.arange(16.0)
    (_, out) = FakeDevice(mode="interpret").run(k, x, np.zeros(16))
    assert np.array_equal(out, 2.0 * x)
    assert find_races(k, [x, np.zeros(16)], grid=(4,)) == []


def test_the_schedules_are_the_device_order_its_reverse_then_shuffles():
    blocks = [(i, 0, 0) for i in range(4)]
    assert schedules((4,), 2) == [blocks, blocks[::-1]]
    tried = schedules((4,), 5, seed=3)
    assert tried[:2] == [blocks, blocks[::-1]] and len(tried) >= 3
    assert all(sorted(o) == blocks for o in tried)
    assert schedules((2, 2), 1) == [[(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)]]


def _last_writer_wins(x, out):
    t = yield load_cell(x)
    yield store(out, 0, t)  # every block writes out[0..4): whoever runs last wins


def test_a_race_that_only_the_reverse_order_shows_is_observable():
    k = trace("last_wins", _last_writer_wins, In(F64, cells([16], [4])), Shared(F64))
    # two schedules: the device's order and its reverse; nothing else to find it with
    (f,) = find_races(k, [np.arange(16.0), np.zeros(4)], grid=(4,), schedule_count=2)
    assert f.detail == "write-write"
    assert "the result depends on the schedule" in f.message
    assert "order [3, 2, 1, 0]" in f.message
