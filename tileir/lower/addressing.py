"""How the lowering addresses memory: tensor views, the views that cut them, pointers.

A mixin of :class:`tileir.lower.lowering._Lowering` (it uses that class's
``emit`` / ``value`` / ``lookup`` / ``bind``).  Each parameter with cells is read
through ``assume div_by<16>`` (the pointer's alignment promise), a
``make_tensor_view`` of the whole buffer (row-major, DYN_DIM extents from the
entry's extra parameters) and a view of it: ``make_partition_view`` (cells),
``make_strided_view`` (windows) or ``make_gather_scatter_view`` (gathers).
Views are made in the block that uses them (before bytecode 13.3 a view must
sit in the block of its users) and shared within it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, TypeVar, Union

from tileir.errors import LoweringError
from tileir.ir.memo import memo_table, remember
from tileir.ir.module import EMPTY_ATTRS, DivBy, Loc, Value, clean_attrs, freeze_attrs
from tileir.ir.numerics import dense_of
from tileir.record.markers import Cells, Param
from tileir.record.program import Base, Sparse, View, Window
from tileir.record.tile import Tile
from tileir.types import (
    I32,
    GatherScatterViewType,
    PartitionViewType,
    StridedViewType,
    TensorViewType,
    TileType,
    canonical_tile_type,
)

if TYPE_CHECKING:
    from tileir.lower.walk import Walk
else:
    Walk = object

__all__ = ["Addressing"]


#: the attributes of the alignment promise on a parameter's pointer (one shared constant map,
#: as ``assume`` keeps it: the predicate has no default)
_ALIGNED = clean_attrs("assume", freeze_attrs({"predicate": DivBy(16)}))
#: the segments of a make_tensor_view of static sizes and strides (the base, no values)
_NO_DYNAMIC_SIZES = (1, 0, 0)


# (view type class, its fields) -> the type: a memo of the view types' constructors (pure
# functions of immutable values), since a kernel's accesses make the same few types again
_VIEW_TYPES: dict[tuple, Any] = memo_table("lower.addressing: view types")


_T = TypeVar("_T")


def _view_type(cls: type[_T], *fields: object) -> _T:
    key = (cls, *fields)
    found = _VIEW_TYPES.get(key)
    if found is None:
        found = remember(_VIEW_TYPES, key, cls(*fields))
    return found


# (element format, extent, pointer attribute) -> the static tensor view type, or None when an
# extent is DYN_DIM: a memo of _static_tensor_view_type (a pure function of those values; a
# kernel recorded again asks for the same few)
_STATIC_VIEWS: dict[tuple, Optional[TensorViewType]] = memo_table(
    "lower.addressing: static tensor view types"
)


def _static_tensor_view_type(p: Param, cells: Cells) -> Optional[TensorViewType]:
    """The type of parameter ``p``'s buffer viewed as ``cells`` when every extent is a number
    (row-major strides, all known); None when one is DYN_DIM (the kernel computes those)."""
    # (the format by its name, which is all a Format holds: a Format hashes in Python)
    key = (p.format.name, cells.extent, p.marker.ptr_attr)
    try:
        return _STATIC_VIEWS[key]
    except KeyError:
        pass
    made: Optional[TensorViewType] = None
    sizes = [e for e in cells.extent if isinstance(e, int)]
    if len(sizes) == len(cells.extent):
        strides: list[int] = []
        acc = 1
        for e in reversed(sizes):
            strides.append(acc)
            acc *= e
        made = _view_type(
            TensorViewType, p.format, tuple(sizes), tuple(reversed(strides)), p.marker.ptr_attr
        )
    return remember(_STATIC_VIEWS, key, made)


def _partition_view_type(cells: Cells, tv: TensorViewType, padded: bool) -> PartitionViewType:
    """The type of the partition view of tensor view type ``tv`` in ``cells``' tiles (with its
    padding value when ``padded``): a memo keyed by the values it reads, so that a hit makes
    no dimension map and no call of ``_view_type`` (every view of every kernel asks)."""
    tile = cells.tile
    pad = cells.pad if padded else None
    key = (tile, pad, tv)
    found = _PARTITION_VIEWS.get(key)
    if found is None:
        made = PartitionViewType(tile, tv, tuple(range(len(tile))), pad)
        found = remember(_PARTITION_VIEWS, key, made)
    return found


# (tile, padding value, tensor view type) -> the partition view type
_PARTITION_VIEWS: dict[tuple, PartitionViewType] = memo_table(
    "lower.addressing: partition view types"
)


def _i32(n: int) -> Tile:
    return Tile("constant", (), {"value": dense_of(TileType((), I32), n)}, TileType((), I32))


class Addressing(Walk):
    """Views and pointers of the parameters (mixed into the lowering)."""

    def tensor_view(self, index: int, cells: Cells, loc: Optional[Loc]) -> Value:
        """Parameter ``index``'s whole buffer as a tensor view of ``cells``' extent."""
        key = ("tv", index, cells)
        found = self.local.get(key)  # (lookup(key, innermost_only=True), inlined)
        if found is not None:
            return found
        p = self.program.params[index]
        ptr = self.params[index]
        base = self.emit1("assume", (ptr,), ptr.type, _ALIGNED, loc)
        static = _static_tensor_view_type(p, cells)
        if static is not None:
            tv = self.emit1(
                "make_tensor_view", (base,), static, EMPTY_ATTRS, loc, _NO_DYNAMIC_SIZES
            )
        else:
            tv = self._dynamic_tensor_view(index, p, base, cells, loc)
        self.local[key] = tv  # (bind_local(key, tv), inlined: every view's path)
        return tv

    def _dynamic_tensor_view(
        self, index: int, p: Param, base: Value, cells: Cells, loc: Optional[Loc]
    ) -> Value:
        """``tensor_view`` of cells with a DYN_DIM extent: its sizes and the strides after it
        are the entry's values (and products of them)."""
        shape: list[Optional[int]] = []
        dyn_shape: list[Value] = []
        for d, e in enumerate(cells.extent):
            if not isinstance(e, int):  # DYN_DIM
                if p.cells is not cells and (index, d) not in self.extent_values:
                    raise LoweringError(
                        "a retiled view cannot have a DYN_DIM extent",
                        op="make_tensor_view",
                        where=str(loc) if loc else None,
                    )
                shape.append(None)
                dyn_shape.append(self.extent_values[(index, d)])
            else:
                shape.append(e)
        strides, dyn_strides = self._strides(index, shape, loc)
        tv_type = _view_type(
            TensorViewType, p.format, tuple(shape), tuple(strides), p.marker.ptr_attr
        )
        (tv,) = self.emit(
            "make_tensor_view",
            [base, *dyn_shape, *dyn_strides],
            [tv_type],
            segments=(1, len(dyn_shape), len(dyn_strides)),
            loc=loc,
        )
        return tv

    def view(self, index: int, cells: Cells, loc: Optional[Loc], padded: bool = True) -> Value:
        """The partition view of parameter ``index`` in ``cells`` (``padded=False``: without a
        padding value, as atomic_red_view_tko wants)."""
        key = ("view", index, cells) if padded else ("view-nopad", index, cells)
        found = self.local.get(key)  # (lookup(key, innermost_only=True), inlined)
        if found is not None:
            return found
        tv = self.tensor_view(index, cells, loc)
        tv_type = tv.type
        assert isinstance(tv_type, TensorViewType)  # what tensor_view makes
        pv_type = _partition_view_type(cells, tv_type, padded)
        pv = self.emit1("make_partition_view", (tv,), pv_type, EMPTY_ATTRS, loc)
        self.local[key] = pv  # (bind_local(key, pv), inlined: every view's path)
        return pv

    def any_view(self, index: int, spec: View, loc: Optional[Loc], padded: bool = True) -> Value:
        """The view a load or store names: cells, windows (strided) or a gather (sparse);
        ``padded=False`` leaves out the padding value (a load promised in bounds: tileiras
        refuses ``inbounds`` through a padded view)."""
        if isinstance(spec, Cells):
            return self.view(index, spec, loc, padded)
        key = ("view", index, spec) if padded else ("view-nopad", index, spec)
        found = self.lookup(key, innermost_only=True)
        if found is not None:
            return found
        tv = self.tensor_view(index, spec.cells, loc)
        assert isinstance(tv.type, TensorViewType)  # what tensor_view makes
        pad = spec.cells.pad if padded else None
        vt: Union[StridedViewType, GatherScatterViewType]
        if isinstance(spec, Window):
            vt = StridedViewType(spec.tile, spec.step, tv.type, tuple(range(len(spec.tile))), pad)
            (v,) = self.emit("make_strided_view", (tv,), [vt], loc=loc)
        elif isinstance(spec, Sparse):
            vt = GatherScatterViewType(spec.tile, tv.type, spec.sparse_dim, pad)
            (v,) = self.emit("make_gather_scatter_view", (tv,), [vt], loc=loc)
        else:  # pragma: no cover - the ops make only these
            raise LoweringError(f"unknown view {spec!r}", op="load_view_tko")
        self.bind_local(key, v)
        return v

    def _strides(
        self, index: int, shape: list[Optional[int]], loc: Optional[Loc]
    ) -> tuple[tuple[Optional[int], ...], tuple[Value, ...]]:
        """Row-major strides; a stride after a dynamic extent is computed in the kernel."""
        strides: list[Optional[int]] = []
        dyn: list[Value] = []
        acc_static = 1
        acc_value: Optional[Value] = None
        for d in reversed(range(len(shape))):
            n = shape[d]
            if acc_value is None:
                strides.append(acc_static)
            else:
                strides.append(None)
                dyn.append(acc_value)
            if n is None:
                extent = self.extent_values[(index, d)]
                if acc_value is None:
                    if acc_static == 1:
                        acc_value = extent
                    else:
                        c = self.value(_i32(acc_static))
                        (acc_value,) = self.emit("muli", (extent, c), [extent.type], loc=loc)
                else:
                    (acc_value,) = self.emit("muli", (acc_value, extent), [extent.type], loc=loc)
            elif acc_value is None:
                acc_static *= n
            else:
                c = self.value(_i32(n))
                (acc_value,) = self.emit("muli", (acc_value, c), [acc_value.type], loc=loc)
        return tuple(reversed(strides)), tuple(reversed(dyn))

    def shape_query(self, t: Tile) -> tuple[Value, ...]:
        """The results of ``get_tensor_shape`` / ``get_index_space_shape`` of a parameter."""
        index, cells = t.attrs["param"], t.attrs["cells"]
        key = (t.op, index, cells)
        found = self.lookup(key)
        if found is None:
            if t.op == "get_tensor_shape":
                src = self.tensor_view(index, cells, t.loc)
            else:
                src = self.view(index, cells, t.loc)
            found = self.emit(
                t.op, (src,), [canonical_tile_type((), I32)] * len(cells.extent), loc=t.loc
            )
            self.bind(key, found)
        return found

    def pointers(self, base: Base, offsets: Optional[Tile], loc: Optional[Loc]) -> Value:
        """A tile of pointers: parameter ``base`` (an index) or the pointer tile ``base``,
        moved by element ``offsets`` (None: ``base`` already points at every element)."""
        if isinstance(base, int):
            ptr = self.params[base]
        else:
            ptr = self.value(base)
            if offsets is None:
                return ptr
        assert offsets is not None  # a parameter is addressed through offsets (the recorder's)
        ptrs_key = ("ptrs", base, offsets)
        found = self.lookup(ptrs_key)
        if found is not None:
            return found
        shape = offsets.shape
        if shape:
            key = ("ptr-splat", base, shape)
            found = self.lookup(key)
            if found is None:
                assert isinstance(ptr.type, TileType)  # a tile of pointers
                # (shared type objects: a tile's shape is a tuple of ints already)
                ones = canonical_tile_type((1,) * len(shape), ptr.type.element)
                r = self.emit1("reshape", (ptr,), ones, EMPTY_ATTRS, loc)
                wide = canonical_tile_type(shape, ptr.type.element)
                found = self.emit1("broadcast", (r,), wide, EMPTY_ATTRS, loc)
                self.bind(key, found)
            ptr = found
        ptrs = self.emit1("offset", (ptr, self.value(offsets)), ptr.type, EMPTY_ATTRS, loc)
        self.bind(ptrs_key, ptrs)
        return ptrs
