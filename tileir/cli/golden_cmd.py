"""``tileir golden [--update]``: check, or pin anew, every kernel's text and bytecode.

The files live in one folder per family, ``golden/<family>/NAME.*`` (the conversions one
further down, by source format): :func:`tileir.kernels.gates.golden_folder` says where.
A file there that no kernel pins (a renamed kernel, a changed family) is reported, and
fails the check; ``--update`` names such files but never deletes them.
"""

from __future__ import annotations

import argparse

from tileir.kernels.gates import golden_dir, run_gate, stray_golden_files, write_golden
from tileir.kernels.registry import specs


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--update", action="store_true", help="write the pinned files anew from the current code"
    )


def _report_strays(strays: list) -> None:
    for path in strays:
        print(f"stray {path.relative_to(golden_dir())}: no kernel pins it (remove it with git rm)")


def run(command: str, args: argparse.Namespace) -> int:
    all_specs = specs()
    if args.update:
        written = write_golden(all_specs)
        print(f"pinned {len(written)} file(s) for {len(all_specs)} kernel(s) in {golden_dir()}")
        _report_strays(stray_golden_files(all_specs))
        return 0
    results = run_gate("text", all_specs)
    for r in results:
        if not r.ok:
            print(r.line())
    bad = sum(not r.ok for r in results)
    strays = stray_golden_files(all_specs)
    _report_strays(strays)
    print(
        f"{len(results) - bad} of {len(results)} kernels match their pinned text and bytecode"
        + (f"; {len(strays)} stray file(s) in {golden_dir()}" if strays else "")
    )
    return 1 if bad or strays else 0
