"""Is a real device here?  Answered without importing cuda-python or loading libcuda
into the asking process.

:func:`real_device_status` looks for cuda-python by its installed distribution
(no import), for an assembler (tileiras, or prebuilt cubins in
``$TILEIR_CUBIN_DIR``), and then asks the driver in a short child process
(``ctypes``: ``cuInit``, ``cuDeviceGetCount``, ``cuDriverGetVersion``) whether a GPU
and a driver new enough for Tile IR are there.  The answer is cached for the
process.  ``TILEIR_REAL_DEVICE=0`` turns the real device off; ``=1`` says it must
be there (the plugin then does not skip, so a missing GPU fails loudly).

>>> ok, reason = real_device_status()
>>> isinstance(ok, bool) and isinstance(reason, str) and bool(reason)
True
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import subprocess
import sys

__all__ = ["real_device_status", "ENV", "real_device_required", "as_pytest_plugins", "PLUGIN"]

#: The module of the pytest plugin (and the name of its pytest11 entry point).
PLUGIN = "tileir.testing.plugin"

#: The environment variable that turns the real device off (``0``) or requires it (``1``).
ENV = "TILEIR_REAL_DEVICE"

# Runs in a child process: only ctypes, so the parent never loads libcuda.
_PROBE = r"""
import ctypes, sys
try:
    cuda = ctypes.CDLL("libcuda.so.1")
except OSError as e:
    print("no NVIDIA driver (libcuda.so.1 could not be loaded: %s)" % e); sys.exit(3)
rc = cuda.cuInit(0)
if rc != 0:
    print("the NVIDIA driver did not initialise (cuInit returned %d)" % rc); sys.exit(4)
n = ctypes.c_int(0)
if cuda.cuDeviceGetCount(ctypes.byref(n)) != 0 or n.value < 1:
    print("the NVIDIA driver sees no GPU"); sys.exit(5)
v = ctypes.c_int(0)
cuda.cuDriverGetVersion(ctypes.byref(v))
print("%d GPU(s), driver API %d" % (n.value, v.value)); sys.exit(0 if v.value >= %(min)d else 6)
"""


def _installed(*names: str) -> bool:
    for name in names:
        try:
            importlib.metadata.version(name)
            return True
        except importlib.metadata.PackageNotFoundError:
            continue
    return False


def _assembler_status() -> tuple[bool, str]:
    if os.environ.get("TILEIR_CUBIN_DIR"):
        return True, "prebuilt cubins in $TILEIR_CUBIN_DIR"
    # lazy: the real device needs cuda-python, which is optional
    from tileir.real import tileiras

    if tileiras.available():
        return True, "tileiras"
    return False, (
        "no assembler: tileiras is not installed (pip install "
        "'nvidia-cuda-tileiras==13.5.37') and $TILEIR_CUBIN_DIR is not set"
    )


def _probe_driver() -> tuple[bool, str]:
    # lazy: the real device needs cuda-python, which is optional
    from tileir.real.driver import MIN_DRIVER_VERSION

    script = _PROBE.replace("%(min)d", str(MIN_DRIVER_VERSION))
    try:
        proc = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, f"the GPU probe did not finish ({type(e).__name__})"
    said = (proc.stdout.strip() or proc.stderr.strip() or "no answer").splitlines()[-1]
    if proc.returncode == 6:
        return False, (
            f"the driver is too old for Tile IR ({said}; it needs "
            f"{MIN_DRIVER_VERSION}, driver r580+)"
        )
    return proc.returncode == 0, said


@functools.lru_cache(maxsize=None)
def real_device_status() -> tuple[bool, str]:
    """``(True, what was found)`` when a real device can run kernels here, else
    ``(False, why not)``: the reason names the missing piece."""
    if os.environ.get(ENV) == "0":
        return False, f"the real device is turned off (${ENV}=0)"
    if not _installed("cuda-bindings", "cuda-python"):
        return False, "cuda-python is not installed (pip install 'tileir[gpu]')"
    ok, tool = _assembler_status()
    if not ok:
        return False, tool
    ok, said = _probe_driver()
    if not ok:
        return False, said
    return True, f"{said}; cubins from {tool}"


def real_device_required() -> bool:
    """True when ``TILEIR_REAL_DEVICE=1`` asks for the real device whatever is found."""
    return os.environ.get(ENV) == "1"


def as_pytest_plugins() -> list:
    """``["tileir.testing.plugin"]`` for a ``pytest_plugins`` variable, or ``[]`` when a
    pytest11 entry point of an installed distribution already loads it (pytest refuses a
    plugin registered twice under two names).  Lives outside the plugin module so that
    asking does not import the plugin before pytest can rewrite its asserts."""
    for ep in importlib.metadata.entry_points(group="pytest11"):
        if ep.value.split(":")[0].strip() == PLUGIN:
            return []
    return [PLUGIN]
