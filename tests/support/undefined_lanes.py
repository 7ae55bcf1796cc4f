"""A hand-written module whose pointer load has a mask and no padding operand: its
masked-off lanes hold no defined value, and it stores them (for the fill and the
uninitialized-read finder's tests)."""

from __future__ import annotations

import numpy as np

from support.module_builder import FunctionBuilder, ptr, tile
from tileir.ir.module import Module
from tileir.types import F32, I1, I32, TOKEN, PointerType, TileType

__all__ = ["masked_copy", "MASK"]

#: lanes 3 and 7 are masked off
MASK = np.array([1, 1, 1, 0, 1, 1, 1, 0], bool)


def masked_copy() -> Module:
    """``k(src, dst)``: ``dst[i] = load(src + i, mask=MASK)`` for 8 lanes, no padding."""
    fb = FunctionBuilder("k", [ptr(F32), ptr(F32)])
    src, dst = fb.params
    pt = TileType((8,), PointerType(F32))
    idx = fb.op1("iota", (), tile((8,), I32))

    def lanes(p):
        one = fb.op1("reshape", (p,), TileType((1,), PointerType(F32)))
        return fb.op1("offset", (fb.op1("broadcast", (one,), pt), idx), pt)

    mask = fb.const(MASK, tile((8,), I1))
    v, tok = fb.op(
        "load_ptr_tko",
        (lanes(src), mask),
        (tile((8,), F32), TOKEN),
        {"memory_ordering": "weak"},
        segments=(1, 1, 0, 0),
    )
    fb.op(
        "store_ptr_tko",
        (lanes(dst), v, tok),
        (TOKEN,),
        {"memory_ordering": "weak"},
        segments=(1, 1, 0, 1),
    )
    fb.ret()
    return fb.module()
