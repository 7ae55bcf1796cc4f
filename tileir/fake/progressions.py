"""Values known to step evenly from lane to lane: per-batch index arithmetic.

A batch of blocks is consecutive in the device's order (x fastest).  Where it lies in one row
of the grid (every launch of a 1-D grid, in chunks of consecutive blocks) its block ids are
``x = x0 + lane`` with ``y`` and ``z`` fixed; where it is whole rows of a grid's plane (a 2-D
grid launched as one batch, or in chunks of whole rows) they are ``x = lane % gx`` and
``y = y0 + lane // gx`` with ``z`` fixed.  Either way each id is ``first + step * col +
row_step * row`` for the lanes laid out as rows of ``cols`` (one row in the first case), and a
view load or store indexed by them has tiles whose origins step evenly along both: where each
lane's tile lies, whether it is inside the tensor and inside its buffer, follow from the
first and the last lane alone (:func:`tileir.fake.views.plan_affine`), so the cost of a
launch grows with its elements, not with its number of blocks.

The fact is kept per frame (:attr:`tileir.fake.frames.Frame.progressions`, value id ->
``(first, step, row_step)``, with :attr:`~tileir.fake.frames.Frame.progression_cols`): a
frame's lanes never change, and an SSA value is defined once per frame, so the fact holds
for as long as the frame does; a sub-batch (an ``if`` side, the blocks still in a loop, a
strip of a fused run) is another frame and knows nothing of its parent's.
"""

from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np

from tileir.fake.frames import Frame

__all__ = ["note_block_ids", "index_steps", "Progression"]

#: ``(first, step, row_step)``: the value ``first + step * col + row_step * row`` of the lane
#: at ``(row, col)`` when the batch's lanes are laid out row-major as rows of ``cols``
Progression = tuple[int, int, int]


def note_block_ids(frame: Frame, grid: tuple[int, int, int], result_ids: Sequence[int]) -> None:
    """Record ``get_tile_block_id``'s results (value ids ``result_ids``: x, y, z) as
    progressions of ``frame`` when its blocks are consecutive within one grid row, or are
    whole rows of one plane of the grid."""
    start, b = frame.linear, frame.size
    if start is None or b < 1:
        return
    gx, gy, _ = grid
    row = start // gx
    known = frame.progressions if frame.progressions is not None else {}
    if (start + b - 1) // gx == row:  # one row: x steps, y and z are fixed
        cols = b
        ids = ((start % gx, 1 if b > 1 else 0, 0), (row % gy, 0, 0), (row // gy, 0, 0))
    elif start % gx == 0 and b % gx == 0 and row % gy + b // gx <= gy:
        cols = gx  # whole rows of one plane: x steps within a row, y from row to row
        ids = ((0, 1 if gx > 1 else 0, 0), (row % gy, 0, 1), (row // gy, 0, 0))
    else:  # the batch wraps from a row's end into the middle of another, or across planes
        return
    for vid, prog in zip(result_ids, ids):
        known[vid] = prog
    frame.progressions = known
    frame.progression_cols = cols


def index_steps(
    frame: Optional[Frame],
    index_ids: Sequence[int],
    index_values: Sequence[Union[int, np.ndarray]],
) -> Optional[tuple[list[Progression], int]]:
    """``([(first, step, row_step), ...], cols)`` of the index operands (read as the memory
    rules read them: non-negative), or None unless every one is a progression of ``frame`` or
    the same for every lane (batch 1: steps 0).  ``index_values`` of batch 1 come as Python
    ints already read that way, or as arrays."""
    if frame is None:
        known, cols = None, 1
    else:
        known = frame.progressions
        cols = frame.progression_cols if known is not None else frame.size
    out = []
    for vid, v in zip(index_ids, index_values):
        got = known.get(vid) if known is not None else None
        if got is not None:
            out.append(got)
        elif isinstance(v, int):
            out.append((v, 0, 0))
        elif v.shape[0] == 1 and v.ndim == 1:
            out.append((int(v[0]), 0, 0))
        else:
            return None
    return out, cols
