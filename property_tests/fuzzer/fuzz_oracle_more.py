"""The oracle's pointer path and launch-shape queries, in numpy (``fuzz_oracle`` calls it).

* A lane's element is worked out here from the description alone (``fuzz_tree_more``'s
  ``lanes``): ``(i * a + c) % m`` or ``sum(index * strides)``, plus this block's window
  (``linear block * window``; blocks counted along axis 0 first).
* ``pload``: the elements of the read Shared at those lanes, the padding value (rounded
  into the format) where the mask is off.
* Statements: a store writes its lanes (distinct elements: no order to choose); an
  atomic's final memory is the fold of every block's lanes into the initial contents:
  integer modes exactly (each is commutative and associative), ``addf`` as a sum in any
  order (``fuzz_bounds``).  A lane's old value is pinned only where its element is hit
  by no other lane of the launch (then it is the initial value); masked-off lanes' old
  values are the implementation's.
"""

from __future__ import annotations

import numpy as np

from fuzz_bounds import sum_from_stats, unit_roundoff
from fuzz_numerics import EV, INT_BITS, dtype_of, is_float, round_into, wrap_int

__all__ = ["linear_blocks", "lane_elements", "query", "pload", "apply_statements", "OOB"]

OOB = 1 << 20


def linear_blocks(ids: np.ndarray, grid: tuple) -> np.ndarray:
    lin = ids[:, 0].astype(np.int64)
    if ids.shape[1] == 2:
        lin = lin + ids[:, 1].astype(np.int64) * grid[0]
    return lin


def lane_elements(spec: dict, window: int, lin, per_block: bool = True) -> tuple:
    """``(elements (B, *shape), mask (*shape) or None)`` of a lanes spec."""
    shape = tuple(spec["shape"])
    n = int(np.prod(shape)) if shape else 1
    i = np.arange(n, dtype=np.int64).reshape(shape)
    mask = None
    if spec["mask"] is not None:
        q, r = spec["mask"]
        mask = (i % q) < r
    if spec["via"] == "strided":
        idx = np.indices(shape, dtype=np.int64)
        offs = spec["c"] + sum(idx[d] * s for d, s in enumerate(spec["strides"]))
    else:
        offs = (i * spec["a"] + spec["c"]) % spec["m"]
        if spec["oob"]:
            offs = np.where(mask, offs, offs + OOB)
    base = (
        np.asarray(lin, dtype=np.int64) * window
        if per_block
        else np.zeros(len(lin), dtype=np.int64)
    )
    return base.reshape((-1,) + (1,) * len(shape)) + offs, mask


