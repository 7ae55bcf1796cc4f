"""Block-scaled matrix products (``mmaf_scaled``, 13.3) and index promises (``assume``).

``mmas_<factors>_<scales>``: a 64 x 128 by 128 x 64 product of narrow factors, each block
of B consecutive elements along K multiplied by its own scale, into f32.  The pairs the
dialect takes: f8E4M3FN / f8E5M2 factors with f8E8M0FNU scales in blocks of 32 (MX),
f4E2M1FN factors with f8E4M3FN scales in blocks of 16 (NVFP4) or with f8E8M0FNU /
fnv8E5M3FNU scales in blocks of 16 or 32.  tileiras assembles them from sm_100 on
(fnv8E5M3FNU only for sm_107).  The references dequantize (factor times its block's
scale, exact in f64) and multiply in f64.

``assume_*``: kernels whose index arithmetic carries promises to the assembler
(``div_by``, ``div_by`` every / along, ``bounded``, ``same_elements``); the values they
compute do not depend on them.
"""

from __future__ import annotations

import numpy as np

from tileir import (
    F4E2M1FN,
    F8E4M3FN,
    F8E5M2,
    F8E8M0FNU,
    F32,
    FNV8E5M3FNU,
    I8,
    I32,
    In,
    Out,
    Shared,
    assume_bounded,
    assume_div_by,
    assume_same_elements,
    bitcast,
    block_id,
    cells,
    iota,
    load,
    load_cell,
    mma_scaled,
    store,
    store_cell,
    trace,
)
from tileir.host.tolerance import Tolerance
from tileir.kernels.common import archs_for, fmt_tag, make, uniform
from tileir.kernels.conversion_buffers import from_buffer, to_buffer
from tileir.kernels.floatref import round_to

M, N, K = 64, 64, 128


def _scaled_spec(fmt, scale_fmt, block: int) -> None:
    name = f"mmas_{fmt_tag(fmt)}_{fmt_tag(scale_fmt)}_b{block}"
    kb = K // block
    mem = I8 if fmt == F8E5M2 else fmt

    def body(a, b, sa, sb, c):
        ta = yield load_cell(a)
        tb = yield load_cell(b)
        if fmt == F8E5M2:
            ta, tb = bitcast(ta, F8E5M2), bitcast(tb, F8E5M2)
        xa = yield load_cell(sa)
        xb = yield load_cell(sb)
        yield store_cell(c, mma_scaled(ta, tb, 0.0, xa, xb))

    def build():
        return trace(
            name,
            body,
            In(mem, cells([M, K], [M, K])),
            In(mem, cells([K, N], [K, N])),
            In(scale_fmt, cells([M, kb], [M, kb])),
            In(scale_fmt, cells([kb, N], [kb, N])),
            Out(F32, cells([M, N], [M, N])),
        )

    def reference(args):
        a, b, sa, sb, c = args
        a_scales = np.repeat(from_buffer(sa, scale_fmt).reshape(M, kb), block, 1)
        b_scales = np.repeat(from_buffer(sb, scale_fmt).reshape(kb, N), block, 0)
        av = from_buffer(a, fmt).reshape(M, K) * a_scales
        bv = from_buffer(b, fmt).reshape(K, N) * b_scales
        return [a, b, sa, sb, (av @ bv).reshape(-1).astype(np.float32)]

    def inputs(rng):
        top = 6.0 if fmt == F4E2M1FN else 8.0

        def factors(n):
            return to_buffer(round_to(rng.uniform(-top, top, n), fmt), fmt)

        def scales(n):
            return to_buffer(round_to(2.0 ** rng.uniform(-4, 2, n), scale_fmt), scale_fmt)

        return [
            factors(M * K),
            factors(K * N),
            scales(M * kb),
            scales(kb * N),
            np.zeros(M * N, np.float32),
        ], None

    make(
        name,
        build,
        reference,
        inputs,
        Tolerance(rtol=1e-5, atol=1e-3),
        "matmul",
        f"{M}x{K} by {K}x{N} {fmt} factors with {scale_fmt} scales for each block of {block} "
        f"along K, into f32 (mmaf_scaled)",
        archs_for(fmt, scale_fmt),
    )


# ----------------------------------------------------------------------------- assume

A_N, A_T = 2048, 256


def _assume_div_by() -> None:
    name = "assume_div_by_copy"

    def body(x, out):
        start = assume_div_by(block_id(0) * A_T, 16)
        rows = assume_div_by(iota(A_T) * 4, 4, every=4, along=0)
        t = yield load(x, start, [A_T])
        yield store(out, 0, t + rows.to(F32), offsets=start + iota(A_T))

    def build():
        return trace(name, body, Shared(F32), Shared(F32))

    make(
        name,
        build,
        lambda a: [
            a[0],
            (a[0].reshape(-1, A_T) + np.arange(A_T) * 4).reshape(-1).astype(np.float32),
        ],
        lambda r: ([uniform()(r, A_N, np.float32), np.zeros(A_N, np.float32)], (A_N // A_T,)),
        None,
        "memory",
        "x + 4i per block with its start promised a multiple of 16 and the "
        "lane offsets multiples of 4 in every group of 4 (assume div_by)",
    )


def _assume_bounded() -> None:
    name = "assume_bounded_gather"

    def body(x, ids, out):
        i = yield load_cell(ids)
        safe = assume_bounded(i & 255, 0, 255)
        yield store_cell(out, (yield load(x, offsets=safe)))

    def build():
        g = cells([A_N], [A_T])
        return trace(name, body, Shared(F32), In(I32, g), Out(F32, g))

    make(
        name,
        build,
        lambda a: [a[0], a[1], a[0][a[1] & 255]],
        lambda r: (
            [
                uniform()(r, 256, np.float32),
                r.integers(0, 10**6, A_N).astype(np.int32),
                np.zeros(A_N, np.float32),
            ],
            None,
        ),
        None,
        "memory",
        "a gather whose indices are promised in [0, 255] (assume bounded)",
    )


def _assume_same() -> None:
    name = "assume_same_elements_scale"

    def body(x, out):
        t = yield load_cell(x)
        group = assume_same_elements(iota(A_T) // 8, [8]).to(F32)
        yield store_cell(out, t * group)

    def build():
        g = cells([A_N], [A_T])
        return trace(name, body, In(F32, g), Out(F32, g))

    make(
        name,
        build,
        lambda a: [
            a[0],
            (a[0].reshape(-1, A_T) * (np.arange(A_T) // 8)).reshape(-1).astype(np.float32),
        ],
        lambda r: ([uniform()(r, A_N, np.float32), np.zeros(A_N, np.float32)], None),
        None,
        "memory",
        "x times its lane's group number, the groups of 8 promised equal (assume same_elements)",
    )


for _fmt, _scale, _block in (
    (F8E4M3FN, F8E8M0FNU, 32),
    (F8E5M2, F8E8M0FNU, 32),
    (F4E2M1FN, F8E4M3FN, 16),
    (F4E2M1FN, F8E8M0FNU, 32),
    (F4E2M1FN, F8E8M0FNU, 16),
    (F4E2M1FN, FNV8E5M3FNU, 32),
):
    _scaled_spec(_fmt, _scale, _block)
_assume_div_by()
_assume_bounded()
_assume_same()
