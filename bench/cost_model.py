"""Count what one record / lower / encode costs, instruction by instruction, under valgrind.

``stages_ab.py`` times two trees against each other, and on a noisy 2-core machine a few
percent is inside its noise.  This script counts instead: each stage of each chapter kernel runs
under valgrind's callgrind with its cache simulator, and the counts of the calls themselves (the
warm-up, the input's preparation and the collection before a call are not counted) are the same
from one run to the next, busy machine or not.  Per stage and cache state it prints, per call
(the mean over the kernels' calls):

* ``Ir``: instructions the CPU executed (the interpreter's, for tileir's Python);
* ``L1 miss``: first-level cache misses, instruction and data;
* ``L2 miss i / d``: misses of a simulated last-level cache the size of this machine's per-core
  L2 (``--ll``, 1 MiB by default), for CPython's machine code (``i``) and for data (``d``:
  bytecode, objects, dicts, tables): the lines a call has to bring back in after something
  else went through the cache;
* ``CEst``: cachegrind's documented cycle estimate, ``Ir + 10 * L1 misses + 100 * L2 misses``
  (a rough weight, not a timing: it says which of two trees does less);

and, given two trees, B over A for ``Ir`` and ``CEst``.  ``--where N`` prints under each
count the N binaries and the N C functions with the most L2 misses (their self cost, per
call): which of CPython's parts a cold call waits on (its evaluation loop reading bytecode
and objects, its attribute and dict lookups, its allocator), and how much of it is CPython's
own machine code (``i``) rather than data.

Cache states, as in ``stages_ab.py``: ``warm``, the same stage of the same kernel ran just
before; ``cold``, a full ``gc.collect()`` ran just before, as ``record_encode.py`` does before
every timed call (its walk over the whole heap pushes the call's working set out of the caches:
``cold`` minus ``warm`` misses is what that costs).

    python bench/cost_model.py TREE [TREE_B] [--stages all] [--states warm,cold]
                               [--kernels vadd,...] [--calls 3] [--ll 1048576] [--jobs 2]
                               [--where N]

Each tree runs in a process of its own (``PYTHONPATH`` = the tree, ``PYTHONHASHSEED=0`` so dict
layouts repeat), this file with ``--worker`` under ``valgrind --tool=callgrind``; the calls are
counted between entering and leaving ``operator.call`` (callgrind's ``--toggle-collect``), which
tileir itself never calls.  It needs valgrind on PATH (Debian: ``apt-get install valgrind``);
about 100 s per tree, stage and state for the 8 kernels (``--jobs`` of them at once; the
default stage is ``all``, record + lower + encode in one call, as the goal is judged).  A script, never a timed test
(tests/bench/test_bench_smoke.py checks its parsing and, where valgrind is there, one count).
"""

from __future__ import annotations

import argparse
import gc
import operator
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Optional, Sequence

if __package__ in (None, ""):  # run as a script from a checkout: find bench/
    # appended, not put first: a worker imports tileir from its PYTHONPATH (the tree under
    # test), never from the checkout this script lies in
    sys.path.append(str(Path(__file__).resolve().parents[1]))

from bench.record_encode import KERNELS
from bench.stages_ab import STAGES, STATES

#: this machine's L2 per core (lscpu: 2 MiB in 2 instances), the simulated last-level cache
L2_BYTES = 1 << 20
#: the events callgrind's cache simulator counts, in the order of its "summary:" line
EVENTS = ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw")
#: the C function whose calls bracket the counted region (Modules/_operator.c)
TOGGLE = "_operator_call"


# ----------------------------------------------------------------------------- the worker


#: untimed calls of each kernel before the counted ones (see worker)
WARM_CALLS = 10


