"""``mmaf``'s products, lane by lane, accumulated into a destination a chunk at a time.

Each lane's result is ``numpy.matmul(a, b) + c`` with the product rounded once to the
compute format before the add (``rules.floats``: numpy's BLAS order is the summation order).
This module computes exactly those per-lane products, each one BLAS call on the same
operand matrices as one ``numpy.matmul`` over every lane would make, and changes only how
the lanes are grouped and where their results land:

* operands loaded as a :class:`~tileir.fake.values.TileGrid` (tiles that repeat along a
  grid axis) keep their ``(rows, cols)`` lanes, so each distinct tile is converted once and
  numpy broadcasts it (plain batches take the form ``(lanes, 1)``);
* the product is made a few grid rows at a time into a small scratch buffer (about
  :data:`SCRATCH_BYTES`, so it stays in cache) and added from there into the destination:
  the interpreter never holds a whole second result beside the accumulator;
* the destination is a fresh array, or the accumulator ``c`` itself when the caller owns it
  (a loop's accumulator that nothing else reads again: :mod:`tileir.fake.donation`);
* over a matmul's grid (A varying along one lane axis, B along the other) the result is a
  TileGrid over the matrix C itself (:func:`_layout_view`), each band of products written
  straight in C's layout; a store that puts the tiles where C has them takes C as the buffer
  (:func:`lays_out`).

Slicing the lanes never changes an operand matrix (its pointer, shape and strides are those
of the whole batch's), so numpy hands BLAS the same products; a product written in C's layout
differs only in its output's row stride (BLAS writes each element where it is told).  Every
bit of the answer is what one ``numpy.matmul`` and one ``numpy.add`` over all lanes give:
tests/fake/test_interpret_products.py checks every lane against a serial 2-D ``matmul`` and
``add``.

Over a matmul's grid whose A tiles are row bands of one strided matrix and whose B tiles are
column bands of another (the tiles a K trip loads: windows of the buffers, never copied on this
path; the per-lane path copies them one after another, as before), a band of A rows times all of B's
columns is ONE 2-D GEMM rather than numpy's one small GEMM per lane, and into a loop's
accumulator one GEMM with ``beta = 1`` (:mod:`tileir.fake.blas`) makes and adds every product
in one pass.  A plain batch of row bands times one tile (flash attention's ``q k^T``) is one
GEMM likewise (:func:`batch_product`).

Merging along K would change the bits (the sum's order), but merging along M and N with K fixed
need not: each output element is still one dot product of length K, and OpenBLAS splits the
big product into the same micro-kernel calls (and packs its operands, so a window's row stride
is not seen).  Whether it does is the BLAS's business, so it is measured, not assumed: the
first product of each shape class (the form, dtype, ``m, n, k``, A blocks in a band, B blocks,
B's order) computes a random case, NaNs of two payloads included, both ways and takes the
merged form only where every bit agrees (:func:`merge_keeps_bits`; the verdicts are a memo,
``tileir.ir.memo``, since they are a function of this process's BLAS alone).  Where a shape
class disagrees (another CPU, another BLAS) its lanes keep their own products.  Merging along
K is never tried: one GEMM over a whole K trip of the 1024^3 bench matmul gives other bits.
"""

from __future__ import annotations

import math
from typing import Callable, Optional

import numpy as np

from tileir.fake import blas
from tileir.fake.values import TileGrid
from tileir.fake.views import offset_strides
from tileir.ir.memo import memo_table, remember

__all__ = [
    "SCRATCH_BYTES",
    "grid_operands",
    "lane_operands",
    "multiply_add",
    "merge_keeps_bits",
    "batch_product",
    "MERGED_FORMS",
    "lays_out",
]

#: bytes of product made at once before it is added into the destination
SCRATCH_BYTES = 1 << 20


