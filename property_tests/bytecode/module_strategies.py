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

Pointers (parameters, ``alloca``, casts, a global's address) carry 13.4's
``ptr_attr`` some of the time, consistently: a tensor view made from a pointer
carries its attribute, and ``offset`` / ``reshape`` / ``broadcast`` / ``assume``
keep the pointer type exactly (:func:`carries_ptr_attr` says whether a Module
holds one).

Draws are deliberately not canonical, so canonicalization is tested too:
value ids are shuffled (parameters stay ``0 .. P-1``), default attribute
values are sometimes spelled out, and ops sometimes carry a source ``Loc``.
Some draws use what later bytecode versions added (``atan2`` 13.2, ``exp``
rounding 13.3, ``fpowi`` and ``ptr_attr`` 13.4, ...), so ``required_version``
varies.

The op drawers live in ``draw_*`` modules (``draw_scope`` holds what they share).

>>> from hypothesis import given
>>> @given(modules())
... def test_something(m):
...     assert m.functions
"""

from __future__ import annotations

import attrs
from hypothesis import strategies as st

import draw_compute
import draw_memory
import draw_misc
import draw_regions
from draw_scope import FLOATS, INTS, PTR_ATTR_CHOICES, S1, S32, SHAPES, Drawer
from support.build import FunctionBuilder
from tileir.ir.module import Block, Function, Global, Hints, Loc, Module, Op, Value, walk
from tileir.ir.numerics import dense_of
from tileir.types import (
    F32,
    I64,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
)

__all__ = ["modules", "functions", "carries_ptr_attr", "SHAPES", "FLOATS", "INTS"]

_SIMPLE = [
    draw_compute.float_binary,
    draw_compute.float_unary,
    draw_compute.int_op,
    draw_compute.int_op,
    draw_compute.compare_select,
    draw_compute.convert,
    draw_compute.shape_op,
    draw_misc.misc,
    draw_compute.mma,
]
_WITH_REGIONS = [
    draw_regions.reduce_scan,
    draw_regions.for_op,
    draw_regions.if_op,
    draw_regions.loop_op,
]
_MEMORY = [draw_memory.views, draw_memory.pointers]


def _any_op(d: Drawer) -> None:
    pool = 2 * _SIMPLE + (_WITH_REGIONS if d.depth > 0 else []) + _MEMORY
    d.draw(st.sampled_from(pool))(d)


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
        return attrs.evolve(
            o,
            operands=tuple(v(x) for x in o.operands),
            results=tuple(v(x) for x in o.results),
            regions=tuple(block(r) for r in o.regions),
        )

    return attrs.evolve(fn, body=block(fn.body))


def _f32_pointer(draw, ptr_attrs: bool) -> TileType:
    attr = draw(st.sampled_from(PTR_ATTR_CHOICES)) if ptr_attrs else None
    return TileType((), PointerType(F32, attr))


@st.composite
def functions(
    draw, name: str = "k", max_ops: int = 8, depth: int = 2, ptr_attrs: bool = True
) -> Function:
    """One random well-formed entry function (see the module docstring); with ``ptr_attrs``
    False no pointer in it carries 13.4's ptr_attr."""
    params = [S32, S32] + draw(
        st.lists(
            st.sampled_from(["pointer", TileType((), F32), S1, TileType((), I64)]), max_size=3
        )
    )
    params = [_f32_pointer(draw, ptr_attrs) if p == "pointer" else p for p in params]
    hints = draw(
        st.sampled_from(
            [
                None,
                Hints((("sm_90", (("num_cta_in_cga", 2),)),)),
                Hints((("default", (("occupancy", 1),)),)),
            ]
        )
    )
    loc = draw(st.sampled_from([None, Loc("/kern/drawn.py", 3, 0, name)]))
    b = FunctionBuilder(name, params, hints=hints, loc=loc)
    d = Drawer(draw, b, depth, name, _any_op, ptr_attrs)
    for _ in range(draw(st.integers(1, max_ops))):
        _any_op(d)
    fn = b.finish()
    return _shuffle_ids(draw, fn) if draw(st.booleans()) else fn


@st.composite
def modules(draw, max_functions: int = 2, max_ops: int = 8) -> Module:
    """A random well-formed Module: 1..``max_functions`` entries, maybe globals and a producer."""
    n = draw(st.integers(1, max_functions))
    # ptr_attr forces 13.4: half the Modules go without, to keep the older versions covered
    ptr_attrs = draw(st.booleans())
    fns = [draw(functions(f"k{i}", max_ops, ptr_attrs=ptr_attrs)) for i in range(n)]
    globals_ = ()
    if draw(st.booleans()):
        g = Global(
            "table",
            dense_of(TileType((4,), F32), [1.0, 2.0, 3.0, 4.0]),
            alignment=draw(st.sampled_from([8, 16])),
            constant=draw(st.booleans()),
            visibility=draw(st.sampled_from(["public", "private"])),
        )
        globals_ = (g,)
        fb = FunctionBuilder("reader")
        # the global's address, with a ptr_attr or not
        fb.op("get_global", [], [_f32_pointer(draw, ptr_attrs)], name="table")
        fns.append(fb.finish())
    producer = draw(st.sampled_from([None, "tileir property tests"]))
    return Module(tuple(fns), globals_, producer)


def _has_ptr_attr(t) -> bool:
    if isinstance(t, TileType):
        t = t.element
    if isinstance(t, (PartitionViewType, StridedViewType, GatherScatterViewType)):
        t = t.tensor_view
    if isinstance(t, PointerType):
        return t.attr is not None
    return isinstance(t, TensorViewType) and t.ptr_attr is not None


def carries_ptr_attr(module: Module) -> bool:
    """Does any parameter, block argument or op result of ``module`` have a type with 13.4's
    ``ptr_attr`` (a pointer, a tensor view, or a view cut from one)?"""
    for fn in module.functions:
        values = list(fn.params)
        for op in walk(fn.body):
            values.extend(op.results)
            values.extend(a for region in op.regions for a in region.args)
        if any(_has_ptr_attr(v.type) for v in values):
            return True
    return False
