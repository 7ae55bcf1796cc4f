"""Atomics: every read-modify-write mode, compare-and-swap, and reductions into cells.

* ``atomic_<mode>_<fmt>``: 1000 values (cells of 128) combined into a 16-slot Shared table
  at slot ``x mod 16`` (``atomic_rmw_tko``), many lanes per slot; integer results do not
  depend on the order, and the float ones add multiples of 1/16 whose sums are exact, so
  they do not either: every atomic kernel is compared bit for bit.  ``xchg`` writes to
  distinct slots (a permutation) and stores what each lane found.
* ``histogram_*``: counts and weighted sums into bins, masked to the values in range.
* ``cas_*``: compare-and-swap into distinct slots; a lane's swap happens where the slot
  still holds what the lane expects; each lane stores the value it found.
* ``cell_<mode>_<fmt>``: each block combines its cell into one cell of a Shared accumulator
  (``atomic_red_view_tko``, 13.3).
The orderings and scopes vary over the kernels (relaxed, acquire, release, acq_rel;
tl_blk, device, sys).
"""

from __future__ import annotations

import numpy as np

from tileir import (
    F32,
    F64,
    FREE_AXIS,
    I32,
    I64,
    In,
    Out,
    Shared,
    atomic,
    atomic_add,
    atomic_cas,
    atomic_cell,
    block_id,
    cells,
    iota,
    load_cell,
    store_cell,
    trace,
)
from tileir.kernels.common import make

N, T, SLOTS = 1000, 128, 16
_GRID = ((N + T - 1) // T,)

_NUMPY = {
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "add": np.add,
    "addf": np.add,
    "max": np.maximum,
    "min": np.minimum,
}


def _sixteenths(rng, n: int, fmt) -> np.ndarray:
    """Multiples of 1/16 in [-1, 1]: sums of a few thousand of them are exact in f32, so a
    float atomic's result does not depend on the order the lanes and blocks arrive in, and
    the kernels are compared bit for bit."""
    return (rng.integers(-16, 17, n) / 16.0).astype(fmt.numpy_dtype)


def _lanes():
    return block_id(0) * T + iota(T) < N


def _rmw_spec(mode: str, fmt, ordering: str = "relaxed", scope: str = "device") -> None:
    name = f"atomic_{mode}_{fmt}"
    udt = np.dtype(f"u{fmt.itemsize}") if fmt.is_int else None

    def body(x, table):
        t = yield load_cell(x)
        if fmt.is_float:  # slot trunc(16 x) mod 16, in [0, 16)
            slot = ((t * 16.0).to(I32) % SLOTS + SLOTS) % SLOTS
        else:  # x mod 16 in [0, 16): trunci to i32 keeps the low bits
            slot = ((t if fmt == I32 else t.to(I32)) % SLOTS + SLOTS) % SLOTS
        yield atomic(mode, table, slot, t, mask=_lanes(), ordering=ordering, scope=scope)

    def build():
        return trace(name, body, In(fmt, cells([N], [T])), Shared(fmt))

    def slots(x):
        if fmt.is_float:
            return np.mod(np.trunc(x.astype(np.float64) * 16).astype(np.int64), SLOTS)
        return np.mod(x.astype(np.int64), SLOTS)

    def reference(args):
        x, table = args
        out = table.copy()
        s = slots(x)
        for k in range(SLOTS):
            vals = x[s == k]
            if vals.size == 0:
                continue
            if mode in ("umax", "umin"):
                u = np.concatenate([[out[k]], vals]).astype(fmt.numpy_dtype).view(udt)
                out[k] = (u.max() if mode == "umax" else u.min()).astype(udt).view(fmt.numpy_dtype)
            elif mode == "addf":
                out[k] = out[k] + vals.astype(np.float64).sum()
            else:
                both = np.concatenate([[out[k]], vals]).astype(fmt.numpy_dtype)
                out[k] = _NUMPY[mode].reduce(both)
        return [x, out]

    def inputs(rng):
        if fmt.is_float:  # sixteenths: every partial sum is exact, so any order agrees
            x = _sixteenths(rng, N, fmt)
            table = _sixteenths(rng, SLOTS, fmt)
        else:
            big = 2 ** (fmt.bits - 2)
            x = rng.integers(-big, big, N).astype(fmt.numpy_dtype)
            table = rng.integers(-big, big, SLOTS).astype(fmt.numpy_dtype)
        return [x, table], _GRID

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "atomic",
        f"{N} {fmt} values combined with atomic {mode} ({ordering}, {scope} scope) into a "
        f"16-slot table, many lanes a slot",
    )


def _xchg_spec() -> None:
    name = "atomic_xchg_i32"

    def body(x, ids, table, found):
        t = yield load_cell(x)
        i = yield load_cell(ids)
        old = yield atomic("xchg", table, i, t, mask=_lanes(), ordering="acq_rel", scope="sys")
        yield store_cell(found, old)

    def build():
        g = cells([N], [T])
        return trace(name, body, In(I32, g), In(I32, g), Shared(I32), Out(I32, g))

    def reference(args):
        x, ids, table, found = args
        new = table.copy()
        new[ids] = x
        return [x, ids, new, table[ids]]

    make(
        name,
        build,
        reference,
        lambda r: (
            [
                r.integers(-(10**6), 10**6, N).astype(np.int32),
                r.permutation(N).astype(np.int32),
                r.integers(-(10**6), 10**6, N).astype(np.int32),
                np.zeros(N, np.int32),
            ],
            None,
        ),
        None,
        "atomic",
        "each lane swaps its value into a distinct slot (xchg, acq_rel, system "
        "scope) and stores what it found there",
    )


