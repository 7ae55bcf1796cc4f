"""The interpreter at two edges the common kernels miss (issue 18, point 2).

* Reductions and scans with a combiner whose argument order matters.  A combiner must be
  associative (the device combines in a tree, :mod:`tileir.ops.reductions`), so these use
  two associative combiners that do not commute: the composition of affine maps
  ``x -> a*x + b`` (``acc`` applied first, then the element), and "the first nonzero
  value".  A Python fold over the elements is the reference, for every length 1 to 9,
  forward and reverse (a reverse scan folds from the last element: ``out[i]`` combines
  ``x[n-1], x[n-2], ..., x[i]`` in that order).  A swapped ``(acc, x)`` anywhere, in the
  recorder, the region's block arguments or the interpreter's tree, changes the answer.
* Gathers and scatters with a row index exactly at the extent: the row reads as the
  cells' padding, and a scatter there writes nothing (one less than the extent is read
  and written).
"""

from __future__ import annotations

import numpy as np
import pytest

from tileir import (
    F32,
    FREE_AXIS,
    I32,
    In,
    Out,
    Shared,
    cells,
    gather,
    load_cell,
    not_equal,
    reduce,
    scan,
    scatter,
    store_cell,
    trace,
    where,
)
from tileir.fake import FakeDevice

LENGTHS = range(1, 10)


def _tile_for(n: int) -> int:
    """The smallest power of two holding ``n`` elements (tiles are powers of two)."""
    return 1 << (n - 1).bit_length()


# -- affine composition: (a, b) is x -> a*x + b --------------------------------------

AFFINE_IDENTITY = (1, 0)


def _compose(acc, x):
    """``acc`` first, then ``x``: x.a * (acc.a * v + acc.b) + x.b."""
    (a1, b1), (a2, b2) = acc, x
    return (a1 * a2, a2 * b1 + b2)


def _fold(combine, identity, values):
    """Every step of the left fold of ``values`` by ``combine`` from ``identity``."""
    acc, steps = identity, []
    for v in values:
        acc = combine(acc, v)
        steps.append(acc)
    return steps


def _scan_reference(combine, identity, values, reverse: bool):
    """The inclusive scan; a reverse one folds from the last element."""
    if not reverse:
        return _fold(combine, identity, values)
    return _fold(combine, identity, values[::-1])[::-1]


def _affine_kernel(m: int, reverse: bool):
    c, one = cells([m], [m]), cells([1], [1])

    def body(a, b, sa, sb, ra, rb):
        ta = yield load_cell(a)
        tb = yield load_cell(b)
        pa, pb = scan((ta, tb), _compose, AFFINE_IDENTITY, reverse=reverse)
        yield store_cell(sa, pa)
        yield store_cell(sb, pb)
        qa, qb = reduce((ta, tb), _compose, AFFINE_IDENTITY, dim=0, keepdims=True)
        yield store_cell(ra, qa)
        yield store_cell(rb, qb)

    return trace(
        f"affine_{m}_{'rev' if reverse else 'fwd'}",
        body,
        In(I32, c),
        In(I32, c),
        Out(I32, c),
        Out(I32, c),
        Out(I32, one),
        Out(I32, one),
    )


@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
def test_affine_composition_scans_and_reduces_like_a_left_fold(reverse):
    rng = np.random.default_rng(18)
    for n in LENGTHS:
        m = _tile_for(n)
        k = _affine_kernel(m, reverse)
        pairs = [(int(rng.integers(1, 4)), int(rng.integers(-5, 6))) for _ in range(n)]
        # lanes past n hold the identity, so they change neither the scan nor the reduction
        padded = pairs + [AFFINE_IDENTITY] * (m - n)
        a = np.array([p[0] for p in padded], np.int32)
        b = np.array([p[1] for p in padded], np.int32)
        zeros = [np.zeros(m, np.int32), np.zeros(m, np.int32), np.zeros(1, np.int32)]
        out = FakeDevice(mode="interpret").run(k, a, b, *zeros, np.zeros(1, np.int32))
        prefix = _scan_reference(_compose, AFFINE_IDENTITY, padded, reverse)
        total = _fold(_compose, AFFINE_IDENTITY, padded)[-1]  # (a reduction has no reverse)
        got = list(zip(out[2].tolist(), out[3].tolist()))
        assert got == prefix, (n, pairs, got)
        assert (int(out[4][0]), int(out[5][0])) == total, (n, pairs)


# -- the first nonzero value: one operand, zero padding is its identity --------------


def _first_nonzero(acc, x):
    return where(not_equal(acc, 0), acc, x)


def _first_nonzero_py(acc: int, x: int) -> int:
    return acc if acc != 0 else x


