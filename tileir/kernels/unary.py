"""Element-wise math in f16, bf16, f32 and f64: one kernel per (function, format).

Each kernel reads 768 elements in cells of 256 and writes ``fn(x)``.  The
references compute in f64 and round once to the kernel's format; the device's
math library is allowed a few units in the last place (the tolerance is per
format, with an absolute floor for results that pass through zero, as sin,
tan and log do).  ``ceil``, ``floor``, ``abs`` and ``neg`` are exact.
"""

from __future__ import annotations

import numpy as np

from tileir import (
    BF16,
    F16,
    F32,
    F64,
    absolute,
    ceil,
    cos,
    cosh,
    exp,
    exp2,
    floor,
    log,
    log2,
    rsqrt,
    sin,
    sinh,
    sqrt,
    tan,
    tanh,
)
from tileir.kernels.common import ew_spec, exact, positive, tol, uniform

FLOATS = (F16, BF16, F32, F64)

# (name, kernel function, numpy function on f64, inputs, exact?)
_UNARY = (
    ("exp", exp, np.exp, uniform(-4, 4), False),
    ("exp2", exp2, np.exp2, uniform(-6, 6), False),
    ("log", log, np.log, positive(0.25, 8), False),
    ("log2", log2, np.log2, positive(0.25, 8), False),
    ("sqrt", sqrt, np.sqrt, positive(0.0, 16), False),
    ("rsqrt", rsqrt, lambda x: 1.0 / np.sqrt(x), positive(0.25, 16), False),
    ("sin", sin, np.sin, uniform(-4, 4), False),
    ("cos", cos, np.cos, uniform(-4, 4), False),
    ("tan", tan, np.tan, uniform(-1.2, 1.2), False),
    ("sinh", sinh, np.sinh, uniform(-3, 3), False),
    ("cosh", cosh, np.cosh, uniform(-3, 3), False),
    ("tanh", tanh, np.tanh, uniform(-3, 3), False),
    ("ceil", ceil, np.ceil, uniform(-8, 8), True),
    ("floor", floor, np.floor, uniform(-8, 8), True),
    ("abs", absolute, np.abs, uniform(), True),
    ("neg", lambda x: -x, np.negative, uniform(), True),
)

#: ulps allowed per format for the math library (f16 / bf16 results are computed wider and
#: rounded once, so two ulps cover the double rounding).
_ULPS = {"f16": 2, "bf16": 2, "f32": 8, "f64": 8}


def _ref(np_fn, dtype):
    def ref(x):
        return np_fn(x.astype(np.float64)).astype(dtype)

    return ref


def _family() -> None:
    for fmt in FLOATS:
        for name, fn, np_fn, gen, is_exact in _UNARY:
            tolerance = exact if is_exact else tol(fmt, _ULPS[fmt.name])
            ew_spec(
                f"math_{name}_{fmt}",
                fn,
                (fmt,),
                fmt,
                _ref(np_fn, fmt.numpy_dtype),
                (gen,),
                n=768,
                tile=256,
                tolerance=tolerance,
                family="math",
                doc=f"{name} of 768 {fmt} values in cells of 256",
            )


_family()
