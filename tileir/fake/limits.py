"""The fake device's resource limits (issue 13, point 3): how long and how large one
launch may grow before the interpreter refuses it, so that no module, however hostile,
can keep it running for ever or take the host's memory.

Each default is far above what any bundled kernel uses (their loops run at most a few
thousand trips, their tiles hold at most 2**16 elements, their launches a few MiB), and
each refusal names the setting to raise.  ``FakeDevice(max_trips=...)`` and
``interpret(..., limits=Limits(...))`` set them.
"""

from __future__ import annotations

import os
from typing import Optional

import attrs

from tileir.types import MAX_TILE_ELEMENTS

__all__ = ["Limits", "DEFAULT_LIMITS", "power_text", "host_available_bytes", "beyond_host"]


def power_text(n: int) -> str:
    """``2^31`` for a power of two, else the number: how the limits read in messages.

    >>> power_text(1 << 31), power_text(1000)
    ('2^31', '1000')
    """
    n = int(n)
    return f"2^{n.bit_length() - 1}" if n > 0 and n & (n - 1) == 0 else str(n)


def _positive(_inst, attribute, value) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{attribute.name} must be a positive int, got {value!r}")


@attrs.frozen
class Limits:
    """Bounds on one launch of the fake device.

    ``max_trips``: trips of one ``for`` or ``loop`` (a ``for`` is refused before it starts
    when its trip count is above it); ``max_tile_elements``: elements of any tile the
    kernel makes (the dialect's own cap, 2^24, at most); ``max_launch_bytes``: bytes the
    interpreter may allocate for one launch (one block's values, allocas and globals).

    >>> Limits(max_trips=10).max_trips
    10
    """

    max_trips: int = attrs.field(default=1 << 31, validator=_positive)
    max_tile_elements: int = attrs.field(default=MAX_TILE_ELEMENTS, validator=_positive)
    max_launch_bytes: int = attrs.field(default=1 << 32, validator=_positive)

    def advice(self, name: str) -> str:
        """The sentence a refusal ends with: which setting to raise."""
        return (
            f"raise FakeDevice({name}=...) (or interpret(..., limits=Limits({name}=...))) "
            f"if the kernel is meant to go further"
        )


DEFAULT_LIMITS = Limits()


def host_available_bytes() -> Optional[int]:
    """The memory this host can give now, in bytes: Linux's MemAvailable (free memory plus
    what the page cache would give back), else free physical pages; None when the system
    does not say."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


#: bytes any host running tileir can give (no need to ask below this)
_ALWAYS_THERE = 256 << 20


def beyond_host(need: int) -> Optional[str]:
    """Why ``need`` bytes cannot be had on this host now (the two numbers), or None: a buffer
    or launch that asks for more is refused before numpy would fail half-way with a bare
    MemoryError, or the system would start swapping."""
    if need < _ALWAYS_THERE:  # reading the system's figure costs more than such a launch
        return None
    have = host_available_bytes()
    if have is None or need <= have:
        return None
    return f"it needs {need} bytes ({need / 2**30:.1f} GiB) and this host has {have} bytes " + (
        f"({have / 2**30:.1f} GiB) available"
    )
