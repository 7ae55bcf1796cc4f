"""Padding values and tiles built from pieces.

* ``pad_*``: rows of 100 in cells of 128 read with each non-zero padding value, each
  chosen so the padded lanes cannot change the row's result: +inf for a minimum, -inf for
  a maximum, -0.0 for a sum, NaN as a marker the kernel finds and leaves out of a mean.
* ``cat_*``, ``swap_halves_i64``, ``insert_rows_*`` (13.4), ``store_sub_*``: tiles joined,
  cut and written in pieces.
"""

from __future__ import annotations

import numpy as np

from tileir import (
    F16,
    F32,
    FREE_AXIS,
    I32,
    I64,
    In,
    Out,
    block_id,
    cat,
    cells,
    convert,
    equal,
    extract,
    insert,
    load_at,
    load_cell,
    reduce_max,
    reduce_min,
    reduce_sum,
    store_cell,
    store_sub,
    trace,
    where,
    zeros,
)
from tileir.host.tolerance import Tolerance
from tileir.kernels.common import make, uniform

# ----------------------------------------------------------------------------- padding values

ROWS, PAD_N, PAD_T = 8, 100, 128


def _padded_rows(name: str, pad: str, fmt, out_fmt, fn, ref, doc: str, tolerance=None) -> None:
    """Rows of 100 in cells of 128 read with padding ``pad``; one result per row.  The
    padding is chosen so that the padded lanes cannot change the result (an identity, or a
    value the kernel can tell apart), and no padded lane is ever stored."""

    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, fn(t))

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([ROWS, PAD_N], [1, PAD_T], pad=pad)),
            Out(out_fmt, cells([ROWS, 1], [1, 1])),
        )

    def reference(args):
        x, out = args
        return [x, np.asarray(ref(x.reshape(ROWS, PAD_N))).reshape(-1).astype(out_fmt.numpy_dtype)]

    def inputs(rng):
        return [
            uniform(-8, 8)(rng, ROWS * PAD_N, fmt.numpy_dtype),
            np.zeros(ROWS, out_fmt.numpy_dtype),
        ], None

    make(name, build, reference, inputs, tolerance, "memory", doc)


def _pads() -> None:
    _padded_rows(
        "pad_pos_inf_min",
        "pos_inf",
        F32,
        F32,
        lambda t: reduce_min(t, keepdims=True),
        lambda x: x.min(axis=1),
        "minimum of each row of 100 in cells of 128 padded with +inf (min's identity)",
    )
    _padded_rows(
        "pad_neg_inf_max_f16",
        "neg_inf",
        F16,
        F16,
        lambda t: reduce_max(t, keepdims=True),
        lambda x: x.max(axis=1),
        "maximum of each f16 row of 100 padded with -inf (max's identity)",
    )
    _padded_rows(
        "pad_neg_zero_sum",
        "neg_zero",
        F32,
        F32,
        lambda t: reduce_sum(t, keepdims=True),
        lambda x: x.astype(np.float64).sum(axis=1),
        "sum of each row of 100 padded with -0.0 (the sum's identity: a row of "
        "negative zeros still sums to -0.0)",
        Tolerance(rtol=1e-6, atol=1e-5),
    )

    def nan_mean(t):
        real = equal(t, t)  # false on the NaN padding
        count = reduce_sum(convert(real, I32), keepdims=True).to(F32)
        return reduce_sum(where(real, t, 0.0), keepdims=True) / count

    _padded_rows(
        "pad_nan_mean",
        "nan",
        F32,
        F32,
        nan_mean,
        lambda x: x.astype(np.float64).mean(axis=1),
        "mean of each row of 100 in cells of 128 padded with NaN: the padded lanes "
        "are found (x == x is false) and left out of the sum and the count",
        Tolerance(rtol=1e-6, atol=1e-6),
    )


# ----------------------------------------------------------------------------- pieces


