"""numpy rules of the shape and construction ops: constant, iota, broadcast, reshape,
permute, cat, extract, insert, select.

Every value carries the batch axis first, so a tile dim ``k`` is array axis ``k + 1``.
``extract`` / ``insert`` indices count whole result-shaped blocks (CT:Ops) and may
differ per block; they are read as unsigned.
"""

from __future__ import annotations

import numpy as np

from tileir.fake.values import to_values, widen, wrap_int
from tileir.ir.numerics import dense_array
from tileir.ir.signatures import attr_of

__all__ = ["NUMPY_SHAPE_RULES"]


def _shape(op, i: int = 0) -> tuple[int, ...]:
    return tuple(op.results[i].type.shape)


def _constant(ctx, op, args):
    cached = ctx.const_cache.get(id(op))
    if cached is None:
        dense = attr_of(op, "value")
        fmt = op.results[0].type.element
        arr = to_values(dense_array(dense), fmt)
        cached = np.ascontiguousarray(arr).reshape((1,) + _shape(op))
        cached.flags.writeable = False
        ctx.const_cache[id(op)] = cached
    return [cached]


def _iota(ctx, op, args):
    n = _shape(op)[0]
    return [wrap_int(np.arange(n, dtype=np.int64), op.results[0].type.element)[None]]


def _broadcast(ctx, op, args):
    x = args[0]
    return [np.broadcast_to(x, (x.shape[0],) + _shape(op))]


def _reshape(ctx, op, args):
    x = args[0]
    # the method, not np.reshape: the same view, without the function's dispatch (~0.6 us)
    return [x.reshape((x.shape[0],) + _shape(op))]


def _permute(ctx, op, args):
    perm = attr_of(op, "permutation")
    return [args[0].transpose((0,) + tuple(int(p) + 1 for p in perm))]  # (as np.transpose)


def _cat(ctx, op, args):
    a, b = args
    n = max(a.shape[0], b.shape[0])
    return [np.concatenate([widen(a, n), widen(b, n)], axis=int(attr_of(op, "dim")) + 1)]


def _starts(indices) -> list[np.ndarray]:
    """Index operands (i32, read unsigned) as int64 block numbers."""
    return [np.asarray(i).astype(np.uint32).astype(np.int64) for i in indices]


def _block_index(source, starts, sub_shape):
    """Advanced-index arrays selecting each lane's ``sub_shape`` block of ``source``."""
    r = len(sub_shape)
    n = max([source.shape[0]] + [i.shape[0] for i in starts])
    lane = np.arange(n).reshape((n,) + (1,) * r)
    index = [lane if source.shape[0] == n else np.zeros_like(lane)]
    for k, (i, size) in enumerate(zip(starts, sub_shape)):
        shape = [1] * (r + 1)
        shape[k + 1] = size
        index.append((i * size).reshape((-1,) + (1,) * r) + np.arange(size).reshape(shape))
    return tuple(index)


def _uniform_starts(indices, sizes):
    if all(i.shape[0] == 1 for i in indices):
        return [int(i[0]) * s for i, s in zip(indices, sizes)]
    return None


def _extract(ctx, op, args):
    src, idx = args[0], list(args[1:])
    sub = _shape(op)
    blocks = _starts(idx)
    starts = _uniform_starts(blocks, sub)
    if starts is not None:
        sl = (slice(None),) + tuple(slice(s, s + n) for s, n in zip(starts, sub))
        return [src[sl]]
    return [src[_block_index(src, blocks, sub)]]


def _insert(ctx, op, args):
    part, dest, idx = args[0], args[1], list(args[2:])
    sub = tuple(op.operands[0].type.shape)
    n = max([part.shape[0], dest.shape[0]] + [i.shape[0] for i in idx])
    out = np.array(widen(dest, n))
    blocks = _starts(idx)
    starts = _uniform_starts(blocks, sub)
    if starts is not None:
        sl = (slice(None),) + tuple(slice(s, s + k) for s, k in zip(starts, sub))
        out[sl] = part
        return [out]
    out[_block_index(out, blocks, sub)] = widen(part, n)
    return [out]


def _select(ctx, op, args):
    return [np.where(args[0], args[1], args[2])]


NUMPY_SHAPE_RULES = {
    "constant": _constant,
    "iota": _iota,
    "broadcast": _broadcast,
    "reshape": _reshape,
    "permute": _permute,
    "cat": _cat,
    "extract": _extract,
    "insert": _insert,
    "select": _select,
}
