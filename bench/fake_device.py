"""The fake device's interpreter against plain numpy doing the same work (and Triton's
interpreter, where it is installed).

Kernels (bench/fake_kernels.py, recorded with tileir's public API): vadd over
2**24 f32 elements in cells of 1024, and again in cells of 64 and of 4096; a tanh-form GELU over
2**24 f32; a row layer norm over 8192 x 1024 f32, 8 rows a block; row softmax over 4096 x 1024 f32, 8 rows a
block, with keepdims; a 1024**3 f32 matmul in 64 x 64 x 32 tiles (a K loop of
32 trips); flash attention forward over 1024 queries and keys of width 64,
blocks of 64, f32.  Each is checked against numpy once, then timed: numpy
(``a + b``, the row softmax, ``a @ b``, ``softmax(q k^T s) v``) and
``tileir.fake.interpreter.interpret`` (the interpreter alone) and
``FakeDevice(mode="interpret").run`` (plus launch checks and buffer copies),
warm, best of ``--repeats``, in turn round by round.  Matmul and flash attention have a
second numpy peer, "numpy, the kernel's steps": the kernel's own arithmetic (32 rounded
K-step products each added into the accumulator; the blockwise online softmax) in bulk
numpy over all blocks at once, checked to give the interpreter's bits; the interpreter's
ratio against it is printed beside the one against plain numpy, which stays the goal.  Each side's peak memory beyond
the arguments (tracemalloc, which sees numpy's buffers) is measured once, apart from
the timings.  Goals (issue #19): the interpreter within 1.5x of numpy on the
element-wise and row-wise kernels, within 2.5x on matmul and flash attention;
``FakeDevice.run`` within 1.3x of the interpreter alone; vadd in cells of 64 within
1.5x of vadd in cells of 1024 and of 4096; peak memory at most 2x numpy's.

Triton's interpreter (``TRITON_INTERPRET=1``, a Python loop over the grid) runs
vadd and matmul at the same sizes in a child process (bench/triton_interp.py)
with the Python named by ``--triton-python`` (default ``$TILEIR_BENCH_TRITON_PYTHON``,
else this one); without Triton and torch there the table says why.  It is slow
(tens of seconds each): ``--no-triton`` skips it.

numpy's speed depends on OpenBLAS's settings: on some processors this machine
sets OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, which slow a current numpy; for a
fair baseline unset both for this command only:

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python bench/fake_device.py
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \\
        TILEIR_BENCH_TRITON_PYTHON=/tmp/tritonenv/bin/python python bench/fake_device.py
    python bench/fake_device.py --no-triton --profile      # where the interpreter's time goes
    python bench/fake_device.py --no-triton --size overhead --kernels flash_attn matmul
                                        # its fixed cost per trip: tiny tiles, many trips

On a shared two-core machine numpy's two BLAS threads stall whenever another
process holds a core, and its times scatter (flash attention's from 6 to 27 ms);
``OPENBLAS_NUM_THREADS=1`` gives a steadier, single-threaded baseline.

A script, never a timed test (tests/bench/test_bench_smoke.py runs each kernel once, tiny).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Optional

import numpy as np

if __package__ in (None, ""):  # run as a script from a checkout: find tileir and bench/
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.fake_kernels import NAMES, SIZES, Case, case
from bench.timing import (
    by_file,
    fmt_seconds,
    machine_line,
    profile_table,
    profile_top,
    race,
    table,
)
from tileir.fake import FakeDevice
from tileir.fake.interpreter import interpret

#: kernel -> the largest interpreter / numpy time ratio that meets the goal
GOALS = {
    "vadd": 1.5,
    "vadd_small": 1.5,
    "vadd_wide": 1.5,
    "gelu": 1.5,
    "row_softmax": 1.5,
    "layer_norm": 1.5,
    "matmul": 2.5,
    "flash_attn": 2.5,
}
DEVICE_GOAL = 1.3  # FakeDevice.run / interpreter alone
TILE_GOAL = 1.5  # vadd in cells of 64 / vadd in cells of 1024 (and of 4096), interpreter times
MEMORY_GOAL = 2.0  # interpreter peak / numpy peak
TRITON_KERNELS = ("vadd", "matmul")
TRITON_SCRIPT = Path(__file__).resolve().with_name("triton_interp.py")


def run_interpreter(c: Case) -> np.ndarray:
    """The interpreter's answer: the output buffer after one launch."""
    return interpret(c.kernel.module, c.kernel.name, list(c.args), c.kernel.grid)[c.out]


def run_device(c: Case, device: FakeDevice) -> np.ndarray:
    return device.run(c.kernel, *c.args)[c.out]


