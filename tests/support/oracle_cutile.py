"""A test-only oracle: write a tileir Module as bytecode with NVIDIA cuTile's own writer.

cuTile Python (``cuda.tile._bytecode``) has a generated encoder for every op of
the dialect.  This helper walks one of our Modules and calls those encoders, so
the bytes come from NVIDIA's writer rather than from ours; ``tileirdisasm`` of
them is then the reference text our renderer must print, and our own encoder's
output can be compared with them through the disassembler.

It is a test helper, never imported by ``tileir/`` itself.  The translation is
mechanical (op name -> ``encode_<Op>``, attribute spelling -> cuTile enum by its
value index), so the only judgement in it is which cuTile argument each
signature group feeds.

>>> from support.oracle_cutile import oracle_text       # doctest: +SKIP
>>> print(oracle_text(module))                         # doctest: +SKIP
"""

from __future__ import annotations

import os
from typing import Any, Callable, Optional

from cuda.tile import _bytecode as bc
from cuda.tile._bytecode import encodings as E
from cuda.tile._bytecode.attribute import (
    AttributeTag,
    Bool,
    Dictionary,
    Integer,
    OptimizationHints,
    TaggedAttribute,
)
from cuda.tile._bytecode.basic import encode_signed_varint, encode_varint
from cuda.tile._bytecode.type import PaddingValue, PtrAttr, SimpleType
from cuda.tile._bytecode.type_base import encode_typeid

from tileir.ir.dialect import ENUMS
from tileir.ir.module import Bounded, DivBy, Function, Module, Op, SameElements, walk
from tileir.ir.signatures import SIGNATURES, attr_of, operand_groups
from tileir.real.tileiras import disassemble
from tileir.types import (
    Format,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
    TokenType,
)


class _PtrAttrCode:
    """A pointer attribute code cuTile 1.7.0's ``PtrAttr`` enum lacks (13.5's unicast and
    multicast): its writer appends ``_value_`` and compares with ``PtrAttr.Missing``, so a
    stand-in with the code's byte is written as the enum's own members are."""

    def __init__(self, code: int) -> None:
        self._value_ = bytes([code])


# cuTile spells 13.4's pointer attribute `none` as `Default`; tileir spells it as the text does
_PTR_ATTR = {
    None: PtrAttr.Missing,
    "none": PtrAttr.Default,
    "unicast": _PtrAttrCode(1),
    "multicast": _PtrAttrCode(2),
}

__all__ = ["oracle_bytes", "oracle_text", "WRITERS"]

_VERSIONS = {
    "13.1": bc.BytecodeVersion.V_13_1,
    "13.2": bc.BytecodeVersion.V_13_2,
    "13.3": bc.BytecodeVersion.V_13_3,
    "13.4": bc.BytecodeVersion.V_13_4,
    "13.5": bc.BytecodeVersion.V_13_5,
}

_SIMPLE = {
    "i1": SimpleType.I1,
    "i4": SimpleType.I4,
    "i8": SimpleType.I8,
    "i16": SimpleType.I16,
    "i32": SimpleType.I32,
    "i64": SimpleType.I64,
    "f16": SimpleType.F16,
    "bf16": SimpleType.BF16,
    "f32": SimpleType.F32,
    "tf32": SimpleType.TF32,
    "f64": SimpleType.F64,
    "f8E4M3FN": SimpleType.F8E4M3FN,
    "f8E5M2": SimpleType.F8E5M2,
    "f8E8M0FNU": SimpleType.F8E8M0FNU,
    "f4E2M1FN": SimpleType.F4E2M1FN,
    "fnv8E5M3FNU": SimpleType.FNV8E5M3FNU,
}

_PADDING = {
    None: PaddingValue.Missing,
    "zero": PaddingValue.Zero,
    "neg_zero": PaddingValue.NegZero,
    "nan": PaddingValue.Nan,
    "pos_inf": PaddingValue.PosInf,
    "neg_inf": PaddingValue.NegInf,
}

