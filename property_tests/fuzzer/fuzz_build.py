"""Recording a fuzzer description: its markers, and a kernel body that builds its tree.

The body loads every In's cell first, runs the statements (pointer stores and atomics
into Shared buffers), builds the tree with tileir's public kernel API (operators on
tiles, ``tileir.exp`` ..., ``where``, ``convert``, ``reduce_*``, ``scan``, ``mma``,
``broadcast`` / ``reshape`` / ``permute``, ``load`` through the pointer path,
``extent`` / ``cells_along`` / ``num_blocks``, ``for_range`` and ``if_`` as effects) and
stores the value in the Out's cell.
"""

from __future__ import annotations

from typing import Callable

import tileir
from fuzz_build_more import build_more, run_statements
from tileir import (
    DYN_DIM,
    FREE_AXIS,
    I32,
    In,
    Out,
    Scalar,
    Shared,
    absolute,
    block_id,
    broadcast,
    cells,
    cells_along,
    constant,
    convert,
    equal,
    for_range,
    if_,
    iota,
    load_at,
    load_cell,
    maximum,
    minimum,
    not_equal,
    permute,
    reduce_max,
    reduce_min,
    reduce_prod,
    reduce_sum,
    reshape,
    scalar,
    store_cell,
    where,
)
from tileir.types import Format

__all__ = ["build", "markers_of", "k_trips", "FMT"]


def k_trips(p: dict) -> int:
    """How many cells a K input has along its FREE_AXIS dimension."""
    d = p["along"].index("FREE")
    return -(-p["extent"][d] // p["tile"][d])


FMT = {
    n: Format(n)
    for n in (
        "f32",
        "f64",
        "f16",
        "bf16",
        "i32",
        "i8",
        "i16",
        "i64",
        "i1",
        "tf32",
        "f8E4M3FN",
        "f8E5M2",
    )
}
_FMT = FMT


def markers_of(desc: dict) -> tuple:
    """The description's parameters as markers (``"FREE"`` in ``along`` is FREE_AXIS,
    ``dyn`` dimensions are DYN_DIM)."""
    out = []
    for p in desc["params"]:
        fmt = _FMT[p["format"]]
        if p["role"] == "Scalar":
            out.append(Scalar(fmt))
            continue
        if p["role"] == "Shared":
            out.append(Shared(fmt))
            continue
        along = [FREE_AXIS if a == "FREE" else a for a in p["along"]]
        dyn = p.get("dyn") or [False] * len(p["extent"])
        extent = [DYN_DIM if d else e for e, d in zip(p["extent"], dyn)]
        c = cells(extent, p["tile"], along, p.get("pad", "zero"))
        out.append(In(fmt, c) if p["role"] == "In" else Out(fmt, c))
    return tuple(out)


_UNARY = {
    "neg": lambda x: -x,
    "abs": absolute,
    "exp": tileir.exp,
    "exp2": tileir.exp2,
    "log": tileir.log,
    "log2": tileir.log2,
    "sqrt": tileir.sqrt,
    "rsqrt": tileir.rsqrt,
    "sin": tileir.sin,
    "cos": tileir.cos,
    "tanh": tileir.tanh,
    "sinh": tileir.sinh,
    "cosh": tileir.cosh,
    "floor": tileir.floor,
    "ceil": tileir.ceil,
}
_BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "floordiv": lambda a, b: a // b,
    "rem": lambda a, b: a % b,
    "max": maximum,
    "min": minimum,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "shl": lambda a, b: a << b,
    "shr": lambda a, b: a >> b,
}
_COMPARE = {
    "equal": equal,
    "not_equal": not_equal,
    "less_than": lambda a, b: a < b,
    "less_than_or_equal": lambda a, b: a <= b,
    "greater_than": lambda a, b: a > b,
    "greater_than_or_equal": lambda a, b: a >= b,
}
_REDUCE = {"sum": reduce_sum, "max": reduce_max, "min": reduce_min, "prod": reduce_prod}


