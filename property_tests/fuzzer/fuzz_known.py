"""Known tileir bugs the fuzzer steps around while they last.

An entry names a saved regression case (``regressions/<case>``, marked ``known_bug`` so
the replay test expects it to fail) and the part of the drawn space that trips it:
buffer ``formats`` no In, Out or Shared may hold, ``roundings`` (source, destination,
rounding) no ``ftof`` may take.  :func:`still_failing` replays the case once per process:
when tileir is fixed the case passes, the fuzzer draws that space again by itself, and
the replay test's strict xfail tells whoever fixed it to drop the ``known_bug`` mark and
the entry.

Past entries (fixed, their cases kept as plain regressions): f8E5M2 buffers the fake
device could not read through its strided windows (``f8E5M2-buffer-views.json``); ftof
roundings tileiras cannot compile, which the recorder now refuses
(``tileir.ir.attr_rules.ftof_compiles``).
"""

from __future__ import annotations

import functools
from pathlib import Path

__all__ = ["KNOWN_BUGS", "still_failing", "buffer_formats", "ftof_modes_allowed"]

_REGRESSIONS = Path(__file__).parent / "regressions"

#: name -> {"case": regression file, "what": the space left out, "formats": (...),
#: "roundings": ((src, dst, rounding), ...)}
KNOWN_BUGS: dict = {}


@functools.lru_cache(maxsize=None)
def still_failing(name: str) -> bool:
    """Whether the known bug's saved case still fails its checks (a case that needs
    tileiras counts as failing where it is not installed: nothing can tell)."""
    from fuzz_checks import check_description, load_case  # late: fuzz_checks draws on us

    desc, args, saved = load_case(_REGRESSIONS / KNOWN_BUGS[name]["case"])
    tools = saved.get("checks") == "tools"
    if tools:
        from tileir.real import tileiras

        if not tileiras.available():
            return True
    try:
        check_description(desc, args, tools=tools)
    except AssertionError:
        return True
    return False


def _active(key: str) -> set:
    out: set = set()
    for name, bug in KNOWN_BUGS.items():
        if bug.get(key) and still_failing(name):
            out |= set(bug[key])
    return out


def buffer_formats(formats: tuple) -> tuple:
    """``formats`` less those a known bug keeps out of buffers."""
    if not KNOWN_BUGS:
        return formats
    out = _active("formats")
    return tuple(f for f in formats if f not in out)


def ftof_modes_allowed(src: str, dst: str, modes: tuple) -> tuple:
    """``modes`` less the roundings a known bug keeps out of ``src -> dst``."""
    if not KNOWN_BUGS:
        return modes
    out = _active("roundings")
    return tuple(m for m in modes if (src, dst, m) not in out)
