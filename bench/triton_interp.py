"""Triton's interpreter (TRITON_INTERPRET=1) on bench/fake_device.py's vadd and matmul.

Run by bench/fake_device.py in a child process, with the Python given by
``--triton-python`` (Triton and torch may live in a separate environment),
``TRITON_INTERPRET=1`` set before Triton is imported.  It prints one JSON line:
``{"versions": {...}, "results": {kernel: {"seconds": s, "ok": bool, "max_err": e}}}``
or ``{"error": "why"}`` when Triton or torch cannot be imported.

The kernels do what bench/fake_kernels.py's do: vadd over ``n`` f32 elements in
blocks of ``tile`` (masked), and an f32 matmul in ``tm x tn`` output tiles
walking K in steps of ``tk`` with an f32 accumulator (``input_precision="ieee"``
so no TF32 rounding).  Each is warmed on a small grid first (the interpreter
rewrites the function's AST once), then timed at the given size.

    TRITON_INTERPRET=1 /tmp/tritonenv/bin/python bench/triton_interp.py --size tiny
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def _kernels(triton, tl):
    @triton.jit
    def vadd(a, b, c, n, TILE: tl.constexpr):
        offs = tl.program_id(0) * TILE + tl.arange(0, TILE)
        ok = offs < n
        tl.store(c + offs, tl.load(a + offs, mask=ok) + tl.load(b + offs, mask=ok), mask=ok)

    @triton.jit
    def matmul(a, b, c, M, N, K, TM: tl.constexpr, TN: tl.constexpr, TK: tl.constexpr):
        rm = tl.program_id(0) * TM + tl.arange(0, TM)
        rn = tl.program_id(1) * TN + tl.arange(0, TN)
        rk = tl.arange(0, TK)
        acc = tl.zeros((TM, TN), dtype=tl.float32)
        for k in range(0, K, TK):
            ta = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
            tb = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
            acc += tl.dot(ta, tb, input_precision="ieee")
        tl.store(c + rm[:, None] * N + rn[None, :], acc)

    return vadd, matmul


def run(size: dict, names, seed: int = 0) -> dict:
    """Time each kernel once at ``size`` (after a warm-up on a small grid); check its answer."""
    import numpy as np
    import torch
    import triton
    import triton.language as tl

    vadd, matmul = _kernels(triton, tl)
    rng = np.random.default_rng(seed)
    results = {}
    if "vadd" in names:
        n, tile = size["vadd"]["n"], size["vadd"]["tile"]
        a, b = (torch.from_numpy(rng.standard_normal(n, dtype=np.float32)) for _ in range(2))
        c = torch.zeros(n)
        vadd[(2,)](a, b, c, 2 * tile, TILE=tile)  # warm: two blocks
        start = time.perf_counter()
        vadd[(triton.cdiv(n, tile),)](a, b, c, n, TILE=tile)
        seconds = time.perf_counter() - start
        err = float((c - (a + b)).abs().max())
        results["vadd"] = {"seconds": seconds, "ok": err == 0.0, "max_err": err}
    if "matmul" in names:
        p = size["matmul"]
        m, n, k, tm, tn, tk = (p[x] for x in ("m", "n", "k", "tm", "tn", "tk"))
        a = torch.from_numpy(rng.standard_normal((m, k), dtype=np.float32))
        b = torch.from_numpy(rng.standard_normal((k, n), dtype=np.float32))
        c = torch.zeros((m, n))
        matmul[(1, 1)](a, b, c, m, n, k, TM=tm, TN=tn, TK=tk)  # warm: one block
        start = time.perf_counter()
        matmul[(m // tm, n // tn)](a, b, c, m, n, k, TM=tm, TN=tn, TK=tk)
        seconds = time.perf_counter() - start
        err = float((c - a @ b).abs().max())
        results["matmul"] = {"seconds": seconds, "ok": err <= 1e-3 * k**0.5, "max_err": err}
    return {
        "versions": {"triton": triton.__version__, "torch": torch.__version__},
        "results": results,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="full", choices=("full", "tiny"))
    parser.add_argument(
        "--sizes-json",
        help="the sizes themselves (bench/fake_device.py "
        "passes them, so this process needs no tileir)",
    )
    parser.add_argument("--kernels", nargs="*", default=["vadd", "matmul"])
    args = parser.parse_args(argv)
    if os.environ.get("TRITON_INTERPRET") != "1":
        print(json.dumps({"error": "TRITON_INTERPRET=1 must be set before Triton is imported"}))
        return 2
    if args.sizes_json:
        size = json.loads(args.sizes_json)
    else:
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from bench.fake_kernels import SIZES

        size = SIZES[args.size]
    try:
        out = run(size, args.kernels)
    except ImportError as e:
        out = {"error": f"Triton's interpreter needs triton and torch: {e}"}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
