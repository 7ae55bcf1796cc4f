"""Drawing a fuzzed kernel's expression tree: element-wise ops, math, comparisons and
``where``, conversions, reductions, shape ops, ``for`` / ``kloop`` / ``if`` (the node
table is in ``fuzz_kernels``' docstring).

:class:`TreeGen` draws one typed tree: ``expr(shape, fmt, depth)`` returns a node of
that type.  Narrow formats (tf32, fp8) take no arithmetic: their nodes are leaves,
conversions, ``where``, shape ops, loops and branches.  Scans, mma, pointer loads,
atomics' old values and the launch's shape queries come from the mixin in
``fuzz_tree_more``.
"""

from __future__ import annotations

from typing import Callable, Optional

from hypothesis import strategies as st

from fuzz_grammar import (
    COMBINERS,
    FLOAT_BINARY,
    FLOAT_UNARY,
    FLOATS,
    INT_BINARY,
    INT_CONSTS,
    INT_UNARY,
    INTS,
    MASK_BINARY,
    MAX_ELEMENTS,
    NARROW,
    PREDICATES,
    consts_of,
    convertible,
    ftof_modes,
    size,
)
from fuzz_tree_more import MoreNodes

__all__ = ["TreeGen"]


class TreeGen(MoreNodes):
    """Draws typed trees over a description's parameters (``params``)."""

    def __init__(self, draw: Callable, params: list, focus: Optional[str] = None):
        self.draw = draw
        self.params = params
        self.focus = focus
        self.ins = [
            (i, tuple(p["tile"]), p["format"])
            for i, p in enumerate(params)
            if p["role"] == "In" and "FREE" not in p["along"]
        ]
        self.kins = [
            (i, tuple(p["tile"]), p["format"])
            for i, p in enumerate(params)
            if p["role"] == "In" and "FREE" in p["along"]
        ]
        self.scalars = [(i, p["format"]) for i, p in enumerate(params) if p["role"] == "Scalar"]
        self.grid_rank = len(params[-1]["tile"])
        # per enclosing loop: (carried shape, carried fmt, the K cell's (shape, fmt) or None)
        self.scopes: list = []
        self.in_shapes = sorted({s for _, s, _ in self.ins + self.kins})
        self.olds: list = []  # (statement index, shape, fmt) of atomics' old values in scope
        self.forced: Optional[str] = None  # a node kind the next composite draw must be

    def sources(self) -> list:
        """Cells a leaf can read: the Ins' (loaded first), and the K cells of enclosing
        ``kloop``s."""
        out = [(["in", i], s, f) for i, s, f in self.ins]
        out += [
            (["kcell", level], k[0], k[1])
            for level, (_, _, k) in enumerate(self.scopes)
            if k is not None
        ]
        return out

    def pick(self, options: list, label: Optional[str] = None):
        return self.draw(st.sampled_from(options), label=label) if len(options) > 1 else options[0]

    # -- leaves ---------------------------------------------------------------------------
    def const(self, shape: tuple, fmt: str) -> list:
        if fmt == "i1":
            value = self.pick([False, True])
        elif fmt in FLOATS or fmt in NARROW:
            value = self.pick(consts_of(fmt))
        else:
            bits = int(fmt[1:])
            v = self.pick(list(INT_CONSTS))
            value = {"max": (1 << (bits - 1)) - 1, "min": -(1 << (bits - 1))}.get(v, v)
            value = max(min(value, (1 << (bits - 1)) - 1), -(1 << (bits - 1)))
        return ["const", fmt, value, list(shape)]

    def from_input(self, shape: tuple, fmt: str) -> list:
        """Ways to make ``(shape, fmt)`` straight from an In's cell: the cell itself, or a
        reduction, reshape, transpose or broadcast of it (then a conversion if needed)."""
        out = []
        for i, s, f in self.sources():
            if not (f == fmt or convertible(f, fmt)):
                continue
            if s == shape:
                out.append((i, f, None))
            if f not in NARROW:  # nothing reduces a narrow float
                for d in range(len(s)):
                    kept = s[:d] + (1,) + s[d + 1 :]
                    if kept == shape or s[:d] + s[d + 1 :] == shape:
                        out.append((i, f, ("reduce", d, kept == shape)))
            if s != shape and size(s) == size(shape) and len(shape) <= 2:
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
            options += self.query_options()
        if shape == ():
            options += [
                ("scalar", i, f) for i, f in self.scalars if f == fmt or convertible(f, fmt)
            ]
        if len(shape) == 1 and fmt in INTS and shape[0] > 1:
            options.append(("iota",))
        options += self.pointer_options(shape, fmt)
        choice = self.pick(options)
        kind = choice[0]
        if kind == "const":
            return self.const(shape, fmt)
        if kind == "scalar":
            node = [kind, choice[1]]
            return node if choice[2] == fmt else ["cvt", fmt, node]
        if kind == "carried":
            return ["carried", choice[1]]
        if kind in ("pload", "old"):
            return self.pointer_leaf(choice, shape, fmt)
        node = {
            "iv": lambda: ["iv", choice[1]],
            "block_id": lambda: ["block_id", choice[1]],
            "iota": lambda: ["iota", shape[0]],
            "query": lambda: list(choice[1]),
        }[kind]()
        return node if fmt == "i32" else ["cvt", fmt, node]

    # -- composite ------------------------------------------------------------------------
    def expr(self, shape: tuple, fmt: str, depth: int) -> list:
        if self.forced is not None:
            kind, self.forced = self.forced, None
            return getattr(self, f"_{kind}")(shape, fmt, max(depth - 1, 0))
        if depth <= 0:
            return self.leaf(shape, fmt)
        if fmt == "i1":
            kinds = ["leaf", "cmp", "cmp", "bin"]
        elif fmt in NARROW:  # no arithmetic on narrow floats: move, convert, select them
            kinds = ["leaf", "cvt", "cvt", "where", "shape", "for", "if"]
        else:  # element-wise ops drawn more often: they are most of a real kernel
            kinds = [
                "leaf",
                "bin",
                "un",
                "bin",
                "un",
                "where",
                "cvt",
                "reduce",
                "shape",
                "for",
                "if",
            ] + self.more_kinds(shape, fmt)
        if fmt != "i1":
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
        return [
            "where",
            m,
            self.expr(shape, fmt, depth),
            self.expr(self.operand_shape(shape), fmt, depth),
        ]

    def _cvt(self, shape, fmt, depth):
        sources = [f for f in FLOATS + INTS + ("i1",) + NARROW if f != fmt and convertible(f, fmt)]
        src = self.pick(sources)
        node = ["cvt", fmt, self.expr(shape, src, depth)]
        modes = ftof_modes(src, fmt)
        if len(modes) > 1 and self.draw(st.booleans(), label="rounding"):
            node.append(self.pick(list(modes), label="ftof rounding"))
        return node

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
        if size(child) > MAX_ELEMENTS:
            return self.leaf(shape, fmt)
        return ["reduce", comb, dim, keep, self.expr(tuple(child), fmt, depth)]

    def _shape(self, shape, fmt, depth):
        options = []
        if len(shape) == 2 and shape[0] != shape[1]:
            options.append(("permute", (shape[1], shape[0])))
        elif len(shape) == 2:
            options.append(("permute", shape))
        n = size(shape)
        for cand in [
            (n,),
            (n, 1),
            (1, n),
            (n // 2, 2) if n >= 2 else None,
            (2, n // 2) if n >= 2 else None,
        ] + list(self.in_shapes):
            if cand and size(cand) == n and tuple(cand) != shape and len(cand) <= 2:
                options.append(("reshape", tuple(cand)))
        if any(d > 1 for d in shape):
            options.append(("bcast", ()))
            options.append(
                ("bcast", tuple(1 if d > 1 and i == 0 else d for i, d in enumerate(shape)))
            )
            options.append(
                (
                    "bcast",
                    tuple(1 if d > 1 and i == len(shape) - 1 else d for i, d in enumerate(shape)),
                )
            )
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
            if fmt in FLOATS + INTS and self.draw(st.booleans()):
                ops = FLOAT_BINARY[:3] + ("max", "min") if fmt in FLOATS else ("add", "mul", "xor")
                return [
                    "bin",
                    self.pick(list(ops)),
                    ["carried", level],
                    self.expr(self.operand_shape(shape), fmt, depth),
                ]
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
