"""Kernels written in NVIDIA cuTile Python 1.7.0, exported as Tile IR bytecode for tests.

cuTile exports bytecode with no GPU (``export_kernel(..., output_format="tileir_bytecode")``),
so these are another producer's files the tests can run on tileir's fake device and
round-trip through its decoder and encoder.  ``helped`` and ``scaled`` call helper
functions, which cuTile inlines and records as separate subprograms and ``callsite(...)``
locations in the debug section.  :func:`cutile_bytes` exports one (memoised: an export
takes a fraction of a second).

A test imports this module only after ``pytest.importorskip("cuda.tile")``.
"""

from __future__ import annotations

import functools
import io

import cuda.tile as ct
from cuda.tile.compilation import (
    ArrayConstraint,
    CallingConvention,
    KernelSignature,
    ScalarConstraint,
    export_kernel,
)

__all__ = ["cutile_bytes", "KERNELS"]


def _array(dtype, ndim, index_dtype=ct.int32):
    return ArrayConstraint(
        dtype,
        ndim,
        index_dtype=index_dtype,
        stride_lower_bound_incl=0,
        alias_groups=(),
        may_alias_internally=False,
    )


def _twice_plus_one(x):
    return x * 2.0 + 1.0


def _shifted(x):
    return _twice_plus_one(x) - 3.0


@ct.kernel
def helped(a, c):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid, 0), shape=(4, 8))
    ct.store(c, index=(bid, 0), tile=_shifted(x))


def _axpy(alpha, x, y):
    return alpha * x + y


@ct.kernel
def scaled(X, Y, Z, alpha):
    bx, by = ct.bid(0), ct.bid(1)
    x = ct.load(X, index=(bx, by), shape=(4, 4))
    y = ct.load(Y, index=(bx, by), shape=(4, 4))
    ct.store(Z, index=(bx, by), tile=_axpy(alpha, x, y))


@ct.kernel
def row_sums(X, S):
    bid = ct.bid(0)
    x = ct.load(X, index=(bid, 0), shape=(2, 16))
    ct.store(S, index=(bid,), tile=ct.sum(x, axis=1))


@ct.kernel
def vadd(a, b, c):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(16,))
    y = ct.load(b, index=(bid,), shape=(16,))
    ct.store(c, index=(bid,), tile=x + y)


F32_1, F32_2, I32_2 = (ct.float32, 1), (ct.float32, 2), (ct.int32, 2)
#: name -> (kernel, its parameters: (dtype, rank) per array, a dtype per scalar)
KERNELS = {
    "helped": (helped, [F32_2, F32_2]),
    "scaled": (scaled, [F32_2, F32_2, F32_2, ct.float32]),
    "row_sums": (row_sums, [I32_2, (ct.int32, 1)]),
    "vadd": (vadd, [F32_1, F32_1, F32_1]),
    # int64 indices: each shape and stride is a tile<i64>
    "vadd_i64": (vadd, [(ct.float32, 1, ct.int64)] * 3),
}


@functools.lru_cache(maxsize=None)
def cutile_bytes(name: str, version: str = "13.4") -> bytes:
    """cuTile's bytecode of kernel ``name`` (its entry is called ``name`` too, but for
    ``vadd_i64``, ``vadd`` exported with int64 indices)."""
    kernel, params = KERNELS[name]
    symbol = name if name != "vadd_i64" else "vadd"
    constraints = [_array(*p) if isinstance(p, tuple) else ScalarConstraint(p) for p in params]
    sig = KernelSignature(constraints, CallingConvention.cutile_python_v1(), symbol=symbol)
    buf = io.BytesIO()
    export_kernel(
        kernel,
        [sig],
        buf,
        gpu_code="sm_90",
        output_format="tileir_bytecode",
        bytecode_version=version,
    )
    return buf.getvalue()
