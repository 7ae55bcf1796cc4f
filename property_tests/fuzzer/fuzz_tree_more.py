"""The fuzzer's newer tree nodes and its statements (a mixin of ``fuzz_tree.TreeGen``).

* ``["scan", comb, dim, reverse, x]``: an inclusive scan (floats: sum prod max min;
  integers also and or xor).
* ``["mma", in_fmt, fast_acc, [signed_a, signed_b], a, b, acc]``: ``a @ b + acc`` over
  the dialect's format pairs (``fuzz_grammar.MMA_PAIRS``).
* ``["query", what, ...]``: the launch's shape as ``tile<i32>``: ``["extent", p, d]``,
  ``["ncells", p, d]`` (``extent`` / ``cells_along``, given at launch for a DYN_DIM) and
  ``["nblocks", axis]``.
* ``["pload", s, lanes]``: a pointer load from the read-only Shared ``s`` at this block's
  window; ``["old", j]``: what the lanes of statement ``j`` (an atomic) found.

``lanes`` says which elements of a window a tile of ``shape`` touches: lane ``i`` (row-
major) at ``(i * a + c) % m`` (``via`` offsets: ``load(s, offsets=...)``; ``via``
pointers: ``load(offset(address(s), ...))``), or at ``at + sum(index * strides)`` (``via``
strided); ``mask = [q, r]`` keeps lanes with ``i % q < r`` (masked-off lanes read ``pad``,
and with ``oob`` point a million elements past the buffer: nothing may touch them).

Statements (``desc["stmts"]``, run after the loads and before the Out's store):
``{"kind": "store", ...}`` writes a value tree through ``lanes`` into a store Shared
(distinct elements per lane, a window per block); ``{"kind": "atomic", "mode", ...}``
combines one into an atomic Shared, lanes and blocks colliding as they fall.
"""

from __future__ import annotations

from hypothesis import strategies as st

from fuzz_grammar import (
    ATOMIC_FLOAT,
    ATOMIC_INT,
    FLOATS,
    INTS,
    MAX_ELEMENTS,
    MMA_PAIRS,
    PLOAD_VIA,
    SCAN_FLOAT,
    SCAN_INT,
    consts_of,
    convertible,
    size,
)

__all__ = ["MoreNodes"]

_PAD_INTS = (0, -1, 7)


