"""RealDevice on a CPU: the host program, the launch checks and the driver calls (a fake driver).

The fake driver (tests/support/fake_cuda.py) keeps device memory in bytearrays and, at
cuLaunchKernel, hands the launch to the fake device's interpreter on host
copies of the memory the packed pointers address.  So a host program (alloc,
copy in, launch, copy out) runs end to end: the same program on
FakeDevice(mode="interpret") and on RealDevice must give the same buffers, the
same refusals, and the driver must see the expected calls and parameter bytes.
Everything up to the driver call is the code a GPU would run.
"""

from __future__ import annotations

import os
import struct

import numpy as np
import pytest
from test_real_arrays import FakeCai, FakeCudaTensor

from support.fake_cuda import (
    OPEN_SEQUENCE,
    CUresult,
    FakeDriver,
    interpreting,
    real_binding_shapes,
    run_without_cuda,
)
from support.tools import needs_tools
from tileir import DYN_DIM, F32, F64, In, Out, Scalar, cells, load_cell, scalar, store_cell, trace
from tileir.errors import DeviceUnavailableError, LaunchError, ToolError
from tileir.fake import FakeDevice
from tileir.host.device import Buffer
from tileir.kernels.registry import get
from tileir.lower.lowering import entry_param_types
from tileir.real import RealDevice, prebuilt
from tileir.real.cubin import EIATTR
from tileir.real.driver import LAUNCH_BLOCK
from tileir.real.params import check_against_cubin, layout
from tileir.types import BF16, I1, I32, TileType


@pytest.fixture(autouse=True)
def cubin_cache(monkeypatch):
    # Cubins come from the user's cache ($TILEIR_CACHE_DIR, else ~/.cache/tileir): keyed by
    # content, toolchain and options, each kernel is assembled once, across tests and runs.
    monkeypatch.delenv(prebuilt.ENV, raising=False)


def _axpy(x, y, out, a):
    tx = yield load_cell(x)
    ty = yield load_cell(y)
    yield store_cell(out, tx * scalar(a) + ty)


def axpy_kernel():
    """A kernel whose extent is given at launch (three DYN_DIM extents) and an f64 Scalar."""
    g = cells([DYN_DIM], [128])
    return trace("axpy", _axpy, In(F64, g), In(F64, g), Out(F64, g), Scalar(F64))


def computing_device(*kernels, **driver_options) -> tuple[RealDevice, FakeDriver]:
    modules = {k.name: k.module for k in kernels}
    fake = FakeDriver(compute=interpreting(modules.__getitem__), **driver_options)
    return RealDevice(driver=fake), fake


def host_program(dev, kernel, inputs, grid=None):
    """Allocate, copy in, launch, copy out: the program both devices run."""
    args = []
    for p, x in zip(kernel.params, inputs):
        if p.role == "Scalar":
            args.append(x)
            continue
        buf = dev.alloc(p.format, np.asarray(x).size)
        dev.copy_in(buf, x)
        args.append(buf)
    report = dev.launch(kernel, *args, grid=grid)
    return report, [dev.copy_out(a) if isinstance(a, Buffer) else a for a in args]


# -- nothing happens until the device is used ---------------------------------------------------


@pytest.mark.slow
def test_importing_tileir_real_touches_no_cuda():
    done = run_without_cuda(
        "import tileir.real\n"
        "assert 'tileir.real.device' not in sys.modules\n"
        "from tileir.real import RealDevice\n"
        "from tileir import F32, DeviceUnavailableError\n"
        "dev = RealDevice()\n"
        "try:\n"
        "    dev.alloc(F32, 4)\n"
        "except DeviceUnavailableError as err:\n"
        "    print(err)\n"
    )
    assert done.stdout.strip() == (
        "tileir: the real device needs cuda-python, which is not "
        "installed: pip install 'tileir[gpu]' (or pip install "
        "cuda-python)"
    )


