"""Type rules of the view ops: tensor views and the partition, strided and gather/scatter
views cut from them, their shape queries, and loads and stores through them (part of
``VERIFY_RULES``)."""

from __future__ import annotations

from tileir.ir.signatures import attr_of, operand_groups
from tileir.types import (
    PADDING_VALUES,
    TOKEN,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
)
from tileir.verify.common import (
    check_ordering,
    int_tile,
    one_result,
    results_are,
    scalar_int,
    tile,
    tokens_in,
    types_text,
)

__all__ = ["VERIFY_VIEW_RULES", "TILE_VIEWS", "view_tile", "view_index"]


#: The views a tile is loaded from or stored to.
TILE_VIEWS = (PartitionViewType, StridedViewType, GatherScatterViewType)


def _make_tensor_view(c, op):
    g = operand_groups(op)
    base = tile(c, g["base"][0], "base")
    one_result(c, op)
    view = op.results[0].type
    if not isinstance(view, TensorViewType):
        c.fail(f"result is {view}, not a tensor_view")
    if (
        base.rank != 0
        or not isinstance(base.element, PointerType)
        or base.element.pointee != view.element
    ):
        c.fail(f"base is {base}; {view} needs a tile<ptr<{view.element}>>")
    if base.element.attr != view.ptr_attr:  # the dialect's verifier: the view keeps it
        c.fail(
            f"the base pointer's ptr_attr ({base.element.attr}) and the view's "
            f"({view.ptr_attr}) differ: a tensor_view keeps its base pointer's ptr_attr"
        )
    if len(view.shape) != len(view.strides):
        c.fail(f"{view} has {len(view.shape)} dims and {len(view.strides)} strides")
    for group, entries in (("shape", view.shape), ("strides", view.strides)):
        dynamic = sum(e is None for e in entries)
        if len(g[group]) != dynamic:
            c.fail(f"{view} has {dynamic} dynamic {group} entries, given {len(g[group])} values")
    dynamic_values = g["shape"] + g["strides"]
    for v in dynamic_values:
        scalar_int(c, v, "a dynamic shape or stride")
    if len({v.type for v in dynamic_values}) > 1:
        c.fail(f"dynamic shapes and strides must share one type, got {types_text(dynamic_values)}")


def _check_dim_map(c, dim_map, rank, what) -> None:
    if sorted(dim_map) != list(range(rank)):
        c.fail(f"{what}: dim_map {list(dim_map)} is not a permutation of 0..{rank - 1}")


def _check_padding(c, view) -> None:
    if view.padding is None:
        return
    if view.padding not in PADDING_VALUES:
        c.fail(f"{view}: padding_value {view.padding!r} is not one of {', '.join(PADDING_VALUES)}")
    if view.padding != "zero" and not view.tensor_view.element.is_float:
        c.fail(f"{view}: padding_value {view.padding} is for float views only")


def _make_view(kind):
    def rule(c, op):
        tv = op.operands[0].type
        if not isinstance(tv, TensorViewType):
            c.fail(f"operand is {tv}, not a tensor_view")
        one_result(c, op)
        view = op.results[0].type
        if not isinstance(view, kind) or view.tensor_view != tv:
            c.fail(f"result is {view}; `{op.name}` of {tv} makes a {kind.__name__} of it")
        if len(view.tile_shape) != tv.rank:
            c.fail(f"{view}: a tile of rank {len(view.tile_shape)} over a rank-{tv.rank} tensor")
        if isinstance(view, GatherScatterViewType):
            if not 0 <= view.sparse_dim < tv.rank:
                c.fail(f"{view}: sparse_dim={view.sparse_dim} is not a dimension")
        else:
            _check_dim_map(c, view.dim_map, tv.rank, str(view))
        if isinstance(view, StridedViewType) and len(view.traversal_strides) != tv.rank:
            c.fail(f"{view}: {len(view.traversal_strides)} traversal strides for rank {tv.rank}")
        _check_padding(c, view)

    return rule


