"""Why a checked kernel failed: the debugger's finders, run on the failing example.

When :func:`~tileir.testing.check_kernel` has its shrunk counterexample, it runs the
finders of :mod:`tileir.debug` on that one launch (on the fake device's interpreter)
and adds what they say to the failure, so the message names the cause as the
finder would: an Out element no block writes, padding that reaches an output,
two blocks writing one Shared element, a store past the end of its buffer.
When no finder explains a mismatch, the message says so: then the reference is
as likely to be wrong as the kernel.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from tileir.debug import (
    find_out_of_bounds,
    find_padding_leaks,
    find_races,
    find_untouched,
    trace_kernel,
)
from tileir.debug.findings import Finding
from tileir.kernel import Kernel

__all__ = ["mismatch_causes", "fault_causes", "NO_CAUSE_FOUND"]

#: What a mismatch says when no finder explains it.
NO_CAUSE_FOUND = (
    "no finder explains it (find_untouched, find_padding_leaks and find_races found "
    "nothing in this launch): check the reference as well as the kernel"
)


def _indent(finding: Finding, finder: str) -> str:
    text = str(finding).replace("\n", "\n      ")
    return f"    {text}\n      (found by tileir.debug.{finder})"


def mismatch_causes(
    kernel: Kernel, args: Sequence[Any], grid: Optional[Sequence[int]], shared_differs: bool
) -> str:
    """Lines naming what the finders see in a launch whose buffers disagree with the
    reference (``shared_differs``: a Shared buffer is among them)."""
    lines: list[str] = []
    try:
        for f in find_untouched(kernel, args, grid):
            lines.append(_indent(f, "find_untouched"))
        trace = trace_kernel(kernel, args, grid, blocks=None)
        for f in find_padding_leaks(trace):
            lines.append(_indent(f, "find_padding_leaks"))
        races = find_races(kernel, args, grid)
        for f in races:
            lines.append("    this looks like a race between blocks:\n" + _indent(f, "find_races"))
    except Exception as err:  # the finders are advice: a mismatch is reported without them
        return f"  (the finders could not run on this launch: {type(err).__name__}: {err})"
    if shared_differs and not any("race" in line for line in lines):
        lines.append(
            "    a Shared buffer differs: when blocks share elements that may be a race the "
            "interpreter's block order hid; tileir.debug.find_races(kernel, args, grid) "
            "checks several orders"
        )
    if not lines:
        return f"  cause: {NO_CAUSE_FOUND}"
    return "  cause:\n" + "\n".join(lines)


def fault_causes(kernel: Kernel, args: Sequence[Any], grid: Optional[Sequence[int]]) -> str:
    """Lines naming the out-of-bounds access (element, buffer and its length) behind a
    launch the interpreter refused, or nothing when the bounds finder sees none."""
    try:
        found = [f for f in find_out_of_bounds(kernel, args, grid) if f.kind == "out-of-bounds"]
    except Exception:  # advice only, as above
        return ""
    if not found:
        return ""
    return "  cause:\n" + "\n".join(_indent(f, "find_out_of_bounds") for f in found)
