"""The fake device's global memory: a flat byte address space of host-array segments.

Every buffer the kernel can reach is a :class:`Segment` at a base address of its
own: each pointer argument, each module ``global``, and each ``alloca`` (one
sub-range per block).  Segments are separated by unmapped gaps, so an address
that runs past a buffer lands in no segment and the access is refused (the
interpreter raises ``InterpretError`` naming the address).  Pointers are plain
``int64`` byte addresses, so ``offset``, ``ptr_to_int`` / ``int_to_ptr`` and
``ptr_to_ptr`` are integer arithmetic and casts.  Elements narrower than a byte
(``i4``, ``f4E2M1FN``) take one byte each, as their host arrays do.

Purity: a segment starts by *borrowing* the caller's array and copies it the
first time anything writes to it (copy-on-write), so the caller's inputs are
never changed.  Loads may hand out zero-copy views of a segment; the segment is
then marked shared and the next write copies it first, so a value once loaded
never changes under the kernel's feet.  A store that sets every element of a span
(:meth:`Segment.overwrite`) does not copy what it is about to replace: the rest
is copied from the shared array only when something reads the segment, or at the
end (:meth:`Segment.settle`), and not at all where later such stores cover it.  A
store of a fresh tile array over a whole buffer takes that array as the buffer
(:meth:`Segment.adopt`), so an element-wise kernel writes its answer once.
"""

from __future__ import annotations

import bisect
from typing import Union

import numpy as np

__all__ = ["Segment", "Memory", "BASE_ADDRESS"]

#: Address of the first segment; everything below it (null included) is unmapped.
BASE_ADDRESS = 1 << 32
_GAP = 1 << 16


def _round_up(n: int, align: int) -> int:
    return (n + align - 1) // align * align


