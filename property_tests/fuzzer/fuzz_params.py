"""Drawing a fuzzed kernel's parameters: Ins, K inputs, Shared buffers, a Scalar, the Out.

Parameters (JSON dicts, in this order): 1 to 3 Ins, maybe a "K input" (an In with one
FREE_AXIS dimension, read by ``kloop``), maybe Shared buffers, 0 or 1 Scalar, then the
Out.  The grid is 1-D or 2-D; each In's cells give as many cells per grid axis as the
Out's (their tiles and extents may differ, and a 1-D In may follow either axis of a 2-D
grid), with extents that usually stop inside the last cell, and any padding for float Ins.

``extent`` always holds the launch's extents; ``dyn`` (when present) marks the
dimensions recorded as ``DYN_DIM``: along a grid axis the launch makes such an
extent whole cells (grid x tile), along a FREE_AXIS it is the buffer's length, so a
K input may stop inside its last cell there.

A Shared has one ``use``: ``read`` (pointer loads of a window of ``window`` elements
per block), ``store`` (one pointer store per block into its own window, each lane its
own element) or ``atomic`` (one atomic per block into ``windows`` windows: every
block into window 0, or each into its own).  ``length`` is its buffer's length.
"""

from __future__ import annotations

from typing import Optional

from hypothesis import strategies as st

from fuzz_grammar import FLOATS, INTS, MMA_PAIRS, NARROW, PADS, STORAGE, fit
from fuzz_known import buffer_formats

__all__ = ["draw_params", "has_dyn", "FOCUSES"]

#: What a focused draw makes sure of (the new kinds the fuzzer counts).
FOCUSES = ("narrow", "scan", "mma", "dyn", "pointer", "atomic")


def _pads(fmt: str) -> tuple:
    if fmt == "f8E4M3FN":  # no infinity to pad with
        return ("zero", "neg_zero", "nan")
    return PADS if fmt in FLOATS or fmt in NARROW else ("zero",)


def _storage(draw, label: str) -> str:
    return draw(st.sampled_from(buffer_formats(STORAGE)), label=label)


def _shared(draw, use: str, n_blocks: int) -> dict:
    """A Shared buffer of one use, sized for ``n_blocks`` blocks."""
    if use == "atomic":
        fmt = draw(
            st.sampled_from(["i32", "i64", "i32", "f32", "f64", "f16", "bf16"]),
            label="atomic format",
        )
    else:
        fmt = _storage(draw, "shared format")
    window = draw(st.sampled_from([4, 8, 16, 32, 64]), label="window")
    windows = n_blocks
    if use == "atomic" and draw(st.booleans(), label="one window for all blocks"):
        windows = 1
    slack = draw(st.integers(0, 3), label="slack")
    return {
        "role": "Shared",
        "format": fmt,
        "use": use,
        "window": window,
        "windows": windows,
        "length": window * windows + slack,
    }