def check(c: Case) -> float:
    """Run the interpreter once and compare with numpy; the largest difference (raises
    AssertionError, naming the kernel, when outside the case's tolerance)."""
    got = run_interpreter(c).reshape(-1)
    want = np.asarray(c.numpy_fn(*c.args), dtype=got.dtype).reshape(-1)
    if not np.allclose(got, want, rtol=c.rtol, atol=c.atol):
        bad = int(np.argmax(np.abs(got - want)))
        raise AssertionError(
            f"{c.name}: the interpreter gives {got[bad]!r} at element {bad}, "
            f"numpy {want[bad]!r} (rtol={c.rtol}, atol={c.atol})"
        )
    return float(np.max(np.abs(got - want))) if got.size else 0.0


def same_steps(c: Case) -> Optional[bool]:
    """Whether "numpy, the kernel's steps" (``c.steps_fn``) gives the interpreter's answer
    bit for bit; None for a kernel without that peer."""
    if c.steps_fn is None:
        return None
    got = run_interpreter(c).reshape(-1)
    want = np.asarray(c.steps_fn(*c.args), dtype=got.dtype).reshape(-1)
    bits = f"u{got.dtype.itemsize}"
    return bool(np.array_equal(got.view(bits), np.ascontiguousarray(want).view(bits)))


def measure(c: Case, repeats: int) -> dict:
    """Best-of times of numpy, the interpreter and the fake device on case ``c`` (and of
    numpy doing the kernel's own steps, ``steps``, where the case has them)."""
    device = FakeDevice(mode="interpret")
    sides = {
        "numpy": lambda: c.numpy_fn(*c.args),
        "interpret": lambda: run_interpreter(c),
        "device": lambda: run_device(c, device),
    }
    if c.steps_fn is not None:
        sides["steps"] = lambda: c.steps_fn(*c.args)
    return race(sides, repeats=repeats)


