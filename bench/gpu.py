"""GPU benchmarks for a lent card: tileir kernels against the card's own baselines.

1. ``vadd`` over 2**28 f32 elements (cells of 1024) against a device-to-device
   copy (cuMemcpyDtoD) of the same bytes: the copy moves 2 x 1 GiB (read and
   write), vadd 3 x 1 GiB (two reads, one write); both times and bandwidths are
   printed, and their ratios.
2. A bf16 matmul 8192 x 8192 x 8192 with an f32 accumulator and f32 output
   (128 x 128 output tiles, K in steps of 64) against ``torch.matmul`` of the
   same bf16 matrices on the same card (if torch can be imported; else it says so).

Times are the best of ``--trials`` runs of ``--reps`` back-to-back launches,
between two CUDA events on the legacy default stream (torch: its own events on
its current stream).  Each result is checked before it is timed.

    python bench/gpu.py                         # on a GPU machine
    python bench/gpu.py --prebuild DIR --arch sm_90   # here: cubins for $TILEIR_CUBIN_DIR

The kernels record, encode and assemble on a CPU (tests/bench/test_bench_gpu_kernels.py);
only the timings need the card.  This is a script, never a timed test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

if __package__ in (None, ""):  # run as a script from a checkout: find tileir beside bench/
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tileir import (
    BF16,
    F32,
    FREE_AXIS,
    In,
    Out,
    cells,
    for_range,
    load_at,
    load_cell,
    mma,
    store_cell,
    trace,
    zeros,
)
from tileir.errors import TileIRError

VADD_N = 1 << 28
VADD_TILE = 1024
MM_SIZE = 8192
MM_TILE = (128, 128, 64)  # (M, N, K) of one block's step


# ----------------------------------------------------------------------------- the kernels


def _vadd(a, b, out):
    x = yield load_cell(a)
    y = yield load_cell(b)
    yield store_cell(out, x + y)


def vadd_kernel(n: int = VADD_N, tile: int = VADD_TILE):
    """``out = a + b`` over ``n`` f32 elements, one cell of ``tile`` per block."""
    g = cells([n], [tile])
    return trace("bench_vadd", _vadd, In(F32, g), In(F32, g), Out(F32, g))


def matmul_kernel(
    m: int = MM_SIZE, n: int = MM_SIZE, k: int = MM_SIZE, tiles: Sequence[int] = MM_TILE
):
    """``c = a @ b``: bf16 ``a`` (m x k) and ``b`` (k x n), f32 accumulator and ``c``; one
    ``tm x tn`` tile of ``c`` per block, walking K in steps of ``tk``."""
    tm, tn, tk = tiles

    def body(a, b, c):
        def step(kk, acc):
            ta = yield load_at(a, [kk])
            tb = yield load_at(b, [kk])
            return mma(ta, tb, acc)

        acc = yield for_range(0, k // tk, step, init=zeros(c))
        yield store_cell(c, acc)

    a = In(BF16, cells([m, k], [tm, tk], along=[0, FREE_AXIS]))
    b = In(BF16, cells([k, n], [tk, tn], along=[FREE_AXIS, 1]))
    c = Out(F32, cells([m, n], [tm, tn]))
    return trace("bench_matmul_bf16", body, a, b, c)


def kernels() -> list:
    """The benchmark's kernels at their benchmark sizes."""
    return [vadd_kernel(), matmul_kernel()]


# ----------------------------------------------------------------------------- timing


class Events:
    """CUDA events on the legacy default stream, through the driver module ``drv``."""

    def __init__(self, drv):
        self.drv = drv

    def call(self, fn: str, *args):
        out = getattr(self.drv, fn)(*args)
        code, rest = (out[0], out[1:]) if isinstance(out, tuple) else (out, ())
        if int(code) != 0:
            raise RuntimeError(f"{fn} failed with {getattr(code, 'name', code)}")
        return rest[0] if len(rest) == 1 else rest

    def best(self, issue: Callable[[], None], reps: int, trials: int) -> float:
        """Seconds per call of ``issue``: best over ``trials`` of ``reps`` calls in a row."""
        start, end = self.call("cuEventCreate", 0), self.call("cuEventCreate", 0)
        issue()  # warm-up (first-launch setup, caches)
        self.call("cuCtxSynchronize")
        best = float("inf")
        for _ in range(trials):
            self.call("cuEventRecord", start, 0)
            for _ in range(reps):
                issue()
            self.call("cuEventRecord", end, 0)
            self.call("cuEventSynchronize", end)
            ms = self.call("cuEventElapsedTime", start, end)
            best = min(best, float(ms) / 1e3 / reps)
        self.call("cuEventDestroy", start)
        self.call("cuEventDestroy", end)
        return best


