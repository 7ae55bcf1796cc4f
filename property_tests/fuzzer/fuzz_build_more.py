"""Recording the fuzzer's newer nodes and its statements (see ``fuzz_tree_more``).

Scans and mma through ``tileir.scan`` / ``tileir.mma``; shape queries through
``extent`` / ``cells_along`` / ``num_blocks``; pointer loads, stores and atomics through
``load`` / ``store`` / ``atomic`` on a Shared parameter, a tile of element offsets or a
tile of pointers (``offset(address(s), ...)``).  A lane's element is computed in the
kernel from ``iota`` (``(i * a + c) % m``), so every description records the same way.
"""

from __future__ import annotations

import math

from tileir import (
    I32,
    address,
    atomic,
    atomic_add,
    block_id,
    cells_along,
    extent,
    iota,
    load,
    maximum,
    minimum,
    mma,
    num_blocks,
    offset,
    reshape,
    scan,
    store,
    where,
)

__all__ = ["build_more", "run_statements", "scan_identity"]

#: far past any drawn buffer: masked-off lanes may point there, and nothing may touch them
OOB = 1 << 20

_SCAN = {
    "sum": lambda acc, v: acc + v,
    "prod": lambda acc, v: acc * v,
    "max": lambda acc, v: maximum(acc, v),
    "min": lambda acc, v: minimum(acc, v),
    "and": lambda acc, v: acc & v,
    "or": lambda acc, v: acc | v,
    "xor": lambda acc, v: acc ^ v,
}


def scan_identity(comb: str, fmt: str):
    """The combiner's true identity: -0 for float sums (+0 would turn a lone -0 into +0),
    NaN for maximumNumber / minimumNumber (which return the other operand of a NaN)."""
    if fmt.startswith("f") or fmt == "bf16":
        return {"sum": -0.0, "prod": 1.0, "max": math.nan, "min": math.nan}[comb]
    bits = int(fmt[1:])
    return {
        "sum": 0,
        "prod": 1,
        "max": -(1 << (bits - 1)),
        "min": (1 << (bits - 1)) - 1,
        "and": -1,
        "or": 0,
        "xor": 0,
    }[comb]


def _linear_block(rank: int):
    """This block's index in row-major-by-axis-0 order: ``bid0 + bid1 * nblocks0``."""
    lin = block_id(0)
    if rank == 2:
        lin = lin + block_id(1) * num_blocks(0)
    return lin


def _lane_index(shape: list):
    n = 1
    for d in shape:
        n *= d
    i = iota(n, I32)
    return reshape(i, tuple(shape)) if len(shape) != 1 else i


def _lanes(spec: dict, window: int, rank: int, per_block: bool = True):
    """``(offsets or None, mask or None, base)``: the lanes' element offsets (None for the
    strided form, which starts at ``base`` with the spec's strides) and mask."""
    base = _linear_block(rank) * window if per_block else None
    if spec["via"] == "strided":
        base = base + spec["c"]
    i = _lane_index(spec["shape"])
    mask = None
    if spec["mask"] is not None:
        q, r = spec["mask"]
        mask = (i % q) < r
    if spec["via"] == "strided":
        return None, mask, base
    offs = (i * spec["a"] + spec["c"]) % spec["m"]
    if spec["oob"]:
        offs = where(mask, offs, offs + OOB)
    if base is not None:
        offs = offs + base
    return offs, mask, base


def _pad_of(spec: dict):
    return 0 if spec["pad"] is None else spec["pad"]


def build_more(node, env: dict, rec):
    """Record one of the newer nodes; ``rec`` records a child (a generator)."""
    kind = node[0]
    if kind == "scan":
        comb, dim, reverse = node[1], node[2], bool(node[3])
        x = yield from rec(node[4], env)
        return scan(x, _SCAN[comb], scan_identity(comb, x.format.name), dim=dim, reverse=reverse)
    if kind == "mma":
        in_fmt, fast, signs = node[1], bool(node[2]), node[3]
        a = yield from rec(node[4], env)
        b = yield from rec(node[5], env)
        acc = yield from rec(node[6], env)
        if in_fmt == "i8":
            return mma(a, b, acc, signed=(bool(signs[0]), bool(signs[1])))
        return mma(a, b, acc, fast_acc=fast)
    if kind == "query":
        what = node[1]
        if what == "nblocks":
            return num_blocks(node[2])
        p = env["params"][node[2]]
        return extent(p, node[3]) if what == "extent" else cells_along(p, node[3])
    if kind == "old":
        return env["olds"][node[1]]
    if kind == "pload":
        s = env["params"][node[1]]
        spec = node[2]
        rank = len(env["desc"]["params"][-1]["tile"])
        offs, mask, base = _lanes(spec, env["desc"]["params"][node[1]]["window"], rank)
        options = {"mask": mask, "padding": _pad_of(spec)} if mask is not None else {}
        if spec["via"] == "strided":
            return (yield load(s, base, tuple(spec["shape"]), tuple(spec["strides"]), **options))
        if spec["via"] == "pointers":
            return (yield load(offset(address(s), offs), **options))
        return (yield load(s, offsets=offs, **options))
    raise ValueError(f"unknown node {node!r}")


def run_statements(stmts, env: dict, rec):
    """Record the statements in order; an atomic's old values go to ``env["olds"]``."""
    rank = len(env["desc"]["params"][-1]["tile"])
    for j, stmt in enumerate(stmts):
        s = env["params"][stmt["param"]]
        p = env["desc"]["params"][stmt["param"]]
        spec = stmt["lanes"]
        value = yield from rec(stmt["value"], env)
        if stmt["kind"] == "store":
            offs, mask, base = _lanes(spec, p["window"], rank)
            if spec["via"] == "strided":
                yield store(s, base, value, tuple(spec["strides"]), mask=mask)
            elif spec["via"] == "pointers":
                yield store(offset(address(s), offs), 0, value, mask=mask)
            else:
                yield store(s, 0, value, offsets=offs, mask=mask)
            continue
        per_block = p["windows"] > 1
        offs, mask, _ = _lanes(spec, p["window"], rank, per_block)
        target, where_ = (
            (offset(address(s), offs), None) if spec["via"] == "pointers" else (s, offs)
        )
        if stmt["mode"] in ("add", "addf"):  # atomic_add picks add / addf by the format
            old = yield atomic_add(target, where_, value, mask)
        else:
            old = yield atomic(stmt["mode"], target, where_, value, mask)
        env["olds"][j] = old
