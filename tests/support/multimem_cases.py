"""One-op Modules of the 13.5 multimem ops, for the checker's tests against ``tileirdisasm``.

``multimem_module`` builds an entry whose one multicast (or other) pointer is viewed as a
partition view and accessed by one multimem op with the given format, tile, ordering,
scope, reduction, padding, strides and inbounds; ``MATRIX`` lists the combinations the
verifier tests sweep (each checked against tileirdisasm 13.5.37 when the tools are there).
"""

from __future__ import annotations

from typing import Optional

from support.build import FunctionBuilder
from tileir.ir.module import Module
from tileir.ir.numerics import dense_of
from tileir.types import (
    BF16,
    F16,
    F32,
    F64,
    I32,
    I64,
    TOKEN,
    Format,
    PartitionViewType,
    PointerType,
    TensorViewType,
    TileType,
)

__all__ = ["multimem_module", "MATRIX", "OPS"]

OPS = {
    "lr": "multimem_load_reduce_view_tko",
    "rd": "multimem_reduce_view_tko",
    "st": "multimem_store_view_tko",
}
_S32 = TileType((), Format("i32"))


def multimem_module(
    op: str,
    fmt: Format,
    tile: tuple = (16,),
    ordering: str = "weak",
    scope: Optional[str] = None,
    reduction: Optional[str] = None,
    pad: Optional[str] = None,
    strides: tuple = (1,),
    shape: tuple = (64,),
    ptr_attr: Optional[str] = "multicast",
    inbounds: tuple = (),
) -> Module:
    b = FunctionBuilder("k", [TileType((), PointerType(fmt, ptr_attr))])
    (p,) = b.params
    ids = b.op("get_tile_block_id", [], [_S32] * 3)
    tv_t = TensorViewType(fmt, shape, strides, ptr_attr)
    tv = b.op("make_tensor_view", [p], [tv_t], segments=(1, 0, 0))
    pv_t = PartitionViewType(tile, tv_t, tuple(range(len(tile))), pad)
    pv = b.op("make_partition_view", [tv], [pv_t])
    idx = list(ids[: len(tile)])
    attrs: dict = {"memory_ordering": ordering}
    if scope is not None:
        attrs["memory_scope"] = scope
    if inbounds:
        attrs["inbounds"] = inbounds
    if reduction is not None:
        attrs["reduction"] = reduction
    tt = TileType(tile, fmt)
    if op == "lr":
        b.op(OPS[op], [pv, *idx], [tt, TOKEN], segments=(1, len(idx), 0), **attrs)
    else:
        v = b.op("constant", [], [tt], value=dense_of(tt, 0))
        b.op(OPS[op], [pv, v, *idx], [TOKEN], segments=(1, 1, len(idx), 0), **attrs)
    return Module((b.finish(),))