def test_the_device_opens_on_first_use():
    fake = FakeDriver()
    dev = RealDevice(driver=fake)
    assert fake.calls == [] and "not opened" in repr(dev)
    assert dev.open() is dev and fake.names() == OPEN_SEQUENCE
    assert (dev.arch, dev.driver_version, dev.card_name) == ("sm_90", 13000, "Fake H200")
    assert dev.name == "GPU #0"


@pytest.mark.parametrize(
    "driver, kind, text",
    [
        (FakeDriver(fail={"cuInit": CUresult.CUDA_ERROR_NO_DEVICE}), "device.no_gpu", "no GPU"),
        (
            FakeDriver(init_raises=RuntimeError("libcuda.so not found")),
            "device.no_driver",
            "no NVIDIA driver",
        ),
        (FakeDriver(version=12080), "device.old_driver", "too old for Tile IR"),
    ],
)
def test_a_missing_piece_is_one_error_when_the_device_is_asked_for(driver, kind, text):
    dev = RealDevice(driver=driver)  # constructing it is fine
    with pytest.raises(DeviceUnavailableError, match=text) as err:
        dev.alloc(F32, 4)
    assert err.value.kind == kind


# -- memory -------------------------------------------------------------------------------------


def test_alloc_copy_in_copy_out():
    dev, fake = computing_device()
    buf = dev.alloc(F64, 10)
    assert isinstance(buf, Buffer) and buf.length == 10 and buf.handle.nbytes == 80
    assert fake.names()[-2:] == ["cuMemAlloc", "cuMemsetD8"]
    # cuMemAlloc leaves garbage (0xa5 in the fake): alloc promises zeros.
    assert np.array_equal(dev.copy_out(buf), np.zeros(10))
    dev.copy_in(buf, np.arange(4, dtype=np.float64))
    assert np.array_equal(dev.copy_out(buf), [0, 1, 2, 3, 0, 0, 0, 0, 0, 0])
    assert dev.alloc(BF16, 3).handle.nbytes == 6 and dev.alloc(I1, 5).handle.nbytes == 5
    assert dev._span(buf) == (buf.handle.device_pointer, buf.handle.device_pointer + 80)
    dev.free(buf)
    assert buf.handle.device_pointer not in fake.memory


def test_copies_are_checked_like_the_fake_device():
    dev, _ = computing_device()
    fake_dev = FakeDevice(mode="interpret")
    kinds = []
    for d in (fake_dev, dev):
        buf = d.alloc(F64, 4)
        with pytest.raises(LaunchError) as wrong_type:
            d.copy_in(buf, np.zeros(4, np.float32))
        with pytest.raises(LaunchError) as too_many:
            d.copy_in(buf, np.zeros(5))
        kinds.append((wrong_type.value.kind, too_many.value.kind))
    assert kinds[0] == kinds[1] == ("copy.format", "copy.size")
    with pytest.raises(LaunchError, match="is not a buffer of GPU #0"):
        dev.copy_out(fake_dev.alloc(F64, 4))


# -- the same host program on both devices ------------------------------------------------------


@needs_tools
@pytest.mark.parametrize(
    "name", ["vadd_tail", "softmax", "matmul", "transpose", "histogram", "flash_attn"]
)
def test_the_same_host_program_on_both_devices(name):
    spec = get(name)
    kernel = spec.kernel()
    inputs, grid = spec.inputs(np.random.default_rng(7))
    fake_report, expected = host_program(FakeDevice(mode="interpret"), kernel, inputs, grid)
    dev, fake = computing_device(kernel)
    report, got = host_program(dev, kernel, inputs, grid)
    assert report.grid == fake_report.grid and report.mode == "gpu sm_90"
    for g, e in zip(got, expected):
        assert np.array_equal(g, e) and np.asarray(g).dtype == np.asarray(e).dtype
    buffers = sum(p.role != "Scalar" for p in kernel.params)
    assert fake.names()[len(OPEN_SEQUENCE) :] == (
        ["cuMemAlloc", "cuMemsetD8", "cuMemcpyHtoD"] * buffers
        + ["cuLibraryLoadData", "cuLibraryGetKernel", "cuLaunchKernel", "cuCtxSynchronize"]
        + ["cuMemcpyDtoH"] * buffers
    )
    (launched_grid, block, shared, stream, values, extra) = fake.launches[-1]
    assert (launched_grid, block, shared, stream, extra) == (report.grid, LAUNCH_BLOCK, 0, 0, 0)


