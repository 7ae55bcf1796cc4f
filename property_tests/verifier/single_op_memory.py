"""Families of ``test_verify_vs_tileirdisasm`` for memory: pointer tiles, tensor views and
the views cut from them, ``alloca``, globals, tokens and the other ops with effects.

13.4's ptr_attr is drawn on every pointer, and made to disagree now and then where the
dialect's verifier wants agreement: a tensor view without its base pointer's attribute
(or with one its base lacks), an ``offset`` whose result changes it."""

from __future__ import annotations

from hypothesis import strategies as st

from single_op_source import MEMORY_ORDERS, PARAMS, POINTEES, Src, T
from tileir.ir.dialect import ENUMS
from tileir.ir.module import Global, Hints, Value
from tileir.ir.numerics import dense_of
from tileir.types import (
    F16,
    F32,
    I1,
    I4,
    I8,
    I32,
    I64,
    TOKEN,
    Format,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
)

__all__ = ["pointers", "tensor_view", "views", "misc", "module_level"]


def pointers(s: Src) -> None:
    """A pointer-tile op: ``offset`` (which keeps the pointer type, ptr_attr and all),
    ``load_ptr_tko``, ``store_ptr_tko``, ``atomic_rmw_tko`` or ``atomic_cas_tko``."""
    name = s.draw(
        st.sampled_from("atomic_rmw_tko atomic_cas_tko load_ptr_tko store_ptr_tko offset".split())
    )
    pointee = s.fmt((F32, I32, I64, F16, s.fmt(POINTEES)))
    shape = s.shape(((4,), (2, 4), (), (8,)))
    attr = s.ptr_attr()
    ptrs = s.tile(T(shape, PointerType(pointee, attr)))
    value = T(shape, pointee)
    if name == "offset":
        out = ptrs.type
        if s.draw(st.integers(0, 4)) == 4:  # offset keeps the pointer type, ptr_attr too
            out = T(shape, PointerType(pointee, s.other_ptr_attr(attr)))
        s.op("offset", [ptrs, s.tile(s.twist(T(shape, I32), 0.4))], [s.twist(out)])
        return
    mask = [s.tile(s.twist(T(shape, I1)))] if s.draw(st.booleans()) else []
    token = [s.token()] if s.draw(st.booleans()) else []
    hints = s.draw(st.sampled_from([None, Hints((("sm_90", (("latency", 3),)),))]))
    order = s.draw(st.sampled_from(MEMORY_ORDERS))
    scope = s.draw(st.sampled_from(ENUMS["memory_scope"] + (None,)))
    common = {"memory_ordering": order}
    if scope is not None:
        common["memory_scope"] = scope
    if name == "load_ptr_tko":
        pad = [s.tile(s.twist(value))] if mask and s.draw(st.booleans()) else []
        s.op(
            name,
            [ptrs] + mask + pad + token,
            [s.twist(value), TOKEN],
            segments=(1, len(mask), len(pad), len(token)),
            **common,
            **({"optimization_hints": hints} if hints else {}),
        )
    elif name == "store_ptr_tko":
        s.op(
            name,
            [ptrs, s.tile(s.twist(value))] + mask + token,
            [TOKEN],
            segments=(1, 1, len(mask), len(token)),
            **common,
        )
    elif name == "atomic_rmw_tko":
        s.op(
            name,
            [ptrs, s.tile(s.twist(value))] + mask + token,
            [s.twist(value), TOKEN],
            segments=(1, 1, len(mask), len(token)),
            memory_ordering=order,
            memory_scope=scope or "device",
            mode=s.draw(st.sampled_from(ENUMS["atomic_mode"])),
        )
    else:
        s.op(
            name,
            [ptrs, s.tile(value), s.tile(s.twist(value))] + mask + token,
            [s.twist(value), TOKEN],
            segments=(1, 1, 1, len(mask), len(token)),
            memory_ordering=order,
            memory_scope=scope or "device",
        )


