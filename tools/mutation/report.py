"""The kill table of a mutation run and the survivors' diffs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from tools.mutation.mutants import diff_of
from tools.mutation.runner import Outcome
from tools.mutation.targets import area_of

__all__ = ["kill_rate", "table", "survivors"]


def kill_rate(outcomes: Sequence[Outcome]) -> float:
    """Killed (a test failed, or the tests hung) over all mutants; 1.0 for none."""
    if not outcomes:
        return 1.0
    return sum(o.verdict != "survived" for o in outcomes) / len(outcomes)


def table(outcomes: Sequence[Outcome]) -> str:
    """One row per module and one per area: mutants, killed, timeouts, survivors, rate."""
    by_module: dict[str, list[Outcome]] = defaultdict(list)
    by_area: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by_module[o.module].append(o)
        by_area[area_of(o.module)].append(o)
    head = f"{'':44} {'mutants':>8} {'killed':>7} {'timeout':>8} {'survived':>9} {'kill':>6}"

    def row(name: str, group: list[Outcome]) -> str:
        killed = sum(o.verdict == "killed" for o in group)
        hung = sum(o.verdict == "timeout" for o in group)
        alive = sum(o.verdict == "survived" for o in group)
        return (
            f"{name:44} {len(group):8d} {killed:7d} {hung:8d} {alive:9d} "
            f"{100 * kill_rate(group):5.1f}%"
        )

    lines = [head]
    lines += [row(m, g) for m, g in sorted(by_module.items())]
    lines.append("")
    lines += [row(f"area: {a}", g) for a, g in sorted(by_area.items())]
    lines.append(row("all", list(outcomes)))
    return "\n".join(lines)


def survivors(outcomes: Sequence[Outcome], sources: dict[str, str]) -> str:
    """Each surviving mutant with its diff, module by module."""
    out = []
    for o in outcomes:
        if o.verdict == "survived":
            out.append(
                f"{o.module}: {o.mutant.describe()}\n{diff_of(sources[o.module], o.mutant)}"
            )
    return "\n\n".join(out) if out else "(no survivors)"