# our enum name -> cuTile enum class (members are matched by value index)
_ENUM_CLASS = {
    "rounding": E.RoundingMode,
    "overflow": E.IntegerOverflow,
    "signedness": E.Signedness,
    "comparison_predicate": E.ComparisonPredicate,
    "comparison_ordering": E.ComparisonOrdering,
    "memory_ordering": E.MemoryOrderingSemantics,
    "memory_scope": E.MemoryScope,
    "atomic_mode": E.AtomicRMWMode,
    "symbol_visibility": E.SymbolVisibility,
    "multimem_reduction_kind": E.MultimemReductionKind,
}


# ----------------------------------------------------------------------------- attributes


class _TaggedScalar(TaggedAttribute):
    """A typed scalar as the C++ writer writes it (cuTile 1.7 loses the sign of f64 ones)."""

    def __init__(self, type_id, fmt: Format, bits: int):
        self.type_id, self.fmt, self.bits = type_id, fmt, bits

    def encode_tagged(self, string_table, buf: bytearray):
        if self.fmt.is_int:
            buf.extend(AttributeTag.Integer._value_)
            encode_typeid(self.type_id, buf)
            encode_varint(self.bits & ((1 << self.fmt.bits) - 1), buf)
            return
        buf.extend(AttributeTag.Float._value_)
        encode_typeid(self.type_id, buf)
        if self.fmt.bits <= 8:
            buf.append(self.bits)
        else:
            v = self.bits - (1 << 64) if self.bits >= 1 << 63 else self.bits
            encode_signed_varint(v, buf)


class _TaggedSameElements(bc.attribute.AssumePredicate):
    def __init__(self, values):
        self.values = tuple(values)

    def encode_tagged(self, string_table, buf: bytearray):
        buf.extend(AttributeTag.SameElements._value_)
        encode_varint(len(self.values), buf)
        for v in self.values:
            buf.extend(int(v).to_bytes(8, "little", signed=True))


class _DictHints:
    """What ``BytecodeWriter.function`` wants per arch: something with ``as_dictionary``."""

    def __init__(self, items):
        self.items = items

    def as_dictionary(self) -> Dictionary:
        return _dictionary(self.items)


def _dictionary(items) -> Dictionary:
    out = []
    for key, value in items:
        out.append((key, Bool(value) if isinstance(value, bool) else Integer.create_i32(value)))
    return Dictionary(out)


def _hints(hints) -> Optional[OptimizationHints]:
    if hints is None:
        return None
    return OptimizationHints([(arch, _dictionary(items)) for arch, items in hints.by_arch])


def _enum(kind: str, spelling: Optional[str]):
    if spelling is None:
        return None
    name = kind.split(":", 1)[1]
    index = ENUMS[name].index(spelling)
    cls = _ENUM_CLASS[name]
    for member in cls:
        if member.value == bytes([index]):
            return member
    raise KeyError((name, spelling))


def _predicate(p):
    if isinstance(p, DivBy):
        return bc.DivBy(p.divisor, p.every, p.along)
    if isinstance(p, Bounded):
        return bc.Bounded(p.lower, p.upper)
    if isinstance(p, SameElements):
        return _TaggedSameElements(p.values)
    raise TypeError(p)


# ----------------------------------------------------------------------------- the writer


