"""tileir.real.driver without a GPU: missing pieces, the driver-call sequence, CUresult errors.

``FakeDriver`` (tests/support/fake_cuda.py) stands in for ``cuda.bindings.driver``: it
answers like cuda-python (a tuple ``(CUresult, *outputs)`` per call), records
every call, keeps device memory in bytearrays, and at cuLaunchKernel copies each
argument from the ``kernelParams`` array with the sizes in the loaded cubin, as
the real driver does.
"""

from __future__ import annotations

import struct
import sys

import numpy as np
import pytest
from test_real_arrays import FakeCai
from test_real_cubin import entry_bytecode, ptr, scalar

from support.fake_cuda import (
    OPEN_SEQUENCE,
    CUresult,
    FakeDriver,
    real_binding_shapes,
    run_without_cuda,
)
from support.tools import needs_tools
from tileir.errors import DeviceUnavailableError, LaunchError
from tileir.real.driver import LAUNCH_BLOCK, CudaContext, load_driver
from tileir.types import F16, F32, I32

# -- the device is missing ------------------------------------------------------------------


@pytest.mark.slow
def test_importing_the_module_touches_no_cuda():
    # In a fresh interpreter where importing cuda-python would fail outright.
    run_without_cuda("import tileir.real.driver, tileir.real.arrays, tileir.real.cache\n")


def test_without_cuda_python(monkeypatch):
    monkeypatch.setitem(sys.modules, "cuda.bindings.driver", None)
    monkeypatch.setitem(sys.modules, "cuda.cuda", None)
    with pytest.raises(DeviceUnavailableError, match="cuda-python, which is not installed") as err:
        CudaContext()
    assert err.value.kind == "device.no_cuda_python"


def test_a_fake_cuda_bindings_module_is_what_load_driver_finds(monkeypatch):
    fake = FakeDriver()
    monkeypatch.setitem(sys.modules, "cuda.bindings.driver", fake)
    assert load_driver() is fake
    assert CudaContext().arch == "sm_90"
    assert fake.names() == OPEN_SEQUENCE


def test_without_libcuda():
    # What cuda-bindings 13 raises on a machine without the NVIDIA driver (seen here).
    missing = RuntimeError(
        '"cuda" is an NVIDIA driver library and can only be found via '
        "system search. Ensure the NVIDIA display driver is installed."
    )
    with pytest.raises(DeviceUnavailableError, match="no NVIDIA driver: .*libcuda") as err:
        CudaContext(driver=FakeDriver(init_raises=missing))
    assert err.value.kind == "device.no_driver" and "r580" in str(err.value)


def test_without_a_gpu():
    with pytest.raises(DeviceUnavailableError, match="no GPU") as err:
        CudaContext(driver=FakeDriver(fail={"cuInit": CUresult.CUDA_ERROR_NO_DEVICE}))
    assert err.value.kind == "device.no_gpu"
    with pytest.raises(DeviceUnavailableError, match="no GPU #0: the driver sees 0 CUDA devices"):
        CudaContext(driver=FakeDriver(devices=0))
    with pytest.raises(DeviceUnavailableError, match="no GPU #2: the driver sees 1 CUDA device$"):
        CudaContext(2, driver=FakeDriver())


def test_a_driver_too_old_for_tile_ir():
    with pytest.raises(DeviceUnavailableError, match=r"too old.*CUDA 12\.8.*12080.*r580") as err:
        CudaContext(driver=FakeDriver(version=12080))
    assert err.value.kind == "device.old_driver"
    assert CudaContext(driver=FakeDriver(version=13000)).driver_version == 13000


def test_other_cuinit_failures_name_the_result():
    with pytest.raises(
        DeviceUnavailableError, match="cuInit failed with CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"
    ):
        CudaContext(driver=FakeDriver(fail={"cuInit": CUresult.CUDA_ERROR_SYSTEM_DRIVER_MISMATCH}))


