"""Attention forward: flash attention in several formats, causal, and a one-block form.

``flash_attn_<fmt>``: each block takes 32 queries and streams the keys and values in blocks
of 32 with a running row maximum ``m``, row sum ``l`` and output accumulator (three
carried values), as the chapter's f64 kernel does.  bf16 and f16 kernels keep Q, K and V
in the narrow format, multiply into f32 accumulators, keep ``m``, ``l`` and the softmax in
f32, and narrow the probabilities to the factor format for the second product (that
rounding is what the tolerance allows: about one ulp of the narrow format on a weighted
mean of values in [-1, 1]).  ``flash_attn_causal_f32`` masks keys after the query
(``iota`` comparisons and ``select``) and stops the key loop at the diagonal block (a loop
bound computed from ``block_id``).  ``attn_oneblock_*`` computes the whole softmax of
Q K^T in one block and multiplies by V once.  The streaming step and the softmax are
:mod:`tileir.lib`'s (``online_softmax``, ``softmax``).
"""

from __future__ import annotations

import numpy as np

from tileir import (
    BF16,
    F16,
    F32,
    F64,
    FREE_AXIS,
    In,
    Out,
    Scalar,
    block_id,
    cells,
    for_range,
    iota,
    load_at,
    load_cell,
    mma,
    scalar,
    store_cell,
    trace,
    where,
    zeros,
)
from tileir.host.tolerance import Tolerance
from tileir.kernels.common import make, uniform
from tileir.lib import online_softmax, softmax

SEQ, BQ, BK = 128, 32, 32


def _np_attention(q, k, v, scale, causal=False):
    s = q @ k.T * scale
    if causal:
        s = np.where(np.tril(np.ones_like(s, dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return (p / p.sum(axis=1, keepdims=True)) @ v


_TOL = {
    "f64": Tolerance(rtol=1e-10, atol=1e-12),
    "f32": Tolerance(rtol=1e-4, atol=1e-5),
    "f16": Tolerance(rtol=4e-3, atol=4e-3),
    "bf16": Tolerance(rtol=2e-2, atol=2e-2),
}


def _flash_spec(fmt, head: int, causal: bool = False) -> None:
    acc_fmt = F64 if fmt == F64 else F32
    name = f"flash_attn_{fmt}_d{head}" + ("_causal" if causal else "")

    def body(q, k, v, o, scale):
        tq = yield load_cell(q)  # [BQ, head]
        rows = block_id(0) * BQ + iota(BQ).reshape([BQ, 1])

        def step(j, *state):
            tk = yield load_at(k, [j])
            s = mma(tq, tk.transpose(), zeros([BQ, BK], acc_fmt)) * scalar(scale).to(acc_fmt)
            if causal:
                cols = j * BK + iota(BK).reshape([1, BK])
                s = where(cols <= rows, s, -np.inf)
            tv = yield load_at(v, [j])
            return online_softmax.step(state, s, tv)

        upper = block_id(0) + 1 if causal else SEQ // BK
        init = online_softmax.init([BQ, head], acc_fmt)
        state = yield for_range(0, upper, step, init=init)
        yield store_cell(o, online_softmax.finish(state).to(fmt))

    def build():
        qo = cells([SEQ, head], [BQ, head])
        kv = cells([SEQ, head], [BK, head], along=[FREE_AXIS, 1])
        return trace(name, body, In(fmt, qo), In(fmt, kv), In(fmt, kv), Out(fmt, qo), Scalar(F32))

    def reference(args):
        q, k, v, o, scale = args
        shaped = [x.astype(np.float64).reshape(SEQ, head) for x in (q, k, v)]
        out = _np_attention(*shaped, float(np.float32(scale)), causal)
        return [q, k, v, out.reshape(-1).astype(fmt.numpy_dtype), scale]

    def inputs(rng):
        dt = fmt.numpy_dtype
        qkv = [uniform(-1, 1)(rng, SEQ * head, dt) for _ in range(3)]
        return qkv + [np.zeros(SEQ * head, dt), float(1.0 / np.sqrt(head))], None

    what = "causal " if causal else ""
    acc_note = "" if fmt in (F64, F32) else ", f32 accumulators and softmax"
    make(
        name,
        build,
        reference,
        inputs,
        _TOL[fmt.name],
        "attention",
        f"{what}flash attention forward in {fmt}{acc_note}: {SEQ} queries and keys of width "
        f"{head}, blocks of {BQ}",
    )


def _oneblock_spec(fmt) -> None:
    """softmax(Q K^T * scale) V for 64 queries and keys of width 32, all in one block."""
    n, head = 64, 32
    name = f"attn_oneblock_{fmt}"

    def body(q, k, v, o, scale):
        tq = yield load_cell(q)
        tk = yield load_cell(k)
        tv = yield load_cell(v)
        s = mma(tq, tk.transpose(), zeros([n, n], fmt)) * scalar(scale)
        p = softmax(s, acc=fmt)  # in the kernel's own format
        yield store_cell(o, mma(p, tv, zeros([n, head], fmt)))

    def build():
        g = cells([n, head], [n, head])
        return trace(name, body, In(fmt, g), In(fmt, g), In(fmt, g), Out(fmt, g), Scalar(fmt))

    def reference(args):
        q, k, v, o, scale = args
        out = _np_attention(
            *[x.astype(np.float64).reshape(n, head) for x in (q, k, v)],
            float(np.asarray(scale, fmt.numpy_dtype)),
        )
        return [q, k, v, out.reshape(-1).astype(fmt.numpy_dtype), scale]

    def inputs(rng):
        dt = fmt.numpy_dtype
        return [uniform(-1, 1)(rng, n * head, dt) for _ in range(3)] + [
            np.zeros(n * head, dt),
            float(1.0 / np.sqrt(head)),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        _TOL[fmt.name],
        "attention",
        f"attention of {n} queries over {n} keys (width {head}) in one {fmt} block: "
        f"softmax of the whole score matrix, then one product with V",
    )


def _family() -> None:
    for fmt in (F64, F32, BF16, F16):
        _flash_spec(fmt, 64)
    _flash_spec(BF16, 32)
    _flash_spec(F32, 64, causal=True)
    _flash_spec(BF16, 64, causal=True)
    _oneblock_spec(F32)
    _oneblock_spec(F64)


_family()