def _first_nonzero_kernel(n: int, reverse: bool):
    m = _tile_for(n)
    c = cells([n], [m])  # the lanes past n read the zero padding

    def body(x, s, r):
        t = yield load_cell(x)
        yield store_cell(s, scan(t, _first_nonzero, 0, reverse=reverse))
        yield store_cell(r, reduce(t, _first_nonzero, 0, dim=0, keepdims=True))

    return trace(
        f"first_nonzero_{n}_{'rev' if reverse else 'fwd'}",
        body,
        In(I32, c),
        Out(I32, c),
        Out(I32, cells([1], [1])),
    )


@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
def test_first_nonzero_scans_and_reduces_like_a_left_fold(reverse):
    rng = np.random.default_rng(81)
    for n in LENGTHS:
        k = _first_nonzero_kernel(n, reverse)
        for _ in range(3):
            x = rng.integers(1, 9, n).astype(np.int32) * (rng.random(n) < 0.5)
            x = x.astype(np.int32)
            out = FakeDevice(mode="interpret").run(
                k, x, np.zeros(n, np.int32), np.zeros(1, np.int32)
            )
            values = x.tolist()
            prefix = _scan_reference(_first_nonzero_py, 0, values, reverse)
            total = _fold(_first_nonzero_py, 0, values)[-1]
            assert out[1].tolist() == prefix, (n, x.tolist())
            assert int(out[2][0]) == total, (n, x.tolist())


# -- gathers and scatters at the extent exactly --------------------------------------

ROWS, WIDTH, PICK = 8, 4, 4
SENTINEL = 99.0  # what the buffer holds past the extent: never read, never overwritten


def _gather_kernel():
    def body(table, ids, out):
        rows = yield load_cell(ids)
        yield store_cell(out, (yield gather(table, [rows, (0, WIDTH)])))

    return trace(
        "gather_at_extent",
        body,
        In(F32, cells([ROWS, WIDTH], [PICK, WIDTH], along=[FREE_AXIS, FREE_AXIS])),
        In(I32, cells([PICK], [PICK])),
        Out(F32, cells([PICK, WIDTH], [PICK, WIDTH])),
    )


def _table():
    """The table's ROWS rows (1.0 onwards), and two rows of SENTINEL past its extent."""
    inside = np.arange(1, ROWS * WIDTH + 1, dtype=np.float32)
    return np.concatenate([inside, np.full(2 * WIDTH, SENTINEL, np.float32)])


# row picks: one past the last row inside; only the extent itself outside (the other rows
# inside, so the whole tile is not "inside" by a check off by one); the extent repeated
PICKS = [
    [ROWS - 1, ROWS, 0, ROWS + 1],
    [0, 1, ROWS - 1, ROWS],
    [ROWS, 2, ROWS, 3],
]


@pytest.mark.parametrize("picks", PICKS, ids=[str(p) for p in PICKS])
def test_a_gather_row_at_the_extent_reads_the_padding(picks):
    ids = np.array(picks, np.int32)
    table = _table()
    out = FakeDevice(mode="interpret").run(
        _gather_kernel(), table, ids, np.full(PICK * WIDTH, -1.0, np.float32)
    )[2]
    for lane, (row, got) in enumerate(zip(picks, out.reshape(PICK, WIDTH))):
        # a row inside is read; a row at the extent or past it reads the zero padding
        want = table[row * WIDTH : (row + 1) * WIDTH] if row < ROWS else np.zeros(WIDTH)
        assert np.array_equal(got, want), (lane, row, got)


def _scatter_kernel():
    def body(x, ids, table):
        t = yield load_cell(x)
        rows = yield load_cell(ids)
        yield scatter(table, [rows, (0, WIDTH)], t)

    return trace(
        "scatter_at_extent",
        body,
        In(F32, cells([PICK, WIDTH], [PICK, WIDTH])),
        In(I32, cells([PICK], [PICK])),
        Shared(F32, cells([ROWS, WIDTH], [PICK, WIDTH])),
    )


@pytest.mark.parametrize("picks", PICKS, ids=[str(p) for p in PICKS])
def test_a_scatter_row_at_the_extent_is_not_written(picks):
    ids = np.array(picks, np.int32)
    x = -np.arange(1, PICK * WIDTH + 1, dtype=np.float32)
    table = _table()
    out = FakeDevice(mode="interpret").run(_scatter_kernel(), x, ids, table.copy(), grid=[1])[2]
    want = table.copy()
    for lane, row in enumerate(picks):
        if row < ROWS:  # a row inside is written
            want[row * WIDTH : (row + 1) * WIDTH] = x[lane * WIDTH : (lane + 1) * WIDTH]
    # rows ROWS and ROWS + 1 lie in the buffer but past the extent: they keep the sentinel
    assert np.array_equal(out, want), out.reshape(-1, WIDTH)
