"""Values known to step evenly from lane to lane: per-batch index arithmetic.

A batch of blocks that lie in one row of the grid (every launch of a 1-D grid, in chunks of
consecutive blocks) has block ids ``x = x0 + lane`` with ``y`` and ``z`` fixed.  A view load or
store indexed by them has tiles whose origins step evenly too, so where each lane's tile lies,
whether it is inside the tensor and inside its buffer, follow from the first and the last
lane alone (:func:`tileir.fake.views.plan_affine`): the cost of a launch then grows with its
elements, not with its number of blocks.

The fact is kept per frame (:attr:`tileir.fake.frames.Frame.progressions`, value id ->
``(first, step)``): a frame's lanes never change, and an SSA value is defined once per frame,
so the fact holds for as long as the frame does; a sub-batch (an ``if`` side, the blocks still
in a loop, a strip of a fused run) is another frame and knows nothing of its parent's.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from tileir.fake.frames import Frame

__all__ = ["note_block_ids", "index_steps"]


def note_block_ids(frame: Frame, grid: tuple[int, int, int], result_ids: Sequence[int]) -> None:
    """Record ``get_tile_block_id``'s results (value ids ``result_ids``: x, y, z) as
    progressions of ``frame`` when its blocks are consecutive within one grid row."""
    start, b = frame.linear, frame.size
    if start is None or b < 1:
        return
    gx, gy, _ = grid
    row = start // gx
    if (start + b - 1) // gx != row:  # the batch wraps to the next row: x jumps back
        return
    known = frame.progressions if frame.progressions is not None else {}
    for vid, first, step in zip(result_ids, (start % gx, row % gy, row // gy), (1, 0, 0)):
        known[vid] = (first, step if b > 1 else 0)
    frame.progressions = known


def index_steps(
    frame: Optional[Frame], index_ids: Sequence[int], index_values: Sequence[np.ndarray]
) -> Optional[list[tuple[int, int]]]:
    """``(first, step)`` of each index operand (read as the memory rules read them: non-
    negative), or None unless every one is a progression of ``frame`` or the same for
    every lane (batch 1: step 0)."""
    known = frame.progressions if frame is not None else None
    out = []
    for vid, v in zip(index_ids, index_values):
        got = known.get(vid) if known is not None else None
        if got is not None:
            out.append(got)
        elif v.shape[0] == 1 and v.ndim == 1:
            out.append((int(v[0]), 0))
        else:
            return None
    return out