def _matrix() -> list:
    out: list = []
    some = dict(ordering="relaxed", scope="device")
    for f in ("i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "tf32", "f8E4M3FN"):
        for op in OPS:
            out.append((op, Format(f), dict(some) if op == "rd" else {}))
    for n in (1, 2, 4):
        for op in OPS:
            out.append((op, F16, dict(tile=(n,), **(some if op == "rd" else {}))))
    out.append(("lr", BF16, dict(tile=(1,))))
    out.append(("lr", F32, dict(tile=(1,))))
    orderings = {
        "lr": ("weak", "relaxed", "acquire", "release"),
        "rd": ("weak", "relaxed", "release", "acquire"),
        "st": ("weak", "relaxed", "release", "acquire"),
    }
    for op, names in orderings.items():
        for o in names:
            for sc in (None, "tl_blk", "sys"):
                if op == "rd" and sc is None:
                    continue  # the scope is a required attribute: the encoder refuses it
                out.append((op, I32, dict(ordering=o, scope=sc)))
    for f in (I32, I64, F16, BF16, F32, F64):
        for r in ("add", "min", "max", "and", "or", "xor", "umin", "umax"):
            out.append(("lr", f, dict(reduction=r)))
            out.append(("rd", f, dict(reduction=r, **some)))
    out.append(("lr", F32, dict(pad="zero")))
    out.append(("st", F32, dict(pad="zero")))
    out.append(("lr", F32, dict(ptr_attr="unicast")))
    out.append(("lr", F32, dict(ptr_attr="none")))
    out.append(("st", F32, dict(ptr_attr=None)))
    out.append(("lr", F16, dict(tile=(4, 4), shape=(64, 64), strides=(64, 1))))
    out.append(("lr", F16, dict(tile=(4, 4), shape=(64, 64), strides=(1, 64))))
    out.append(("lr", F16, dict(tile=(4,), shape=(64,), strides=(2,))))
    out.append(("lr", BF16, dict(tile=(4,), shape=(64,), strides=(2,))))
    out.append(("lr", F32, dict(tile=(4,), shape=(64,), strides=(2,))))
    out.append(("lr", F32, dict(inbounds=(True,))))
    out.append(("st", F32, dict(inbounds=(True,))))
    return out


#: ``(op key, format, keywords of multimem_module)`` per case.
MATRIX = _matrix()


#: The memory ops other than multimem ones, which refuse a multicast pointer (13.5).
OTHER_MEMORY_OPS = (
    "atomic_rmw_tko",
    "atomic_cas_tko",
    "load_ptr_tko",
    "store_ptr_tko",
    "load_view_tko",
    "store_view_tko",
    "atomic_red_view_tko",
)


def other_op_module(op: str, ptr_attr: Optional[str]) -> Module:
    """One ``op`` on an i32 buffer whose pointer carries ``ptr_attr``."""
    T, I = TileType, Format("i32")
    ptr = T((), PointerType(I, ptr_attr))
    b = FunctionBuilder("k", [ptr])
    (p,) = b.params
    v = b.op("constant", [], [T((16,), I)], value=dense_of(T((16,), I), 1))
    if op.endswith("_ptr_tko") or op.startswith("atomic_rmw") or op.startswith("atomic_cas"):
        one = b.op("reshape", [p], [T((1,), PointerType(I, ptr_attr))])
        ptrs = b.op("broadcast", [one], [T((16,), PointerType(I, ptr_attr))])
        shape = T((16,), I)
        if op == "atomic_rmw_tko":
            b.op(
                op,
                [ptrs, v],
                [shape, TOKEN],
                segments=(1, 1, 0, 0),
                memory_ordering="relaxed",
                memory_scope="device",
                mode="add",
            )
        elif op == "atomic_cas_tko":
            b.op(
                op,
                [ptrs, v, v],
                [shape, TOKEN],
                segments=(1, 1, 1, 0, 0),
                memory_ordering="relaxed",
                memory_scope="device",
            )
        elif op == "load_ptr_tko":
            b.op(op, [ptrs], [shape, TOKEN], segments=(1, 0, 0, 0))
        else:
            b.op(op, [ptrs, v], [TOKEN], segments=(1, 1, 0, 0))
        return Module((b.finish(),))
    bx, _, _ = b.op("get_tile_block_id", [], [_S32] * 3)
    tv_t = TensorViewType(I, (64,), (1,), ptr_attr)
    tv = b.op("make_tensor_view", [p], [tv_t], segments=(1, 0, 0))
    pv = b.op("make_partition_view", [tv], [PartitionViewType((16,), tv_t, (0,), None)])
    if op == "load_view_tko":
        b.op(op, [pv, bx], [T((16,), I), TOKEN], segments=(1, 1, 0))
    elif op == "store_view_tko":
        b.op(op, [v, pv, bx], [TOKEN], segments=(1, 1, 1, 0))
    else:
        b.op(op, [pv, bx, v], [TOKEN], segments=(1, 1, 1, 0), memory_scope="device", mode="add")
    return Module((b.finish(),))
