"""Timing and table helpers shared by the benchmarks (never used by timed tests).

Every benchmark here measures two sides in the same process and prints their
ratio, so a slow or busy machine moves both numbers together.  A measurement
is warm (one untimed call first) and the best of several repetitions, since on
a shared machine the noise only ever adds time.
"""

from __future__ import annotations

import cProfile
import datetime
import gc
import io
import math
import os
import platform
import pstats
import time
from typing import Callable, Iterable, Optional, Sequence

__all__ = [
    "best_of",
    "race",
    "geomean",
    "table",
    "machine_line",
    "profile_top",
    "profile_table",
    "by_file",
    "cumulative_of",
    "fmt_seconds",
    "set_gc_mode",
    "GC_MODES",
    "set_collect",
    "collect_mode",
    "COLLECT_MODES",
    "set_clock",
    "CLOCKS",
]


#: "off": the collector is paused during each timed call (as ``timeit`` does); "on": it runs
#: during the call, so each side pays for collections its own garbage triggers.  Either way
#: a full collection runs before each call, so no side pays for another's garbage.
GC_MODES = ("off", "on")
_gc_mode = ["off"]

#: "each": a full collection before every timed call (the default: no side pays for the
#: garbage another left, and every call starts with the CPU caches that sweep leaves, cold);
#: "never": no collection of our own (``timeit``'s way; with the collector paused during
#: the calls, garbage is still collected only between them), so a call finds the caches as
#: the calls before it left them.  Small fast calls feel the difference most: tileir's
#: record + encode of vadd takes about twice as long after a sweep of the heap.
#: "young": as "each", but the heap the warm-up leaves (modules, both sides' memos, numpy's
#: and cuTile's objects) is frozen out of the collector (``gc.freeze``), so the collection
#: before each call frees the garbage of the calls before it without walking every
#: long-lived object; a full sweep of that heap evicts the L2 and most of the last-level
#: cache, and what it costs a call grows with the heap of whatever else the process holds
#: (tileir's vadd pays more after a sweep once cuTile is imported beside it).
COLLECT_MODES = ("each", "young", "never")
_collect = ["each"]


def collect_mode() -> str:
    """The collect mode now in force (see :data:`COLLECT_MODES`)."""
    return _collect[0]


def set_collect(mode: str) -> None:
    """Choose whether a full collection runs before each timed call (see :data:`COLLECT_MODES`)."""
    if mode not in COLLECT_MODES:
        raise ValueError(f"collect mode {mode!r} is not one of {COLLECT_MODES}")
    _collect[0] = mode


def set_gc_mode(mode: str) -> None:
    """Choose how the timings treat the garbage collector (see :data:`GC_MODES`)."""
    if mode not in GC_MODES:
        raise ValueError(f"gc mode {mode!r} is not one of {GC_MODES}")
    _gc_mode[0] = mode


#: "wall": elapsed time (``perf_counter``); "cpu": this process's CPU time (``process_time``),
#: which a busy machine does not inflate while the process waits for a core.  CPU time suits
#: single-threaded work only: a multi-threaded call (BLAS) adds up all its threads.
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
_clock = [time.perf_counter]


def set_clock(name: str) -> None:
    """Choose the clock the timings read (see :data:`CLOCKS`)."""
    if name not in CLOCKS:
        raise ValueError(f"clock {name!r} is not one of {tuple(CLOCKS)}")
    _clock[0] = CLOCKS[name]


def best_of(fn: Callable[[], object], repeats: int = 5, warmup: int = 1) -> float:
    """The least wall time (seconds) of ``repeats`` calls of ``fn``, after ``warmup`` untimed
    calls.  Best-of, not mean: on a shared machine other work only ever adds time."""
    return race({"fn": fn}, repeats=repeats, warmup=warmup)["fn"]


def _timed(fn: Callable[[], object], setup: Optional[Callable[[], object]] = None) -> float:
    """One call's wall time, with the garbage collector run before it (so one side does not
    pay for the garbage another left) and paused during it unless the gc mode is "on";
    ``setup`` runs before it, outside the clock (a side that must start cold, for one)."""
    clock = _clock[0]
    if setup is not None:
        setup()
    if _collect[0] != "never":
        gc.collect()
    if _gc_mode[0] == "on":
        start = clock()
        fn()
        return clock() - start
    gc.disable()
    try:
        start = clock()
        fn()
        return clock() - start
    finally:
        gc.enable()


