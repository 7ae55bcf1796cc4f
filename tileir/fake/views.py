"""Tensor and tile views at run time, and where each lane's tile lives in memory.

A :class:`TensorView` is a base address, a shape and strides (in elements), each
an ``int64`` array with a batch axis (length 1 when every block agrees, as when
they come from the view type or a scalar argument).  A :class:`TileView` adds the
type of the partition / strided / gather-scatter view that cuts it into tiles.

:func:`plan_tile` turns a view and the index operands of one load / store into a
:class:`TilePlan`: for every lane, the element index (into the typed backing of
the buffer's segment) of every element of its tile, which elements lie inside
the tensor, and a fast description for the common case of tiles that lie wholly
inside the tensor with strides shared by all lanes (then a tile is a strided
window of the buffer and a batch of tiles is one numpy gather of whole windows,
or a zero-copy strided view when the tiles step evenly through memory: by one step
from lane to lane, or by one step along each of two grid axes, ``(rows, cols)``).

Exactness (issue 13): element indices are computed in ``int64`` only when a bound on every
index the plan can produce (``|base| + sum((largest coordinate + tile) * |stride|)``, in
Python ints) is below ``2**62``; otherwise the plan computes them in Python ints (numpy
``object`` arrays), so an index never wraps and a far-away access is seen as far away.  The
strided-window fast path is taken only when every tile stride is non-negative (a window then
reaches from its origin up by ``span`` elements) and no index needs Python ints; the memory
rules prove each window inside its buffer before taking it.

Index conventions (CT:Types): a partition view's tile ``i`` along tile dim ``k``
starts at element ``i * tile[k]`` of tensor dim ``dim_map[k]``; a strided view's
at ``i * traversal_strides[k]``; both index spaces have one entry per tile dim
(``ceil(extent / step)``).  A gather-scatter view takes element offsets for its
dense dims and a 1-D tile of element indices for ``sparse_dim``; its index
space is the tensor's shape.  Lanes past the tensor's extent are padding on
loads and are never written.
"""

from __future__ import annotations

import functools
from typing import Optional, Union

import numpy as np
from numpy.lib.stride_tricks import as_strided as _numpy_as_strided

from tileir.types import (
    GatherScatterViewType,
    PartitionViewType,
    StridedViewType,
    TensorViewType,
)

__all__ = [
    "TensorView",
    "TileView",
    "TilePlan",
    "plan_tile",
    "index_space",
    "tile_offsets",
    "offset_strides",
    "EXACT_INT64",
    "plan_affine",
]

#: Indices below this bound (in magnitude) are computed exactly in ``int64``: the sum of
#: two of them cannot wrap.
EXACT_INT64 = 1 << 62


def as_strided(typed: np.ndarray, shape, strides, writeable: bool) -> np.ndarray:
    """numpy's ``as_strided``, for ml_dtypes formats too: it rebuilds the array from its
    ``__array_interface__``, whose type string ml_dtypes' float8_e5m2 spells ``<f1``, which
    numpy cannot read back; the bytes are viewed as unsigned ints of the same width instead,
    and the window viewed back."""
    if typed.dtype.isbuiltin == 1:  # numpy's own types (ml_dtypes' are user-defined: 2)
        return _numpy_as_strided(typed, shape=shape, strides=strides, writeable=writeable)
    raw = typed.view(f"u{typed.itemsize}")
    return _numpy_as_strided(raw, shape=shape, strides=strides, writeable=writeable).view(
        typed.dtype
    )


def window(typed: np.ndarray, start: int, shape, strides, writeable: bool) -> np.ndarray:
    """The strided window of the flat ``typed`` that begins at element ``start`` (its
    extent proved inside ``typed`` by the caller): an ndarray made on ``typed``'s buffer
    directly where numpy's own type allows it (``np.ndarray`` checks the window against
    the buffer besides), else :func:`as_strided`."""
    if typed.dtype.isbuiltin == 1 and typed.ndim == 1 and typed.flags.c_contiguous:
        out = np.ndarray(shape, typed.dtype, typed, start * typed.itemsize, strides)
        if not writeable and out.flags.writeable:
            out.flags.writeable = False
        return out
    return as_strided(typed[start:], shape=shape, strides=strides, writeable=writeable)


