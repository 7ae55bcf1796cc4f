"""Multimem (13.5): kernels over multicast buffers, run on a fake device of several GPUs.

A multicast buffer stands for the replicas of one allocation on each GPU of an NVSwitch
fabric; the fake device holds them back to back (``devices`` of them, here
:data:`DEVICES`), and every reference below sees them as rows of ``array.reshape(DEVICES,
-1)``.  Each block works on its cell of 64 (or 16 x 16) elements; values are multiples of
1/16 (floats: the sums are exact) or integers over their whole range (ints wrap).

* ``mm_allreduce_<fmt>``: ``load_reduce_cell`` (add) over the replicas of an In, written to
  every replica of an Out with ``store_cell_all`` (an all-reduce), for each of the six
  formats multimem takes, with varying orderings and scopes;
* ``mm_load_<kind>_<fmt>``: the other reductions of a load-reduce (min / max on f16, bf16
  and the ints; and / or / xor / umin / umax on the ints), stored through a unicast Out;
* ``mm_reduce_<kind>_<fmt>``: ``reduce_cell`` of a unicast In's cells into every replica of
  a multicast Shared (relaxed or release; floats only add);
* ``mm_store_2d_<fmt>``: a 2-D ``store_cell_all`` with ``inbounds``;
* ``cell_add_i32_inbounds``: ``atomic_cell`` (``atomic_red_view_tko``) with 13.5's inbounds.

Unicast and multicast pointers compile only for sm_100, sm_103 and sm_107 (tileiras
13.5.37; docs/dialect.md §2.2), so gate 1 assembles these kernels for those.
"""

from __future__ import annotations

import numpy as np

from tileir import (
    BF16,
    F16,
    F32,
    F64,
    FREE_AXIS,
    I32,
    I64,
    In,
    Out,
    Shared,
    atomic_cell,
    cells,
    load_cell,
    load_reduce_cell,
    reduce_cell,
    store_cell,
    store_cell_all,
    trace,
)
from tileir.kernels.common import make
from tileir.kernels.registry import ArchSet

#: How many GPUs the multicast buffers span on the fake device.
DEVICES = 4
#: The architectures that compile unicast and multicast pointers, from the toolchain facts
#: (tileir.real.toolchains: sm_100, sm_103 and sm_107 with 13.5.37; none with 13.4.92).
ARCHS_MULTICAST = ArchSet.of(["ptr:multicast"])
BLOCKS, T = 4, 64
N = BLOCKS * T
_INTS = (I32, I64)


def _values(rng, n: int, fmt) -> np.ndarray:
    """Multiples of 1/16 in [-4, 4] (floats: every sum here is exact) or integers over the
    whole range of the format (sums wrap)."""
    if fmt.is_float:
        return (rng.integers(-64, 65, n) / 16.0).astype(fmt.numpy_dtype)
    info = np.iinfo(fmt.numpy_dtype)
    return rng.integers(info.min, info.max, n, endpoint=True, dtype=fmt.numpy_dtype)


def _unsigned(a: np.ndarray) -> np.ndarray:
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


def reduce_rows(kind: str, rows: np.ndarray) -> np.ndarray:
    """The reduction ``kind`` of the rows of ``rows`` (one per replica), in replica order, in
    the rows' own dtype (floats round at each step, ints wrap; umin / umax compare the
    unsigned view of the bits)."""
    out = rows[0].copy()
    for row in rows[1:]:
        if kind == "add":
            out = (out + row).astype(rows.dtype)
        elif kind in ("min", "max"):
            out = np.minimum(out, row) if kind == "min" else np.maximum(out, row)
        elif kind in ("umin", "umax"):
            u, v = _unsigned(out), _unsigned(row)
            out = np.where(u <= v if kind == "umin" else u >= v, out, row)
        else:
            out = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[kind](
                out, row
            )
    return out


def _replicated(args, index: int) -> np.ndarray:
    return np.array(args[index], copy=True).reshape(DEVICES, -1)


def _allreduce(fmt, ordering: str, scope, store_ordering: str, store_scope) -> None:
    name = f"mm_allreduce_{fmt}"
    g = cells([N], [T])

    def body(x, out):
        t = yield load_reduce_cell(x, ordering=ordering, scope=scope)
        yield store_cell_all(out, t, ordering=store_ordering, scope=store_scope)

    def build():
        return trace(
            name, body, In(fmt, g, ptr_attr="multicast"), Out(fmt, g, ptr_attr="multicast")
        )

    def reference(args):
        x = _replicated(args, 0)
        total = reduce_rows("add", x)
        return [args[0], np.tile(total, DEVICES)]

    def inputs(rng):
        return [_values(rng, DEVICES * N, fmt), np.zeros(DEVICES * N, fmt.numpy_dtype)], None

    how = f"{ordering}" + (f" {scope}" if scope else "")
    make(
        name,
        build,
        reference,
        inputs,
        None,
        "multimem",
        f"an all-reduce of {N} {fmt} over {DEVICES} replicas: load_reduce_cell add ({how}), "
        f"store_cell_all ({store_ordering}) to every replica",
        ARCHS_MULTICAST,
        DEVICES,
    )


