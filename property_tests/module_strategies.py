"""Hypothesis strategies that draw random well-formed Modules of ``cuda_tile`` ops.

:func:`modules` draws a Module of one or two entry functions whose bodies mix
element-wise float and integer ops, math, comparisons and ``select``,
conversions, shape ops, constants (splat and not, in many formats), reductions
and scans with their combining regions, ``for`` / ``if`` / ``loop`` with nested
regions (``break`` inside an ``if`` inside a ``loop`` too), loads and stores
through tensor and partition views with tokens, and pointer loads, stores and
atomics.  Every op is well-typed (shapes are powers of two, formats fit the
op, rounding modes are legal), so ``tileirdisasm`` (which runs the dialect's
verifier) accepts what is drawn.

Draws are deliberately not canonical, so canonicalization is tested too:
value ids are shuffled (parameters stay ``0 .. P-1``), default attribute
values are sometimes spelled out, and ops sometimes carry a source ``Loc``.
Some draws use what later bytecode versions added (``atan2`` 13.2, ``exp``
rounding 13.3, ``fpowi`` 13.4, ...), so ``required_version`` varies.

>>> from hypothesis import given
>>> @given(modules())
... def test_something(m):
...     assert m.functions
"""

from __future__ import annotations

from typing import Callable, Optional

import attrs
import numpy as np
from hypothesis import strategies as st

from tileir.encode.build import FunctionBuilder
from tileir.module import (Block, Bounded, DivBy, Function, Global, Hints, Loc, Module, Op,
                           SameElements, Scalar, Value)
from tileir.numerics import dense_of
from tileir.types import (BF16, F16, F32, F64, F8E4M3FN, F8E5M2, F8E8M0FNU, I1, I8, I16, I32, I64,
                          TOKEN, Format, PartitionViewType, PointerType, TensorViewType,
                          TileType)

__all__ = ["modules", "functions", "SHAPES", "FLOATS", "INTS"]

#: Tile shapes drawn (every dim a power of two).
SHAPES = ((), (4,), (2, 4))
FLOATS = (F16, BF16, F32, F64)
INTS = (I8, I16, I32, I64)
_MATH_FLOATS = (F32, F64)
_CONST_ONLY = (F8E4M3FN, F8E5M2, F8E8M0FNU)
S32, S1 = TileType((), I32), TileType((), I1)
_IEEE = ("nearest_even", "zero", "negative_inf", "positive_inf")


def _is_float(t) -> bool:
    return isinstance(t, TileType) and isinstance(t.element, Format) and t.element in FLOATS


def _is_int(t) -> bool:
    return isinstance(t, TileType) and isinstance(t.element, Format) and t.element in INTS


