"""A/B two tileir trees stage by stage: record, lower, encode, and the three in one call.

A change to the record + lower + encode path is judged by ``record_encode.py`` in the end, but
its effect on one stage is a few percent, inside what that bench's run-to-run noise moves.
This script measures both trees in the same minutes, each in a worker process of its own
(``PYTHONPATH`` = that tree, so the two never share a heap, a memo or an import), sending them
one call at a time in alternating order, so a burst of load hits both alike.  For every
chapter kernel (``--kernels``), stage (``--stages``) and cache state it keeps the best of
``--rounds`` calls; it prints each stage's geometric mean over the kernels and B's time over
A's (below 1.000: B is faster).

Cache states: ``warm``, the same stage of the same kernel ran just before (untimed);
``cold``, a full ``gc.collect()`` ran just before, which is what ``record_encode.py`` runs
before every call (it walks the whole heap and leaves the CPU caches cold: see
``cache_state.py``).  Each call records the kernel anew (the lowering gets a fresh Program,
the encoder a fresh Module), so no memo keyed by an object's identity can hit.

    python bench/stages_ab.py TREE_A TREE_B [--rounds 20] [--stages record,lower,encode,all]
                              [--kernels vadd,softmax,...] [--version 13.4]

Each worker runs this file with ``--worker``.  A script, never a timed test
(tests/bench/test_bench_smoke.py runs it once with one round).
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

if __package__ in (None, ""):  # run as a script from a checkout: find bench/
    # appended, not put first: a worker must import tileir from its PYTHONPATH (the tree
    # under test), never from the checkout this script lies in
    sys.path.append(str(Path(__file__).resolve().parents[1]))

from bench.record_encode import KERNELS  # the chapter's kernels, as the goal is judged on

STAGES = ("record", "lower", "encode", "all")
STATES = ("warm", "cold")


# ----------------------------------------------------------------------------- the worker


def _stage_calls(names: Sequence[str], version: str) -> dict[str, tuple[Callable, Callable]]:
    """stage -> (prepare(kernel), run(kernel, prepared)): ``prepare`` makes the stage's
    input afresh (untimed), ``run`` is the timed stage.  Imports tileir from this worker's
    path, the tree under test."""
    from tileir import kernel as K
    from tileir.encode.writer import encode
    from tileir.kernels import registry
    from tileir.lower import lowering

    specs = {n: registry.get(n) for n in names}
    recipes = {n: specs[n].build().recipe for n in names}

    def record(n: str) -> Any:
        r = recipes[n]
        return K.record(r.name, r.body, *r.markers, hints=r.hints, checked=r.checked)

    def fresh_module(n: str) -> Any:
        return K.lower_program(record(n)).module

    return {
        "record": (lambda n: None, lambda n, _: record(n)),
        "lower": (record, lambda n, program: lowering.lower(program)),
        "encode": (fresh_module, lambda n, module: encode(module, version, debug_info=True)),
        "all": (
            lambda n: None,
            lambda n, _: specs[n].build().bytecode(version, debug_info=True),
        ),
    }


def in_state(prepare: Callable, run: Callable, name: str, state: str) -> Any:
    """The stage's fresh input for kernel ``name``, with the caches left in ``state`` (see the
    module's docstring): a full collection, or the same stage run just before."""
    arg = prepare(name)
    if state == "cold":
        gc.collect()
    else:
        run(name, prepare(name))
    return arg


def _timed_call(prepare: Callable, run: Callable, name: str, state: str) -> float:
    """One call's CPU time after the cache state ``state`` (see the module's docstring)."""
    arg = in_state(prepare, run, name, state)
    gc.disable()
    try:
        start = time.process_time()
        run(name, arg)
        return time.process_time() - start
    finally:
        gc.enable()


