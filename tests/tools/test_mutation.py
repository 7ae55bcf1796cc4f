"""The mutation harness plants one bug at a time and tells killed mutants from survivors."""

import ast
from pathlib import Path

import pytest

from tools.mutation.mutants import apply, diff_of, mutants_of
from tools.mutation.report import kill_rate, table
from tools.mutation.runner import run_mutants
from tools.mutation.targets import AREAS

REPO = Path(__file__).resolve().parents[2]

TOY = '''"""A docstring is never mutated: 1 + 1 < 3."""
__all__ = ["clamp"]


def clamp(x: int, lo: int = 0, hi: int = 9) -> int:
    if x < lo or x > hi:
        assert lo <= hi
    return max(lo, min(x, hi)) + 0
'''


def test_every_kind_of_mutant_is_made_and_nothing_outside_the_code():
    kinds = {m.kind for m in mutants_of(TOY)}
    assert kinds == {"arith", "compare", "logic", "constant", "statement"}
    assert all(m.line >= 5 for m in mutants_of(TOY))  # not the docstring, not __all__


@pytest.mark.parametrize("module", [m for ms in AREAS.values() for m in ms])
def test_every_mutant_of_every_target_parses_and_keeps_the_line_count(module):
    source = (REPO / module).read_text()
    for m in mutants_of(source):
        mutated = apply(source, m)
        ast.parse(mutated)
        assert mutated.count("\n") == source.count("\n"), m.describe()
        assert diff_of(source, m).startswith("- ")


@pytest.mark.slow
def test_the_runner_kills_what_the_tests_see_and_reports_what_they_miss(tmp_path):
    (tmp_path / "toy.py").write_text(TOY)
    # a test that only checks the upper clamp: the lower bound's mutants survive
    (tmp_path / "check.py").write_text("import toy\nassert toy.clamp(20) == 9\n")
    jobs = [("toy.py", m, (("check",),), 30.0) for m in mutants_of(TOY)]
    outcomes = run_mutants(tmp_path, ["toy.py", "check.py"], jobs, workers=2)
    verdicts = {o.mutant.describe(): o.verdict for o in outcomes}
    assert verdicts["line 6 (compare): `>` -> `>=`"] == "survived"  # 20 >= 9 still clamps
    assert verdicts["line 8 (constant): `0` -> `1`"] == "killed"  # + 1 breaks 9
    assert 0 < kill_rate(outcomes) < 1
    assert (tmp_path / "toy.py").read_text() == TOY  # the original is never written through


def test_the_table_counts_by_module_and_area():
    from tools.mutation.runner import Outcome

    m = mutants_of(TOY)[0]
    outcomes = [
        Outcome("tileir/host/launch.py", m, v, 1.0)
        for v in ("killed", "timeout", "survived", "killed")
    ]
    text = table(outcomes)
    assert "tileir/host/launch.py" in text and "area: launch checks" in text
    assert "       4       2        1         1  75.0%" in text


def test_every_target_has_quick_tests_that_exist_and_lie_inside_its_areas():
    from tools.mutation.targets import QUICK, TESTS, area_of, tests_for

    assert set(QUICK) == {m for ms in AREAS.values() for m in ms}
    for module, paths in QUICK.items():
        for path in paths:
            assert (REPO / path).exists(), (module, path)
        area_paths = [p for argv in TESTS[area_of(module)] for p in argv if p.startswith("tests/")]
        # each quick path is one of the area's folders or files, or inside one
        assert all(any(p.startswith(a) for a in area_paths) for p in paths), (module, paths)
        ((*_, last),) = tests_for(module, quick=True)
        assert last == paths[-1]


def test_ci_runs_a_fixed_quick_sample_with_a_floor():
    import re

    ci = (REPO / ".ci" / "run").read_text()
    (line,) = [ln for ln in ci.splitlines() if ln.startswith("python -m tools.mutation")]
    assert "--quick" in line and re.search(r"--sample \d+ --seed \d+", line)
    floor = float(re.search(r"--floor ([0-9.]+)", line).group(1))
    assert 0.5 <= floor < 1.0, floor
    assert f"{floor:.2f}" in (REPO / "docs" / "mutation.md").read_text()