def _build(node, env: dict):
    """Record ``node`` (a generator: loops and branches are effects)."""
    kind = node[0]
    if kind == "in":
        return env["loaded"][node[1]]
    if kind == "scalar":
        return scalar(env["params"][node[1]])
    if kind == "const":
        return constant(node[2], _FMT[node[1]], tuple(node[3]))
    if kind == "block_id":
        return block_id(node[1])
    if kind == "iota":
        return iota(node[1])
    if kind in ("iv", "carried", "kcell"):
        return env["scopes"][node[1]][("iv", "carried", "kcell").index(kind)]
    if kind == "un":
        return _UNARY[node[1]]((yield from _build(node[2], env)))
    if kind == "bin":
        a = yield from _build(node[2], env)
        b = yield from _build(node[3], env)
        return _BINARY[node[1]](a, b)
    if kind == "cmp":
        a = yield from _build(node[2], env)
        b = yield from _build(node[3], env)
        return _COMPARE[node[1]](a, b)
    if kind == "where":
        m = yield from _build(node[1], env)
        a = yield from _build(node[2], env)
        b = yield from _build(node[3], env)
        return where(m, a, b)
    if kind == "cvt":
        rounding = node[3] if len(node) > 3 else None
        return convert((yield from _build(node[2], env)), _FMT[node[1]], rounding=rounding)
    if kind == "reduce":
        x = yield from _build(node[4], env)
        return _REDUCE[node[1]](x, node[2], keepdims=bool(node[3]))
    if kind == "bcast":
        return broadcast((yield from _build(node[2], env)), tuple(node[1]))
    if kind == "reshape":
        return reshape((yield from _build(node[2], env)), tuple(node[1]))
    if kind == "permute":
        return permute((yield from _build(node[2], env)), tuple(node[1]))
    if kind == "for":
        axis, c = node[1]
        upper = constant(c, I32) if axis is None else block_id(axis) + c
        init = yield from _build(node[2], env)

        def body(k, carried):
            inner = dict(env, scopes=env["scopes"] + [(k, carried, None)])
            return (yield from _build(node[3], inner))

        return (yield for_range(0, upper, body, init=init))
    if kind == "kloop":
        p = env["params"][node[1]]
        desc_p = env["desc"]["params"][node[1]]
        free = desc_p["along"].index("FREE")
        dyn = (desc_p.get("dyn") or [False] * len(desc_p["along"]))[free]
        # a DYN_DIM K extent is known at launch: the trip count is its cell count
        trips = cells_along(p, free) if dyn else k_trips(desc_p)
        init = yield from _build(node[2], env)

        def k_body(k, carried):
            cell = yield load_at(p, [k])
            inner = dict(env, scopes=env["scopes"] + [(k, carried, cell)])
            return (yield from _build(node[3], inner))

        return (yield for_range(0, trips, k_body, init=init))
    if kind == "if":
        cond = yield from _build(node[1], env)

        def then():
            return (yield from _build(node[2], env))

        def else_():
            return (yield from _build(node[3], env))

        return (yield if_(cond, then, else_))
    return (yield from build_more(node, env, _build))


def build(desc: dict) -> tuple[Callable, tuple]:
    """``(body, markers)`` of a description: ``trace(name, body, *markers)`` records it."""
    markers = markers_of(desc)
    ins = [
        i for i, p in enumerate(desc["params"]) if p["role"] == "In" and "FREE" not in p["along"]
    ]

    def fuzzed(*params):
        loaded = {}
        for i in ins:
            loaded[i] = yield load_cell(params[i])
        env = {"params": params, "loaded": loaded, "scopes": [], "desc": desc, "olds": {}}
        yield from run_statements(desc.get("stmts", ()), env, _build)
        value = yield from _build(desc["expr"], env)
        yield store_cell(params[-1], value)

    return fuzzed, markers
