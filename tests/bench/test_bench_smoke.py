"""The benchmarks under bench/ still run: each kernel once at a tiny size, checked, never timed.

bench/record_encode.py: every chapter kernel records, lowers and encodes into
bytecode our decoder reads back as that kernel; cuTile's twin of each exports
bytecode whose one entry is the same kernel (when cuTile is installed).
bench/fake_device.py: every kernel, recorded at a tiny size, gives numpy's
answer on the interpreter and on the fake device; the scripts' ``main`` run end
to end with one repetition.  Nothing here asserts a time.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # bench/ is a folder of scripts beside tileir/, not installed
    sys.path.insert(0, str(ROOT))

from bench import fake_device, fake_kernels, record_encode, timing  # noqa: E402
from tileir.encode import decode  # noqa: E402
from tileir.ir.module import walk  # noqa: E402

# ----------------------------------------------------------------------------- record_encode


@pytest.mark.parametrize("name", record_encode.KERNELS + (record_encode.FIXED_COST_KERNEL,))
def test_tileir_side_encodes_each_chapter_kernel(name):
    data = record_encode.tileir_path(name, "13.4", True)()
    module = decode(data)
    assert [f.name for f in module.functions] == [name]
    assert data[:8] == b"\x7fTileIR\x00"


@pytest.mark.parametrize("name", record_encode.KERNELS + (record_encode.FIXED_COST_KERNEL,))
def test_cutile_twin_exports_the_same_kernel(name):
    pytest.importorskip("cuda.tile")
    twins, why = record_encode.cutile_twins()
    assert twins is not None, why
    data = twins.export(name, "13.4", cold=True)
    module = decode(data)
    assert [f.name for f in module.functions] == [name]
    ours = {
        op.name
        for op in walk(decode(record_encode.tileir_path(name, "13.4", False)()).functions[0].body)
    }
    theirs = {op.name for op in walk(module.functions[0].body)}
    # the same computation: every arithmetic, memory and control op of ours appears in theirs
    # (the spellings of views, constants and masks may differ)
    core = {n for n in ours if n in _CORE_OPS}
    assert core <= theirs, sorted(core - theirs)


_CORE_OPS = {
    "addf",
    "mulf",
    "subf",
    "divf",
    "exp",
    "maxf",
    "mmaf",
    "reduce",
    "for",
    "permute",
    "load_view_tko",
    "store_view_tko",
    "atomic_rmw_tko",
    "iota",
}


def test_record_encode_main_prints_the_table(capsys):
    assert record_encode.main(["--repeats", "1", "--kernels", "vadd", "softmax"]) == 0
    out = capsys.readouterr().out
    assert "cold/dbg" in out and "vadd" in out and "softmax" in out and "geomean" in out
    assert "tileir's markers made in every call" in out
    if record_encode.cutile_twins()[0] is not None:  # the fixed cost, under the table
        assert re.search(r"the fixed cost, copy .*: [0-9.]+x; it is [0-9]+% of", out)
    if record_encode.cutile_twins()[0] is not None:  # the goal's columns under the other mode
        assert re.search(r"instead: cached/dbg [0-9.]+x geomean .*slowest (vadd|softmax)", out)


def test_the_fixed_cost_kernel_is_one_load_and_one_store_and_its_line_gives_ratio_and_share():
    data = record_encode.tileir_path(record_encode.FIXED_COST_KERNEL, "13.4", False)()
    names = [op.name for op in walk(decode(data).functions[0].body)]
    assert names.count("load_view_tko") == 1 and names.count("store_view_tko") == 1
    rows = [("vadd", 1e-4, 4e-4, 0, 0, 0, 0), ("softmax", 1e-4, 1e-3, 0, 0, 0, 0)]
    line = record_encode.fixed_cost_line(3e-4, 4.5e-3, rows)
    assert "copy (one load, one store" in line and "15.0x" in line
    assert "it is 47% of tileir+dbg's geomean" in line  # 300 us of sqrt(400 * 1000) us


@pytest.mark.parametrize("name", record_encode.KERNELS + (record_encode.FIXED_COST_KERNEL,))
def test_markers_made_once_give_the_bytes_of_markers_made_in_each_call(name):
    each = record_encode.tileir_path(name, "13.4", True)
    record_encode.set_markers("once")
    try:
        once = record_encode.tileir_path(name, "13.4", True)
    finally:
        record_encode.set_markers("each")
    assert once() == each() == once()
    with pytest.raises(ValueError, match="not one of"):
        record_encode.set_markers("never")


def test_other_collect_line_names_the_slowest_kernel_and_its_ratio():
    rows = [("vadd", 1e-4, 2e-3), ("softmax", 2e-4, 2e-3)]
    line = record_encode.other_collect_line(rows, "each")
    assert "cached/dbg 14.1x geomean" in line and "slowest softmax 10.0x" in line
    assert "a full collection before each" in line


@pytest.mark.slow
def test_record_encode_profile_names_tileir_functions():
    text = record_encode.profile(["vadd"], "13.4", calls=1, top=10)
    assert "encode (writer.py:encode)" in text and "tileir/" in text


# ----------------------------------------------------------------------------- fake_device


@pytest.mark.parametrize("size", ["tiny", "overhead"])
@pytest.mark.parametrize("name", fake_kernels.NAMES)
def test_interpreter_gives_numpys_answer_at_a_tiny_size(name, size):
    c = fake_kernels.case(name, size)
    err = fake_device.check(c)  # raises AssertionError outside the case's tolerance
    assert err <= c.atol + c.rtol * 10
    want = np.asarray(c.numpy_fn(*c.args)).reshape(-1)
    got = fake_device.run_device(c, fake_device.FakeDevice(mode="interpret")).reshape(-1)
    np.testing.assert_allclose(got, want, rtol=c.rtol, atol=c.atol)


STEPS_KERNELS = [name for name in fake_kernels.NAMES if fake_kernels.case(name, "tiny").steps_fn]


def test_matmul_and_flash_attention_have_the_kernels_steps_peer():
    assert set(STEPS_KERNELS) == {"matmul", "flash_attn"}


@pytest.mark.parametrize("shape", [(128, 128, 32, 64, 64), (96, 64, 16, 32, 64)])
def test_tile_products_are_one_gemm_per_tile(shape):
    """The kernel's-steps peers fall back to tile_products where a bulk GEMM gives other
    bits: each of its tiles must be exactly that tile's own GEMM of contiguous blocks."""
    rows, cols, depth, tm, tn = shape
    rng = np.random.default_rng(3)
    a = rng.standard_normal((rows, depth), dtype=np.float32)
    b = rng.standard_normal((depth, cols), dtype=np.float32)
    got = fake_kernels.tile_products(a, b, tm, tn)
    for r in range(0, rows, tm):
        for c in range(0, cols, tn):
            own = np.ascontiguousarray(a[r : r + tm]) @ np.ascontiguousarray(b[:, c : c + tn])
            assert np.array_equal(got[r : r + tm, c : c + tn].view(np.uint32), own.view(np.uint32))


