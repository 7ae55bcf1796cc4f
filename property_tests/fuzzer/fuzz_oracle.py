"""The kernel fuzzer's oracle: a direct numpy evaluation of a description's tree.

It never looks at the recorded Program or Module.  For every block of the grid
(evaluated together, with a leading block axis) it reads each In's cell from the
input buffer by the cells' own arithmetic (lanes past the extent read the padding
value), runs the statements on copies of the Shared buffers (``fuzz_oracle_more``),
evaluates the tree with the element rules of ``fuzz_ops`` / ``fuzz_ops_more`` (loops
run their trip count per block, ``if`` picks per block), and writes the lanes of the
Out cell that lie inside the extent; everything else in the Out keeps its initial
contents.  The result is, for the Out and every written Shared, the buffer and per
element the bound ``err`` (0: bit-exact; inf: not determined, not compared).
"""

from __future__ import annotations

import math

import numpy as np

import fuzz_ops as ops
import fuzz_ops_more as ops2
import fuzz_oracle_more as more
from fuzz_build import k_trips
from fuzz_numerics import EV, dtype_of, is_float, round_into

__all__ = ["evaluate", "grid_of", "compare_out", "Mismatch"]

_PAD = {"zero": 0.0, "neg_zero": -0.0, "nan": math.nan, "pos_inf": math.inf, "neg_inf": -math.inf}


