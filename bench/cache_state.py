"""What the state of the CPU caches does to one record + lower + encode, and to cuTile's export.

bench/record_encode.py times calls that take a fraction of a millisecond (tileir's) beside
calls of several milliseconds (cuTile's).  What runs just before a call decides what it finds
in the caches, and a short call feels that most.  This script times the same two calls
(chapter kernel ``--kernel``, debug info on, best of ``--repeats``) after each of:

* nothing (the same call just ran: every cache warm);
* a stream over N MiB of memory (a numpy sum), for N from half the L2 to well past the
  last-level cache: where the time steps up shows how big the working set is and which
  cache held it;
* a full garbage collection (``gc.collect()``): it walks every tracked object of the
  process, numpy's, cuTile's and tileir's long-lived ones included, which is what
  ``record_encode.py --collect each`` runs before every call;
* the same collection with the long-lived heap frozen (``gc.freeze()``, as
  ``--collect young``): only what the calls left is walked;
* the other side's call (cuTile's export before tileir's, tileir's before cuTile's).

    python bench/cache_state.py [--kernel vadd] [--repeats 15]

A script, never a timed test (tests/bench/test_bench_smoke.py runs it once at a tiny size).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Callable, Optional

if __package__ in (None, ""):  # run as a script from a checkout: find tileir and bench/
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from bench.timing import fmt_seconds, machine_line, table
from tileir.kernels import registry

#: the streams, in MiB of float64 summed (half the L2 of a core here, up to 4x the LLC)
STREAMS_MIB = (1, 2, 4, 16, 32, 64, 256)


def _after(before: Callable[[], object], fn: Callable[[], object], repeats: int) -> float:
    """The least time of ``fn`` with ``before`` run (untimed) just ahead of each call; the
    collector is paused during the timed call, as in the other benches."""
    best = float("inf")
    for _ in range(repeats):
        before()
        gc.disable()
        try:
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return best


def _frozen_collect() -> None:
    gc.freeze()  # (everything alive now stays out of the walk; the calls' garbage is not)
    try:
        gc.collect()
    finally:
        gc.unfreeze()


def conditions(streams_mib) -> dict:
    """name -> what runs before a timed call (the other side's call is added by measure)."""
    out: dict[str, Callable[[], object]] = {"nothing (warm)": lambda: None}
    for mib in streams_mib:
        data = np.ones(mib << 17)  # (mib MiB of float64)
        out[f"a stream over {mib} MiB"] = data.sum
    out["a full collection (gc.collect)"] = gc.collect
    out["a collection, long-lived heap frozen"] = _frozen_collect
    return out


def measure(kernel: str, repeats: int, streams_mib=STREAMS_MIB) -> tuple[list, Optional[str]]:
    """Rows ``(condition, tileir s, cuTile s or NaN)`` and why cuTile is missing (or None)."""
    spec = registry.get(kernel)

    def ours() -> bytes:
        return spec.build().bytecode("13.4", debug_info=True)

    theirs: Optional[Callable[[], object]] = None
    why = None
    try:
        from bench import cutile_chapter

        theirs = cutile_chapter.exporter(kernel, "13.4", cold=False)
    except ImportError as e:  # cuda-tile is a test extra
        why = f"cuTile Python could not be imported ({e})"
    for _ in range(3):  # warm: memos, cuTile's HIR cache, the interpreter's caches
        ours()
        if theirs is not None:
            theirs()
    rows = []
    for name, before in conditions(streams_mib).items():
        t_ours = _after(before, ours, repeats)
        t_theirs = _after(before, theirs, repeats) if theirs is not None else float("nan")
        rows.append((name, t_ours, t_theirs))
    if theirs is not None:
        rows.append(
            ("the other side's call", _after(theirs, ours, repeats), _after(ours, theirs, repeats))
        )
    return rows, why


def _added(seconds: float) -> str:
    """A difference from the warm time, signed (a best-of can come out under the warm one)."""
    return ("+" if seconds >= 0 else "-") + fmt_seconds(abs(seconds))


def report(kernel: str, repeats: int, rows: list, why: Optional[str]) -> str:
    warm_ours, warm_theirs = rows[0][1], rows[0][2]
    body = [
        (
            name,
            fmt_seconds(o),
            _added(o - warm_ours) if i else "",
            fmt_seconds(t),
            _added(t - warm_theirs) if i else "",
            f"{t / o:.1f}x",
        )
        for i, (name, o, t) in enumerate(rows)
    ]
    lines = [
        f"record + lower + encode of {kernel} (debug info) and cuTile's HIR-cached export, "
        f"after each condition",
        f"({machine_line()}; wall time, best of {repeats})",
        "",
        table(["before each call", "tileir", "added", "cuTile", "added", "cuTile/tileir"], body),
    ]
    if why:
        lines += ["", f"cuTile columns empty: {why}"]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kernel", default="vadd", choices=sorted(registry.names()))
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument(
        "--streams", type=int, nargs="*", default=list(STREAMS_MIB), help="MiB per stream"
    )
    args = parser.parse_args(argv)
    rows, why = measure(args.kernel, args.repeats, tuple(args.streams))
    print(report(args.kernel, args.repeats, rows, why))
    return 0


if __name__ == "__main__":
    sys.exit(main())
