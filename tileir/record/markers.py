"""Parameter markers: what a kernel does with each argument, and where its cells are.

``In`` is read, ``Out`` is written through its cells, ``Shared`` is addressed by
the kernel itself through the pointer path, and ``Scalar`` is one value.  The
cells of the ``Out`` parameters are the launch grid: block ``(i, j)`` reads and
writes cell ``(i, j)``.

>>> from tileir.types import F64
>>> g = cells([1000], [128])
>>> g.counts
(8,)
>>> In(F64, g)
In(f64, cells([1000], [128]))
>>> In(F64, g, ptr_attr="none").ptr_attr    # 13.4's pointer attribute on its buffer
'none'
>>> cells([256, 256], [64, 32], along=[0, FREE_AXIS]).along
(0, FREE_AXIS)
"""

from __future__ import annotations

from typing import Any, ClassVar, Optional, Sequence, Union

import attrs

from tileir.errors import UsageError
from tileir.ir.drafts import Referable, draft_of
from tileir.ir.memo import memo_table, remember
from tileir.types import (
    DYN_DIM,
    FREE_AXIS,
    PADDING_VALUES,
    PTR_ATTRS,
    Format,
    PointerType,
    _Sentinel,
    canonical_pointer_type,
)

__all__ = [
    "FREE_AXIS",
    "DYN_DIM",
    "Cells",
    "cells",
    "Marker",
    "In",
    "Out",
    "Shared",
    "Scalar",
    "Param",
    "make_param",
    "retile",
]


#: An ``extent`` entry: a length, or ``DYN_DIM``.
_Extent = Union[int, _Sentinel]
#: An ``along`` entry: a grid axis (0, 1 or 2), or ``FREE_AXIS``.
_Axis = Union[int, _Sentinel]


def _check_cells(cells_: "Cells") -> None:
    if len(cells_.tile) != len(cells_.extent) or len(cells_.along) != len(cells_.extent):
        raise UsageError(
            f"extent {_show(cells_.extent)}, tile {_show(cells_.tile)} and along "
            f"{_show(cells_.along)} must have one entry per dimension",
            op="cells",
        )
    if not cells_.extent:
        raise UsageError("a cell needs at least one dimension", op="cells")
    for d, t in enumerate(cells_.tile):
        if t <= 0 or t & (t - 1):
            raise UsageError(
                f"tile {_show(cells_.tile)} has {t} in dimension {d}; "
                f"Tile IR tiles are powers of two",
                op="cells",
            )
    for d, e in enumerate(cells_.extent):
        if e is not DYN_DIM and (not isinstance(e, int) or e <= 0):
            raise UsageError(
                f"extent {_show(cells_.extent)} has {e!r} in dimension {d}; "
                f"an extent is a positive int or DYN_DIM",
                op="cells",
            )
    seen: set[_Axis] = set()
    for d, a in enumerate(cells_.along):
        if a is FREE_AXIS:
            continue
        if a not in (0, 1, 2):
            raise UsageError(
                f"along {_show(cells_.along)} has {a!r} in dimension {d}; "
                f"a grid axis is 0, 1 or 2 (or FREE_AXIS)",
                op="cells",
            )
        if a in seen:
            raise UsageError(f"along {_show(cells_.along)} names grid axis {a} twice", op="cells")
        seen.add(a)
    if cells_.pad not in PADDING_VALUES:
        raise UsageError(
            f"pad={cells_.pad!r}; the dialect's padding values are {', '.join(PADDING_VALUES)}",
            op="cells",
        )


def _show(seq: Sequence[object]) -> str:
    return "[" + ", ".join(repr(x) for x in seq) + "]"