class _Ctx:
    def __init__(self, writer: bc.BytecodeWriter, cb, debug):
        self.w = writer
        self.tt = writer.type_table
        self.cb = cb
        self.values: dict[int, Any] = {}
        self.debug = debug

    def ty(self, t) -> Any:
        tt = self.tt
        if isinstance(t, Format):
            return tt.simple(_SIMPLE[t.name])
        if isinstance(t, PointerType):
            return tt.pointer(self.ty(t.pointee), _PTR_ATTR[t.attr])
        if isinstance(t, TileType):
            return tt.tile(self.ty(t.element), t.shape)
        if isinstance(t, TokenType):
            return tt.Token
        if isinstance(t, TensorViewType):
            dyn = bc.DYNAMIC_SHAPE
            return tt.tensor_view(
                self.ty(t.element),
                [dyn if d is None else d for d in t.shape],
                [dyn if s is None else s for s in t.strides],
                _PTR_ATTR[t.ptr_attr],
            )
        if isinstance(t, PartitionViewType):
            return tt.partition_view(
                t.tile_shape, self.ty(t.tensor_view), t.dim_map, _PADDING[t.padding]
            )
        if isinstance(t, StridedViewType):
            return tt.strided_view(
                t.tile_shape,
                t.traversal_strides,
                self.ty(t.tensor_view),
                t.dim_map,
                _PADDING[t.padding],
            )
        if isinstance(t, GatherScatterViewType):
            return tt.gather_scatter_view(
                t.tile_shape, self.ty(t.tensor_view), t.sparse_dim, _PADDING[t.padding]
            )
        raise TypeError(f"oracle cannot write type {t!r}")

    def v(self, value):
        return self.values[value.id]

    def vs(self, values):
        return [self.values[v.id] for v in values]

    def opt(self, values):
        return self.values[values[0].id] if values else None

    def bind(self, ours, theirs):
        if theirs is None:
            theirs = ()
        if not isinstance(theirs, (tuple, list)):
            theirs = (theirs,)
        assert len(ours) == len(theirs), (ours, theirs)
        for a, b in zip(ours, theirs):
            self.values[a.id] = b


def _a(op: Op, name: str, kind: Optional[str] = None):
    value = attr_of(op, name)
    if kind is None:
        for n, k, _d in SIGNATURES[op.name].attrs:
            if n == name:
                kind = k
    if kind is not None and kind.startswith("enum:"):
        return _enum(kind, value)
    return value


def _rt(ctx, op):
    return ctx.ty(op.results[0].type)


def _unary(fn):
    return lambda ctx, op, g: fn(ctx.cb, _rt(ctx, op), ctx.v(op.operands[0]))


def _binary(fn):
    return lambda ctx, op, g: fn(ctx.cb, _rt(ctx, op), *ctx.vs(op.operands))


def _farith(fn):
    return lambda ctx, op, g: fn(
        ctx.cb,
        _rt(ctx, op),
        *ctx.vs(op.operands),
        _a(op, "rounding"),
        attr_of(op, "flush_to_zero"),
    )


def _iarith(fn, attr):
    return lambda ctx, op, g: fn(ctx.cb, _rt(ctx, op), *ctx.vs(op.operands), _a(op, attr))


def _region_op(ctx, op, builder):
    for region in op.regions:
        with builder.new_block([ctx.ty(a.type) for a in region.args]) as args:
            ctx.bind(region.args, args)
            _emit_block(ctx, region)
    return builder.done()


def _identities(ctx, op):
    return [_TaggedScalar(ctx.ty(s.format), s.format, s.bits) for s in attr_of(op, "identities")]


def _w_for(ctx, op, g):
    nb = E.encode_ForOp(
        ctx.cb,
        [ctx.ty(r.type) for r in op.results],
        ctx.v(g["lower"][0]),
        ctx.v(g["upper"][0]),
        ctx.v(g["step"][0]),
        ctx.vs(g["init"]),
        attr_of(op, "unsigned_cmp"),
    )
    return _region_op(ctx, op, nb)


def _w_loop(ctx, op, g):
    nb = E.encode_LoopOp(ctx.cb, [ctx.ty(r.type) for r in op.results], ctx.vs(g["init"]))
    return _region_op(ctx, op, nb)


def _w_if(ctx, op, g):
    nb = E.encode_IfOp(ctx.cb, [ctx.ty(r.type) for r in op.results], ctx.v(g["condition"][0]))
    return _region_op(ctx, op, nb)


def _w_reduce(ctx, op, g):
    nb = E.encode_ReduceOp(
        ctx.cb,
        [ctx.ty(r.type) for r in op.results],
        ctx.vs(op.operands),
        attr_of(op, "dim"),
        _identities(ctx, op),
    )
    return _region_op(ctx, op, nb)