def lane_operands(a, b, c: np.ndarray, convert: Callable) -> Optional[tuple]:
    """``(sa, sb, (rows, cols), uncopied)``: the converted operands with two leading lane
    axes, each of length 1 where the operand is the same along it, for ``rows * cols`` lanes
    in row-major order; None where the operands' lanes do not line up (the caller multiplies
    plainly).  A :class:`~tileir.fake.values.TileGrid` operand is left a window of its buffer
    (``uncopied`` says which): :func:`multiply_add` copies it only if it multiplies lane by
    lane, since one merged GEMM reads a window as fast as a copy."""
    grids = [v for v in (a, b) if type(v) is TileGrid]
    if not grids:
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return None
        ca, cb = convert(a), convert(b)
        lanes = max(ca.shape[0], cb.shape[0], c.shape[0])
        if any(n not in (1, lanes) for n in (ca.shape[0], cb.shape[0], c.shape[0])):
            return None
        return ca[:, None], cb[:, None], (lanes, 1), (False, False)
    rows, cols = grids[0].view.shape[:2]
    if c.shape[0] not in (1, rows * cols):
        return None
    shaped = grid_operands(a, b, (rows, cols), convert, copy=False)
    if shaped is None:
        return None
    return shaped[0], shaped[1], (rows, cols), (type(a) is TileGrid, type(b) is TileGrid)


def grid_operands(
    a, b, lanes: tuple[int, int], convert: Callable, copy: bool = True
) -> Optional[list]:
    """``[a, b]`` converted, each with two leading lane axes ``lanes`` (length 1 where it
    repeats): a :class:`~tileir.fake.values.TileGrid` of those lanes as its distinct tiles
    (copied contiguously, unless not ``copy``: BLAS is faster on the few distinct tiles one
    after another than on windows of the whole buffer, lane by lane), a plain batch of every
    lane (or of one) reshaped; None for any other operand."""
    rows, cols = lanes
    shaped = []
    for v in (a, b):
        if type(v) is TileGrid and v.view.shape[:2] == (rows, cols):
            # a conversion (astype, order K) lays B's converted windows side by side, still
            # bands of one matrix for the merged GEMMs
            tiles = convert(v.compact())
            shaped.append(np.ascontiguousarray(tiles) if copy else tiles)
        elif type(v) is np.ndarray and v.shape[0] in (1, rows * cols):
            lead = (rows, cols) if v.shape[0] > 1 else (1, 1)
            shaped.append(convert(v).reshape(lead + v.shape[1:]))
        else:
            return None
    return shaped


