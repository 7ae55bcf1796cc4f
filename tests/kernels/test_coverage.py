"""The coverage table (tileir.kernels.coverage, `tileir coverage`): every opcode of Tile IR 13.4, every
type tag and every attribute value has evidence in the golden kernels, or a written reason."""

from __future__ import annotations

import pytest

from tileir import F64, In, Out, cells, load_cell, store_cell, trace
from tileir.ir.dialect import BODY_OPS, ENUMS, OPS, STRUCTURAL_OPS
from tileir.kernels.coverage import (
    ATTRIBUTE_VALUES,
    IMPOSSIBLE,
    TYPE_TAGS,
    coverage,
    rows,
    totals,
    uses,
)
from tileir.kernels.registry import specs
from tileir.types import FORMATS


@pytest.fixture(scope="module")
def table():
    return coverage(specs())


def test_every_row_has_evidence_or_a_reason(table):
    missing = [f"{r.section}: {r.name}" for r in table if r.status == "missing"]
    assert not missing, "rows no golden kernel covers and no reason explains:\n  " + "\n  ".join(
        missing
    )


def test_reasons_are_written_and_not_stale(table):
    for row in table:
        if (row.section, row.name) in IMPOSSIBLE:
            assert len(row.reason) > 40, row
            # a row marked impossible that a kernel does cover has a stale reason
            assert row.status == "impossible", (
                f"{row.section} {row.name} is covered by {row.evidence[:3]}; drop its reason"
            )


def test_the_rows_are_the_dialects(table):
    ops = [r.name for r in table if r.section == "opcodes"]
    assert sorted(ops) == sorted(OPS) and len(ops) == 108
    assert len([o for o in ops if o not in STRUCTURAL_OPS]) == len(BODY_OPS) == 105
    types = [r.name for r in table if r.section == "types"]
    assert types == list(TYPE_TAGS) and len(types) == 24
    assert {f.name for f in FORMATS} <= set(types)
    attributes = [r.name for r in table if r.section == "attributes"]
    assert attributes == list(ATTRIBUTE_VALUES)
    for enum, values in ENUMS.items():
        for value in values:
            assert f"{enum}.{value}" in attributes


def test_totals(table):
    t = totals(table)
    assert t["body opcodes"] == (105, 105)
    assert t["structural opcodes"] == (3, 3)
    assert t["types"] == (24, 24)
    assert t["attributes"][1] == len(ATTRIBUTE_VALUES)
    assert t["attributes"][0] == len(ATTRIBUTE_VALUES) - len(IMPOSSIBLE)


def _vadd():
    def body(a, b, out):
        x = yield load_cell(a)
        y = yield load_cell(b)
        yield store_cell(out, x + y)

    g = cells([256], [128])
    return trace("cov_vadd", body, In(F64, g), In(F64, g), Out(F64, g))


def test_uses_walks_ops_types_and_attributes():
    used = uses(_vadd().module)
    assert {
        "module",
        "entry",
        "addf",
        "load_view_tko",
        "store_view_tko",
        "make_token",
        "make_tensor_view",
        "make_partition_view",
        "get_tile_block_id",
        "return",
        "assume",
    } <= used["opcodes"]
    assert "global" not in used["opcodes"] and "reduce" not in used["opcodes"]
    assert {
        "f64",
        "ptr",
        "tile",
        "tensor_view",
        "partition_view",
        "token",
        "function",
        "i32",
    } <= used["types"]
    assert "f32" not in used["types"]
    assert {
        "rounding.nearest_even",
        "memory_ordering.weak",
        "padding_value.zero",
        "assume.div_by",
    } <= used["attributes"]
    assert "rounding.zero" not in used["attributes"]


def test_evidence_comes_from_the_kernels_given():
    empty = rows({})
    assert all(r.status in ("missing", "impossible") for r in empty)
    only_vadd = rows({"cov_vadd": uses(_vadd().module)})
    by_name = {(r.section, r.name): r for r in only_vadd}
    assert by_name[("opcodes", "addf")].evidence == ("cov_vadd",)
    assert by_name[("opcodes", "scan")].status == "missing"
    assert by_name[("attributes", "ptr_attr.none")].status == "missing"


def test_a_written_reason_marks_a_row_impossible(monkeypatch):
    import tileir.kernels.coverage as cov

    monkeypatch.setitem(cov.IMPOSSIBLE, ("opcodes", "scan"), "a reason " * 6)
    by_name = {(r.section, r.name): r for r in rows({"cov_vadd": uses(_vadd().module)})}
    assert by_name[("opcodes", "scan")].status == "impossible"
    assert by_name[("opcodes", "addf")].status == "covered"


def test_ptr_attr_is_found_on_pointers_and_tensor_views():
    def body(a, out):
        yield store_cell(out, (yield load_cell(a)))

    g = cells([256], [128])
    with_attr = trace("cov_attr", body, In(F64, g, ptr_attr="none"), Out(F64, g))
    assert "ptr_attr.none" in uses(with_attr.module)["attributes"]
    assert "ptr_attr.none" not in uses(_vadd().module)["attributes"]


def test_cli_prints_the_table(capsys):
    from tileir.cli.main import main

    assert main(["coverage", "--section", "opcodes", "--evidence", "1"]) == 0
    out = capsys.readouterr().out
    assert "covered    addf (0x02, 13.1)" in out
    assert "structural" in out and "global" in out
    assert "opcodes 105/105 body + 3/3 structural; type tags 24/24" in out


def test_cli_missing_shows_no_row_and_full_totals(capsys):
    from tileir.cli.main import main

    assert main(["coverage", "--missing"]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if not ln.startswith("==")]
    assert lines[:-1] == []
    n = len(ATTRIBUTE_VALUES)
    assert lines[-1].startswith(
        f"opcodes 105/105 body + 3/3 structural; type tags 24/24; attribute values {n}/{n};"
    )