class _Drawer:
    """What one function's drawing needs: the builder and the values in scope per block."""

    def __init__(self, draw, b: FunctionBuilder, depth: int, fn_name: str) -> None:
        self.draw, self.b, self.depth, self.fn = draw, b, depth, fn_name
        self.scopes: list[list[Value]] = [list(b.params)]
        self.line = 10

    def add(self, *values) -> None:
        for v in values:
            if isinstance(v, Value):
                self.scopes[-1].append(v)

    def values(self, pred: Callable) -> list[Value]:
        return [v for scope in self.scopes for v in scope if pred(v.type)]

    def pick(self, pred: Callable) -> Optional[Value]:
        found = self.values(pred)
        return self.draw(st.sampled_from(found)) if found else None

    def loc(self) -> Optional[Loc]:
        self.line += 1
        if self.draw(st.booleans()):
            return Loc("/kern/drawn.py", self.line, self.draw(st.integers(0, 40)), self.fn)
        return None

    def op(self, name, operands, result_types, **attrs):
        out = self.b.op(name, operands, result_types, loc=self.loc(), **attrs)
        self.add(*(out if isinstance(out, tuple) else (out,)))
        return out

    def maybe(self, value, default=None):
        """``value``, or the default spelled out or left out (canonicalization fodder)."""
        return self.draw(st.sampled_from([value, None])) if value == default else value

    def attrs(self, **pairs):
        """Keyword attrs with None values dropped."""
        return {k: v for k, v in pairs.items() if v is not None}

    def const(self, t: TileType) -> Value:
        fmt = t.element
        n = t.size if t.size <= 8 else 1  # big tiles are splats (keeps draws small)
        if fmt == I1:
            values = self.draw(st.lists(st.booleans(), min_size=n, max_size=n))
        elif fmt.is_int:
            lo, hi = -(1 << (fmt.bits - 1)), (1 << (fmt.bits - 1)) - 1
            values = self.draw(st.lists(st.integers(lo, hi), min_size=n, max_size=n))
        else:
            finite = st.sampled_from([0.0, -0.0, 1.0, -1.5, 0.25, 3.0, 448.0])
            extra = st.sampled_from([float("inf"), float("-inf"), float("nan")])
            pool = finite if fmt in (F8E4M3FN, F8E8M0FNU) else finite | extra
            if fmt == F8E8M0FNU:
                pool = st.sampled_from([1.0, 2.0, 0.5, 4.0])
            values = self.draw(st.lists(pool, min_size=n, max_size=n))
        arr = np.array(values).reshape(t.shape) if t.shape and n == t.size else values[0]
        if self.draw(st.booleans()):
            arr = values[0]  # a splat
        return self.op("constant", [], [t], value=dense_of(t, arr))

    def of_type(self, t) -> Value:
        """A value of type ``t``: one in scope or a new constant."""
        v = self.pick(lambda u: u == t)
        return v if v is not None and self.draw(st.booleans()) else self.const(t)


# ----------------------------------------------------------------------------- op drawers


def _float_binary(d: _Drawer) -> None:
    x = d.pick(_is_float) or d.const(TileType(d.draw(st.sampled_from(SHAPES)), F32))
    y = d.of_type(x.type)
    fmt = x.type.element
    names = ["addf", "subf", "mulf", "divf", "remf", "maxf", "minf", "fpowf", "atan2"]
    if fmt not in _MATH_FLOATS:
        names = ["addf", "subf", "mulf", "maxf", "minf"]
    name = d.draw(st.sampled_from(names))
    ftz = fmt == F32 and d.draw(st.booleans()) or None
    extra = {}
    if name in ("addf", "subf", "mulf", "divf"):
        modes = _IEEE + (("approx", "full") if name == "divf" and fmt == F32 else ())
        extra = d.attrs(rounding=d.maybe(d.draw(st.sampled_from(modes)), "nearest_even"),
                        flush_to_zero=ftz)
    elif name in ("maxf", "minf"):
        extra = d.attrs(propagate_nan=d.draw(st.booleans()) or None, flush_to_zero=ftz)
    d.op(name, [x, y], [x.type], **extra)


def _float_unary(d: _Drawer) -> None:
    x = d.pick(lambda t: _is_float(t) and t.element in _MATH_FLOATS)
    x = x or d.const(TileType(d.draw(st.sampled_from(SHAPES)), F32))
    f32 = x.type.element == F32
    name = d.draw(st.sampled_from(["negf", "absf", "exp", "exp2", "log", "log2", "sqrt",
                                   "rsqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh",
                                   "ceil", "floor", "fma", "fpowi"]))
    extra, operands = {}, [x]
    if name in ("exp", "tanh") and f32:
        extra = d.attrs(rounding=d.maybe(d.draw(st.sampled_from(["full", "approx"])), "full"))
    elif name in ("exp2", "rsqrt") and f32:
        extra = d.attrs(flush_to_zero=d.draw(st.booleans()) or None)
    elif name == "sqrt":
        extra = d.attrs(rounding=d.draw(st.sampled_from(_IEEE + (("approx",) if f32 else ()))),
                        flush_to_zero=f32 and d.draw(st.booleans()) or None)
    elif name == "fma":
        operands = [x, d.of_type(x.type), d.of_type(x.type)]
    elif name == "fpowi":
        operands = [x, d.of_type(TileType(x.type.shape, I32))]
    d.op(name, operands, [x.type], **extra)


