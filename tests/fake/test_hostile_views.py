"""Hostile views (issue 13, point 1): every view access is bounded exactly, whatever the
strides' sign or size, and refused with an InterpretError naming the kernel, the op, the
block, the element and the buffer; nothing outside the arrays handed in ever changes.

The checker refuses static strides that are not positive, so ``interpret`` (which runs it
first) gives a VerifyError for those; the rules' own bounds are tested as well with
``verify=False``, which is the defence when a checker rule is ever missed."""

from __future__ import annotations

import numpy as np
import pytest

from support.module_builder import F32, I32, FunctionBuilder, ptr, scalar, tile
from tileir.errors import InterpretError, VerifyError
from tileir.fake.interpreter import interpret

GUARD = 64


def _store_kernel(shape, strides, tile_shape, index, fill=7.0):
    """One ``store_view_tko`` of a constant tile at ``index`` of a partition view."""
    fb = FunctionBuilder("hostile_store", [ptr(F32)])
    tv = fb.tensor_view(fb.params[0], shape, strides)
    pv = fb.partition(tv, tile_shape)
    val = fb.const(np.full(tile_shape, fill, dtype=np.float32), tile(tile_shape, F32))
    idx = [fb.const(i, scalar(I32)) for i in index]
    fb.store_view(val, pv, idx)
    fb.ret()
    return fb.module()


