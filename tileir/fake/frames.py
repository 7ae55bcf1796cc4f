"""Batches of lanes for the interpreter: frames of values, and the exits of a block.

A :class:`Frame` holds the values of one batch of lanes (blocks).  A sub-batch
(the blocks that take one side of a divergent ``if``, or the blocks still
iterating a loop) is a frame whose ``lanes`` index its parent's; it gathers a
parent value the first time it is used.  An :class:`LaneExit` records the lanes that
left a block through one terminator (``yield`` / ``continue`` / ``break`` /
``return``) with the values that terminator passes.
"""

from __future__ import annotations

from typing import Any, Optional, overload

import numpy as np

from tileir.fake.values import FakeValue, TileGrid, plain, take

__all__ = ["Frame", "LaneExit", "compose", "all_lanes", "scatter"]

_ABSENT = object()
_NONE: frozenset = frozenset()


class Frame:
    """The values of one batch of lanes; a sub-batch gathers its parent's values lazily."""

    __slots__ = (
        "vals",
        "parent",
        "lanes",
        "size",
        "block_ids",
        "expand",
        "linear",
        "progressions",
        "progression_cols",
        "donated",
    )

    def __init__(
        self,
        parent: Optional["Frame"],
        lanes: Optional[np.ndarray],
        size: int,
        block_ids: np.ndarray,
        expand: int = 0,
        linear: Optional[int] = None,
    ):
        self.vals: dict[int, Any] = {}
        self.parent = parent
        self.lanes = lanes
        self.size = size
        self.block_ids = block_ids
        self.expand = expand
        # the device's number of lane 0's block when the lanes are blocks linear .. linear +
        # size - 1 in the device's order (x fastest), else None
        self.linear = linear
        # value id -> (first, step, row_step): values known to be ``first + step * col +
        # row_step * row`` here, the lanes laid out as rows of ``progression_cols`` (block ids
        # of a batch within one grid row, or of whole rows; tileir.fake.progressions)
        self.progressions: Optional[dict[int, tuple[int, int, int]]] = None
        self.progression_cols = size
        # SSA ids whose arrays this frame alone holds and the op that reads them last may
        # overwrite (a loop's accumulators: tileir.fake.donation); a sub-batch has none
        self.donated: frozenset = _NONE

    @staticmethod
    def sub(parent: "Frame", lanes: np.ndarray) -> "Frame":
        """The sub-batch of ``parent``'s ``lanes``."""
        return Frame(parent, lanes, len(lanes), parent.block_ids[lanes])

    def get(self, vid: int) -> FakeValue:
        """The value of SSA id ``vid`` for these lanes (KeyError: not defined), a
        :class:`~tileir.fake.values.TileGrid` made plain (once: the array replaces it)."""
        try:
            v = self.vals[vid]
        except KeyError:
            return self._inherit(vid)
        if type(v) is TileGrid:
            v = self.vals[vid] = v.array()
        return v

    def owns(self, vid: int, value: FakeValue) -> bool:
        """Whether ``value``, SSA id ``vid``'s value here, is donated to the op reading it:
        that op may write its result into it (no one else reads it afterwards)."""
        return vid in self.donated and self.vals.get(vid) is value

    def get_lazy(self, vid: int) -> FakeValue:
        """:meth:`get`, but a TileGrid of this frame's comes as it is (for ``mmaf``)."""
        v = self.vals.get(vid, _ABSENT)
        return self.get(vid) if v is _ABSENT else v

    def _inherit(self, vid: int):
        if self.parent is None:
            raise KeyError(vid)
        v = self.parent.get(vid)
        if self.lanes is not None:
            v = take(v, self.lanes)
        if self.expand and isinstance(v, np.ndarray):
            v = v.reshape((v.shape[0],) + (1,) * self.expand + v.shape[1:])
        self.vals[vid] = v
        return v


class LaneExit:
    """Lanes leaving a block through a terminator, with the values it passes."""

    __slots__ = ("kind", "lanes", "values")

    def __init__(self, kind: str, lanes: Optional[np.ndarray], values: list):
        self.kind = kind
        self.lanes = lanes
        self.values = values


@overload
def compose(outer: Optional[np.ndarray], inner: np.ndarray) -> np.ndarray: ...


@overload
def compose(outer: Optional[np.ndarray], inner: None) -> Optional[np.ndarray]: ...


@overload
def compose(outer: Optional[np.ndarray], inner: Optional[np.ndarray]) -> Optional[np.ndarray]: ...


def compose(outer: Optional[np.ndarray], inner: Optional[np.ndarray]) -> Optional[np.ndarray]:
    """Lanes ``inner`` of a sub-batch as lanes of the batch ``outer`` indexes (None: all)."""
    if inner is None:
        return outer
    return inner if outer is None else outer[inner]


def all_lanes(lanes: Optional[np.ndarray], size: int) -> np.ndarray:
    """``lanes`` as an index array (None: every one of ``size`` lanes)."""
    return np.arange(size) if lanes is None else lanes


def scatter(size: int, parts: list[tuple[Optional[np.ndarray], Any]], what: str) -> Any:
    """One value for ``size`` lanes from per-lane-subset parts (lanes None: all)."""
    if len(parts) == 1 and parts[0][0] is None:
        return parts[0][1]
    parts = [(lanes, plain(v)) for lanes, v in parts]
    first = parts[0][1]
    if not isinstance(first, np.ndarray):
        raise TypeError(f"{what} of a non-tile type cannot differ between blocks")
    out = np.zeros((size,) + first.shape[1:], dtype=first.dtype)
    for lanes, v in parts:
        out[all_lanes(lanes, size)] = v
    return out