def _int_op(d: _Drawer) -> None:
    x = d.pick(_is_int) or d.const(TileType(d.draw(st.sampled_from(SHAPES)), I32))
    name = d.draw(st.sampled_from(["addi", "subi", "muli", "shli", "shri", "divi", "remi",
                                   "mulhii", "maxi", "mini", "andi", "ori", "xori", "negi",
                                   "absi"]))
    sign = d.maybe(d.draw(st.sampled_from(["signed", "unsigned"])), "signed")
    ovf = d.maybe(d.draw(st.sampled_from(["none", "no_signed_wrap", "no_unsigned_wrap",
                                          "no_wrap"])), "none")
    extra = {}
    if name in ("addi", "subi", "muli", "shli"):
        extra = d.attrs(overflow=ovf)
    elif name == "negi":  # negation only knows signed wrap
        extra = d.attrs(overflow=d.maybe(d.draw(st.sampled_from(["none", "no_signed_wrap"])),
                                          "none"))
    elif name in ("shri", "remi", "maxi", "mini"):
        extra = d.attrs(signedness=sign)
    elif name == "divi":
        modes = ["zero", "positive_inf"] + (["negative_inf"] if sign != "unsigned" else [])
        extra = d.attrs(signedness=sign, rounding=d.maybe(d.draw(st.sampled_from(modes)), "zero"))
    operands = [x] if name in ("negi", "absi") else [x, d.of_type(x.type)]
    d.op(name, operands, [x.type], **extra)


def _compare_select(d: _Drawer) -> None:
    x = d.pick(lambda t: _is_float(t) or _is_int(t))
    x = x or d.const(TileType(d.draw(st.sampled_from(SHAPES)), I32))
    y = d.of_type(x.type)
    pred = d.draw(st.sampled_from(["equal", "not_equal", "less_than", "less_than_or_equal",
                                   "greater_than", "greater_than_or_equal"]))
    cond_t = TileType(x.type.shape, I1)
    if _is_float(x.type):
        order = d.maybe(d.draw(st.sampled_from(["ordered", "unordered"])), "ordered")
        c = d.op("cmpf", [x, y], [cond_t], **d.attrs(comparison_predicate=pred,
                                                      comparison_ordering=order))
    else:
        c = d.op("cmpi", [x, y], [cond_t], comparison_predicate=pred,
                 signedness=d.draw(st.sampled_from(["signed", "unsigned"])))
    if d.draw(st.booleans()):
        d.op("select", [c, x, y], [x.type])


def _convert(d: _Drawer) -> None:
    x = d.pick(lambda t: _is_float(t) or _is_int(t))
    x = x or d.const(TileType(d.draw(st.sampled_from(SHAPES)), F32))
    fmt, shape = x.type.element, x.type.shape
    sign = d.draw(st.sampled_from(["signed", "unsigned"]))
    if fmt in FLOATS:
        choice = d.draw(st.sampled_from(["ftof", "ftoi", "bitcast"]))
        if choice == "ftof":
            to = d.draw(st.sampled_from([f for f in FLOATS if f != fmt]))
            d.op("ftof", [x], [TileType(shape, to)])
        elif choice == "ftoi":
            sat = d.draw(st.booleans()) or None
            d.op("ftoi", [x], [TileType(shape, d.draw(st.sampled_from(INTS)))],
                 **d.attrs(signedness=sign, saturating=sat))
        else:
            to = {16: I16, 32: I32, 64: I64}[fmt.bits]
            d.op("bitcast", [x], [TileType(shape, to)])
    else:
        choice = d.draw(st.sampled_from(["itof", "exti", "trunci"]))
        if choice == "itof":
            d.op("itof", [x], [TileType(shape, d.draw(st.sampled_from(FLOATS)))],
                 signedness=sign)
        elif choice == "exti" and fmt != I64:
            wider = [f for f in INTS if f.bits > fmt.bits]
            d.op("exti", [x], [TileType(shape, d.draw(st.sampled_from(wider)))],
                 signedness=sign)
        elif fmt != I8:
            narrower = [f for f in INTS if f.bits < fmt.bits]
            d.op("trunci", [x], [TileType(shape, d.draw(st.sampled_from(narrower)))])


