"""Memory maps: for each buffer of a launch, which block read and wrote each element.

:func:`memory_maps` runs the launch once watching every access (the interpreter's
``on_memory``) and answers one :class:`BufferMap` per buffer argument: for every
element the first block (in the device's numbering) that read it and that wrote it
and how many distinct blocks did, plus one *state* per drawn position, the most
telling of:

* ``out-of-bounds`` (an access past the buffer's end, from
  :func:`~tileir.debug.find_out_of_bounds` when the launch faulted there),
* ``race`` (written by two blocks, at least one plain store, or read by one block
  and written or updated by another: what :func:`~tileir.debug.find_races` reports,
  element by element),
* ``uninitialized`` (read before anything wrote it, an Out by default: as
  :func:`~tileir.debug.find_uninitialized`),
* ``padding-leak`` (an output element a padding leak reaches, from findings given),
* ``atomic`` (updated atomically by several blocks), ``written``, ``read``,
* ``padded`` (a lane past the marker's extent in a cell some block touched: what a
  load read as padding or a store dropped),
* ``untouched``.

The positions follow the marker's cells: a 2-D extent is drawn as its rows and
columns (with the padded lanes of the edge cells beyond), anything else as its
elements in rows of :data:`ROW` (twice that past 16 rows).  A 2-D map with more than
:data:`MAX_ROWS` x :data:`MAX_COLS` positions is aggregated into rectangles of rows and
columns, a 1-D one past :data:`MAX_ROWS` rows into bins of consecutive elements; each
bin shows the most telling state in it.  :mod:`tileir.debug.memmap_svg` draws them.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence

import attrs
import numpy as np

from tileir.debug.bounds import find_out_of_bounds
from tileir.debug.findings import Finding
from tileir.debug.launching import Target, prepare
from tileir.debug.runner import run
from tileir.debug.uninitialized import _undefined_args, _Watch

__all__ = ["BufferMap", "memory_maps", "STATES", "ROW", "MAX_ROWS", "MAX_COLS"]

#: States of a drawn position, least telling first (a bin shows its most telling one).
STATES = (
    "untouched",
    "padded",
    "read",
    "written",
    "atomic",
    "padding-leak",
    "uninitialized",
    "race",
    "out-of-bounds",
)
_CODE = {s: i for i, s in enumerate(STATES)}

#: elements per row of a map drawn 1-D
ROW = 32
#: at most this many rows and columns of positions are drawn; more are aggregated
MAX_ROWS = 48
MAX_COLS = 64


@attrs.frozen(eq=False)
class BufferMap:
    """One buffer's map.  ``index`` / ``label`` name the argument; ``size`` its elements;
    ``shape`` the (rows, columns) of the drawn positions and ``bin`` how many element rows
    and columns one position aggregates (``(1, n)``: ``n`` consecutive elements of a 1-D
    map); ``state`` (codes into :data:`STATES`),
    ``writer`` / ``reader`` (the first block's linear id, -1 for none) and ``element``
    (the flat element a position shows first, -1 for a padded lane) are arrays of
    ``shape``; ``writers`` / ``readers`` count distinct blocks per element; ``grid`` is the
    launch's."""

    index: int
    label: str
    size: int
    shape: tuple
    bin: tuple
    state: np.ndarray
    writer: np.ndarray
    reader: np.ndarray
    element: np.ndarray
    writers: np.ndarray
    readers: np.ndarray
    grid: tuple
    note: str = ""

    def state_at(self, element: int) -> str:
        """The state drawn at the position showing ``element`` (``untouched`` if none does)."""
        hit = np.argwhere(self.element == element)
        return STATES[int(self.state[tuple(hit[0])])] if hit.size else "untouched"

    def position_of(self, element: int) -> Optional[tuple]:
        """The (row, column) of the position showing ``element`` first, if one does."""
        hit = np.argwhere(self.element == element)
        return tuple(int(v) for v in hit[0]) if hit.size else None

    def block(self, linear: int) -> tuple:
        """A linear block id as ``(x, y, z)``."""
        gx, gy, _ = self.grid
        return (linear % gx, (linear // gx) % gy, linear // (gx * gy))


class _Log(_Watch):
    """The uninitialized-read watch, also keeping every argument access."""

    def __init__(self, sizes: dict) -> None:
        super().__init__(sizes)
        self.bad = {k: np.zeros(n, dtype=bool) for k, n in sizes.items()}
        self.events: list = []

    def on_memory(self, op, kind, buffer, elements, block_ids, mask) -> None:
        if isinstance(buffer, (int, np.integer)):
            elems = np.asarray(elements)
            m = np.broadcast_to(np.asarray(mask), elems.shape)
            done = self.written.get(int(buffer))
            if done is not None and kind in ("read", "atomic"):
                e = elems[m]
                e = e[(e >= 0) & (e < done.size)]
                self.bad[int(buffer)][e[~done[e]]] = True
            lanes = np.broadcast_to(
                np.arange(elems.shape[0]).reshape((-1,) + (1,) * (elems.ndim - 1)), elems.shape
            )
            ids = np.asarray(block_ids)[lanes[m]]
            self.events.append((kind, int(buffer), elems[m].astype(np.int64), ids))
        super().on_memory(op, kind, buffer, elements, block_ids, mask)


def _first_and_count(elems, blocks, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Per element: the lowest block id among its accesses (-1: none) and how many distinct."""
    first = np.full(size, -1, dtype=np.int64)
    count = np.zeros(size, dtype=np.int64)
    if elems.size:
        pairs = np.unique(np.stack([elems, blocks], axis=1), axis=0)
        count = np.bincount(pairs[:, 0], minlength=size)[:size]
        big = np.full(size, np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(big, pairs[:, 0], pairs[:, 1])
        first = np.where(count > 0, big, -1)
    return first, count


def _accesses(events, buf: int, kinds, size: int, grid) -> tuple[np.ndarray, np.ndarray]:
    gx, gy, _ = grid
    es, bs = [], []
    for kind, b, elems, ids in events:
        if b != buf or kind not in kinds:
            continue
        keep = (elems >= 0) & (elems < size)
        lin = ids[:, 0].astype(np.int64) + gx * (ids[:, 1] + gy * ids[:, 2].astype(np.int64))
        es.append(elems[keep])
        bs.append(lin[keep])
    if not es:
        z = np.zeros(0, dtype=np.int64)
        return z, z
    return np.concatenate(es), np.concatenate(bs)


def _raced(events, buf: int, size: int, grid) -> np.ndarray:
    """Elements two blocks wrote (one plainly), or one read while another wrote."""
    pe, pb = _accesses(events, buf, ("write",), size, grid)
    ae, ab = _accesses(events, buf, ("atomic",), size, grid)
    re_, rb = _accesses(events, buf, ("read",), size, grid)
    wfirst, wcount = _first_and_count(np.concatenate([pe, ae]), np.concatenate([pb, ab]), size)
    plain = np.zeros(size, dtype=bool)
    plain[pe] = True
    out = plain & (wcount >= 2)
    if re_.size:
        other = (wcount[re_] >= 2) | ((wcount[re_] == 1) & (wfirst[re_] != rb))
        out[re_[other]] = True
    return out


def _static_cells(param) -> Optional[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The parameter's cells' extent and tile when every extent is a number (a map can
    follow them)."""
    c = getattr(param, "cells", None) if param is not None else None
    if c is None:
        return None
    extent = tuple(e for e in c.extent if isinstance(e, int))
    return (extent, tuple(c.tile)) if len(extent) == len(c.extent) else None


def _geometry(param, size: int, extra: int) -> tuple[tuple, np.ndarray]:
    """The (rows, columns) of positions and, per position, its element (-1: a padded lane,
    -2: nothing there)."""
    c = _static_cells(param)
    if c is not None and len(c[0]) == 2:
        (e0, e1), (t0, t1) = c
        rows, cols = -(-e0 // t0) * t0, -(-e1 // t1) * t1
        r, k = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
        inside = (r < e0) & (k < e1)
        element = np.where(inside, r * e1 + k, -1)
        element = np.where(inside & (element >= size), -2, element)
        return (rows, cols), element
    length = max(size, extra)
    extent = cover = None
    if c is not None and len(c[0]) == 1:
        extent = c[0][0]
        cover = -(-extent // c[1][0]) * c[1][0]
        length = max(length, cover)
    cols = min(ROW if length <= ROW * 16 else 2 * ROW, max(length, 1))
    rows = -(-length // cols)
    pos = np.arange(rows * cols).reshape(rows, cols)
    element = np.where(pos < max(size, extra), pos, -2)
    if extent is not None and cover is not None:
        element = np.where((pos >= extent) & (pos < cover), -1, element)
    return (rows, cols), element


def _padded(param, element: np.ndarray, touched: np.ndarray) -> np.ndarray:
    """Positions that are padded lanes of a cell some block touched."""
    c = getattr(param, "cells", None) if param is not None else None
    if c is None:
        return np.zeros(element.shape, dtype=bool)
    if c.rank == 2:
        t0, t1 = c.tile
        rows, cols = element.shape
        hit = np.zeros(element.shape, dtype=bool)
        ok = element >= 0
        hit[ok] = touched[element[ok]]
        cells = hit.reshape(rows // t0, t0, cols // t1, t1).any(axis=(1, 3))
        spread = np.repeat(np.repeat(cells, t0, axis=0), t1, axis=1)
        return (element == -1) & spread
    t = c.tile[0]
    flat_pos = np.arange(element.size).reshape(element.shape)
    cell = flat_pos // t
    hit_cells = set(np.unique(np.flatnonzero(touched) // t).tolist())
    near = np.isin(cell, list(hit_cells)) if hit_cells else np.zeros(element.shape, dtype=bool)
    return (element == -1) & near


def _pick(tiles: dict) -> dict:
    """Per bin (the last axis), every array at the bin's first most telling position."""
    pick = np.argmax(tiles["state"], axis=-1)
    out = {n: np.take_along_axis(t, pick[..., None], axis=-1)[..., 0] for n, t in tiles.items()}
    out["state"] = np.maximum(out["state"], 0)
    return out


def _binned_flat(shape: tuple, arrays: dict) -> tuple[tuple, tuple, dict]:
    """A 1-D map aggregated into bins of consecutive elements, rows of ``2 * ROW`` bins."""
    rows, cols = shape
    if rows <= MAX_ROWS:
        return shape, (1, 1), arrays
    length = rows * cols
    per = -(-length // (MAX_ROWS * 2 * ROW))
    bins = -(-length // per)
    width = min(2 * ROW, bins)
    height = -(-bins // width)
    tiles = {}
    for name, arr in arrays.items():
        flat = np.full(height * width * per, -1, dtype=arr.dtype)
        flat[:length] = arr.reshape(-1)
        tiles[name] = flat.reshape(height, width, per)
    return (height, width), (1, per), _pick(tiles)


def _binned(shape: tuple, arrays: dict) -> tuple[tuple, tuple, dict]:
    """A 2-D map aggregated into rectangles of rows x columns."""
    rows, cols = shape
    fr, fc = -(-rows // MAX_ROWS), -(-cols // MAX_COLS)
    if fr == 1 and fc == 1:
        return shape, (1, 1), arrays
    R, C = -(-rows // fr), -(-cols // fc)
    tiles = {}
    for name, arr in arrays.items():
        padded = np.full((R * fr, C * fc), -1, dtype=arr.dtype)
        padded[:rows, :cols] = arr
        tiles[name] = padded.reshape(R, fr, C, fc).transpose(0, 2, 1, 3).reshape(R, C, fr * fc)
    return (R, C), (fr, fc), _pick(tiles)


def memory_maps(
    kernel: Target,
    args: Sequence[Any],
    grid: Optional[Sequence[int]] = None,
    *,
    findings: Iterable[Finding] = (),
    undefined: Optional[Iterable[int]] = None,
) -> list[BufferMap]:
    """One :class:`BufferMap` per buffer argument of a launch of ``kernel`` on ``args``.

    ``findings`` (from any finder) add their marked elements: a padding leak's outputs,
    an out-of-bounds access past the end.  A launch that faults is mapped up to the
    fault, and its out-of-bounds access is placed.  ``undefined``: the arguments whose
    reads before a write are uninitialized (as :func:`find_uninitialized`; every Out by
    default).

    >>> import numpy as np
    >>> from tileir import F32, In, Shared, block_id, cells, load_cell, store, trace
    >>> def spread(x, out):
    ...     yield store(out, block_id(0) * 2, (yield load_cell(x)))
    >>> k = trace("spread", spread, In(F32, cells([8], [4])), Shared(F32))
    >>> m = memory_maps(k, [np.zeros(8, np.float32), np.zeros(8, np.float32)], grid=(2,))[1]
    >>> [m.state_at(e) for e in (0, 2, 5, 6)]
    ['written', 'race', 'written', 'untouched']
    """
    prep = prepare(kernel, args, grid)
    findings = list(findings)
    chosen = _undefined_args(prep, undefined)
    log = _Log({i: int(np.asarray(prep.args[i]).size) for i in chosen})
    result = run(prep.module, prep.entry, prep.args, prep.grid, devices=prep.devices, observer=log)
    if result.error is not None:
        findings += [f for f in find_out_of_bounds(kernel, args, grid) if f.elements]
    marks: dict = {}
    for f in findings:
        for buf, elems in f.elements:
            kind = "out-of-bounds" if f.kind == "out-of-bounds" else "padding-leak"
            marks.setdefault((buf, kind), []).append(np.asarray(elems, dtype=np.int64))
    maps = []
    params = {p.index: p for p in prep.params}
    for i, a in enumerate(prep.args):
        if not isinstance(a, np.ndarray):
            continue
        p = params.get(i)
        if p is not None and p.role == "Scalar":
            continue
        size = int(a.size)
        oob = marks.get((i, "out-of-bounds"), [])
        past = max([int(e.max()) + 1 for e in oob if e.size] + [0])
        shape, element = _geometry(p, size, past)
        ev = log.events
        w_first, w_count = _first_and_count(
            *_accesses(ev, i, ("write", "atomic"), size, prep.grid), size
        )
        r_first, r_count = _first_and_count(*_accesses(ev, i, ("read",), size, prep.grid), size)
        a_first, a_count = _first_and_count(*_accesses(ev, i, ("atomic",), size, prep.grid), size)
        per = np.zeros(size, dtype=np.int64)
        per[r_count > 0] = _CODE["read"]
        per[w_count > 0] = _CODE["written"]
        per[a_count >= 2] = _CODE["atomic"]
        for elems in marks.get((i, "padding-leak"), []):
            e = elems[(elems >= 0) & (elems < size)]
            per[e] = np.maximum(per[e], _CODE["padding-leak"])
        if i in log.bad:
            per[log.bad[i]] = np.maximum(per[log.bad[i]], _CODE["uninitialized"])
        per[_raced(ev, i, size, prep.grid)] = _CODE["race"]
        ok = element >= 0
        inside = ok & (element < size)
        safe = np.where(inside, element, 0)
        state = np.where(inside, per[safe], 0)
        touched = (r_count > 0) | (w_count > 0)
        state = np.where(_padded(p, element, touched) & (state == 0), _CODE["padded"], state)
        for elems in oob:
            hit = np.isin(element, elems[elems >= size])
            state = np.where(hit, _CODE["out-of-bounds"], state)
        arrays = {
            "state": state,
            "writer": np.where(inside, w_first[safe], -1),
            "reader": np.where(inside, r_first[safe], -1),
            "element": np.where(ok, element, -1),
        }
        static = _static_cells(p)
        two_d = static is not None and len(static[0]) == 2
        drawn, binning, arrays = (_binned if two_d else _binned_flat)(shape, arrays)
        label = f"argument {i}" + (f" ({p.role} {p.format})" if p is not None else "")
        note = ""
        if static is not None and len(static[0]) == 2:
            covered = static[0][0] * static[0][1]
            if size > covered:
                note = f"{size - covered} element(s) past the extent are not drawn"
        maps.append(
            BufferMap(
                i,
                label,
                size,
                drawn,
                binning,
                arrays["state"],
                arrays["writer"],
                arrays["reader"],
                arrays["element"],
                w_count,
                r_count,
                prep.grid,
                note,
            )
        )
    return maps
