"""The kernel fuzzer's vocabulary: formats, op tables and size limits, shared by the
drawing (``fuzz_params``, ``fuzz_tree``, ``fuzz_tree_more``), the recording
(``fuzz_build``) and the oracle.

Formats come in three groups: ``FLOATS`` and ``INTS`` are what arithmetic computes on;
``NARROW`` floats (tf32 and the two fp8 formats sm_90 has; defined with the oracle's
numerics in ``fuzz_numerics``) are only loaded, stored, converted, selected, reshaped
and multiplied by ``mma``.  f8E8M0FNU, f4E2M1FN and fnv8E5M3FNU are never drawn: they
need sm_100 or later, and the sample the fuzzer assembles targets sm_90 (see EXCLUDED).
"""

from __future__ import annotations

import math

from fuzz_numerics import NARROW

__all__ = [
    "FLOATS",
    "INTS",
    "NARROW",
    "STORAGE",
    "FLOAT_UNARY",
    "INT_UNARY",
    "FLOAT_BINARY",
    "INT_BINARY",
    "MASK_BINARY",
    "PREDICATES",
    "COMBINERS",
    "PADS",
    "MAX_ELEMENTS",
    "EXCLUDED",
    "MMA_PAIRS",
    "SCAN_FLOAT",
    "SCAN_INT",
    "ATOMIC_INT",
    "ATOMIC_FLOAT",
    "PLOAD_VIA",
    "FLOAT_CONSTS",
    "INT_CONSTS",
    "fit",
    "size",
    "convertible",
    "consts_of",
    "ftof_modes",
]

FLOATS = ("f32", "f64", "f16", "bf16")
INTS = ("i32", "i8", "i16", "i64")
#: Formats a buffer (In, Out, Shared) may hold.
STORAGE = FLOATS + INTS + NARROW
FLOAT_UNARY = (
    "neg",
    "abs",
    "exp",
    "exp2",
    "log",
    "log2",
    "sqrt",
    "rsqrt",
    "sin",
    "cos",
    "tanh",
    "sinh",
    "cosh",
    "floor",
    "ceil",
)
INT_UNARY = ("neg", "abs")
FLOAT_BINARY = ("add", "sub", "mul", "div", "rem", "max", "min")
INT_BINARY = (
    "add",
    "sub",
    "mul",
    "div",
    "floordiv",
    "rem",
    "max",
    "min",
    "and",
    "or",
    "xor",
    "shl",
    "shr",
)
MASK_BINARY = ("and", "or", "xor")
PREDICATES = (
    "less_than",
    "equal",
    "not_equal",
    "less_than_or_equal",
    "greater_than",
    "greater_than_or_equal",
)
COMBINERS = ("sum", "max", "min", "prod")
SCAN_FLOAT = ("sum", "prod", "max", "min")
SCAN_INT = ("sum", "prod", "max", "min", "and", "or", "xor")
PADS = ("zero", "neg_zero", "nan", "pos_inf", "neg_inf")
#: accumulator format -> the factor formats whose ``mma`` accumulates into it (the
#: dialect's table: f16 -> f16 / f32, bf16 / tf32 / f32 -> f32, f64 -> f64, fp8 -> f16 /
#: f32, i8 -> i32 as mmai)
MMA_PAIRS = {
    "f16": ("f16", "f8E4M3FN", "f8E5M2"),
    "f32": ("f16", "bf16", "tf32", "f32", "f8E4M3FN", "f8E5M2"),
    "f64": ("f64",),
    "i32": ("i8",),
}
#: Atomic modes whose final memory does not depend on the order the lanes land in.
ATOMIC_INT = ("add", "and", "or", "xor", "max", "min", "umax", "umin")
ATOMIC_FLOAT = ("addf",)
#: How a pointer load addresses a Shared: element offsets, a tile of pointers, strides.
PLOAD_VIA = ("offsets", "pointers", "strided")
#: The most elements any tile of a drawn kernel holds (keeps each example cheap).
MAX_ELEMENTS = 512
#: What the drawn space leaves out, and why (the report repeats it).
EXCLUDED = {
    "float -> i1 conversions": "a mask comes from a comparison; ftoi into one bit has no "
    "numeric meaning for the oracle to check",
    "f8E8M0FNU, f4E2M1FN, fnv8E5M3FNU": "they need sm_100 or later and the assembled sample "
    "targets sm_90; mmaf_scaled (their only real use) "
    "is not drawn either",
    "atomic xchg and cas": "the memory they leave depends on the order the lanes land in; "
    "every drawn mode (integer and/or/xor/add/max/min/umax/umin, addf "
    "with a bound) does not",
    "stores and atomics to the same Shared as loads": "another block may write what one "
    "block reads; each Shared has one use",
    "fp8 values past the finite range": "whether a conversion into fp8 saturates, gives NaN "
    "or infinity is the implementation's (PTX cvt into "
    "fp8 is satfinite); those lanes are not compared",
    "batched (rank-3) mma, several-operand scans": "the drawn tiles are 1-D or 2-D and a scan "
    "combines one operand",
    "atomic_cell, gather / scatter, load_window, globals, scratch": "the pointer path is drawn "
    "as load / store / offset / "
    "atomic on Shared buffers",
    "ftoi / itof / exti signedness and saturation": "integers convert signed, as before",
}

FLOAT_CONSTS = (
    0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    -0.0,
    3.0,
    -2.5,
    1e-3,
    100.0,
    math.inf,
    -math.inf,
    math.nan,
)
INT_CONSTS = (0, 1, -1, 2, 3, 7, -8, 100, "max", "min")


def consts_of(fmt: str) -> list:
    """The float constants a tile of ``fmt`` may hold (f8E4M3FN has no infinity)."""
    if fmt == "f8E4M3FN":
        return [v for v in FLOAT_CONSTS if not math.isinf(v)]
    return list(FLOAT_CONSTS)


def size(shape) -> int:
    out = 1
    for d in shape:
        out *= d
    return out


def fit(tile: list) -> list:
    """Halve the largest dimension until the tile holds at most MAX_ELEMENTS."""
    tile = list(tile)
    while size(tile) > MAX_ELEMENTS:
        d = tile.index(max(tile))
        tile[d] //= 2
    return tile


def ftof_modes(src: str, dst: str) -> tuple:
    """The roundings an ``ftof`` from ``src`` to ``dst`` may be recorded with: tileir's
    table of what the dialect's verifier takes, less what tileiras cannot compile (the
    recorder refuses those; the assembled sample holds both tables to tileiras), () unless
    both are floats."""
    floats = FLOATS + NARROW
    if src not in floats or dst not in floats or src == dst:
        return ()
    from fuzz_known import ftof_modes_allowed
    from tileir.ir.attr_rules import ftof_compiles, ftof_roundings
    from tileir.types import Format

    a, b = Format(src), Format(dst)
    modes = tuple(m for m in ftof_roundings(a, b) if ftof_compiles(a, b, m))
    return ftof_modes_allowed(src, dst, modes)


def convertible(src: str, dst: str) -> bool:
    """Masks convert to integers and floats (unsigned: true is 1), and come from integers
    only (trunci); see EXCLUDED."""
    if src == "i1":
        return dst in INTS or dst in FLOATS or dst in NARROW
    if dst == "i1":
        return src in INTS
    return True