def worker(stage: str, state: str, names: Sequence[str], calls: int, version: str) -> int:
    """Run ``stage`` of each kernel ``calls`` times in ``state``, each call inside
    ``operator.call`` (the counted region); everything else runs outside it."""
    from bench.stages_ab import _stage_calls, in_state

    counted = getattr(operator, "call")  # (see main: Python 3.11 and later have it)
    table = _stage_calls(names, version)
    prepare, run = table[stage]
    for name in names:  # warm every path and memo, as a process that recorded before
        # (WARM_CALLS of each: CPython 3.11 specializes a function's bytecode on its 8th
        # call, and the judge's best-of times come after that; fewer, and a kernel counted
        # alone would count the specializing too)
        for _ in range(WARM_CALLS):
            run(name, prepare(name))
    import tileir

    print("tileir", Path(tileir.__file__).resolve().parents[1], flush=True)
    for _ in range(calls):
        for name in names:
            arg = in_state(prepare, run, name, state)
            gc.disable()
            try:
                counted(run, name, arg)
            finally:
                gc.enable()
    return 0


# ----------------------------------------------------------------------------- the driver


def parse_summary(text: str) -> dict[str, int]:
    """The event totals of a callgrind output file (its ``events:`` and ``summary:`` lines)."""
    events = re.search(r"^events:\s*(.+)$", text, re.M)
    summary = re.search(r"^summary:\s*(.+)$", text, re.M)
    if events is None or summary is None:
        raise ValueError("not a callgrind output file: no events: or summary: line")
    names, counts = events.group(1).split(), [int(x) for x in summary.group(1).split()]
    if len(counts) > len(names):
        raise ValueError(f"{len(names)} events but {len(counts)} counts in the summary")
    # (the format leaves out trailing zero counts: "summary: 0" when nothing was counted)
    return dict(zip(names, counts + [0] * (len(names) - len(counts))))


def self_costs(text: str, by: str = "ob") -> dict[str, dict[str, int]]:
    """The self cost, event by event, of each binary (``by="ob"``: libpython, libc, a C
    extension ...) or each C function (``by="fn"``, as ``binary:function``) in a callgrind
    output file: where the counted instructions and misses lie (CPython's own machine code,
    its attribute lookups, its allocator ...).  Summed over the keys, they are the
    summary's totals."""
    if by not in ("ob", "fn"):
        raise ValueError(f"self costs are by binary (ob) or function (fn), not {by!r}")
    return _summed(*_function_costs(text), by)


def _summed(
    names: list[str], rows: dict[tuple[str, str], list[int]], by: str
) -> dict[str, dict[str, int]]:
    """The (binary, function) self costs ``rows`` summed per binary or per function."""
    costs: dict[str, list[int]] = {}
    for (ob, fn), row in rows.items():
        total = costs.setdefault(ob if by == "ob" else f"{ob}:{fn}", [0] * len(names))
        for i, count in enumerate(row):
            total[i] += count
    return {key: dict(zip(names, row)) for key, row in costs.items()}


def where_misses_lie(text: str, n_calls: int, top: int) -> list[str]:
    """Lines naming the ``top`` binaries and C functions with the most simulated L2 misses,
    per call: ``Ir`` and the L2 misses, instruction (``i``) and data (``d``), of each."""
    names, by_function = _function_costs(text)  # (the file read once for both tables)
    lines = []
    for by, title in (("ob", "binary"), ("fn", "C function")):
        rows = _summed(names, by_function, by)

        def misses(key: str) -> int:
            return rows[key]["ILmr"] + rows[key]["DLmr"] + rows[key]["DLmw"]

        total = sum(misses(k) for k in rows) or 1
        for key in sorted(rows, key=misses, reverse=True)[:top]:
            r = rows[key]
            lines.append(
                f"  {title:10s} {misses(key) / n_calls:8.0f} L2 misses ({misses(key) / total:5.1%}:"
                f" i {r['ILmr'] / n_calls:.0f}, d {(r['DLmr'] + r['DLmw']) / n_calls:.0f}),"
                f" Ir {_num(r['Ir'] / n_calls)}  {key}"
            )
    return lines


