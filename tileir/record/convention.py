"""The calling convention of a recorded entry, defined once.

Every stage that needs it reads it from here: the lowering (the entry's
parameter types), both devices (the order in which a launch hands over its
values), the cubin parameter check of the real device, and the docs
(docs/launch.md quotes :data:`SUMMARY`, and a test keeps the two equal).

>>> from tileir import In, Out, Scalar, DYN_DIM, cells, F32, I32
>>> params = [p for p in trace_params(In(F32, cells([DYN_DIM], [64])), Scalar(I32),
...                                   Out(F32, cells([DYN_DIM], [64])))]
>>> [str(t) for t in entry_param_types(params)]
['tile<ptr<f32>>', 'tile<i32>', 'tile<ptr<f32>>', 'tile<i32>', 'tile<i32>']
>>> dyn_extents(params)
((0, 0), (2, 0))
>>> entry_arguments(["a", 7, "out"], [1000, 1000])
['a', 7, 'out', 1000, 1000]

A checked kernel whose pointer path reaches parameters 0 and 2 (``guarded``) takes
their element counts last, as ``tile<i64>``:

>>> [str(t) for t in entry_param_types(params, guarded=(0, 2))][-2:]
['tile<i64>', 'tile<i64>']
>>> entry_arguments(["a", 7, "out"], [1000, 1000], counts=[1000, 1024])
['a', 7, 'out', 1000, 1000, 1000, 1024]
"""

from __future__ import annotations

from typing import Any, Sequence

from tileir.record.markers import DYN_DIM, Marker, Param, make_param
from tileir.types import I32, I64, TileType, canonical_tile_type

__all__ = ["SUMMARY", "dyn_extents", "entry_param_types", "entry_arguments", "trace_params"]

#: The convention in one paragraph (README.md and docs/launch.md quote it word for word).
SUMMARY = (
    "One `tile<ptr<T>>` per `In` / `Out` / `Shared` parameter and one rank-0 `tile<T>` "
    "per `Scalar`, in the markers' order, then one `tile<i32>` for each `DYN_DIM` extent "
    "(parameter by parameter, dimension by dimension), then, in a checked kernel, one "
    "`tile<i64>` element count for each buffer its pointer path reaches (in parameter "
    "order; the launch fills it from the allocation). Shapes and strides the markers "
    "fix are constants in the module. Both devices pack exactly this."
)


def trace_params(*markers: Marker) -> tuple[Param, ...]:
    """The parameters ``trace`` makes of ``markers`` (one :class:`Param` each, numbered)."""
    # map, not a comprehension: every recording asks, and a comprehension is a call of its own
    return tuple(map(make_param, range(len(markers)), markers))


def dyn_extents(params: Sequence[Param]) -> tuple[tuple[int, int], ...]:
    """``(parameter index, dimension)`` of every DYN_DIM extent, in entry-parameter order:
    the extra ``tile<i32>`` parameters that follow the markers' own."""
    out: list[tuple[int, int]] = []
    for p in params:
        if p.cells is not None:
            out.extend((p.index, d) for d, e in enumerate(p.cells.extent) if e is DYN_DIM)
    return tuple(out)


def entry_param_types(
    params: Sequence[Param], guarded: Sequence[int] = ()
) -> tuple[TileType, ...]:
    """The entry's parameter types: a pointer tile per buffer, a rank-0 tile per Scalar,
    then an i32 tile per DYN_DIM extent, then an i64 tile per ``guarded`` buffer (the
    parameters a checked kernel's pointer path reaches: :func:`tileir.Kernel.guarded`)."""
    # (shared type objects: the encoder finds a type it met before by identity)
    types = [
        canonical_tile_type((), p.format if p.role == "Scalar" else p.pointer) for p in params
    ]
    types.extend(canonical_tile_type((), I32) for _ in dyn_extents(params))
    types.extend(canonical_tile_type((), I64) for _ in guarded)
    return tuple(types)


def entry_arguments(
    values: Sequence[Any], extents: Sequence[int], counts: Sequence[int] = ()
) -> list[Any]:
    """The entry's arguments in convention order: the parameters' values (buffers as the
    device represents them, Scalars as numbers), then the DYN_DIM extents' values in
    :func:`dyn_extents` order, then the guarded buffers' element counts."""
    return list(values) + list(extents) + list(counts)