def _w_scan(ctx, op, g):
    nb = E.encode_ScanOp(
        ctx.cb,
        [ctx.ty(r.type) for r in op.results],
        ctx.vs(op.operands),
        attr_of(op, "dim"),
        attr_of(op, "reverse"),
        _identities(ctx, op),
    )
    return _region_op(ctx, op, nb)


def _w_load_view(ctx, op, g):
    return E.encode_LoadViewTkoOp(
        ctx.cb,
        ctx.ty(op.results[0].type),
        ctx.ty(op.results[1].type),
        ctx.v(g["view"][0]),
        ctx.vs(g["index"]),
        ctx.opt(g["token"]),
        _a(op, "memory_ordering"),
        _a(op, "memory_scope"),
        _hints(attr_of(op, "optimization_hints")),
        attr_of(op, "inbounds") or [False] * len(g["index"]),
    )


def _w_store_view(ctx, op, g):
    return E.encode_StoreViewTkoOp(
        ctx.cb,
        ctx.ty(op.results[0].type),
        ctx.v(g["tile"][0]),
        ctx.v(g["view"][0]),
        ctx.vs(g["index"]),
        ctx.opt(g["token"]),
        _a(op, "memory_ordering"),
        _a(op, "memory_scope"),
        _hints(attr_of(op, "optimization_hints")),
        attr_of(op, "inbounds") or [False] * len(g["index"]),
    )


def _w_load_ptr(ctx, op, g):
    return E.encode_LoadPtrTkoOp(
        ctx.cb,
        ctx.ty(op.results[0].type),
        ctx.ty(op.results[1].type),
        ctx.v(g["pointers"][0]),
        ctx.opt(g["mask"]),
        ctx.opt(g["padding"]),
        ctx.opt(g["token"]),
        _a(op, "memory_ordering"),
        _a(op, "memory_scope"),
        _hints(attr_of(op, "optimization_hints")),
    )


def _w_store_ptr(ctx, op, g):
    return E.encode_StorePtrTkoOp(
        ctx.cb,
        ctx.ty(op.results[0].type),
        ctx.v(g["pointers"][0]),
        ctx.v(g["value"][0]),
        ctx.opt(g["mask"]),
        ctx.opt(g["token"]),
        _a(op, "memory_ordering"),
        _a(op, "memory_scope"),
        _hints(attr_of(op, "optimization_hints")),
    )


def _w_rmw(ctx, op, g):
    return E.encode_AtomicRMWTkoOp(
        ctx.cb,
        ctx.ty(op.results[0].type),
        ctx.ty(op.results[1].type),
        ctx.v(g["pointers"][0]),
        ctx.v(g["arg"][0]),
        ctx.opt(g["mask"]),
        ctx.opt(g["token"]),
        _a(op, "memory_ordering"),
        _a(op, "memory_scope"),
        _a(op, "mode"),
    )


def _w_cas(ctx, op, g):
    return E.encode_AtomicCASTkoOp(
        ctx.cb,
        ctx.ty(op.results[0].type),
        ctx.ty(op.results[1].type),
        ctx.v(g["pointers"][0]),
        ctx.v(g["cmp"][0]),
        ctx.v(g["val"][0]),
        ctx.opt(g["mask"]),
        ctx.opt(g["token"]),
        _a(op, "memory_ordering"),
        _a(op, "memory_scope"),
    )


def _w_red_view(ctx, op, g):
    return E.encode_AtomicRedViewTkoOp(
        ctx.cb,
        ctx.ty(op.results[0].type),
        ctx.v(g["view"][0]),
        ctx.vs(g["index"]),
        ctx.v(g["value"][0]),
        ctx.opt(g["token"]),
        _a(op, "memory_ordering"),
        _a(op, "memory_scope"),
        _a(op, "mode"),
        attr_of(op, "inbounds") or [False] * len(g["index"]),
    )


def _w_multimem_load_reduce(ctx, op, g):
    return E.encode_MultimemLoadReduceViewTkoOp(
        ctx.cb,
        ctx.ty(op.results[0].type),
        ctx.ty(op.results[1].type),
        ctx.v(g["view"][0]),
        ctx.vs(g["index"]),
        ctx.opt(g["token"]),
        _a(op, "memory_ordering"),
        _a(op, "memory_scope"),
        _a(op, "reduction"),
        attr_of(op, "inbounds") or [False] * len(g["index"]),
    )


