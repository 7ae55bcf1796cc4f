"""Run the guarding tests against mutants, in parallel scratch copies of the repository.

Each worker owns one scratch copy (hard links of the tracked files, so it costs no disk
and no time to make): a mutant is planted by replacing one file's link with the mutated
text, and taken out by linking the original back.  Byte code goes to a per-worker
``PYTHONPYCACHEPREFIX``, so no worker ever writes into the repository.
"""

from __future__ import annotations

import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

import attrs

from tools.mutation.mutants import Mutant, apply

__all__ = ["Outcome", "Scratch", "run_mutants", "baseline"]


@attrs.frozen
class Outcome:
    """What the tests did with one mutant: ``killed`` (a test failed), ``survived``, or
    ``timeout`` (counted as killed: the mutant made the tests hang)."""

    module: str
    mutant: Mutant
    verdict: str
    seconds: float
    by: str = ""  # the command that killed it


class Scratch:
    """A hard-linked copy of the repository's tracked files under a temporary folder."""

    def __init__(self, repo: Path, files: Sequence[str]):
        self.repo = repo
        self.root = Path(tempfile.mkdtemp(prefix="tileir-mutant-"))
        for f in files:
            dst = self.root / f
            dst.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(repo / f, dst)
            except OSError:  # another file system: a copy does as well
                shutil.copy2(repo / f, dst)
        self.pycache = Path(tempfile.mkdtemp(prefix="tileir-mutant-pyc-"))

    def plant(self, module: str, text: str) -> None:
        target = self.root / module
        target.unlink()  # never write through the link into the repository's file
        target.write_text(text)

    def restore(self, module: str) -> None:
        target = self.root / module
        target.unlink()
        os.link(self.repo / module, target)

    def run(self, argv: Sequence[str], timeout: float) -> tuple[str, float]:
        """``python -m ARGV`` in the copy: ("passed" | "failed" | "timeout", seconds)."""
        env = dict(
            os.environ,
            PYTHONPATH=str(self.root),
            PYTHONPYCACHEPREFIX=str(self.pycache),
            PYTHONHASHSEED="0",
        )
        start = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, "-m", *argv],
                cwd=self.root,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return "timeout", time.perf_counter() - start
        return ("passed" if done.returncode == 0 else "failed"), time.perf_counter() - start

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
        shutil.rmtree(self.pycache, ignore_errors=True)


def baseline(scratch: Scratch, commands: Sequence[Sequence[str]]) -> float:
    """Seconds the unmutated tests take; raises if they do not pass (no verdict is
    possible on a red suite)."""
    total = 0.0
    for argv in commands:
        verdict, seconds = scratch.run(argv, timeout=3600)
        if verdict != "passed":
            raise RuntimeError(f"`python -m {' '.join(argv)}` fails without any mutant")
        total += seconds
    return total


def run_mutants(
    repo: Path,
    files: Sequence[str],
    jobs: Sequence[tuple[str, Mutant, Sequence[Sequence[str]], float]],
    workers: int,
    progress: Optional[Callable[[Outcome], None]] = None,
) -> list[Outcome]:
    """Each job is (module, mutant, commands, time limit per command)."""
    sources = {module: (repo / module).read_text() for module, *_ in jobs}
    pool: list[Scratch] = [Scratch(repo, files) for _ in range(max(1, workers))]
    free = list(pool)
    results: list[Outcome] = []

    def one(job) -> Outcome:
        module, mutant, commands, limit = job
        scratch = free.pop()
        try:
            scratch.plant(module, apply(sources[module], mutant))
            start = time.perf_counter()
            for argv in commands:
                verdict, _ = scratch.run(argv, limit)
                if verdict != "passed":
                    return Outcome(
                        module,
                        mutant,
                        "killed" if verdict == "failed" else "timeout",
                        time.perf_counter() - start,
                        " ".join(argv[:1]),
                    )
            return Outcome(module, mutant, "survived", time.perf_counter() - start)
        finally:
            scratch.restore(module)
            free.append(scratch)

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(pool)) as ex:
            for outcome in ex.map(one, jobs):
                results.append(outcome)
                if progress:
                    progress(outcome)
    finally:
        for s in pool:
            s.close()
    return results