class MoreNodes:
    """Scans, mma, shape queries, pointer loads and statements for ``TreeGen``."""

    # -- kinds ----------------------------------------------------------------------------
    def more_kinds(self, shape: tuple, fmt: str) -> list:
        kinds = []
        if shape and (fmt in FLOATS or fmt in INTS):
            kinds.append("scan")
        if len(shape) == 2 and fmt in MMA_PAIRS:
            kinds.append("mma")
        if shape and self.shareds("read"):
            kinds.append("ptr")
        if any(any(p.get("dyn") or ()) for p in self.params):
            kinds.append("query")
        return kinds

    def _query(self, shape, fmt, depth):
        """A tree that uses the launch's shape: ``x op query`` (or a select on a comparison
        with it, for formats without arithmetic)."""
        q = list(self.pick([o[1] for o in self.query_options()], label="query"))
        if fmt in FLOATS or fmt in INTS:
            op = self.pick(["add", "sub", "mul", "max", "min"])
            return [
                "bin",
                op,
                self.expr(shape, fmt, depth),
                q if fmt == "i32" else ["cvt", fmt, q],
            ]
        bound = self.draw(st.integers(1, 64), label="query bound")
        cond = ["cmp", "less_than", q, ["const", "i32", bound, []]]
        return ["where", cond, self.expr(shape, fmt, depth), self.expr(shape, fmt, depth)]

    def _scan(self, shape, fmt, depth):
        if not shape or fmt not in FLOATS + INTS:
            return self.leaf(shape, fmt)
        comb = self.pick(list(SCAN_FLOAT if fmt in FLOATS else SCAN_INT))
        dim = self.pick(list(range(len(shape))))
        reverse = self.draw(st.booleans())
        return ["scan", comb, dim, reverse, self.expr(shape, fmt, depth)]

    def _mma(self, shape, fmt, depth):
        if len(shape) != 2 or fmt not in MMA_PAIRS:
            return self.leaf(shape, fmt)
        m, n = shape
        ks = sorted({1, 2, 4, 8, 16} | {d for s in self.in_shapes for d in s})
        ks = [k for k in ks if m * k <= MAX_ELEMENTS and k * n <= MAX_ELEMENTS]
        k = self.pick(ks, label="mma k")
        in_fmt = self.pick(list(MMA_PAIRS[fmt]), label="mma factors")
        fast = in_fmt not in ("f64", "i8") and self.draw(st.booleans(), label="fast_acc")
        signs = (
            [self.draw(st.booleans()), self.draw(st.booleans())]
            if in_fmt == "i8"
            else [True, True]
        )
        a = self.expr((m, k), in_fmt, depth)
        b = self.expr((k, n), in_fmt, depth)
        acc = self.expr(shape, fmt, depth)
        return ["mma", in_fmt, fast, signs, a, b, acc]

    def _ptr(self, shape, fmt, depth):
        """A pointer load of this type (a read Shared's values, converted if need be),
        maybe selected against another tree."""
        options = self.pointer_options(shape, fmt)
        loads = [o for o in options if o[0] == "pload"]
        if not loads:
            return self.expr(shape, fmt, depth)
        node = self.pointer_leaf(self.pick(loads), shape, fmt)
        if depth > 0 and self.draw(st.booleans()):
            m = self.expr(self.operand_shape(shape), "i1", depth)
            return ["where", m, node, self.expr(self.operand_shape(shape), fmt, depth)]
        return node

    # -- leaves ---------------------------------------------------------------------------
    def query_options(self) -> list:
        """Rank-0 i32 leaves that ask the launch's shape: every DYN_DIM extent and cell
        count, the Out's extents, and the grid (when the launch gives it)."""
        out = []
        for i, p in enumerate(self.params):
            if p["role"] not in ("In", "Out"):
                continue
            for d, dyn in enumerate(p.get("dyn") or [False] * len(p["tile"])):
                if dyn or p["role"] == "Out":
                    out.append(("query", ["query", "extent", i, d]))
                    out.append(("query", ["query", "ncells", i, d]))
        if any(any(p.get("dyn") or ()) for p in self.params):
            out += [("query", ["query", "nblocks", a]) for a in range(self.grid_rank)]
        return out

    def shareds(self, use: str) -> list:
        return [
            (i, p) for i, p in enumerate(self.params) if p["role"] == "Shared" and p["use"] == use
        ]

    def pointer_options(self, shape: tuple, fmt: str) -> list:
        out = []
        if shape and len(shape) <= 2:
            out += [
                ("pload", i, p["format"])
                for i, p in self.shareds("read")
                if p["format"] == fmt or convertible(p["format"], fmt)
            ]
        out += [
            ("old", j, f)
            for j, s, f in self.olds
            if s == shape and (f == fmt or convertible(f, fmt))
        ]
        return out

    def pointer_leaf(self, choice: tuple, shape: tuple, fmt: str) -> list:
        kind, index, f = choice
        if kind == "old":
            node = ["old", index]
        else:
            window = self.params[index]["window"]
            node = ["pload", index, self.lanes(shape, window, f, distinct=False, load=True)]
        return node if f == fmt else ["cvt", fmt, node]

    def lanes(
        self, shape: tuple, window: int, fmt: str, *, distinct: bool, load: bool, vias=PLOAD_VIA
    ) -> dict:
        """Which elements of a ``window`` a tile of ``shape`` touches (module docstring);
        ``distinct``: every lane its own element."""
        n = size(shape)
        via = self.pick(list(vias), label="via")
        strides = self._strides(shape, window, distinct) if via == "strided" else None
        if via == "strided" and strides is None:
            via = "offsets"
        c = self.draw(st.integers(0, window - 1))
        if strides is not None:  # the strided tile starts c elements into the window
            span = sum((d - 1) * st_ for d, st_ in zip(shape, strides))
            c = min(c, window - 1 - span)
        if distinct:
            a, m = self.pick([1, 3, 5, 7]), window  # odd a, power-of-two m: a permutation
        else:
            a = self.pick([0, 1, 2, 3, 5])
            m = self.pick(sorted({1, 2, 3, 4, max(1, window // 2), window}))
        spec = {
            "shape": list(shape),
            "via": via,
            "a": a,
            "c": c,
            "m": m,
            "strides": strides,
            "mask": None,
            "oob": False,
            "pad": None,
        }
        if n > 1 and self.draw(st.booleans(), label="masked"):
            q = self.pick([2, 3, 4])
            spec["mask"] = [q, self.draw(st.integers(1, q - 1))]
            spec["oob"] = via != "strided" and self.draw(st.booleans(), label="oob")
            if load:
                spec["pad"] = self.pick(list(_PAD_INTS) if fmt in INTS else consts_of(fmt))
        return spec

    def _strides(self, shape: tuple, window: int, distinct: bool):
        """Element strides that keep a tile of ``shape`` inside the window (one element per
        lane when ``distinct``), or None."""
        if len(shape) == 1:
            top = (window - 1) // max(shape[0] - 1, 1)
            lo = 1 if distinct else 0
            return [self.pick(list(range(lo, min(top, 3) + 1)))] if top >= lo else None
        rows, cols = shape
        inner = 1
        outer = cols if distinct else self.pick([0, 1, cols])
        if (rows - 1) * outer + (cols - 1) * inner >= window:
            return None
        return [outer, inner]

    # -- statements -----------------------------------------------------------------------
    def statements(self, depth: int) -> list:
        """One statement per store / atomic Shared; their old values become leaves."""
        stmts = []
        for i, p in self.shareds("store") + self.shareds("atomic"):
            window, fmt = p["window"], p["format"]
            candidates = [
                s
                for s in self.in_shapes
                + [tuple(self.params[-1]["tile"]), (window,), (2, window // 2)]
                if s and size(s) <= window and len(s) <= 2 and size(s) > 0
            ]
            shape = self.pick(sorted(set(candidates)), label="statement shape")
            d = self.draw(st.integers(0, min(depth, 2)), label="statement depth")
            if p["use"] == "store":
                lanes = self.lanes(shape, window, fmt, distinct=True, load=False)
                stmts.append(
                    {
                        "kind": "store",
                        "param": i,
                        "lanes": lanes,
                        "value": self.expr(shape, fmt, d),
                    }
                )
            else:
                mode = self.pick(list(ATOMIC_INT if fmt in INTS else ATOMIC_FLOAT))
                lanes = self.lanes(
                    shape, window, fmt, distinct=False, load=False, vias=("offsets", "pointers")
                )
                stmts.append(
                    {
                        "kind": "atomic",
                        "param": i,
                        "mode": mode,
                        "lanes": lanes,
                        "value": self.expr(shape, fmt, d),
                    }
                )
                self.olds.append((len(stmts) - 1, shape, fmt))
        return stmts