def _cas_spec(fmt) -> None:
    name = f"cas_{fmt}"

    def body(expect, value, ids, table, found):
        e = yield load_cell(expect)
        v = yield load_cell(value)
        i = yield load_cell(ids)
        old = yield atomic_cas(table, i, e, v, mask=_lanes(), ordering="acquire", scope="device")
        yield store_cell(found, old)

    def build():
        g = cells([N], [T])
        return trace(name, body, In(fmt, g), In(fmt, g), In(I32, g), Shared(fmt), Out(fmt, g))

    def reference(args):
        expect, value, ids, table, found = args
        old = table[ids]
        new = table.copy()
        hit = old == expect
        new[ids[hit]] = value[hit]
        return [expect, value, ids, new, old]

    def inputs(rng):
        ids = rng.permutation(N).astype(np.int32)
        if fmt.is_float:
            table = rng.uniform(-1, 1, N).astype(fmt.numpy_dtype)
            value = rng.uniform(-1, 1, N).astype(fmt.numpy_dtype)
        else:
            table = rng.integers(-(10**6), 10**6, N).astype(fmt.numpy_dtype)
            value = rng.integers(-(10**6), 10**6, N).astype(fmt.numpy_dtype)
        expect = np.where(rng.integers(0, 2, N) == 1, table[ids], value).astype(fmt.numpy_dtype)
        return [expect, value, ids, table, np.zeros(N, fmt.numpy_dtype)], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "atomic",
        f"compare-and-swap of {fmt} values into distinct slots (acquire): about half the "
        f"lanes expect what is there and swap; each stores what it found",
    )


def _histogram(fmt) -> None:
    name = f"histogram_weighted_{fmt}"
    bins = 32

    def body(keys, weights, hist):
        k = yield load_cell(keys)
        w = yield load_cell(weights)
        ok = _lanes() & (k >= 0) & (k < bins)
        yield atomic_add(hist, k, w, mask=ok, scope="tl_blk" if fmt == F64 else "device")

    def build():
        g = cells([N], [T])
        return trace(name, body, In(I32, g), In(fmt, g), Shared(fmt))

    def reference(args):
        keys, weights, hist = args
        ok = (keys >= 0) & (keys < bins)
        sums = np.bincount(keys[ok], weights=weights[ok].astype(np.float64), minlength=bins)
        return [keys, weights, (hist + sums).astype(fmt.numpy_dtype)]

    make(
        name,
        build,
        reference,
        lambda r: (
            [
                r.integers(-4, bins + 4, N).astype(np.int32),
                np.abs(_sixteenths(r, N, fmt)) * 2,
                np.zeros(bins, fmt.numpy_dtype),
            ],
            _GRID,
        ),
        None,
        "atomic",
        f"a weighted 32-bin histogram of {N} keys with {fmt} weights (atomic addf, "
        f"keys outside [0, 32) masked off)",
    )


def _cell_spec(mode: str, fmt, scope: str = "device") -> None:
    name = f"cell_{mode}_{fmt}"
    rows = 8

    def body(x, acc):
        t = yield load_cell(x)
        yield atomic_cell(mode, acc, t, [0], scope=scope)

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([rows * T], [T])),
            Shared(fmt, cells([T], [T], along=[FREE_AXIS])),
        )

    def reference(args):
        x, acc = args
        parts = np.concatenate([acc[None, :], x.reshape(rows, T)])
        if mode == "addf":
            total = acc + x.reshape(rows, T).astype(np.float64).sum(axis=0)
            return [x, total.astype(fmt.numpy_dtype)]
        if mode in ("umax", "umin"):
            u = parts.view(np.dtype(f"u{fmt.itemsize}"))
            red = u.max(axis=0) if mode == "umax" else u.min(axis=0)
            return [x, red.view(fmt.numpy_dtype)]
        return [x, _NUMPY[mode].reduce(parts, axis=0).astype(fmt.numpy_dtype)]

    def inputs(rng):
        if fmt.is_float:
            return [_sixteenths(rng, rows * T, fmt), _sixteenths(rng, T, fmt)], (rows,)
        big = 2 ** (fmt.bits - 2)
        return [
            rng.integers(-big, big, rows * T).astype(fmt.numpy_dtype),
            rng.integers(-big, big, T).astype(fmt.numpy_dtype),
        ], (rows,)

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "atomic",
        f"each of {rows} blocks combines its cell of 128 {fmt} into one Shared cell with "
        f"{mode} ({scope} scope; atomic_red_view_tko)",
    )


def _family() -> None:
    for mode, fmt, ordering, scope in (
        ("and", I32, "relaxed", "device"),
        ("or", I32, "acquire", "device"),
        ("xor", I64, "release", "device"),
        ("add", I64, "acq_rel", "device"),
        ("max", I32, "relaxed", "sys"),
        ("min", I64, "relaxed", "tl_blk"),
        ("umax", I32, "relaxed", "device"),
        ("umin", I64, "relaxed", "device"),
        ("addf", F32, "relaxed", "device"),
        ("addf", F64, "acq_rel", "sys"),
    ):
        _rmw_spec(mode, fmt, ordering, scope)
    _xchg_spec()
    _cas_spec(I32)
    _cas_spec(I64)
    _histogram(F32)
    _histogram(F64)
    for mode, fmt, scope in (
        ("add", I32, "device"),
        ("max", I32, "tl_blk"),
        ("min", I64, "device"),
        ("umax", I64, "device"),
        ("umin", I32, "device"),
        ("and", I64, "device"),
        ("or", I32, "device"),
        ("xor", I32, "tl_blk"),
        ("addf", F32, "device"),
    ):
        _cell_spec(mode, fmt, scope)


_family()