def _mma(d: _Drawer) -> None:
    if d.draw(st.booleans()):
        a = d.of_type(TileType((16, 16), d.draw(st.sampled_from([F16, BF16]))))
        acc = d.of_type(TileType((16, 16), F32))
        d.op("mmaf", [a, d.of_type(a.type), acc], [acc.type],
             **d.attrs(fast_acc=d.draw(st.booleans()) or None))
    else:
        acc = d.of_type(TileType((16, 16), I32))
        d.op("mmai", [d.of_type(TileType((16, 32), I8)), d.of_type(TileType((32, 16), I8)), acc],
             [acc.type], signedness_lhs=d.draw(st.sampled_from(["signed", "unsigned"])),
             signedness_rhs=d.draw(st.sampled_from(["signed", "unsigned"])))


def _shape_op(d: _Drawer) -> None:
    fmt = d.draw(st.sampled_from((F32, I32, F16)))
    name = d.draw(st.sampled_from(["reshape", "permute", "broadcast", "cat", "iota",
                                   "extract", "insert", "pack"]))
    if name == "pack":  # 13.3: a tile as raw bytes and back
        raw = d.op("pack", [d.of_type(TileType((4,), F16))], [TileType((8,), I8)])
        d.op("unpack", [raw], [TileType((4,), F16)])
    elif name == "iota":
        d.op("iota", [], [TileType((d.draw(st.sampled_from([4, 8])),), I32)])
    elif name == "reshape":
        x = d.of_type(TileType((2, 4), fmt))
        d.op("reshape", [x], [TileType(d.draw(st.sampled_from([(8,), (4, 2), (1, 8)])), fmt)])
    elif name == "permute":
        d.op("permute", [d.of_type(TileType((2, 4), fmt))], [TileType((4, 2), fmt)],
             permutation=(1, 0))
    elif name == "broadcast":
        d.op("broadcast", [d.of_type(TileType((1, 4), fmt))], [TileType((2, 4), fmt)])
    elif name == "cat":
        x = d.of_type(TileType((4,), fmt))
        d.op("cat", [x, d.of_type(x.type)], [TileType((8,), fmt)], dim=0)
    else:
        big, small = d.of_type(TileType((2, 4), fmt)), TileType((1, 4), fmt)
        i, j = d.of_type(S32), d.of_type(S32)
        if name == "extract":
            d.op("extract", [big, i, j], [small])
        else:
            d.op("insert", [d.of_type(small), big, i, j], [big.type])


def _combine(d: _Drawer, fmt: Format) -> str:
    if fmt.is_float:
        return d.draw(st.sampled_from(["addf", "maxf", "minf", "mulf"]))
    return d.draw(st.sampled_from(["addi", "maxi", "mini", "andi", "ori"]))


def _reduce_scan(d: _Drawer) -> None:
    n = d.draw(st.integers(1, 2))
    shape = d.draw(st.sampled_from([(4,), (2, 4)]))
    fmts = [d.draw(st.sampled_from((F32, I32, F16, I64))) for _ in range(n)]
    xs = [d.of_type(TileType(shape, f)) for f in fmts]
    dim = d.draw(st.integers(0, len(shape) - 1))
    name = d.draw(st.sampled_from(["reduce", "scan"]))
    ops = [_combine(d, f) for f in fmts]
    idents = tuple(Scalar.of(f, d.draw(st.sampled_from([0, 1, -1]))) for f in fmts)

    def body(bb, *args):
        outs = []
        for k, (f, opname) in enumerate(zip(fmts, ops)):
            outs.append(bb.op(opname, [args[2 * k], args[2 * k + 1]], [TileType((), f)]))
        bb.op("yield", outs)

    arg_types = [TileType((), f) for f in fmts for _ in range(2)]
    out_shape = shape if name == "scan" else shape[:dim] + shape[dim + 1:]
    extra = {"reverse": d.maybe(d.draw(st.booleans()), False)} if name == "scan" else {}
    out = d.b.region_op(name, xs, [TileType(out_shape, f) for f in fmts],
                        [(arg_types, body)], dim=dim, identities=idents, loc=d.loc(),
                        **d.attrs(**extra))
    d.add(*(out if isinstance(out, tuple) else (out,)))