def _function_costs(text: str) -> tuple[list[str], dict[tuple[str, str], list[int]]]:
    """The events of a callgrind output file, and the self cost of each (binary, function)."""
    events = re.search(r"^events:\s*(.+)$", text, re.M)
    if events is None:
        raise ValueError("not a callgrind output file: no events: line")
    names = events.group(1).split()
    found = re.search(r"^positions:\s*(.+)$", text, re.M)
    skip = len(found.group(1).split()) if found else 1  # the position columns of a cost line
    # compressed names: "ob=(3) /lib/libc.so.6" once, "ob=(3)" after; a call's target
    # (cob= / cfn=) may be the first to name one
    labels: dict[str, dict[str, str]] = {"ob": {}, "fn": {}}
    current = {"ob": "???", "fn": "???"}
    costs: dict[tuple[str, str], list[int]] = {}
    after_call = False
    for line in text.splitlines():
        head = line.split("=", 1)[0]
        if head in ("ob", "cob", "fn", "cfn"):
            kind = head[-2:]
            ref = re.match(r"\((\d+)\)\s*(.*)$", line[len(head) + 1 :])
            if ref is None:  # an uncompressed name
                name = line[len(head) + 1 :].strip()
            else:
                number, given = ref.groups()
                if given:
                    labels[kind][number] = given.strip()
                name = labels[kind].get(number, number)
            if head == kind:
                current[kind] = os.path.basename(name) if kind == "ob" else name
        elif line.startswith("calls="):
            after_call = True  # the next cost line is the call's inclusive cost: not self
        elif line and (line[0].isdigit() or line[0] in "+-*"):
            if after_call:
                after_call = False
                continue
            row = costs.setdefault((current["ob"], current["fn"]), [0] * len(names))
            for i, count in enumerate(line.split()[skip:]):
                row[i] += int(count)
    return names, costs


def per_call(totals: dict[str, int], n_calls: int) -> dict[str, float]:
    """Per-call figures from callgrind totals over ``n_calls`` calls: Ir, L1 misses, the
    simulated L2's instruction and data misses, and cachegrind's cycle estimate."""
    t = {e: totals.get(e, 0) / n_calls for e in EVENTS}
    l1 = t["I1mr"] + t["D1mr"] + t["D1mw"]
    l2i, l2d = t["ILmr"], t["DLmr"] + t["DLmw"]
    return {
        "Ir": t["Ir"],
        "L1": l1,
        "L2i": l2i,
        "L2d": l2d,
        "CEst": t["Ir"] + 10 * l1 + 100 * (l2i + l2d),
    }


def count(
    tree: str,
    stage: str,
    state: str,
    names: Sequence[str],
    calls: int,
    version: str,
    ll: int,
    where: int = 0,
) -> tuple[dict[str, float], list[str]]:
    """Per-call counts of ``stage`` in ``state`` over ``names``, tileir from ``tree``, and
    (``where`` > 0) the lines of :func:`where_misses_lie` for its ``where`` top binaries
    and C functions."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise RuntimeError("valgrind is not on PATH (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        cmd = [
            valgrind,
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            "--collect-atstart=no",
            f"--toggle-collect={TOGGLE}",
            "--cache-sim=yes",
            "--I1=32768,8,64",
            "--D1=32768,8,64",
            f"--LL={ll},16,64",
            sys.executable,
            str(Path(__file__).resolve()),
            "--worker",
            "--stages",
            stage,
            "--states",
            state,
            "--kernels",
            ",".join(names),
            "--calls",
            str(calls),
            "--version",
            version,
        ]
        env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve()), PYTHONHASHSEED="0")
        done = subprocess.run(cmd, env=env, cwd="/", capture_output=True, text=True)
        said = done.stdout.split()
        if done.returncode != 0 or said[:1] != ["tileir"]:
            tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
            raise RuntimeError(f"the worker over {tree} failed: " + " / ".join(tail))
        if Path(said[1]) != Path(tree).resolve():  # an installed tileir took precedence
            raise RuntimeError(f"the worker over {tree} imported the tileir of {said[1]}")
        text = out.read_text()
    totals = parse_summary(text)
    if totals.get("Ir", 0) == 0:
        raise RuntimeError(f"nothing was counted: this Python has no C function {TOGGLE}")
    n_calls = calls * len(names)
    return per_call(totals, n_calls), where_misses_lie(text, n_calls, where) if where else []


def _num(x: float) -> str:
    return f"{x / 1e6:.3f}M" if x >= 1e6 else f"{x / 1e3:.1f}k" if x >= 1e4 else f"{x:.0f}"


def report(
    counts: dict[tuple[str, str, str], dict[str, float]],
    trees: Sequence[str],
    stages: Sequence[str],
    states: Sequence[str],
    names: Sequence[str],
    calls: int,
    ll: int,
    where: Optional[dict[tuple[str, str, str], list[str]]] = None,
) -> str:
    """One line per tree, stage and state; with two trees, B/A of Ir and CEst after each pair;
    ``where``: the lines of :func:`where_misses_lie` to print under each tree's line."""
    lines = [
        " ".join(f"{side} = {tree}" for side, tree in zip("AB", trees)),
        f"(callgrind, per call: the mean of {calls} call(s) of each of {len(names)} kernel(s); "
        f"simulated L2 {ll // 1024} KiB, 16-way; CEst = Ir + 10 L1 + 100 L2 misses)",
        "",
        f"{'stage':7s} {'state':5s} {'':1s} {'Ir':>9s} {'L1 miss':>9s} {'L2 miss i':>9s} "
        f"{'L2 miss d':>9s} {'CEst':>9s}",
    ]
    for stage in stages:
        for state in states:
            for side in "AB"[: len(trees)]:
                c = counts[(side, stage, state)]
                lines.append(
                    f"{stage:7s} {state:5s} {side} {_num(c['Ir']):>9s} {_num(c['L1']):>9s} "
                    f"{_num(c['L2i']):>9s} {_num(c['L2d']):>9s} {_num(c['CEst']):>9s}"
                )
                lines.extend((where or {}).get((side, stage, state), []))
            if len(trees) == 2:
                a, b = counts[("A", stage, state)], counts[("B", stage, state)]
                lines.append(
                    f"{stage:7s} {state:5s} B/A: Ir {b['Ir'] / a['Ir']:.3f}, "
                    f"L2 misses {_ratio(b['L2i'] + b['L2d'], a['L2i'] + a['L2d'])}, "
                    f"CEst {b['CEst'] / a['CEst']:.3f}"
                )
    return "\n".join(lines)


