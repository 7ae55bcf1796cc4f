"""Atomic read-modify-write and compare-and-swap on a segment, several lanes per address.

The contributions of one atomic op (every element of every block in the batch)
are applied one at a time in lane-major order (block, then element): each one
sees the value the previous one left, as some serial order of the device's
atomics would.  Distinct addresses are updated together in one numpy pass; when
addresses repeat, integer ``add`` uses an exact segmented prefix sum, and every
other mode runs one pass per rank of repetition (the k-th contribution to each
address in pass k), so a histogram costs as many passes as its fullest bin.
"""

from __future__ import annotations

import numpy as np

from tileir.fake.rules.convert import to_bits
from tileir.fake.rules.floats import _compute
from tileir.fake.values import to_host, to_values, unsigned, wrap_int
from tileir.types import Format

__all__ = ["rmw", "combine", "cas"]


def combine(mode: str, old: np.ndarray, val: np.ndarray, fmt: Format) -> np.ndarray:
    """``mode(old, val)`` of ``atomic_rmw_tko`` on values of ``fmt``."""
    if mode == "xchg":
        return val
    if mode == "addf":
        return _compute(fmt, np.add, old, val)
    if mode == "add":
        return wrap_int(old.astype(np.int64) + val.astype(np.int64), fmt)
    if mode == "and":
        return old & val
    if mode == "or":
        return old | val
    if mode == "xor":
        return old ^ val
    if mode in ("max", "min"):
        return np.maximum(old, val) if mode == "max" else np.minimum(old, val)
    if mode in ("umax", "umin"):
        uo, uv = unsigned(old, fmt), unsigned(val, fmt)
        pick_old = uo >= uv if mode == "umax" else uo <= uv
        return np.where(pick_old, old, val)
    raise ValueError(f"unknown atomic mode {mode!r}")


def _ranks(elem: np.ndarray):
    """Positions grouped by repetition rank: pass k holds the k-th hit of each address."""
    n = elem.shape[0]
    order = np.argsort(elem, kind="stable")
    se = elem[order]
    starts = np.ones(n, dtype=bool)
    starts[1:] = se[1:] != se[:-1]
    first = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    rank = np.arange(n) - first
    by_rank = np.argsort(rank, kind="stable")
    ranks_sorted = rank[by_rank]
    bounds = np.searchsorted(ranks_sorted, np.arange(int(ranks_sorted[-1]) + 2))
    positions = order[by_rank]
    return [positions[bounds[k] : bounds[k + 1]] for k in range(len(bounds) - 1)]


def _has_repeats(elem: np.ndarray) -> bool:
    if elem.size < 2:
        return False
    s = np.sort(elem)
    return bool((s[1:] == s[:-1]).any())


def _add_prefix(typed: np.ndarray, elem: np.ndarray, val: np.ndarray, fmt) -> np.ndarray:
    """Integer add with repeats: exclusive segmented prefix sums, exact modulo 2**64."""
    n = elem.shape[0]
    order = np.argsort(elem, kind="stable")
    se = elem[order]
    v = val[order].astype(np.int64)
    starts = np.ones(n, dtype=bool)
    starts[1:] = se[1:] != se[:-1]
    first = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    csum = np.cumsum(v)
    excl = csum - v
    before = excl - excl[first]
    init = to_values(typed[se], fmt).astype(np.int64)
    old_sorted = wrap_int(init + before, fmt)
    last = np.ones(n, dtype=bool)
    last[:-1] = se[1:] != se[:-1]
    typed[se[last]] = to_host(wrap_int(init[last] + before[last] + v[last], fmt), fmt)
    old = np.empty_like(old_sorted)
    old[order] = old_sorted
    return old


def rmw(
    typed: np.ndarray, elem: np.ndarray, val: np.ndarray, mode: str, fmt: Format
) -> np.ndarray:
    """Apply ``mode`` at ``typed[elem]`` with ``val`` (1-D, lane-major); the old values."""
    if elem.size == 0:
        return to_values(typed[elem], fmt)
    if not _has_repeats(elem):
        old = to_values(typed[elem], fmt)
        typed[elem] = to_host(combine(mode, old, val, fmt), fmt)
        return old
    if mode == "add":
        return _add_prefix(typed, elem, val, fmt)
    old = np.empty(elem.shape, dtype=to_values(typed[:0], fmt).dtype)
    for pos in _ranks(elem):
        e = elem[pos]
        o = to_values(typed[e], fmt)
        old[pos] = o
        typed[e] = to_host(combine(mode, o, val[pos], fmt), fmt)
    return old


def cas(
    typed: np.ndarray, elem: np.ndarray, cmp: np.ndarray, val: np.ndarray, fmt: Format
) -> np.ndarray:
    """Compare-and-swap (bitwise equality, floats included); the old values."""
    groups = _ranks(elem) if _has_repeats(elem) else [np.arange(elem.size)]
    old = np.empty(elem.shape, dtype=to_values(typed[:0], fmt).dtype)
    for pos in groups:
        e = elem[pos]
        o = to_values(typed[e], fmt)
        old[pos] = o
        hit = to_bits(o, fmt) == to_bits(cmp[pos], fmt)
        typed[e[hit]] = to_host(val[pos][hit], fmt)
    return old