def _nested(d: _Drawer, args, finish: Callable) -> None:
    """Fill a nested block: a few ops (fewer the deeper we are), then ``finish()``."""
    d.scopes.append(list(args))
    d.depth -= 1
    for _ in range(d.draw(st.integers(0, 2 if d.depth > 0 else 1))):
        _any_op(d)
    finish()
    d.depth += 1
    d.scopes.pop()


def _carried(d: _Drawer) -> list[Value]:
    return [v for v in (d.pick(lambda t: isinstance(t, TileType))
                        for _ in range(d.draw(st.integers(0, 2)))) if v is not None]


def _for(d: _Drawer) -> None:
    lb, ub, step = d.of_type(S32), d.of_type(S32), d.of_type(S32)
    init = _carried(d)
    types = [v.type for v in init]

    def body(bb, iv, *iters):
        _nested(d, (iv, *iters), lambda: bb.op("continue", list(iters)))

    extra = d.attrs(unsigned_cmp=d.draw(st.booleans()) or None)
    out = d.b.region_op("for", [lb, ub, step, *init], types, [([S32, *types], body)],
                        loc=d.loc(), **extra)
    d.add(*(out if isinstance(out, tuple) else (out,)))


def _if(d: _Drawer) -> None:
    cond = d.pick(lambda t: t == S1) or d.op("cmpi", [d.of_type(S32), d.of_type(S32)], [S1],
                                             comparison_predicate="less_than",
                                             signedness="signed")
    yields = _carried(d)
    types = [v.type for v in yields]

    def branch(bb):
        _nested(d, (), lambda: bb.op("yield", list(yields)))

    out = d.b.region_op("if", [cond], types, [([], branch), ([], branch)], loc=d.loc())
    d.add(*(out if isinstance(out, tuple) else (out,)))


def _loop(d: _Drawer) -> None:
    init = _carried(d)
    types = [v.type for v in init]

    def body(bb, *iters):
        def finish():
            stop = bb.op("cmpi", [d.of_type(S32), d.of_type(S32)], [S1],
                         comparison_predicate="greater_than", signedness="signed")
            bb.region_op("if", [stop], [], [([], lambda b3: b3.op("break", list(iters))),
                                            ([], lambda b3: b3.op("yield", []))])
            bb.op("continue", list(iters))
        _nested(d, iters, finish)

    out = d.b.region_op("loop", init, types, [(types, body)], loc=d.loc())
    d.add(*(out if isinstance(out, tuple) else (out,)))


def _views(d: _Drawer) -> None:
    ptr = d.pick(lambda t: t == TileType((), PointerType(F32)))
    size = d.pick(lambda t: t == S32)
    if ptr is None or size is None:
        return
    tv_t = TensorViewType(F32, (None,), (1,))
    tv = d.op("make_tensor_view", [ptr, size], [tv_t], segments=(1, 1, 0))
    pad = d.draw(st.sampled_from([None, "zero", "nan", "neg_inf"]))
    pv = d.op("make_partition_view", [tv], [PartitionViewType((4,), tv_t, (0,), pad)])
    if d.draw(st.booleans()):
        name, view = d.draw(st.sampled_from([("get_index_space_shape", pv),
                                             ("get_tensor_shape", tv)]))
        d.op(name, [view], [S32])
    tok = d.pick(lambda t: t == TOKEN)
    idx = d.of_type(S32)
    hints = d.draw(st.sampled_from([None, Hints((("sm_90", (("latency", 3),)),)),
                                    Hints((("default", (("allow_tma", False),)),))]))
    scope = d.draw(st.sampled_from([None, "tl_blk", "device"]))
    order = "weak" if scope is None else d.draw(st.sampled_from(["relaxed", "acquire"]))
    inb = d.draw(st.sampled_from([None, (False,), (True,)]))
    x, t1 = d.op("load_view_tko", [pv, idx] + ([tok] if tok else []), [TileType((4,), F32),
                 TOKEN], segments=(1, 1, int(tok is not None)),
                 **d.attrs(memory_ordering=d.maybe(order, "weak"), memory_scope=scope,
                           optimization_hints=hints, inbounds=inb))
    x = d.op("addf", [x, d.of_type(x.type)], [x.type])
    d.op("store_view_tko", [x, pv, idx, t1], [TOKEN], segments=(1, 1, 1, 1),
         **d.attrs(memory_ordering="release" if scope else None, memory_scope=scope))