def _v2_tools_dir():
    """A tileiras that gives softmax an EIATTR_KPARAM_INFO_V2 table: 13.4.92 does (its
    block 176 bytes); 13.5.37 lists softmax's two pointers as plain KPARAM_INFO, 16 bytes
    (docs/launch.md §8).  The installed one if it is 13.4, else ``$TILEIR_TOOLS_DIR_13_4``."""
    from support.tools import SECOND_ENV, second_tools_dir
    from tileir.real.tileiras import tool_version

    if tool_version().startswith("13.4."):
        return None
    if not os.environ.get(SECOND_ENV):
        pytest.skip(f"needs tileiras 13.4.92 for a KPARAM_INFO_V2 cubin: set ${SECOND_ENV}")
    return second_tools_dir()


@needs_tools
def test_a_cubin_with_a_longer_parameter_block_launches():
    # softmax's loads go through the tensor-memory engine: tileiras 13.4.92 lists its
    # parameters as EIATTR_KPARAM_INFO_V2 and reserves more parameter space than they take.
    from tileir.real.tileiras import assemble

    where = _v2_tools_dir()
    kernel = get("softmax").kernel()
    modules = {kernel.name: kernel.module}
    fake = FakeDriver(compute=interpreting(modules.__getitem__))
    how = {} if where is None else {"tools_dir": where}
    dev = RealDevice(
        driver=fake, assembler=lambda code, arch, name: assemble(code, arch, kernel=name, **how)
    )
    host_program(dev, kernel, [np.zeros(3), np.zeros(3)])
    info = next(iter(dev.context._kernels.values())).info
    assert any(r.id == EIATTR["EIATTR_KPARAM_INFO_V2"] for r in info.records)
    assert [(p.offset, p.size) for p in info.params] == [(0, 8), (8, 8)]
    assert info.param_size > 16
    # Only the parameters must agree; a layout that differs from them is still refused.
    with pytest.raises(LaunchError, match="differs from the one the sm_90 cubin declares"):
        check_against_cubin(
            layout(entry_param_types(kernel.params)[:1] + (TileType((), I32),)), info
        )
    check_against_cubin(layout(entry_param_types(kernel.params)), info)
    pointers = [int.from_bytes(v, "little") for v in fake.launches[-1][4]]
    assert all(p in fake.memory for p in pointers)


@needs_tools
def test_packed_parameters_of_a_dyn_dim_kernel_with_an_f64_scalar():
    kernel = axpy_kernel()
    x, y = np.arange(512, dtype=np.float64), np.full(512, 0.5)
    _, expected = host_program(
        FakeDevice(mode="interpret"), kernel, [x, y, np.zeros(512), 2.5], grid=[4]
    )
    dev, fake = computing_device(kernel)
    bufs = [dev.alloc(F64, 512) for _ in range(3)]
    dev.copy_in(bufs[0], x)
    dev.copy_in(bufs[1], y)
    dev.launch(kernel, *bufs, 2.5, grid=[4])
    grid, block, _shared, _stream, values, _extra = fake.launches[-1]
    assert grid == (4, 1, 1) and block == (1, 1, 1)
    # The calling convention: three pointers, the Scalar, then one i32 per DYN_DIM extent
    # (4 blocks x 128 lanes each).
    assert values == (
        [struct.pack("<Q", b.handle.device_pointer) for b in bufs]
        + [struct.pack("<d", 2.5)]
        + [struct.pack("<i", 512)] * 3
    )
    assert np.array_equal(dev.copy_out(bufs[2]), expected[2])
    assert np.array_equal(expected[2], x * 2.5 + y)