@pytest.mark.parametrize(
    "capability, arch",
    [((8, 0), "sm_80"), ((9, 0), "sm_90"), ((10, 3), "sm_103"), ((12, 0), "sm_120")],
)
def test_arch_from_compute_capability(capability, arch):
    ctx = CudaContext(driver=FakeDriver(capability=capability))
    assert ctx.arch == arch and ctx.compute_capability == capability


# -- memory -----------------------------------------------------------------------------------


def test_memory_round_trip_and_free():
    fake = FakeDriver()
    ctx = CudaContext(driver=fake)
    host = np.arange(10, dtype=np.float32)
    buf = ctx.alloc(host.nbytes)
    ctx.copy_in(buf, host)
    back = ctx.copy_out(buf, np.empty_like(host))
    assert np.array_equal(back, host)
    ctx.free(buf)
    assert fake.names()[len(OPEN_SEQUENCE) :] == [
        "cuMemAlloc",
        "cuMemcpyHtoD",
        "cuMemcpyDtoH",
        "cuMemFree",
    ]
    with pytest.raises(LaunchError, match="freed already"):
        ctx.free(buf)


def test_copies_are_checked():
    ctx = CudaContext(driver=FakeDriver())
    buf = ctx.alloc(8)
    with pytest.raises(LaunchError, match="copy_in of 16 bytes into a device buffer of 8"):
        ctx.copy_in(buf, np.zeros(4, np.float32))
    with pytest.raises(LaunchError, match="C-contiguous"):
        ctx.copy_out(buf, np.zeros((2, 2), np.int8).T)
    with pytest.raises(LaunchError, match="writeable"):
        readonly = np.zeros(2, np.int8)
        readonly.flags.writeable = False
        ctx.copy_out(buf, readonly)


def test_a_failing_call_names_itself_and_the_result():
    ctx = CudaContext(driver=FakeDriver(fail={"cuMemAlloc": CUresult.CUDA_ERROR_OUT_OF_MEMORY}))
    expected = r"cuMemAlloc failed with CUDA_ERROR_OUT_OF_MEMORY \(2\)"
    with pytest.raises(LaunchError, match=expected) as err:
        ctx.alloc(1 << 40)
    assert err.value.kind == "cuda.CUDA_ERROR_OUT_OF_MEMORY"


# -- launches ---------------------------------------------------------------------------------

VADD = (ptr(F32), ptr(F32), ptr(F32), scalar(I32))


@pytest.fixture
def vadd_code(monkeypatch, tmp_path):
    monkeypatch.setenv("TILEIR_CACHE_DIR", str(tmp_path))
    return entry_bytecode([("vadd", VADD), ("other", (scalar(F16),))])


@needs_tools
def test_launch_bytecode_call_sequence(vadd_code):
    fake = FakeDriver()
    ctx = CudaContext(driver=fake)
    a, b, out = ctx.alloc(64), ctx.alloc(64), ctx.alloc(64)
    start = len(fake.calls)
    kernel = ctx.launch_bytecode("vadd", vadd_code, (a, b, out, 16), VADD, grid=(4,))
    assert fake.names()[start:] == [
        "cuLibraryLoadData",
        "cuLibraryGetKernel",
        "cuLaunchKernel",
        "cuCtxSynchronize",
    ]
    grid, block, shared, stream, values, extra = fake.launches[-1]
    assert (grid, block, shared, stream, extra) == ((4, 1, 1), LAUNCH_BLOCK, 0, 0, 0)
    assert values == [
        struct.pack("<Q", a.device_pointer),
        struct.pack("<Q", b.device_pointer),
        struct.pack("<Q", out.device_pointer),
        struct.pack("<i", 16),
    ]
    assert kernel.info.params[3].offset == 24 and kernel.name == "vadd"
    # Same bytecode again: cached cubin, loaded library, known kernel -> launch only.
    start = len(fake.calls)
    ctx.launch_bytecode("vadd", vadd_code, (a, b, out, 7), VADD, grid=(2, 3))
    assert fake.names()[start:] == ["cuLaunchKernel", "cuCtxSynchronize"]
    assert fake.launches[-1][0] == (2, 3, 1) and fake.launches[-1][4][3] == struct.pack("<i", 7)
    # Another kernel of the same cubin: no second load.
    start = len(fake.calls)
    ctx.launch_bytecode("other", vadd_code, (1.5,), (scalar(F16),), grid=1)
    assert fake.names()[start:] == ["cuLibraryGetKernel", "cuLaunchKernel", "cuCtxSynchronize"]
    assert fake.launches[-1][4] == [np.float16(1.5).tobytes()]


