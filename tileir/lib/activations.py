"""Element-wise activations: GELU (the tanh form) and SiLU, pure functions of a float tile.

``acc`` is the format they compute in (f32 for f16 / bf16 tiles by default, narrowed back
once), as :mod:`tileir.lib.norms` does.

>>> import numpy as np
>>> from tileir import F32, In, Out, cells, load_cell, store_cell, trace
>>> from tileir.fake import FakeDevice
>>> def body(x, out):
...     t = yield load_cell(x)
...     yield store_cell(out, silu(t) + gelu(t))
>>> g = cells([4], [4])
>>> k = trace("act", body, In(F32, g), Out(F32, g))
>>> xs = np.array([-1, 0, 1, 2], np.float32)
>>> _, out = FakeDevice(mode="interpret").run(k, xs, np.zeros(4, np.float32))
>>> want = xs / (1 + np.exp(-xs)) + 0.5 * xs * (1 + np.tanh(np.sqrt(2 / np.pi) * (xs + 0.044715 * xs**3)))
>>> bool(np.allclose(out, want, rtol=1e-5))
True
"""

from __future__ import annotations

import math
from typing import Optional

from tileir.lib.norms import in_format
from tileir.ops import exp, tanh
from tileir.record.tile import Tile, TileLike
from tileir.types import Format

__all__ = ["gelu", "silu"]

#: sqrt(2 / pi), GELU's tanh-form constant
_GELU_C = math.sqrt(2.0 / math.pi)


def gelu(t: TileLike, acc: Optional[Format] = None) -> Tile:
    """``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``."""
    return in_format(
        t, acc, "gelu", lambda x: 0.5 * x * (1.0 + tanh(_GELU_C * (x + 0.044715 * x * x * x)))
    )


def silu(t: TileLike, acc: Optional[Format] = None) -> Tile:
    """``x / (1 + exp(-x))`` (x times its sigmoid)."""
    return in_format(t, acc, "silu", lambda x: x / (1.0 + exp(-x)))
