"""``python -m tools.mutation [--area A | --module PATH ...] [--sample N --seed S]``.

Plants each mutant of the chosen modules in a scratch copy of the repository, runs the
module's guarding tests (tools/mutation/targets.py) with a time limit, in parallel, and
prints the kill table and the survivors.  With ``--floor F`` it exits 1 when the kill rate
of the run is below F (CI runs a fixed-seed sample that way, so the figure cannot slide).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

from tools.mutation.mutants import mutants_of
from tools.mutation.report import kill_rate, survivors, table
from tools.mutation.runner import Outcome, Scratch, baseline, run_mutants
from tools.mutation.targets import AREAS, tests_for

REPO = Path(__file__).resolve().parents[2]


def _tracked_files() -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=REPO,
        text=True,
        capture_output=True,
        check=True,
    ).stdout.split()
    return [f for f in out if (REPO / f).is_file()]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.mutation", description=__doc__)
    parser.add_argument("--area", action="append", choices=sorted(AREAS), default=[])
    parser.add_argument("--module", action="append", default=[], help="a path under tileir/")
    parser.add_argument("--sample", type=int, default=0, help="this many mutants, drawn")
    parser.add_argument("--seed", type=int, default=0, help="the draw's seed")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--floor", type=float, default=None, help="least kill rate (0..1)")
    parser.add_argument("--kinds", default="arith,compare,logic,constant,statement")
    parser.add_argument(
        "--quick", action="store_true", help="each module's nearest tests only (the CI sample)"
    )
    args = parser.parse_args(argv)

    modules = list(args.module) + [m for a in args.area for m in AREAS[a]]
    if not modules:
        modules = [m for ms in AREAS.values() for m in ms]
    kinds = set(args.kinds.split(","))
    sources = {m: (REPO / m).read_text() for m in modules}
    jobs_all = [(m, mu) for m in modules for mu in mutants_of(sources[m]) if mu.kind in kinds]
    if args.sample and args.sample < len(jobs_all):
        jobs_all = random.Random(args.seed).sample(jobs_all, args.sample)
    files = _tracked_files()

    # each area's tests must pass unmutated; their time sets the limit (4x, at least 60 s)
    limits: dict[tuple, float] = {}
    probe = Scratch(REPO, files)
    try:
        for commands in {tests_for(m, args.quick) for m, _ in jobs_all}:
            limits[commands] = max(60.0, 4 * baseline(probe, commands))
    finally:
        probe.close()
    jobs = []
    for m, mu in jobs_all:
        commands = tests_for(m, args.quick)
        jobs.append((m, mu, commands, limits[commands] / len(commands) * 2))
    print(f"{len(jobs)} mutants of {len(modules)} module(s), {args.workers} worker(s)", flush=True)
    start = time.perf_counter()
    done = [0]

    def progress(o: Outcome) -> None:
        done[0] += 1
        if o.verdict == "survived" or done[0] % 25 == 0:
            print(
                f"[{done[0]}/{len(jobs)}] {o.verdict:8} {o.module} {o.mutant.describe()}",
                flush=True,
            )

    outcomes = run_mutants(REPO, files, jobs, args.workers, progress)
    print(f"\n{time.perf_counter() - start:.0f} s\n")
    print(table(outcomes))
    print("\nsurvivors:\n" + survivors(outcomes, sources))
    rate = kill_rate(outcomes)
    if args.floor is not None and rate < args.floor:
        print(f"\nkill rate {100 * rate:.1f}% is below the floor {100 * args.floor:.1f}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