def _launcher(drv, events: Events, prepared) -> Callable[[], None]:
    from tileir.real.driver import LAUNCH_BLOCK

    gx, gy, gz = prepared.grid

    def issue() -> None:  # no synchronize: launches queue back to back
        events.call(
            "cuLaunchKernel",
            prepared.kernel.handle,
            gx,
            gy,
            gz,
            *LAUNCH_BLOCK,
            0,
            0,
            prepared.args.address,
            0,
        )

    return issue


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch if torch.cuda.is_available() else None


def _device_random(dev, torch, fmt, n: int, seed: int):
    """``n`` random values of ``fmt`` on the GPU: a torch tensor when torch is there (taken by
    the launch without a copy), else a tileir Buffer filled from the host."""
    if torch is not None:
        dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[fmt.name]
        gen = torch.Generator(device="cuda").manual_seed(seed)
        return torch.randn(n, device="cuda", dtype=dtype, generator=gen)
    host = np.random.default_rng(seed).standard_normal(n, np.float32)
    buf = dev.alloc(fmt, n)
    dev.copy_in(buf, host.astype(fmt.numpy_dtype))
    return buf


def _device_zeros(dev, torch, fmt, n: int):
    if torch is not None:
        return torch.zeros(n, device="cuda", dtype=torch.float32)
    return dev.alloc(fmt, n)  # zero-filled


def _head(dev, buf, count: int) -> np.ndarray:
    """The first ``count`` elements of a Buffer or torch tensor, on the host, as f32."""
    if hasattr(buf, "cpu"):
        return buf.reshape(-1)[:count].float().cpu().numpy()
    from tileir.real.driver import DeviceBuffer

    host = np.empty(count, dtype=buf.format.numpy_dtype)
    dev.context.copy_out(DeviceBuffer(buf.handle.device_pointer, host.nbytes), host)
    return host.astype(np.float32)


# ----------------------------------------------------------------------------- the benchmarks


def bench_vadd(dev, drv, events: Events, torch, reps: int, trials: int, n: int) -> None:
    kernel = vadd_kernel(n)
    a, b = _device_random(dev, torch, F32, n, 1), _device_random(dev, torch, F32, n, 2)
    out = _device_zeros(dev, torch, F32, n)
    if torch is not None:
        torch.cuda.synchronize()
    prepared = dev.prepare(kernel, a, b, out)
    dev.issue(prepared)
    check = min(n, 1 << 20)
    agree = np.array_equal(_head(dev, out, check), _head(dev, a, check) + _head(dev, b, check))
    print(f"vadd check: the first {check} elements {'equal' if agree else 'DIFFER from'} a + b")
    t_vadd = events.best(_launcher(drv, events, prepared), reps, trials)
    nbytes = n * 4
    src = dev.alloc(F32, n)
    dst = dev.alloc(F32, n)
    t_copy = events.best(
        lambda: events.call(
            "cuMemcpyDtoD", dst.handle.device_pointer, src.handle.device_pointer, nbytes
        ),
        reps,
        trials,
    )
    bw_vadd, bw_copy = 3 * nbytes / t_vadd, 2 * nbytes / t_copy
    print(
        f"vadd f32 x 2^{n.bit_length() - 1} (cells of {VADD_TILE}): {t_vadd * 1e3:.3f} ms, "
        f"{bw_vadd / 1e12:.2f} TB/s (3 x {nbytes / 2**30:.2f} GiB moved)"
    )
    print(
        f"cuMemcpyDtoD of {nbytes / 2**30:.2f} GiB:           {t_copy * 1e3:.3f} ms, "
        f"{bw_copy / 1e12:.2f} TB/s (read + write)"
    )
    print(
        f"vadd / copy: time ratio {t_vadd / t_copy:.3f} (1.5 at equal bandwidth), "
        f"bandwidth ratio {bw_vadd / bw_copy:.3f}"
    )
    dev.free(src)
    dev.free(dst)