@needs_tools
def test_old_cuda_python_loads_a_module_instead(vadd_code):
    fake = FakeDriver(library_api=False)
    ctx = CudaContext(driver=fake)
    start = len(fake.calls)
    ctx.launch_bytecode("vadd", vadd_code, (0x100, 0x200, 0x300, 1), VADD, grid=1)
    assert fake.names()[start:] == [
        "cuModuleLoadData",
        "cuModuleGetFunction",
        "cuLaunchKernel",
        "cuCtxSynchronize",
    ]


@needs_tools
def test_a_failed_launch_is_a_clear_error(vadd_code):
    fake = FakeDriver(fail={"cuLaunchKernel": CUresult.CUDA_ERROR_LAUNCH_FAILED})
    ctx = CudaContext(driver=fake)
    with pytest.raises(LaunchError) as err:
        ctx.launch_bytecode("vadd", vadd_code, (0x100, 0x200, 0x300, 1), VADD, grid=1)
    assert str(err.value) == (
        "tileir: kernel `vadd`: cuLaunchKernel failed with CUDA_ERROR_LAUNCH_FAILED (719)"
    )
    assert err.value.kind == "cuda.CUDA_ERROR_LAUNCH_FAILED"
    assert "cuCtxSynchronize" not in fake.names()


@needs_tools
def test_an_error_found_at_synchronize_names_the_kernel(vadd_code):
    fake = FakeDriver(fail={"cuCtxSynchronize": CUresult.CUDA_ERROR_ILLEGAL_ADDRESS})
    ctx = CudaContext(driver=fake)
    with pytest.raises(
        LaunchError, match="kernel `vadd`: cuCtxSynchronize failed with CUDA_ERROR_ILLEGAL_ADDRESS"
    ):
        ctx.launch_bytecode("vadd", vadd_code, (0x100, 0x200, 0x300, 1), VADD, grid=1)


@needs_tools
def test_a_load_failure_names_the_kernel(vadd_code):
    ctx = CudaContext(
        driver=FakeDriver(fail={"cuLibraryLoadData": CUresult.CUDA_ERROR_NO_BINARY_FOR_GPU})
    )
    with pytest.raises(
        LaunchError,
        match="kernel `vadd`: cuLibraryLoadData failed with CUDA_ERROR_NO_BINARY_FOR_GPU",
    ) as err:
        ctx.launch_bytecode("vadd", vadd_code, (0x100, 0x200, 0x300, 1), VADD, grid=1)
    assert "(a cubin for sm_90, built by CUDA 13." in str(err.value)
    assert "the driver runs CUDA 13.0 on a sm_90 card" in str(err.value)


