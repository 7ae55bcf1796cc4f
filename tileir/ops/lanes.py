"""Valid lanes: which lanes of a tile lie inside the extent of the cells it was read from.

A cell at the end of a ragged extent has lanes past it (rows of 100 in cells of 128 have 28);
they read the cells' padding value.  A tile read with ``load_cell`` / ``load_at`` remembers,
for each ragged dimension, where its cell starts and where the extent ends
(:attr:`~tileir.record.tile.Tile.lanes`); nothing is recorded for it until a kernel asks.
:func:`valid` then builds the mask (``start + iota < limit`` per ragged dimension, anded),
and a tile made from loaded tiles knows its lanes too: element-wise ops carry the
intersection of their operands', broadcasts and reshapes that only add or drop unit
dimensions carry them through, a reduction drops the dimensions it reduced, ``permute``
reorders them and ``mma`` takes the rows of its lhs and the columns of its rhs.  Ops that move
lanes elsewhere (``extract``, ``cat``, a general ``reshape``, gathers) give a tile whose
lanes are all valid as far as this module knows; so does a loop's carried value.

>>> from tileir import In, Out, cells, load_cell, store_cell, trace, F32, where, valid
>>> def zero_the_padding(x, out):
...     t = yield load_cell(x)                 # rows of 100 in cells of 128
...     yield store_cell(out, where(valid(t + 1.0), t, 0.0))
>>> g = cells([4, 100], [4, 128])
>>> k = trace("zp", zero_the_padding, In(F32, g), Out(F32, g))
>>> sorted({t.op for t in k.program.body[-1].value.args[0].args})  # the mask: iota < 100
['cmpi']
"""

from __future__ import annotations

from typing import Optional, Sequence

from tileir.ir.module import EMPTY_ATTRS, Loc
from tileir.ops.shape import broadcast, iota, reshape
from tileir.record.markers import DYN_DIM, Cells, Param
from tileir.record.source import CALLER, user_loc
from tileir.record.tile import Tile, _constant, binary_at, compare, constant, refuse
from tileir.types import I1, I32, canonical_tile_type

__all__ = ["valid", "valid_along", "lanes_of", "cell_lanes", "Bound"]

#: One ragged dimension of a tile: lane ``i`` along ``dim`` is valid when ``start + i < limit``.
Bound = tuple[int, Tile, Tile]

#: ops whose result lanes are their operands' lanes, position for position (the operands
#: have the result's shape: the recorder widened them first)
_NOT_ELEMENTWISE = {
    "broadcast",
    "reshape",
    "permute",
    "reduce",
    "scan",
    "result",
    "mmaf",
    "mmai",
    "extract",
    "insert",
    "cat",
    "var",
    "constant",
    "iota",
}


def cell_lanes(
    p: Param, cells_: Cells, index: Sequence[Tile], loc: Optional[Loc] = None
) -> tuple[Bound, ...]:
    """The ragged dimensions of the cell of ``p`` at ``index`` (cells, one i32 tile per
    dimension): those whose extent is not a whole number of tiles, or is given at launch.
    ``loc``: the user's location, when the caller has it (the bounds' tiles are made there)."""
    if loc is None:
        loc = user_loc(CALLER)
    out: list[Bound] = []
    # (the ragged dimensions, worked out with the cells: along every other one each cell is
    # whole, so no lane lies past the extent)
    extent, tiles = cells_.extent, cells_.tile
    for d in cells_.ragged:
        ext, tile = extent[d], tiles[d]
        start = binary_at("mul", index[d], tile, loc, EMPTY_ATTRS) if tile != 1 else index[d]
        if ext is DYN_DIM:
            limit = Tile(
                "get_tensor_shape",
                (),
                {"param": p.index, "cells": cells_, "dim": d},
                canonical_tile_type((), I32),
                loc,
            )
        else:
            limit = _constant(int(ext), I32, (), loc)  # type: ignore[arg-type]  # not DYN_DIM
        out.append((d, start, limit))
    return tuple(out)


def lanes_of(t: Tile) -> tuple[Bound, ...]:
    """The ragged dimensions of ``t`` (empty when every lane of ``t`` is valid)."""
    memo: dict[int, tuple[Bound, ...]] = {}
    return _lanes(t, memo)


def _lanes(t: Tile, memo: dict[int, tuple[Bound, ...]]) -> tuple[Bound, ...]:
    key = id(t)
    if key in memo:
        return memo[key]
    memo[key] = out = _derive(t, memo)
    return out


