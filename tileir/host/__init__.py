"""What both devices share: buffers, the host program API, launch checks, tolerances.

* :mod:`.device` -- :class:`Buffer`, the abstract :class:`Device` (alloc, copy in, launch,
  copy out, run) and :class:`LaunchReport`;
* :mod:`.launch` -- the checks every launch passes before any device runs it;
* :mod:`.tolerance` -- how close a device's floats must come to a reference's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tileir._lazy import lazy_exports as _lazy_exports

if TYPE_CHECKING:
    from tileir.host.device import Buffer, Device, LaunchReport
    from tileir.host.launch import check_launch
    from tileir.host.tolerance import PER_FORMAT, Tolerance

# Loaded on first use, as ``tileir`` itself is: the kernel registry needs only the
# tolerances, and `tileir render` should not pay for the launch checks' imports.
_EXPORTS = {
    "Buffer": "tileir.host.device",
    "Device": "tileir.host.device",
    "LaunchReport": "tileir.host.device",
    "check_launch": "tileir.host.launch",
    "Tolerance": "tileir.host.tolerance",
    "PER_FORMAT": "tileir.host.tolerance",
}
__all__ = ["Buffer", "Device", "LaunchReport", "check_launch", "Tolerance", "PER_FORMAT"]


__getattr__, __dir__ = _lazy_exports(__name__, _EXPORTS, globals())
