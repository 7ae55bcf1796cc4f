"""Record, lower and encode the chapter's kernels with tileir; cuTile exports the same kernels.

For each of the chapter's kernels (tileir/kernels/chapter.py: vadd, vadd_tail,
softmax, matmul, row_softmax, transpose, histogram) and its flash attention,
one run times, side by side:

* tileir: ``trace`` (drive the body, build the Program, lower it to a Module)
  then ``Kernel.bytecode(version)``; recorded anew every repetition (nothing of
  one kernel's Program, Module or bytes is kept for the next).  Twice: plain,
  and with ``debug_info=True`` (source locations), which is what cuTile always
  writes.  tileir's memos of pure functions of small immutable values (a type's
  table entry, an attribute map's plain dict, a code object's column table:
  :mod:`tileir.ir.memo`) stay warm across calls, as they do in a user's
  process; the "cold memo" column clears every one of them before each call
  (outside the clock), which is what the first kernel of a process pays.
* cuTile Python 1.7.0: ``cuda.tile.compilation.export_kernel(...,
  output_format="tileir_bytecode")`` of the same kernel written in cuTile
  (bench/cutile_chapter.py).  cuTile memoizes its source -> HIR parse across
  exports (an ``lru_cache``); the "cold" column clears it before every export
  so cuTile, like tileir, does all its work each time; the "HIR cached" column
  leaves it (cuTile's best case, shown for information).

Every time is warm (one untimed call first) and the best of ``--repeats``,
the sides measured in turn round by round, in process CPU time by default
(both sides are single-threaded Python; a busy machine preempts cuTile's longer
exports more often, which inflates elapsed times; ``--clock wall`` reads them).
The ratios are cuTile over tileir with debug info (like for like), per kernel and as a
geometric mean.  The goal (issue #19) is judged against cuTile's best case, its HIR-cached
export: a geomean of at least 15x, and no kernel under 10x; the cold ratio is printed beside
it.  A line under the table times the same two columns for ``copy`` (one load and one store,
11 ops where the chapter's kernels lower to 16 to 53): the fixed cost every kernel pays, with
its ratio and its share of tileir's geomean.  ``--profile`` runs tileir's path under cProfile
and prints where its time goes (per function, per file, and per stage).

    python bench/record_encode.py [--repeats 7] [--version 13.4] [--clock cpu|wall]
                                  [--gc off|on] [--collect each|young|never]
                                  [--markers each|once] [--profile]

``--markers once`` makes each kernel's markers once, before the timings, where the default
has every timed call of tileir's make them (the registry's ``build``, a kernel's own code):
cuTile's twin exports from a signature made once, at import, so ``once`` is the like-for-like
reading of that part; the goal stays judged on the default.

``--collect never`` leaves out the full collection the timings run before every call (see
``bench/timing.py``: it leaves the CPU caches cold, which costs tileir's sub-millisecond
calls proportionally more than cuTile's); ``--collect young`` still collects the calls'
garbage before each call but freezes the heap the warm-up left out of the collector, so the
collection does not sweep every long-lived object of numpy, cuTile and tileir through the
caches.  The default keeps the full collection, and the goal is judged on it.

A script, never a timed test (tests/bench/test_bench_smoke.py runs each kernel once).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable, Optional

if __package__ in (None, ""):  # run as a script from a checkout: find tileir and bench/
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import (
    CLOCKS,
    COLLECT_MODES,
    GC_MODES,
    by_file,
    collect_mode,
    cumulative_of,
    fmt_seconds,
    geomean,
    machine_line,
    profile_table,
    profile_top,
    race,
    set_clock,
    set_collect,
    set_gc_mode,
    table,
)
from tileir import F64, In, Out, cells, load_cell, store_cell, trace
from tileir.kernels import registry

KERNELS = (
    "vadd",
    "vadd_tail",
    "softmax",
    "matmul",
    "row_softmax",
    "transpose",
    "histogram",
    "flash_attn",
)
GOAL = 15.0  # geomean of cuTile HIR-cached / tileir with debug info
FLOOR = 10.0  # no kernel's ratio under this

#: The smallest kernel there is, one load and one store (no chapter kernel, and not in the
#: geomean).  What it costs is what every recording and every export pays however few its
#: ops are; the chapter's kernels lower to 16 to 53 ops against its 11, so it sets how far their
#: ratios can go while that cost stays what it is.
FIXED_COST_KERNEL = "copy"


def _copy(x, out):
    t = yield load_cell(x)
    yield store_cell(out, t)


def _build_copy():
    """:data:`FIXED_COST_KERNEL` in tileir (cuTile's twin: bench/cutile_chapter.py)."""
    g = cells([256], [128])
    return trace("copy", _copy, In(F64, g), Out(F64, g))


def cutile_twins():
    """bench/cutile_chapter.py, or the reason it cannot be imported (cuTile missing)."""
    try:
        from bench import cutile_chapter
    except ImportError as e:  # cuda-tile is a test extra, not a runtime dependency
        return None, f"cuTile Python could not be imported ({e}); pip install cuda-tile==1.7.0"
    return cutile_chapter, None


def _clear_memos() -> None:
    from tileir.ir.memo import clear_memos

    clear_memos()


#: "each": tileir's timed call makes the kernel's markers too (the registry's ``build``, as a
#: kernel's own code does: the default, and the goal's protocol); "once": they are made once,
#: before the timings, and each call records from them, as cuTile's twin exports from a
#: signature made once, at import (bench/cutile_chapter.py's TWINS)
MARKER_MODES = ("each", "once")
_markers = ["each"]


def set_markers(mode: str) -> None:
    """Choose when tileir's side makes its markers (see :data:`MARKER_MODES`)."""
    if mode not in MARKER_MODES:
        raise ValueError(f"markers mode {mode!r} is not one of {MARKER_MODES}")
    _markers[0] = mode


def tileir_path(name: str, version: str, debug_info: bool) -> Callable[[], bytes]:
    """Record, lower and encode chapter kernel ``name``, or :data:`FIXED_COST_KERNEL`
    (anew on every call; its markers made in the call or once, see :data:`MARKER_MODES`)."""
    build = _build_copy if name == FIXED_COST_KERNEL else registry.get(name).build
    if _markers[0] == "each":
        return lambda: build().bytecode(version, debug_info=debug_info)
    r = build().recipe
    assert r is not None  # (trace keeps the recipe of every kernel it records)
    return lambda: trace(r.name, r.body, *r.markers, hints=r.hints, checked=r.checked).bytecode(
        version, debug_info=debug_info
    )


def measure(names, version: str, repeats: int, twins) -> list:
    """Rows ``(name, tileir s, tileir+debug s, cuTile cold s, cuTile HIR-cached s, bytes ours,
    bytes cuTile, tileir+debug with its memos cleared s)``; the cuTile entries are NaN without
    cuTile."""
    nan = float("nan")
    rows = []
    for name in names:
        fns = {
            "ours": tileir_path(name, version, False),
            "ours_dbg": tileir_path(name, version, True),
            "ours_dbg_cold_memo": tileir_path(name, version, True),
        }
        if twins is not None:
            fns["ct_cold"] = twins.exporter(name, version, cold=True)
            fns["ct_warm"] = twins.exporter(name, version, cold=False)
        best = race(fns, repeats=repeats, setups={"ours_dbg_cold_memo": _clear_memos})
        size_ours = len(fns["ours_dbg"]())
        size_ct = len(fns["ct_cold"]()) if twins is not None else 0
        rows.append(
            (
                name,
                best["ours"],
                best["ours_dbg"],
                best.get("ct_cold", nan),
                best.get("ct_warm", nan),
                size_ours,
                size_ct,
                best["ours_dbg_cold_memo"],
            )
        )
    return rows


_MARKINGS = {
    "each": "tileir's markers made in every call",
    "once": "tileir's markers made once, as cuTile's signatures",
}

_COLLECTION = {
    "each": "a full collection before each",
    "young": "the calls' garbage collected before each, the warm-up's heap frozen",
    "never": "no collection of ours",
}


def other_collect_ratios(names, version: str, repeats: int, twins, mode: str) -> list:
    """``(name, tileir+debug s, cuTile HIR-cached s)`` per kernel under collect ``mode``
    (the mode then in force is restored after): the goal's two columns measured again
    another way, printed under the table so a run shows both."""
    before = collect_mode()
    set_collect(mode)
    try:
        rows = []
        for name in names:
            fns = {
                "ours_dbg": tileir_path(name, version, True),
                "ct_warm": twins.exporter(name, version, cold=False),
            }
            best = race(fns, repeats=repeats)
            rows.append((name, best["ours_dbg"], best["ct_warm"]))
        return rows
    finally:
        set_collect(before)


def fixed_cost(version: str, repeats: int, twins) -> tuple[float, float]:
    """``(tileir+debug s, cuTile HIR-cached s)`` of :data:`FIXED_COST_KERNEL`, timed as the
    table's columns are (under the collect mode in force)."""
    fns = {
        "ours_dbg": tileir_path(FIXED_COST_KERNEL, version, True),
        "ct_warm": twins.exporter(FIXED_COST_KERNEL, version, cold=False),
    }
    best = race(fns, repeats=repeats)
    return best["ours_dbg"], best["ct_warm"]


def fixed_cost_line(ours: float, theirs: float, rows: list) -> str:
    """One line: the fixed cost on both sides, its ratio, and its share of tileir's geomean
    (``rows``: the table's)."""
    dbg = geomean(r[2] for r in rows)
    return (
        f"the fixed cost, {FIXED_COST_KERNEL} (one load, one store; not in the geomean): "
        f"tileir+dbg {fmt_seconds(ours)}, cuTile HIR-cached {fmt_seconds(theirs)}: "
        f"{theirs / ours:.1f}x; it is {ours / dbg:.0%} of tileir+dbg's geomean"
    )


def other_collect_line(rows: list, mode: str) -> str:
    """One line: the goal's geomean and slowest kernel from :func:`other_collect_ratios`."""
    ratio = geomean(warm / dbg for _, dbg, warm in rows)
    worst = min(rows, key=lambda r: r[2] / r[1])
    return (
        f"with {_COLLECTION[mode]} instead: cached/dbg {ratio:.1f}x geomean "
        f"(tileir+dbg {fmt_seconds(geomean(r[1] for r in rows))}), slowest {worst[0]} "
        f"{worst[2] / worst[1]:.1f}x"
    )


def report(
    rows: list,
    version: str,
    repeats: int,
    why_no_cutile: Optional[str],
    gc_mode: str = "off",
    clock: str = "cpu",
) -> str:
    """The table, the geometric means and the goal's verdict.  A row's eighth entry (the
    time with tileir's memos cleared) is optional."""
    nan = float("nan")
    body = []
    for name, ours, dbg, cold, warm, size_ours, size_ct, *more in rows:
        cold_memo = more[0] if more else nan
        body.append(
            (
                name,
                fmt_seconds(ours),
                fmt_seconds(dbg),
                fmt_seconds(cold_memo),
                fmt_seconds(cold),
                fmt_seconds(warm),
                f"{cold / dbg:.1f}x",
                f"{warm / dbg:.1f}x",
                f"{warm / cold_memo:.1f}x",
                f"{size_ours} / {size_ct}",
            )
        )
    cold_memos = [r[7] if len(r) > 7 else nan for r in rows]
    g = [geomean(r[i] for r in rows) for i in range(1, 5)]
    g_cold_memo = geomean(cold_memos)
    ratio = geomean(r[3] / r[2] for r in rows)
    ratio_warm = geomean(r[4] / r[2] for r in rows)
    ratio_cold_memo = geomean(r[4] / c for r, c in zip(rows, cold_memos))
    body.append(
        (
            "geomean",
            fmt_seconds(g[0]),
            fmt_seconds(g[1]),
            fmt_seconds(g_cold_memo),
            fmt_seconds(g[2]),
            fmt_seconds(g[3]),
            f"{ratio:.1f}x",
            f"{ratio_warm:.1f}x",
            f"{ratio_cold_memo:.1f}x",
            "",
        )
    )
    lines = [
        f"record + lower + encode vs cuTile export_kernel -> tileir_bytecode {version}",
        f"({machine_line()}; {clock} time, warm, best of {repeats}, sides interleaved in "
        f"rotating order, garbage collector {gc_mode} during timed calls, "
        f"{_COLLECTION[collect_mode()]}; {_MARKINGS[_markers[0]]})",
        "",
        table(
            [
                "kernel",
                "tileir",
                "tileir+dbg",
                "+dbg cold memo",
                "cuTile cold",
                "cuTile HIR cached",
                "cold/dbg",
                "cached/dbg",
                "cached/cold memo",
                "bytes ours/cuTile",
            ],
            body,
        ),
        "",
    ]
    if why_no_cutile:
        lines.append(f"cuTile columns empty: {why_no_cutile}")
    else:
        worst = min(rows, key=lambda r: r[4] / r[2])
        worst_ratio = worst[4] / worst[2]
        lines.append(
            f"goal: tileir at least {GOAL:.0f}x faster than cuTile's HIR-cached export "
            f"(geomean of cached/dbg): {ratio_warm:.1f}x, "
            f"{'met' if ratio_warm >= GOAL else 'MISSED'}; every kernel at least "
            f"{FLOOR:.0f}x: slowest {worst[0]} {worst_ratio:.1f}x, "
            f"{'met' if worst_ratio >= FLOOR else 'MISSED'}; against the cold export "
            f"{ratio:.1f}x"
        )
        if cold_memos and all(c == c for c in cold_memos):  # (NaN: rows without the column)
            lines.append(
                f"with tileir's memos cleared before every call (a process's first kernel): "
                f"{ratio_cold_memo:.1f}x cuTile's HIR-cached export, geomean"
            )
    return "\n".join(lines)


def stage_times(names, version: str, repeats: int) -> list:
    """Best-of times (no profiler, the chosen clock) of tileir's three stages per kernel:
    ``(name, trace s, lower s, encode s)``; record alone is trace minus lower (``trace``
    lowers the Program it records)."""
    from tileir.lower.lowering import lower

    rows = []
    for name in names:
        spec = registry.get(name)
        kernel = spec.build()
        best = race(
            {
                "trace": spec.build,
                "lower": lambda: lower(kernel.program),
                "encode": lambda: kernel.bytecode(version, debug_info=True),
            },
            repeats=repeats,
        )
        rows.append((name, best["trace"], best["lower"], best["encode"]))
    return rows


def stage_table(rows: list) -> str:
    body = []
    for name, tr, lo, en in rows + [("total", *(sum(r[i] for r in rows) for i in (1, 2, 3)))]:
        whole = tr + en
        body.append(
            (
                name,
                fmt_seconds(tr - lo),
                fmt_seconds(lo),
                fmt_seconds(en),
                fmt_seconds(whole),
                f"{(tr - lo) / whole:.0%} / {lo / whole:.0%} / {en / whole:.0%}",
            )
        )
    return table(["kernel", "record", "lower", "encode+dbg", "sum", "shares r/l/e"], body)


def profile(names, version: str, calls: int, top: int) -> str:
    """Where tileir's record + lower + encode time goes, over ``calls`` rounds of ``names``."""
    fns = [tileir_path(n, version, True) for n in names]

    def once():
        for f in fns:
            f()

    once()
    total, rows, every = profile_top(once, calls=calls, top=top)
    cum_rows = sorted(every, key=lambda r: r[3], reverse=True)[:top]
    stages = []
    for label, suffix in (
        ("record (kernel.py:record: drive the body, build the Program)", "kernel.py:record"),
        ("lower (lowering.py:lower)", "lowering.py:lower"),
        ("encode (writer.py:encode)", "writer.py:encode"),
        # (the writer checks the version as it goes; this full walk runs only for a module
        # that may need more than the version asked for, or one that fails to write)
        ("  encode: full version walk (versions.py:check_version)", "versions.py:check_version"),
        ("  encode: debug info (debuginfo.py:function)", "debuginfo.py:function"),
        ("source locations (source.py:user_loc)", "source.py:user_loc"),
    ):
        ct, share = cumulative_of(every, suffix)
        stages.append((label, f"{ct * 1e3:.1f} ms", f"{share:.1%}"))
    files = [(f, f"{t * 1e3:.1f} ms", f"{s:.1%}") for f, t, s in by_file(every)]
    return "\n\n".join(
        [
            "tileir's stages, timed apart (best of 7 each, no profiler):\n"
            + stage_table(stage_times(names, version, 7)),
            f"profile of tileir record + lower + encode (debug info on), {calls} round(s) of "
            f"{len(names)} kernels",
            "stages under cProfile (cumulative):\n" + table(["stage", "time", "share"], stages),
            "by own time:\n" + profile_table(total, rows),
            "by file (own time summed):\n" + table(["file", "own", "share"], files),
            "by cumulative time:\n" + profile_table(total, cum_rows),
        ]
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7, help="timed repetitions (best of)")
    parser.add_argument("--version", default="13.4", help="bytecode version for both sides")
    parser.add_argument("--kernels", nargs="*", default=list(KERNELS), choices=KERNELS)
    parser.add_argument(
        "--clock",
        default="cpu",
        choices=sorted(CLOCKS),
        help="cpu: process CPU time (both sides are single-threaded Python; a "
        "busy machine does not inflate it); wall: elapsed time",
    )
    parser.add_argument(
        "--gc",
        default="off",
        choices=GC_MODES,
        help="the garbage collector during timed calls (off: as timeit)",
    )
    parser.add_argument(
        "--collect",
        default="each",
        choices=COLLECT_MODES,
        help="a full garbage collection before each timed call (each: the default), one of "
        "what the calls left only (young), or none",
    )
    parser.add_argument(
        "--one-mode",
        action="store_true",
        help="leave out the line that measures the goal's columns again under the other "
        "collection (each <-> young)",
    )
    parser.add_argument(
        "--markers",
        default="each",
        choices=MARKER_MODES,
        help="each: tileir's timed call makes the kernel's markers too (the default, the "
        "goal's protocol); once: made once before the timings, as cuTile's signatures are",
    )
    parser.add_argument("--profile", action="store_true", help="cProfile tileir's path")
    parser.add_argument("--profile-calls", type=int, default=20)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    set_gc_mode(args.gc)
    set_collect(args.collect)
    set_clock(args.clock)
    set_markers(args.markers)
    twins, why = cutile_twins()
    rows = measure(args.kernels, args.version, args.repeats, twins)
    print(report(rows, args.version, args.repeats, why, args.gc, args.clock))
    if twins is not None:
        print(fixed_cost_line(*fixed_cost(args.version, args.repeats, twins), rows))
    other = {"young": "each", "each": "young"}.get(args.collect)
    if twins is not None and other is not None and not args.one_mode:
        extra = other_collect_ratios(args.kernels, args.version, args.repeats, twins, other)
        print(other_collect_line(extra, other))
    if args.profile:
        print()
        print(profile(args.kernels, args.version, args.profile_calls, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