def peak_bytes(fn) -> int:
    """The peak of memory ``fn()`` allocates beyond what is live when it starts (tracemalloc
    follows numpy's array buffers as well as Python objects); the result is dropped."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = fn()
        peak = tracemalloc.get_traced_memory()[1] - base
        del result
    finally:
        tracemalloc.stop()
    return max(peak, 0)


def memory(c: Case) -> dict:
    """Peak bytes beyond the arguments: numpy's answer, and the interpreter's launch."""
    return {
        "numpy": peak_bytes(lambda: c.numpy_fn(*c.args)),
        "interpret": peak_bytes(lambda: run_interpreter(c)),
    }


def fmt_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


def triton_times(python: str, size: dict, names, timeout: int = 900) -> tuple[dict, str]:
    """Triton interpreter times from a child process: ``({kernel: result}, note)``."""
    env = dict(os.environ, TRITON_INTERPRET="1")
    sizes = json.dumps({k: size[k] for k in names})
    try:
        done = subprocess.run(
            [python, str(TRITON_SCRIPT), "--sizes-json", sizes, "--kernels", *names],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return {}, f"Triton's interpreter did not run with {python}: {e}"
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return {}, f"Triton's interpreter failed with {python} (exit {done.returncode}): {tail[0]}"
    out = json.loads(lines[-1])
    if "error" in out:
        return {}, (
            f"no Triton column: {out['error']} (with {python}; install triton and "
            f"torch there, e.g. a venv with pip install torch==2.13.0 triton)"
        )
    v = out["versions"]
    return out["results"], f"Triton {v['triton']} interpreter, torch {v['torch']}, via {python}"


def report(
    rows: list, repeats: int, triton: dict, triton_note: Optional[str], size: str = "full"
) -> str:
    """The table of times, ratios and peak memory, then one verdict per goal."""
    body, verdicts, steps = [], [], []
    times = {}
    for row in rows:
        name, work, t, err, mem = row[:5]
        same = row[5] if len(row) > 5 else None  # the kernel's steps' bits (same_steps)
        times[name] = t
        ratio = t["interpret"] / t["numpy"]
        dev_ratio = t["device"] / t["interpret"]
        mem_ratio = mem["interpret"] / max(mem["numpy"], 1)
        tr = triton.get(name)
        tr_text = "-" if tr is None else fmt_seconds(tr["seconds"]) + ("" if tr["ok"] else " (!)")
        tr_ratio = "-" if tr is None else f"{tr['seconds'] / t['numpy']:.0f}x"
        body.append(
            (
                name,
                work,
                fmt_seconds(t["numpy"]),
                fmt_seconds(t["interpret"]),
                f"{ratio:.2f}x",
                fmt_seconds(t["device"]),
                f"{dev_ratio:.2f}x",
                fmt_bytes(mem["numpy"]),
                fmt_bytes(mem["interpret"]),
                f"{mem_ratio:.2f}x",
                tr_text,
                tr_ratio,
                f"{err:.1e}",
            )
        )
        if "steps" in t:
            steps.append(
                (
                    name,
                    fmt_seconds(t["steps"]),
                    f"{t['interpret'] / t['steps']:.2f}x",
                    f"{ratio:.2f}x",
                    f"{t['steps'] / t['numpy']:.2f}x",
                    "-" if same is None else ("yes" if same else "NO"),
                )
            )
        goal = GOALS[name]
        verdicts.append(f"{name} {ratio:.2f}x <= {goal:g}x: {_met(ratio <= goal)}")
        verdicts.append(
            f"{name} FakeDevice.run/interpret {dev_ratio:.2f}x <= {DEVICE_GOAL:g}x: "
            f"{_met(dev_ratio <= DEVICE_GOAL)}"
        )
        verdicts.append(
            f"{name} peak memory {mem_ratio:.2f}x numpy's <= {MEMORY_GOAL:g}x: "
            f"{_met(mem_ratio <= MEMORY_GOAL)}"
        )
    for wide, cell in (("vadd", 1024), ("vadd_wide", 4096)):
        if wide in times and "vadd_small" in times:
            tile_ratio = times["vadd_small"]["interpret"] / times[wide]["interpret"]
            verdicts.append(
                f"vadd in cells of 64 / in cells of {cell}: {tile_ratio:.2f}x <= "
                f"{TILE_GOAL:g}x: {_met(tile_ratio <= TILE_GOAL)}"
            )
    lines = [
        "fake device interpreter vs numpy (same work, same run)",
        f"({machine_line()}; numpy BLAS: {_blas()}; warm, best of {repeats}, "
        f"sides interleaved, order rotating; peak memory beyond the arguments, tracemalloc)",
        "",
        table(
            [
                "kernel",
                "work",
                "numpy",
                "interpret",
                "ratio",
                "FakeDevice.run",
                "run/interp",
                "numpy peak",
                "interp peak",
                "ratio",
                "Triton interp",
                "ratio",
                "max |diff|",
            ],
            body,
        ),
        "",
    ]
    if steps:
        lines += [
            "numpy, the kernel's steps: the kernel's own arithmetic in bulk numpy over all "
            "blocks at once",
            "(matmul: per K step a banded 2-D GEMM into scratch, then the add; flash "
            "attention: the blockwise online softmax over every query block at once; each "
            "GEMM tile by tile instead where this BLAS sums a bulk one in another order)",
            table(
                [
                    "kernel",
                    "kernel's steps",
                    "interpret / steps",
                    "interpret / numpy",
                    "steps / numpy",
                    "same bits",
                ],
                steps,
            ),
            "",
        ]
    if size == "full":
        lines += ["goals:", *("  " + v for v in verdicts)]
    else:
        lines.append(f"(goals apply to --size full; this is --size {size})")
    if triton_note:
        timed = " (one timed run after a small warm-up)" if triton else ""
        lines.append(f"Triton: {triton_note}{timed}")
    return "\n".join(lines)


def _met(ok: bool) -> str:
    return "met" if ok else "MISSED"


def _blas() -> str:
    try:
        cfg = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return f"{cfg.get('name')} {cfg.get('version')}"
    except Exception:  # the layout of show_config differs across numpy versions
        return "unknown"


def profile(names, size: str, top: int) -> str:
    """Where the interpreter's time goes, kernel by kernel."""
    parts = []
    for name in names:
        c = case(name, size)
        run_interpreter(c)
        total, rows, every = profile_top(lambda: run_interpreter(c), calls=1, top=top)
        files = [(f, f"{t * 1e3:.1f} ms", f"{s:.1%}") for f, t, s in by_file(every, top=10)]
        parts.append(
            f"--- {name} ({c.work}): interpreter under cProfile\n"
            + profile_table(total, rows)
            + "\nby file (own time summed):\n"
            + table(["file", "own", "share"], files)
        )
    return "\n\n".join(parts)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # 15: the BLAS-bound kernels' best of 5 scatters by 10 % from run to run on 2 cores (both
    # sides); the whole bench still takes about 20 s
    parser.add_argument("--repeats", type=int, default=15, help="timed repetitions (best of)")
    parser.add_argument("--size", default="full", choices=sorted(SIZES))
    parser.add_argument("--kernels", nargs="*", default=list(NAMES), choices=NAMES)
    parser.add_argument("--no-triton", action="store_true", help="skip Triton's interpreter")
    parser.add_argument(
        "--triton-python",
        default=os.environ.get("TILEIR_BENCH_TRITON_PYTHON", sys.executable),
        help="a Python with triton and torch (default: "
        "$TILEIR_BENCH_TRITON_PYTHON, else this one)",
    )
    parser.add_argument("--profile", action="store_true", help="cProfile the interpreter")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args(argv)
    rows = []
    for name in args.kernels:
        c = case(name, args.size)
        err = check(c)
        rows.append((name, c.work, measure(c, args.repeats), err, memory(c), same_steps(c)))
        del c
    triton, note = {}, "skipped (--no-triton)"
    wanted = [k for k in TRITON_KERNELS if k in args.kernels]
    if not args.no_triton and wanted:
        triton, note = triton_times(args.triton_python, SIZES[args.size], wanted)
    print(report(rows, args.repeats, triton, note, args.size))
    if args.profile:
        print()
        print(profile(args.kernels, args.size, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