def _union(groups: Sequence[tuple[Bound, ...]]) -> tuple[Bound, ...]:
    out: list[Bound] = []
    for group in groups:
        for b in group:
            if b not in out:
                out.append(b)
    return tuple(out)


def _derive(t: Tile, memo: dict[int, tuple[Bound, ...]]) -> tuple[Bound, ...]:
    if t.lanes:
        return t.lanes
    if not t.args:
        return ()
    op = t.op
    if op == "broadcast":
        src = t.args[0]
        if src.rank != t.rank:
            return ()
        # (plain loops here and below, not generators: every tile of a ragged kernel asks)
        kept: list[Bound] = []
        for bound in _lanes(src, memo):
            if src.shape[bound[0]] == t.shape[bound[0]]:
                kept.append(bound)
        return tuple(kept)
    if op == "reshape":
        return _through_reshape(t.args[0], t.shape, _lanes(t.args[0], memo))
    if op == "reduce" and "dim" in t.attrs:
        d = t.attrs["dim"]
        kept = []
        for dim, s, lim in _lanes(t.args[0], memo):
            if dim != d:
                kept.append((dim - (dim > d), s, lim))
        return tuple(kept)
    if op == "permute":
        perm = list(t.attrs["permutation"])
        return tuple((perm.index(dim), s, lim) for dim, s, lim in _lanes(t.args[0], memo))
    if op in ("mmaf", "mmai") and len(t.args) >= 3 and t.rank == 2:
        a, b, acc = t.args[:3]
        rows = tuple(x for x in _lanes(a, memo) if x[0] == 0)
        cols = tuple(x for x in _lanes(b, memo) if x[0] == 1)
        return _union([rows, cols, _lanes(acc, memo)])
    if op in _NOT_ELEMENTWISE:
        return ()
    parts = []
    for arg in t.args:
        if not isinstance(arg, Tile) or arg.shape != t.shape:
            return ()  # an op over tiles of other shapes: its lanes are not its operands'
        parts.append(_lanes(arg, memo))
    return _union(parts)


def _through_reshape(
    src: Tile, shape: tuple[int, ...], bounds: tuple[Bound, ...]
) -> tuple[Bound, ...]:
    """Bounds carried through a reshape that only adds or drops unit dimensions."""
    if not bounds:
        return ()
    big_src = [d for d, n in enumerate(src.shape) if n != 1]
    big_dst = [d for d, n in enumerate(shape) if n != 1]
    if [src.shape[d] for d in big_src] != [shape[d] for d in big_dst]:
        return ()
    where_to = dict(zip(big_src, big_dst))
    return tuple((where_to[d], s, lim) for d, s, lim in bounds if d in where_to)


def _along(shape: tuple[int, ...], bound: Bound) -> Tile:
    """The i1 mask of one bound, of shape ``shape`` with every other dimension 1."""
    d, start, limit = bound
    lane = iota(shape[d])
    if len(shape) > 1:
        lane = reshape(lane, tuple(n if e == d else 1 for e, n in enumerate(shape)))
    return compare("less_than", lane + start, limit)


def valid_along(t: Tile, dim: int) -> Optional[Tile]:
    """The i1 mask of ``t``'s lanes valid along ``dim`` (length 1 in every other dimension,
    so it widens over them), or None when every lane along ``dim`` is valid."""
    if not isinstance(t, Tile):
        raise refuse("valid", f"valid lanes are a tile's, got {type(t).__name__} {t!r}")
    d = dim % t.rank if t.rank else 0
    mask: Optional[Tile] = None
    for b in lanes_of(t):
        if b[0] != d:
            continue
        m = _along(t.shape, b)
        mask = m if mask is None else mask & m
    return mask


def valid(t: Tile) -> Tile:
    """The i1 mask, of ``t``'s shape, of the lanes of ``t`` inside its cells' extent: true
    everywhere for a tile with no ragged dimension (then nothing but a constant is
    recorded).  ``t.valid`` is the same."""
    if not isinstance(t, Tile):
        raise refuse("valid", f"valid lanes are a tile's, got {type(t).__name__} {t!r}")
    mask: Optional[Tile] = None
    for b in lanes_of(t):
        m = _along(t.shape, b)
        mask = m if mask is None else mask & m
    if mask is None:
        return constant(True, I1, t.shape)
    if mask.shape != t.shape:
        mask = broadcast(mask, t.shape)
    return mask
