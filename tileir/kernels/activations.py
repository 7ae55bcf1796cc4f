"""Fused element-wise kernels: activations and small formulas, in four formats.

f32 and f64 kernels compute in their own format; f16 and bf16 kernels widen to
f32 (``ftof``), compute there and narrow once at the end, as real kernels do.
The references compute in f64 and round once to the output format.  GELU (the tanh
form ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``) and SiLU are :mod:`tileir.lib`'s.
"""

from __future__ import annotations

import math

import numpy as np

from tileir import BF16, F16, F32, F64, exp, fma, log, maximum, minimum, sqrt, tanh, where
from tileir.kernels.common import ew_spec, tol, uniform
from tileir.lib import gelu, silu

FORMATS = (F32, F64, F16, BF16)
_C = math.sqrt(2.0 / math.pi)


def _kernel_fns():
    """name -> (tile function of x in the compute format, numpy function, input maker)."""
    return {
        "relu": (lambda x: maximum(x, 0.0), lambda x: np.maximum(x, 0.0), uniform()),
        "leaky_relu": (
            lambda x: where(x > 0.0, x, x * 0.01),
            lambda x: np.where(x > 0, x, x * 0.01),
            uniform(),
        ),
        "sigmoid": (
            lambda x: 1.0 / (1.0 + exp(-x)),
            lambda x: 1 / (1 + np.exp(-x)),
            uniform(-6, 6),
        ),
        "silu": (silu, lambda x: x / (1 + np.exp(-x)), uniform(-6, 6)),
        "softplus": (lambda x: log(1.0 + exp(x)), lambda x: np.log1p(np.exp(x)), uniform(-4, 4)),
        "gelu_tanh": (
            gelu,
            lambda x: 0.5 * x * (1 + np.tanh(_C * (x + 0.044715 * x**3))),
            uniform(-4, 4),
        ),
        "mish": (
            lambda x: x * tanh(log(1.0 + exp(x))),
            lambda x: x * np.tanh(np.log1p(np.exp(x))),
            uniform(-4, 4),
        ),
        "hardsigmoid": (
            lambda x: minimum(maximum(x * (1.0 / 6.0) + 0.5, 0.0), 1.0),
            lambda x: np.clip(x / 6.0 + 0.5, 0.0, 1.0),
            uniform(-5, 5),
        ),
    }


def _wrap(fn, fmt):
    """``fn`` computed in f32 for a narrow format, in ``fmt`` otherwise."""
    if fmt in (F16, BF16):
        return lambda x: fn(x.to(F32)).to(fmt)
    return fn


def _ref(np_fn, dtype):
    return lambda x: np_fn(x.astype(np.float64)).astype(dtype)


_ULPS = {"f32": 16, "f64": 16, "f16": 4, "bf16": 4}


def _activations() -> None:
    for name, (fn, np_fn, gen) in _kernel_fns().items():
        for fmt in FORMATS:
            how = "in f32, narrowed once" if fmt in (F16, BF16) else f"in {fmt}"
            ew_spec(
                f"act_{name}_{fmt}",
                _wrap(fn, fmt),
                (fmt,),
                fmt,
                _ref(np_fn, fmt.numpy_dtype),
                (gen,),
                n=1000,
                tile=256,
                tolerance=tol(fmt, _ULPS[fmt.name], atol=16 * tol(fmt, 1).atol),
                family="activation",
                doc=f"{name} of 1000 {fmt} values, computed {how}",
            )


def _formulas(fmt) -> None:
    """The formula kernels in ``fmt`` (a function per format, so each closure keeps its own)."""
    dt = fmt.numpy_dtype
    ew_spec(
        f"axpy_{fmt}",
        lambda x, y, a: a * x + y,
        (fmt, fmt),
        fmt,
        lambda x, y, a: (dt.type(a) * x + y).astype(dt),
        (uniform(), uniform()),
        scalars=((fmt, lambda rng: float(rng.uniform(-2, 2))),),
        tolerance=None,
        family="formula",
        doc=f"a*x + y in {fmt} with a Scalar a (two roundings, as numpy rounds)",
    )
    ew_spec(
        f"clamp_{fmt}",
        lambda x, lo, hi: minimum(maximum(x, lo), hi),
        (fmt,),
        fmt,
        lambda x, lo, hi: np.minimum(np.maximum(x, dt.type(lo)), dt.type(hi)),
        (uniform(),),
        scalars=((fmt, lambda rng: -1.5), (fmt, lambda rng: 2.25)),
        tolerance=None,
        family="formula",
        doc=f"clamp {fmt} values to [lo, hi] Scalars",
    )
    ew_spec(
        f"fma_{fmt}",
        fma,
        (fmt, fmt, fmt),
        fmt,
        lambda a, b, c: (a.astype(np.longdouble) * b + c).astype(dt),
        (uniform(), uniform(), uniform()),
        tolerance=tol(fmt, 1),
        family="formula",
        doc=f"fused multiply-add a*b + c in {fmt}, one rounding",
    )
    ew_spec(
        f"horner_{fmt}",
        lambda x: fma(fma(fma(x, 0.25, -0.5), x, 1.0), x, 2.0),
        (fmt,),
        fmt,
        lambda x: (((x * 0.25 - 0.5) * x + 1.0) * x + 2.0).astype(dt),
        (uniform(),),
        tolerance=tol(fmt, 8),
        family="formula",
        doc=f"a cubic by Horner's rule with three fma in {fmt}",
    )
    ew_spec(
        f"hypot_{fmt}",
        lambda x, y: sqrt(x * x + y * y),
        (fmt, fmt),
        fmt,
        lambda x, y: np.hypot(x.astype(np.float64), y).astype(dt),
        (uniform(), uniform()),
        tolerance=tol(fmt, 4),
        family="formula",
        doc=f"sqrt(x^2 + y^2) in {fmt}",
    )
    ew_spec(
        f"logaddexp_{fmt}",
        lambda x, y: maximum(x, y) + log(1.0 + exp(-abs(x - y))),
        (fmt, fmt),
        fmt,
        lambda x, y: np.logaddexp(x.astype(np.float64), y).astype(dt),
        (uniform(), uniform()),
        tolerance=tol(fmt, 16),
        family="formula",
        doc=f"log(exp(x) + exp(y)) in {fmt}, stable form",
    )


_activations()
for _fmt in (F32, F64):
    _formulas(_fmt)
