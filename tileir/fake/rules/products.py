"""``mmaf``'s products, lane by lane, accumulated into a destination a chunk at a time.

Each lane's result is ``numpy.matmul(a, b) + c`` with the product rounded once to the
compute format before the add (``rules.floats``: numpy's BLAS order is the summation order).
This module computes exactly those per-lane products, with the same per-matrix calls as one
``numpy.matmul`` over every lane would make, and changes only how the lanes are grouped:

* operands loaded as a :class:`~tileir.fake.values.TileGrid` (tiles that repeat along a
  grid axis) keep their ``(rows, cols)`` lanes, so each distinct tile is converted once and
  numpy broadcasts it (plain batches take the form ``(lanes, 1)``);
* the product is made a few grid rows at a time into a small scratch buffer (about
  :data:`SCRATCH_BYTES`, so it stays in cache) and added from there into the destination:
  the interpreter never holds a whole second result beside the accumulator;
* the destination is a fresh array, or the accumulator ``c`` itself when the caller owns it
  (a loop's accumulator that nothing else reads again: :mod:`tileir.fake.donation`).

Slicing the lanes never changes a matrix's layout (its pointer, shape and strides are those
of the whole batch's), so numpy hands BLAS the same calls and every bit of the answer is what
one ``numpy.matmul`` and one ``numpy.add`` over all lanes give (tested bit for bit in
tests/fake/test_interpret_products.py).  Grouping the lanes' products into larger BLAS calls
would not keep that: OpenBLAS takes other kernels for other shapes, with other roundings.
"""

from __future__ import annotations

import math
from typing import Callable, Optional

import numpy as np

from tileir.fake.values import TileGrid

__all__ = ["SCRATCH_BYTES", "lane_operands", "multiply_add"]

#: bytes of product made at once before it is added into the destination
SCRATCH_BYTES = 1 << 20


def lane_operands(a, b, c: np.ndarray, convert: Callable) -> Optional[tuple]:
    """``(sa, sb, (rows, cols))``: the converted operands with two leading lane axes, each of
    length 1 where the operand is the same along it, for ``rows * cols`` lanes in row-major
    order; None where the operands' lanes do not line up (the caller multiplies plainly)."""
    grids = [v for v in (a, b) if type(v) is TileGrid]
    if not grids:
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return None
        ca, cb = convert(a), convert(b)
        lanes = max(ca.shape[0], cb.shape[0], c.shape[0])
        if any(n not in (1, lanes) for n in (ca.shape[0], cb.shape[0], c.shape[0])):
            return None
        return ca[:, None], cb[:, None], (lanes, 1)
    rows, cols = grids[0].view.shape[:2]
    if c.shape[0] not in (1, rows * cols):
        return None
    shaped = []
    for v in (a, b):
        if type(v) is TileGrid and v.view.shape[:2] == (rows, cols):
            # contiguous: BLAS is faster on the few distinct tiles than on windows of
            # the whole buffer
            shaped.append(np.ascontiguousarray(convert(v.compact())))
        elif type(v) is np.ndarray and v.shape[0] in (1, rows * cols):
            lead = (rows, cols) if v.shape[0] > 1 else (1, 1)
            shaped.append(convert(v).reshape(lead + v.shape[1:]))
        else:
            return None
    return shaped[0], shaped[1], (rows, cols)


def multiply_add(
    sa: np.ndarray, sb: np.ndarray, lanes: tuple[int, int], c: np.ndarray, into: bool
) -> Optional[np.ndarray]:
    """``matmul(sa, sb) + c`` for every lane, ``(rows * cols, *tile)``, in ``c``'s dtype (the
    product's too): a fresh array, or ``c`` itself overwritten when ``into``.  None when the
    product's tile is not ``c``'s (the caller's plain path says what numpy makes of it)."""
    rows, cols = lanes
    tile = c.shape[1:]
    lead_p = (max(sa.shape[0], sb.shape[0]), max(sa.shape[1], sb.shape[1]))
    try:
        shape_p = np.broadcast_shapes(sa.shape[:-2], sb.shape[:-2])
    except ValueError:
        return None
    if (
        sa.ndim < 4
        or sa.shape[-1] != sb.shape[-2]
        or shape_p[2:] + (sa.shape[-2], sb.shape[-1]) != tile
        or sa.dtype != c.dtype
        or sb.dtype != c.dtype
    ):
        return None
    dest = c if into else np.empty((rows * cols,) + tile, c.dtype)
    d4 = dest.reshape((rows, cols) + tile)
    laned = c.shape[0] > 1  # else one accumulator tile for every lane
    c4 = c.reshape(((rows, cols) if laned else (1, 1)) + tile)
    row_bytes = lead_p[1] * math.prod(tile) * c.dtype.itemsize
    step = max(1, SCRATCH_BYTES // max(row_bytes, 1))

    def acc_rows(r0: int, r1: int) -> np.ndarray:
        return c4[r0:r1] if laned else c4

    if lead_p[0] == 1:  # the same product for every row: made once
        product = np.matmul(sa, sb)
        for r0 in range(0, rows, step):
            r1 = min(rows, r0 + step)
            np.add(product, acc_rows(r0, r1), out=d4[r0:r1])
        return dest
    # a fresh destination whose rows the product fills is multiplied into directly
    direct = not into and lead_p[1] == cols
    scratch = None if direct else np.empty((min(step, rows), lead_p[1]) + tile, c.dtype)
    for r0 in range(0, rows, step):
        r1 = min(rows, r0 + step)
        pa = sa[r0:r1] if sa.shape[0] > 1 else sa
        pb = sb[r0:r1] if sb.shape[0] > 1 else sb
        part = d4[r0:r1] if scratch is None else scratch[: r1 - r0]
        np.matmul(pa, pb, out=part)
        np.add(part, acc_rows(r0, r1), out=d4[r0:r1])
    return dest
