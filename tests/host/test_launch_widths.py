"""Launch checks that match the calling convention's widths (issue 13, point 4).

The entry takes every DYN_DIM extent as a ``tile<i32>`` and computes the strides that
follow a DYN_DIM extent in i32 (tileir/lower/addressing.py); a launch whose extents or
strides do not fit is refused, not packed negative or left to wrap.  Buffers are frozen
and checked against their allocation.  Scalars are checked by one shared function, so
both devices refuse the same values with the same words.
"""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from tileir import (
    DYN_DIM,
    F32,
    FREE_AXIS,
    I32,
    In,
    Out,
    Scalar,
    cells,
    load_at,
    load_cell,
    scalar,
    store_cell,
    trace,
)
from tileir.errors import LaunchError
from tileir.fake import FakeDevice
from tileir.host.launch import ArgInfo, check_launch
from tileir.host.widths import I32_MAX, scalar_value


def _copy(a, out):
    t = yield load_cell(a)
    yield store_cell(out, t)


def _copy_first(a, out):
    t = yield load_at(a, [0])
    yield store_cell(out, t)


def _free_extent_kernel():
    """An In whose one DYN_DIM extent is read off its buffer (FREE_AXIS)."""
    return trace(
        "free_extent",
        _copy_first,
        In(F32, cells([DYN_DIM], [128], along=(FREE_AXIS,))),
        Out(F32, cells([128], [128])),
    )


def _stride_kernel():
    """A 3-D In whose middle extent is a DYN_DIM along the grid: the stride of dimension 0
    (extent 1 x 64) is a muli of i32 values in the kernel."""
    c = cells([4, DYN_DIM, 64], [4, 64, 64])
    return trace("strided", _copy, In(F32, c), Out(F32, c))


def _buffer(length: int) -> ArgInfo:
    return ArgInfo(F32, length, (0, 4 * length))


def _out(length: int) -> ArgInfo:
    return ArgInfo(F32, length, (1 << 40, (1 << 40) + 4 * length))


def test_an_extent_past_i32_is_refused_not_packed_negative():
    k = _free_extent_kernel()
    length = 2**31 + 1024
    with pytest.raises(LaunchError) as err:
        check_launch(k, [_buffer(length), _out(128)])
    assert err.value.kind == "launch.i32" and err.value.kernel == "free_extent"
    assert "argument 0's DYN_DIM extent of dimension 0 is 2147484672" in str(err.value)
    assert "at most 2147483647" in str(err.value)
    plan = check_launch(k, [_buffer(I32_MAX), _out(128)])  # the largest that fits
    assert plan.extents == (((0, 0), I32_MAX),)


def test_a_stride_the_kernel_computes_in_i32_is_checked_not_to_wrap():
    k = _stride_kernel()
    grid = [1, 1 << 20]  # extent 1 = 2^26, stride of dimension 0 = 2^26 x 64 = 2^32
    n = 4 * (1 << 26) * 64
    with pytest.raises(LaunchError) as err:
        check_launch(k, [_buffer(n), _out(n)], grid)
    text = str(err.value)
    assert err.value.kind == "launch.i32" and err.value.kernel == "strided"
    assert "argument 0 (In): the stride of dimension 0 is 67108864 x 64 = 4294967296" in text
    # 2^24 x 64 = 2^30 fits
    small = [1, 1 << 18]
    m = 4 * (1 << 24) * 64
    plan = check_launch(k, [_buffer(m), _out(m)], small)
    assert plan.extents == (((0, 1), 1 << 24), ((1, 1), 1 << 24))


def test_the_stride_refusal_comes_before_any_buffer_is_needed():
    # on a device the small buffers would be short too; the width is named first
    k = _stride_kernel()
    dev = FakeDevice(mode="interpret")
    with pytest.raises(LaunchError, match="computes in i32") as err:
        dev.launch(k, dev.alloc(F32, 256), dev.alloc(F32, 256), grid=[1, 1 << 20])
    assert err.value.kind == "launch.i32"


