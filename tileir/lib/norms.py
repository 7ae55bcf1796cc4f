"""Softmax, log-softmax, layer norm and RMS norm over one dimension of a tile.

Each is a pure function of tiles (no effects: call it, no ``yield``).  The reductions leave
out the lanes past a ragged extent (:mod:`tileir.lib.masked`), so a row of 100 in a cell of
128 normalises over its 100 values whatever padding its cells name.  ``acc`` is the format
the arithmetic runs in: by default f32 for f16 / bf16 tiles (the result is narrowed back
once) and the tile's own format otherwise.

>>> import numpy as np
>>> from tileir import F32, In, Out, cells, load_cell, store_cell, trace
>>> from tileir.fake import FakeDevice
>>> def body(x, out):
...     t = yield load_cell(x)                     # rows of 3 in cells of 4, zero padding
...     yield store_cell(out, softmax(t))
>>> g = cells([2, 3], [2, 4])
>>> k = trace("sm", body, In(F32, g), Out(F32, g))
>>> xs = np.log(np.array([1, 1, 2, 1, 3, 4], np.float32))
>>> _, out = FakeDevice(mode="interpret").run(k, xs, np.zeros(6, np.float32))
>>> np.round(out, 4).tolist()
[0.25, 0.25, 0.5, 0.125, 0.375, 0.5]
"""

from __future__ import annotations

from typing import Callable, Optional

from tileir.lib.masked import count, float_tile, fmt_of, masked_sum, mean
from tileir.ops import exp, log, reduce_max, rsqrt, valid_along, where
from tileir.record.tile import Tile, TileLike, reduce_dim
from tileir.types import BF16, F16, F32, Format

__all__ = ["softmax", "log_softmax", "layer_norm", "rms_norm", "in_format", "compute_format"]


def compute_format(fmt: Format, acc: Optional[Format] = None) -> Format:
    """The format arithmetic on ``fmt`` values runs in: ``acc`` when given, else f32 for the
    16-bit floats (f16, bf16) and ``fmt`` itself otherwise."""
    if acc is not None:
        return acc
    return F32 if fmt in (F16, BF16) else fmt


def in_format(t: TileLike, acc: Optional[Format], op: str, fn: Callable[[Tile], Tile]) -> Tile:
    """``fn`` applied to ``t`` converted to the compute format, the result converted back to
    ``t``'s format (no conversion when the two agree)."""
    x = float_tile(t, op)
    fmt = fmt_of(x)
    comp = compute_format(fmt, acc)
    if comp == fmt:
        return fn(x)
    return fn(x.to(comp)).to(fmt)


def softmax(t: TileLike, dim: int = -1, acc: Optional[Format] = None) -> Tile:
    """``exp(t - max) / sum(exp(t - max))`` along ``dim``, over the valid lanes (the lanes past
    the extent come out 0)."""

    def fn(x: Tile) -> Tile:
        d = reduce_dim(x, dim, "softmax")
        e = exp(_shifted(x, d))
        return e / masked_sum(e, d, keepdims=_keep(x))

    return in_format(t, acc, "softmax", fn)


def log_softmax(t: TileLike, dim: int = -1, acc: Optional[Format] = None) -> Tile:
    """``t - max - log(sum(exp(t - max)))`` along ``dim``, over the valid lanes."""

    def fn(x: Tile) -> Tile:
        d = reduce_dim(x, dim, "log_softmax")
        s = _shifted(x, d)
        return s - log(masked_sum(exp(s), d, keepdims=_keep(x)))

    return in_format(t, acc, "log_softmax", fn)


def _keep(x: Tile) -> bool:
    """Whether a reduction of ``x`` keeps its dimension: for a matrix, so the result widens
    back along the reduced dimension; a vector's reduction is rank 0, which widens anyway."""
    return x.rank > 1


def _shifted(x: Tile, d: int) -> Tile:
    """``x`` less its largest valid lane along ``d`` (-inf at the lanes past the extent, so
    ``exp`` gives 0 there)."""
    mask = valid_along(x, d)
    if mask is not None:
        x = where(mask, x, float("-inf"))  # so the plain max below is the valid lanes' max
    return x - reduce_max(x, d, _keep(x))


def layer_norm(
    t: TileLike,
    gamma: Optional[TileLike] = None,
    beta: Optional[TileLike] = None,
    eps: float = 1e-5,
    dim: int = -1,
    acc: Optional[Format] = None,
) -> Tile:
    """``(t - mean) / sqrt(var + eps) * gamma + beta`` along ``dim`` (mean and variance over
    the valid lanes); ``gamma`` and ``beta`` widen over the other dimensions and are
    converted to the compute format."""

    def fn(x: Tile) -> Tile:
        d = reduce_dim(x, dim, "layer_norm")
        n = count(x, d)
        centred = x - mean(x, d, keepdims=_keep(x))
        if n is None:
            v = masked_sum(centred * centred, d, keepdims=_keep(x)) * (1.0 / x.shape[d])
        else:
            v = masked_sum(centred * centred, d, keepdims=_keep(x)) / n
        y = centred * rsqrt(v + eps)
        return _affine(y, gamma, beta)

    return in_format(t, acc, "layer_norm", fn)


def rms_norm(
    t: TileLike,
    gamma: Optional[TileLike] = None,
    eps: float = 1e-6,
    dim: int = -1,
    acc: Optional[Format] = None,
) -> Tile:
    """``t / sqrt(mean(t^2) + eps) * gamma`` along ``dim`` (the mean over the valid lanes)."""

    def fn(x: Tile) -> Tile:
        d = reduce_dim(x, dim, "rms_norm")
        ms = mean(x * x, d, keepdims=_keep(x))
        return _affine(x * rsqrt(ms + eps), gamma, None)

    return in_format(t, acc, "rms_norm", fn)


def _affine(y: Tile, gamma: Optional[TileLike], beta: Optional[TileLike]) -> Tile:
    if gamma is not None:
        y = y * _like(gamma, y)
    if beta is not None:
        y = y + _like(beta, y)
    return y


def _like(w: TileLike, y: Tile) -> TileLike:
    if isinstance(w, Tile) and w.format != y.format:
        return w.to(fmt_of(y))
    return w