@pytest.mark.parametrize("name", STEPS_KERNELS)
def test_the_kernels_steps_give_the_interpreters_bits_at_a_tiny_size(name):
    c = fake_kernels.case(name, "tiny")
    assert fake_device.same_steps(c) is True
    want = np.asarray(c.numpy_fn(*c.args)).reshape(-1)
    np.testing.assert_allclose(c.steps_fn(*c.args).reshape(-1), want, rtol=c.rtol, atol=c.atol)
    assert "steps" in fake_device.measure(c, 1)


def test_same_steps_says_when_the_bits_differ_and_when_there_is_no_peer():
    c = fake_kernels.case("matmul", "tiny")
    off = fake_kernels.Case(
        c.name,
        c.kernel,
        c.args,
        c.numpy_fn,
        c.out,
        c.rtol,
        c.atol,
        c.work,
        lambda *a: np.nextafter(c.steps_fn(*a), np.float32(np.inf)),
    )
    assert fake_device.same_steps(off) is False
    assert fake_device.same_steps(fake_kernels.case("vadd", "tiny")) is None


def test_check_refuses_a_wrong_answer():
    c = fake_kernels.case("vadd", "tiny")
    wrong = fake_kernels.Case(
        c.name, c.kernel, c.args, lambda a, b, o: a - b, c.out, 0.0, 0.0, c.work
    )
    with pytest.raises(AssertionError, match="vadd"):
        fake_device.check(wrong)


