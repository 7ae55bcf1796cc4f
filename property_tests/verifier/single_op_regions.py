"""Families of ``test_verify_vs_tileirdisasm`` for ops with regions: ``reduce`` / ``scan``
(their combiners holding other ops) and ``for`` / ``loop`` / ``if`` (carrying values,
returning from inside)."""

from __future__ import annotations

from hypothesis import strategies as st

from single_op_memory import tensor_view
from single_op_source import Src, T
from tileir.ir.module import DivBy, ScalarAttr
from tileir.ir.numerics import dense_of
from tileir.types import F16, F32, I1, I4, I8, I32, I64, TOKEN

__all__ = ["reduce", "control"]


def reduce(s: Src) -> None:
    """``reduce`` or ``scan`` whose combiner may hold another op (pure or not)."""
    name = s.draw(st.sampled_from(["reduce", "scan"]))
    shape = s.shape(((4,), (2, 4), (8,), (2, 2, 2)))
    fmts = [s.fmt((F32, I32, F16, s.fmt())) for _ in range(s.draw(st.integers(1, 2)))]
    dim = s.draw(st.integers(-1, len(shape)))
    xs = [s.tile(T(shape, f)) for f in fmts]
    idents = tuple(ScalarAttr.of(s.twist(T((), f), 0.2).element, 0) for f in fmts)
    arg_types = [s.twist(T((), f), 0.1) for f in fmts for _ in range(2)]

    inner = s.draw(
        st.sampled_from(
            [
                None,
                None,
                "make_token",
                "get_tile_block_id",
                "iota",
                "assume",
                "for",
                "loop",
                "if",
                "print_tko",
            ]
        )
    )

    def body(bb, *args):
        if inner is not None:
            _inner_op(bb, inner)
        outs = []
        for i, f in enumerate(fmts):
            combine = "addf" if args[2 * i].type.element.is_float else "addi"
            outs.append(bb.op(combine, [args[2 * i], args[2 * i + 1]], [args[2 * i].type]))
        bb.op("yield", outs)

    out = shape if name == "scan" else tuple(d for i, d in enumerate(shape) if i != dim)
    extra = {"reverse": s.draw(st.booleans())} if name == "scan" else {}
    s.b.region_op(
        name,
        xs,
        [s.twist(T(out, f), 0.1) for f in fmts],
        [(arg_types, body)],
        dim=dim,
        identities=idents,
        **extra,
    )


def _inner_op(bb, name: str) -> None:
    """One op of ``name`` in a combiner body (pure or not, as the dialect counts)."""
    i32, i1 = T((), I32), T((), I1)
    zero = bb.op("constant", [], [i32], value=dense_of(i32, 0))
    if name == "make_token":
        bb.op(name, [], [TOKEN])
    elif name == "get_tile_block_id":
        bb.op(name, [], [i32] * 3)
    elif name == "iota":
        bb.op(name, [], [T((4,), I32)])
    elif name == "assume":
        bb.op(name, [zero], [i32], predicate=DivBy(1))
    elif name == "for":
        bb.region_op(name, [zero] * 3, [], [([i32], lambda b3, iv: b3.op("continue", []))])
    elif name == "loop":
        bb.region_op(name, [], [], [([], lambda b3: b3.op("break", []))])
    elif name == "if":
        cond = bb.op("constant", [], [i1], value=dense_of(i1, 1))
        bb.region_op(
            name,
            [cond],
            [],
            [([], lambda b3: b3.op("yield", [])), ([], lambda b3: b3.op("yield", []))],
        )
    else:
        bb.op(name, [], [TOKEN], segments=(0, 0), format="in a combiner")


def control(s: Src) -> None:
    """``for`` / ``loop`` / ``if`` carrying a tile or a tensor view, maybe returning from
    inside, maybe passing a value of another type."""
    name = s.draw(st.sampled_from(["for", "loop", "if"]))
    # where `return` may stand: nested anywhere, or nothing but the usual terminators
    exit_ = s.draw(st.sampled_from(["plain", "plain", "return", "nested_return"]))
    carried_t = s.draw(st.sampled_from([None, T((4,), F32), T((), I32), "view"]))
    carried = []
    if carried_t == "view":
        carried = [tensor_view(s, F32)]
    elif carried_t is not None:
        carried = [s.tile(carried_t)]
    types = [v.type for v in carried]

    def finish(bb, kind, values):
        if values and s.draw(st.integers(0, 5)) == 0:  # pass a value of another type
            values = [s.tile(T((2,), I8))] + list(values[1:])
        if exit_ == "return":
            bb.op("return", [])
        elif exit_ == "nested_return":
            cond = bb.op("constant", [], [T((), I1)], value=dense_of(T((), I1), 1))
            bb.region_op(
                "if",
                [cond],
                [],
                [([], lambda b3: b3.op("return", [])), ([], lambda b3: b3.op("yield", []))],
            )
            bb.op(kind, values)
        else:
            bb.op(kind, values)

    if name == "for":
        bound = T((), s.fmt((I32, I32, I64, F32, I4)))
        lb = s.tile(bound)
        s.b.region_op(
            "for",
            [lb, lb, lb] + carried,
            types,
            [([bound] + types, lambda bb, iv, *a: finish(bb, "continue", list(a)))],
            **s.attrs("for"),
        )
    elif name == "loop":
        s.b.region_op(
            "loop", carried, types, [(types, lambda bb, *a: finish(bb, "break", list(a)))]
        )
    else:
        cond = s.tile(s.twist(T((), I1)))
        s.b.region_op(
            "if",
            [cond],
            types,
            [
                ([], lambda bb: finish(bb, "yield", carried)),
                ([], lambda bb: bb.op("yield", carried)),
            ],
        )