def _load_kind(kind: str, fmt) -> None:
    name = f"mm_load_{kind}_{fmt}"
    g = cells([N], [T])

    def body(x, out):
        t = yield load_reduce_cell(x, reduction=kind, ordering="acquire", scope="sys")
        yield store_cell(out, t)

    def build():
        return trace(name, body, In(fmt, g, ptr_attr="multicast"), Out(fmt, g, ptr_attr="unicast"))

    def reference(args):
        return [args[0], reduce_rows(kind, _replicated(args, 0))]

    def inputs(rng):
        return [_values(rng, DEVICES * N, fmt), np.zeros(N, fmt.numpy_dtype)], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "multimem",
        f"{N} {fmt} reduced with {kind} over {DEVICES} replicas (load_reduce_cell, acquire "
        f"sys) into a unicast Out",
        ARCHS_MULTICAST,
        DEVICES,
    )


def _reduce_kind(kind: str, fmt, ordering: str, scope: str) -> None:
    name = f"mm_reduce_{kind}_{fmt}"
    rows = BLOCKS

    def body(x, acc):
        t = yield load_cell(x)
        yield reduce_cell(acc, t, [0], reduction=kind, ordering=ordering, scope=scope)

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([rows * T], [T]), ptr_attr="unicast"),
            Shared(fmt, cells([T], [T], along=[FREE_AXIS]), ptr_attr="multicast"),
        )

    def reference(args):
        x = np.asarray(args[0]).reshape(rows, T)
        acc = _replicated(args, 1)
        for r in range(DEVICES):  # every block's cell reaches every replica
            acc[r] = reduce_rows(kind, np.concatenate([acc[r][None, :], x]))
        return [args[0], acc.reshape(-1)]

    def inputs(rng):
        return [_values(rng, rows * T, fmt), _values(rng, DEVICES * T, fmt)], (rows,)

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "multimem",
        f"each of {rows} blocks reduces its cell of {T} {fmt} with {kind} ({ordering} "
        f"{scope}) into every replica of a multicast Shared cell (reduce_cell)",
        ARCHS_MULTICAST,
        DEVICES,
    )


def _store_2d(fmt, ordering: str, scope) -> None:
    name = f"mm_store_2d_{fmt}"
    g = cells([32, 32], [16, 16])

    def body(x, out):
        t = yield load_cell(x)
        yield store_cell_all(out, t * 2, ordering=ordering, scope=scope, inbounds=True)

    def build():
        return trace(name, body, In(fmt, g), Out(fmt, g, ptr_attr="multicast"))

    def reference(args):
        doubled = (np.asarray(args[0]) * 2).astype(fmt.numpy_dtype)
        return [args[0], np.tile(doubled.reshape(-1), DEVICES)]

    def inputs(rng):
        return [_values(rng, 32 * 32, fmt), np.zeros(DEVICES * 32 * 32, fmt.numpy_dtype)], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "multimem",
        f"a 32 x 32 {fmt} tensor doubled and written to every replica (store_cell_all, "
        f"{ordering}, inbounds)",
        ARCHS_MULTICAST,
        DEVICES,
    )


def _cell_inbounds() -> None:
    name = "cell_add_i32_inbounds"
    rows = BLOCKS

    def body(x, acc):
        t = yield load_cell(x)
        yield atomic_cell("add", acc, t, [0], inbounds=True)

    def build():
        return trace(
            name,
            body,
            In(I32, cells([rows * T], [T])),
            Shared(I32, cells([T], [T], along=[FREE_AXIS])),
        )

    def reference(args):
        x = np.asarray(args[0]).reshape(rows, T)
        return [args[0], reduce_rows("add", np.concatenate([np.asarray(args[1])[None], x]))]

    def inputs(rng):
        return [_values(rng, rows * T, I32), _values(rng, T, I32)], (rows,)

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "multimem",
        f"each of {rows} blocks adds its cell into one Shared cell (atomic_cell with "
        f"inbounds: atomic_red_view_tko, 13.5)",
    )


def _family() -> None:
    for fmt, ordering, scope, store_ordering, store_scope in (
        (F16, "weak", None, "weak", None),
        (BF16, "relaxed", "device", "relaxed", "device"),
        (F32, "acquire", "sys", "release", "sys"),
        (F64, "relaxed", "tl_blk", "release", "device"),
        (I32, "acquire", "device", "relaxed", "tl_blk"),
        (I64, "weak", None, "release", "sys"),
    ):
        _allreduce(fmt, ordering, scope, store_ordering, store_scope)
    for kind in ("min", "max"):
        for fmt in (F16, BF16, I32, I64):
            _load_kind(kind, fmt)
    for kind in ("and", "or", "xor", "umin", "umax"):
        for fmt in _INTS:
            _load_kind(kind, fmt)
    for fmt, ordering, scope in (
        (F16, "relaxed", "device"),
        (BF16, "release", "sys"),
        (F32, "relaxed", "tl_blk"),
        (F64, "release", "device"),
        (I32, "relaxed", "sys"),
        (I64, "release", "device"),
    ):
        _reduce_kind("add", fmt, ordering, scope)
    for i, kind in enumerate(("min", "max", "and", "or", "xor", "umin", "umax")):
        _reduce_kind(kind, _INTS[i % 2], ("relaxed", "release")[i % 2], "device")
    _store_2d(F32, "weak", None)
    _store_2d(BF16, "relaxed", "device")
    _cell_inbounds()


_family()
