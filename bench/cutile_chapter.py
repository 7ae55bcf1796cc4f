"""The chapter's kernels written again in NVIDIA's cuTile Python 1.7.0, for bench/record_encode.py.

Each kernel below does the work its namesake in ``tileir/kernels/chapter.py``
does, with the same shapes, formats, tiles, loop trip counts and paddings;
:data:`TWINS` pairs it with a signature whose arrays have constant shapes and
C-contiguous constant strides (cuTile's calling convention v2), which is what
tileir's markers fix in the module.  Where cuTile's surface has no literal
counterpart the nearest equivalent is used, and said so:

* ``transpose``: tileir stores through the pointer path with swapped strides;
  here ``ct.scatter`` into the flat ``out`` at the same element offsets.
* ``histogram``: ``ct.atomic_add`` takes no mask; lanes the mask turns off
  get bin 16, one past the end of the 16-bin array, which the bounds check
  drops (the same effect).

:func:`export` runs cuTile's public export path
(``cuda.tile.compilation.export_kernel`` to ``tileir_bytecode``).  cuTile
memoizes one stage across calls: ``cuda.tile._passes.ast2hir.get_function_hir``
(the Python source -> HIR parse) is an ``lru_cache``; ``cold=True`` clears it
first so each export does all of its work, as tileir's recording does.  The
disk cache of cuTile (``cutile_cache``) only holds cubins and is not consulted
for bytecode.

``copy`` is no chapter kernel: it is bench/record_encode.py's floor, the smallest kernel
there is (one load and one store), whose cost is what every export pays however few its ops.

Importing this module needs ``cuda.tile``; bench/record_encode.py guards it.
"""

from __future__ import annotations

import io
from typing import Callable

import cuda.tile as ct
from cuda.tile.compilation import (
    ArrayConstraint,
    CallingConvention,
    KernelSignature,
    ScalarConstraint,
    export_kernel,
)

__all__ = ["TWINS", "export", "clear_caches", "signature"]

MM_K, MM_TK = 256, 32
HIST_N, HIST_TILE, HIST_BINS = 1000, 128, 16
ATT_N, ATT_D, FA_BQ, FA_BK = 64, 32, 32, 32


