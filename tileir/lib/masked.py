"""Reductions that honour a tile's valid lanes (:func:`tileir.ops.valid`).

A cell at the end of a ragged extent reads padding past it; these reductions leave those
lanes out (a sum adds 0 there, a max takes -inf), and the mean and variance divide by the
number of valid lanes, so the answer does not depend on the padding the marker names.  Over
a tile with no ragged dimension they are the plain reductions (and record nothing more).

>>> import numpy as np
>>> from tileir import F32, In, Out, cells, load_cell, store_cell, trace
>>> from tileir.fake import FakeDevice
>>> def row_mean(x, out):
...     t = yield load_cell(x)                   # rows of 5 in cells of 8, padded with nan
...     yield store_cell(out, t - mean(t, keepdims=True))
>>> g = cells([2, 5], [2, 8], pad="nan")
>>> k = trace("row_mean", row_mean, In(F32, g), Out(F32, cells([2, 5], [2, 8])))
>>> xs = np.arange(10, dtype=np.float32)
>>> _, out = FakeDevice(mode="interpret").run(k, xs, np.zeros(10, np.float32))
>>> out.reshape(2, 5)[1].tolist()
[-2.0, -1.0, 0.0, 1.0, 2.0]
"""

from __future__ import annotations

from typing import Optional

from tileir.ops import maximum, minimum, reduce_max, reduce_sum, valid_along, where
from tileir.ops.lanes import lanes_of
from tileir.record.tile import Tile, as_tile, reduce_dim, refuse
from tileir.types import Format

__all__ = ["masked_sum", "masked_max", "count", "mean", "var", "float_tile", "fmt_of"]


def fmt_of(t: Tile) -> Format:
    """``t``'s element format (a number format: the lib's functions take no pointer tiles)."""
    fmt = t.format
    if not isinstance(fmt, Format):
        raise refuse("lib", f"{t.type} holds pointers, and the lib's functions take numbers")
    return fmt


def float_tile(t: object, op: str) -> Tile:
    """``t`` as a float tile, or a refusal naming the op and the value."""
    t = as_tile(t, None, op)
    if not isinstance(t.format, Format) or not t.format.is_float:
        raise refuse(op, f"{op} takes a float tile, got {t.type}; convert it with .to(F32)")
    return t


def masked_sum(t: Tile, dim: int = -1, keepdims: bool = False) -> Tile:
    """The sum of ``t``'s valid lanes along ``dim``."""
    d = reduce_dim(t, dim, "reduce_sum")
    mask = valid_along(t, d)
    if mask is not None:
        t = where(mask, t, 0.0 if fmt_of(t).is_float else 0)
    return reduce_sum(t, d, keepdims)


def masked_max(t: Tile, dim: int = -1, keepdims: bool = False) -> Tile:
    """The largest of ``t``'s valid lanes along ``dim`` (a float tile)."""
    t = float_tile(t, "reduce_max")
    d = reduce_dim(t, dim, "reduce_max")
    mask = valid_along(t, d)
    if mask is not None:
        t = where(mask, t, float("-inf"))
    return reduce_max(t, d, keepdims)


def count(t: Tile, dim: int = -1) -> Optional[Tile]:
    """How many lanes of ``t`` along ``dim`` are valid in this block, as a rank-0 tile of
    ``t``'s format (it widens to any shape), or None when all of them are: per ragged bound,
    ``limit - start`` clamped to ``[0, length]``, a few scalar ops and no reduction."""
    d = reduce_dim(t, dim, "count")
    n = t.shape[d]
    lanes: Optional[Tile] = None
    for bd, start, limit in lanes_of(t):
        if bd != d:
            continue
        here = minimum(maximum(limit - start, 0), n)
        lanes = here if lanes is None else minimum(lanes, here)
    if lanes is None:
        return None
    return lanes.to(fmt_of(t))


def _per_lane(total: Tile, t: Tile, d: int) -> Tile:
    n = count(t, d)
    if n is None:
        return total * (1.0 / t.shape[d])
    return total / n


def mean(t: Tile, dim: int = -1, keepdims: bool = False) -> Tile:
    """The mean of ``t``'s valid lanes along ``dim`` (a float tile)."""
    t = float_tile(t, "mean")
    d = reduce_dim(t, dim, "mean")
    return _per_lane(masked_sum(t, d, keepdims), t, d)


def var(t: Tile, dim: int = -1, keepdims: bool = False) -> Tile:
    """The variance (numpy's, ``ddof=0``) of ``t``'s valid lanes along ``dim``."""
    t = float_tile(t, "var")
    d = reduce_dim(t, dim, "var")
    centred = t - mean(t, d, keepdims=t.rank > 1)
    return mean(centred * centred, d, keepdims)