# (hash cached: the lowering keys every view of a parameter by its cells, again and again)
@attrs.frozen(repr=False, cache_hash=True)
class Cells:
    """A buffer of ``extent`` elements cut into cells of ``tile``.

    ``along[d]`` is the grid axis dimension ``d`` follows (``FREE_AXIS``: none,
    the kernel picks the cell along it).  ``pad`` is what lanes past the
    extent read: one of ``zero``, ``neg_zero``, ``nan``, ``pos_inf``, ``neg_inf``.
    """

    extent: tuple[_Extent, ...]
    tile: tuple[int, ...]
    along: tuple[_Axis, ...]
    pad: str = "zero"
    #: cells per dimension (``None`` where the extent is ``DYN_DIM``): made once, with the
    #: cells (a fact of the fields above, outside equality), since every recording asks
    counts: tuple[Optional[int], ...] = attrs.field(init=False, eq=False)
    #: the dimensions with lanes past the extent: those whose extent is not a whole number of
    #: tiles, or is DYN_DIM (made once too)
    ragged: tuple[int, ...] = attrs.field(init=False, eq=False)

    def __attrs_post_init__(self) -> None:
        _check_cells(self)
        counts: list[Optional[int]] = []
        ragged: list[int] = []
        for d, (e, t) in enumerate(zip(self.extent, self.tile)):
            if isinstance(e, int):  # else DYN_DIM (checked just now)
                counts.append(-(-e // t))
                if e % t:
                    ragged.append(d)
            else:
                counts.append(None)
                ragged.append(d)
        _set_counts(self, tuple(counts))
        _set_ragged(self, tuple(ragged))

    @property
    def rank(self) -> int:
        return len(self.extent)

    @property
    def dynamic(self) -> bool:
        return any(e is DYN_DIM for e in self.extent)

    @property
    def strides(self) -> tuple[Optional[int], ...]:
        """Row-major element strides (``None`` where a later extent is dynamic)."""
        out: list[Optional[int]] = []
        acc: Optional[int] = 1
        for e in reversed(self.extent):
            out.append(acc)
            acc = None if (acc is None or not isinstance(e, int)) else acc * e
        return tuple(reversed(out))

    def __repr__(self) -> str:
        extra = ""
        if self.along != tuple(range(self.rank)):
            extra += f", along={_show(self.along)}"
        if self.pad != "zero":
            extra += f", pad={self.pad!r}"
        return f"cells({_show(self.extent)}, {_show(self.tile)}{extra})"


# the derived slots, set directly (a frozen class refuses plain assignment; the slot's own
# descriptor does not ask)
_set_counts = Cells.counts.__set__  # type: ignore[attr-defined]
_set_ragged = Cells.ragged.__set__  # type: ignore[attr-defined]


def cells(
    extent: Sequence[_Extent],
    tile: Sequence[int],
    along: Optional[Sequence[_Axis]] = None,
    pad: str = "zero",
) -> Cells:
    """Cut a buffer of ``extent`` elements into cells of ``tile``.

    ``along`` defaults to dimension ``d`` following grid axis ``d``.
    """
    # a kernel's markers are made again at each recording, with the same plain numbers: the
    # Cells of those is one shared object (made and checked once; every memo downstream that
    # keys by identity then finds it)
    key = _cells_key(extent, tile, along, pad)
    if key is not None:
        found = _CELLS.get(key)
        if found is not None:
            return found
        return remember(_CELLS, key, _new_cells(extent, tile, along, pad), 1024)
    return _new_cells(extent, tile, along, pad)


def _cells_key(
    extent: Sequence[_Extent], tile: Sequence[int], along: Optional[Sequence[_Axis]], pad: str
) -> Optional[tuple]:
    """The memo key of a cells() call whose every entry is an exact int or a sentinel (so
    that equal keys are the same call: 1, 1.0 and True hash alike), else None."""
    if type(pad) is not str or type(extent) not in _SEQUENCES or type(tile) not in _SEQUENCES:
        return None
    if along is not None and type(along) not in _SEQUENCES:
        return None
    for x in extent:
        if type(x) is not int and x is not DYN_DIM:
            return None
    for x in tile:
        if type(x) is not int:
            return None
    if along is not None:
        for x in along:
            if type(x) is not int and x is not FREE_AXIS:
                return None
        return (tuple(extent), tuple(tile), tuple(along), pad)
    return (tuple(extent), tuple(tile), None, pad)


_SEQUENCES = (list, tuple)
# (extent, tile, along, pad) of plain entries -> the Cells cells() made of them: a memo of a
# pure function of immutable values
_CELLS: dict[tuple, "Cells"] = memo_table("record.markers: cells")


def _new_cells(
    extent: Sequence[_Extent],
    tile: Sequence[int],
    along: Optional[Sequence[_Axis]],
    pad: str,
) -> Cells:
    for what, value in (("extent", extent), ("tile", tile), ("along", along)):
        if what == "along" and value is None:
            continue
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise UsageError(
                f"{what} is a list with one entry per dimension, got {value!r} "
                f"(for example cells([1000], [128]))",
                op="cells",
            )
    extent_t = tuple(extent)
    along_t = tuple(range(len(extent_t))) if along is None else tuple(along)
    for t in tile:
        if isinstance(t, bool) or not hasattr(t, "__index__"):
            raise UsageError(f"tile {list(tile)} must hold whole numbers", op="cells")
    return Cells(extent_t, tuple(map(int, tile)), along_t, pad)


@attrs.frozen(repr=False)
class Marker:
    """Base of the parameter markers.

    ``ptr_attr`` (buffers only, keyword) gives the buffer's pointer 13.4's pointer attribute:
    ``In(F32, cells([256], [128]), ptr_attr="none")`` makes the parameter a
    ``tile<ptr<f32, <none>>>`` and its tensor views carry ``#cuda_tile.ptr_attr<none>``; the
    kernel then needs bytecode 13.4.
    """

    format: Format
    ptr_attr: Optional[str] = attrs.field(default=None, kw_only=True)

    role: ClassVar[str] = "?"

    def __attrs_post_init__(self) -> None:
        _validate_marker(self)

    @property
    def cells(self) -> Optional[Cells]:
        return None

    def __repr__(self) -> str:
        c = self.cells
        attr = f", ptr_attr={self.ptr_attr!r}" if self.ptr_attr is not None else ""
        return (
            f"{type(self).__name__}({self.format}{', ' + repr(c) if c is not None else ''}{attr})"
        )


# The markers write their own constructors (init=False): every recording makes its markers
# again, and attrs' constructor of a frozen class sets each field through a bound
# object.__setattr__ that looks the field up in the class; these set the slots through their
# descriptors (the same fields, defaults and checks: tests/record check them against attrs')


@attrs.frozen(repr=False, init=False)
class In(Marker):
    """A read-only buffer in ``format``, cut into ``cells``."""

    cells: Cells = attrs.field(default=None)
    role = "In"

    def __init__(
        self, format: Format, cells: Optional[Cells] = None, *, ptr_attr: Optional[str] = None
    ) -> None:
        _SET_FORMAT(self, format)
        _SET_PTR_ATTR(self, ptr_attr)
        _SET_IN_CELLS(self, cells)
        _validate_marker(self)


@attrs.frozen(repr=False, init=False)
class Out(Marker):
    """A buffer written through its cells (``store_cell``, ``store_sub``); its cells are the grid.

    ``trace`` refuses a body that never writes an Out (a forgotten ``yield`` drops a store);
    ``unwritten_ok=True`` says the Out may stay unwritten (a kernel that writes it only in
    some configurations).
    """

    cells: Cells = attrs.field(default=None)
    unwritten_ok: bool = attrs.field(default=False, kw_only=True)
    role = "Out"

    def __init__(
        self,
        format: Format,
        cells: Optional[Cells] = None,
        *,
        ptr_attr: Optional[str] = None,
        unwritten_ok: bool = False,
    ) -> None:
        _SET_FORMAT(self, format)
        _SET_PTR_ATTR(self, ptr_attr)
        _SET_OUT_CELLS(self, cells)
        _SET_UNWRITTEN_OK(self, unwritten_ok)
        _validate_marker(self)

    def __repr__(self) -> str:
        text = Marker.__repr__(self)
        return text[:-1] + ", unwritten_ok=True)" if self.unwritten_ok else text


@attrs.frozen(repr=False, init=False)
class Shared(Marker):
    """A buffer the kernel addresses itself, through the pointer path (``store``, ``load``,
    atomics).  Also an escape hatch: a kernel writing anywhere else declares it Shared.

    ``cells`` (optional) give it an extent and a view: then it can also be read through its
    cells (``load_cell``, ``load_window``, ``gather``), written with ``scatter`` and combined
    into with ``atomic_cell``; the launch checks its buffer against the extent."""

    cells: Optional[Cells] = attrs.field(default=None)
    role = "Shared"

    def __init__(
        self, format: Format, cells: Optional[Cells] = None, *, ptr_attr: Optional[str] = None
    ) -> None:
        _SET_FORMAT(self, format)
        _SET_PTR_ATTR(self, ptr_attr)
        _SET_SHARED_CELLS(self, cells)
        _validate_marker(self)


@attrs.frozen(repr=False, init=False)
class Scalar(Marker):
    """One value of ``format`` (a rank-0 ``tile<T>`` entry parameter), read with ``scalar(p)``."""

    role = "Scalar"

    def __init__(self, format: Format, *, ptr_attr: Optional[str] = None) -> None:
        _SET_FORMAT(self, format)
        _SET_PTR_ATTR(self, ptr_attr)
        _validate_marker(self)


# (the slots' descriptors the markers' constructors set)
_SET_FORMAT = Marker.__dict__["format"].__set__
_SET_PTR_ATTR = Marker.__dict__["ptr_attr"].__set__
_SET_IN_CELLS = In.__dict__["cells"].__set__
_SET_OUT_CELLS = Out.__dict__["cells"].__set__
_SET_UNWRITTEN_OK = Out.__dict__["unwritten_ok"].__set__
_SET_SHARED_CELLS = Shared.__dict__["cells"].__set__


def _validate_marker(marker: Marker) -> None:
    cls = type(marker)
    # the usual marker (every recording makes its markers again): a Format, no pointer
    # attribute, and its Cells where it needs them; the checks below would find nothing
    if (
        marker.ptr_attr is None
        and type(marker.format) is Format
        and ((cls is In or cls is Out) and type(marker.cells) is Cells or cls is Scalar)
    ):
        return
    if not isinstance(marker.format, Format):
        raise UsageError(
            f"{type(marker).__name__}: format must be a tileir Format such as F32, "
            f"got {marker.format!r}",
            op=type(marker).__name__,
        )
    if isinstance(marker, (In, Out)) and not isinstance(marker.cells, Cells):
        raise UsageError(
            f"{type(marker).__name__}({marker.format}, ...) needs cells(extent, tile)",
            op=type(marker).__name__,
        )
    if marker.ptr_attr is not None:
        if isinstance(marker, Scalar):
            raise UsageError(
                f"Scalar({marker.format}): a value has no pointer, so no ptr_attr "
                f"(got {marker.ptr_attr!r})",
                op=type(marker).__name__,
            )
        if marker.ptr_attr not in PTR_ATTRS:
            raise UsageError(
                f"{type(marker).__name__}({marker.format}, ...): ptr_attr must be "
                f"one of {PTR_ATTRS} (none: 13.4; unicast, multicast: 13.5), got "
                f"{marker.ptr_attr!r}",
                op=type(marker).__name__,
            )
    if (
        isinstance(marker, Shared)
        and marker.cells is not None
        and not isinstance(marker.cells, Cells)
    ):
        raise UsageError(
            f"Shared({marker.format}, ...): cells must come from cells(extent, tile), "
            f"got {marker.cells!r}",
            op=type(marker).__name__,
        )


@attrs.frozen(repr=False)
class Param(Referable):
    """The handle a kernel body gets for one parameter (its index and its marker).

    ``view`` is the cells this handle reads or writes through: the marker's,
    or another one given by :func:`retile`.
    """

    index: int
    marker: Marker
    view: Optional[Cells] = None
    #: a Scalar's value fixed when the kernel is recorded (``tileir.compose.specialize``):
    #: ``scalar(p)`` is then that constant, and the entry has no parameter for it
    value: Optional[Union[int, float, bool]] = attrs.field(default=None, kw_only=True)
    # facts of the fields above, read by every op of a recording: made once, with the handle
    # (outside equality and init)
    #: the cells this handle reads or writes through (``view``, else the marker's)
    cells: Optional[Cells] = attrs.field(init=False, eq=False)
    #: the marker's element format
    format: Format = attrs.field(init=False, eq=False)
    #: the marker's role: ``In``, ``Out``, ``Shared`` or ``Scalar``
    role: str = attrs.field(init=False, eq=False)

    def __attrs_post_init__(self) -> None:
        marker = self.marker
        view = self.view
        _set_param_cells(self, view if view is not None else marker.cells)
        _set_param_format(self, marker.format)
        _set_param_role(self, marker.role)

    @property
    def pointer(self) -> PointerType:
        """The element type of this buffer's address: ``ptr<format>`` with the marker's
        ptr_attr."""
        return canonical_pointer_type(self.marker.format, self.marker.ptr_attr)

    def describe(self) -> str:
        return f"parameter {self.index} ({self.role})"

    def __repr__(self) -> str:
        return f"Param({self.index}, {self.marker!r})"


_set_param_cells = Param.cells.__set__  # type: ignore[union-attr]
_set_param_format = Param.format.__set__  # type: ignore[attr-defined]
_set_param_role = Param.role.__set__  # type: ignore[attr-defined]
# a Param while make_param fills it (see tileir.ir.drafts)
_ParamDraft = draft_of(Param)


def make_param(index: int, marker: Marker) -> Param:
    """``Param(index, marker)``, made directly: the handle every recording makes for each
    of its markers (the constructor's object, field for field, its derived facts included)."""
    p: Any = _ParamDraft()
    p.index = index
    p.marker = marker
    p.view = None
    p.value = None
    p.cells = marker.cells
    p.format = marker.format
    p.role = marker.role
    p.__class__ = Param
    return p


def retile(
    param: Param,
    extent: Sequence[_Extent],
    tile: Sequence[int],
    along: Optional[Sequence[_Axis]] = None,
    pad: Optional[str] = None,
) -> Param:
    """A second view of ``param`` in other cells (to read an ``In`` in two shapes)."""
    if not isinstance(param, Param):
        raise UsageError(f"retile takes a kernel parameter, got {param!r}", op="retile")
    view = cells(extent, tile, along, pad or (param.cells.pad if param.cells else "zero"))
    return Param(param.index, param.marker, view)