def _w_multimem_reduce(ctx, op, g):
    return E.encode_MultimemReduceViewTkoOp(
        ctx.cb,
        ctx.ty(op.results[0].type),
        ctx.v(g["view"][0]),
        ctx.v(g["value"][0]),
        ctx.vs(g["index"]),
        ctx.opt(g["token"]),
        _a(op, "memory_ordering"),
        _a(op, "memory_scope"),
        _a(op, "reduction"),
        attr_of(op, "inbounds") or [False] * len(g["index"]),
    )


def _w_multimem_store(ctx, op, g):
    return E.encode_MultimemStoreViewTkoOp(
        ctx.cb,
        ctx.ty(op.results[0].type),
        ctx.v(g["view"][0]),
        ctx.v(g["value"][0]),
        ctx.vs(g["index"]),
        ctx.opt(g["token"]),
        _a(op, "memory_ordering"),
        _a(op, "memory_scope"),
        attr_of(op, "inbounds") or [False] * len(g["index"]),
    )


def _w_print(ctx, op, g):
    token_type = ctx.ty(op.results[0].type) if op.results else None
    return E.encode_PrintTkoOp(
        ctx.cb, token_type, ctx.vs(g["args"]), ctx.opt(g["token"]), attr_of(op, "format")
    )


def _w_terminator(fn):
    return lambda ctx, op, g: fn(ctx.cb, ctx.vs(op.operands))


