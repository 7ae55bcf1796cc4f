"""Pure tile functions for kernels to compose: softmax, norms, activations, masked
reductions, the online-softmax step of attention, and two helpers with effects.

Everything here is a plain function of tiles (call it; no ``yield``), except
:func:`matmul_k` and :func:`reduce_rows`, which are used with ``yield from``.  Reductions
honour a tile's valid lanes (:func:`tileir.ops.valid`), so over a ragged cell they come out
right whatever padding the marker names.  The arithmetic runs in the accumulator format
``acc`` (f32 for f16 / bf16 tiles by default) and the result is narrowed back once.

>>> import numpy as np
>>> from tileir import BF16, In, Out, cells, load_cell, store_cell, trace
>>> from tileir.fake import FakeDevice
>>> def body(x, out):
...     t = yield load_cell(x)                     # bf16 rows of 100 in cells of 128
...     yield store_cell(out, layer_norm(t))       # computed in f32, narrowed once
>>> g = cells([4, 100], [4, 128], pad="nan")
>>> k = trace("ln", body, In(BF16, g), Out(BF16, g))
>>> xs = np.linspace(-2, 3, 400).astype(BF16.numpy_dtype)
>>> _, out = FakeDevice(mode="interpret").run(k, xs, np.zeros(400, BF16.numpy_dtype))
>>> x = xs.astype(np.float64).reshape(4, 100)
>>> want = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5)
>>> bool(np.allclose(out.astype(np.float64).reshape(4, 100), want, atol=2e-2))
True
"""

from tileir.lib import online_softmax
from tileir.lib.activations import gelu, silu
from tileir.lib.effects import matmul_k, reduce_rows
from tileir.lib.masked import count, masked_max, masked_sum, mean, var
from tileir.lib.norms import compute_format, layer_norm, log_softmax, rms_norm, softmax

__all__ = [
    "softmax",
    "log_softmax",
    "layer_norm",
    "rms_norm",
    "gelu",
    "silu",
    "mean",
    "var",
    "masked_sum",
    "masked_max",
    "count",
    "online_softmax",
    "matmul_k",
    "reduce_rows",
    "compute_format",
]