@pytest.mark.slow
def test_fake_device_main_runs_tiny(capsys):
    assert fake_device.main(["--size", "tiny", "--repeats", "1", "--no-triton"]) == 0
    out = capsys.readouterr().out
    for name in fake_kernels.NAMES:
        assert name in out
    assert "skipped (--no-triton)" in out and "goals apply to --size full" in out


def test_triton_column_says_why_when_triton_is_missing(tmp_path):
    fake_python = tmp_path / "python"
    fake_python.write_text('#!/bin/sh\necho \'{"error": "No module named triton"}\'\n')
    fake_python.chmod(0o755)
    results, note = fake_device.triton_times(
        str(fake_python), fake_kernels.SIZES["tiny"], ["vadd"]
    )
    assert results == {} and "No module named triton" in note


def test_timing_helpers():
    assert timing.geomean([1.0, 4.0]) == pytest.approx(2.0)
    best = timing.race({"a": lambda: None, "b": lambda: sum(range(1000))}, repeats=2)
    assert set(best) == {"a", "b"} and all(t >= 0 for t in best.values())
    text = timing.table(["k", "t"], [("x", "1 ms")])
    assert text.splitlines()[0].startswith("k") and "1 ms" in text


def test_peak_bytes_sees_a_numpy_buffer_and_the_report_judges_every_goal():
    n = 1 << 20
    assert fake_device.peak_bytes(lambda: np.ones(n, np.float32)) >= 4 * n
    assert fake_device.peak_bytes(lambda: None) < 4096
    t = {"numpy": 1.0, "interpret": 2.0, "device": 2.2}
    rows = [
        ("vadd", "w", t, 0.0, {"numpy": 100, "interpret": 150}),
        ("vadd_small", "w", dict(t, interpret=4.0), 0.0, {"numpy": 100, "interpret": 300}),
    ]
    text = fake_device.report(rows, 1, {}, None)
    assert "vadd 2.00x <= 1.5x: MISSED" in text
    assert "vadd FakeDevice.run/interpret 1.10x <= 1.3x: met" in text
    assert "vadd_small peak memory 3.00x numpy's <= 2x: MISSED" in text
    assert "cells of 64 / in cells of 1024: 2.00x <= 1.5x: MISSED" in text
    assert "kernel's steps" not in text  # no row has that peer
    mm = dict(t, interpret=4.0, steps=2.0)
    text = fake_device.report(
        [("matmul", "w", mm, 0.0, {"numpy": 1, "interpret": 1}, True)], 1, {}, None
    )
    steps_row = next(ln for ln in text.splitlines() if ln.startswith("matmul ") and "yes" in ln)
    assert steps_row.split()[1:] == ["2.000", "s", "2.00x", "4.00x", "2.00x", "yes"]
    assert "matmul 4.00x <= 2.5x: MISSED" in text  # the goal stays against plain numpy


# ----------------------------------------------------------------------------- startup


@pytest.mark.slow
def test_startup_main_runs_each_command_once(capsys):
    from bench import startup

    assert startup.main(["--repeats", "1"]) == 0
    out = capsys.readouterr().out
    for what in ("import numpy", "import tileir", "tileir render vadd"):
        assert what in out
    assert "goals: import tileir" in out