def _pointers(d: _Drawer) -> None:
    ptr = d.pick(lambda t: t == TileType((), PointerType(F32)))
    if ptr is None:
        return
    PT = TileType((4,), PointerType(F32))
    one = d.op("reshape", [ptr], [TileType((1,), PointerType(F32))])
    ptrs = d.op("offset", [d.op("broadcast", [one], [PT]), d.op("iota", [], [TileType((4,), I32)])],
                [PT])
    mask = d.pick(lambda t: t == TileType((4,), I1)) if d.draw(st.booleans()) else None
    tok = d.pick(lambda t: t == TOKEN) if d.draw(st.booleans()) else None
    pad = d.of_type(TileType((4,), F32)) if mask is not None and d.draw(st.booleans()) else None
    groups = [ptrs, mask, pad, tok]
    v, t = d.op("load_ptr_tko", [g for g in groups if g is not None],
                [TileType((4,), F32), TOKEN], segments=(1,) + tuple(int(g is not None)
                                                                     for g in groups[1:]))
    if d.draw(st.booleans()):
        as_int = d.op("ptr_to_int", [ptrs], [TileType((4,), I64)])
        ptrs = d.op("int_to_ptr", [as_int], [PT])
    which = d.draw(st.sampled_from(["store", "rmw", "cas"]))
    if which == "store":
        d.op("store_ptr_tko", [ptrs, v, t], [TOKEN], segments=(1, 1, 0, 1))
    elif which == "rmw":
        d.op("atomic_rmw_tko", [ptrs, v, t], [v.type, TOKEN], segments=(1, 1, 0, 1),
             memory_ordering="relaxed", memory_scope="device",
             mode=d.draw(st.sampled_from(["addf", "xchg"])))
    else:
        ip = d.op("ptr_to_ptr", [ptrs], [TileType((4,), PointerType(I32))])
        n = d.of_type(TileType((4,), I32))
        d.op("atomic_cas_tko", [ip, n, n, t], [n.type, TOKEN], segments=(1, 1, 1, 0, 1),
             memory_ordering="acq_rel", memory_scope="sys")


def _misc(d: _Drawer) -> None:
    name = d.draw(st.sampled_from(["token", "join", "assume", "block_id", "num_blocks",
                                   "print", "assert", "const", "gdc"]))
    if name == "token":
        d.op("make_token", [], [TOKEN])
    elif name == "gdc":  # 13.4: grid dependency control and the alias fence
        tok = d.pick(lambda t: t == TOKEN)
        tok = d.op(d.draw(st.sampled_from(["gdc_wait_tko", "gdc_launch_dependents_tko"])),
                   [tok] if tok is not None else [], [TOKEN])
        d.op("memory_fence_alias_tko", [tok], [TOKEN])
    elif name == "join":
        toks = d.values(lambda t: t == TOKEN)
        if len(toks) >= 2:  # the dialect joins two or more
            d.op("join_tokens", toks[:3], [TOKEN])
    elif name == "assume":
        x = d.of_type(S32)
        pred = d.draw(st.sampled_from([Bounded(0, None), Bounded(None, 100), Bounded(-4, 4),
                                       DivBy(8)]))
        d.op("assume", [x], [S32], predicate=pred)
        d.op("assume", [d.of_type(TileType((4,), I32))], [TileType((4,), I32)],
             predicate=d.draw(st.sampled_from([SameElements((2,)), DivBy(4, 2, 0)])))
    elif name in ("block_id", "num_blocks"):
        d.op("get_tile_block_id" if name == "block_id" else "get_num_tile_blocks", [],
             [S32, S32, S32])
    elif name == "print":
        x = d.of_type(S32)
        tok = d.pick(lambda t: t == TOKEN)
        d.op("print_tko", [x] + ([tok] if tok else []), [TOKEN],
             segments=(1, int(tok is not None)), format="x=%d\n")
    elif name == "assert":
        d.op("assert", [d.pick(lambda t: t == S1) or d.of_type(S1)], [], message="drawn")
    else:
        d.const(TileType(d.draw(st.sampled_from(SHAPES[:2])),
                         d.draw(st.sampled_from(FLOATS + INTS + (I1,) + _CONST_ONLY))))


