"""``c += a @ b`` in one BLAS call (``beta = 1``), through the OpenBLAS numpy itself loaded.

``numpy.matmul`` has no ``beta``: an ``mmaf`` adding its product into a K loop's accumulator
would write the product to a scratch buffer and add it in a second pass over the accumulator,
which costs a third of a 1024^3 matmul's time.  A GEMM with ``beta = 1`` adds each finished
dot product into ``c`` as it stores it (with ``alpha = 1`` the store is ``c + dot``, the
product rounded once before the add: what ``rules.products`` computes), so it does both in
one pass.  Whether this BLAS does give those bits is measured by the caller
(:func:`tileir.fake.rules.products.merge_keeps_bits`), never assumed.

Only numpy's own bundled ILP64 OpenBLAS is used: a wheel's ``numpy.libs/*openblas64_*.so``,
whose CBLAS symbols end in ``64_`` (so the integers are known to be 64-bit; calling a 32-bit
interface with 64-bit integers would not give wrong bits but a crash).  Anywhere else
(another numpy build, Accelerate, MKL) :data:`AVAILABLE` is False and the interpreter keeps
numpy's matmul and add.
"""

from __future__ import annotations

import ctypes
import glob
import os
from typing import Any, Optional

import numpy as np

__all__ = ["AVAILABLE", "add_product"]

_ROW_MAJOR, _NO_TRANS = 101, 111
_SYMBOLS = (("scipy_cblas_sgemm64_", "scipy_cblas_dgemm64_"), ("cblas_sgemm64_", "cblas_dgemm64_"))


def _load() -> dict[np.dtype, Any]:
    """dtype -> the CBLAS gemm of numpy's bundled ILP64 OpenBLAS (empty where there is none)."""
    libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    for path in sorted(glob.glob(os.path.join(libs, "*openblas64_*.so*"))):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for names in _SYMBOLS:
            try:
                found = [getattr(lib, name) for name in names]
            except AttributeError:  # not this library's naming
                continue
            table: dict[np.dtype, Any] = {}
            i, p = ctypes.c_int64, ctypes.c_void_p
            dtypes: tuple[np.dtype, ...] = (np.dtype(np.float32), np.dtype(np.float64))
            for dtype, fn, scalar in zip(dtypes, found, (ctypes.c_float, ctypes.c_double)):
                fn.argtypes = [ctypes.c_int] * 3 + [i] * 3 + [scalar, p, i, p, i, scalar, p, i]
                fn.restype = None
                table[dtype] = fn
            return table
    return {}


_GEMM = _load()

#: whether :func:`add_product` can run here (numpy's bundled ILP64 OpenBLAS was found)
AVAILABLE = bool(_GEMM)


def _lead(x: np.ndarray) -> Optional[int]:
    """The leading dimension (row stride in elements) of a row-major 2-D matrix whose rows
    are unit-stride, or None where BLAS cannot take it as it stands."""
    isz = x.dtype.itemsize
    rs, cs = x.strides
    if cs != isz or rs % isz or rs // isz < max(x.shape[1], 1):
        return None
    return rs // isz


def add_product(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> bool:
    """``c += a @ b`` in place by one GEMM with ``beta = 1``, for 2-D ``f32`` / ``f64``
    matrices of one dtype whose rows are unit-stride; False (``c`` untouched) where that
    cannot be done here (no bundled OpenBLAS, another dtype or layout)."""
    fn = _GEMM.get(c.dtype)
    if fn is None or a.dtype != c.dtype or b.dtype != c.dtype or not c.flags.writeable:
        return False
    (m, k), (k2, n) = a.shape, b.shape
    if k != k2 or c.shape != (m, n) or 0 in (m, n, k):
        return False
    lda, ldb, ldc = _lead(a), _lead(b), _lead(c)
    if lda is None or ldb is None or ldc is None:
        return False
    fn(_ROW_MAJOR, _NO_TRANS, _NO_TRANS, m, n, k, 1.0, a.ctypes.data, lda, b.ctypes.data, ldb, 1.0, c.ctypes.data, ldc)  # fmt: skip
    return True