def _take(a: np.ndarray, lanes) -> np.ndarray:
    return a if lanes is None or a.shape[0] == 1 else a[lanes]


class TensorView:
    """A ``tensor_view`` value: ``base`` address, ``shape`` and ``strides`` (element units)."""

    __slots__ = ("type", "base", "shape", "strides", "_batch")

    def __init__(self, type_: TensorViewType, base: np.ndarray, shape: tuple, strides: tuple):
        self.type = type_
        self.base = base
        self.shape = shape
        self.strides = strides
        self._batch = 0  # worked out when first asked (a view's arrays never change)

    @property
    def batch(self) -> int:
        if not self._batch:
            self._batch = max(
                [
                    self.base.shape[0],
                    *(s.shape[0] for s in self.shape),
                    *(s.shape[0] for s in self.strides),
                ]
            )
        return self._batch

    def take(self, lanes: Optional[np.ndarray]) -> "TensorView":
        return TensorView(
            self.type,
            _take(self.base, lanes),
            tuple(_take(s, lanes) for s in self.shape),
            tuple(_take(s, lanes) for s in self.strides),
        )

    def __repr__(self) -> str:
        return f"TensorView({self.type}, base={self.base[:4]}...)"


class TileView:
    """A partition / strided / gather-scatter view of a :class:`TensorView`."""

    __slots__ = ("type", "tensor", "affine")

    def __init__(
        self,
        type_: Union[PartitionViewType, StridedViewType, GatherScatterViewType],
        tensor: TensorView,
    ):
        self.type = type_
        self.tensor = tensor
        # plan_affine's per-view part, made the first time it is asked for (a view is never
        # changed once made: a loop that keeps one from trip to trip plans with it again)
        self.affine: Optional[tuple] = None

    @property
    def batch(self) -> int:
        return self.tensor.batch

    def take(self, lanes: Optional[np.ndarray]) -> "TileView":
        return TileView(self.type, self.tensor.take(lanes))

    def __repr__(self) -> str:
        return f"TileView({self.type})"


def _steps(vt) -> tuple[int, ...]:
    if isinstance(vt, StridedViewType):
        return tuple(vt.traversal_strides)
    return tuple(vt.tile_shape)


def _dim_map(vt) -> tuple[int, ...]:
    if isinstance(vt, GatherScatterViewType):
        return tuple(range(len(vt.tile_shape)))
    return tuple(vt.dim_map)