_SIMPLE = [_float_binary, _float_unary, _int_op, _int_op, _compare_select, _convert, _shape_op,
           _misc, _mma]
_WITH_REGIONS = [_reduce_scan, _for, _if, _loop]
_MEMORY = [_views, _pointers]


def _any_op(d: _Drawer) -> None:
    pool = 2 * _SIMPLE + (_WITH_REGIONS if d.depth > 0 else []) + _MEMORY
    d.draw(st.sampled_from(pool))(d)


# ----------------------------------------------------------------------------- functions


def _shuffle_ids(draw, fn: Function) -> Function:
    """The same function with its non-parameter ids permuted (still unique)."""
    ids: list[int] = []

    def collect(block: Block) -> None:
        for op in block.ops:
            for region in op.regions:
                ids.extend(a.id for a in region.args)
                collect(region)
            ids.extend(r.id for r in op.results)

    collect(fn.body)
    new = draw(st.permutations(ids)) if ids else []
    offset = draw(st.sampled_from([0, 7, 1000]))
    mapping = {old: nid + offset for old, nid in zip(ids, new)}

    def v(x: Value) -> Value:
        return Value(mapping.get(x.id, x.id), x.type)

    def block(b: Block) -> Block:
        return Block(tuple(v(a) for a in b.args), tuple(op_(o) for o in b.ops))

    def op_(o: Op) -> Op:
        return attrs.evolve(o, operands=tuple(v(x) for x in o.operands),
                            results=tuple(v(x) for x in o.results),
                            regions=tuple(block(r) for r in o.regions))

    return attrs.evolve(fn, body=block(fn.body))


@st.composite
def functions(draw, name: str = "k", max_ops: int = 8, depth: int = 2) -> Function:
    """One random well-formed entry function (see the module docstring)."""
    params = [S32, S32] + draw(st.lists(st.sampled_from(
        [TileType((), PointerType(F32)), TileType((), F32), S1, TileType((), I64)]),
        max_size=3))
    hints = draw(st.sampled_from([None, Hints((("sm_90", (("num_cta_in_cga", 2),)),)),
                                  Hints((("default", (("occupancy", 1),)),))]))
    loc = draw(st.sampled_from([None, Loc("/kern/drawn.py", 3, 0, name)]))
    b = FunctionBuilder(name, params, hints=hints, loc=loc)
    d = _Drawer(draw, b, depth, name)
    for _ in range(draw(st.integers(1, max_ops))):
        _any_op(d)
    fn = b.finish()
    return _shuffle_ids(draw, fn) if draw(st.booleans()) else fn


@st.composite
def modules(draw, max_functions: int = 2, max_ops: int = 8) -> Module:
    """A random well-formed Module: 1..``max_functions`` entries, maybe globals and a producer."""
    n = draw(st.integers(1, max_functions))
    fns = [draw(functions(f"k{i}", max_ops)) for i in range(n)]
    globals_ = ()
    if draw(st.booleans()):
        g = Global("table", dense_of(TileType((4,), F32), [1.0, 2.0, 3.0, 4.0]),
                   alignment=draw(st.sampled_from([8, 16])), constant=draw(st.booleans()),
                   visibility=draw(st.sampled_from(["public", "private"])))
        globals_ = (g,)
        fb = FunctionBuilder("reader")
        fb.op("get_global", [], [TileType((), PointerType(F32))], name="table")
        fns.append(fb.finish())
    producer = draw(st.sampled_from([None, "tileir property tests"]))
    return Module(tuple(fns), globals_, producer)
