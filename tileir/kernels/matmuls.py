"""Matrix products in every format pair the dialect allows, batched products and epilogues.

``mm_<a>_<acc>``: a 128 x 128 x 128 product, one 64 x 64 tile of C a block, walking K in
steps of 32 with an explicit accumulator (``mmaf``; ``mmai`` for i8).  The pairs are the
dialect's table: f16 -> f16 / f32, bf16 -> f32, tf32 -> f32, f32 -> f32, f64 -> f64,
f8E4M3FN / f8E5M2 -> f16 / f32, i8 -> i32 (with each signedness of the two factors).
tf32 factors are f32 in memory, rounded to tf32 in the kernel (``ftof``); the f8E5M2
factors are f16 in memory holding e5m2 values, narrowed in the kernel (so the
conversion is exact).  fp8 kernels assemble from sm_90 on (``archs``).

References multiply in f64 from the factors' exact values (rounded to tf32 first for tf32)
and round once; the tolerance allows the accumulator's rounding over K = 128 terms of
factors in [-1, 1] (f16 accumulators round at every K step).
"""

from __future__ import annotations

import numpy as np

from tileir import (
    BF16,
    F8E4M3FN,
    F8E5M2,
    F16,
    F32,
    F64,
    FREE_AXIS,
    I8,
    I32,
    TF32,
    In,
    Out,
    cells,
    for_range,
    load_at,
    maximum,
    mma,
    store_cell,
    trace,
    zeros,
)
from tileir.host.tolerance import Tolerance
from tileir.kernels.common import archs_for, make, uniform
from tileir.kernels.floatref import to_tf32

M = N = K = 128
TM, TN, TK = 64, 64, 32


#: factor format -> (memory format, accumulator formats)
PAIRS = {
    F16: (F16, (F16, F32)),
    BF16: (BF16, (F32,)),
    TF32: (F32, (F32,)),
    F32: (F32, (F32,)),
    F64: (F64, (F64,)),
    F8E4M3FN: (F8E4M3FN, (F16, F32)),
    F8E5M2: (F16, (F16, F32)),
}

_TOL = {
    "f64": Tolerance(rtol=1e-12, atol=1e-12),
    "f32": Tolerance(rtol=1e-4, atol=1e-4),
    # f16 accumulators: half an ulp of |C| <= 32 per K step, four steps
    "f16": Tolerance(rtol=4e-3, atol=4e-2),
}


def _factors(fmt, mem, rng, n):
    """Factor values in [-1, 1] exactly representable in ``fmt``, stored as ``mem``."""
    v = uniform(-1, 1)(rng, n, np.float64).astype(fmt.numpy_dtype if fmt != TF32 else np.float32)
    return v.astype(mem.numpy_dtype)


def _exact(fmt, x: np.ndarray) -> np.ndarray:
    v = x.astype(np.float32) if fmt == TF32 else x
    return (to_tf32(v) if fmt == TF32 else v).astype(np.float64)


