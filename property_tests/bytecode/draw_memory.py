"""Op drawers for memory: loads and stores through tensor and partition views with tokens,
pointer tiles (``offset``, ``load_ptr_tko``, stores and atomics, casts), and rank-0
pointers made in the body (``alloca``, ``int_to_ptr``, ``ptr_to_ptr``).

13.4's pointer attribute travels the way the dialect's verifier wants it to: a tensor
view carries its base pointer's ``ptr_attr``; ``reshape`` / ``broadcast`` / ``offset``
keep the pointer type exactly; the results of ``alloca``, ``int_to_ptr`` and
``ptr_to_ptr`` may carry it or not, whatever their source had.
"""

from __future__ import annotations

from hypothesis import strategies as st

from draw_scope import S32, Drawer, is_f32_pointer, is_scalar_pointer
from tileir.ir.module import Hints, Value
from tileir.types import (
    F32,
    I1,
    I32,
    I64,
    TOKEN,
    PartitionViewType,
    PointerType,
    TensorViewType,
    TileType,
)

__all__ = ["fresh_pointer", "views", "pointers"]


def fresh_pointer(d: Drawer) -> Value:
    """A rank-0 ``ptr<f32>`` made in the body, with a ptr_attr drawn afresh: ``alloca``
    (13.3), ``int_to_ptr`` of an i64, or ``ptr_to_ptr`` of a pointer in scope."""
    t = TileType((), PointerType(F32, d.ptr_attr()))
    # alloca rarely: it needs 13.3, which would crowd out the draws older versions can hold
    how = d.draw(st.sampled_from(["int_to_ptr", "ptr_to_ptr", "int_to_ptr", "alloca"]))
    source = d.pick(is_scalar_pointer) if how == "ptr_to_ptr" else None
    if how == "alloca":
        return d.op(
            "alloca",
            [],
            [t],
            num_elem=d.draw(st.sampled_from([1, 4, 64])),
            alignment=d.draw(st.sampled_from([4, 16])),
            **d.attrs(global_=d.maybe(d.draw(st.booleans()), False)),
        )
    if source is None:  # int_to_ptr, or ptr_to_ptr with no pointer in scope
        return d.op("int_to_ptr", [d.of_type(TileType((), I64))], [t])
    return d.op("ptr_to_ptr", [source], [t])


def _base_pointer(d: Drawer) -> Value:
    """A rank-0 ``ptr<f32>`` in scope, or now and then (or when there is none) a fresh one."""
    ptr = d.pick(is_f32_pointer)
    return ptr if ptr is not None and d.draw(st.integers(0, 3)) else fresh_pointer(d)


def views(d: Drawer) -> None:
    """A tensor view (dynamic or static size) and a partition view of it, maybe a shape
    query, then a load through it and a store back, threading tokens."""
    ptr = _base_pointer(d)
    attr = ptr.type.element.attr  # the view keeps its base pointer's ptr_attr
    if d.draw(st.booleans()):
        tv_t = TensorViewType(F32, (None,), (1,), attr)
        tv = d.op("make_tensor_view", [ptr, d.of_type(S32)], [tv_t], segments=(1, 1, 0))
    else:
        tv_t = TensorViewType(F32, (64,), (1,), attr)
        tv = d.op("make_tensor_view", [ptr], [tv_t], segments=(1, 0, 0))
    pad = d.draw(st.sampled_from([None, "zero", "nan", "neg_inf"]))
    pv = d.op("make_partition_view", [tv], [PartitionViewType((4,), tv_t, (0,), pad)])
    if d.draw(st.booleans()):
        name, view = d.draw(
            st.sampled_from([("get_index_space_shape", pv), ("get_tensor_shape", tv)])
        )
        d.op(name, [view], [S32])
    tok = d.pick(lambda t: t == TOKEN)
    idx = d.of_type(S32)
    hints = d.draw(
        st.sampled_from(
            [
                None,
                Hints((("sm_90", (("latency", 3),)),)),
                Hints((("default", (("allow_tma", False),)),)),
            ]
        )
    )
    scope = d.draw(st.sampled_from([None, "tl_blk", "device"]))
    order = "weak" if scope is None else d.draw(st.sampled_from(["relaxed", "acquire"]))
    inb = d.draw(st.sampled_from([None, (False,), (True,)]))
    x, t1 = d.op(
        "load_view_tko",
        [pv, idx] + ([tok] if tok else []),
        [TileType((4,), F32), TOKEN],
        segments=(1, 1, int(tok is not None)),
        **d.attrs(
            memory_ordering=d.maybe(order, "weak"),
            memory_scope=scope,
            optimization_hints=hints,
            inbounds=inb,
        ),
    )
    x = d.op("addf", [x, d.of_type(x.type)], [x.type])
    d.op(
        "store_view_tko",
        [x, pv, idx, t1],
        [TOKEN],
        segments=(1, 1, 1, 1),
        **d.attrs(memory_ordering="release" if scope else None, memory_scope=scope),
    )


def pointers(d: Drawer) -> None:
    """A tile of four pointers (reshape, broadcast, offset keep the pointer type), a masked
    or padded load through it, maybe a round trip through i64, then a store, an
    ``atomic_rmw_tko`` or an ``atomic_cas_tko`` through i32 pointers."""
    ptr = _base_pointer(d)
    elem = ptr.type.element  # pointee f32 and the ptr_attr, both kept by the shape ops
    PT = TileType((4,), elem)
    one = d.op("reshape", [ptr], [TileType((1,), elem)])
    ptrs = d.op(
        "offset", [d.op("broadcast", [one], [PT]), d.op("iota", [], [TileType((4,), I32)])], [PT]
    )
    mask = d.pick(lambda t: t == TileType((4,), I1)) if d.draw(st.booleans()) else None
    tok = d.pick(lambda t: t == TOKEN) if d.draw(st.booleans()) else None
    pad = d.of_type(TileType((4,), F32)) if mask is not None and d.draw(st.booleans()) else None
    groups = [ptrs, mask, pad, tok]
    v, t = d.op(
        "load_ptr_tko",
        [g for g in groups if g is not None],
        [TileType((4,), F32), TOKEN],
        segments=(1,) + tuple(int(g is not None) for g in groups[1:]),
    )
    if d.draw(st.booleans()):  # back from addresses: the attribute is the cast's to choose
        as_int = d.op("ptr_to_int", [ptrs], [TileType((4,), I64)])
        ptrs = d.op("int_to_ptr", [as_int], [TileType((4,), PointerType(F32, d.ptr_attr()))])
    which = d.draw(st.sampled_from(["store", "rmw", "cas"]))
    if which == "store":
        d.op("store_ptr_tko", [ptrs, v, t], [TOKEN], segments=(1, 1, 0, 1))
    elif which == "rmw":
        d.op(
            "atomic_rmw_tko",
            [ptrs, v, t],
            [v.type, TOKEN],
            segments=(1, 1, 0, 1),
            memory_ordering="relaxed",
            memory_scope="device",
            mode=d.draw(st.sampled_from(["addf", "xchg"])),
        )
    else:
        ip = d.op("ptr_to_ptr", [ptrs], [TileType((4,), PointerType(I32, d.ptr_attr()))])
        n = d.of_type(TileType((4,), I32))
        d.op(
            "atomic_cas_tko",
            [ip, n, n, t],
            [n.type, TOKEN],
            segments=(1, 1, 1, 0, 1),
            memory_ordering="acq_rel",
            memory_scope="sys",
        )