def _ratio(b: float, a: float) -> str:
    return f"{b / a:.3f}" if a else ("1.000" if not b else "inf")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trees", nargs="*", help="TREE [TREE_B]: one or two checkouts of tileir")
    parser.add_argument("--stages", default="all")
    parser.add_argument("--states", default=",".join(STATES))
    parser.add_argument("--kernels", default=",".join(KERNELS))
    parser.add_argument("--calls", type=int, default=3, help="calls of each kernel counted")
    parser.add_argument("--ll", type=int, default=L2_BYTES, help="simulated L2 size in bytes")
    parser.add_argument("--version", default="13.4")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="counts at once")
    parser.add_argument(
        "--where",
        type=int,
        default=0,
        metavar="N",
        help="under each count, the N binaries and N C functions with the most L2 misses",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    names = [n for n in args.kernels.split(",") if n]
    stages = [s for s in args.stages.split(",") if s]
    states = [s for s in args.states.split(",") if s]
    calls = max(1, args.calls)
    if not hasattr(operator, "call"):
        parser.error("the counted region is operator.call's: run this with Python 3.11 or later")
    if args.worker:
        return worker(stages[0], states[0], names, calls, args.version)
    wrong = sorted(set(stages) - set(STAGES)) + sorted(set(states) - set(STATES))
    if not 1 <= len(args.trees) <= 2 or wrong or not stages or not states:
        parser.error(
            f"give one or two trees, stages among {', '.join(STAGES)} and states among "
            f"{', '.join(STATES)} (not {wrong})"
        )
    jobs = [
        (side, stage, state, tree)
        for stage in stages
        for state in states
        for side, tree in zip("AB", args.trees)
    ]
    # each count is a valgrind process of its own: run as many at once as --jobs says
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {
            (side, stage, state): pool.submit(
                count, tree, stage, state, names, calls, args.version, args.ll, args.where
            )
            for side, stage, state, tree in jobs
        }
        done = {key: f.result() for key, f in futures.items()}
    counts = {key: c for key, (c, _) in done.items()}
    where = {key: w for key, (_, w) in done.items()}
    print(report(counts, args.trees, stages, states, names, calls, args.ll, where))
    return 0


if __name__ == "__main__":
    sys.exit(main())