def query(node: list, desc: dict, grid: tuple, b: int) -> EV:
    what = node[1]
    if what == "nblocks":
        v = grid[node[2]]
    else:
        p = desc["params"][node[2]]
        e, t = p["extent"][node[3]], p["tile"][node[3]]
        v = e if what == "extent" else -(-e // t)
    return EV(np.full(b, v, dtype=np.int32), None, "i32")


def _active(elems: np.ndarray, mask) -> np.ndarray:
    return np.broadcast_to(True if mask is None else mask, elems.shape)


def pload(node: list, desc: dict, args: list, lin) -> EV:
    p = desc["params"][node[1]]
    spec = node[2]
    fmt = p["format"]
    elems, mask = lane_elements(spec, p["window"], lin)
    active = _active(elems, mask)
    buf = np.asarray(args[node[1]]).reshape(-1)
    if np.any(active & ((elems < 0) | (elems >= buf.size))):
        raise ValueError(f"pload lanes leave the buffer: {spec}")  # a generator bug
    vals = buf[np.where(active, elems, 0)]
    if spec["pad"] is not None:
        pad = (
            round_into(np.asarray(float(spec["pad"])), fmt)
            if is_float(fmt)
            else np.asarray(int(spec["pad"])).astype(dtype_of(fmt))
        )
        vals = np.where(active, vals, pad.astype(vals.dtype))
    return EV(vals, None, fmt)


_FOLD = {
    "add": np.add,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "max": np.maximum,
    "min": np.minimum,
}


def _int_fold(init: np.ndarray, at: np.ndarray, vals: np.ndarray, mode: str, fmt: str):
    acc = init.astype(np.int64)
    v = vals.astype(np.int64)
    if mode in ("umax", "umin"):  # compare as unsigned numbers of the width
        m = (1 << INT_BITS[fmt]) - 1
        acc_u = (acc & m).astype(np.uint64) if INT_BITS[fmt] < 64 else acc.view(np.uint64)
        v_u = (v & m).astype(np.uint64) if INT_BITS[fmt] < 64 else v.view(np.uint64)
        (np.maximum if mode == "umax" else np.minimum).at(acc_u, at, v_u)
        acc = acc_u.astype(np.int64) if INT_BITS[fmt] < 64 else acc_u.view(np.int64)
    else:
        _FOLD[mode].at(acc, at, v)  # int64 wraps modulo 2**64, a multiple of the width
    return wrap_int(acc, fmt)


def _float_fold(
    init: np.ndarray, at: np.ndarray, vals: np.ndarray, errs: np.ndarray, fmt: str
) -> tuple:
    n = init.size
    x0 = init.astype(np.float64)
    x = vals.astype(np.float64)
    stats = []
    for term0, term in (
        (np.where(np.isfinite(x0), x0, 0.0), np.where(np.isfinite(x), x, 0.0)),
        (np.abs(np.where(np.isfinite(x0), x0, 0.0)), np.abs(np.where(np.isfinite(x), x, 0.0))),
        (np.zeros(n), np.where(np.isnan(errs), np.inf, errs)),
        (np.isnan(x0), np.isnan(x)),
        (x0 == np.inf, x == np.inf),
        (x0 == -np.inf, x == -np.inf),
        (np.ones(n), np.ones(x.size)),
    ):
        acc = np.asarray(term0, dtype=np.float64).copy()
        np.add.at(acc, at, np.asarray(term, dtype=np.float64))
        stats.append(acc)
    return sum_from_stats(*stats, fmt, unit_roundoff(fmt))


def apply_statements(desc: dict, args: list, ev, lin, fit) -> dict:
    """Run the statements on copies of the Shared buffers: ``{param: (values, err)}`` for
    each written Shared, and each atomic's old values in ``ev.olds``."""
    out = {}
    for j, stmt in enumerate(desc.get("stmts", ())):
        i = stmt["param"]
        p = desc["params"][i]
        fmt = p["format"]
        value = fit(ev.run(stmt["value"], []), tuple(stmt["lanes"]["shape"]))
        per_block = stmt["kind"] == "store" or p["windows"] > 1
        elems, mask = lane_elements(stmt["lanes"], p["window"], lin, per_block)
        active = _active(elems, mask)
        buf = np.array(args[i], copy=True).reshape(-1)
        err = np.zeros(buf.size)
        at = elems[active]
        if at.size and (at.min() < 0 or at.max() >= buf.size):
            raise ValueError(f"statement {j} lanes leave the buffer")  # a generator bug
        vals, verr = value.val[active], value.err[active]
        if stmt["kind"] == "store":
            buf[at] = vals.astype(buf.dtype)
            err[at] = verr
            out[i] = (buf, err)
            continue
        hits = np.zeros(buf.size, dtype=np.int64)
        np.add.at(hits, at, 1)
        if is_float(fmt):
            final, ferr = _float_fold(buf, at, vals, verr, fmt)
            touched = hits > 0
            buf = np.where(touched, final.astype(buf.dtype), buf)
            err = np.where(touched, ferr, 0.0)
        else:
            buf = _int_fold(buf, at, vals, stmt["mode"], fmt).astype(buf.dtype)
            opened = np.zeros(buf.size)
            np.maximum.at(opened, at, np.where(verr > 0, np.inf, 0.0))
            err = opened
        out[i] = (buf, err)
        init = np.asarray(args[i]).reshape(-1)
        safe = np.clip(elems, 0, buf.size - 1)
        old = init[safe]
        alone = active & (hits[safe] == 1)
        ev.olds[j] = EV(old, np.where(alone, 0.0, np.inf), fmt)
    return out