def _k_loop(a, b, c, product):
    """The K loop the products here share (effects: ``yield from`` it): each trip loads the
    k-th tiles of ``a`` and ``b`` and folds ``product(ta, tb, acc)``; ``c``'s cell gets the
    sum."""

    def step(k, acc):
        ta = yield load_at(a, [k])
        tb = yield load_at(b, [k])
        return product(ta, tb, acc)

    acc = yield for_range(0, K // TK, step, init=zeros(c))
    yield store_cell(c, acc)


def _mm_spec(fmt, acc_fmt, *, mem=None, fast_acc=False) -> None:
    mem = mem or PAIRS[fmt][0]
    name = f"mm_{_tag(fmt)}_{acc_fmt}" + ("_fastacc" if fast_acc else "")
    narrow = mem != fmt

    def product(ta, tb, acc):
        if narrow:
            ta, tb = ta.to(fmt), tb.to(fmt)
        return mma(ta, tb, acc, fast_acc=fast_acc) if fast_acc else mma(ta, tb, acc)

    def body(a, b, c):
        yield from _k_loop(a, b, c, product)

    def build():
        return trace(
            name,
            body,
            In(mem, cells([M, K], [TM, TK], along=[0, FREE_AXIS])),
            In(mem, cells([K, N], [TK, TN], along=[FREE_AXIS, 1])),
            Out(acc_fmt, cells([M, N], [TM, TN])),
        )

    def reference(args):
        a, b, c = args
        prod = _exact(fmt, a).reshape(M, K) @ _exact(fmt, b).reshape(K, N)
        return [a, b, prod.reshape(-1).astype(acc_fmt.numpy_dtype)]

    def inputs(rng):
        return [
            _factors(fmt, mem, rng, M * K),
            _factors(fmt, mem, rng, K * N),
            np.zeros(M * N, acc_fmt.numpy_dtype),
        ], None

    how = f" ({mem} in memory, narrowed in the kernel)" if narrow else ""
    fast = ", fast_acc" if fast_acc else ""
    make(
        name,
        build,
        reference,
        inputs,
        _TOL[acc_fmt.name],
        "matmul",
        f"{M}x{N}x{K} product of {fmt} factors into {acc_fmt}{how}{fast}: 64x64 tiles, "
        f"a K loop of {K // TK} trips",
        archs_for(fmt, mem),
    )


def _tag(fmt) -> str:
    return {"f8E4M3FN": "e4m3", "f8E5M2": "e5m2"}.get(fmt.name, fmt.name)


def _mmai_spec(signed_a: bool, signed_b: bool) -> None:
    sa, sb = ("s" if signed_a else "u"), ("s" if signed_b else "u")
    name = f"mm_i8_i32_{sa}{sb}"

    def body(a, b, c):
        yield from _k_loop(
            a, b, c, lambda ta, tb, acc: mma(ta, tb, acc, signed=(signed_a, signed_b))
        )

    def build():
        return trace(
            name,
            body,
            In(I8, cells([M, K], [TM, TK], along=[0, FREE_AXIS])),
            In(I8, cells([K, N], [TK, TN], along=[FREE_AXIS, 1])),
            Out(I32, cells([M, N], [TM, TN])),
        )

    def value(x, signed):
        x = x.astype(np.int8)
        return (x if signed else x.view(np.uint8)).astype(np.int64)

    def reference(args):
        a, b, c = args
        prod = value(a, signed_a).reshape(M, K) @ value(b, signed_b).reshape(K, N)
        return [a, b, prod.reshape(-1).astype(np.int32)]

    def inputs(rng):
        return [
            rng.integers(-128, 128, M * K).astype(np.int8),
            rng.integers(-128, 128, K * N).astype(np.int8),
            np.zeros(M * N, np.int32),
        ], None

    words = {True: "signed", False: "unsigned"}
    make(
        name,
        build,
        reference,
        inputs,
        None,
        "matmul",
        f"{M}x{N}x{K} i8 product into i32 (mmai), {words[signed_a]} x {words[signed_b]} factors",
        None,
    )


BATCH, BM, BN, BK = 4, 64, 64, 64


def _bmm_spec(fmt, acc_fmt) -> None:
    """A batched product: rank-3 tiles [2, 32, 64] x [2, 64, 32] in one mma."""
    name = f"bmm_{_tag(fmt)}_{acc_fmt}"

    def body(a, b, c):
        ta = yield load_at(a, [0])
        tb = yield load_at(b, [0])
        yield store_cell(c, mma(ta, tb, zeros(c)))

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([BATCH, BM, BK], [2, 32, BK], along=[0, 1, FREE_AXIS])),
            In(fmt, cells([BATCH, BK, BN], [2, BK, 32], along=[0, FREE_AXIS, 2])),
            Out(acc_fmt, cells([BATCH, BM, BN], [2, 32, 32])),
        )

    def reference(args):
        a, b, c = args
        prod = np.matmul(
            a.astype(np.float64).reshape(BATCH, BM, BK),
            b.astype(np.float64).reshape(BATCH, BK, BN),
        )
        return [a, b, prod.reshape(-1).astype(acc_fmt.numpy_dtype)]

    def inputs(rng):
        return [
            _factors(fmt, fmt, rng, BATCH * BM * BK),
            _factors(fmt, fmt, rng, BATCH * BK * BN),
            np.zeros(BATCH * BM * BN, acc_fmt.numpy_dtype),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        _TOL[acc_fmt.name],
        "matmul",
        f"batched product of {BATCH} {BM}x{BK} by {BK}x{BN} {fmt} matrices into {acc_fmt}: "
        f"rank-3 mma on [2, 32, 64] x [2, 64, 32] tiles",
        archs_for(fmt),
    )


