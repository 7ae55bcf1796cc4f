"""The kernel fuzzer's strategy: random well-typed kernels as small JSON descriptions.

A description (a dict that ``json`` round-trips) holds the kernel's parameters
(``fuzz_params``: Ins with their own cells, maybe a K input, Shared buffers, a Scalar,
one Out; extents maybe DYN_DIM), statements (``fuzz_tree_more``: pointer stores and
atomics into Shared buffers) and one expression tree whose value the kernel stores in
its Out cell.  :func:`kernel_descriptions` draws them; ``fuzz_build.build`` turns one
into a kernel body and markers (``trace`` records it); ``fuzz_oracle.evaluate``
computes what the launch must leave in the Out and the written Shared buffers.

Tree nodes (lists; the first item names the node):

=====================================  ===============================================
``["in", i]``                          the cell of parameter ``i`` (loaded at the start)
``["scalar", i]``                      the Scalar parameter ``i``
``["const", fmt, value, shape]``       a constant tile
``["block_id", axis]`` / ``["iota", n]``  ``tile<i32>`` / ``tile<n x i32>``
``["query", what, ...]``               ``extent`` / ``ncells`` of a parameter's dimension,
                                       ``nblocks`` of a grid axis (DYN_DIM: at launch)
``["iv", L]`` / ``["carried", L]``     loop ``L``'s induction variable / carried value
                                       (``L`` counts enclosing loops from the outermost)
``["un", op, x]``                      neg abs exp exp2 log log2 sqrt rsqrt sin cos tanh
                                       sinh cosh floor ceil (floats); neg abs (ints)
``["bin", op, a, b]``                  add sub mul div rem max min (floats); also
                                       floordiv and or xor shl shr (ints); and or xor (i1)
``["cmp", pred, a, b]``                equal not_equal less_than ... (an i1 mask)
``["where", m, a, b]``                 select
``["cvt", fmt, x (, rounding)]``       convert (ftof, itof, ftoi, exti, trunci), narrow
                                       formats (tf32, f8E4M3FN, f8E5M2) included; an ftof
                                       may take zero / negative_inf / positive_inf /
                                       nearest_away where tileir records them
``["reduce", comb, dim, keepdims, x]`` sum prod max min along ``dim``
``["scan", comb, dim, reverse, x]``    inclusive scan: sum prod max min (and or xor)
``["mma", in_fmt, fast, signs, a, b, acc]``  ``a @ b + acc`` (mmaf / mmai)
``["bcast", shape, x]`` / ``["reshape", shape, x]`` / ``["permute", perm, x]``
``["for", [axis, c], init, body]``     ``for_range(0, c (+ block_id(axis)), ...)`` carrying
                                       one value; ``body`` may use ``iv`` / ``carried``
``["kloop", i, init, body]``           a loop over the cells of In ``i`` along its FREE_AXIS
                                       dimension (``cells_along`` trips when DYN_DIM);
                                       ``["kcell", L]`` is loop ``L``'s cell
``["if", cond, then, else]``           ``if_`` on a rank-0 i1 condition
``["pload", s, lanes]``                a pointer load from the read-only Shared ``s``
``["old", j]``                         the values atomic statement ``j``'s lanes found
=====================================  ===============================================

Binary operands and ``where`` / ``cmp`` operands may have the result's rank with
dimensions of 1, or rank 0: the recorder widens them.  What the drawn space leaves out
is ``EXCLUDED`` (``fuzz_grammar``).  ``focus`` makes sure a description has one of the
newer kinds (``fuzz_params.FOCUSES``); :func:`kinds_of` says which a description has.
"""

from __future__ import annotations

from typing import Optional

from hypothesis import strategies as st

from fuzz_grammar import EXCLUDED, FLOATS, INTS, MAX_ELEMENTS, NARROW
from fuzz_params import FOCUSES, draw_params
from fuzz_tree import TreeGen

__all__ = [
    "kernel_descriptions",
    "kinds_of",
    "FLOATS",
    "INTS",
    "NARROW",
    "EXCLUDED",
    "MAX_ELEMENTS",
    "FOCUSES",
    "VERSION",
]

#: Descriptions since the narrow formats, scans, mma, DYN_DIM and Shared buffers.
VERSION = 2


def _walk(node):
    yield node
    if isinstance(node, list):
        for child in node[1:]:
            if isinstance(child, list) and child and isinstance(child[0], str):
                yield from _walk(child)


def kinds_of(desc: dict) -> set:
    """The newer kinds a description exercises: ``narrow`` (a tf32 / fp8 buffer or
    conversion), ``scan``, ``mma``, ``dyn`` (a DYN_DIM extent), ``pointer`` (a pointer
    load or store) and ``atomic``."""
    out = set()
    params = desc["params"]
    if any(p["format"] in NARROW for p in params):
        out.add("narrow")
    if any(any(p.get("dyn") or ()) for p in params):
        out.add("dyn")
    trees = [desc["expr"]] + [s["value"] for s in desc.get("stmts", ())]
    for tree in trees:
        for node in _walk(tree):
            head = node[0] if isinstance(node, list) and node else None
            if head == "cvt" and node[1] in NARROW or head == "const" and node[1] in NARROW:
                out.add("narrow")
            elif head in ("scan", "mma"):
                out.add(head)
            elif head == "pload":
                out.add("pointer")
    for s in desc.get("stmts", ()):
        out.add("pointer" if s["kind"] == "store" else "atomic")
    return out


@st.composite
def kernel_descriptions(draw, max_depth: int = 5, focus: Optional[str] = None) -> dict:
    """A random well-typed kernel description (see the module docstring); with ``focus``
    (one of FOCUSES) one that has that kind."""
    if focus is not None and focus not in FOCUSES:
        raise ValueError(f"focus {focus!r} is not one of {', '.join(FOCUSES)}")
    params = draw_params(draw, focus)
    gen = TreeGen(draw, params, focus)
    out = params[-1]
    depth = draw(st.integers(2, max_depth), label="depth")
    stmts = gen.statements(depth)
    if focus in ("scan", "mma"):
        gen.forced = focus
    elif focus == "pointer" and gen.shareds("read"):
        gen.forced = "ptr"
    elif focus == "dyn":
        gen.forced = "query"
    expr = gen.expr(tuple(out["tile"]), out["format"], depth)
    desc = {"version": VERSION, "params": params, "expr": expr}
    if stmts:
        desc["stmts"] = stmts
    return desc