def test_record_encode_report_judges_the_cached_geomean_and_the_slowest_kernel():
    # rows: name, tileir, tileir+dbg, cuTile cold, cuTile cached, bytes ours, bytes cuTile
    rows = [("a", 1.0, 1.0, 30.0, 20.0, 1, 1), ("b", 1.0, 1.0, 30.0, 8.0, 1, 1)]
    text = record_encode.report(rows, "13.4", 1, None)
    assert "(geomean of cached/dbg): 12.6x, MISSED" in text
    assert "slowest b 8.0x, MISSED" in text and "cold export 30.0x" in text
    rows = [("a", 1.0, 1.0, 30.0, 16.0, 1, 1)]
    assert "16.0x, met; every kernel at least 10x: slowest a 16.0x, met" in (
        record_encode.report(rows, "13.4", 1, None)
    )
    # the eighth entry: tileir with its memos cleared, printed beside the warm figure
    rows = [("a", 1.0, 1.0, 30.0, 16.0, 1, 1, 2.0)]
    text = record_encode.report(rows, "13.4", 1, None)
    assert "+dbg cold memo" in text and "2.000 s" in text
    assert "memos cleared before every call (a process's first kernel): 8.0x" in text


def test_race_runs_a_sides_setup_outside_its_clock():
    calls = []
    best = timing.race(
        {"a": lambda: calls.append("a"), "b": lambda: calls.append("b")},
        repeats=2,
        warmup=0,
        setups={"a": lambda: calls.append("setup a")},
    )
    assert set(best) == {"a", "b"}
    assert calls.count("setup a") == calls.count("a") == 2 and calls.count("b") == 2
    assert all(calls[i - 1] == "setup a" for i, c in enumerate(calls) if c == "a")


# ----------------------------------------------------------------------------- fake_changes


def test_fake_changes_runs_every_variant_and_checks_their_answers(capsys):
    from bench import fake_changes

    assert fake_changes.main(["--size", "tiny", "--repeats", "1"]) == 0
    text = capsys.readouterr().out
    for name in fake_changes.KERNELS:
        assert any(line.startswith(name + " ") for line in text.splitlines()), name
    assert "without fusion" in text and "without per-batch plans" in text
    assert "without merged GEMMs" in text and "without beta=1 GEMM" in text


def test_collect_never_leaves_out_the_collection_before_each_call(monkeypatch):
    collections = []
    monkeypatch.setattr(timing.gc, "collect", lambda *a: collections.append(1) or 0)
    try:
        timing.set_collect("never")
        timing.race({"a": lambda: None}, repeats=3, warmup=0)
        assert collections == []
        timing.set_collect("each")
        timing.race({"a": lambda: None}, repeats=3, warmup=0)
        assert len(collections) == 3
    finally:
        timing.set_collect("each")
    with pytest.raises(ValueError, match="collect mode"):
        timing.set_collect("sometimes")


def test_collect_young_freezes_the_warm_heap_and_still_collects_before_each_call(monkeypatch):
    events = []
    monkeypatch.setattr(timing.gc, "collect", lambda *a: events.append("collect") or 0)
    monkeypatch.setattr(timing.gc, "freeze", lambda: events.append("freeze"))
    monkeypatch.setattr(timing.gc, "unfreeze", lambda: events.append("unfreeze"))
    try:
        timing.set_collect("young")
        timing.race({"a": lambda: events.append("a"), "b": lambda: events.append("b")}, 2, 1)
    finally:
        timing.set_collect("each")
    # the warm-up, then one collection and the freeze, then a collection before each call
    assert events[:4] == ["a", "b", "collect", "freeze"]
    assert events[4:-1] == ["collect", "a", "collect", "b", "collect", "b", "collect", "a"]
    assert events[-1] == "unfreeze"


# ----------------------------------------------------------------------------- cache_state


def test_cache_state_times_both_sides_after_every_condition(capsys):
    from bench import cache_state

    assert cache_state.main(["--repeats", "1", "--streams", "1"]) == 0
    out = capsys.readouterr().out
    for condition in ("nothing (warm)", "a stream over 1 MiB", "a full collection"):
        assert condition in out
    assert "long-lived heap frozen" in out


# ----------------------------------------------------------------------------- stages_ab