def tensor_view(s: Src, elem: Format) -> Value:
    """A ``make_tensor_view`` of a ``ptr<elem>`` parameter: rank 1 or 2, static sizes and
    strides drawn with some dynamic and some bad ones."""
    rank = s.draw(st.integers(1, 2))
    shape = tuple(s.draw(st.sampled_from([None, 64, 64, 16, 0])) for _ in range(rank))
    strides = tuple(s.draw(st.sampled_from([None, 1, 1, 64, 0, -1])) for _ in range(rank))
    index = T((), s.fmt((I32, I32, I64, I8, I4)))
    dyn = [s.tile(index) for d in shape + strides if d is None]
    attr = s.ptr_attr()
    # the view carries its base pointer's ptr_attr; now and then another one
    view_attr = s.other_ptr_attr(attr) if s.draw(st.integers(0, 4)) == 4 else attr
    tv_t = TensorViewType(elem, shape, strides, view_attr)
    n_shape = sum(d is None for d in shape)
    base = s.b.params[PARAMS.index(T((), PointerType(elem, attr)))]
    return s.op(
        "make_tensor_view", [base] + dyn, [tv_t], segments=(1, n_shape, len(dyn) - n_shape)
    )


def views(s: Src) -> None:
    """A view cut from a tensor view, then a load, store, reduction or shape query
    through it."""
    elem = s.fmt((F32, I32, F16, s.fmt(POINTEES)))
    tv = tensor_view(s, elem)
    rank = tv.type.rank
    if s.draw(st.integers(0, 4)) == 0:
        s.op(
            "get_tensor_shape",
            [tv],
            [s.twist(T((), I32))] * (rank + s.draw(st.sampled_from([0, 0, 1]))),
        )
        return
    kind = s.draw(st.sampled_from(["partition", "partition", "strided", "gather"]))
    tile = tuple(s.draw(st.sampled_from([4, 16, 3])) for _ in range(rank))
    dim_map = tuple(s.draw(st.permutations(range(rank))))
    if s.draw(st.integers(0, 9)) == 0:
        dim_map = (0,) * rank
    padding = s.draw(st.sampled_from([None, None, "zero", "nan", "neg_inf"]))
    if kind == "partition":
        view_t = PartitionViewType(tile, tv.type, dim_map, padding)
    elif kind == "strided":
        view_t = StridedViewType(
            tile,
            tuple(s.draw(st.sampled_from([1, 2, 0])) for _ in tile),
            tv.type,
            dim_map,
            padding,
        )
    else:
        view_t = GatherScatterViewType(tile, tv.type, s.draw(st.integers(-1, rank)), padding)
    view = s.op(f"make_{'gather_scatter' if kind == 'gather' else kind}_view", [tv], [view_t])
    what = s.draw(st.sampled_from(["load", "store", "red", "shape"]))
    if what == "shape":
        s.op("get_index_space_shape", [view], [s.twist(T((), I32))] * rank)
        return
    index_t = T((), s.fmt((I32, I32, I64, I4)))
    index = []
    for i in range(rank + s.draw(st.sampled_from([0, 0, 0, -1]))):
        sparse = kind == "gather" and i == view_t.sparse_dim
        index.append(s.tile(s.twist(T((tile[i],), I32) if sparse else index_t)))
    token = [s.token()] if s.draw(st.booleans()) else []
    value = s.twist(T(tile, elem))
    order = s.draw(st.sampled_from(MEMORY_ORDERS))
    scope = s.draw(st.sampled_from(ENUMS["memory_scope"] + (None,)))
    extra = {"memory_scope": scope} if scope else {}
    if what == "load":
        s.op(
            "load_view_tko",
            [view] + index + token,
            [value, TOKEN],
            segments=(1, len(index), len(token)),
            **s.attrs("load_view_tko", memory_ordering=order, **extra),
        )
    elif what == "store":
        s.op(
            "store_view_tko",
            [s.tile(value), view] + index + token,
            [TOKEN],
            segments=(1, 1, len(index), len(token)),
            memory_ordering=order,
            **extra,
        )
    else:
        s.op(
            "atomic_red_view_tko",
            [view] + index + [s.tile(value)] + token,
            [TOKEN],
            segments=(1, len(index), 1, len(token)),
            memory_ordering=order,
            memory_scope=scope or "device",
            mode=s.draw(st.sampled_from(ENUMS["atomic_mode"])),
        )


