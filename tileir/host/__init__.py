"""What both devices share: buffers, the host program API, launch checks, tolerances.

* :mod:`.device` -- :class:`Buffer`, the abstract :class:`Device` (alloc, copy in, launch,
  copy out, run) and :class:`LaunchReport`;
* :mod:`.launch` -- the checks every launch passes before any device runs it;
* :mod:`.tolerance` -- how close a device's floats must come to a reference's.
"""

from tileir.host.device import Buffer, Device, LaunchReport
from tileir.host.launch import check_launch
from tileir.host.tolerance import PER_FORMAT, Tolerance

__all__ = ["Buffer", "Device", "LaunchReport", "check_launch", "Tolerance", "PER_FORMAT"]
