"""bench/gpu.py's kernels record, encode and assemble for sm_90 here; small copies compute right.

Only the timings need a GPU.  The kernels at benchmark sizes are assembled with
tileiras (through the script's own ``--prebuild``), their cubins' parameter
tables agree with the calling convention, and the same kernels at small sizes
run on the fake device's interpreter against numpy.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from support.fake_cuda import FakeDriver, interpreting, real_binding_shapes
from support.tools import needs_tools
from tileir.fake import FakeDevice
from tileir.ir.module import walk
from tileir.ir.numerics import dense_array
from tileir.lower.lowering import entry_param_types
from tileir.real import prebuilt
from tileir.real.cubin import kernel_info
from tileir.real.params import check_against_cubin, layout
from tileir.types import BF16, F32, PointerType, TileType

BENCH = Path(__file__).resolve().parents[2] / "bench" / "gpu.py"


@pytest.fixture(scope="module")
def gpu():
    spec = importlib.util.spec_from_file_location("bench_gpu", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_kernels_at_their_sizes(gpu):
    vadd, matmul = gpu.kernels()
    assert vadd.grid == (1 << 28 >> 10,)
    assert [p.format for p in vadd.params] == [F32] * 3
    assert matmul.grid == (8192 // 128, 8192 // 128)
    assert entry_param_types(matmul.params) == (
        TileType((), PointerType(BF16)),
        TileType((), PointerType(BF16)),
        TileType((), PointerType(F32)),
    )
    ops = list(walk(matmul.function.body))
    (loop,) = [op for op in ops if op.name == "for"]
    (mma,) = [op for op in ops if op.name == "mmaf"]
    lhs, rhs, acc = (v.type for v in mma.operands)
    assert (lhs.shape, lhs.element, rhs.shape, rhs.element) == ((128, 64), BF16, (64, 128), BF16)
    assert (acc.shape, acc.element) == ((128, 128), F32)
    defined = {r.id: op for op in ops for r in op.results}
    bounds = [int(dense_array(defined[v.id].attrs["value"])) for v in loop.operands[:3]]
    assert bounds == [0, 8192 // 64, 1]  # the K loop: 128 steps of 64
    for k in (vadd, matmul):
        assert k.bytecode()[:8] == b"\x7fTileIR\x00"


@needs_tools
def test_they_assemble_for_sm_90(gpu, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TILEIR_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "cubins"
    assert gpu.main(["--prebuild", str(out), "--arch", "sm_90"]) == 0
    assert capsys.readouterr().out == f"sm_90: 2 cubin(s) in {out}\n"
    assert prebuilt.toolchain(out).startswith("tileiras ")
    for k in gpu.kernels():
        cubin = prebuilt.lookup(k.bytecode(), "sm_90", out)
        assert cubin is not None
        info = kernel_info(cubin, k.name)
        assert info.arch == "sm_90" and info.reqntid is not None
        check_against_cubin(layout(entry_param_types(k.params)), info)


def test_small_copies_compute_what_the_benchmark_claims(gpu):
    dev = FakeDevice(mode="interpret")
    rng = np.random.default_rng(0)
    a, b = rng.random(4096, dtype=np.float32), rng.random(4096, dtype=np.float32)
    got = dev.run(gpu.vadd_kernel(4096), a, b, np.zeros(4096, np.float32))[2]
    assert np.array_equal(got, a + b)
    m = n = k = 256
    x = rng.standard_normal(m * k, np.float32).astype(ml_dtypes.bfloat16)
    y = rng.standard_normal(k * n, np.float32).astype(ml_dtypes.bfloat16)
    c = dev.run(gpu.matmul_kernel(m, n, k), x, y, np.zeros(m * n, np.float32))[2]
    want = x.astype(np.float64).reshape(m, k) @ y.astype(np.float64).reshape(k, n)
    np.testing.assert_allclose(c.reshape(m, n), want, rtol=1e-5, atol=1e-4)


def test_without_a_gpu_the_script_says_so_in_one_line(gpu, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "cuda.bindings.driver", None)
    monkeypatch.setitem(sys.modules, "cuda.cuda", None)
    assert gpu.main([]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "cuda-python" in err


@needs_tools
def test_the_script_runs_small_sizes_on_the_interpreting_driver(
    gpu, monkeypatch, capsys, tmp_path
):
    # The benchmark's whole flow without a GPU: the fake driver runs each launch on the
    # interpreter and its events tick 1 ms per record (so the times printed are made up).
    monkeypatch.setenv("TILEIR_CACHE_DIR", str(tmp_path / "cache"))
    modules = {}

    def module_of(name):
        return modules[name]

    for k in (gpu.vadd_kernel(1 << 12), gpu.matmul_kernel(256, 256, 256)):
        modules[k.name] = k.module
    monkeypatch.setitem(
        sys.modules, "cuda.bindings.driver", FakeDriver(compute=interpreting(module_of))
    )
    monkeypatch.setattr(gpu, "_torch", lambda: None)
    assert (
        gpu.main(["--vadd-n", str(1 << 12), "--mm-size", "256", "--reps", "2", "--trials", "2"])
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("card: Fake H200 (sm_90), driver supports CUDA 13.0\n")
    assert "vadd check: the first 1048576 elements" not in out  # clipped to the buffer
    assert re.search(r"vadd check: the first 4096 elements equal a \+ b", out)
    assert "vadd / copy: time ratio " in out
    err = float(re.search(r"matmul check: the first 2 rows are within (\S+) ", out).group(1))
    assert err < 1e-5
    assert "torch.matmul: torch is not importable here" in out


@needs_tools
def test_the_scripts_driver_calls_against_the_real_cuda_python(gpu, monkeypatch, capsys, tmp_path):
    shapes = real_binding_shapes()
    monkeypatch.setenv("TILEIR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setitem(sys.modules, "cuda.bindings.driver", shapes)
    monkeypatch.setattr(gpu, "_torch", lambda: None)
    with np.errstate(all="ignore"):  # nothing is computed: the checks read garbage
        assert (
            gpu.main(["--vadd-n", "4096", "--mm-size", "256", "--reps", "1", "--trials", "1"]) == 0
        )
    capsys.readouterr()
    for name in (
        "cuEventCreate",
        "cuEventRecord",
        "cuEventSynchronize",
        "cuEventElapsedTime",
        "cuEventDestroy",
        "cuLaunchKernel",
        "cuMemcpyDtoD",
        "cuMemsetD8",
        "cuDeviceGetName",
    ):
        assert name in shapes.accepted, name
