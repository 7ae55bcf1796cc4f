"""``flush_to_zero`` on the fake device: a subnormal input or result of an f32 op becomes a
zero of its own sign; normal values, zeros, infinities and NaN pass as they are."""

from __future__ import annotations

import numpy as np

from tileir import F32, In, Out, add, cells, load_cell, mul, store_cell, trace
from tileir.fake import FakeDevice

_G = cells([8], [8])


def _flushing(x, y, out_sum, out_product):
    a = yield load_cell(x)
    b = yield load_cell(y)
    yield store_cell(out_sum, add(a, b, flush_to_zero=True))
    yield store_cell(out_product, mul(a, b, flush_to_zero=True))


def test_subnormals_flush_to_a_zero_of_their_own_sign():
    kernel = trace("ftz", _flushing, In(F32, _G), In(F32, _G), Out(F32, _G), Out(F32, _G))
    tiny = np.float32(1e-40)  # subnormal in f32
    x = np.array([tiny, -tiny, 1.5, -2.0, 0.0, np.inf, 1e-20, -1e-20], np.float32)
    y = np.array([0.0, 0.0, 0.25, 0.0, -0.0, 1.0, 1e-20, 1e-20], np.float32)
    _, _, total, product = FakeDevice(mode="interpret").run(
        kernel, x, y, np.zeros(8, np.float32), np.zeros(8, np.float32)
    )
    # inputs flushed first (-tiny is -0, and -0 + 0 is +0); a product under 2^-126 flushes
    want_sum = np.array([0.0, 0.0, 1.75, -2.0, 0.0, np.inf, 2e-20, 0.0], np.float32)
    want_product = np.array([0.0, -0.0, 0.375, -0.0, -0.0, np.inf, 0.0, -0.0], np.float32)
    assert total.view(np.uint32).tolist() == want_sum.view(np.uint32).tolist()
    assert product.view(np.uint32).tolist() == want_product.view(np.uint32).tolist()
