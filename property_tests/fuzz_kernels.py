"""The kernel fuzzer's strategy: random well-typed kernels as small JSON descriptions.

A description (a dict that ``json`` round-trips) holds the kernel's parameters
(Ins with their own cells, Scalars, one Out) and one expression tree whose value
the kernel stores in its Out cell.  :func:`kernel_descriptions` draws them;
:func:`fuzz_build.build` turns one into a kernel body and markers (``trace`` records it);
``fuzz_oracle.evaluate`` computes what the launch must leave in the Out.

Parameters: 1 to 3 Ins, maybe a "K input" (an In with one FREE_AXIS dimension, read
by ``kloop``), 0 or 1 Scalar, then the Out.  The grid is 1-D or 2-D; each
In's cells give as many cells per grid axis as the Out's (their tiles and extents
may differ, and a 1-D In may follow either axis of a 2-D grid), with extents that
usually stop inside the last cell, and any padding for float Ins.

Tree nodes (lists; the first item names the node):

=====================================  ===============================================
``["in", i]``                          the cell of parameter ``i`` (loaded at the start)
``["scalar", i]``                      the Scalar parameter ``i``
``["const", fmt, value, shape]``       a constant tile
``["block_id", axis]`` / ``["iota", n]``  ``tile<i32>`` / ``tile<n x i32>``
``["iv", L]`` / ``["carried", L]``     loop ``L``'s induction variable / carried value
                                       (``L`` counts enclosing loops from the outermost)
``["un", op, x]``                      neg abs exp exp2 log log2 sqrt rsqrt sin cos tanh
                                       sinh cosh floor ceil (floats); neg abs (ints)
``["bin", op, a, b]``                  add sub mul div rem max min (floats); also
                                       floordiv and or xor shl shr (ints); and or xor (i1)
``["cmp", pred, a, b]``                equal not_equal less_than ... (an i1 mask)
``["where", m, a, b]``                 select
``["cvt", fmt, x]``                    convert (ftof, itof, ftoi, exti, trunci)
``["reduce", comb, dim, keepdims, x]`` sum prod max min along ``dim``
``["bcast", shape, x]`` / ``["reshape", shape, x]`` / ``["permute", perm, x]``
``["for", [axis, c], init, body]``     ``for_range(0, c (+ block_id(axis)), ...)`` carrying
                                       one value; ``body`` may use ``iv`` / ``carried``
``["kloop", i, init, body]``           a loop over the cells of In ``i`` along its FREE_AXIS
                                       dimension; ``["kcell", L]`` is loop ``L``'s cell
                                       (``load_at(p, [k])``)
``["if", cond, then, else]``           ``if_`` on a rank-0 i1 condition
=====================================  ===============================================

Binary operands and ``where`` / ``cmp`` operands may have the result's rank with
dimensions of 1, or rank 0: the recorder widens them.

Excluded from the drawn space (see EXCLUDED): conversions from float formats into ``i1``
(a mask comes from a comparison; ``ftoi`` into one bit has no numeric meaning to check).
"""

from __future__ import annotations

import math
from typing import Callable, Optional

from hypothesis import strategies as st

__all__ = ["kernel_descriptions", "FLOATS", "INTS", "EXCLUDED", "MAX_ELEMENTS"]

FLOATS = ("f32", "f64", "f16", "bf16")
INTS = ("i32", "i8", "i16", "i64")
FLOAT_UNARY = ("neg", "abs", "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos",
               "tanh", "sinh", "cosh", "floor", "ceil")
INT_UNARY = ("neg", "abs")
FLOAT_BINARY = ("add", "sub", "mul", "div", "rem", "max", "min")
INT_BINARY = ("add", "sub", "mul", "div", "floordiv", "rem", "max", "min", "and", "or", "xor",
              "shl", "shr")
MASK_BINARY = ("and", "or", "xor")
PREDICATES = ("less_than", "equal", "not_equal", "less_than_or_equal", "greater_than",
              "greater_than_or_equal")
