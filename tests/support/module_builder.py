"""A small hand builder of Modules for the interpreter's tests.

It gives fresh value ids, nests regions, and has helpers for the shapes the
lowering produces (views over parameters, view loads / stores with tokens,
``for`` loops carrying values, ``if``, reductions).

>>> fb = FunctionBuilder("k", [ptr(F32)])
>>> tok = fb.make_token()
>>> fb.ret()
>>> m = fb.module()
>>> [op.name for op in m.functions[0].body.ops]
['make_token', 'return']
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Optional, Sequence

import numpy as np

from tileir.ir.module import Block, DivBy, Function, Global, Loc, Module, Op, ScalarAttr, Value
from tileir.ir.numerics import dense_of
from tileir.types import (
    BF16,
    F16,
    F32,
    F64,
    I1,
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
    TileType,
)

__all__ = [
    "FunctionBuilder",
    "ptr",
    "tile",
    "scalar",
    "F16",
    "F32",
    "F64",
    "BF16",
    "I1",
    "I8",
    "I32",
    "I64",
]


def ptr(fmt: Format) -> TileType:
    """``tile<ptr<fmt>>``: a pointer parameter."""
    return TileType((), PointerType(fmt))


def tile(shape, fmt) -> TileType:
    return TileType(tuple(shape), fmt)


def scalar(fmt) -> TileType:
    return TileType((), fmt)


class FunctionBuilder:
    """Builds one entry function: ``op`` appends to the innermost open block."""

    def __init__(self, name: str, param_types: Sequence, file: str = "kernel.py"):
        self.name = name
        self.params = [Value(i, t) for i, t in enumerate(param_types)]
        self._next = len(self.params)
        self._blocks: list[list[Op]] = [[]]
        self._line = 0
        self.file = file
        self.globals: list[Global] = []

    # ------------------------------------------------------------------ basics

    def fresh(self, t) -> Value:
        v = Value(self._next, t)
        self._next += 1
        return v

    def op(
        self, name: str, operands=(), result_types=(), attrs=None, regions=(), segments=None
    ) -> tuple:
        self._line += 1
        results = tuple(self.fresh(t) for t in result_types)
        self._blocks[-1].append(
            Op(
                name,
                tuple(operands),
                results,
                attrs or {},
                tuple(regions),
                segments,
                loc=Loc(self.file, self._line, 1, self.name),
            )
        )
        return results

    def op1(self, name, operands, result_type, attrs=None, segments=None) -> Value:
        return self.op(name, operands, (result_type,), attrs, segments=segments)[0]

    @contextmanager
    def block(self, arg_types=()):
        """Open a nested block; yields its argument values; the Block is in ``.last_block``."""
        args = tuple(self.fresh(t) for t in arg_types)
        self._blocks.append([])
        holder = _Holder()
        try:
            yield args, holder
        finally:
            ops = self._blocks.pop()
            holder.block = Block(args, tuple(ops))

    def region(self, arg_types, body: Callable) -> Block:
        """A block whose ops ``body(*args)`` emits (it must emit the terminator)."""
        with self.block(arg_types) as (args, holder):
            body(*args)
        return holder.block

    def module(self, globals_=()) -> Module:
        assert len(self._blocks) == 1, "a block is still open"
        fn = Function(
            self.name,
            tuple(self.params),
            Block((), tuple(self._blocks[0])),
            loc=Loc(self.file, 0, 1, self.name),
        )
        return Module((fn,), tuple(self.globals) + tuple(globals_))

    # ------------------------------------------------------------------ common ops

    def const(self, value, t: TileType) -> Value:
        return self.op1("constant", (), t, {"value": dense_of(t, np.asarray(value))})

    def c32(self, v: int) -> Value:
        return self.const(v, scalar(I32))

    def make_token(self) -> Value:
        return self.op1("make_token", (), TOKEN)

    def block_id(self) -> tuple[Value, Value, Value]:
        return self.op("get_tile_block_id", (), (scalar(I32),) * 3)

    def num_blocks(self) -> tuple[Value, Value, Value]:
        return self.op("get_num_tile_blocks", (), (scalar(I32),) * 3)

    def assume_div(self, v: Value, d: int = 16) -> Value:
        return self.op1("assume", (v,), v.type, {"predicate": DivBy(d)})

    def ret(self, *vals):
        self.op("return", vals, ())

    def binop(self, name, a, b, **attrs) -> Value:
        return self.op1(name, (a, b), a.type, attrs)

    def unop(self, name, a, result_type=None, **attrs) -> Value:
        return self.op1(name, (a,), result_type or a.type, attrs)

    # ------------------------------------------------------------------ views

    def tensor_view(self, base: Value, shape, strides, dyn_shape=(), dyn_strides=()) -> Value:
        """``make_tensor_view``; ``None`` entries take the next dyn operand."""
        fmt = base.type.element.pointee
        t = TensorViewType(fmt, tuple(shape), tuple(strides))
        return self.op1(
            "make_tensor_view",
            (base, *dyn_shape, *dyn_strides),
            t,
            segments=(1, len(dyn_shape), len(dyn_strides)),
        )

    def partition(
        self, tv: Value, tile_shape, padding: Optional[str] = None, dim_map=None
    ) -> Value:
        t = PartitionViewType(
            tuple(tile_shape),
            tv.type,
            tuple(dim_map if dim_map is not None else range(len(tile_shape))),
            padding,
        )
        return self.op1("make_partition_view", (tv,), t)

    def strided(self, tv: Value, tile_shape, traversal, padding=None, dim_map=None) -> Value:
        t = StridedViewType(
            tuple(tile_shape),
            tuple(traversal),
            tv.type,
            tuple(dim_map if dim_map is not None else range(len(tile_shape))),
            padding,
        )
        return self.op1("make_strided_view", (tv,), t)

    def gather_view(self, tv: Value, tile_shape, sparse_dim: int, padding=None) -> Value:
        t = GatherScatterViewType(tuple(tile_shape), tv.type, sparse_dim, padding)
        return self.op1("make_gather_scatter_view", (tv,), t)

    def load_view(
        self, view: Value, index, token: Optional[Value] = None, ordering: str = "weak"
    ) -> tuple[Value, Value]:
        fmt = view.type.tensor_view.element
        t = tile(view.type.tile_shape, fmt)
        ops = (view, *index) + ((token,) if token is not None else ())
        return self.op(
            "load_view_tko",
            ops,
            (t, TOKEN),
            {"memory_ordering": ordering},
            segments=(1, len(index), 1 if token is not None else 0),
        )

    def store_view(self, value: Value, view: Value, index, token: Optional[Value] = None) -> Value:
        ops = (value, view, *index) + ((token,) if token is not None else ())
        return self.op1(
            "store_view_tko",
            ops,
            TOKEN,
            {"memory_ordering": "weak"},
            segments=(1, 1, len(index), 1 if token is not None else 0),
        )

    # ------------------------------------------------------------------ control flow

    def for_loop(
        self,
        lb: Value,
        ub: Value,
        step: Value,
        inits: Sequence[Value],
        body: Callable,
        unsigned_cmp: bool = False,
    ) -> tuple:
        """``for``; ``body(iv, *iters)`` returns the values to ``continue`` with."""

        def emit(iv, *iters):
            out = body(iv, *iters)
            self.op("continue", tuple(out or ()), ())

        region = self.region((lb.type, *(v.type for v in inits)), emit)
        attrs = {"unsigned_cmp": True} if unsigned_cmp else {}
        return self.op(
            "for", (lb, ub, step, *inits), tuple(v.type for v in inits), attrs, regions=(region,)
        )

    def loop(self, inits: Sequence[Value], body: Callable, result_types=None) -> tuple:
        """``loop``; ``body(*iters)`` emits its own continue / break terminators."""
        region = self.region(tuple(v.type for v in inits), body)
        types = tuple(result_types) if result_types is not None else tuple(v.type for v in inits)
        return self.op("loop", tuple(inits), types, regions=(region,))

    def if_(
        self, cond: Value, then: Callable, else_: Optional[Callable] = None, result_types=()
    ) -> tuple:
        """``if``; each callable emits its region including the terminator."""
        then_b = self.region((), then)
        else_b = self.region((), else_) if else_ is not None else Block((), ())
        return self.op("if", (cond,), tuple(result_types), regions=(then_b, else_b))

    def reduce(
        self,
        operands: Sequence[Value],
        dim: int,
        identities,
        combiner: Callable,
        scan: bool = False,
        reverse: bool = False,
    ) -> tuple:
        """``reduce`` (or ``scan``); ``combiner(*pairs)`` returns the values to yield."""
        scalars = [scalar(v.type.element) for v in operands]
        arg_types = [t for s in scalars for t in (s, s)]

        def emit(*args):
            self.op("yield", tuple(combiner(*args)), ())

        region = self.region(arg_types, emit)
        ids = tuple(ScalarAttr.of(v.type.element, i) for v, i in zip(operands, identities))
        if scan:
            results = tuple(v.type for v in operands)
            attrs = {"dim": dim, "reverse": reverse, "identities": ids}
            return self.op("scan", tuple(operands), results, attrs, regions=(region,))
        shape = list(operands[0].type.shape)
        del shape[dim]
        results = tuple(tile(shape, v.type.element) for v in operands)
        return self.op(
            "reduce", tuple(operands), results, {"dim": dim, "identities": ids}, regions=(region,)
        )

    def add_global(self, name: str, values, fmt: Format, constant: bool = False) -> None:
        arr = np.asarray(values)
        self.globals.append(Global(name, dense_of(tile((arr.size,), fmt), arr), 16, constant))


class _Holder:
    block: Optional[Block] = None