WRITERS: dict[str, Callable] = {
    "make_tensor_view": lambda ctx, op, g: E.encode_MakeTensorViewOp(
        ctx.cb, _rt(ctx, op), ctx.v(g["base"][0]), ctx.vs(g["shape"]), ctx.vs(g["strides"])
    ),
    "make_partition_view": _unary(E.encode_MakePartitionViewOp),
    "make_strided_view": _unary(E.encode_MakeStridedViewOp),
    "make_gather_scatter_view": _unary(E.encode_MakeGatherScatterViewOp),
    "get_tensor_shape": lambda ctx, op, g: E.encode_GetTensorShapeOp(
        ctx.cb, [ctx.ty(r.type) for r in op.results], ctx.v(op.operands[0])
    ),
    "get_index_space_shape": lambda ctx, op, g: E.encode_GetIndexSpaceShapeOp(
        ctx.cb, [ctx.ty(r.type) for r in op.results], ctx.v(op.operands[0])
    ),
    "load_view_tko": _w_load_view,
    "store_view_tko": _w_store_view,
    "load_ptr_tko": _w_load_ptr,
    "store_ptr_tko": _w_store_ptr,
    "offset": _binary(E.encode_OffsetOp),
    "alloca": lambda ctx, op, g: E.encode_AllocaOp(
        ctx.cb,
        _rt(ctx, op),
        attr_of(op, "num_elem"),
        attr_of(op, "alignment"),
        attr_of(op, "global_"),
    ),
    "addf": _farith(E.encode_AddFOp),
    "subf": _farith(E.encode_SubFOp),
    "mulf": _farith(E.encode_MulFOp),
    "divf": _farith(E.encode_DivFOp),
    "fma": _farith(E.encode_FmaOp),
    "remf": _binary(E.encode_RemFOp),
    "negf": _unary(E.encode_NegFOp),
    "absf": _unary(E.encode_AbsFOp),
    "maxf": lambda ctx, op, g: E.encode_MaxFOp(
        ctx.cb,
        _rt(ctx, op),
        *ctx.vs(op.operands),
        attr_of(op, "propagate_nan"),
        attr_of(op, "flush_to_zero"),
    ),
    "minf": lambda ctx, op, g: E.encode_MinFOp(
        ctx.cb,
        _rt(ctx, op),
        *ctx.vs(op.operands),
        attr_of(op, "propagate_nan"),
        attr_of(op, "flush_to_zero"),
    ),
    "mmaf": lambda ctx, op, g: E.encode_MmaFOp(
        ctx.cb, _rt(ctx, op), *ctx.vs(op.operands), attr_of(op, "fast_acc")
    ),
    "mmaf_scaled": _binary(E.encode_MmaFScaledOp),
    "addi": _iarith(E.encode_AddIOp, "overflow"),
    "subi": _iarith(E.encode_SubIOp, "overflow"),
    "muli": _iarith(E.encode_MulIOp, "overflow"),
    "shli": _iarith(E.encode_ShLIOp, "overflow"),
    "shri": _iarith(E.encode_ShRIOp, "signedness"),
    "divi": lambda ctx, op, g: E.encode_DivIOp(
        ctx.cb, _rt(ctx, op), *ctx.vs(op.operands), _a(op, "signedness"), _a(op, "rounding")
    ),
    "remi": _iarith(E.encode_RemIOp, "signedness"),
    "mulhii": _binary(E.encode_MulhiIOp),
    "maxi": _iarith(E.encode_MaxIOp, "signedness"),
    "mini": _iarith(E.encode_MinIOp, "signedness"),
    "negi": _iarith(E.encode_NegIOp, "overflow"),
    "absi": _unary(E.encode_AbsIOp),
    "andi": _binary(E.encode_AndIOp),
    "ori": _binary(E.encode_OrIOp),
    "xori": _binary(E.encode_XOrIOp),
    "mmai": lambda ctx, op, g: E.encode_MmaIOp(
        ctx.cb,
        _rt(ctx, op),
        *ctx.vs(op.operands),
        _a(op, "signedness_lhs"),
        _a(op, "signedness_rhs"),
    ),
    "exp": _iarith(E.encode_ExpOp, "rounding"),
    "exp2": lambda ctx, op, g: E.encode_Exp2Op(
        ctx.cb, _rt(ctx, op), ctx.v(op.operands[0]), attr_of(op, "flush_to_zero")
    ),
    "log": _unary(E.encode_LogOp),
    "log2": _unary(E.encode_Log2Op),
    "sqrt": _farith(E.encode_SqrtOp),
    "rsqrt": lambda ctx, op, g: E.encode_RsqrtOp(
        ctx.cb, _rt(ctx, op), ctx.v(op.operands[0]), attr_of(op, "flush_to_zero")
    ),
    "sin": _unary(E.encode_SinOp),
    "cos": _unary(E.encode_CosOp),
    "tan": _unary(E.encode_TanOp),
    "sinh": _unary(E.encode_SinHOp),
    "cosh": _unary(E.encode_CosHOp),
    "tanh": _iarith(E.encode_TanHOp, "rounding"),
    "atan2": _binary(E.encode_Atan2Op),
    "fpowf": _binary(E.encode_FPowFOp),
    "fpowi": _binary(E.encode_FPowIOp),
    "ceil": _unary(E.encode_CeilOp),
    "floor": _unary(E.encode_FloorOp),
    "cmpf": lambda ctx, op, g: E.encode_CmpFOp(
        ctx.cb,
        _rt(ctx, op),
        *ctx.vs(op.operands),
        _a(op, "comparison_predicate"),
        _a(op, "comparison_ordering"),
    ),
    "cmpi": lambda ctx, op, g: E.encode_CmpIOp(
        ctx.cb,
        _rt(ctx, op),
        *ctx.vs(op.operands),
        _a(op, "comparison_predicate"),
        _a(op, "signedness"),
    ),
    "select": _binary(E.encode_SelectOp),
    "ftof": _iarith(E.encode_FToFOp, "rounding"),
    "ftoi": lambda ctx, op, g: E.encode_FToIOp(
        ctx.cb,
        _rt(ctx, op),
        ctx.v(op.operands[0]),
        _a(op, "signedness"),
        _a(op, "rounding"),
        attr_of(op, "saturating"),
    ),
    "itof": lambda ctx, op, g: E.encode_IToFOp(
        ctx.cb, _rt(ctx, op), ctx.v(op.operands[0]), _a(op, "signedness"), _a(op, "rounding")
    ),
    "exti": _iarith(E.encode_ExtIOp, "signedness"),
    "trunci": _iarith(E.encode_TruncIOp, "overflow"),
    "bitcast": _unary(E.encode_BitcastOp),
    "int_to_ptr": _unary(E.encode_IntToPtrOp),
    "ptr_to_int": _unary(E.encode_PtrToIntOp),
    "ptr_to_ptr": _unary(E.encode_PtrToPtrOp),
    "pack": _unary(E.encode_PackOp),
    "unpack": _unary(E.encode_UnpackOp),
    "reduce": _w_reduce,
    "scan": _w_scan,
    "constant": lambda ctx, op, g: E.encode_ConstantOp(
        ctx.cb, _rt(ctx, op), attr_of(op, "value").data
    ),
    "iota": lambda ctx, op, g: E.encode_IotaOp(ctx.cb, _rt(ctx, op)),
    "broadcast": _unary(E.encode_BroadcastOp),
    "reshape": _unary(E.encode_ReshapeOp),
    "permute": lambda ctx, op, g: E.encode_PermuteOp(
        ctx.cb, _rt(ctx, op), ctx.v(op.operands[0]), attr_of(op, "permutation")
    ),
    "cat": lambda ctx, op, g: E.encode_CatOp(
        ctx.cb, _rt(ctx, op), *ctx.vs(op.operands), attr_of(op, "dim")
    ),
    "extract": lambda ctx, op, g: E.encode_ExtractOp(
        ctx.cb, _rt(ctx, op), ctx.v(g["source"][0]), ctx.vs(g["indices"])
    ),
    "insert": lambda ctx, op, g: E.encode_InsertOp(
        ctx.cb,
        _rt(ctx, op),
        ctx.v(g["source"][0]),
        ctx.v(g["destination"][0]),
        ctx.vs(g["indices"]),
    ),
    "for": _w_for,
    "loop": _w_loop,
    "if": _w_if,
    "continue": _w_terminator(E.encode_ContinueOp),
    "break": _w_terminator(E.encode_BreakOp),
    "yield": _w_terminator(E.encode_YieldOp),
    "return": _w_terminator(E.encode_ReturnOp),
    "assert": lambda ctx, op, g: E.encode_AssertOp(
        ctx.cb, ctx.v(op.operands[0]), attr_of(op, "message")
    ),
    "atomic_rmw_tko": _w_rmw,
    "atomic_cas_tko": _w_cas,
    "atomic_red_view_tko": _w_red_view,
    "multimem_load_reduce_view_tko": _w_multimem_load_reduce,
    "multimem_reduce_view_tko": _w_multimem_reduce,
    "multimem_store_view_tko": _w_multimem_store,
    "assume": lambda ctx, op, g: E.encode_AssumeOp(
        ctx.cb, _rt(ctx, op), ctx.v(op.operands[0]), _predicate(attr_of(op, "predicate"))
    ),
    "print_tko": _w_print,
    "make_token": lambda ctx, op, g: E.encode_MakeTokenOp(ctx.cb, _rt(ctx, op)),
    "join_tokens": lambda ctx, op, g: E.encode_JoinTokensOp(
        ctx.cb, _rt(ctx, op), ctx.vs(op.operands)
    ),
    "get_tile_block_id": lambda ctx, op, g: E.encode_GetTileBlockIdOp(
        ctx.cb, *[ctx.ty(r.type) for r in op.results]
    ),
    "get_num_tile_blocks": lambda ctx, op, g: E.encode_GetNumTileBlocksOp(
        ctx.cb, *[ctx.ty(r.type) for r in op.results]
    ),
    "get_global": lambda ctx, op, g: E.encode_GetGlobalOp(
        ctx.cb, _rt(ctx, op), attr_of(op, "name")
    ),
    "gdc_wait_tko": lambda ctx, op, g: E.encode_GdcWaitTkoOp(
        ctx.cb, _rt(ctx, op), ctx.opt(g["token"])
    ),
    "gdc_launch_dependents_tko": lambda ctx, op, g: E.encode_GdcLaunchDependentsTkoOp(
        ctx.cb, _rt(ctx, op), ctx.opt(g["token"])
    ),
    "memory_fence_alias_tko": _unary(E.encode_MemoryFenceAliasTkoOp),
}