COMBINERS = ("sum", "max", "min", "prod")
PADS = ("zero", "neg_zero", "nan", "pos_inf", "neg_inf")
#: The most elements any tile of a drawn kernel holds (keeps each example cheap).
MAX_ELEMENTS = 512
#: What the drawn space leaves out, and why (the report repeats it).
EXCLUDED = {
    "float -> i1 conversions": "a mask comes from a comparison; ftoi into one bit has no "
                               "numeric meaning for the oracle to check",
}

_FLOAT_CONSTS = (0.0, 1.0, -1.0, 0.5, 2.0, -0.0, 3.0, -2.5, 1e-3, 100.0, math.inf,
                 -math.inf, math.nan)
_INT_CONSTS = (0, 1, -1, 2, 3, 7, -8, 100, "max", "min")


def _fit(tile: list) -> list:
    """Halve the largest dimension until the tile holds at most MAX_ELEMENTS."""
    tile = list(tile)
    while _size(tile) > MAX_ELEMENTS:
        d = tile.index(max(tile))
        tile[d] //= 2
    return tile


def _size(shape) -> int:
    out = 1
    for d in shape:
        out *= d
    return out


# ----------------------------------------------------------------------------- parameters


@st.composite
def _params(draw) -> list:
    rank = draw(st.sampled_from([1, 2]), label="grid rank")
    dims = [1, 2, 4, 8, 16, 32] if rank == 2 else [1, 2, 4, 8, 16, 32, 64, 128]
    tile = _fit([draw(st.sampled_from(dims)) for _ in range(rank)])
    counts = [draw(st.integers(1, 3)) for _ in range(rank)]

    def extent_for(t: int, c: int) -> int:
        return draw(st.integers((c - 1) * t + 1, c * t))

    out_fmt = draw(st.sampled_from(FLOATS + INTS), label="out format")
    params = []
    for _ in range(draw(st.integers(1, 3), label="ins")):
        fmt = out_fmt if draw(st.sampled_from(["out's format", "own format"])) == \
            "out's format" else draw(st.sampled_from(FLOATS + INTS))
        if rank == 2 and draw(st.booleans()):
            axis = draw(st.sampled_from([0, 1]))  # a 1-D In following one grid axis
            along = [axis]
        else:
            along = list(range(rank))
        if draw(st.sampled_from(["out's tile", "own tile"])) == "out's tile":
            t = [tile[a] for a in along]
        else:
            t = _fit([draw(st.sampled_from(dims)) for _ in along])
        ext = [extent_for(tt, counts[a]) for tt, a in zip(t, along)]
        pad = draw(st.sampled_from(PADS)) if fmt in FLOATS else "zero"
        params.append({"role": "In", "format": fmt, "extent": ext, "tile": t, "along": along,
                       "pad": pad})
    if draw(st.sampled_from(["no K input", "K input"]), label="K input") == "K input":
        # an In read along a FREE_AXIS dimension by a loop over its cells (load_at)
        fmt = draw(st.sampled_from(FLOATS + INTS))
        axis = draw(st.sampled_from(list(range(rank))))
        if draw(st.sampled_from(["out's tile", "own tile"])) == "out's tile":
            # the K cell then lines up with the Out's cell (rank 2) or reduces onto it
            t_grid = tile[axis]
            t_k = tile[1 - axis] if rank == 2 else draw(st.sampled_from(dims))
        else:
            t_grid, t_k = draw(st.sampled_from(dims)), draw(st.sampled_from(dims))
        t_grid, t_k = _fit([t_grid, t_k])
        k_cells = draw(st.integers(1, 3))
        ext = [extent_for(t_grid, counts[axis]), extent_for(t_k, k_cells)]
        free_first = rank == 2 and axis == 1
        params.append({"role": "In", "format": fmt,
                       "extent": ext[::-1] if free_first else ext,
                       "tile": [t_k, t_grid] if free_first else [t_grid, t_k],
                       "along": ["FREE", 1] if free_first else [axis, "FREE"],
                       "pad": draw(st.sampled_from(PADS)) if fmt in FLOATS else "zero"})
    if draw(st.booleans(), label="scalar"):
        params.append({"role": "Scalar", "format": draw(st.sampled_from(FLOATS + INTS))})
    params.append({"role": "Out", "format": out_fmt,
                   "extent": [extent_for(t, c) for t, c in zip(tile, counts)], "tile": tile,
                   "along": list(range(rank))})
    return params


