"""Debugging kernels on the fake device: trace them, find where they go wrong, see the
source beside the Tile IR.

* :func:`trace_kernel` runs a kernel and keeps every op a chosen block ran, with
  its Tile IR text, the user's source line, its operand and result values;
  ``Trace.summary()`` prints it.
* Finders, each answering a list of :class:`Finding` (op, source line, block,
  element): :func:`find_nonfinite` (where NaNs / infinities start),
  :func:`find_padding_leaks` (padding past an extent that reaches an output),
  :func:`find_races` (blocks writing what other blocks write or read),
  :func:`find_out_of_bounds` (pointer accesses outside their buffer),
  :func:`find_untouched` (In elements no block reads, Out elements no block writes),
  :func:`find_uninitialized` (reads of elements nothing wrote before them: an Out,
  ``scratch`` memory, load lanes with no padding value).
* :func:`explain_html` / :func:`write_explain`: one self-contained HTML page with
  each source line beside the ops it recorded, and, given :func:`memory_maps` of a
  launch, a map per buffer of which block read and wrote each element.

See docs/debugging.md for worked examples.
"""

from tileir.debug.bounds import find_out_of_bounds
from tileir.debug.findings import Finding, Related, format_findings
from tileir.debug.memmap import BufferMap, memory_maps
from tileir.debug.nonfinite import find_nonfinite
from tileir.debug.optext import OpText, OpTexts, op_texts
from tileir.debug.padding import find_padding_leaks
from tileir.debug.page import explain_html, write_explain
from tileir.debug.races import find_races
from tileir.debug.sourcemap import source_map
from tileir.debug.tracer import MemoryAccess, Step, Trace, trace_kernel
from tileir.debug.uninitialized import find_uninitialized
from tileir.debug.untouched import find_untouched

__all__ = [
    "trace_kernel",
    "Trace",
    "Step",
    "MemoryAccess",
    "find_nonfinite",
    "find_padding_leaks",
    "find_races",
    "find_out_of_bounds",
    "find_untouched",
    "find_uninitialized",
    "Finding",
    "Related",
    "format_findings",
    "explain_html",
    "memory_maps",
    "BufferMap",
    "write_explain",
    "source_map",
    "op_texts",
    "OpText",
    "OpTexts",
]
