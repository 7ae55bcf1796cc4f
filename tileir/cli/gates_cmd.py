"""``tileir gates text|asm|fake|device``: run a gate over the bundled kernels."""

from __future__ import annotations

import argparse
import time

from tileir.kernels.gates import GATES, run_gate
from tileir.kernels.registry import get, specs
from tileir.real.tileiras import ARCHITECTURES


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument("gate", choices=GATES, help="which gate")
    parser.add_argument(
        "--kernel", action="append", default=None, help="only this kernel (may repeat)"
    )
    parser.add_argument(
        "--arch",
        action="append",
        default=None,
        help=f"architectures for the asm gate (default: {' '.join(ARCHITECTURES)})",
    )
    parser.add_argument("-j", "--jobs", type=int, default=2, help="assembler runs at a time")
    parser.add_argument("--ledger", default=None, help="device gate: the ledger file to append")


def run(command: str, args: argparse.Namespace) -> int:
    chosen = [get(n) for n in args.kernel] if args.kernel else specs()
    t0 = time.perf_counter()
    if args.gate == "device":
        # lazy: start-up cost, a command loads only the stages it runs
        from tileir.kernels.device_gate import run_device_gate

        results = run_device_gate(chosen, ledger=args.ledger)
    else:
        results = run_gate(args.gate, chosen, archs=args.arch or ARCHITECTURES, jobs=args.jobs)
    for r in results:
        print(r.line())
    bad = sum(not r.ok for r in results)
    print(
        f"gate {args.gate}: {len(results) - bad} passed, {bad} failed "
        f"({time.perf_counter() - t0:.1f} s)"
    )
    return 1 if bad else 0
