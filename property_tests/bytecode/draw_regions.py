"""Op drawers for ops with regions: ``reduce`` / ``scan`` with their combining bodies, and
``for`` / ``if`` / ``loop`` whose blocks are filled with more drawn ops (fewer the deeper
they nest), carrying values in scope through them; a ``loop`` breaks from an ``if``."""

from __future__ import annotations

from typing import Callable

from hypothesis import strategies as st

from draw_scope import S1, S32, Drawer
from tileir.ir.module import ScalarAttr, Value
from tileir.types import F16, F32, I32, I64, Format, TileType

__all__ = ["reduce_scan", "for_op", "if_op", "loop_op"]


def _combine(d: Drawer, fmt: Format) -> str:
    if fmt.is_float:
        return d.draw(st.sampled_from(["addf", "maxf", "minf", "mulf"]))
    return d.draw(st.sampled_from(["addi", "maxi", "mini", "andi", "ori"]))


def reduce_scan(d: Drawer) -> None:
    """``reduce`` or ``scan`` of one or two tiles along a dim, each with its identity."""
    n = d.draw(st.integers(1, 2))
    shape = d.draw(st.sampled_from([(4,), (2, 4)]))
    fmts = [d.draw(st.sampled_from((F32, I32, F16, I64))) for _ in range(n)]
    xs = [d.of_type(TileType(shape, f)) for f in fmts]
    dim = d.draw(st.integers(0, len(shape) - 1))
    name = d.draw(st.sampled_from(["reduce", "scan"]))
    ops = [_combine(d, f) for f in fmts]
    idents = tuple(ScalarAttr.of(f, d.draw(st.sampled_from([0, 1, -1]))) for f in fmts)

    def body(bb, *args):
        outs = []
        for k, (f, opname) in enumerate(zip(fmts, ops)):
            outs.append(bb.op(opname, [args[2 * k], args[2 * k + 1]], [TileType((), f)]))
        bb.op("yield", outs)

    arg_types = [TileType((), f) for f in fmts for _ in range(2)]
    out_shape = shape if name == "scan" else shape[:dim] + shape[dim + 1 :]
    extra = {"reverse": d.maybe(d.draw(st.booleans()), False)} if name == "scan" else {}
    out = d.b.region_op(
        name,
        xs,
        [TileType(out_shape, f) for f in fmts],
        [(arg_types, body)],
        dim=dim,
        identities=idents,
        loc=d.loc(),
        **d.attrs(**extra),
    )
    d.add_results(out)


def _nested(d: Drawer, args, finish: Callable) -> None:
    """Fill a nested block: a few ops (fewer the deeper we are), then ``finish()``."""
    d.scopes.append(list(args))
    d.depth -= 1
    for _ in range(d.draw(st.integers(0, 2 if d.depth > 0 else 1))):
        d.any_op(d)
    finish()
    d.depth += 1
    d.scopes.pop()


def _carried(d: Drawer) -> list[Value]:
    return [
        v
        for v in (
            d.pick(lambda t: isinstance(t, TileType)) for _ in range(d.draw(st.integers(0, 2)))
        )
        if v is not None
    ]


def for_op(d: Drawer) -> None:
    """A ``for`` over i32 bounds carrying 0..2 tiles in scope."""
    lb, ub, step = d.of_type(S32), d.of_type(S32), d.of_type(S32)
    init = _carried(d)
    types = [v.type for v in init]

    def body(bb, iv, *iters):
        _nested(d, (iv, *iters), lambda: bb.op("continue", list(iters)))

    extra = d.attrs(unsigned_cmp=d.draw(st.booleans()) or None)
    out = d.b.region_op(
        "for", [lb, ub, step, *init], types, [([S32, *types], body)], loc=d.loc(), **extra
    )
    d.add_results(out)


def if_op(d: Drawer) -> None:
    """An ``if`` on an i1 in scope (or a new ``cmpi``) yielding 0..2 tiles in scope."""
    cond = d.pick(lambda t: t == S1) or d.op(
        "cmpi",
        [d.of_type(S32), d.of_type(S32)],
        [S1],
        comparison_predicate="less_than",
        signedness="signed",
    )
    yields = _carried(d)
    types = [v.type for v in yields]

    def branch(bb):
        _nested(d, (), lambda: bb.op("yield", list(yields)))

    out = d.b.region_op("if", [cond], types, [([], branch), ([], branch)], loc=d.loc())
    d.add_results(out)


def loop_op(d: Drawer) -> None:
    """A ``loop`` carrying 0..2 tiles that breaks from an ``if`` at the end of its body."""
    init = _carried(d)
    types = [v.type for v in init]

    def body(bb, *iters):
        def finish():
            stop = bb.op(
                "cmpi",
                [d.of_type(S32), d.of_type(S32)],
                [S1],
                comparison_predicate="greater_than",
                signedness="signed",
            )
            bb.region_op(
                "if",
                [stop],
                [],
                [
                    ([], lambda b3: b3.op("break", list(iters))),
                    ([], lambda b3: b3.op("yield", [])),
                ],
            )
            bb.op("continue", list(iters))

        _nested(d, iters, finish)

    out = d.b.region_op("loop", init, types, [(types, body)], loc=d.loc())
    d.add_results(out)