@needs_tools
def test_prepare_once_issue_twice():
    kernel = get("vadd").kernel()
    dev, fake = computing_device(kernel)
    a, b, out = (dev.alloc(F64, 256) for _ in range(3))
    dev.copy_in(a, np.ones(256))
    prepared = dev.prepare(kernel, a, b, out)
    assert "cuLaunchKernel" not in fake.names() and prepared.grid == (2, 1, 1)
    dev.issue(prepared)
    dev.issue(prepared)
    names = fake.names()
    assert names.count("cuLaunchKernel") == 2 and names.count("cuLibraryLoadData") == 1
    assert fake.launches[0][4] == fake.launches[1][4]
    assert np.array_equal(dev.copy_out(out), np.ones(256))


# -- refusals: the fake device's, before any driver call ----------------------------------------

SAME = "the first buffer again"


def _shift(x, out, a):
    t = yield load_cell(x)
    yield store_cell(out, t + scalar(a))


def _width_kernels():
    """An i32 and an f32 Scalar kernel, and one whose stride of dimension 0 (a DYN_DIM
    extent x 64) the kernel computes in i32."""
    g = cells([64], [64])
    shift_i32 = trace("shift_i32", _shift, In(I32, g), Out(I32, g), Scalar(I32))
    shift_f32 = trace("shift_f32", _shift, In(F32, g), Out(F32, g), Scalar(F32))
    c = cells([4, DYN_DIM, 64], [4, 64, 64])
    strided = trace("strided", _copy, In(F32, c), Out(F32, c))
    return shift_i32, shift_f32, strided


def _copy(a, out):
    t = yield load_cell(a)
    yield store_cell(out, t)


def _refusal_cases():
    vt = get("vadd_tail").kernel()
    flash = get("flash_attn").kernel()
    axpy = axpy_kernel()
    si, sf, strided = _width_kernels()
    i32s, f32s = [(I32, 64)] * 2, [(F32, 64)] * 2
    return [
        ("i32 Scalar 2.5", si, i32s + [2.5], None),
        ("i32 Scalar 2**40", si, i32s + [2**40], None),
        ("i32 Scalar '7'", si, i32s + ["7"], None),
        ("i32 Scalar True", si, i32s + [True], None),
        ("f32 Scalar 1e300", sf, f32s + [1e300], None),
        ("f64 Scalar a string", axpy, [(F64, 512)] * 3 + ["1.0"], [4]),
        ("a stride past i32", strided, [(F32, 256)] * 2, [1, 1 << 20]),
        ("short buffer", vt, [(F64, 1000), (F64, 999), (F64, 1000)], None),
        ("Out aliases an In", vt, [(F64, 1000), (F64, 1000), SAME], None),
        ("wrong format", vt, [(F64, 1000), (F32, 1000), (F64, 1000)], None),
        ("grid against the cells", vt, [(F64, 1000)] * 3, [3]),
        ("too few arguments", vt, [(F64, 1000)] * 2, None),
        ("a number for a buffer", vt, [(F64, 1000), 1.5, (F64, 1000)], None),
        ("a buffer for a Scalar", flash, [(F64, 2048)] * 5, None),
        ("no grid for DYN_DIM cells", axpy, [(F64, 512)] * 3 + [1.0], None),
        ("DYN_DIM cells past the buffers", axpy, [(F64, 512)] * 3 + [1.0], [5]),
    ]


