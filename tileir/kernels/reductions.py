"""Reductions along each dimension, in float and integer formats.

* ``rowred_*`` / ``colred_*``: a 128 x 64 matrix reduced along its rows (dim 1: 16 rows a
  block, one result per row) or its columns (dim 0: 16 columns a block, the whole height
  in one cell; the Out follows grid axis 1).
* ``red3d_*``: a 4 x 8 x 16 tensor in one cell reduced along dimension 0, 1 or 2.
* ``partial_*``: each block reduces its cell of a vector to one number (a cell of length 1
  in the Out), the first pass of a two-pass reduction.

Integer sums wrap like the device; max and min are exact; float sums and products are
compared within a bound that grows with the number of terms (the device adds in a tree,
numpy pairwise).  f16 and bf16 inputs are widened to f32 for the sum, as real kernels do.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from tileir import (
    BF16,
    F16,
    F32,
    F64,
    I32,
    I64,
    In,
    Out,
    cells,
    load_cell,
    reduce_max,
    reduce_min,
    reduce_prod,
    reduce_sum,
    store_cell,
    trace,
)
from tileir.host.tolerance import Tolerance
from tileir.kernels.common import exact, ints, make, tol, uniform

ROWS, COLS, TILE_R, TILE_C = 128, 64, 16, 16
_REDUCE = {"sum": reduce_sum, "max": reduce_max, "min": reduce_min, "prod": reduce_prod}
_NUMPY: dict[str, Callable[..., Any]] = {
    "sum": np.sum,
    "max": np.max,
    "min": np.min,
    "prod": np.prod,
}


def _gen(op: str, fmt):
    if fmt.is_int:
        return ints(-3, 4) if op == "prod" else ints(-1000, 1000)
    return uniform(0.75, 1.25) if op == "prod" else uniform(-4, 4)


def _tolerance(op: str, fmt, terms: int):
    if fmt.is_int or op in ("max", "min"):
        return exact
    acc = F32 if fmt in (F16, BF16) else fmt
    # tree versus pairwise order: a few ulps of the accumulator per level, on sums of |x| <= 4
    bound = 4 * terms * tol(acc, 2).rtol
    out = tol(fmt, 2)
    return Tolerance(rtol=max(out.rtol, bound), atol=max(out.atol, bound))


def _reducer(op: str, fmt, dim: int, keepdims: bool = False):
    """The kernel's reduction of a tile (widening f16 / bf16 sums to f32)."""
    fn = _REDUCE[op]
    if fmt in (F16, BF16) and op in ("sum", "prod"):
        return lambda t: fn(t.to(F32), dim, keepdims).to(fmt)
    return lambda t: fn(t, dim, keepdims)


def _ref_reduce(op: str, fmt, a: np.ndarray, axis: int) -> np.ndarray:
    if fmt.is_int:
        return _NUMPY[op](a.astype(np.int64), axis=axis).astype(fmt.numpy_dtype)
    return _NUMPY[op](a.astype(np.float64), axis=axis).astype(fmt.numpy_dtype)


def _matrix_spec(op: str, fmt, dim: int) -> None:
    red = _reducer(op, fmt, dim)
    kind = "rowred" if dim == 1 else "colred"
    name = f"{kind}_{op}_{fmt}"

    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, red(t))

    def build():
        if dim == 1:
            src = In(fmt, cells([ROWS, COLS], [TILE_R, COLS]))
            dst = Out(fmt, cells([ROWS], [TILE_R]))
        else:
            src = In(fmt, cells([ROWS, COLS], [ROWS, TILE_C]))
            dst = Out(fmt, cells([COLS], [TILE_C], along=[1]))
        return trace(name, body, src, dst)

    def reference(args):
        x, out = args
        return [x, _ref_reduce(op, fmt, x.reshape(ROWS, COLS), dim)]

    def inputs(rng):
        n_out = ROWS if dim == 1 else COLS
        return [
            _gen(op, fmt)(rng, ROWS * COLS, fmt.numpy_dtype),
            np.zeros(n_out, fmt.numpy_dtype),
        ], None

    terms = COLS if dim == 1 else ROWS
    what = "each row" if dim == 1 else "each column"
    make(
        name,
        build,
        reference,
        inputs,
        _tolerance(op, fmt, terms),
        "reduction",
        f"{op} of {what} of a {ROWS}x{COLS} {fmt} matrix (reduce dim={dim})",
    )


SHAPE3 = (4, 8, 16)


def _cube_spec(op: str, fmt, dim: int) -> None:
    red = _reducer(op, fmt, dim)
    name = f"red3d_{op}_{fmt}_dim{dim}"
    out_shape = tuple(n for d, n in enumerate(SHAPE3) if d != dim)

    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, red(t))

    def build():
        return trace(
            name,
            body,
            In(fmt, cells(list(SHAPE3), list(SHAPE3))),
            Out(fmt, cells(list(out_shape), list(out_shape))),
        )

    def reference(args):
        x, out = args
        return [x, _ref_reduce(op, fmt, x.reshape(SHAPE3), dim).reshape(-1)]

    def inputs(rng):
        return [
            _gen(op, fmt)(rng, int(np.prod(SHAPE3)), fmt.numpy_dtype),
            np.zeros(int(np.prod(out_shape)), fmt.numpy_dtype),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        _tolerance(op, fmt, SHAPE3[dim]),
        "reduction",
        f"{op} of a 4x8x16 {fmt} tensor along dimension {dim} (rank-3 reduce)",
    )


PART_N, PART_TILE = 4096, 512


def _partial_spec(op: str, fmt) -> None:
    red = _reducer(op, fmt, 0)
    name = f"partial_{op}_{fmt}"
    blocks = PART_N // PART_TILE

    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, red(t).reshape([1]))

    def build():
        return trace(
            name, body, In(fmt, cells([PART_N], [PART_TILE])), Out(fmt, cells([blocks], [1]))
        )

    def reference(args):
        x, out = args
        return [x, _ref_reduce(op, fmt, x.reshape(blocks, PART_TILE), 1)]

    def inputs(rng):
        return [
            _gen(op, fmt)(rng, PART_N, fmt.numpy_dtype),
            np.zeros(blocks, fmt.numpy_dtype),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        _tolerance(op, fmt, PART_TILE),
        "reduction",
        f"one {op} per block of 512 {fmt} values: the first pass of a two-pass reduction",
    )


def _family() -> None:
    for fmt in (F32, F64, I32, I64):
        for op in ("sum", "max", "min"):
            for dim in (1, 0):
                _matrix_spec(op, fmt, dim)
    for fmt in (F16, BF16):
        for dim in (1, 0):
            _matrix_spec("sum", fmt, dim)
            _matrix_spec("max", fmt, dim)
    for fmt in (F32, I32):
        _matrix_spec("prod", fmt, 1)
    for dim in range(3):
        _cube_spec("sum", F32, dim)
        _cube_spec("max", I32, dim)
    for op, fmt in (
        ("sum", F32),
        ("sum", F64),
        ("max", F32),
        ("min", I64),
        ("sum", I32),
        ("sum", BF16),
    ):
        _partial_spec(op, fmt)


_family()