def _load_store_kernel(shape, strides, tile_shape, index):
    """Load a tile through a hostile view of buffer 0, store it densely into buffer 1."""
    fb = FunctionBuilder("hostile_load", [ptr(F32), ptr(F32)])
    tv = fb.tensor_view(fb.params[0], shape, strides)
    pv = fb.partition(tv, tile_shape)
    idx = [fb.const(i, scalar(I32)) for i in index]
    got, _ = fb.load_view(pv, idx)
    n = int(np.prod(tile_shape))
    rows = tile_shape[0]
    dense = fb.tensor_view(fb.params[1], tile_shape, (n // rows, 1))
    fb.store_view(got, fb.partition(dense, tile_shape), [fb.c32(0)] * len(tile_shape))
    fb.ret()
    return fb.module()


def _guarded(n):
    host = np.arange(n + 2 * GUARD, dtype=np.float32)
    return host, host.copy()


def test_negative_static_stride_store_is_refused_and_host_untouched():
    # the issue's example: strides [-16, 1] over host[64:] used to write host[:64]
    m = _store_kernel((4, 16), (-16, 1), (4, 16), (0, 0))
    host, before = _guarded(64)
    with pytest.raises(VerifyError, match="static stride must be positive"):
        interpret(m, "hostile_store", [host[GUARD : GUARD + 64]], 1, owned=[0])
    with pytest.raises(InterpretError) as e:
        interpret(m, "hostile_store", [host[GUARD : GUARD + 64]], 1, owned=[0], verify=False)
    np.testing.assert_array_equal(host, before)
    text = str(e.value)
    assert "hostile_store" in text and "store_view_tko" in text
    assert "buffer 0" in text and "element -16" in text
    assert "kernel.py" in text  # the user's source line


def test_negative_stride_load_is_refused():
    m = _load_store_kernel((4, 16), (-16, 1), (4, 16), (0, 0))
    host, before = _guarded(64)
    out = np.zeros(64, dtype=np.float32)
    with pytest.raises(InterpretError, match="outside the buffer"):
        interpret(m, "hostile_load", [host[GUARD : GUARD + 64], out], 1, verify=False)
    np.testing.assert_array_equal(host, before)


def test_negative_stride_inside_the_buffer_still_works():
    # rows run backwards from the base at the last row: every element is inside
    fb = FunctionBuilder("backwards", [ptr(F32), ptr(F32)])
    base = fb.op1("offset", (fb.params[0], fb.c32(48)), fb.params[0].type)
    tv = fb.tensor_view(base, (4, 16), (-16, 1))
    got, _ = fb.load_view(fb.partition(tv, (4, 16)), [fb.c32(0), fb.c32(0)])
    dense = fb.tensor_view(fb.params[1], (4, 16), (16, 1))
    fb.store_view(got, fb.partition(dense, (4, 16)), [fb.c32(0), fb.c32(0)])
    fb.ret()
    src = np.arange(64, dtype=np.float32)
    args = [src, np.zeros(64, np.float32)]
    out = interpret(fb.module(), "backwards", args, 1, verify=False)[1]
    np.testing.assert_array_equal(out.reshape(4, 16), src.reshape(4, 16)[::-1])


def test_huge_negative_stride_does_not_crash():
    # stride -2**26 used to send as_strided 256 MiB before the array: SIGSEGV
    m = _load_store_kernel((4, 16), (-(2**26), 1), (4, 16), (0, 0))
    host, before = _guarded(64)
    with pytest.raises(InterpretError, match="outside the buffer"):
        interpret(
            m,
            "hostile_load",
            [host[GUARD : GUARD + 64], np.zeros(64, np.float32)],
            1,
            verify=False,
        )
    np.testing.assert_array_equal(host, before)


def test_index_arithmetic_that_would_wrap_int64_is_refused():
    # shape [2**40, 16], strides [2**60 - 1, 1], tile (8, 16) at (2**37... ) : the origin
    # 8 * 8 * (2**60 - 1) wraps int64; the access is far outside the buffer
    m = _load_store_kernel((2**40, 16), (2**60 - 1, 1), (8, 16), (2**30 // 8, 0))
    host, before = _guarded(256)
    with pytest.raises(InterpretError, match="outside the buffer"):
        interpret(m, "hostile_load", [host[GUARD : GUARD + 256], np.zeros(128, np.float32)], 1)
    np.testing.assert_array_equal(host, before)


def test_the_issues_wrapping_origin_is_refused():
    # origin 8 * (2**60 - 1) = 2**63 - 8 (tile (1,16) at row 8): int64 reads it as -8
    m = _load_store_kernel((2**40, 16), (2**60 - 1, 1), (1, 16), (8, 0))
    host, before = _guarded(256)
    with pytest.raises(InterpretError, match="outside the buffer"):
        interpret(m, "hostile_load", [host[GUARD : GUARD + 256], np.zeros(16, np.float32)], 1)
    np.testing.assert_array_equal(host, before)


def test_zero_stride_reads_one_row_repeatedly():
    m = _load_store_kernel((4, 16), (0, 1), (4, 16), (0, 0))
    src = np.arange(16, dtype=np.float32)
    out = interpret(m, "hostile_load", [src, np.zeros(64, np.float32)], 1, verify=False)[1]
    np.testing.assert_array_equal(out.reshape(4, 16), np.tile(src, (4, 1)))


def test_zero_stride_past_the_end_is_refused():
    m = _load_store_kernel((4, 16), (0, 1), (4, 16), (0, 0))
    host, before = _guarded(8)
    with pytest.raises(InterpretError, match="outside the buffer"):
        interpret(
            m, "hostile_load", [host[GUARD : GUARD + 8], np.zeros(64, np.float32)], 1, verify=False
        )
    np.testing.assert_array_equal(host, before)


@pytest.mark.parametrize("stride", [-1, -(2**31), 2**40, -(2**62)])
def test_hostile_inner_stride_store_is_refused(stride):
    m = _store_kernel((4, 16), (16, stride), (4, 16), (0, 0))
    host, before = _guarded(64)
    with pytest.raises(VerifyError if stride < 0 else InterpretError):
        interpret(m, "hostile_store", [host[GUARD : GUARD + 64]], 1, owned=[0])
    with pytest.raises(InterpretError, match="outside the buffer"):
        interpret(m, "hostile_store", [host[GUARD : GUARD + 64]], 1, owned=[0], verify=False)
    np.testing.assert_array_equal(host, before)


def test_a_plain_view_keeps_working():
    # a positive view keeps its fast path
    m = _store_kernel((4, 16), (16, 1), (4, 16), (0, 0))
    out = interpret(m, "hostile_store", [np.zeros(64, np.float32)], 1)[0]
    assert (out == 7.0).all()
