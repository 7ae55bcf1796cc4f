"""The fake device's interpreter against plain numpy doing the same work (and Triton's
interpreter, where it is installed).

Kernels (bench/fake_kernels.py, recorded with tileir's public API): vadd over
2**24 f32 elements in cells of 1024; row softmax over 4096 x 1024 f32, 8 rows a
block, with keepdims; a 1024**3 f32 matmul in 64 x 64 x 32 tiles (a K loop of
32 trips); flash attention forward over 1024 queries and keys of width 64,
blocks of 64, f32.  Each is checked against numpy once, then timed: numpy
(``a + b``, the row softmax, ``a @ b``, ``softmax(q k^T s) v``) and
``tileir.fake.interpreter.interpret`` (the interpreter alone) and
``FakeDevice(mode="interpret").run`` (plus launch checks and buffer copies),
warm, best of ``--repeats``, in turn round by round.  Goals: the interpreter
within 3x of numpy on vadd and within 5x on the others.

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

On a shared two-core machine numpy's two BLAS threads stall whenever another
process holds a core, and its times scatter (flash attention's from 6 to 27 ms);
``OPENBLAS_NUM_THREADS=1`` gives a steadier, single-threaded baseline.

A script, never a timed test (tests/bench/test_bench_smoke.py runs each kernel once, tiny).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
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

GOALS = {"vadd": 3.0, "row_softmax": 5.0, "matmul": 5.0, "flash_attn": 5.0}
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


def measure(c: Case, repeats: int) -> dict:
    """Best-of times of numpy, the interpreter and the fake device on case ``c``."""
    device = FakeDevice(mode="interpret")
    return race(
        {
            "numpy": lambda: c.numpy_fn(*c.args),
            "interpret": lambda: run_interpreter(c),
            "device": lambda: run_device(c, device),
        },
        repeats=repeats,
    )


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
    body, verdicts = [], []
    for name, work, t, err in rows:
        ratio = t["interpret"] / t["numpy"]
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
                f"{t['device'] / t['numpy']:.2f}x",
                tr_text,
                tr_ratio,
                f"{err:.1e}",
            )
        )
        goal = GOALS[name]
        verdicts.append(
            f"{name} {ratio:.2f}x <= {goal:.0f}x: {'met' if ratio <= goal else 'MISSED'}"
        )
    lines = [
        "fake device interpreter vs numpy (same work, same run)",
        f"({machine_line()}; numpy BLAS: {_blas()}; warm, best of {repeats}, "
        f"sides interleaved, order rotating)",
        "",
        table(
            [
                "kernel",
                "work",
                "numpy",
                "interpret",
                "ratio",
                "FakeDevice.run",
                "ratio",
                "Triton interp",
                "ratio",
                "max |diff|",
            ],
            body,
        ),
        "",
        "goals: " + "; ".join(verdicts)
        if size == "full"
        else f"(goals apply to --size full; this is --size {size})",
    ]
    if triton_note:
        timed = " (one timed run after a small warm-up)" if triton else ""
        lines.append(f"Triton: {triton_note}{timed}")
    return "\n".join(lines)


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
    parser.add_argument("--repeats", type=int, default=5, help="timed repetitions (best of)")
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
        rows.append((name, c.work, measure(c, args.repeats), err))
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