def multiply_add(
    sa: np.ndarray,
    sb: np.ndarray,
    lanes: tuple[int, int],
    c,
    into: bool,
    uncopied: tuple[bool, bool] = (False, False),
):
    """``matmul(sa, sb) + c`` for every lane, ``rows * cols`` of them, in ``c``'s dtype (the
    product's too): ``c`` itself overwritten when ``into`` (an array, or a
    :class:`~tileir.fake.values.TileGrid` this function made before), else a fresh array,
    or a fresh TileGrid in the layout of C where the lanes are a grid of A rows and B
    columns (:func:`_layout`).  None when the product's tile is not ``c``'s (the caller's
    plain path says what numpy makes of it).  ``uncopied`` says which operand is a TileGrid's
    tiles left windows of their buffer (:func:`lane_operands`)."""
    rows, cols = lanes
    grid_c = type(c) is TileGrid
    tile = tuple(c.view.shape[2:]) if grid_c else c.shape[1:]
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
        or (grid_c and not into)
    ):
        return None
    laned = grid_c or c.shape[0] > 1  # else one accumulator tile for every lane
    c4 = c.view if grid_c else c.reshape(((rows, cols) if laned else (1, 1)) + tile)
    across = _across(sa.shape[:2], sb.shape[:2], lanes, tile)
    if across is not None and (grid_c or not into):  # a matmul's grid: C's layout
        base = c.base if grid_c else np.empty(_layout_shape(across, lanes, tile), c.dtype)
        if base is not None and _is_layout(c.view if grid_c else None, base, across, lanes):
            _add_in_layout(sa, sb, c4, base, across, into, uncopied)
            return c if into else TileGrid(_layout_view(base, across, lanes, tile), base)
    sa, sb = _lane_tiles(sa, sb, uncopied)
    if into:
        result = c
        d4 = c4
    else:
        result = np.empty((rows * cols,) + tile, c.dtype)
        d4 = result.reshape((rows, cols) + tile)
    row_bytes = lead_p[1] * math.prod(tile) * c.dtype.itemsize
    step = max(1, SCRATCH_BYTES // max(row_bytes, 1))

    def acc_rows(r0: int, r1: int) -> np.ndarray:
        return c4[r0:r1] if laned else c4

    if lead_p[0] == 1:  # the same product for every row: made once
        product = np.matmul(sa, sb)
        for r0 in range(0, rows, step):
            r1 = min(rows, r0 + step)
            np.add(product, acc_rows(r0, r1), out=d4[r0:r1])
        return result
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
    return result


def _across(lead_a: tuple, lead_b: tuple, lanes: tuple[int, int], tile: tuple):
    """Which lane axis A varies along (0 or 1) where A varies along one and B along the
    other (a matmul's grid: each lane is one A row block times one B column block), with
    rank-2 tiles; None for any other product (rank-3 tiles, repeated lanes, one lane)."""
    rows, cols = lanes
    if len(tile) != 2 or rows * cols < 2:
        return None
    if tuple(lead_a) == (rows, 1) and tuple(lead_b) == (1, cols):
        return 0
    if tuple(lead_a) == (1, cols) and tuple(lead_b) == (rows, 1):
        return 1
    return None


def _layout_shape(across: int, lanes: tuple[int, int], tile: tuple) -> tuple[int, int]:
    """The matrix C of every lane's tile at (its A block, its B block)."""
    a_blocks, b_blocks = (lanes[0], lanes[1]) if across == 0 else (lanes[1], lanes[0])
    return a_blocks * tile[0], b_blocks * tile[1]


def _layout_view(base: np.ndarray, across: int, lanes: tuple[int, int], tile: tuple):
    """The lanes' ``(rows, cols, m, n)`` view of the matrix :func:`_layout_shape` (writable:
    a loop adds the next product into it)."""
    rows, cols = lanes
    m, n = tile
    if across == 0:  # lane (r, c) at block (r, c)
        return base.reshape(rows, m, cols, n).transpose(0, 2, 1, 3)
    return base.reshape(cols, m, rows, n).transpose(2, 0, 1, 3)  # lane (r, c) at (c, r)


def _is_layout(view: Optional[np.ndarray], base: np.ndarray, across: int, lanes) -> bool:
    """Whether ``view`` (None: a fresh ``base``) is the lanes' layout view of ``base``."""
    if view is None:
        return True
    tile = tuple(view.shape[2:])
    if base.shape != _layout_shape(across, lanes, tile) or not base.flags.c_contiguous:
        return False
    want = _layout_view(base, across, lanes, tile)
    return view.strides == want.strides and view.ctypes.data == want.ctypes.data


def _lane_tiles(sa, sb, uncopied: tuple[bool, bool]) -> tuple:
    """The operands as the per-lane GEMMs take them: a TileGrid's windows copied
    contiguously (as :func:`grid_operands` copies them)."""
    return (
        np.ascontiguousarray(sa) if uncopied[0] else sa,
        np.ascontiguousarray(sb) if uncopied[1] else sb,
    )


def _add_in_layout(
    sa, sb, c4: np.ndarray, base: np.ndarray, across: int, into: bool, uncopied=(False, False)
) -> None:
    """``matmul(sa, sb) + c`` into ``base`` laid out as C, a band of A blocks at a time.

    Each band's products are written straight in C's layout (``matmul``'s ``out``: each
    matrix's rows land one row of C apart), so the add that follows runs over whole rows of
    C; with ``into``, ``c4`` is the view of ``base`` itself and the band is made in a scratch
    band first.  Where A's tiles are row bands of one matrix and B's column bands of one
    (:func:`_as_rows`, :func:`_as_columns`) and this BLAS gives the lanes' bits that way
    (:func:`merge_keeps_bits`), a band is one 2-D GEMM; into ``base`` itself, one GEMM
    with ``beta = 1`` (:mod:`tileir.fake.blas`) adds every product as it makes it."""
    if across == 1:  # make A's axis the first: lane (r, c) becomes (c, r)
        sa, sb, c4 = (x.transpose((1, 0) + tuple(range(2, x.ndim))) for x in (sa, sb, c4))
    a_blocks, b_blocks = sa.shape[0], sb.shape[1]
    m, n, k = sa.shape[-2], sb.shape[-1], sa.shape[-1]
    rows_2d, cols_2d = _as_rows(sa), _as_columns(sb)
    if rows_2d is None or cols_2d is None:
        rows_2d = cols_2d = None  # lane by lane
    if (
        rows_2d is not None
        and cols_2d is not None
        and blas.AVAILABLE
        and merge_keeps_bits(base.dtype, m, n, k, a_blocks, b_blocks, "accumulate")
    ):
        if not into:  # a fresh base: the accumulator's tiles first, then the GEMM adds in
            np.copyto(base.reshape(a_blocks, m, b_blocks, n).transpose(0, 2, 1, 3), c4)
        if blas.add_product(rows_2d, cols_2d, base):
            return
        # (a layout BLAS cannot take: the bands below write every element of base again)
    band_bytes = m * base.shape[1] * base.dtype.itemsize
    step = max(1, SCRATCH_BYTES // max(band_bytes, 1))
    scratch = np.empty((min(step, a_blocks) * m, base.shape[1]), base.dtype) if into else None
    if rows_2d is not None and not merge_keeps_bits(
        base.dtype, m, n, k, min(step, a_blocks), b_blocks, "matmul"
    ):
        rows_2d = cols_2d = None
    if rows_2d is None:
        sa, sb = _lane_tiles(sa, sb, uncopied)
    for r0 in range(0, a_blocks, step):
        r1 = min(a_blocks, r0 + step)
        band = base[r0 * m : r1 * m]
        part = band if scratch is None else scratch[: (r1 - r0) * m]
        lanes_view = part.reshape(r1 - r0, m, b_blocks, n).transpose(0, 2, 1, 3)
        if rows_2d is not None and cols_2d is not None:  # one GEMM: A's blocks r0..r1, all B
            np.matmul(rows_2d[r0 * m : r1 * m], cols_2d, out=part)
        else:
            np.matmul(sa[r0:r1], sb, out=lanes_view)
        if into:
            np.add(part, band, out=band)  # the product first, as numpy.add(prod, acc)
        else:
            np.add(lanes_view, c4[r0:r1] if c4.shape[0] > 1 else c4, out=lanes_view)


def _as_rows(sa: np.ndarray) -> Optional[np.ndarray]:
    """A's ``(blocks, 1, m, k)`` tiles as the one ``(blocks * m, k)`` matrix they are row
    bands of (a view, no copy), or None where their strides do not make one."""
    blocks, one, m, k = sa.shape
    if one != 1 or (blocks > 1 and sa.strides[0] != m * sa.strides[2]):
        return None
    # (the strides just checked merge the block and row axes: numpy reshapes without a copy)
    return sa.reshape(blocks * m, k)


def _as_columns(sb: np.ndarray) -> Optional[np.ndarray]:
    """B's ``(1, blocks, k, n)`` tiles as the one ``(k, blocks * n)`` matrix they are column
    bands of (a view, no copy), or None where their strides do not make one."""
    one, blocks, k, n = sb.shape
    if one != 1 or (blocks > 1 and sb.strides[1] != n * sb.strides[3]):
        return None
    # (the block and column axes merge by the strides just checked: a view, no copy)
    return sb[0].transpose(1, 0, 2).reshape(k, blocks * n)


#: (form, dtype, m, n, k, A blocks in a band, B blocks) -> whether that merged form gives
#: the per-lane products' bits on this process's BLAS (:func:`merge_keeps_bits`)
_MERGE_VERDICTS: dict[tuple, bool] = memo_table("fake.products: merged GEMM verdicts")

#: the merged forms :func:`merge_keeps_bits` judges
MERGED_FORMS = ("matmul", "accumulate")


def merge_keeps_bits(
    dtype: np.dtype,
    m: int,
    n: int,
    k: int,
    band_blocks: int,
    b_blocks: int,
    form: str,
    b_order: str = "rows",
) -> bool:
    """Whether ``band_blocks`` A tiles of ``m x k`` times ``b_blocks`` B tiles of ``k x n``,
    each product added to an accumulator tile, give the same bits merged as lane by lane
    (numpy's one GEMM per lane in the layouts :func:`grid_operands` makes, then
    ``numpy.add(product, acc)``).  ``form`` is the merged way: ``"matmul"``, one 2-D
    ``numpy.matmul`` of the band (``band_blocks * m`` rows) times the columns
    (``b_blocks * n``), then the same add; ``"accumulate"``, one GEMM with ``beta = 1``
    into the accumulator (:func:`tileir.fake.blas.add_product`).  ``b_order`` is how B's
    matrix lies: ``"rows"`` (row-major) or ``"columns"`` (a transposed view: numpy has BLAS
    read it transposed, both ways).  Measured once per shape class on random operands with
    NaNs of two payloads, then remembered."""
    dtype = np.dtype(dtype)
    key = (form, dtype.str, m, n, k, band_blocks, b_blocks, b_order)
    verdict = _MERGE_VERDICTS.get(key)
    if verdict is None:
        verdict = remember(
            _MERGE_VERDICTS, key, _calibrate(form, dtype, m, n, k, band_blocks, b_blocks, b_order)
        )
    return verdict


def _calibrate(form: str, dtype: np.dtype, m, n, k, band_blocks, b_blocks, b_order) -> bool:
    if form not in MERGED_FORMS:
        raise ValueError(f"no merged form {form!r}: one of {MERGED_FORMS}")
    if b_order not in ("rows", "columns"):
        raise ValueError(f"no order {b_order!r} of B's matrix: 'rows' or 'columns'")
    rng = np.random.default_rng(0x5EED)
    rows = rng.standard_normal((band_blocks * m, k)).astype(dtype)
    cols = rng.standard_normal((k, b_blocks * n)).astype(dtype)
    if b_order == "columns":
        cols = np.asfortranarray(cols)
    acc = rng.standard_normal((band_blocks * m, b_blocks * n)).astype(dtype)
    uint = _UINT[dtype.itemsize]
    # a NaN row of products meeting NaN accumulators: which payload survives is the order
    rows.view(uint)[rng.integers(rows.shape[0])] = _NAN_PAYLOADS[dtype.itemsize][0]
    acc.view(uint).reshape(-1)[rng.choice(acc.size, min(acc.size, 64), replace=False)] = (
        _NAN_PAYLOADS[dtype.itemsize][1]
    )
    sa = rows.reshape(band_blocks, 1, m, k)
    # the lanes' operands as the per-lane path has them: a grid's tiles copied one after
    # another (_lane_tiles), a plain batch's one tile as it lies (batch_product's fall-back)
    st_k, st_n = cols.strides
    sb = np.lib.stride_tricks.as_strided(cols, (1, b_blocks, k, n), (0, n * st_n, st_k, st_n))
    if b_order == "rows":
        sb = np.ascontiguousarray(sb)
    lanes = np.empty_like(acc)
    np.matmul(sa, sb, out=lanes.reshape(band_blocks, m, b_blocks, n).transpose(0, 2, 1, 3))
    want = np.add(lanes, acc)
    if form == "matmul":
        got = np.add(np.matmul(rows, cols), acc)
    else:
        got = acc.copy()
        if not blas.add_product(rows, cols, got):
            return False
    return bool(np.array_equal(want.view(uint), got.view(uint)))


def batch_product(a: np.ndarray, b: np.ndarray) -> Optional[np.ndarray]:
    """``numpy.matmul(a, b)`` for a plain batch ``a`` of ``(lanes, m, k)`` tiles that are row
    bands of one matrix (a load's view of a buffer, or a fresh array) times one ``k x n``
    tile ``b`` (batch 1, or that tile broadcast), as ONE 2-D GEMM of the ``(lanes * m, k)``
    matrix (flash attention's ``q k^T`` and ``p v``: numpy would make one small GEMM per
    lane), where this BLAS gives the lanes' bits that way (:func:`merge_keeps_bits`; the
    row strides, which BLAS packs away, are not part of the shape class); None where it
    does not apply."""
    if a.ndim != 3 or b.ndim != 3 or a.shape[0] < 2:
        return None
    if b.shape[0] != 1 and (b.shape[0] != a.shape[0] or b.strides[0] != 0):
        return None  # B differs from lane to lane (a broadcast of one tile is one tile)
    if a.dtype != b.dtype or a.dtype not in _FLOATS or a.shape[2] != b.shape[1]:
        return None
    lanes, m, k = a.shape
    n = b.shape[2]
    if a.strides[0] != m * a.strides[1] or 0 in a.shape or 0 in b.shape:
        return None
    b2 = b[0]
    isz = b.dtype.itemsize
    if b2.strides[1] == isz and b2.strides[0] >= n * isz:
        order = "rows"
    elif b2.strides[0] == isz and b2.strides[1] >= k * isz:
        order = "columns"
    else:
        return None
    if not merge_keeps_bits(a.dtype, m, n, k, lanes, 1, "matmul", order):
        return None
    # the lanes' rows as one matrix: a view (the bands lie one after another, checked
    # above, so numpy merges the two leading dims without a copy; as_strided costs more)
    rows = a.reshape(lanes * m, k)
    return np.matmul(rows, b2).reshape(lanes, m, n)


_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}
_NAN_PAYLOADS = {
    2: (0x7E01, 0x7E02),
    4: (0x7FC0_0001, 0x7FC0_0002),
    8: (0x7FF8_0000_0000_0001, 0x7FF8_0000_0000_0002),
}


def lays_out(plan, grid: TileGrid, seg, dtype: np.dtype) -> bool:
    """Whether a store of ``grid``'s tiles by ``plan`` (every lane whole, the fast path)
    writes each tile where ``grid.base`` holds it, into a buffer ``seg`` of exactly
    ``base``'s bytes: then ``base`` is the buffer after the store, every element of it (the
    lanes' tiles cover ``base`` once), and the segment may take it instead of a copy
    (``memory.Segment.adopt``), or copy it whole where it owns its buffer."""
    base = grid.base
    if base is None or base.dtype != dtype or not base.flags.c_contiguous:
        return False
    if seg.count != 1 or base.nbytes != seg.backing.nbytes:
        return False
    view = grid.view
    rows, cols = view.shape[:2]
    if plan.b != rows * cols or tuple(plan.tile) != tuple(view.shape[2:]):
        return False
    isz = dtype.itemsize
    if any(s % isz for s in view.strides):
        return False
    inner = offset_strides(plan.offsets)
    for n, want, have in zip(plan.tile, inner, view.strides[2:]):
        if n > 1 and want != have // isz:
            return False
    start = (view.ctypes.data - base.ctypes.data) // isz
    r = np.arange(rows, dtype=np.int64)[:, None] * (view.strides[0] // isz)
    c = np.arange(cols, dtype=np.int64)[None, :] * (view.strides[1] // isz)
    return bool(np.array_equal(plan.origin, (start + r + c).reshape(-1)))
