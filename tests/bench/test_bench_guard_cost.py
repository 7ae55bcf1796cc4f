"""bench/guard_cost.py: the checked lowering's cost is measured on the same recording."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # bench/ is a folder of scripts beside tileir/, not installed
    sys.path.insert(0, str(ROOT))

from bench import guard_cost  # noqa: E402


def test_a_guarded_kernel_costs_bytes_and_ops_and_a_view_kernel_nothing():
    checked_bytes, unchecked_bytes, checked_ops, unchecked_ops = guard_cost.measure("histogram")
    assert checked_bytes > unchecked_bytes and checked_ops > unchecked_ops
    assert guard_cost.measure("vadd") is None  # views only: no guard, nothing to compare


def test_main_prints_a_row_and_the_totals(capsys):
    assert guard_cost.main(["--kernel", "histogram", "--kernel", "cas_i32"]) == 0
    out = capsys.readouterr().out
    assert "histogram" in out and "cas_i32" in out and "2 guarded kernel(s):" in out