def grid_of(desc: dict) -> tuple:
    out = desc["params"][-1]
    return tuple(-(-e // t) for e, t in zip(out["extent"], out["tile"]))


def _block_ids(grid: tuple) -> np.ndarray:
    """``(B, rank)`` block coordinates, axis 0 fastest (the order does not matter)."""
    axes = np.meshgrid(*[np.arange(n) for n in grid], indexing="ij")
    return np.stack([a.reshape(-1) for a in axes], axis=1)


def _lanes(p: dict, ids: np.ndarray, free: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Flat element index and in-extent mask of every lane of every block's cell (the cell
    ``free`` along a FREE_AXIS dimension)."""
    ext, tile, along = p["extent"], p["tile"], p["along"]
    flat = np.zeros((len(ids),) + (1,) * len(tile), dtype=np.int64)
    valid = np.ones_like(flat, dtype=bool)
    stride = 1
    for d in reversed(range(len(tile))):
        shape = [1] * (1 + len(tile))
        shape[1 + d] = tile[d]
        cell = np.full(len(ids), free) if along[d] == "FREE" else ids[:, along[d]]
        pos = cell.reshape(-1, *([1] * len(tile))) * tile[d] + np.arange(tile[d]).reshape(shape)
        valid = valid & (pos < ext[d])
        flat = flat + pos * stride
        stride *= ext[d]
    full = (len(ids),) + tuple(tile)
    return np.broadcast_to(flat, full), np.broadcast_to(valid, full)


def _load(p: dict, buf: np.ndarray, ids: np.ndarray, free: int = 0) -> EV:
    flat, valid = _lanes(p, ids, free)
    vals = buf[np.where(valid, flat, 0)]
    if is_float(p["format"]):
        pad = np.asarray(_PAD[p["pad"]], dtype=np.float64).astype(vals.dtype)
    else:
        pad = np.zeros((), dtype=vals.dtype)
    return EV(np.where(valid, vals, pad), None, p["format"])


def _fit(a: EV, shape: tuple) -> EV:
    """``a`` widened to ``(B, *shape)`` (rank 0 first gets dimensions of 1)."""
    if a.shape == tuple(shape):
        return a
    b = a.val.shape[0]
    if a.shape == ():
        a = a.map(lambda x: x.reshape((b,) + (1,) * len(shape)))
    return a.map(lambda x: np.broadcast_to(x, (b,) + tuple(shape)).copy())


def _widen(*shapes) -> tuple:
    out: tuple = ()
    for s in shapes:
        if not out:
            out = tuple(s)
        elif s:
            out = tuple(max(x, y) for x, y in zip(out, s))
    return out


class _Eval:
    def __init__(self, desc: dict, args: list, ids: np.ndarray, grid: tuple):
        self.desc, self.args, self.ids, self.grid = desc, args, ids, grid
        self.b = len(ids)
        self.lin = more.linear_blocks(ids, grid)
        self.olds: dict = {}
        self.loaded = {
            i: _load(p, args[i], ids)
            for i, p in enumerate(desc["params"])
            if p["role"] == "In" and "FREE" not in p["along"]
        }

    def const(self, fmt: str, value, shape) -> EV:
        if is_float(fmt):
            v = round_into(np.asarray(float(value)), fmt)
        else:
            v = np.asarray(value).astype(dtype_of(fmt))
        return EV(np.broadcast_to(v, (self.b,) + tuple(shape)).copy(), None, fmt)

    def run(self, node, scopes: list) -> EV:
        kind = node[0]
        if kind == "in":
            return self.loaded[node[1]]
        if kind == "scalar":
            p = self.desc["params"][node[1]]
            return self.const(p["format"], self.args[node[1]], ())
        if kind == "const":
            return self.const(node[1], node[2], node[3])
        if kind == "block_id":
            return EV(self.ids[:, node[1]].astype(np.int32), None, "i32")
        if kind == "iota":
            return EV(
                np.broadcast_to(np.arange(node[1], dtype=np.int32), (self.b, node[1])).copy(),
                None,
                "i32",
            )
        if kind == "iv":
            return scopes[node[1]][0]
        if kind == "carried":
            return scopes[node[1]][1]
        if kind == "kcell":
            return scopes[node[1]][2]
        if kind == "un":
            return ops.unary(node[1], self.run(node[2], scopes))
        if kind in ("bin", "cmp"):
            a, b = self.run(node[2], scopes), self.run(node[3], scopes)
            shape = _widen(a.shape, b.shape)
            a, b = _fit(a, shape), _fit(b, shape)
            if kind == "cmp":
                return ops.compare(node[1], a, b)
            rule = ops.f_binary if is_float(a.fmt) else ops.i_binary
            return rule(node[1], a, b)
        if kind == "where":
            m, a, b = (self.run(n, scopes) for n in node[1:4])
            shape = _widen(m.shape, a.shape, b.shape)
            return ops.select(_fit(m, shape), _fit(a, shape), _fit(b, shape))
        if kind == "cvt":
            rounding = node[3] if len(node) > 3 else "nearest_even"
            return ops.convert(self.run(node[2], scopes), node[1], rounding)
        if kind == "reduce":
            return ops.reduce(node[1], node[2], bool(node[3]), self.run(node[4], scopes))
        if kind == "bcast":
            return _fit(self.run(node[2], scopes), tuple(node[1]))
        if kind == "reshape":
            shape = (self.b,) + tuple(node[1])
            return self.run(node[2], scopes).map(lambda x: x.reshape(shape))
        if kind == "permute":
            perm = (0,) + tuple(1 + i for i in node[1])
            return self.run(node[2], scopes).map(lambda x: np.transpose(x, perm).copy())
        if kind in ("for", "kloop"):
            return self.loop(node, scopes)
        if kind == "if":
            cond = self.run(node[1], scopes)
            a, b = self.run(node[2], scopes), self.run(node[3], scopes)
            return ops.select(_fit(cond, a.shape), a, b)
        return self.run_more(node, scopes)

    def run_more(self, node, scopes: list) -> EV:
        kind = node[0]
        if kind == "scan":
            return ops2.scan(node[1], node[2], bool(node[3]), self.run(node[4], scopes))
        if kind == "mma":
            a, b, c = (self.run(n, scopes) for n in node[4:7])
            return ops2.mma(a, b, c, bool(node[2]), tuple(bool(s) for s in node[3]))
        if kind == "query":
            return more.query(node, self.desc, self.grid, self.b)
        if kind == "pload":
            return more.pload(node, self.desc, self.args, self.lin)
        if kind == "old":
            return self.olds[node[1]]
        raise ValueError(f"unknown node {node!r}")

    def loop(self, node, scopes: list) -> EV:
        kp = None
        if node[0] == "kloop":  # a loop over the K input's cells: one trip per cell
            kp = self.desc["params"][node[1]]
            upper = np.full(self.b, k_trips(kp))
        else:
            axis, c = node[1]
            upper = np.full(self.b, c) if axis is None else self.ids[:, axis] + c
        cur = self.run(node[2], scopes)
        for k in range(int(upper.max(initial=0))):
            iv = EV(np.full(self.b, k, dtype=np.int32), None, "i32")
            kcell = None if kp is None else _load(kp, self.args[node[1]], self.ids, k)
            new = self.run(node[3], scopes + [(iv, cur, kcell)])
            going = (k < upper).reshape((self.b,) + (1,) * len(cur.shape))
            cur = EV(np.where(going, new.val, cur.val), np.where(going, new.err, cur.err), cur.fmt)
        return cur


def evaluate(desc: dict, args: list) -> dict:
    """``{parameter index: (buffer after the launch, bound per element)}`` for the Out
    (the last parameter) and every Shared the statements write."""
    grid = grid_of(desc)
    ids = _block_ids(grid)
    ev = _Eval(desc, args, ids, grid)
    written = more.apply_statements(desc, args, ev, ev.lin, _fit)
    value = ev.run(desc["expr"], [])
    out_p = desc["params"][-1]
    out = np.array(args[-1], copy=True)
    err = np.zeros(out.shape, dtype=np.float64)
    flat, valid = _lanes(out_p, ids)
    value = _fit(value, tuple(out_p["tile"]))
    out[flat[valid]] = value.val[valid].astype(out.dtype)
    err[flat[valid]] = value.err[valid]
    written[len(desc["params"]) - 1] = (out, err)
    return written


class Mismatch(AssertionError):
    """The interpreter's Out differs from the oracle's beyond the bound."""


def compare_out(got: np.ndarray, expected: np.ndarray, err: np.ndarray) -> tuple:
    """``(first bad index or None, how many bad, how many compared)``; exact lanes compare
    bit for bit (NaN equals NaN, -0 differs from +0), bounded lanes within the bound."""
    got, expected = np.asarray(got).reshape(-1), np.asarray(expected).reshape(-1)
    if expected.dtype.kind in "iub":
        bad = (got != expected) & (err == 0)
    else:
        g, e = got.astype(np.float64), expected.astype(np.float64)
        with np.errstate(invalid="ignore"):
            same = ((g == e) & (np.signbit(g) == np.signbit(e))) | (np.isnan(g) & np.isnan(e))
            near = np.isfinite(g) & np.isfinite(e) & (np.abs(g - e) <= err)
        bad = ~same & ~(near & (err > 0)) & np.isfinite(err)
    hits = np.flatnonzero(bad)
    compared = int(np.isfinite(err).sum())
    return (int(hits[0]) if hits.size else None), int(hits.size), compared