@pytest.mark.parametrize(
    "what, kernel, spec, grid", _refusal_cases(), ids=[c[0] for c in _refusal_cases()]
)
def test_refusals_match_the_fake_device_before_any_driver_call(what, kernel, spec, grid):
    def attempt(dev):
        args = []
        for s in spec:
            if isinstance(s, tuple):
                args.append(dev.alloc(*s))
            elif s is SAME:
                args.append(args[0])
            else:
                args.append(s)
        with pytest.raises(LaunchError) as err:
            dev.launch(kernel, *args, grid=grid)
        return err.value

    on_fake = attempt(FakeDevice(mode="interpret"))
    dev, fake = computing_device(kernel)
    dev.open()
    before = len(fake.calls)
    on_real = attempt(dev)
    allocations = [n for n in fake.names()[before:] if n not in ("cuMemAlloc", "cuMemsetD8")]
    assert allocations == []  # nothing but the allocations reached the driver
    assert (on_real.kind, str(on_real)) == (on_fake.kind, str(on_fake))
    assert on_real.kernel == kernel.name
    assert "cuLaunchKernel" not in fake.names()


def test_a_buffer_is_checked_against_its_allocation_on_the_gpu():
    kernel = get("vadd").kernel()
    dev, fake = computing_device(kernel)
    n = kernel.params[0].cells.extent[0]
    args = [dev.alloc(F64, n) for _ in range(3)]
    short = dev.alloc(F64, 16)
    object.__setattr__(short, "length", n)  # forced past the frozen class
    with pytest.raises(LaunchError) as err:
        dev.launch(kernel, args[0], short, args[2])
    assert err.value.kind == "launch.short_buffer" and "holds 16 element(s)" in str(err.value)
    assert "cuLaunchKernel" not in fake.names()


def test_a_buffer_of_another_device_is_refused():
    kernel = get("vadd").kernel()
    dev, fake = computing_device(kernel)
    other, _ = computing_device(kernel)
    mine = [dev.alloc(F64, 256) for _ in range(2)]
    for foreign in (other.alloc(F64, 256), FakeDevice().alloc(F64, 256)):
        before = len(fake.calls)
        with pytest.raises(LaunchError, match="belongs to") as err:
            dev.launch(kernel, *mine, foreign)
        assert err.value.kind == "launch.device" and len(fake.calls) == before


# -- GPU arrays of other libraries ---------------------------------------------------------------


def _raw(dev, fake, values: np.ndarray) -> int:
    """Device memory holding ``values`` (as another library would have put it there)."""
    address = dev.context.alloc(values.nbytes).device_pointer
    fake.write(address, values)
    return address


@needs_tools
def test_gpu_arrays_of_other_libraries_are_used_in_place():
    kernel = get("vadd").kernel()
    dev, fake = computing_device(kernel)
    a, b = np.arange(256, dtype=np.float64), np.full(256, 0.25)
    pa, pb, po = _raw(dev, fake, a), _raw(dev, fake, b), _raw(dev, fake, np.zeros(256))
    cai = FakeCai(data=(pa, False), shape=(256,), typestr="<f8")
    dlpack = FakeCudaTensor((256,), code=2, bits=64, address=pb, versioned=True)
    out = FakeCai(data=(po, False), shape=(16, 16), typestr="<f8")
    start = len(fake.calls)
    dev.launch(kernel, cai, dlpack, out)
    assert "cuMemcpyHtoD" not in fake.names()[start:]  # no copies
    assert [int.from_bytes(v, "little") for v in fake.launches[-1][4]] == [pa, pb, po]
    assert np.array_equal(fake.read(po, np.float64, 256), a + b)
    # Mixed with the device's own buffers.
    own = dev.alloc(F64, 256)
    dev.launch(kernel, cai, cai, own)
    assert np.array_equal(dev.copy_out(own), a + a)


