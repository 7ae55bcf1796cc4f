"""The device gate on a CPU: the comparison, the counting, the ledger row and the no-GPU line.

The fake driver runs each launch either on the fake device's interpreter (the
whole chain, as a GPU would be driven) or on the kernel's reference with planted
errors, so every outcome -- bit-exact, within tolerance, failed -- is produced
on purpose and counted.
"""

from __future__ import annotations

import datetime
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from support.fake_cuda import CUresult, FakeDriver, decode_arguments, interpreting
from support.tools import needs_tools
from tileir.cli.main import main
from tileir.kernels.device_gate import (
    LEDGER_COLUMNS,
    LedgerRow,
    append_ledger,
    ledger_path,
    run_device_gate,
    source_commit,
)
from tileir.kernels.registry import get, specs
from tileir.real import RealDevice, prebuilt
from tileir.real.tileiras import tool_version

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def cubin_cache(monkeypatch):
    # Cubins come from the user's cache ($TILEIR_CACHE_DIR, else ~/.cache/tileir): keyed by
    # content, toolchain and options, so a later run assembles only what changed.
    monkeypatch.delenv(prebuilt.ENV, raising=False)
    monkeypatch.delenv("TILEIR_SOURCE_COMMIT", raising=False)


def read_ledger(path: Path) -> list:
    lines = path.read_text().splitlines()
    return [dict(zip(lines[0].split("\t"), line.split("\t"))) for line in lines[1:]]


def interpreting_device(**options) -> RealDevice:
    return RealDevice(
        driver=FakeDriver(compute=interpreting(lambda n: get(n).kernel().module), **options)
    )


# -- the whole chain ------------------------------------------------------------------------------


@needs_tools
def _gate_sample() -> list:
    """The chapter's kernels, every 20th of the library, and every kernel whose formats an
    sm_90 card lacks (the gate skips those): assembling all of them takes minutes."""
    everything = specs()
    return [
        s
        for i, s in enumerate(everything)
        if s.family == "chapter" or i % 20 == 0 or (s.archs and "sm_90" not in s.archs)
    ]


@needs_tools
def test_every_golden_kernel_on_the_interpreting_driver(tmp_path):
    ledger = tmp_path / "device.tsv"
    chosen = _gate_sample()
    skipped = [s.name for s in chosen if s.archs and "sm_90" not in s.archs]
    assert skipped
    before = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    results = run_device_gate(chosen, ledger, device=interpreting_device())
    assert [r.kernel for r in results] == [s.name for s in chosen]
    assert all(r.ok for r in results), [r.line() for r in results if not r.ok]
    for r in results:
        expected = "not run: its formats need" if r.kernel in skipped else "the reference on sm_90"
        assert expected in r.detail, r.line()
    lines = ledger.read_text().splitlines()
    assert lines[0] == "\t".join(LEDGER_COLUMNS) and len(lines) == 2
    (row,) = read_ledger(ledger)
    assert (row["card"], row["arch"], row["cuda_driver"], row["result"], row["failed"]) == (
        "Fake H200",
        "sm_90",
        "13.0",
        "pass",
        "0",
    )
    assert int(row["skipped"]) == len(skipped)
    assert int(row["bit_exact"]) + int(row["within_tolerance"]) == len(chosen) - len(skipped)
    exact = sum("bit-exact" in r.detail for r in results)
    assert int(row["bit_exact"]) == exact
    assert row["tileiras"] == tool_version() and row["commit"] == source_commit()
    stamp = datetime.datetime.strptime(row["date_utc"], "%Y-%m-%dT%H:%M:%SZ").replace(
        tzinfo=datetime.timezone.utc
    )
    assert before <= stamp <= datetime.datetime.now(datetime.timezone.utc)
    # A second run appends one row under the same header.
    run_device_gate(chosen[:1], ledger, device=interpreting_device())
    lines = ledger.read_text().splitlines()
    assert len(lines) == 3 and lines.count(lines[0]) == 1
    assert read_ledger(ledger)[1]["bit_exact"] == "1"


# -- counting, with planted errors -----------------------------------------------------------------


def planted(changes: dict):
    """A compute hook answering with the spec's reference, then applying ``changes``:
    kernel name -> (argument index, element, function of the old value)."""

    def compute(driver, name, raw, grid):
        kernel = get(name).kernel()
        args, addresses = decode_arguments(driver, kernel.module.function(name), raw)
        given = [
            np.copy(a) if isinstance(a, np.ndarray) else a for a in args[: len(kernel.params)]
        ]  # the DYN_DIM extents are not the API's
        after = list(get(name).reference(given))
        if name in changes:
            index, element, change = changes[name]
            after[index] = np.asarray(after[index]).copy()
            after[index][element] = change(after[index][element])
        for i, address in addresses.items():
            driver.write(address, np.asarray(after[i]).astype(args[i].dtype))

    return compute