class _Debug:
    """Debug attributes of Locs, in tileir's convention (tileir/encode/debuginfo.py): one
    DISubprogram per function, anchored at the function's loc or else its first op loc in
    pre-order (file, line, name = linkage name = the entry's name); each op's loc a DILoc in
    it; the function itself located at the anchor."""

    def __init__(self, table, fn: Function):
        self.table = table
        self.subprogram = None
        self.anchor = fn.loc or next((op.loc for op in walk(fn.body) if op.loc), None)
        if self.anchor is not None:
            directory, base = os.path.split(self.anchor.file)
            file_attr = table.file(base, directory)
            cu = table.compile_unit(file_attr)
            self.subprogram = table.subprogram(
                file=file_attr,
                line=self.anchor.line,
                name=fn.name,
                linkage_name=fn.name,
                compile_unit=cu,
                scope_line=self.anchor.line,
            )

    def attr(self, loc):
        if loc is None or self.subprogram is None:
            return bc.MISSING_DEBUG_ATTR_ID
        return self.table.loc(self.subprogram, loc.file, loc.line, loc.column)


def _emit_block(ctx: _Ctx, block) -> None:
    for op in block.ops:
        writer = WRITERS[op.name]
        with ctx.cb.debug_attr(ctx.debug.attr(op.loc)):
            produced = writer(ctx, op, operand_groups(op))
        ctx.bind(op.results, produced)