def test_gpu_arrays_are_checked_before_any_driver_call():
    kernel = get("vadd").kernel()
    dev, fake = computing_device(kernel)
    a, b = (dev.alloc(F64, 256) for _ in range(2))
    p = _raw(dev, fake, np.zeros(512))
    cases = [
        (
            FakeCai(data=(p, False), shape=(255,), typestr="<f8"),
            "launch.short_buffer",
            "holds 255 element",
        ),
        (FakeCai(data=(p, True), shape=(256,), typestr="<f8"), "launch.readonly", "read-only"),
        (
            FakeCudaTensor((256,), code=2, bits=64, address=p, device=(2, 1)),
            "launch.device",
            "lives on GPU #1",
        ),
        (
            FakeCai(data=(p + 8, False), shape=(256,), typestr="<f8"),
            "launch.alignment",
            "multiple of 16 bytes",
        ),
        (FakeCai(data=(p, False), shape=(256,), typestr="<f4"), "launch.format", "holds f32"),
        (
            FakeCai(data=(a.handle.device_pointer + 8, False), shape=(256,), typestr="<f8"),
            "launch.aliased_out",
            "shares its buffer with argument 0",
        ),
    ]
    for out, kind, text in cases:
        before = len(fake.calls)
        with pytest.raises(LaunchError, match=text) as err:
            dev.launch(kernel, a, b, out)
        assert err.value.kind == kind and len(fake.calls) == before, kind


# -- where cubins come from ---------------------------------------------------------------------


@needs_tools
def test_prebuilt_cubins_are_taken_by_content(monkeypatch, tmp_path):
    kernel = get("vadd").kernel()
    prebuilt.prebuild([kernel], "sm_90", tmp_path)
    monkeypatch.setenv(prebuilt.ENV, str(tmp_path))

    def no_tileiras(*args, **kwargs):
        raise ToolError("`tileiras` was not found", kind="tool.missing")

    monkeypatch.setattr("tileir.real.device.cache.cubin_for", no_tileiras)
    dev, fake = computing_device(kernel)
    _, got = host_program(dev, kernel, [np.ones(256), np.ones(256), np.zeros(256)])
    assert np.array_equal(got[2], np.full(256, 2.0))
    assert dev.toolchains == {(tmp_path / "TOOLCHAIN").read_text().strip()}
    # A kernel the folder lacks, with no tileiras: the error names both.
    other = get("vadd_tail").kernel()
    with pytest.raises(
        ToolError, match=f"no cubin for this kernel's bytecode and sm_90 in {tmp_path}.*tileiras"
    ) as err:
        dev.launch(other, *(dev.alloc(F64, 1000) for _ in range(3)))
    assert err.value.kernel == "vadd_tail"
    assert fake.names().count("cuLaunchKernel") == 1


def test_an_assembler_can_be_given():
    kernel = get("vadd").kernel()
    seen = []

    def assembler(bytecode, arch, name):
        seen.append((bytecode, arch, name))
        raise ToolError("refused for the test", kind="tool.refused")

    dev = RealDevice(driver=FakeDriver(capability=(10, 0)), assembler=assembler)
    with pytest.raises(ToolError, match="refused for the test"):
        dev.launch(kernel, *(dev.alloc(F64, 256) for _ in range(3)))
    assert seen == [(kernel.bytecode(), "sm_100", "vadd")]


@needs_tools
def test_close_frees_everything():
    kernel = get("vadd").kernel()
    dev, fake = computing_device(kernel)
    with dev:
        host_program(dev, kernel, [np.ones(256)] * 3)
    assert fake.memory == {} and fake.names()[-1] == "cuDevicePrimaryCtxRelease"


@needs_tools
def test_argument_shapes_against_the_real_cuda_python():
    shapes = real_binding_shapes()
    dev = RealDevice(driver=shapes)
    assert dev.card_name == "NVIDIA Placeholder"
    kernel = axpy_kernel()
    bufs = [dev.alloc(F64, 512) for _ in range(3)]
    dev.copy_in(bufs[0], np.zeros(512))
    dev.launch(kernel, *bufs, 1.0, grid=[4])
    dev.copy_out(bufs[2])
    assert shapes.accepted == OPEN_SEQUENCE + ["cuDeviceGet", "cuDeviceGetName"] + [
        "cuMemAlloc",
        "cuMemsetD8",
    ] * 3 + [
        "cuMemcpyHtoD",
        "cuLibraryLoadData",
        "cuLibraryGetKernel",
        "cuLaunchKernel",
        "cuCtxSynchronize",
        "cuMemcpyDtoH",
    ]
