"""Moving data: transposes, gathers and scatters, strided windows.

* ``transpose_ptr_*``: the chapter's transpose (cells in, a Shared out written through the
  pointer path with swapped strides) in other formats; ``transpose_cells_*``: the same with
  an Out whose cells follow the grid axes swapped (``along=[1, 0]``), so it is a cell write;
  ``permute3d_*``: rank-3 permutations.
* ``gather_rows_*`` / ``scatter_rows_*``: rows picked by a tile of indices through a
  ``gather_scatter_view``; ``gather_ptr_*`` / ``scatter_ptr_*``: element gathers and
  scatters through the pointer path, masked, with a padding value.
* ``window_*``: ``strided_view`` windows that overlap or skip.
Padding values and tiles built from pieces are in :mod:`tileir.kernels.pieces`.
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
    block_id,
    cells,
    gather,
    iota,
    load,
    load_cell,
    load_window,
    permute,
    scatter,
    store,
    store_cell,
    trace,
)
from tileir.kernels.common import make, uniform

# ----------------------------------------------------------------------------- transposes

TR_R, TR_C, TR_T = 128, 64, 32


def _transpose_ptr(fmt) -> None:
    name = f"transpose_ptr_{fmt}"

    def body(x, out):
        t = yield load_cell(x)
        at = block_id(1) * (TR_T * TR_R) + block_id(0) * TR_T
        yield store(out, at, t, strides=[1, TR_R])

    def build():
        return trace(name, body, In(fmt, cells([TR_R, TR_C], [TR_T, TR_T])), Shared(fmt))

    def reference(args):
        x, out = args
        return [x, x.reshape(TR_R, TR_C).T.reshape(-1).copy()]

    def inputs(rng):
        n = TR_R * TR_C
        return [uniform()(rng, n, fmt.numpy_dtype), np.zeros(n, fmt.numpy_dtype)], (
            TR_R // TR_T,
            TR_C // TR_T,
        )

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "memory",
        f"{TR_R}x{TR_C} {fmt} transposed into a Shared out through the pointer path",
    )


def _transpose_cells(fmt) -> None:
    name = f"transpose_cells_{fmt}"

    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, t.transpose())

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([TR_R, TR_C], [TR_T, TR_T])),
            Out(fmt, cells([TR_C, TR_R], [TR_T, TR_T], along=[1, 0])),
        )

    def reference(args):
        x, out = args
        return [x, x.reshape(TR_R, TR_C).T.reshape(-1).copy()]

    def inputs(rng):
        n = TR_R * TR_C
        return [uniform()(rng, n, fmt.numpy_dtype), np.zeros(n, fmt.numpy_dtype)], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "memory",
        f"{TR_R}x{TR_C} {fmt} transposed tile by tile into an Out whose cells follow the "
        f"grid axes swapped",
    )


def _permute3d(perm: tuple, shape: tuple) -> None:
    name = "permute3d_" + "".join(map(str, perm))
    out_shape = tuple(shape[p] for p in perm)

    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, permute(t, perm))

    def build():
        return trace(
            name,
            body,
            In(F32, cells(list(shape), list(shape))),
            Out(F32, cells(list(out_shape), list(out_shape))),
        )

    def reference(args):
        x, out = args
        return [x, np.transpose(x.reshape(shape), perm).reshape(-1).copy()]

    def inputs(rng):
        n = int(np.prod(shape))
        return [uniform()(rng, n, np.float32), np.zeros(n, np.float32)], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "memory",
        f"a {'x'.join(map(str, shape))} f32 tensor permuted {list(perm)} in one block",
    )


# ----------------------------------------------------------------------------- gather, scatter

G_ROWS, G_W, G_PICK, G_TILE = 256, 64, 64, 16


def _gather_rows(fmt) -> None:
    name = f"gather_rows_{fmt}"

    def body(table, ids, out):
        rows = yield load_cell(ids)  # [16] row numbers
        yield store_cell(out, (yield gather(table, [rows, (0, G_W)])))

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([G_ROWS, G_W], [G_TILE, G_W], along=[FREE_AXIS, FREE_AXIS])),
            In(I32, cells([G_PICK], [G_TILE])),
            Out(fmt, cells([G_PICK, G_W], [G_TILE, G_W])),
        )

    def reference(args):
        table, ids, out = args
        return [table, ids, table.reshape(G_ROWS, G_W)[ids].reshape(-1).copy()]

    def inputs(rng):
        return [
            uniform()(rng, G_ROWS * G_W, fmt.numpy_dtype),
            rng.integers(0, G_ROWS, G_PICK).astype(np.int32),
            np.zeros(G_PICK * G_W, fmt.numpy_dtype),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "memory",
        f"{G_PICK} rows of a {G_ROWS}x{G_W} {fmt} table picked by an index vector "
        f"(gather_scatter_view), 16 rows a block",
    )


def _scatter_rows(fmt) -> None:
    name = f"scatter_rows_{fmt}"

    def body(x, ids, out):
        t = yield load_cell(x)
        rows = yield load_cell(ids)
        yield scatter(out, [rows, (0, G_W)], t)

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([G_PICK, G_W], [G_TILE, G_W])),
            In(I32, cells([G_PICK], [G_TILE])),
            Shared(fmt, cells([G_ROWS, G_W], [G_TILE, G_W])),
        )

    def reference(args):
        x, ids, out = args
        out = out.copy().reshape(G_ROWS, G_W)
        out[ids] = x.reshape(G_PICK, G_W)
        return [x, ids, out.reshape(-1)]

    def inputs(rng):
        return [
            uniform()(rng, G_PICK * G_W, fmt.numpy_dtype),
            rng.permutation(G_ROWS)[:G_PICK].astype(np.int32),
            np.zeros(G_ROWS * G_W, fmt.numpy_dtype),
        ], (G_PICK // G_TILE,)

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "memory",
        f"{G_PICK} rows of {fmt} written to distinct rows of a {G_ROWS}-row Shared table "
        f"picked by an index vector (scatter through a gather_scatter_view)",
    )


P_N, P_TILE, P_SRC = 1000, 128, 700


def _gather_ptr(fmt) -> None:
    name = f"gather_ptr_{fmt}"

    def body(src, ids, out):
        i = yield load_cell(ids)
        ok = (i >= 0) & (i < P_SRC)
        yield store_cell(out, (yield load(src, offsets=i, mask=ok, padding=-1)))

    def build():
        return trace(
            name,
            body,
            Shared(fmt),
            In(I32, cells([P_N], [P_TILE])),
            Out(fmt, cells([P_N], [P_TILE])),
        )

    def reference(args):
        src, ids, out = args
        ok = (ids >= 0) & (ids < P_SRC)
        got = np.where(ok, src[np.clip(ids, 0, P_SRC - 1)], -1).astype(fmt.numpy_dtype)
        return [src, ids, got]

    def inputs(rng):
        return [
            uniform()(rng, P_SRC, fmt.numpy_dtype)
            if fmt.is_float
            else rng.integers(-(10**9), 10**9, P_SRC).astype(fmt.numpy_dtype),
            rng.integers(-50, P_SRC + 50, P_N).astype(np.int32),
            np.zeros(P_N, fmt.numpy_dtype),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "memory",
        f"out[i] = src[ids[i]] for {P_N} {fmt} elements through the pointer path; indices "
        f"outside the source read -1 (a masked load with padding)",
    )


def _scatter_ptr(fmt) -> None:
    name = f"scatter_ptr_{fmt}"

    def body(x, ids, out):
        t = yield load_cell(x)
        i = yield load_cell(ids)
        lane = block_id(0) * P_TILE + iota(P_TILE)
        yield store(out, 0, t, offsets=i, mask=lane < P_N)

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([P_N], [P_TILE])),
            In(I32, cells([P_N], [P_TILE])),
            Shared(fmt),
        )

    def reference(args):
        x, ids, out = args
        out = out.copy()
        out[ids] = x
        return [x, ids, out]

    def inputs(rng):
        return [
            uniform()(rng, P_N, fmt.numpy_dtype),
            rng.permutation(P_N).astype(np.int32),
            np.zeros(P_N, fmt.numpy_dtype),
        ], ((P_N + P_TILE - 1) // P_TILE,)

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "memory",
        f"out[ids[i]] = x[i] for a permutation of {P_N} {fmt} elements (masked pointer store)",
    )


# ----------------------------------------------------------------------------- strided windows

W_N = 4096


def _window(shape: int, step: int) -> None:
    name = f"window_{shape}_step{step}"
    count = (W_N - shape) // step + 1
    count = 1 << (count.bit_length() - 1)  # a power of two of windows: the Out's cells

    def body(x, out):
        yield store_cell(out, (yield load_window(x, [block_id(0)], [shape], [step])))

    def build():
        return trace(
            name,
            body,
            In(F32, cells([W_N], [shape], along=[FREE_AXIS])),
            Out(F32, cells([count * shape], [shape])),
        )

    def reference(args):
        x, out = args
        return [x, np.concatenate([x[i * step : i * step + shape] for i in range(count)])]

    def inputs(rng):
        return [uniform()(rng, W_N, np.float32), np.zeros(count * shape, np.float32)], None

    how = "overlapping" if step < shape else "skipping"
    make(
        name,
        build,
        reference,
        inputs,
        None,
        "memory",
        f"windows of {shape} f32 elements every {step} ({how}; a strided_view), one a block",
    )


def _family() -> None:
    for fmt in (F32, F16, I32):
        _transpose_ptr(fmt)
    for fmt in (F32, BF16, F64):
        _transpose_cells(fmt)
    _permute3d((0, 2, 1), (4, 32, 64))
    _permute3d((2, 1, 0), (8, 16, 32))
    for fmt in (F32, F16):
        _gather_rows(fmt)
        _scatter_rows(fmt)
    for fmt in (F32, I64):
        _gather_ptr(fmt)
    _scatter_ptr(F32)
    _window(128, 64)
    _window(64, 128)


_family()
