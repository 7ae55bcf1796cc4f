"""How long the command line and ``import tileir`` take to answer, each in a fresh process,
against ``import numpy`` measured in the same run (the floor any numpy-based tool pays).

    python bench/startup.py                 # best of 5 fresh processes each
    python bench/startup.py --repeats 9 --kernel softmax_f32

Each line is the best wall time of ``--repeats`` child processes (a shared machine only ever
adds time), the ratio to ``import numpy``, and, for ``import tileir``, which heavy modules the
import pulled in.  Goals (issue #19): ``import tileir`` under 0.3 s and ``tileir render NAME``
under 0.5 s on the two-core development machine.

Before timing, the package's sources are compiled to bytecode (``compileall``, into
``tileir/__pycache__``), as ``pip install`` does for an installed package: a checkout run with
``PYTHONDONTWRITEBYTECODE=1`` (this machine sets it) and stale caches would otherwise compile
every module on every start (about 0.25 s of ``tileir render``), which measures the
environment, not tileir.  ``--no-compile`` leaves the caches as they are.

A script, never a timed test (tests/bench/test_bench_smoke.py runs it once with one repeat).
"""

from __future__ import annotations

import argparse
import compileall
import os
import subprocess
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script from a checkout: find tileir and bench/
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import machine_line, table

ROOT = Path(__file__).resolve().parents[1]

#: name -> (goal in seconds or None, argv after the interpreter)
GOALS = {"import tileir": 0.3, "tileir render": 0.5}

#: modules whose presence after ``import tileir`` says where start-up time went
HEAVY = ("ml_dtypes", "hypothesis", "cuda", "tileir.kernels", "tileir.fake", "tileir.real")


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def best_wall(argv: list, repeats: int) -> float:
    """The best wall time of ``repeats`` fresh runs of ``python argv``; raises on failure."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, *argv], env=_env(), capture_output=True, text=True, cwd=ROOT
        )
        took = time.perf_counter() - start
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise RuntimeError(f"`python {' '.join(argv)}` failed: {tail[0]}")
        best = min(best, took)
    return best


def loaded_by_import() -> list:
    """Which of :data:`HEAVY` ``import tileir`` loads."""
    probe = (
        "import sys, tileir; "
        f"print(' '.join(m for m in {HEAVY!r} if any(k == m or k.startswith(m + '.') "
        "for k in sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=_env(), capture_output=True, text=True, cwd=ROOT
    )
    return done.stdout.split()


def measure(kernel: str, repeats: int) -> dict:
    """Best wall seconds of: the bare interpreter, ``import numpy``, ``import tileir`` and
    ``tileir render KERNEL``."""
    return {
        "python": best_wall(["-c", "pass"], repeats),
        "import numpy": best_wall(["-c", "import numpy"], repeats),
        "import tileir": best_wall(["-c", "import tileir"], repeats),
        "tileir render": best_wall(["-m", "tileir", "render", kernel], repeats),
    }


def report(times: dict, kernel: str, repeats: int, heavy: list) -> str:
    floor = times["import numpy"]
    rows = []
    for what, seconds in times.items():
        label = f"tileir render {kernel}" if what == "tileir render" else what
        rows.append((label, f"{seconds * 1e3:.0f} ms", f"{seconds / floor:.2f}x"))
    verdicts = [
        f"{what} {times[what]:.2f} s < {goal:g} s: {'met' if times[what] < goal else 'MISSED'}"
        for what, goal in GOALS.items()
    ]
    return "\n".join(
        [
            "start-up: fresh processes, best wall time",
            f"({machine_line()}; best of {repeats})",
            "",
            table(["command", "best", "vs import numpy"], rows),
            "",
            "import tileir also loads: " + (", ".join(heavy) or "none of " + ", ".join(HEAVY)),
            "goals: " + "; ".join(verdicts),
        ]
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="fresh processes each (best of)")
    parser.add_argument("--kernel", default="vadd", help="the kernel `tileir render` renders")
    parser.add_argument(
        "--no-compile",
        action="store_true",
        help="time with the bytecode caches as they are (default: compile tileir's first)",
    )
    args = parser.parse_args(argv)
    if not args.no_compile:
        compileall.compile_dir(str(ROOT / "tileir"), quiet=1)
    times = measure(args.kernel, args.repeats)
    print(report(times, args.kernel, args.repeats, loaded_by_import()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