def index_space(view: TileView) -> list[np.ndarray]:
    """The view's index-space extents, one ``int64`` array (batch axis) per index."""
    vt = view.type
    shape = view.tensor.shape
    if isinstance(vt, GatherScatterViewType):
        return list(shape)
    return [-(-shape[d] // s) for d, s in zip(_dim_map(vt), _steps(vt))]


class TilePlan:
    """Where every lane's tile lives in one segment (see the module docstring).

    ``origin`` (b,) is the element index of tile element ``(0, ..., 0)``;
    ``full`` (b,) marks lanes whose whole tile is inside the tensor; when every
    lane shares the strides, ``offsets`` (tile shape) are the element offsets of
    the tile's elements from its origin and ``fast`` is True.
    """

    __slots__ = (
        "b",
        "tile",
        "_origin",
        "_lazy_origin",
        "full",
        "offsets",
        "fast",
        "exact",
        "span",
        "_coords",
        "_base",
        "_strides",
        "_extents",
        "known_step",
        "known_grid",
        "ends",
        "_steps",
        "_ostrides",
    )

    def __init__(
        self,
        b,
        tile,
        origin,
        full,
        offsets,
        coords,
        base,
        strides,
        extents,
        exact,
        known_step=None,
        steps=None,
        span=None,
        lazy_origin=None,
        known_grid=None,
        ends=None,
        tile_strides=None,
    ):
        self.b = b
        # the step between consecutive lanes' origins when known without looking at them
        # (plan_affine: every lane full, origins first + step * lane)
        self.known_step = known_step
        # plan_affine's ``(cols, step within a row, step from row to row)`` of the origins
        # where the lanes' rows do not follow on from each other (grid_steps without looking)
        self.known_grid = known_grid
        # plan_affine's first and last origins, the smallest and the largest (every step
        # >= 0), as Python ints: the bounds checks need no look at the others
        self.ends = ends
        # plan_affine's ``([((first, step, row_step), along), ...], cols)``: each tile dim's
        # view index, from which the per-lane coordinates are made when asked (elements())
        self._steps = steps
        # True when indices are Python ints (object arrays): see the module docstring
        self.exact = exact
        self.tile = tile
        self._origin = origin
        # plan_affine's (first origin, step within a row, step from row to row, rows, cols):
        # the origins made from it the first time they are asked for (a load that takes a
        # window view of the lanes' tiles needs the first one alone)
        self._lazy_origin = lazy_origin
        # the element stride of each tile dim (offset_strides of offsets), once asked for
        self._ostrides = tile_strides
        self.full = full
        self.offsets = offsets
        self.fast = offsets is not None
        # the largest element offset inside a tile (the fast path's strides are >= 0)
        if span is None:
            span = int(offsets.max()) if self.fast and offsets.size else 0
        self.span = span
        self._coords = coords
        self._base = base
        self._strides = strides
        self._extents = extents

    @property
    def origin(self) -> np.ndarray:
        """``(b,)`` element index of each lane's tile element ``(0, ..., 0)``."""
        o = self._origin
        if o is None:
            first, d_col, d_row, rows, cols = self._lazy_origin
            o = self._origin = _affine_origins(first, d_col, d_row, rows, cols)
        return o

    @property
    def first_origin(self) -> int:
        """Lane 0's origin, as a Python int."""
        if self._origin is None:
            return self._lazy_origin[0]
        return int(self._origin[0])

    @property
    def tile_strides(self) -> tuple[int, ...]:
        """:func:`offset_strides` of the fast path's ``offsets`` (made once)."""
        st = self._ostrides
        if st is None:
            st = self._ostrides = offset_strides(self.offsets)
        return st

    def elements(self, lanes: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Element indices ``(n, *tile)`` and in-tensor mask for ``lanes`` (default: all)."""
        r = len(self.tile)
        n = self.b if lanes is None else len(lanes)
        if self._coords is None:  # plan_affine's: the coordinates from the progressions
            per_dim, cols = self._steps
            col, row = np.divmod(np.arange(self.b, dtype=np.int64), cols)[::-1]
            self._coords = [(f + s * col + rs * row) * k for (f, s, rs), k in per_dim]
        idx = _take(self._base, lanes).reshape((-1,) + (1,) * r)
        inb = np.ones((1,) * (r + 1), dtype=bool)
        for k in range(r):
            shape = [1] * (r + 1)
            shape[k + 1] = self.tile[k]
            start = _take(self._coords[k], lanes)
            if start.ndim == 2:  # a gather index: one row per tile element along k
                c = start.reshape((start.shape[0],) + tuple(shape[1:]))
            else:
                c = start.reshape((-1,) + (1,) * r) + np.arange(self.tile[k]).reshape(shape)
            ext = _take(self._extents[k], lanes).reshape((-1,) + (1,) * r)
            st = _take(self._strides[k], lanes).reshape((-1,) + (1,) * r)
            inb = inb & (c >= 0) & (c < ext)
            idx = idx + c * st
        full = (n,) + tuple(self.tile)
        return np.broadcast_to(idx, full), np.broadcast_to(inb, full)

    def windows(self, typed: np.ndarray) -> np.ndarray:
        """Every tile-shaped strided window of ``typed``, indexed by its origin element."""
        isz = typed.itemsize
        count = max(typed.shape[0] - self.span, 0)
        strides = (isz,) + tuple(s * isz for s in self.tile_strides)
        return window(typed, 0, (count,) + tuple(self.tile), strides, typed.flags.writeable)

    def even_view(self, typed: np.ndarray, step: int, writeable: bool) -> np.ndarray:
        """The lanes' tiles as one ``(b, *tile)`` window view of ``typed`` (origins ``step``
        elements apart: :meth:`even_step`)."""
        isz = typed.itemsize
        strides = (step * isz,) + tuple(s * isz for s in self.tile_strides)
        return window(typed, self.first_origin, (self.b,) + self.tile, strides, writeable)

    def grid_view(self, typed: np.ndarray, grid: tuple[int, int, int]) -> np.ndarray:
        """The lanes' tiles as one read-only ``(rows, cols, *tile)`` window view of
        ``typed`` (``grid`` from :meth:`grid_steps`)."""
        cols, inner, outer = grid
        isz = typed.itemsize
        strides = (outer * isz, inner * isz) + tuple(s * isz for s in self.tile_strides)
        return window(typed, self.first_origin, (self.b // cols, cols) + self.tile, strides, False)

    def dense(self) -> bool:
        """Whether each tile is one run of consecutive elements (row-major, no gaps)."""
        want = 1
        for n, st in zip(reversed(self.tile), reversed(self.tile_strides)):
            if n > 1 and st != want:
                return False
            want *= n
        return True

    def even_step(self) -> int | None:
        """The common step between consecutive lanes' origins (all lanes full), else None."""
        if self.known_step is not None:
            return self.known_step
        if self.known_grid is not None:
            return None
        o = self.origin
        if o.shape[0] == 1:
            return 0
        d = int(o[1] - o[0])
        if d < 0 or not np.all(np.diff(o) == d):
            return None
        return d

    def grid_steps(self) -> tuple[int, int, int] | None:
        """The lanes as ``rows x cols`` (row-major) whose origins step evenly along both:
        ``(cols, step within a row, step from row to row)``, steps >= 0; None when they do
        not, or when one step does for all lanes (see :meth:`even_step`)."""
        if self.known_grid is not None or self.known_step is not None:
            return self.known_grid
        o = self.origin
        b = o.shape[0]
        if b < 4:
            return None
        d = np.diff(o)
        change = np.flatnonzero(d != d[0])
        if change.size == 0:
            return None
        cols = int(change[0]) + 1
        if cols < 2 or b % cols:
            return None
        g = o.reshape(b // cols, cols)
        inner, outer = int(d[0]), int(g[1, 0] - g[0, 0])
        if inner < 0 or outer < 0:
            return None
        rows = np.arange(b // cols, dtype=np.int64)[:, None] * outer
        if not np.array_equal(g, g[0, 0] + rows + np.arange(cols, dtype=np.int64) * inner):
            return None
        return cols, inner, outer


def offset_strides(offsets: np.ndarray) -> tuple[int, ...]:
    """The element stride of each tile dim in a :func:`tile_offsets` array."""
    r = offsets.ndim
    out = []
    for k in range(r):
        if offsets.shape[k] > 1:
            idx = [0] * r
            idx[k] = 1
            out.append(int(offsets[tuple(idx)]))
        else:
            out.append(0)
    return tuple(out)


@functools.lru_cache(maxsize=256)
def tile_offsets(tile: tuple[int, ...], strides: tuple[int, ...]) -> np.ndarray:
    """Element offsets of a tile's elements from its first one (read-only, cached)."""
    r = len(tile)
    offsets = np.zeros(tile, dtype=np.int64)
    for k in range(r):
        lane_shape = [1] * r
        lane_shape[k] = tile[k]
        offsets = offsets + np.arange(tile[k], dtype=np.int64).reshape(lane_shape) * strides[k]
    offsets.flags.writeable = False
    return offsets


def _max_abs(a: np.ndarray) -> int:
    """The largest magnitude in ``a``, as a Python int (no int64 ``abs`` overflow)."""
    if a.size == 1:
        return abs(int(a.reshape(-1)[0]))
    return max(abs(int(a.max())), abs(int(a.min())))


def _needs_python_ints(vt, tile, indices, base_elem, strides, steps) -> bool:
    """Whether some index the plan may compute could reach ``EXACT_INT64`` (see the module
    docstring): a bound over every coordinate the tile can touch, padding lanes included."""
    bound = _max_abs(base_elem)
    for k, n in enumerate(tile):
        reach = _max_abs(indices[k]) * (steps[k] if steps is not None else 1) + n
        bound += reach * _max_abs(strides[k])
        if bound >= EXACT_INT64:
            return True
    return False


def _python_ints(a: np.ndarray) -> np.ndarray:
    return a.astype(object)


def plan_tile(
    view: TileView, indices: list[np.ndarray], base_elem: np.ndarray, b: int
) -> tuple[TilePlan, list]:
    """The plan for ``b`` lanes; also the index-space violations as (lane, index, extent).

    ``indices`` are the view index operands as non-negative ``int64`` (batch axis);
    ``base_elem`` is the element index of the tensor's base in the typed backing.  The
    plan's indices are exact (module docstring): ``plan.exact`` when they are Python ints.
    """
    vt = view.type
    tv = view.tensor
    tile = tuple(vt.tile_shape)
    r = len(tile)
    dmap = _dim_map(vt)
    shape = tv.shape
    strides = [tv.strides[d] for d in dmap]
    extents = [shape[d] for d in dmap]
    gather = isinstance(vt, GatherScatterViewType)
    exact = _needs_python_ints(
        vt, tile, indices, base_elem, strides, None if gather else _steps(vt)
    )
    if exact:
        indices = [_python_ints(i) for i in indices]
        base_elem = _python_ints(base_elem)
        strides = [_python_ints(s) for s in strides]
        extents = [_python_ints(e) for e in extents]
    bad = []
    coords = []
    origin = base_elem
    full = np.ones(1, dtype=bool)
    if isinstance(vt, GatherScatterViewType):  # (``gather``, spelt for the type checker)
        sd = vt.sparse_dim
        for k in range(r):
            if k == sd:
                g = indices[k]  # (b or 1, tile[k]) element indices along the sparse dim
                coords.append(g)
                first = g[:, 0]
                full = full & np.all(g < extents[k][:, None], axis=1)
            else:
                first = indices[k]
                coords.append(first)
                full = full & (first + tile[k] <= extents[k])
            origin = origin + first * strides[k]
        offsets = None  # gathered rows: no common window shape
    else:
        steps = _steps(vt)
        for k in range(r):
            i = indices[k]
            space = -(-extents[k] // steps[k])
            out = i >= space
            if out.any():
                lane = int(np.argmax(out))
                bad.append((lane, k, int(_take(i, [lane])[0]), int(_take(space, [lane])[0])))
            start = i * steps[k]
            coords.append(start)
            origin = origin + start * strides[k]
            full = full & (start + tile[k] <= extents[k])
        offsets = None
        # the window fast path: shared, non-negative strides and int64-exact indices
        if not exact and all(s.shape[0] == 1 and s[0] >= 0 for s in strides):
            offsets = tile_offsets(tile, tuple(int(s[0]) for s in strides))
    origin = np.broadcast_to(origin, (b,)) if origin.shape[0] != b else origin
    full = np.broadcast_to(full, (b,)) if full.shape[0] != b else full
    base = np.broadcast_to(base_elem, (b,)) if base_elem.shape[0] != b else base_elem
    plan = TilePlan(b, tile, origin, full, offsets, coords, base, strides, extents, exact)
    return plan, bad


def plan_affine(
    view: TileView, steps: list[tuple[int, int, int]], cols: int, base_elem: int, b: int
) -> Optional[TilePlan]:
    """:func:`plan_tile`'s plan for ``b`` lanes, laid out as rows of ``cols``, whose view
    index ``k`` is ``first + step * col + row_step * row`` (``steps``, steps >= 0: block ids
    within one grid row or whole rows of it, ``tileir.fake.progressions``), made with
    per-batch arithmetic: the first and last lanes bound every other one.  None where that
    does not give the whole answer (then plan_tile does, and names any violation): a
    gather-scatter view, a tensor whose base, shape or strides differ per lane or has a
    negative stride, a lane outside the index space or not wholly inside the tensor, an
    index that int64 would not hold exactly."""
    layout = view.affine
    if layout is None:
        layout = view.affine = _affine_layout(view)
    if layout is _NOT_AFFINE or cols < 1 or b % cols:
        return None
    tile, tile_steps, strides, extents, int_strides, int_extents, offsets, span, tile_strides = (
        layout
    )
    rows = b // cols
    origin0, d_col, d_row, bound = base_elem, 0, 0, abs(base_elem)
    for k, (first, step, row_step) in enumerate(steps):
        stride, extent, along = int_strides[k], int_extents[k], tile_steps[k]
        last = first + step * (cols - 1) + row_step * (rows - 1)  # the largest: steps >= 0
        if step < 0 or row_step < 0 or first < 0 or last >= -(-extent // along):
            return None
        if last * along + tile[k] > extent:  # some lane reaches past the tensor: padding
            return None
        origin0 += first * along * stride
        d_col += step * along * stride
        d_row += row_step * along * stride
        bound += (last * along + tile[k]) * stride
    if bound >= EXACT_INT64:
        return None
    if rows == 1:  # one row: its lanes step by d_col
        d_row = d_col * cols
    elif cols == 1:  # one column: its lanes step by d_row
        d_col = d_row
    one_step = d_row == d_col * cols  # rows follow on from each other: one step for all
    return TilePlan(
        b,
        tile,
        None,
        _all_full(b),
        offsets,
        None,
        np.array([base_elem], dtype=np.int64),
        strides,
        extents,
        False,
        known_step=(d_col if b > 1 else 0) if one_step else None,
        steps=(list(zip(steps, tile_steps)), cols),
        span=span,
        lazy_origin=(origin0, d_col, d_row, rows, cols),
        known_grid=None if one_step else (cols, d_col, d_row),
        ends=(origin0, origin0 + d_col * (cols - 1) + d_row * (rows - 1)),
        tile_strides=tile_strides,
    )


#: :attr:`TileView.affine` of a view plan_affine never plans (a gather-scatter view, a tensor
#: whose base, shape or strides differ per lane, a negative stride)
_NOT_AFFINE = ()


def _affine_layout(view: TileView) -> tuple:
    """What plan_affine needs of the view alone: ``(tile, tile steps, strides, extents, the
    strides and extents as Python ints, the tile's offsets, their span, their strides)``,
    or ``_NOT_AFFINE``."""
    vt = view.type
    tv = view.tensor
    if isinstance(vt, GatherScatterViewType) or any(
        a.shape[0] != 1 for a in (tv.base, *tv.shape, *tv.strides)
    ):
        return _NOT_AFFINE
    tile = tuple(vt.tile_shape)
    dmap = _dim_map(vt)
    strides = [tv.strides[d] for d in dmap]
    extents = [tv.shape[d] for d in dmap]
    int_strides = tuple(int(s[0]) for s in strides)
    if any(s < 0 for s in int_strides):
        return _NOT_AFFINE
    offsets = tile_offsets(tile, int_strides)
    span = int(offsets.max()) if offsets.size else 0
    int_extents = tuple(int(e[0]) for e in extents)
    per_dim = offset_strides(offsets)
    return tile, _steps(vt), strides, extents, int_strides, int_extents, offsets, span, per_dim


def _affine_origins(first: int, d_col: int, d_row: int, rows: int, cols: int) -> np.ndarray:
    """``first + d_col * col + d_row * row`` for the lanes laid out as rows of ``cols``."""
    if d_row == d_col * cols:  # one step for all
        if d_col:
            return np.arange(first, first + d_col * rows * cols, d_col, dtype=np.int64)
        return np.full(rows * cols, first, dtype=np.int64)
    return (
        first
        + np.arange(rows, dtype=np.int64)[:, None] * d_row
        + np.arange(cols, dtype=np.int64) * d_col
    ).reshape(-1)


@functools.lru_cache(maxsize=64)
def _all_full(b: int) -> np.ndarray:
    """Every one of ``b`` lanes' tiles inside the tensor (read-only, shared)."""
    full = np.ones(b, dtype=bool)
    full.flags.writeable = False
    return full