def misc(s: Src) -> None:
    """``print_tko``, ``alloca``, tokens, gdc, the grid queries, ``assert`` or ``get_global``."""
    name = s.draw(
        st.sampled_from(
            "print_tko alloca join_tokens make_token gdc_wait_tko "
            "gdc_launch_dependents_tko memory_fence_alias_tko "
            "get_tile_block_id get_num_tile_blocks assert get_global".split()
        )
    )
    if name == "print_tko":
        args = [s.tile(T((), s.fmt((I32, F32)))) for _ in range(s.draw(st.integers(0, 2)))]
        s.op(name, args, [TOKEN], segments=(len(args), 0), **s.attrs(name, format="x=%d\n"))
    elif name == "alloca":
        s.op(
            name,
            [],
            [s.twist(T((), s.pointer()), 0.05)],  # with a ptr_attr or not
            num_elem=s.draw(st.sampled_from([1, 4, 0])),
            alignment=s.draw(st.sampled_from([1, 2, 4, 8, 16, 3])),
            **({"global_": True} if s.draw(st.booleans()) else {}),
        )
    elif name == "join_tokens":
        s.op(name, [s.token() for _ in range(s.draw(st.integers(0, 3)))], [TOKEN])
    elif name in ("make_token", "gdc_wait_tko", "gdc_launch_dependents_tko"):
        token = [s.token()] if name != "make_token" and s.draw(st.booleans()) else []
        s.op(name, token, [s.draw(st.sampled_from([TOKEN, TOKEN, T((), I32)]))])
    elif name == "memory_fence_alias_tko":
        s.op(name, [s.token()], [TOKEN])
    elif name in ("get_tile_block_id", "get_num_tile_blocks"):
        s.op(name, [], [s.twist(T((), I32), 0.3) for _ in range(3)])
    elif name == "assert":
        s.op(name, [s.tile(s.twist(T((4,), I1), 0.4))], [], message="drawn")
    else:
        elem = s.fmt((F32, I32, s.fmt(POINTEES)))
        if elem != I4 and elem.name != "f4E2M1FN":
            s.globals = (Global("table", dense_of(T((4,), elem), 1 if elem.is_int else 1.0)),)
        s.op(
            name,
            [],
            [T((), PointerType(s.draw(st.sampled_from([elem, F32])), s.ptr_attr()))],
            name=s.draw(st.sampled_from(["table", "table", "missing"])),
        )


def module_level(s: Src) -> None:
    """A global (of any rank, alignment, visibility) read by ``get_global``, entry hints."""
    elem = s.fmt((F32, I32, F16, s.fmt(POINTEES)))
    shape = s.shape(((4,), (4,), (2, 2), (1,), (3,)))
    if elem.name != "f4E2M1FN" or shape == (4,):
        value = dense_of(T(shape, elem), 1 if elem.is_int else 1.0)
        s.globals = (
            Global(
                "g",
                value,
                alignment=s.draw(st.sampled_from([0, 4, 16, 3])),
                constant=s.draw(st.booleans()),
                visibility=s.draw(st.sampled_from(["public", "private"])),
            ),
        )
        s.op("get_global", [], [T((), PointerType(elem, s.ptr_attr()))], name="g")
    key = s.draw(st.sampled_from(["num_cta_in_cga", "occupancy", "latency", "bogus"]))
    arch = s.draw(st.sampled_from(["sm_90", "default", "sm_1000"]))
    s.b.hints = Hints(((arch, ((key, s.draw(st.sampled_from([1, 2, 3, 64, True]))),)),))