def test_stages_ab_times_every_stage_of_both_trees_in_their_own_workers(capsys):
    from bench import stages_ab

    root = str(Path(__file__).resolve().parents[2])
    assert stages_ab.main([root, root, "--rounds", "1", "--kernels", "vadd"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [
        line.split() for line in lines if line.split()[:1] and line.split()[0] in stages_ab.STAGES
    ]
    assert [(r[0], r[1]) for r in rows] == [
        (s, c) for s in stages_ab.STAGES for c in stages_ab.STATES
    ]
    for row in rows:  # "STAGE STATE A t unit B t unit B/A ratio": the same tree, both timed
        assert row[2] == "A" and row[5] == "B" and row[8] == "B/A"
        assert float(row[3]) > 0 and float(row[6]) > 0 and float(row[9]) > 0


def test_stages_ab_refuses_a_worker_that_imports_another_tree(tmp_path):
    from bench import stages_ab

    (tmp_path / "tileir").mkdir()  # a tree without tileir's modules: its worker cannot start
    with pytest.raises(RuntimeError, match="did not start|imported the tileir of"):
        stages_ab.measure((str(tmp_path), str(tmp_path)), 1, ["record"], ["vadd"], "13.4")


# ----------------------------------------------------------------------------- cost_model

_CALLGRIND_OUT = """# callgrind format
version: 1
positions: line
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
summary: 2000 600 400 30 20 10 4 6 2
"""


def test_cost_model_reads_callgrind_totals_and_counts_per_call():
    from bench import cost_model

    totals = cost_model.parse_summary(_CALLGRIND_OUT)
    assert totals == dict(zip(cost_model.EVENTS, (2000, 600, 400, 30, 20, 10, 4, 6, 2)))
    c = cost_model.per_call(totals, 2)  # two calls: each half of every total
    assert c["Ir"] == 1000 and c["L1"] == 30 and c["L2i"] == 2 and c["L2d"] == 4
    assert c["CEst"] == 1000 + 10 * 30 + 100 * (2 + 4)
    with pytest.raises(ValueError, match="not a callgrind output"):
        cost_model.parse_summary("events: Ir\n")
    with pytest.raises(ValueError, match="1 events but 2 counts"):
        cost_model.parse_summary("events: Ir\nsummary: 5 6\n")
    # trailing zero counts are left out of the format
    assert cost_model.parse_summary("events: Ir Dr\nsummary: 5\n") == {"Ir": 5, "Dr": 0}


def test_cost_model_reports_b_over_a_for_each_stage_and_state():
    from bench import cost_model

    a = cost_model.per_call(cost_model.parse_summary(_CALLGRIND_OUT), 1)
    b = {k: v / 2 for k, v in a.items()}  # B does half of everything
    counts = {("A", "all", "cold"): a, ("B", "all", "cold"): b}
    out = cost_model.report(counts, ["x", "y"], ["all"], ["cold"], ["vadd"], 1, 1 << 20)
    assert "A = x B = y" in out and "simulated L2 1024 KiB" in out
    assert "all     cold  B/A: Ir 0.500, L2 misses 0.500, CEst 0.500" in out


# two binaries, compressed names first given by a call's target (cob= / cfn=), a call
# whose inclusive cost line is not self cost, and relative positions
_CALLGRIND_BODY = """# callgrind format
version: 1
positions: line
events: Ir ILmr DLmr DLmw
summary: 180 9 12 3

ob=(1) /usr/lib/libpython3.11.so.1.0
fl=(1) ceval.c
fn=(1) _PyEval_EvalFrameDefault
10 100 2 5 1
+2 20 1 1 0
cob=(2) /usr/lib/x86_64-linux-gnu/libc.so.6
cfi=(2) malloc.c
cfn=(2) malloc
calls=3 40
* 999 999 999 999
ob=(2)
fl=(2)
fn=(2)
40 60 6 6 2
"""


def test_cost_model_sums_self_costs_by_binary_and_by_function():
    from bench import cost_model

    by_ob = cost_model.self_costs(_CALLGRIND_BODY, "ob")
    assert by_ob == {
        "libpython3.11.so.1.0": {"Ir": 120, "ILmr": 3, "DLmr": 6, "DLmw": 1},
        "libc.so.6": {"Ir": 60, "ILmr": 6, "DLmr": 6, "DLmw": 2},
    }
    by_fn = cost_model.self_costs(_CALLGRIND_BODY, "fn")
    assert set(by_fn) == {
        "libpython3.11.so.1.0:_PyEval_EvalFrameDefault",
        "libc.so.6:malloc",
    }
    # the call's line (999s) is its inclusive cost, counted nowhere; the rest sums to the summary
    totals = cost_model.parse_summary(_CALLGRIND_BODY)
    for rows in (by_ob, by_fn):
        assert {e: sum(r[e] for r in rows.values()) for e in ("Ir", "ILmr")} == {
            "Ir": totals["Ir"],
            "ILmr": totals["ILmr"],
        }
    lines = cost_model.where_misses_lie(_CALLGRIND_BODY, 2, 1)  # two calls, the top one
    assert lines == [
        "  binary            7 L2 misses (58.3%: i 3, d 4), Ir 30  libc.so.6",
        "  C function        7 L2 misses (58.3%: i 3, d 4), Ir 30  libc.so.6:malloc",
    ]
    with pytest.raises(ValueError, match="by binary"):
        cost_model.self_costs(_CALLGRIND_BODY, "file")


def test_cost_model_says_when_valgrind_is_missing(monkeypatch):
    from bench import cost_model

    monkeypatch.setattr(cost_model.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="valgrind is not on PATH"):
        cost_model.count(str(ROOT), "all", "warm", ["vadd"], 1, "13.4", 1 << 20)


@pytest.mark.slow
@pytest.mark.skipif(
    __import__("shutil").which("valgrind") is None, reason="valgrind is not installed"
)
def test_cost_model_counts_a_record_under_valgrind():
    from bench import cost_model

    warm, where = cost_model.count(
        str(ROOT), "record", "warm", ["vadd"], 1, "13.4", 1 << 20, where=3
    )
    # a record of vadd runs tens of thousands of instructions at least, and only the call
    # is counted (the imports and warm-up would be hundreds of millions)
    assert 10_000 < warm["Ir"] < 50_000_000
    assert warm["CEst"] > warm["Ir"]
    # three binaries at most, then three C functions, the interpreter's among them
    assert len(where) <= 6 and any("libpython" in w and "binary" in w for w in where)


# ----------------------------------------------------------------------- cost_by_function
# two dump parts as callgrind writes them: names compressed to (n) after their first use, a
# call's inclusive cost on the line after its calls= line
_PART_A = """desc: Trigger: Client Request: tileir/kernel.py:trace
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
fn=(1) _PyEval_EvalFrameDefault
10 100 20 10 1 2 1 3 4 1
cfn=(2) _PyCode_CreateLineArray
calls=1 0
10 50 5 5 0 1 1 0 2 9
fn=(2)
5 50 5 5 0 1 1 0 2 9
"""
_PART_B = """desc: Trigger: Client Request: C:dict.get@tileir/kernel.py:_record
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
fn=(1) dict_get
3 40 8 0 2 1 0 5 6 0
+1 10 2 0 0 0 0 1 1 0
"""


def test_cost_by_function_sums_each_label_without_the_profilers_own_functions():
    from bench import cost_by_function as cbf

    label, costs = cbf.parse_part(_PART_A)
    assert label == "tileir/kernel.py:trace"
    # the inclusive line under calls= is not the caller's self cost
    assert costs["_PyEval_EvalFrameDefault"] == [100, 20, 10, 1, 2, 1, 3, 4, 1]
    assert costs["_PyCode_CreateLineArray"][8] == 9
    total = cbf.by_label([cbf.parse_part(_PART_A), cbf.parse_part(_PART_B)])
    assert cbf.misses(total["tileir/kernel.py:trace"]) == 8  # the line table's 11 left out
    assert total["C:dict.get@tileir/kernel.py:_record"][7] == 7
    text = cbf.report(total, 5)
    assert text.splitlines()[0].startswith("L2 misses 21 (i 9, dr 11, dw 1)")
    assert "C:dict.get" in text.splitlines()[1]  # the most misses (13) first, then trace's 8
    assert "tileir/kernel.py:trace" in text.splitlines()[2]
    inside = cbf.within([cbf.parse_part(_PART_B)], "_record", 5)
    assert "dict_get" in inside and "dr    7" in inside
