"""Kernel combinators: whole kernels built from pure tile functions.

``elementwise(name, fn, *markers)`` reads one cell of each In (a Scalar gives its value),
calls ``fn`` with those tiles and stores what it returns, one tile per Out (a tuple for
several).  ``rowwise(name, fn, *markers)`` is the same over cells that each hold whole rows
(the last dimension in one cell): ``fn`` maps the rows of a cell to rows, or to one value per
row stored in an Out of one column (``[rows, 1]`` or ``[rows]``).  Both return an ordinary
:class:`~tileir.kernel.Kernel`, which the transforms take like any other.

>>> import numpy as np
>>> from tileir import F32, In, Out, cells
>>> from tileir.fake import FakeDevice
>>> from tileir.lib import softmax
>>> g = cells([6, 100], [2, 128])
>>> k = rowwise("row_softmax", softmax, In(F32, g), Out(F32, g))
>>> xs = np.random.default_rng(0).normal(size=600).astype(np.float32)
>>> _, out = FakeDevice(mode="interpret").run(k, xs, np.zeros(600, np.float32))
>>> x = xs.reshape(6, 100); e = np.exp(x - x.max(1, keepdims=True))
>>> bool(np.allclose(out.reshape(6, 100), e / e.sum(1, keepdims=True), rtol=1e-5))
True
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from tileir.compose.bodies import Body, param_names
from tileir.errors import RecordingError
from tileir.kernel import Kernel, trace
from tileir.ops import load_cell, scalar, store_cell
from tileir.record.markers import In, Marker, Out, Scalar
from tileir.record.tile import Tile

__all__ = ["elementwise", "rowwise"]


def _split(name: str, markers: Sequence[Marker], op: str) -> tuple[int, int]:
    """How many inputs (Ins and Scalars, first) and Outs (after them) ``markers`` are."""
    n_in = 0
    while n_in < len(markers) and isinstance(markers[n_in], (In, Scalar)):
        n_in += 1
    outs = markers[n_in:]
    if not outs or not all(isinstance(m, Out) for m in outs):
        raise RecordingError(
            f"{op} takes the Ins (and Scalars) first, then one or more Outs; got "
            f"{', '.join(repr(m) for m in markers) or 'no markers'}",
            kernel=name,
            op=op,
        )
    return n_in, len(outs)


def _results(name: str, fn: Callable[..., Any], value: Any, n_out: int, op: str) -> tuple:
    results = value if isinstance(value, tuple) else (value,)
    if len(results) != n_out:
        raise RecordingError(
            f"{op}: `{getattr(fn, '__name__', fn)}` returned {len(results)} value(s) for "
            f"{n_out} Out(s); it returns one tile per Out (a tuple for several)",
            kernel=name,
            op=op,
        )
    return results


def _fit(value: Any, cell: tuple[int, ...]) -> Any:
    """A row result shaped as the Out's cell: ``[rows]`` and ``[rows, 1]`` are the same
    values, so one reshapes to the other."""
    if isinstance(value, Tile) and value.shape != cell and value.type.size == _size(cell):
        return value.reshape(cell)
    return value


def _size(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _make(
    name: str, fn: Callable[..., Any], markers: tuple[Marker, ...], op: str, rows: bool
) -> Kernel:
    if not callable(fn):
        raise RecordingError(f"{op} takes a function of tiles, got {fn!r}", kernel=name, op=op)
    n_in, n_out = _split(name, markers, op)
    if rows:
        _check_whole_rows(name, markers[:n_in], op)
    in_names = param_names(fn, n_in, name)
    out_names = ("out",) if n_out == 1 else tuple(f"out{i}" for i in range(n_out))

    def run(*params: Any) -> Any:
        tiles = []
        for p in params[:n_in]:
            if p.role == "Scalar":
                tiles.append(scalar(p))
            else:
                t = yield load_cell(p)
                tiles.append(t)
        results = _results(name, fn, fn(*tiles), n_out, op)
        for p, value in zip(params[n_in:], results):
            value = _fit(value, p.cells.tile) if rows else value
            yield store_cell(p, value)

    code = getattr(fn, "__code__", run.__code__)
    body = Body(run, in_names + out_names, code, getattr(fn, "__name__", op), (op, fn))
    return trace(name, body, *markers)


def _check_whole_rows(name: str, ins: Sequence[Marker], op: str) -> None:
    for m in ins:
        c = m.cells
        if c is None:
            continue
        ext, tile = c.extent[-1], c.tile[-1]
        if not isinstance(ext, int) or tile < ext:
            raise RecordingError(
                f"{op} needs every row in one cell: {m!r} cuts rows of {ext!r} into cells of "
                f"{tile} (give the last dimension a tile of at least {ext})",
                kernel=name,
                op=op,
            )


def elementwise(name: str, fn: Callable[..., Any], *markers: Marker) -> Kernel:
    """A kernel that stores ``fn(*cells)``: ``fn`` takes one tile per In (a Scalar's value
    for a Scalar) and returns one tile per Out.

    >>> import numpy as np
    >>> from tileir import F32, In, Out, cells
    >>> from tileir.fake import FakeDevice
    >>> g = cells([1000], [256])
    >>> k = elementwise("axpy", lambda x, y: 2.0 * x + y, In(F32, g), In(F32, g), Out(F32, g))
    >>> xs = np.arange(1000, dtype=np.float32)
    >>> float(FakeDevice(mode="interpret").run(k, xs, xs, np.zeros(1000, np.float32))[2][-1])
    2997.0
    """
    return _make(name, fn, tuple(markers), "elementwise", rows=False)


def rowwise(name: str, fn: Callable[..., Any], *markers: Marker) -> Kernel:
    """A kernel that stores ``fn(*cells)`` where every cell holds whole rows: ``fn`` maps
    each cell's rows to rows, or to one value per row (an Out of cells ``[rows, 1]`` or
    ``[rows]``).  Reductions from :mod:`tileir.lib` leave out the lanes past a ragged row."""
    return _make(name, fn, tuple(markers), "rowwise", rows=True)
