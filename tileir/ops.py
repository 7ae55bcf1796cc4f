"""The kernel-facing operations (one import for all of them).

Two kinds, as the recorder needs them:

* pure operations return a :class:`~tileir.tile.Tile` at once: arithmetic and math
  (:mod:`tileir.ops_math`), conversions and casts (:mod:`tileir.ops_convert`),
  construction, shapes, ``select``, ``mma``, ``assume`` and the grid
  (:mod:`tileir.ops_shape`), reductions and scans (:mod:`tileir.ops_reduce`), addresses
  and shape queries (:mod:`tileir.ops_views`);
* effects return an instruction the body must ``yield``; the value the ``yield`` answers
  is the effect's result: memory (:mod:`tileir.ops_memory`, :mod:`tileir.ops_views`) and
  control (:mod:`tileir.ops_control`).

>>> from tileir import trace, In, Out, cells, F64
>>> def softmax(x, out):
...     t = yield load_cell(x)
...     e = exp(t - reduce_max(t))
...     yield store_cell(out, e / reduce_sum(e))
>>> k = trace("softmax", softmax, In(F64, cells([3], [4], pad="neg_inf")), Out(F64, cells([3], [4])))
>>> len(k.program.body)
2
"""

from __future__ import annotations

from tileir.ops_control import (LoopExit, alias_fence, assert_, break_, continue_, for_range,
                                grid_dependency_wait, if_, launch_dependents, loop, print_,
                                together)
from tileir.ops_convert import bitcast, convert, int_to_ptr, pack, ptr_to_int, ptr_to_ptr, unpack
from tileir.ops_math import (absolute, add, atan2, bitwise_and, bitwise_not, bitwise_or,
                             bitwise_xor, ceil, compare, cos, cosh, div, equal, exp, exp2, floor,
                             fma, greater, greater_equal, less, less_equal, log, log2,
                             logical_and, logical_not, logical_or, maximum, minimum, mul, mulhi,
                             neg, not_equal, pow, rem, rsqrt, shl, shr, sin, sinh, sqrt, sub,
                             tan, tanh)
from tileir.ops_memory import (atomic, atomic_add, atomic_cas, load, load_at, load_cell, store,
                               store_cell, store_sub)
from tileir.ops_reduce import (argmax, argmin, cumprod, cumsum, reduce, reduce_max, reduce_min,
                               reduce_prod, reduce_sum, scan)
from tileir.ops_shape import (arange, assume_bounded, assume_div_by, assume_same_elements,
                              block_id, broadcast, cat, extract, full, insert, iota, mma,
                              mma_scaled, num_blocks, permute, reshape, scalar, transpose, where,
                              zeros)
from tileir.ops_views import (address, atomic_cell, cells_along, extent, gather, global_array,
                              global_constant, load_window, offset, scatter, scratch)
from tileir.tile import constant

__all__ = [
    # memory effects
    "load_cell", "load_at", "store_cell", "store_sub", "load", "store", "atomic", "atomic_add",
    "atomic_cas", "atomic_cell", "load_window", "gather", "scatter", "scratch",
    # control effects
    "for_range", "loop", "continue_", "break_", "LoopExit", "if_", "assert_", "print_",
    "together", "alias_fence", "grid_dependency_wait", "launch_dependents",
    # grid, construction, shapes
    "block_id", "num_blocks", "scalar", "zeros", "full", "iota", "arange", "broadcast",
    "reshape", "permute", "transpose", "cat", "extract", "insert", "where", "constant",
    # arithmetic and math
    "add", "sub", "mul", "div", "rem", "maximum", "minimum", "mulhi", "shl", "shr", "neg",
    "absolute", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "fma", "pow",
    "atan2", "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tan", "sinh", "cosh",
    "tanh", "ceil", "floor",
    # comparisons and logic
    "compare", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "logical_and", "logical_or", "logical_not",
    # conversions and casts
    "convert", "bitcast", "pack", "unpack", "ptr_to_int", "int_to_ptr", "ptr_to_ptr",
    # reductions, scans, mma
    "reduce", "scan", "reduce_max", "reduce_min", "reduce_sum", "reduce_prod", "argmax",
    "argmin", "cumsum", "cumprod", "mma", "mma_scaled",
    # assumptions, addresses, globals, shape queries
    "assume_div_by", "assume_bounded", "assume_same_elements", "address", "offset",
    "global_constant", "global_array", "extent", "cells_along",
]