@ct.kernel
def vadd(a, b, out):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(128,), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(b, index=(bid,), shape=(128,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(bid,), tile=x + y)


@ct.kernel
def copy(a, out):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(128,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(bid,), tile=t)


@ct.kernel
def softmax(x, out):
    t = ct.load(x, index=(ct.bid(0),), shape=(4,), padding_mode=ct.PaddingMode.NEG_INF)
    e = ct.exp(t - ct.max(t))
    ct.store(out, index=(ct.bid(0),), tile=e / ct.sum(e))


@ct.kernel
def matmul(a, b, c):
    bx, by = ct.bid(0), ct.bid(1)
    acc = ct.zeros((64, 64), dtype=ct.float64)
    for k in range(MM_K // MM_TK):
        ta = ct.load(a, index=(bx, k), shape=(64, 32), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(k, by), shape=(32, 64), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(bx, by), tile=acc)


@ct.kernel
def row_softmax(x, out):
    s = ct.load(x, index=(ct.bid(0), 0), shape=(32, 64), padding_mode=ct.PaddingMode.ZERO)
    p = ct.exp(s - ct.max(s, axis=1, keepdims=True))
    ct.store(out, index=(ct.bid(0), 0), tile=p / ct.sum(p, axis=1, keepdims=True))


@ct.kernel
def transpose(x, out):
    b0, b1 = ct.bid(0), ct.bid(1)
    t = ct.load(x, index=(b0, b1), shape=(32, 32), padding_mode=ct.PaddingMode.ZERO)
    at = b1 * (32 * 128) + b0 * 32
    i = ct.arange(32, dtype=ct.int32)
    ct.scatter(out, at + i[:, None] + i[None, :] * 128, t)


@ct.kernel
def histogram(values, hist):
    bid = ct.bid(0)
    x = ct.load(values, index=(bid,), shape=(HIST_TILE,), padding_mode=ct.PaddingMode.ZERO)
    lane = bid * HIST_TILE + ct.arange(HIST_TILE, dtype=ct.int32)
    ok = (lane < HIST_N) & (x >= 0) & (x < HIST_BINS)
    ct.atomic_add(hist, ct.where(ok, x & (HIST_BINS - 1), HIST_BINS), 1)


@ct.kernel
def flash_attn(q, k, v, o, scale):
    tq = ct.load(q, index=(ct.bid(0), 0), shape=(FA_BQ, ATT_D), padding_mode=ct.PaddingMode.ZERO)
    m = ct.full((FA_BQ, 1), -float("inf"), dtype=ct.float64)
    l = ct.full((FA_BQ, 1), 0.0, dtype=ct.float64)
    acc = ct.zeros((FA_BQ, ATT_D), dtype=ct.float64)
    for j in range(ATT_N // FA_BK):
        tk = ct.load(k, index=(j, 0), shape=(FA_BK, ATT_D), padding_mode=ct.PaddingMode.ZERO)
        s = ct.mma(tq, ct.transpose(tk), ct.zeros((FA_BQ, FA_BK), dtype=ct.float64)) * scale
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        tv = ct.load(v, index=(j, 0), shape=(FA_BK, ATT_D), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(p, tv, acc * alpha)
        m = m_new
    ct.store(o, index=(ct.bid(0), 0), tile=acc / l)


def _array(dtype, shape: tuple) -> ArrayConstraint:
    """A C-contiguous array of a constant shape, as tileir's markers fix it."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return ArrayConstraint(
        dtype,
        len(shape),
        index_dtype=ct.int32,
        stride_lower_bound_incl=0,
        alias_groups=(),
        may_alias_internally=False,
        shape_constant=tuple(shape),
        stride_constant=tuple(reversed(strides)),
    )


def signature(name: str, params: list) -> KernelSignature:
    """A signature for arrays ``(dtype, shape)`` and scalars (a bare dtype)."""
    constraints = [_array(*p) if isinstance(p, tuple) else ScalarConstraint(p) for p in params]
    return KernelSignature(constraints, CallingConvention.cutile_python_v2(), symbol=name)


F64 = ct.float64
#: chapter kernel name -> (cuTile kernel, its signature)
TWINS: dict = {
    "vadd": (vadd, signature("vadd", [(F64, (256,))] * 3)),
    "vadd_tail": (vadd, signature("vadd_tail", [(F64, (1000,))] * 3)),
    "softmax": (softmax, signature("softmax", [(F64, (3,))] * 2)),
    "matmul": (matmul, signature("matmul", [(F64, (256, 256))] * 3)),
    "row_softmax": (row_softmax, signature("row_softmax", [(F64, (256, 64))] * 2)),
    "transpose": (transpose, signature("transpose", [(F64, (128, 64)), (F64, (128 * 64,))])),
    "histogram": (
        histogram,
        signature("histogram", [(ct.int32, (HIST_N,)), (ct.int32, (HIST_BINS,))]),
    ),
    "flash_attn": (flash_attn, signature("flash_attn", [(F64, (ATT_N, ATT_D))] * 4 + [F64])),
    # not a chapter kernel: record_encode.py's floor, one load and one store
    "copy": (copy, signature("copy", [(F64, (256,))] * 2)),
}


def clear_caches() -> None:
    """Forget cuTile's memoized source -> HIR parses (the one stage it caches across exports)."""
    from cuda.tile._passes import ast2hir

    ast2hir.get_function_hir.cache_clear()


def export(name: str, version: str = "13.4", cold: bool = True) -> bytes:
    """cuTile's bytecode for the twin of chapter kernel ``name`` (``cold``: parse anew)."""
    kernel, sig = TWINS[name]
    if cold:
        clear_caches()
    buf = io.BytesIO()
    export_kernel(
        kernel,
        [sig],
        buf,
        output_format="tileir_bytecode",
        bytecode_version=version,
        gpu_code=None,
    )
    return buf.getvalue()


def exporter(name: str, version: str = "13.4", cold: bool = True) -> Callable[[], bytes]:
    """A no-argument callable that exports ``name`` (for timing)."""
    return lambda: export(name, version, cold)
