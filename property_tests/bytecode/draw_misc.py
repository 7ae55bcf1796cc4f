"""The op drawer for everything that is neither arithmetic, regions nor memory: tokens and
their joins, 13.4's grid dependency ops and alias fence, ``assume`` predicates, the
tile-block queries, ``print_tko``, ``assert``, and constants of every format."""

from __future__ import annotations

from hypothesis import strategies as st

from draw_scope import CONST_ONLY, FLOATS, INTS, S1, S32, SHAPES, Drawer, is_scalar_pointer
from tileir.ir.module import Bounded, DivBy, SameElements
from tileir.types import I1, I32, TOKEN, TileType

__all__ = ["misc"]


def misc(d: Drawer) -> None:
    """One of: a token, joined tokens, 13.4's gdc ops and alias fence, ``assume`` on
    scalars and tiles, the grid queries, ``print_tko``, ``assert``, a constant of any
    format (the f8 ones too)."""
    name = d.draw(
        st.sampled_from(
            [
                "token",
                "join",
                "assume",
                "block_id",
                "num_blocks",
                "print",
                "assert",
                "const",
                "gdc",
            ]
        )
    )
    if name == "token":
        d.op("make_token", [], [TOKEN])
    elif name == "gdc":  # 13.4: grid dependency control and the alias fence
        tok = d.pick(lambda t: t == TOKEN)
        tok = d.op(
            d.draw(st.sampled_from(["gdc_wait_tko", "gdc_launch_dependents_tko"])),
            [tok] if tok is not None else [],
            [TOKEN],
        )
        d.op("memory_fence_alias_tko", [tok], [TOKEN])
    elif name == "join":
        toks = d.values(lambda t: t == TOKEN)
        if len(toks) >= 2:  # the dialect joins two or more
            d.op("join_tokens", toks[:3], [TOKEN])
    elif name == "assume":
        x = d.of_type(S32)
        pred = d.draw(
            st.sampled_from([Bounded(0, None), Bounded(None, 100), Bounded(-4, 4), DivBy(8)])
        )
        d.op("assume", [x], [S32], predicate=pred)
        d.op(
            "assume",
            [d.of_type(TileType((4,), I32))],
            [TileType((4,), I32)],
            predicate=d.draw(st.sampled_from([SameElements((2,)), DivBy(4, 2, 0)])),
        )
        ptr = d.pick(is_scalar_pointer)
        if ptr is not None:  # the result is the pointer's type exactly, ptr_attr and all
            d.op("assume", [ptr], [ptr.type], predicate=DivBy(16))
    elif name in ("block_id", "num_blocks"):
        d.op(
            "get_tile_block_id" if name == "block_id" else "get_num_tile_blocks",
            [],
            [S32, S32, S32],
        )
    elif name == "print":
        x = d.of_type(S32)
        tok = d.pick(lambda t: t == TOKEN)
        d.op(
            "print_tko",
            [x] + ([tok] if tok else []),
            [TOKEN],
            segments=(1, int(tok is not None)),
            format="x=%d\n",
        )
    elif name == "assert":
        d.op("assert", [d.pick(lambda t: t == S1) or d.of_type(S1)], [], message="drawn")
    else:
        d.const(
            TileType(
                d.draw(st.sampled_from(SHAPES[:2])),
                d.draw(st.sampled_from(FLOATS + INTS + (I1,) + CONST_ONLY)),
            )
        )