@needs_tools
def test_refusals_come_before_any_launch(vadd_code):
    fake = FakeDriver()
    ctx = CudaContext(driver=fake)
    wrong = (ptr(F32), ptr(F32), scalar(I32), ptr(F32))
    with pytest.raises(LaunchError, match="differs from the one the sm_90 cubin declares"):
        ctx.launch_bytecode("vadd", vadd_code, (1, 2, 3, 4), wrong, grid=1)
    with pytest.raises(LaunchError, match="takes 4 arguments"):
        ctx.launch_bytecode("vadd", vadd_code, (1, 2, 3), VADD, grid=1)
    with pytest.raises(LaunchError, match=r"outside 1\.\.16777215"):
        ctx.launch_bytecode("vadd", vadd_code, (1, 2, 3, 4), VADD, grid=(0,))
    with pytest.raises(LaunchError, match="not 1 to 3 integers"):
        ctx.launch_bytecode("vadd", vadd_code, (1, 2, 3, 4), VADD, grid=(1, 1, 1, 1))
    with pytest.raises(Exception, match="no kernel named `vmul`"):
        ctx.launch_bytecode("vmul", vadd_code, (1, 2, 3, 4), VADD, grid=1)
    assert "cuLaunchKernel" not in fake.names()


@needs_tools
def test_gpu_arrays_from_other_libraries(vadd_code):
    fake = FakeDriver()
    ctx = CudaContext(driver=fake)
    a = FakeCai(data=(0xA000, False), shape=(16,), typestr="<f4")
    b = FakeCai(data=(0xB000, False), shape=(16,), typestr="<f4", stream=0x5555)
    out = FakeCai(data=(0xC000, False), shape=(16,), typestr="<f4")
    start = len(fake.calls)
    ctx.launch_bytecode("vadd", vadd_code, (a, b, out, 16), VADD, grid=1)
    # b's producer queued work on its own stream: wait for it before launching.
    assert fake.calls[start + 2] == ("cuStreamSynchronize", (0x5555,))
    assert fake.launches[-1][4][:3] == [struct.pack("<Q", p) for p in (0xA000, 0xB000, 0xC000)]
    f16 = FakeCai(data=(0xD000, False), shape=(16,), typestr="<f2")
    with pytest.raises(
        LaunchError,
        match="argument 1 is a GPU array of f16; the entry takes "
        r"tile<ptr<f32>>",
    ):
        ctx.launch_bytecode("vadd", vadd_code, (a, f16, out, 16), VADD, grid=1)


@needs_tools
def test_close_releases_everything(vadd_code):
    fake = FakeDriver()
    with CudaContext(driver=fake) as ctx:
        ctx.alloc(4)
        ctx.launch_bytecode("vadd", vadd_code, (1, 2, 3, 4), VADD, grid=1)
    assert fake.names()[-3:] == ["cuMemFree", "cuLibraryUnload", "cuDevicePrimaryCtxRelease"]
    assert fake.memory == {}
    with pytest.raises(LaunchError, match="closed"):
        ctx.alloc(4)


def test_another_thread_binds_the_context_first():
    import threading

    fake = FakeDriver()
    ctx = CudaContext(driver=fake)
    worker = threading.Thread(target=lambda: ctx.alloc(4))
    worker.start()
    worker.join()
    assert fake.names()[len(OPEN_SEQUENCE) :] == ["cuCtxSetCurrent", "cuMemAlloc"]


@needs_tools
def test_argument_shapes_against_the_real_cuda_python(vadd_code):
    shapes = real_binding_shapes()
    ctx = CudaContext(driver=shapes)
    buf = ctx.alloc(64)
    ctx.copy_in(buf, np.zeros(16, np.float32))
    ctx.copy_out(buf, np.zeros(16, np.float32))
    ctx.launch_bytecode("vadd", vadd_code, (buf, buf, buf, 16), VADD, grid=(1, 1, 1))
    ctx.close()
    assert shapes.accepted == OPEN_SEQUENCE + [
        "cuMemAlloc",
        "cuMemcpyHtoD",
        "cuMemcpyDtoH",
        "cuLibraryLoadData",
        "cuLibraryGetKernel",
        "cuLaunchKernel",
        "cuCtxSynchronize",
        "cuMemFree",
        "cuLibraryUnload",
        "cuDevicePrimaryCtxRelease",
    ]