def _cat(fmt, dim: int) -> None:
    name = f"cat_dim{dim}_{fmt}"

    def body(a, b, out):
        x = yield load_cell(a)
        y = yield load_cell(b)
        yield store_cell(out, cat(x, y, dim))

    piece = [32, 32]
    whole = [64, 32] if dim == 0 else [32, 64]

    def build():
        return trace(
            name,
            body,
            In(fmt, cells(piece, piece)),
            In(fmt, cells(piece, piece)),
            Out(fmt, cells(whole, whole)),
        )

    def reference(args):
        a, b, out = args
        return [a, b, np.concatenate([a.reshape(piece), b.reshape(piece)], axis=dim).reshape(-1)]

    def inputs(rng):
        return [
            uniform()(rng, 1024, fmt.numpy_dtype),
            uniform()(rng, 1024, fmt.numpy_dtype),
            np.zeros(2048, fmt.numpy_dtype),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "memory",
        f"two 32x32 {fmt} tiles joined along dimension {dim} (cat)",
    )


def _swap_halves() -> None:
    name = "swap_halves_i64"

    def body(x, out):
        t = yield load_cell(x)  # [256]
        yield store_cell(out, cat(extract(t, [1], [128]), extract(t, [0], [128])))

    def build():
        return trace(name, body, In(I64, cells([1024], [256])), Out(I64, cells([1024], [256])))

    def reference(args):
        x, out = args
        return [x, x.reshape(4, 2, 128)[:, ::-1].reshape(-1).copy()]

    def inputs(rng):
        return [rng.integers(-(2**40), 2**40, 1024), np.zeros(1024, np.int64)], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "memory",
        "each cell of 256 i64 with its halves swapped (extract, cat)",
    )


def _insert(fmt) -> None:
    name = f"insert_rows_{fmt}"

    def body(x, out):
        t = yield load_cell(x)  # [8, 64]
        grid = zeros([32, 64], fmt)
        yield store_cell(out, insert(grid, t, [block_id(0) % 4, 0]))

    def build():
        return trace(
            name, body, In(fmt, cells([64, 64], [8, 64])), Out(fmt, cells([256, 64], [32, 64]))
        )

    def reference(args):
        x, out = args
        res = np.zeros((8, 32, 64))
        for b in range(8):
            res[b, (b % 4) * 8 : (b % 4) * 8 + 8] = x.reshape(8, 8, 64)[b]
        return [x, res.reshape(-1).astype(fmt.numpy_dtype)]

    def inputs(rng):
        return [
            uniform()(rng, 64 * 64, fmt.numpy_dtype),
            np.full(256 * 64, 5, fmt.numpy_dtype),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "memory",
        f"each block puts its 8 {fmt} rows into a zero 32-row tile at row block (b % 4) * 8 "
        f"(insert, 13.4)",
    )


def _store_sub(fmt) -> None:
    name = f"store_sub_{fmt}"

    def body(a, out):
        t = yield load_at(a, [0])  # [16, 64]: the cell's rows
        yield store_sub(out, t * 2.0, [0, 0])
        yield store_sub(out, t * -1.0, [0, 1])

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([64, 64], [16, 64], along=[0, FREE_AXIS])),
            Out(fmt, cells([64, 128], [16, 128])),
        )

    def reference(args):
        a, out = args
        x = a.reshape(64, 64).astype(np.float64)
        return [a, np.concatenate([x * 2.0, -x], axis=1).reshape(-1).astype(fmt.numpy_dtype)]

    def inputs(rng):
        return [
            uniform()(rng, 64 * 64, fmt.numpy_dtype),
            np.zeros(64 * 128, fmt.numpy_dtype),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "memory",
        f"a 16x128 {fmt} cell written in two 16x64 pieces (store_sub): 2x and -x",
    )


_pads()
_cat(F32, 0)
_cat(F16, 1)
_swap_halves()
_insert(F32)
_store_sub(F32)
