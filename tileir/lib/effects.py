"""Helpers with effects, beside the pure functions: call them with ``yield from``.

``matmul_k`` is the K loop of a matrix product over two parameters whose K dimension is a
FREE_AXIS; ``reduce_rows`` folds a row reduction over the FREE_AXIS cells of a row.  ``steps`` (a number of cells) may be a tile, as
``cells_along(x, 1)`` for a DYN_DIM extent.  Each
returns its result tile (the ``yield from`` answers it).

>>> import numpy as np
>>> from tileir import F32, FREE_AXIS, In, Out, cells, store_cell, trace
>>> from tileir.fake import FakeDevice
>>> def mm(a, b, c):
...     acc = yield from matmul_k(a, b, c, steps=2)
...     yield store_cell(c, acc)
>>> k = trace("mm", mm, In(F32, cells([16, 32], [16, 16], along=[0, FREE_AXIS])),
...           In(F32, cells([32, 16], [16, 16], along=[FREE_AXIS, 1])),
...           Out(F32, cells([16, 16], [16, 16])))
>>> a = np.arange(512, dtype=np.float32) / 512; b = np.ones(512, np.float32)
>>> _, _, c = FakeDevice(mode="interpret").run(k, a, b, np.zeros(256, np.float32))
>>> bool(np.allclose(c.reshape(16, 16), a.reshape(16, 32) @ b.reshape(32, 16)))
True
"""

from __future__ import annotations

from typing import Any, Callable, Generator, Optional, Union

from tileir.lib.masked import masked_sum
from tileir.ops import for_range, load_at, mma, zeros
from tileir.record.markers import Param
from tileir.record.tile import Tile, refuse
from tileir.types import Format

__all__ = ["matmul_k", "reduce_rows"]

Helper = Generator[Any, Any, Tile]


def matmul_k(
    a: Param, b: Param, out: Param, steps: Union[int, Tile], acc: Optional[Format] = None
) -> Helper:
    """``sum over k < steps of a[:, k] @ b[k, :]``: one ``load_at`` of each per trip, into a
    zero accumulator of ``out``'s cell in ``acc`` (``out``'s format by default)."""
    if not isinstance(out, Param) or out.cells is None:
        raise refuse("matmul_k", f"out must be a parameter with cells, got {out!r}")
    fmt = acc or out.format

    def trip(k: Tile, total: Tile) -> Helper:
        ta = yield load_at(a, [k])
        tb = yield load_at(b, [k])
        return mma(ta, tb, total)

    result = yield for_range(0, steps, trip, init=zeros(out.cells.tile, fmt))
    return result


def reduce_rows(
    x: Param,
    steps: Union[int, Tile],
    combine: Callable[[Tile, Tile], Tile] = lambda total, t: total + masked_sum(t, -1, True),
    acc: Optional[Format] = None,
) -> Helper:
    """A row reduction over ``steps`` FREE_AXIS cells of ``x`` along its last dimension:
    ``combine(total, cell)`` folds each cell into a ``[rows, 1]`` total (by default, the sum
    of its valid lanes) that starts at zero, in ``acc`` (``x``'s format by default)."""
    if not isinstance(x, Param) or x.cells is None:
        raise refuse("reduce_rows", f"x must be a parameter with cells, got {x!r}")
    fmt = acc or x.format
    rows = x.cells.tile[0] if x.cells.rank == 2 else 1

    def trip(k: Tile, total: Tile) -> Helper:
        t = yield load_at(x, [k])
        if t.format != fmt:
            t = t.to(fmt)
        return combine(total, t)

    result = yield for_range(0, steps, trip, init=zeros([rows, 1], fmt))
    return result
