"""What each of the interpreter's speed-ups buys: the fake-device bench kernels timed with
each change turned off in turn, in the same process (CPU time of the interpreter alone,
best of ``--repeats``, the variants interleaved round by round).

Changes (issue #19, points 2 and 4):

* ``fusion``: runs of lane-local ops evaluated strip by strip into reused buffers
  (``tileir/fake/fusion.py``); off: every op over the whole batch;
* ``plain tree``: a ``reduce`` whose combiner is one plain ufunc calls it directly
  (``tileir/fake/rules/misc.py`` ``plain_tree``); off: the combiner region runs per level;
* ``per-batch plans``: view loads and stores over the block ids of one grid row (or whole
  rows) planned from their first and last lanes (``tileir/fake/progressions.py``,
  ``views.plan_affine``); off: lane by lane;
* ``merged GEMMs``: ``mmaf`` over lanes whose tiles are bands of one matrix as one 2-D GEMM,
  where the calibration finds the lanes' bits (``tileir/fake/rules/products.py``
  ``merge_keeps_bits``); off: numpy's one small GEMM per lane;
* ``beta=1 GEMM``: of the merged forms, the one that adds each product into a K loop's
  accumulator in the GEMM itself (``tileir/fake/blas.py``); off: the 2-D GEMM into scratch,
  then the add;
* ``2-D progressions``: of the per-batch plans, those over whole rows of a 2-D grid (a
  matmul's blocks); off: only batches within one grid row plan per batch;
* ``loop invariants``: a loop body's pure ops that read only values from outside run on the
  first trip and are kept (``tileir/fake/invariants.py``); off: every op every trip.

CPU time adds up every BLAS thread's: run with one thread for the products' figures.

    OPENBLAS_NUM_THREADS=1 python bench/fake_changes.py --repeats 7

A script, never a timed test (tests/bench/test_bench_smoke.py runs it once, tiny).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path
from typing import Callable, Iterator
from unittest import mock

if __package__ in (None, ""):  # run as a script from a checkout: find tileir and bench/
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tileir.fake.control as control
import tileir.fake.fusion as fusion
import tileir.fake.machine as machine
import tileir.fake.rules.memory as memory_rules
import tileir.fake.rules.misc as misc
import tileir.fake.rules.products as products
from bench.fake_kernels import case
from bench.timing import machine_line, table
from tileir.fake.interpreter import interpret

KERNELS = (
    "vadd",
    "vadd_small",
    "vadd_wide",
    "gelu",
    "row_softmax",
    "layer_norm",
    "matmul",
    "flash_attn",
)


@contextlib.contextmanager
def _off(name: str) -> Iterator[None]:
    """The interpreter with change ``name`` turned off ("all on": none)."""
    with contextlib.ExitStack() as stack:
        if name == "fusion":
            stack.enter_context(mock.patch.object(machine, "fused_ops", lambda b: b.ops))
        elif name == "plain tree":
            # plans of its own: the fused programs compiled with the direct tree stay aside
            stack.enter_context(mock.patch.object(fusion, "_PLANS", {}))
            for module in (misc, fusion):
                stack.enter_context(
                    mock.patch.object(module, "plain_combiner", lambda op, dtype: None)
                )
        elif name == "per-batch plans":
            stack.enter_context(
                mock.patch.object(memory_rules, "index_steps", lambda *a, **k: None)
            )
        elif name in ("merged GEMMs", "beta=1 GEMM"):
            real = products.merge_keeps_bits
            kept = () if name == "merged GEMMs" else ("matmul",)

            def verdict(*args, **kw):
                form = args[6] if len(args) > 6 else kw["form"]
                return form in kept and real(*args, **kw)

            stack.enter_context(mock.patch.object(products, "merge_keeps_bits", verdict))
        elif name == "2-D progressions":
            real_steps = memory_rules.index_steps

            def one_row(frame, ids, values):
                found = real_steps(frame, ids, values)
                return None if found and frame is not None and found[1] != frame.size else found

            stack.enter_context(mock.patch.object(memory_rules, "index_steps", one_row))
        elif name == "loop invariants":
            stack.enter_context(
                mock.patch.object(control, "loop_invariants", lambda op: frozenset())
            )
        yield


VARIANTS = (
    "all on",
    "fusion",
    "plain tree",
    "per-batch plans",
    "merged GEMMs",
    "beta=1 GEMM",
    "2-D progressions",
    "loop invariants",
)


def _cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def measure(names, size: str, repeats: int) -> dict:
    """``{kernel: {variant: best CPU seconds}}``, each variant's answer checked equal to the
    all-on answer byte for byte."""
    best: dict = {}
    for name in names:
        c = case(name, size)

        def run(c=c):
            return interpret(c.kernel.module, c.kernel.name, list(c.args), c.kernel.grid)[c.out]

        want = run().tobytes()
        times = best[name] = {v: float("inf") for v in VARIANTS}
        for _ in range(repeats):
            for variant in VARIANTS:
                with _off(variant):
                    if times[variant] == float("inf"):
                        assert run().tobytes() == want, f"{name} without {variant}"
                    times[variant] = min(times[variant], _cpu(run))
    return best


def report(best: dict, repeats: int) -> str:
    rows = []
    for name, times in best.items():
        on = times["all on"]
        rows.append(
            (name, f"{on * 1e3:.1f} ms")
            + tuple(f"{times[v] * 1e3:.1f} ms ({times[v] / on:.2f}x)" for v in VARIANTS[1:])
        )
    head = ("kernel", "all on") + tuple(f"without {v}" for v in VARIANTS[1:])
    return "\n".join(
        [
            "interpreter CPU time with each change turned off in turn (same answers, byte for byte)",
            f"({machine_line()}; best of {repeats}, variants interleaved)",
            "",
            table(list(head), rows),
        ]
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--size", default="full", choices=("full", "tiny"))
    parser.add_argument("--kernels", nargs="*", default=list(KERNELS), choices=KERNELS)
    args = parser.parse_args(argv)
    print(report(measure(args.kernels, args.size, args.repeats), args.repeats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