# ----------------------------------------------------------------------------- trees


class _Gen:
    """Draws one typed tree; ``expr(shape, fmt, depth)`` returns a node of that type."""

    def __init__(self, draw: Callable, params: list):
        self.draw = draw
        self.params = params
        self.ins = [(i, tuple(p["tile"]), p["format"]) for i, p in enumerate(params)
                    if p["role"] == "In" and "FREE" not in p["along"]]
        self.kins = [(i, tuple(p["tile"]), p["format"]) for i, p in enumerate(params)
                     if p["role"] == "In" and "FREE" in p["along"]]
        self.scalars = [(i, p["format"]) for i, p in enumerate(params) if p["role"] == "Scalar"]
        self.grid_rank = len(params[-1]["tile"])
        # per enclosing loop: (carried shape, carried fmt, the K cell's (shape, fmt) or None)
        self.scopes: list = []
        self.in_shapes = sorted({s for _, s, _ in self.ins + self.kins})

    def sources(self) -> list:
        """Cells a leaf can read: the Ins' (loaded first), and the K cells of enclosing
        ``kloop``s."""
        out = [(["in", i], s, f) for i, s, f in self.ins]
        out += [(["kcell", level], k[0], k[1]) for level, (_, _, k) in enumerate(self.scopes)
                if k is not None]
        return out

    def pick(self, options: list, label: Optional[str] = None):
        return self.draw(st.sampled_from(options), label=label) if len(options) > 1 \
            else options[0]

    # -- leaves ---------------------------------------------------------------------------
    def const(self, shape: tuple, fmt: str) -> list:
        if fmt == "i1":
            value = self.pick([False, True])
        elif fmt in FLOATS:
            value = self.pick(list(_FLOAT_CONSTS))
        else:
            bits = int(fmt[1:])
            v = self.pick(list(_INT_CONSTS))
            value = {"max": (1 << (bits - 1)) - 1, "min": -(1 << (bits - 1))}.get(v, v)
            value = max(min(value, (1 << (bits - 1)) - 1), -(1 << (bits - 1)))
        return ["const", fmt, value, list(shape)]

    def from_input(self, shape: tuple, fmt: str) -> list:
        """Ways to make ``(shape, fmt)`` straight from an In's cell: the cell itself, or a
        reduction, reshape, transpose or broadcast of it (then a conversion if needed)."""
        out = []
        for i, s, f in self.sources():
            if not (f == fmt or _convertible(f, fmt)):
                continue
            if s == shape:
                out.append((i, f, None))
            for d in range(len(s)):
                kept = s[:d] + (1,) + s[d + 1:]
                if kept == shape or s[:d] + s[d + 1:] == shape:
                    out.append((i, f, ("reduce", d, kept == shape)))
            if s != shape and _size(s) == _size(shape) and len(shape) <= 2:
                out.append((i, f, ("reshape",)))
            if len(s) == 2 and s[::-1] == shape and s != shape:
                out.append((i, f, ("permute",)))
            if s != shape and len(s) == len(shape) and all(a in (1, b) for a, b in zip(s, shape)):
                out.append((i, f, ("bcast",)))
        return out

    def input_leaf(self, shape: tuple, fmt: str, how: tuple) -> list:
        node, f, adapt = how
        if adapt is not None:
            if adapt[0] == "reduce":
                if f == "i1":
                    node = ["cvt", "i32", node]
                node = ["reduce", self.pick(list(COMBINERS)), adapt[1], adapt[2], node]
            elif adapt[0] == "permute":
                node = ["permute", [1, 0], node]
            else:
                node = [adapt[0], list(shape), node]
        return node if f == fmt else ["cvt", fmt, node]

    def leaf(self, shape: tuple, fmt: str) -> list:
        inputs = self.from_input(shape, fmt)
        if inputs and self.pick(["input", "input", "input", "other"]) == "input":
            same = [h for h in inputs if h[1] == fmt]  # unconverted first
            if same and self.pick(["same format", "any"]) == "same format":
                inputs = same
            return self.input_leaf(shape, fmt, self.pick(inputs))
        options = [("const",)]
        for level, (s, f, _) in enumerate(self.scopes):
            if s == shape and f == fmt:
                options.append(("carried", level))
            if shape == () and fmt in INTS:
                options.append(("iv", level))
        if shape == () and fmt in INTS:
            options += [("block_id", a) for a in range(self.grid_rank)]
        if shape == ():
            options += [("scalar", i, f) for i, f in self.scalars if f == fmt or
                        _convertible(f, fmt)]
        if len(shape) == 1 and fmt in INTS and shape[0] > 1:
            options.append(("iota",))
        choice = self.pick(options)
        kind = choice[0]
        if kind == "const":
            return self.const(shape, fmt)
        if kind == "scalar":
            node = [kind, choice[1]]
            return node if choice[2] == fmt else ["cvt", fmt, node]
        if kind == "carried":
            return ["carried", choice[1]]
        node = {"iv": lambda: ["iv", choice[1]], "block_id": lambda: ["block_id", choice[1]],
                "iota": lambda: ["iota", shape[0]]}[kind]()
        return node if fmt == "i32" else ["cvt", fmt, node]

    # -- composite ------------------------------------------------------------------------
    def expr(self, shape: tuple, fmt: str, depth: int) -> list:
        if depth <= 0:
            return self.leaf(shape, fmt)
        if fmt == "i1":
            kinds = ["leaf", "cmp", "cmp", "bin"]
        else:  # element-wise ops drawn more often: they are most of a real kernel
            kinds = ["leaf", "bin", "un", "bin", "un", "where", "cvt", "reduce", "shape",
                     "for", "if"]
            if self.kins:
                kinds.append("kloop")
            if len(self.scopes) >= 2:
                kinds = [k for k in kinds if k not in ("for", "kloop")]
        kind = self.pick(kinds, label="node")
        return getattr(self, f"_{kind}")(shape, fmt, depth - 1)

    def _leaf(self, shape, fmt, depth):
        return self.leaf(shape, fmt)

    def operand_shape(self, shape: tuple) -> tuple:
        """The result shape, or one that widens to it (dimensions of 1, or rank 0)."""
        how = self.pick(["same", "same", "ones", "rank0"]) if shape else "same"
        if how == "rank0":
            return ()
        if how == "ones":
            return tuple(1 if self.draw(st.booleans()) else d for d in shape)
        return shape

    def _bin(self, shape, fmt, depth):
        table = MASK_BINARY if fmt == "i1" else FLOAT_BINARY if fmt in FLOATS else INT_BINARY
        op = self.pick(list(table))
        a = self.expr(shape, fmt, depth)
        b = self.expr(self.operand_shape(shape), fmt, depth)
        if self.draw(st.booleans()):
            a, b = b, a  # the narrow operand on either side
        return ["bin", op, a, b]

    def _cmp(self, shape, fmt, depth):
        operand_fmt = self.pick(list(FLOATS + INTS))
        pred = self.pick(list(PREDICATES))
        a = self.expr(shape, operand_fmt, depth)
        b = self.expr(self.operand_shape(shape), operand_fmt, depth)
        return ["cmp", pred, a, b]

    def _un(self, shape, fmt, depth):
        op = self.pick(list(FLOAT_UNARY if fmt in FLOATS else INT_UNARY))
        return ["un", op, self.expr(shape, fmt, depth)]

    def _where(self, shape, fmt, depth):
        m = self.expr(self.operand_shape(shape), "i1", depth)
        return ["where", m, self.expr(shape, fmt, depth),
                self.expr(self.operand_shape(shape), fmt, depth)]

    def _cvt(self, shape, fmt, depth):
        sources = [f for f in FLOATS + INTS + ("i1",) if f != fmt and _convertible(f, fmt)]
        src = self.pick(sources)
        return ["cvt", fmt, self.expr(shape, src, depth)]

    def _reduce(self, shape, fmt, depth):
        comb = self.pick(list(COMBINERS))
        options = []
        for d, n in enumerate(shape):
            if n == 1:
                options.append((d, True))
        if len(shape) <= 1:
            options += [(d, False) for d in range(len(shape) + 1)]
        if not options:
            return self.leaf(shape, fmt)
        dim, keep = self.pick(options)
        sizes = sorted({s[dim] if len(s) > dim else 1 for s in self.in_shapes} | {2, 8})
        n = self.pick([s for s in sizes if s > 1] or [2])
        child = list(shape)
        if keep:
            child[dim] = n
        else:
            child.insert(dim, n)
        if _size(child) > MAX_ELEMENTS:
            return self.leaf(shape, fmt)
        return ["reduce", comb, dim, keep, self.expr(tuple(child), fmt, depth)]

    def _shape(self, shape, fmt, depth):
        options = []
        if len(shape) == 2 and shape[0] != shape[1]:
            options.append(("permute", (shape[1], shape[0])))
        elif len(shape) == 2:
            options.append(("permute", shape))
        n = _size(shape)
        for cand in [(n,), (n, 1), (1, n), (n // 2, 2) if n >= 2 else None,
                     (2, n // 2) if n >= 2 else None] + list(self.in_shapes):
            if cand and _size(cand) == n and tuple(cand) != shape and len(cand) <= 2:
                options.append(("reshape", tuple(cand)))
        if any(d > 1 for d in shape):
            options.append(("bcast", ()))
            options.append(("bcast", tuple(1 if d > 1 and i == 0 else d
                                           for i, d in enumerate(shape))))
            options.append(("bcast", tuple(1 if d > 1 and i == len(shape) - 1 else d
                                           for i, d in enumerate(shape))))
        if not options:
            return self.leaf(shape, fmt)
        kind, child = self.pick(options)
        if kind == "permute":
            return ["permute", [1, 0], self.expr(child, fmt, depth)]
        return [kind, list(shape), self.expr(child, fmt, depth)]

    def _for(self, shape, fmt, depth):
        axis = self.pick([None] + list(range(self.grid_rank)))
        trips = [axis, self.draw(st.integers(0, 3))]
        init = self.expr(shape, fmt, depth)
        return ["for", trips, init, self.loop_body(shape, fmt, depth, None)]

    def loop_body(self, shape, fmt, depth, kcell) -> list:
        self.scopes.append((shape, fmt, kcell))
        try:
            level = len(self.scopes) - 1
            if fmt != "i1" and self.draw(st.booleans()):
                ops = FLOAT_BINARY[:3] + ("max", "min") if fmt in FLOATS else ("add", "mul", "xor")
                return ["bin", self.pick(list(ops)), ["carried", level],
                        self.expr(self.operand_shape(shape), fmt, depth)]
            return self.expr(shape, fmt, depth)
        finally:
            self.scopes.pop()

    def _kloop(self, shape, fmt, depth):
        i, s, f = self.pick(self.kins)
        init = self.expr(shape, fmt, depth)
        return ["kloop", i, init, self.loop_body(shape, fmt, depth, (s, f))]

    def _if(self, shape, fmt, depth):
        cond = self.expr((), "i1", depth)
        return ["if", cond, self.expr(shape, fmt, depth), self.expr(shape, fmt, depth)]


def _convertible(src: str, dst: str) -> bool:
    """Masks convert to integers and floats (unsigned: true is 1), and come from integers
    only (trunci); see EXCLUDED."""
    if src == "i1":
        return dst in INTS or dst in FLOATS
    if dst == "i1":
        return src in INTS
    return True


@st.composite
def kernel_descriptions(draw, max_depth: int = 5) -> dict:
    """A random well-typed kernel description (see the module docstring)."""
    params = draw(_params())
    gen = _Gen(draw, params)
    out = params[-1]
    depth = draw(st.integers(2, max_depth), label="depth")
    expr = gen.expr(tuple(out["tile"]), out["format"], depth)
    return {"version": 1, "params": params, "expr": expr}