@needs_tools
def test_bit_exact_within_tolerance_and_failed_are_counted(tmp_path):
    ledger = tmp_path / "device.tsv"
    chosen = [get(n) for n in ("vadd", "softmax", "vadd_tail", "matmul")]
    ulp = lambda v: np.nextafter(v, np.inf)  # noqa: E731
    changes = {
        "softmax": (1, 2, ulp),  # F64_CLOSE tolerance: one ulp is within it
        "vadd_tail": (2, 130, ulp),  # no tolerance: one ulp fails
        "matmul": (2, 64 * 256 + 70, lambda v: v + 1.0),  # beyond rtol=1e-12
    }
    device = RealDevice(driver=FakeDriver(compute=planted(changes)))
    results = {r.kernel: r for r in run_device_gate(chosen, ledger, device=device)}
    assert results["vadd"].ok and results["vadd"].detail == "bit-exact with the reference on sm_90"
    assert results["softmax"].ok
    assert results["softmax"].detail == (
        "within rtol=1e-12, atol=1e-14 of the reference on "
        "sm_90; argument 1 first differs at element 2"
    )
    assert not results["vadd_tail"].ok
    assert re.fullmatch(
        r"argument 2 \(Out\) differs from the reference at element 130 "
        r"\(block \[1\]\) on sm_90: the GPU gives \S+ and the reference \S+ "
        r"\(bit-exact\); 1 element\(s\) differ",
        results["vadd_tail"].detail,
    )
    assert not results["matmul"].ok
    assert "element 16454 (block [1, 1])" in results["matmul"].detail
    assert "(rtol=1e-12, atol=1e-11)" in results["matmul"].detail
    (row,) = read_ledger(ledger)
    assert (row["result"], row["bit_exact"], row["within_tolerance"], row["failed"]) == (
        "fail",
        "1",
        "1",
        "2",
    )


@needs_tools
def test_a_driver_error_fails_the_kernel_and_the_row(tmp_path):
    ledger = tmp_path / "device.tsv"
    device = interpreting_device(fail={"cuLaunchKernel": CUresult.CUDA_ERROR_LAUNCH_FAILED})
    results = run_device_gate([get("vadd"), get("softmax")], ledger, device=device)
    assert [r.ok for r in results] == [False, False]
    assert results[0].detail == (
        "tileir: kernel `vadd`: cuLaunchKernel failed with CUDA_ERROR_LAUNCH_FAILED (719)"
    )
    (row,) = read_ledger(ledger)
    assert (row["result"], row["bit_exact"], row["within_tolerance"], row["failed"]) == (
        "fail",
        "0",
        "0",
        "2",
    )


# -- without a GPU --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "module, expected",
    [
        (None, "tileir: the real device needs cuda-python, which is not installed"),
        (
            FakeDriver(fail={"cuInit": CUresult.CUDA_ERROR_NO_DEVICE}),
            "tileir: no GPU: the NVIDIA driver found no CUDA device",
        ),
        (
            FakeDriver(init_raises=RuntimeError("libcuda.so.1: cannot open shared object file")),
            "tileir: no NVIDIA driver: cuda-python could not load libcuda",
        ),
    ],
)
def test_gates_device_without_a_gpu_says_what_is_missing(
    monkeypatch, capsys, tmp_path, module, expected
):
    monkeypatch.setitem(sys.modules, "cuda.bindings.driver", module)
    monkeypatch.setitem(sys.modules, "cuda.cuda", None)
    ledger = tmp_path / "device.tsv"
    assert main(["gates", "device", "--ledger", str(ledger)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and err.startswith(expected)
    assert not ledger.exists()


@pytest.mark.slow
def test_gates_device_without_a_gpu_in_a_fresh_process(tmp_path):
    code = (
        "import sys\n"
        "sys.modules['cuda.bindings.driver'] = sys.modules['cuda.cuda'] = None\n"
        "from tileir.cli.main import main\n"
        f"sys.exit(main(['gates', 'device', '--ledger', {str(tmp_path / 'l.tsv')!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "cuda-python" in done.stderr


# -- the ledger's pieces ------------------------------------------------------------------------


def test_ledger_rows(tmp_path):
    row = LedgerRow(
        "NVIDIA\tH200\n",
        "sm_90",
        "2026-01-02T03:04:05Z",
        "13.0",
        "13.4.92",
        "pass",
        7,
        1,
        0,
        "abc1234+dirty",
        2,
    )
    assert row.line() == (
        "NVIDIA H200\tsm_90\t2026-01-02T03:04:05Z\t13.0\t13.4.92\tpass\t7\t1\t0\tabc1234+dirty\t2"
    )
    path = tmp_path / "deep" / "device.tsv"
    append_ledger(path, row)
    append_ledger(path, row)
    assert path.read_text().splitlines() == ["\t".join(LEDGER_COLUMNS), row.line(), row.line()]
    assert ledger_path() == ROOT / "ledger" / "device.tsv"
    assert ledger_path(str(path)) == path


def test_source_commit(monkeypatch, tmp_path):
    commit = source_commit()
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    if head.returncode == 0:
        assert re.fullmatch(re.escape(head.stdout.strip()) + r"(\+dirty)?", commit)
    else:
        assert commit == "unknown"
    assert source_commit(tmp_path) == "unknown"  # not a git checkout
    monkeypatch.setenv("TILEIR_SOURCE_COMMIT", "feedbee")
    assert source_commit() == "feedbee"