def race(fns: dict, repeats: int = 5, warmup: int = 1, setups: Optional[dict] = None) -> dict:
    """Best-of times (seconds) of several callables measured in turn, round by round (the
    order rotating), so a burst of load from other processes hits every side alike.
    ``fns``: name -> callable; ``setups``: name -> callable run before each of that side's
    calls, outside the clock."""
    setups = setups or {}
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    best = {name: math.inf for name in fns}
    names = list(fns)
    young = _collect[0] == "young"
    if young:  # what exists now is long-lived: later collections walk only what comes after
        gc.collect()
        gc.freeze()
    try:
        for r in range(max(1, repeats)):
            # rotate who goes first: a side run right after another pays for what that one
            # left behind (BLAS threads still spinning, caches), so no side always follows one
            for name in names[r % len(names) :] + names[: r % len(names)]:
                best[name] = min(best[name], _timed(fns[name], setups.get(name)))
    finally:
        if young:
            gc.unfreeze()
    return best


def geomean(values: Iterable[float]) -> float:
    """The geometric mean of positive numbers (NaN when there are none)."""
    vals = [v for v in values if v > 0 and math.isfinite(v)]
    if not vals:
        return math.nan
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def fmt_seconds(t: float) -> str:
    """A time with a unit that keeps three or four significant digits."""
    if not math.isfinite(t):
        return "-"
    if t >= 1.0:
        return f"{t:.3f} s"
    if t >= 1e-3:
        return f"{t * 1e3:.2f} ms"
    return f"{t * 1e6:.1f} us"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table: the first column left-aligned, the others right-aligned."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(r):
        return "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))
        )

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule] + [line(r) for r in cells[1:]])


def machine_line() -> str:
    """Date, Python, CPU count and the OpenBLAS variables that change numpy's speed."""
    blas = {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ}
    blas_text = (
        ", ".join(f"{k}={v}" for k, v in blas.items())
        if blas
        else "OPENBLAS_CORETYPE/L2_SIZE unset"
    )
    threads = os.environ.get("OPENBLAS_NUM_THREADS")
    blas_text += f", OPENBLAS_NUM_THREADS={threads}" if threads else ", BLAS threads: default"
    return (
        f"{datetime.date.today().isoformat()}, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPU(s), {platform.machine()}, {blas_text}"
    )


def profile_top(
    fn: Callable[[], object], calls: int = 1, top: int = 25, sort: str = "tottime"
) -> tuple[float, list, list]:
    """Run ``fn`` ``calls`` times under cProfile.  Answers the profiled total, the ``top``
    functions as ``(file:line:function, own s, own share, cumulative s, cumulative share)``
    sorted by ``sort`` ("tottime" or "cumtime"), and every function's row (for :func:`by_file`
    and :func:`cumulative_of`)."""
    prof = cProfile.Profile()
    gc.collect()
    gc.disable()  # as in the timings: a collection would land on whichever function ran then
    try:
        prof.enable()
        for _ in range(calls):
            fn()
        prof.disable()
    finally:
        gc.enable()
    stats = pstats.Stats(prof, stream=io.StringIO())
    total = stats.total_tt or 1e-12
    rows = []
    for (path, line, func), (_cc, _nc, tt, ct, _callers) in stats.stats.items():
        rows.append((_short(path, line, func), tt, tt / total, ct, ct / total))
    key = 1 if sort == "tottime" else 3
    rows.sort(key=lambda r: r[key], reverse=True)
    return total, rows[:top], rows


def by_file(rows: list, top: int = 15) -> list:
    """Own time summed per source file: ``(file, own s, own share)``, largest first."""
    files: dict = {}
    for name, tt, share, _ct, _cs in rows:
        path = name.rsplit(":", 2)[0] if name.count(":") >= 2 else name
        t, s = files.get(path, (0.0, 0.0))
        files[path] = (t + tt, s + share)
    out = sorted(((f, t, s) for f, (t, s) in files.items()), key=lambda r: r[1], reverse=True)
    return out[:top]


def cumulative_of(rows: list, suffix: str) -> tuple[float, float]:
    """The cumulative time and share of the function whose name ends with ``suffix``
    (``file.py:line:function`` or ``file.py:function`` tails both work)."""
    for name, _tt, _s, ct, cs in rows:
        path, _line, func = name.rsplit(":", 2) if name.count(":") >= 2 else (name, "", "")
        if name.endswith(suffix) or f"{path}:{func}".endswith(suffix):
            return ct, cs
    return 0.0, 0.0


def _short(path: str, line: int, func: str) -> str:
    for marker in ("/tileir/", "/site-packages/"):
        if marker in path:
            path = path[path.index(marker) + 1 :]
            break
    else:
        if path.startswith("~") or path.startswith("<"):
            return f"{path}:{func}" if path != "~" else func
        path = os.path.basename(path)
    return f"{path}:{line}:{func}"


def profile_table(total: float, rows: list) -> str:
    """``profile_top``'s rows as a table."""
    body = [
        (name, f"{tt * 1e3:.1f} ms", f"{share:.1%}", f"{ct * 1e3:.1f} ms", f"{cshare:.1%}")
        for name, tt, share, ct, cshare in rows
    ]
    return (
        table(["file:line:function", "own", "own share", "cumulative", "cum share"], body)
        + f"\n(profiled total {total * 1e3:.1f} ms, cProfile overhead included)"
    )