class Segment:
    """A mapped range: ``count`` lanes of ``nbytes`` each, ``pitch`` bytes apart.

    ``key`` names the buffer for the observer and for error messages: the
    argument index for a parameter's buffer, ``"@name"`` for a global,
    ``"alloca%<id>"`` for an alloca.  ``backing`` holds the lanes back to back.
    """

    __slots__ = (
        "key",
        "base",
        "pitch",
        "count",
        "nbytes",
        "backing",
        "shared",
        "written",
        "readonly",
        "_typed",
        "_pristine",
        "_gaps",
    )

    def __init__(
        self,
        key: Union[int, str],
        base: int,
        backing: np.ndarray,
        *,
        count: int = 1,
        pitch: int = 0,
        readonly: bool = False,
        shared: bool = True,
    ):
        self.key = key
        self.base = base
        self.backing = backing
        self.count = count
        self.nbytes = backing.nbytes // count
        self.pitch = pitch or max(self.nbytes, 1)
        self.shared = shared
        self.written = False
        self.readonly = readonly
        self._typed: dict = {}
        # after an overwrite of a shared backing: the array it replaced, and the byte
        # ranges of the new backing still to be copied from it
        self._pristine: np.ndarray | None = None
        self._gaps: list[tuple[int, int]] = []

    @property
    def span(self) -> int:
        """Bytes of address space from the base to the end of the last lane."""
        return self.pitch * (self.count - 1) + self.nbytes

    def typed(self, dtype: np.dtype) -> np.ndarray:
        """The backing reinterpreted as a flat array of ``dtype`` (read only)."""
        if self._gaps:
            self.settle()
        return self._as(dtype)

    def _as(self, dtype: np.dtype) -> np.ndarray:
        dtype = np.dtype(dtype)
        got = self._typed.get(dtype)
        if got is None:
            if self.backing.dtype == dtype:
                got = self.backing
            else:
                raw = self.backing.view(np.uint8)
                usable = raw.size - raw.size % dtype.itemsize
                got = raw[:usable].view(dtype)
            self._typed[dtype] = got
        return got

    def writable(self, dtype: np.dtype) -> np.ndarray:
        """The backing as ``dtype`` for writing (copies it first if anyone else sees it)."""
        if self._gaps:
            self.settle()
        if self.shared:
            self.backing = self.backing.copy()
            self.shared = False
            self._typed = {}
        self.written = True
        return self._as(dtype)

    def overwrite(self, dtype: np.dtype, start: int, stop: int) -> np.ndarray:
        """:meth:`writable`, for a write that sets every element ``start:stop`` of the
        backing as ``dtype``: a shared backing is not copied first but replaced by a new
        array whose other bytes come from it later (:meth:`settle`)."""
        isz = np.dtype(dtype).itemsize
        lo, hi = start * isz, stop * isz
        if self.shared:
            self._pristine = self.backing
            self._gaps = [(0, self.backing.nbytes)]
            self.backing = np.empty_like(self.backing)
            self.shared = False
            self._typed = {}
        if self._gaps:  # what the write sets need not come from the old array
            self._gaps = [
                (a, b)
                for s, e in self._gaps
                for a, b in ((s, min(e, lo)), (max(s, hi), e))
                if a < b
            ]
            if not self._gaps:
                self._pristine = None
        self.written = True
        return self._as(dtype)

    def adopt(self, values: np.ndarray, dtype: np.dtype) -> bool:
        """Take ``values`` (a fresh array of ``dtype`` that sets every element of a shared
        backing) as the new backing instead of copying it into one: a store of a whole
        buffer then costs no copy.  The segment stays shared, since the kernel still
        holds ``values`` as a tile: the next write copies first.  False when that does not
        apply (an owned or laned backing, another size, format or layout), and nothing
        changed."""
        if (
            not self.shared
            or self.count != 1
            or values.dtype != dtype
            or values.nbytes != self.backing.nbytes
            or not values.flags.c_contiguous
        ):
            return False
        self.backing = values.reshape(-1).view(self.backing.dtype)
        self._typed, self._pristine, self._gaps = {}, None, []
        self.written = True
        return True

    def settle(self) -> np.ndarray:
        """The backing, complete: bytes an :meth:`overwrite` left to copy are copied now."""
        if self._gaps:
            pristine = self._pristine
            assert pristine is not None  # kept while there are gaps to fill from it
            new, old = self.backing.view(np.uint8), pristine.view(np.uint8)
            for s, e in self._gaps:
                new[s:e] = old[s:e]
            self._gaps, self._pristine = [], None
        return self.backing

    def lane_bounds(self, boff: np.ndarray, itemsize: int) -> tuple[np.ndarray, np.ndarray]:
        """First and one-past-last element index (of ``itemsize``) of the lane holding ``boff``."""
        if self.count == 1:
            return np.zeros(1, dtype=np.int64), np.array([self.nbytes // itemsize])
        start = self.lane_of(boff) * self.nbytes
        return start // itemsize, (start + self.nbytes) // itemsize

    def lane_of(self, boff: np.ndarray) -> np.ndarray:
        """Which lane (block's allocation) byte offset ``boff`` of the backing falls in."""
        if self.count == 1:
            return np.zeros_like(boff)
        return boff // max(self.nbytes, 1)


class Memory:
    """The address space of one launch: segments by base address."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self._next = BASE_ADDRESS
        self._tables = None

    def add(
        self,
        key: Union[int, str],
        backing: np.ndarray,
        *,
        count: int = 1,
        align: int = 256,
        readonly: bool = False,
        borrowed: bool = True,
    ) -> Segment:
        """Map ``backing`` (1-D) as a new segment; ``count > 1`` splits it into lanes."""
        if backing.ndim != 1:
            backing = backing.reshape(-1)
        align = max(256, int(align))
        lane_bytes = backing.nbytes // count
        pitch = _round_up(max(lane_bytes, 1) + _GAP, align) if count > 1 else 0
        base = _round_up(self._next, align)
        seg = Segment(
            key, base, backing, count=count, pitch=pitch, readonly=readonly, shared=borrowed
        )
        self._next = base + seg.span + _GAP
        self.segments.append(seg)
        self._tables = None
        return seg

    def remove(self, seg: Segment) -> None:
        """Unmap a segment (the end of an alloca's lifetime)."""
        self.segments = [s for s in self.segments if s is not seg]
        self._tables = None

    def _table(self):
        if self._tables is None:
            segs = self.segments
            self._tables = (
                np.array([s.base for s in segs], dtype=np.int64),
                np.array([s.pitch for s in segs], dtype=np.int64),
                np.array([s.count for s in segs], dtype=np.int64),
                np.array([s.nbytes for s in segs], dtype=np.int64),
            )
        return self._tables

    def locate(self, addrs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Segment index, byte offset in its backing, and bytes left in the lane, per address.

        The segment index is -1 (and the other two 0) where no segment maps the
        address.
        """
        addrs = np.asarray(addrs, dtype=np.int64)
        bases, pitch, count, nbytes = self._table()
        if bases.size == 0:
            z = np.zeros_like(addrs)
            return z - 1, z, z
        i = np.searchsorted(bases, addrs, side="right") - 1
        ic = np.maximum(i, 0)
        rel = addrs - bases[ic]
        lane = rel // pitch[ic]
        within = rel - lane * pitch[ic]
        ok = (i >= 0) & (rel >= 0) & (lane < count[ic]) & (within < nbytes[ic])
        boff = np.where(ok, lane * nbytes[ic] + within, 0)
        room = np.where(ok, nbytes[ic] - within, 0)
        return np.where(ok, i, -1), boff, room

    def locate_one(self, addr: int) -> tuple[int, int, int]:
        """:meth:`locate` of one address, without numpy (the common uniform base)."""
        segs = self.segments
        i = bisect.bisect_right([s.base for s in segs], addr) - 1 if segs else -1
        if i < 0:
            return -1, 0, 0
        s = segs[i]
        rel = addr - s.base
        lane, within = divmod(rel, s.pitch)
        if lane >= s.count or within >= s.nbytes:
            return -1, 0, 0
        return i, lane * s.nbytes + within, s.nbytes - within

    def address_of(self, seg: Segment, boff: np.ndarray) -> np.ndarray:
        """The address of byte offset ``boff`` of ``seg``'s backing (inverse of ``locate``)."""
        lane = seg.lane_of(boff)
        return seg.base + lane * seg.pitch + (boff - lane * seg.nbytes)