def draw_params(draw, focus: Optional[str] = None) -> list:
    """The parameter list of a description (see the module docstring)."""
    rank = 2 if focus == "mma" else draw(st.sampled_from([1, 2]), label="grid rank")
    dims = [1, 2, 4, 8, 16, 32] if rank == 2 else [1, 2, 4, 8, 16, 32, 64, 128]
    tile = fit([draw(st.sampled_from(dims)) for _ in range(rank)])
    counts = [draw(st.integers(1, 3)) for _ in range(rank)]
    want_dyn = focus == "dyn"

    def dyn_flag(label: str) -> bool:
        return draw(st.sampled_from([False] * 7 + [True]), label=label)

    def extent_for(t: int, c: int, dyn: bool = False) -> int:
        return c * t if dyn else draw(st.integers((c - 1) * t + 1, c * t))

    if focus == "mma":
        out_fmt = draw(st.sampled_from(sorted(MMA_PAIRS)), label="out format")
    elif focus == "scan":
        out_fmt = draw(st.sampled_from(FLOATS + INTS), label="out format")
    elif focus == "narrow" and draw(st.booleans(), label="narrow out"):
        out_fmt = draw(st.sampled_from(buffer_formats(NARROW)), label="out format")
    else:
        out_fmt = _storage(draw, "out format")
    out_dyn = [dyn_flag("out dyn") for _ in range(rank)]
    params = []
    for n_in in range(draw(st.integers(1, 3), label="ins")):
        if focus == "narrow" and n_in == 0 and out_fmt not in NARROW:
            fmt = draw(st.sampled_from(buffer_formats(NARROW)), label="narrow in")
        elif draw(st.sampled_from(["out's format", "own format"])) == "out's format":
            fmt = out_fmt
        else:
            fmt = _storage(draw, "in format")
        if rank == 2 and draw(st.booleans()):
            axis = draw(st.sampled_from([0, 1]))  # a 1-D In following one grid axis
            along = [axis]
        else:
            along = list(range(rank))
        if draw(st.sampled_from(["out's tile", "own tile"])) == "out's tile":
            t = [tile[a] for a in along]
        else:
            t = fit([draw(st.sampled_from(dims)) for _ in along])
        dyn = [dyn_flag("in dyn") for _ in along]
        ext = [extent_for(tt, counts[a], d) for tt, a, d in zip(t, along, dyn)]
        params.append(
            {
                "role": "In",
                "format": fmt,
                "extent": ext,
                "tile": t,
                "along": along,
                "pad": draw(st.sampled_from(_pads(fmt))),
                "dyn": dyn,
            }
        )
    if draw(st.sampled_from(["no K input", "K input"]), label="K input") == "K input":
        # an In read along a FREE_AXIS dimension by a loop over its cells (load_at)
        fmt = _storage(draw, "k format")
        axis = draw(st.sampled_from(list(range(rank))))
        if draw(st.sampled_from(["out's tile", "own tile"])) == "out's tile":
            # the K cell then lines up with the Out's cell (rank 2) or reduces onto it
            t_grid = tile[axis]
            t_k = tile[1 - axis] if rank == 2 else draw(st.sampled_from(dims))
        else:
            t_grid, t_k = draw(st.sampled_from(dims)), draw(st.sampled_from(dims))
        t_grid, t_k = fit([t_grid, t_k])
        k_cells = draw(st.integers(1, 3))
        # the launch reads a FREE_AXIS DYN_DIM off the buffer: the other one stays static
        k_dyn = dyn_flag("k dyn")
        g_dyn = False if k_dyn else dyn_flag("k grid dyn")
        ext = [extent_for(t_grid, counts[axis], g_dyn), extent_for(t_k, k_cells)]
        free_first = rank == 2 and axis == 1
        flip = (lambda v: v[::-1]) if free_first else (lambda v: v)
        params.append(
            {
                "role": "In",
                "format": fmt,
                "extent": flip(ext),
                "tile": flip([t_grid, t_k]),
                "along": ["FREE", 1] if free_first else [axis, "FREE"],
                "pad": draw(st.sampled_from(_pads(fmt))),
                "dyn": flip([g_dyn, k_dyn]),
            }
        )
    n_blocks = 1
    for c in counts:
        n_blocks *= c
    uses = []
    if focus == "pointer":
        uses.append(draw(st.sampled_from(["read", "store"]), label="shared use"))
    elif focus == "atomic":
        uses.append("atomic")
    if draw(st.sampled_from([False] * 4 + [True]), label="shared"):
        uses.append(draw(st.sampled_from(["read", "store", "atomic"]), label="shared use"))
    for use in uses:
        params.append(_shared(draw, use, n_blocks))
    if draw(st.booleans(), label="scalar"):
        params.append({"role": "Scalar", "format": draw(st.sampled_from(FLOATS + INTS))})
    if want_dyn and not any(any(p.get("dyn", ())) for p in params) and not any(out_dyn):
        out_dyn[draw(st.integers(0, rank - 1), label="dyn axis")] = True
    params.append(
        {
            "role": "Out",
            "format": out_fmt,
            "extent": [extent_for(t, c, d) for t, c, d in zip(tile, counts, out_dyn)],
            "tile": tile,
            "along": list(range(rank)),
            "dyn": out_dyn,
        }
    )
    return params


def has_dyn(params: list) -> bool:
    """Whether any extent is DYN_DIM (then the launch is given the grid)."""
    return any(any(p.get("dyn", ())) for p in params)
