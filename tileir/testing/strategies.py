"""Hypothesis strategies for kernels: formats, tile shapes, cells, markers and launch inputs.

Everything drawn obeys the dialect's rules (tile dimensions are powers of two,
a tile holds at most 2**24 elements, padding other than ``zero`` only for
float formats), so a kernel that refuses a drawn value has found a case its
author did not mean to refuse.

>>> from hypothesis import given
>>> from tileir import Out, F32
>>> @given(tile_shapes(rank=2, max_elements=1024))
... def powers_of_two(shape):
...     assert len(shape) == 2 and all(d & (d - 1) == 0 for d in shape)
...     assert shape[0] * shape[1] <= 1024
>>> powers_of_two()
>>> @given(cells_for(1, max_cells=3))
... def tail_cells(c):
...     assert 1 <= c.counts[0] <= 3 and c.extent[0] <= c.counts[0] * c.tile[0]
>>> tail_cells()
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence, Union

import numpy as np
from hypothesis import strategies as st

from tileir.record.markers import Cells, In, Marker, Out, Scalar, Shared, cells
from tileir.testing.report import summarize
from tileir.testing.values import ValuesFor, buffers, values_for
from tileir.types import (
    BF16,
    F4E2M1FN,
    F8E4M3FN,
    F8E5M2,
    F8E8M0FNU,
    F16,
    F32,
    F64,
    FNV8E5M3FNU,
    I1,
    I4,
    I8,
    I16,
    I32,
    I64,
    MAX_TILE_ELEMENTS,
    PADDING_VALUES,
    TF32,
    Format,
)

if TYPE_CHECKING:
    from tileir.kernel import Kernel

__all__ = [
    "FLOAT_FORMATS",
    "INT_FORMATS",
    "NARROW_FLOAT_FORMATS",
    "NARROW_INT_FORMATS",
    "formats",
    "float_formats",
    "int_formats",
    "tile_shapes",
    "cells_for",
    "markers_for",
    "inputs_for",
    "buffer_length",
    "Args",
]

#: The float formats drawn by default (most used first: shrinking heads for f32).
FLOAT_FORMATS = (F32, F64, F16, BF16)
#: The float formats drawn only with ``narrow=True``.
NARROW_FLOAT_FORMATS = (TF32, F8E4M3FN, F8E5M2, F8E8M0FNU, F4E2M1FN, FNV8E5M3FNU)
#: The integer formats drawn by default.
INT_FORMATS = (I32, I8, I16, I64)
#: The integer formats drawn only with ``narrow=True``.
NARROW_INT_FORMATS = (I1, I4)


def formats(kind: str = "all", *, narrow: bool = False) -> st.SearchStrategy:
    """Element formats: ``kind`` is ``"all"``, ``"float"`` or ``"int"``; ``narrow`` adds
    tf32, the fp8 / fp4 formats, ``i1`` and ``i4``."""
    floats = FLOAT_FORMATS + (NARROW_FLOAT_FORMATS if narrow else ())
    ints = INT_FORMATS + (NARROW_INT_FORMATS if narrow else ())
    table = {"all": floats + ints, "float": floats, "int": ints}
    if kind not in table:
        raise ValueError(f"formats: kind {kind!r} is not one of all, float, int")
    return st.sampled_from(table[kind])


def float_formats(*, narrow: bool = False) -> st.SearchStrategy:
    """Float formats (f32, f64, f16, bf16; ``narrow`` adds tf32 and the fp8 / fp4 ones)."""
    return formats("float", narrow=narrow)


def int_formats(*, narrow: bool = False) -> st.SearchStrategy:
    """Integer formats (i32, i8, i16, i64; ``narrow`` adds i1 and i4)."""
    return formats("int", narrow=narrow)


def _rank_range(rank) -> tuple[int, int]:
    if rank is None:
        return 1, 2
    if isinstance(rank, int):
        return rank, rank
    lo, hi = rank
    return int(lo), int(hi)


@st.composite
def tile_shapes(
    draw: st.DrawFn,
    rank: Union[None, int, tuple] = None,
    *,
    max_elements: int = MAX_TILE_ELEMENTS,
    max_dim: Optional[int] = None,
) -> tuple[int, ...]:
    """A tile shape: ``rank`` dimensions (an int, a ``(lo, hi)`` range, default 1 to 2),
    each a power of two no larger than ``max_dim``, holding at most ``max_elements``
    (the dialect's limit, 2**24, by default).  Shrinks toward 1s."""
    lo, hi = _rank_range(rank)
    if lo < 0 or hi < lo:
        raise ValueError(f"tile_shapes: rank {rank!r} is not a rank or a (lo, hi) range")
    max_elements = min(int(max_elements), MAX_TILE_ELEMENTS)
    budget = max(0, max_elements.bit_length() - 1)  # log2 of the element budget
    cap = budget if max_dim is None else min(budget, max(0, int(max_dim).bit_length() - 1))
    n = draw(st.integers(lo, hi), label="rank")
    shape: list[int] = []
    for _ in range(n):
        e = draw(st.integers(0, min(cap, budget)))
        budget -= e
        shape.append(1 << e)
    return tuple(shape)


@st.composite
def cells_for(
    draw: st.DrawFn,
    rank: int,
    *,
    tile: Optional[st.SearchStrategy] = None,
    max_cells: int = 4,
    pads: Union[bool, Sequence[str]] = False,
    along: Optional[Sequence] = None,
) -> Cells:
    """Cells of ``rank`` dimensions: a drawn tile (``tile`` strategy, default
    :func:`tile_shapes` of up to 4096 elements), 1 to ``max_cells`` cells per
    dimension, and an extent that usually stops inside the last cell (so lanes
    past the extent are padded on loads and left alone by stores).  ``pads``:
    ``False`` for ``zero``, ``True`` for any padding value, or the values to draw
    from.  ``along`` is passed through (default: dimension d follows grid axis d)."""
    shape = draw(tile if tile is not None else tile_shapes(rank, max_elements=4096))
    if len(shape) != rank:
        raise ValueError(f"cells_for: the tile strategy drew {shape} for rank {rank}")
    extent = []
    for t in shape:
        count = draw(st.integers(1, max(1, int(max_cells))))
        extent.append(draw(st.integers((count - 1) * t + 1, count * t)))
    pad_choices = ("zero",) if pads is False else PADDING_VALUES if pads is True else tuple(pads)
    pad = draw(st.sampled_from(pad_choices))
    return cells(extent, shape, along, pad)


_ROLES = {"In": In, "Out": Out, "Scalar": Scalar, "Shared": Shared}


@st.composite
def markers_for(
    draw: st.DrawFn,
    roles: Union[str, Sequence[str]],
    rank: int = 1,
    *,
    format_choices: Optional[st.SearchStrategy] = None,
    grid_cells: Optional[st.SearchStrategy] = None,
    pads: Union[bool, Sequence[str]] = False,
) -> tuple[Marker, ...]:
    """Markers for a kernel with parameters of ``roles`` (``"In, In, Out"`` or a
    sequence), sharing one drawn set of cells of ``rank`` (``grid_cells``, default
    :func:`cells_for`).  Each parameter draws its format from ``format_choices`` (default
    f32 / f64 / f16 / bf16 / i32 ...); each In draws its own padding from ``pads``
    (non-zero padding only for float formats, as the dialect allows)."""
    names = [r.strip() for r in roles.split(",")] if isinstance(roles, str) else list(roles)
    for r in names:
        if r not in _ROLES:
            raise ValueError(f"markers_for: role {r!r} is not one of {', '.join(_ROLES)}")
    fmts = formats() if format_choices is None else format_choices
    shared = draw(grid_cells if grid_cells is not None else cells_for(rank))
    out: list[Marker] = []
    for r in names:
        fmt = draw(fmts)
        if r in ("Scalar", "Shared"):
            out.append(_ROLES[r](fmt))
            continue
        c = shared
        if r == "In" and fmt.is_float and pads is not False:
            pad = draw(st.sampled_from(PADDING_VALUES if pads is True else tuple(pads)))
            c = cells(shared.extent, shared.tile, shared.along, pad)
        elif shared.pad != "zero" and not fmt.is_float:
            c = cells(shared.extent, shared.tile, shared.along, "zero")
        out.append(_ROLES[r](fmt, c))
    return tuple(out)


def buffer_length(marker: Marker, index: int, lengths: Optional[Mapping[int, int]] = None) -> int:
    """How many elements the buffer of a parameter needs: its cells' whole extent, or
    ``lengths[index]`` (required for Shared buffers and DYN_DIM extents)."""
    if lengths and index in lengths:
        return int(lengths[index])
    c = marker.cells
    extent = [] if c is None else [e for e in c.extent if isinstance(e, int)]
    if c is None or len(extent) != len(c.extent):  # (no cells, or a DYN_DIM extent)
        raise ValueError(
            f"parameter {index} ({type(marker).__name__}) has no static extent; "
            f"give its buffer length: lengths={{{index}: n}}"
        )
    return int(np.prod(extent))


class Args(list):
    """A launch's arguments (numpy arrays and numbers) whose repr summarises long arrays, so
    Hypothesis's falsifying examples stay readable."""

    def __repr__(self) -> str:

        return "[" + ", ".join(summarize(a) for a in self) + "]"


@st.composite
def inputs_for(
    draw: st.DrawFn,
    kernel: Kernel,
    *,
    values: Optional[ValuesFor] = None,
    lengths: Optional[Mapping[int, int]] = None,
) -> Args:
    """Arguments for a launch of a recorded ``kernel``: one drawn buffer per In / Out /
    Shared parameter (Outs too: lanes a kernel does not write keep what was there) and one
    drawn number per Scalar.  ``values`` picks a strategy per format (default:
    :func:`~tileir.testing.values.values_for`, finite floats within 1000 and integers in
    full range); ``lengths`` gives the buffer lengths cells do not fix."""
    pick = values if values is not None else values_for()
    args = Args()
    for p in kernel.params:
        fmt = p.format
        if p.role == "Scalar":
            v = draw(pick(fmt), label=f"argument {p.index}")
            args.append(_scalar(v, fmt))
            continue
        n = buffer_length(p.marker, p.index, lengths)
        args.append(draw(buffers(fmt, n, values=pick(fmt)), label=f"argument {p.index}"))
    return args


def _scalar(v: Any, fmt: Format) -> Union[bool, int, np.generic]:
    if fmt.is_int:
        return bool(v) if fmt.bits == 1 else int(v)
    # (numpy's stubs type ``a[()]`` of a 0-d array as an array; it is the scalar)
    return np.asarray(v, dtype=np.float64).astype(fmt.numpy_dtype)[()]  # type: ignore[return-value]