def test_buffers_are_frozen_and_checked_against_their_allocation():
    dev = FakeDevice(mode="interpret")
    buf = dev.alloc(F32, 16)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        buf.length = 1 << 20  # type: ignore[misc]
    # even forced past attrs, the checks read the allocation, not the field
    object.__setattr__(buf, "length", 1 << 20)
    k = trace("vcopy", _copy, In(F32, cells([1024], [128])), Out(F32, cells([1024], [128])))
    with pytest.raises(LaunchError) as err:
        dev.launch(k, buf, dev.alloc(F32, 1024))
    assert err.value.kind == "launch.short_buffer"
    assert "holds 16 element(s) and its cells reach 1024" in str(err.value)


def _scale(x, out, a):
    t = yield load_cell(x)
    yield store_cell(out, t * scalar(a))


def _iscale(x, out, a):
    t = yield load_cell(x)
    yield store_cell(out, t + scalar(a))


REFUSED_SCALARS = [
    (I32, 2.5, "needs an integer in [-2147483648, 4294967295], got float 2.5"),
    (I32, 2**40, "needs an integer in [-2147483648, 4294967295], got int 1099511627776"),
    (I32, "7", "needs an integer in [-2147483648, 4294967295], got str '7'"),
    (I32, True, "needs an integer in [-2147483648, 4294967295], got bool True"),
    (F32, 1e300, "1e+300 overflows the format"),
    (F32, "1.5", "needs a real number, got str '1.5'"),
    (F32, np.bool_(True), "needs a real number, got bool np.True_"),
]


def _scalar_kernel(fmt):
    g = cells([64], [64])
    body = _iscale if fmt == I32 else _scale
    return trace(f"scale_{fmt}", body, In(fmt, g), Out(fmt, g), Scalar(fmt))


@pytest.mark.parametrize(
    "fmt, value, text", REFUSED_SCALARS, ids=[repr(c[1]) for c in REFUSED_SCALARS]
)
def test_the_fake_device_refuses_scalars_the_format_cannot_hold(fmt, value, text):
    k = _scalar_kernel(fmt)
    dev = FakeDevice(mode="interpret")
    with pytest.raises(LaunchError) as err:
        dev.launch(k, dev.alloc(fmt, 64), dev.alloc(fmt, 64), value)
    assert err.value.kind == "launch.scalar_value" and err.value.kernel == k.name
    assert f"argument 2 (Scalar) ({fmt})" in str(err.value) and text in str(err.value)


def test_scalars_the_format_holds_run_and_keep_their_bits():
    k = _scalar_kernel(I32)
    x = np.arange(64, dtype=np.int32)
    for value, want in [(7, 7), (np.int64(-3), -3), (2**32 - 1, -1)]:  # signless: both readings
        out = FakeDevice(mode="interpret").run(k, x, np.zeros(64, np.int32), value)[1]
        assert np.array_equal(out, x + want)
    kf = _scalar_kernel(F32)
    xf = np.ones(64, np.float32)
    out = FakeDevice(mode="interpret").run(kf, xf, np.zeros(64, np.float32), float("inf"))[1]
    assert np.isinf(out).all()  # f32 has an infinity: it is passed


def test_an_infinity_is_refused_for_a_format_without_one():
    from tileir.types import Format

    with pytest.raises(LaunchError, match="has no infinity"):
        scalar_value(Format("f8E4M3FN"), float("inf"), where="argument 0 (Scalar)")
    assert scalar_value(Format("f8E4M3FN"), 2.0, where="argument 0 (Scalar)") == 2.0


def test_narrow_format_scalars_are_numbers_too():
    # ml_dtypes' scalars (what a bf16 or int4 host array holds) are neither numbers.Real nor
    # numbers.Integral; a Scalar of their format takes them (found by the kernel fuzzer)
    import ml_dtypes

    from tileir.types import BF16, F8E4M3FN, I4, I32

    assert scalar_value(BF16, ml_dtypes.bfloat16(1.5), where="argument 1") == 1.5
    assert scalar_value(F8E4M3FN, ml_dtypes.float8_e4m3fn(-2), where="argument 1") == -2.0
    assert scalar_value(I4, ml_dtypes.int4(-3), where="argument 1") == -3
    with pytest.raises(LaunchError, match=r"needs an integer in \[-2147483648, 4294967295\]"):
        scalar_value(I32, ml_dtypes.bfloat16(1.5), where="argument 1")