def _shape_query(views):
    def rule(c, op):
        v = op.operands[0].type
        if not isinstance(v, views):
            c.fail(f"operand is {v}; `{op.name}` reads a {' or '.join(k.__name__ for k in views)}")
        rank = v.rank
        if len(op.results) != rank:
            c.fail(f"has {len(op.results)} results for the {rank} dims of {v}")
        for r in op.results:
            scalar_int(c, r, "each result")

    return rule


def view_tile(view) -> TileType:
    """The tile one index of ``view`` reads or writes."""
    return TileType(view.tile_shape, view.tensor_view.element)


def view_index(c, view, index) -> None:
    """``index`` addresses one tile of ``view``: one integer per dim (a row-index tile on a
    gather/scatter view's sparse dim), the scalar ones all of one type (the row-index tile
    may be of any integer type: tileirdisasm, probed)."""
    if len(index) != view.rank:
        c.fail(f"{view} takes {view.rank} indices, got {len(index)}")
    scalars = []
    for i, v in enumerate(index):
        if isinstance(view, GatherScatterViewType) and i == view.sparse_dim:
            t = int_tile(c, v, f"index {i}")
            if t.shape != (view.tile_shape[i],):
                c.fail(
                    f"index {i} is {t}; the sparse dim of {view} takes "
                    f"{view.tile_shape[i]} row indices"
                )
        else:
            scalar_int(c, v, f"index {i}")
            scalars.append(v)
    if len({v.type.element for v in scalars}) > 1:
        c.fail(f"scalar indices must share one integer type, got {types_text(scalars)}")


def _no_multicast(c, view) -> None:
    # (13.5's verifier: "multicast ptr_attr is not allowed"; only the multimem ops take one)
    if view.tensor_view.ptr_attr == "multicast":
        c.fail(
            f"multicast ptr_attr is not allowed here ({view.tensor_view}); use the multimem ops"
        )


def _inbounds(c, op, n) -> None:
    inbounds = attr_of(op, "inbounds")
    if inbounds and len(inbounds) != n:
        c.fail(f"inbounds has {len(inbounds)} entries for {n} indices")


def _load_view(c, op):
    g = operand_groups(op)
    view = g["view"][0].type
    if not isinstance(view, TILE_VIEWS):
        c.fail(f"view is {view}; loads read a partition, strided or gather_scatter view")
    _no_multicast(c, view)
    view_index(c, view, g["index"])
    tokens_in(c, op, g["token"])
    check_ordering(c, op, ("weak", "relaxed", "acquire"))
    _inbounds(c, op, len(g["index"]))
    results_are(c, op, view_tile(view), TOKEN)


def _store_view(c, op):
    g = operand_groups(op)
    view = g["view"][0].type
    if not isinstance(view, TILE_VIEWS):
        c.fail(f"view is {view}; stores write a partition, strided or gather_scatter view")
    _no_multicast(c, view)
    if g["tile"][0].type != view_tile(view):
        c.fail(f"tile is {g['tile'][0].type}; {view} stores {view_tile(view)}")
    view_index(c, view, g["index"])
    tokens_in(c, op, g["token"])
    check_ordering(c, op, ("weak", "relaxed", "release"))
    _inbounds(c, op, len(g["index"]))
    results_are(c, op, TOKEN)


#: The rules of the view ops (part of ``VERIFY_RULES``).
VERIFY_VIEW_RULES = {
    "make_tensor_view": _make_tensor_view,
    "make_partition_view": _make_view(PartitionViewType),
    "make_strided_view": _make_view(StridedViewType),
    "make_gather_scatter_view": _make_view(GatherScatterViewType),
    "get_tensor_shape": _shape_query((TensorViewType,)),
    "get_index_space_shape": _shape_query(TILE_VIEWS),
    "load_view_tko": _load_view,
    "store_view_tko": _store_view,
}