def worker(names: Sequence[str], version: str) -> int:
    """Answer ``STAGE KERNEL STATE`` lines on stdin with one time (seconds) each."""
    calls = _stage_calls(names, version)
    for name in names:  # warm every path and memo, as a process that recorded before
        for _ in range(3):
            calls["all"][1](name, None)
    import tileir

    print("ready", Path(tileir.__file__).resolve().parents[1], flush=True)
    for line in sys.stdin:
        stage, name, state = line.split()
        prepare, run = calls[stage]
        print(repr(_timed_call(prepare, run, name, state)), flush=True)
    return 0


# ----------------------------------------------------------------------------- the driver


class _Worker:
    """A worker process over one tree."""

    def __init__(self, tree: str, names: Sequence[str], version: str):
        env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve()))
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker"]
        cmd += ["--kernels", ",".join(names), "--version", version]
        # cwd outside both trees: the worker imports tileir from PYTHONPATH alone
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd="/"
        )
        first = self._line().split(" ", 1)
        if first[0] != "ready":
            raise RuntimeError(f"the worker over {tree} did not start (it said {first!r})")
        if Path(first[1]) != Path(tree).resolve():  # an installed tileir took precedence
            self.close()
            raise RuntimeError(f"the worker over {tree} imported the tileir of {first[1]}")

    def _line(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().strip()

    def time(self, stage: str, name: str, state: str) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{stage} {name} {state}\n")
        self.proc.stdin.flush()
        return float(self._line())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def measure(
    trees: tuple[str, str], rounds: int, stages: Sequence[str], names: Sequence[str], version: str
) -> dict[tuple[str, str, str, str], float]:
    """Best-of times ``(side, stage, state, kernel) -> seconds``, sides "A" and "B"."""
    workers = {side: _Worker(tree, names, version) for side, tree in zip("AB", trees)}
    best: dict[tuple[str, str, str, str], float] = {}
    try:
        for r in range(rounds):
            order = "AB" if r % 2 == 0 else "BA"  # no side always runs after the other
            for stage in stages:
                for state in STATES:
                    for name in names:
                        for side in order:
                            t = workers[side].time(stage, name, state)
                            key = (side, stage, state, name)
                            best[key] = min(best.get(key, math.inf), t)
    finally:
        for w in workers.values():
            w.close()
    return best


def report(
    best: dict, trees: tuple[str, str], rounds: int, stages: Sequence[str], names: Sequence[str]
) -> str:
    """One line per stage and cache state: A's and B's geomeans over the kernels, B/A."""
    from bench.timing import fmt_seconds, geomean, machine_line

    lines = [
        f"A = {trees[0]}, B = {trees[1]}",
        f"({machine_line()}; CPU time, best of {rounds}, each tree in its own worker, "
        f"calls alternating; geomean over {len(names)} kernel(s))",
        "",
    ]
    for stage in stages:
        for state in STATES:
            a = geomean(best[("A", stage, state, n)] for n in names)
            b = geomean(best[("B", stage, state, n)] for n in names)
            lines.append(
                f"{stage:7s} {state:5s} A {fmt_seconds(a):>9s}  B {fmt_seconds(b):>9s}  "
                f"B/A {b / a:.3f}"
            )
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trees", nargs="*", help="TREE_A TREE_B: two checkouts of tileir")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--stages", default=",".join(STAGES))
    parser.add_argument("--kernels", default=",".join(KERNELS))
    parser.add_argument("--version", default="13.4")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    names = [n for n in args.kernels.split(",") if n]
    if args.worker:
        return worker(names, args.version)
    stages = [s for s in args.stages.split(",") if s]
    unknown = sorted(set(stages) - set(STAGES))
    if len(args.trees) != 2 or unknown:
        parser.error(f"give two trees and stages among {', '.join(STAGES)} (not {unknown})")
    trees = (args.trees[0], args.trees[1])
    best = measure(trees, max(1, args.rounds), stages, names, args.version)
    print(report(best, trees, max(1, args.rounds), stages, names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