def bench_matmul(dev, drv, events: Events, torch, reps: int, trials: int, size: int) -> None:
    kernel = matmul_kernel(size, size, size)
    flops = 2.0 * size**3
    a = _device_random(dev, torch, BF16, size * size, 3)
    b = _device_random(dev, torch, BF16, size * size, 4)
    c = _device_zeros(dev, torch, F32, size * size)
    if torch is not None:
        torch.cuda.synchronize()
    prepared = dev.prepare(kernel, a, b, c)
    dev.issue(prepared)
    rows = 2  # checked on the host in f32 from the same bf16 inputs
    want = _head(dev, a, rows * size).reshape(rows, size) @ _head(dev, b, size * size).reshape(
        size, size
    )
    got = _head(dev, c, rows * size).reshape(rows, size)
    err = float(np.abs(got - want).max() / np.abs(want).max())
    print(
        f"matmul check: the first {rows} rows are within {err:.1e} (of the largest value) of "
        f"a host f32 product"
    )
    t_tile = events.best(_launcher(drv, events, prepared), reps, trials)
    print(
        f"matmul bf16 {size}^3 -> f32 (tiles {MM_TILE}): {t_tile * 1e3:.3f} ms, "
        f"{flops / t_tile / 1e12:.1f} TFLOP/s"
    )
    if torch is None:
        print("torch.matmul: torch is not importable here (or sees no GPU); no comparison")
        return
    a, b = a.reshape(size, size), b.reshape(size, size)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.matmul(a, b)
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(trials):
        start.record()
        for _ in range(reps):
            torch.matmul(a, b)
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) / 1e3 / reps)
    print(
        f"torch.matmul bf16 {size}^3 -> bf16 ({torch.__version__}): {best * 1e3:.3f} ms, "
        f"{flops / best / 1e12:.1f} TFLOP/s"
    )
    print(f"tileir / torch: time ratio {t_tile / best:.3f}")


# ----------------------------------------------------------------------------- command line


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=10, help="launches per timed run")
    parser.add_argument("--trials", type=int, default=5, help="timed runs (the best counts)")
    parser.add_argument("--vadd-n", type=int, default=VADD_N, help="vadd elements")
    parser.add_argument("--mm-size", type=int, default=MM_SIZE, help="matmul M = N = K")
    parser.add_argument(
        "--prebuild",
        metavar="DIR",
        default=None,
        help="only assemble the kernels into DIR (for $TILEIR_CUBIN_DIR)",
    )
    parser.add_argument("--arch", action="append", default=None, help="with --prebuild: sm_XX")
    args = parser.parse_args(argv)
    try:
        if args.prebuild:
            from tileir.real.prebuilt import prebuild

            chosen = [
                vadd_kernel(args.vadd_n),
                matmul_kernel(args.mm_size, args.mm_size, args.mm_size),
            ]
            for arch in args.arch or ["sm_90"]:
                files = prebuild(chosen, arch, Path(args.prebuild))
                print(f"{arch}: {len(files) - 1} cubin(s) in {args.prebuild}")
            return 0
        from tileir.real import RealDevice
        from tileir.real.driver import load_driver

        t0 = time.perf_counter()
        dev = RealDevice().open()
        drv = load_driver()
        events = Events(drv)
        v = dev.driver_version
        print(
            f"card: {dev.card_name} ({dev.arch}), driver supports CUDA "
            f"{v // 1000}.{v % 1000 // 10}"
        )
        torch = _torch()
        bench_vadd(dev, drv, events, torch, args.reps, args.trials, args.vadd_n)
        bench_matmul(dev, drv, events, torch, args.reps, args.trials, args.mm_size)
        print(
            f"cubins from: {', '.join(sorted(dev.toolchains))}; "
            f"{time.perf_counter() - t0:.1f} s in all"
        )
        dev.close()
    except TileIRError as err:
        print(str(err), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