def _epilogue_spec() -> None:
    """f16 product into f32, plus a per-column bias, relu, narrowed to f16."""
    name = "mm_f16_bias_relu"

    def body(a, b, bias, c):
        def step(k, acc):
            ta = yield load_at(a, [k])
            tb = yield load_at(b, [k])
            return mma(ta, tb, acc)

        acc = yield for_range(0, K // TK, step, init=zeros([TM, TN], F32))
        tb = yield load_at(bias, [0])  # [1, TN]
        yield store_cell(c, maximum(acc + tb.to(F32), 0.0).to(F16))

    def build():
        return trace(
            name,
            body,
            In(F16, cells([M, K], [TM, TK], along=[0, FREE_AXIS])),
            In(F16, cells([K, N], [TK, TN], along=[FREE_AXIS, 1])),
            In(F16, cells([1, N], [1, TN], along=[FREE_AXIS, 1])),
            Out(F16, cells([M, N], [TM, TN])),
        )

    def reference(args):
        a, b, bias, c = args
        prod = a.astype(np.float64).reshape(M, K) @ b.astype(np.float64).reshape(K, N)
        out = np.maximum(prod + bias.astype(np.float64), 0.0)
        return [a, b, bias, out.reshape(-1).astype(np.float16)]

    def inputs(rng):
        return [
            _factors(F16, F16, rng, M * K),
            _factors(F16, F16, rng, K * N),
            uniform(-1, 1)(rng, N, np.float16),
            np.zeros(M * N, np.float16),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        Tolerance(rtol=2e-3, atol=2e-3),
        "matmul",
        "f16 x f16 -> f32 product with a bias row and relu, narrowed to f16 (an epilogue)",
    )


def _nt_spec(fmt) -> None:
    """C = A @ B^T with B stored N x K: each K step transposes its tile of B (permute)."""
    name = f"mm_nt_{fmt}"

    def body(a, b, c):  # b's K tiles are [TN, TK]
        yield from _k_loop(a, b, c, lambda ta, tb, acc: mma(ta, tb.transpose(), acc))

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([M, K], [TM, TK], along=[0, FREE_AXIS])),
            In(fmt, cells([N, K], [TN, TK], along=[1, FREE_AXIS])),
            Out(fmt, cells([M, N], [TM, TN])),
        )

    def reference(args):
        a, b, c = args
        prod = a.astype(np.float64).reshape(M, K) @ b.astype(np.float64).reshape(N, K).T
        return [a, b, prod.reshape(-1).astype(fmt.numpy_dtype)]

    def inputs(rng):
        return [
            _factors(fmt, fmt, rng, M * K),
            _factors(fmt, fmt, rng, N * K),
            np.zeros(M * N, fmt.numpy_dtype),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        _TOL[fmt.name],
        "matmul",
        f"A @ B^T in {fmt} with B stored {N}x{K}: each K tile of B is transposed (permute)",
    )


def _family() -> None:
    for fmt, (mem, accs) in PAIRS.items():
        for acc in accs:
            _mm_spec(fmt, acc)
    _mm_spec(F8E4M3FN, F32, fast_acc=True)
    for sa in (True, False):
        for sb in (True, False):
            _mmai_spec(sa, sb)
    for fmt, acc in ((F16, F32), (BF16, F32), (F32, F32), (F64, F64)):
        _bmm_spec(fmt, acc)
    _epilogue_spec()
    _nt_spec(F32)
    _nt_spec(F64)


_family()
