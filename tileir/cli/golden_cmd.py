"""``tileir golden [--update]``: check, or pin anew, every kernel's text and bytecode."""

from __future__ import annotations

import argparse

from tileir.gates import golden_dir, run_gate, write_golden
from tileir.kernels.registry import specs


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--update", action="store_true",
                        help="write the pinned files anew from the current code")


def run(command: str, args: argparse.Namespace) -> int:
    if args.update:
        written = write_golden(specs())
        print(f"pinned {len(written)} file(s) for {len(specs())} kernel(s) in {golden_dir()}")
        return 0
    results = run_gate("text", specs())
    for r in results:
        if not r.ok:
            print(r.line())
    bad = sum(not r.ok for r in results)
    print(f"{len(results) - bad} of {len(results)} kernels match their pinned text and bytecode")
    return 1 if bad else 0