def _default_version(module: Module) -> str:
    # 13.4 as before, unless the module needs 13.5 (the multimem ops, unicast / multicast)
    from tileir.encode.versions import required_version

    return "13.5" if required_version(module) >= (13, 5) else "13.4"


def oracle_bytes(module: Module, version: Optional[str] = None) -> bytes:
    """``module`` written as bytecode of ``version`` by cuTile's writer (globals, producer and
    source locations included)."""
    ver = _VERSIONS[version or _default_version(module)]
    buf = bytearray()
    with bc.write_bytecode(len(module.functions), buf, ver) as w:
        for g in module.globals:
            ty = _Ctx(w, None, None).ty(g.value.type)
            w.global_section.define_global(
                g.name,
                ty,
                g.value.data,
                g.alignment,
                g.constant,
                E.SymbolVisibility.Private
                if g.visibility == "private"
                else E.SymbolVisibility.Public,
            )
        for fn in module.functions:
            _write_function(w, fn)
        producer_id = None
        if module.producer is not None:
            producer_id = w._string_table[module.producer.encode()].string_id
    if producer_id is not None:
        # cuTile writes no Producer section (id 7, 13.3+); put one before the end marker
        assert buf[-1] == 0
        payload = bytearray()
        encode_varint(producer_id, payload)
        tail = bytearray([0x07])
        encode_varint(len(payload), tail)
        buf[-1:] = tail + payload + b"\x00"
    return bytes(buf)


def _write_function(w: bc.BytecodeWriter, fn: Function) -> None:
    pre = _Ctx(w, None, None)
    param_types = [pre.ty(p.type) for p in fn.params]
    hints = {} if fn.hints is None else {a: _DictHints(items) for a, items in fn.hints.by_arch}
    debug = _Debug(w.debug_attr_table, fn)
    with w.function(
        name=fn.name,
        parameter_types=param_types,
        result_types=(),
        entry_point=True,
        hints=hints,
        debug_attr=debug.attr(debug.anchor),
    ) as (cb, params):
        ctx = _Ctx(w, cb, debug)
        ctx.bind(fn.params, params)
        _emit_block(ctx, fn.body)


def oracle_text(module: Module, version: Optional[str] = None, debug_info: bool = False) -> str:
    """What ``tileirdisasm`` prints for ``module`` written by cuTile's writer."""
    return disassemble(oracle_bytes(module, version), debug_info=debug_info)
