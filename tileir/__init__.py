"""tileir: write, test and debug NVIDIA Tile IR kernels from Python.

A kernel is a generator function over tiles.  ``trace`` records it once into an
immutable Program, lowers it to a Module of ``cuda_tile`` ops, which renders as
text, encodes as the bytecode ``tileiras`` assembles, runs on the fake device
(a numpy interpreter of the Module) and launches on a GPU.

>>> from tileir import trace, In, Out, cells, load_cell, store_cell, F32
>>> def vadd(a, b, out):
...     x = yield load_cell(a)
...     y = yield load_cell(b)
...     yield store_cell(out, x + y)
>>> g = cells([1000], [128])
>>> kernel = trace("vadd", vadd, In(F32, g), In(F32, g), Out(F32, g))
>>> kernel.grid
(8,)
"""

from tileir.errors import (DecodeError, DeviceUnavailableError, EncodeError, InterpretError,
                           LaunchError, LoweringError, MismatchError, RecordingError, TileIRError,
                           ToolError, VerifyError)
from tileir.markers import DYN_DIM, FREE_AXIS, Cells, In, Out, Param, Scalar, Shared, cells, retile
from tileir.ops import (LoopExit, absolute, add, address, alias_fence, arange, argmax, argmin,
                        assert_, assume_bounded, assume_div_by, assume_same_elements, atan2,
                        atomic, atomic_add, atomic_cas, atomic_cell, bitcast, bitwise_and,
                        bitwise_not, bitwise_or, bitwise_xor, block_id, break_, broadcast, cat,
                        ceil, cells_along, compare, constant, continue_, convert, cos, cosh,
                        cumprod, cumsum, div, equal, exp, exp2, extent, extract, floor, fma,
                        for_range, full, gather, global_array, global_constant, greater,
                        greater_equal, grid_dependency_wait, if_, insert, int_to_ptr, iota,
                        launch_dependents, less, less_equal, load, load_at, load_cell,
                        load_window, log, log2, logical_and, logical_not, logical_or, loop,
                        maximum, minimum, mma, mma_scaled, mul, mulhi, neg, not_equal,
                        num_blocks, offset, pack, permute, pow, print_, ptr_to_int, ptr_to_ptr,
                        reduce, reduce_max, reduce_min, reduce_prod, reduce_sum, rem, reshape,
                        rsqrt, scalar, scan, scatter, scratch, shl, shr, sin, sinh, sqrt, store,
                        store_cell, store_sub, sub, tan, tanh, together, transpose, unpack,
                        where, zeros)
from tileir.record import Kernel, trace
from tileir.tile import Tile
from tileir.types import (BF16, F4E2M1FN, F8E4M3FN, F8E5M2, F8E8M0FNU, F16, F32, F64,
                          FNV8E5M3FNU, I1, I4, I8, I16, I32, I64, TF32, Format)

__version__ = "0.1.0"
