"""``tileir coverage``: which opcodes, type tags and attribute values the golden kernels use.

Generated from the code each time (see :mod:`tileir.kernels.coverage`): a row per opcode of
Tile IR 13.5, per type tag and per attribute value, with its status (``covered``,
``impossible`` with the reason, or ``missing``) and its evidence, the kernels whose
recorded Module uses it.  Exit status 1 when a row is missing.
"""

from __future__ import annotations

import argparse

from tileir.ir.dialect import OPS, STRUCTURAL_OPS, version_text


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--section",
        choices=("opcodes", "types", "attributes"),
        action="append",
        default=None,
        help="only this section (may repeat)",
    )
    parser.add_argument("--missing", action="store_true", help="only the rows without evidence")
    parser.add_argument(
        "--evidence",
        type=int,
        default=3,
        metavar="N",
        help="kernels named per row (default 3; 0 for all)",
    )
    parser.add_argument(
        "--family",
        action="append",
        default=None,
        help="only the kernels of this family (may repeat)",
    )


def _detail(row, limit: int) -> str:
    if row.status == "impossible":
        return row.reason
    if not row.evidence:
        return "no kernel uses it"
    names = row.evidence if limit <= 0 else row.evidence[:limit]
    more = len(row.evidence) - len(names)
    shown = ", ".join(names) + (f" (+{more} more)" if more else "")
    return f"{row.note}: {shown}" if row.note else shown


def _label(row) -> str:
    if row.section != "opcodes":
        return row.name
    info = OPS[row.name]
    kind = " structural" if row.name in STRUCTURAL_OPS else ""
    return f"{row.name} (0x{info.opcode:02X}, {version_text(info.since)}{kind})"


def run(command: str, args: argparse.Namespace) -> int:
    # lazy: start-up cost, a command loads only the stages it runs
    from tileir.kernels.coverage import coverage, totals
    from tileir.kernels.registry import specs

    chosen = specs()
    if args.family:
        chosen = [s for s in chosen if s.family in args.family]
    table = coverage(chosen)
    sections = args.section or ["opcodes", "types", "attributes"]
    for section in sections:
        print(f"== {section}")
        for row in table:
            if row.section != section or (args.missing and row.status == "covered"):
                continue
            print(f"{row.status:<10} {_label(row):<48} {_detail(row, args.evidence)}")
    t = totals(table)
    print(
        f"opcodes {t['body opcodes'][0]}/{t['body opcodes'][1]} body + "
        f"{t['structural opcodes'][0]}/{t['structural opcodes'][1]} structural; "
        f"type tags {t['types'][0]}/{t['types'][1]}; "
        f"attribute values {t['attributes'][0]}/{t['attributes'][1]}; "
        f"{len(chosen)} kernels"
    )
    missing = [r for r in table if r.status == "missing"]
    return 1 if missing else 0
