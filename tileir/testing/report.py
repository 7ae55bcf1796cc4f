"""What a failed kernel check says: the drawn shapes, the inputs (summarised when long),
and the first differing element with its block and both values.

>>> summarize(np.arange(5, dtype=np.float32))
'f32[5] [0.0, 1.0, 2.0, 3.0, 4.0]'
>>> summarize(np.arange(100, dtype=np.int32))
'i32[100] [0, 1, 2, 3, 4, 5, ..., 98, 99] (min 0, max 99)'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence

import numpy as np

from tileir.host.launch import block_of_element
from tileir.types import format_of_dtype

if TYPE_CHECKING:
    from tileir.fake.compare import Difference
    from tileir.host.tolerance import Tolerance
    from tileir.kernel import Kernel

__all__ = ["summarize", "element_position", "describe_difference", "describe_inputs"]

#: Arrays up to this length are shown whole.
SHOWN_WHOLE = 16


def _item(v: object) -> str:
    x = v.item() if hasattr(v, "item") else v
    if isinstance(x, float):
        return repr(float(x))
    return repr(x)


def summarize(value: object) -> str:
    """A short text for one launch argument: a whole short array, or its head, tail and
    range (and how many NaNs) when long; numbers as they are."""
    if not isinstance(value, np.ndarray):
        return _item(value)
    try:
        name = format_of_dtype(value.dtype).name
    except ValueError:
        name = str(value.dtype)
    flat = value.reshape(-1)
    head = f"{name}[{flat.size}]"
    if flat.size <= SHOWN_WHOLE:
        return f"{head} [{', '.join(_item(v) for v in flat)}]"
    shown = [_item(v) for v in flat[:6]] + ["..."] + [_item(v) for v in flat[-2:]]
    text = f"{head} [{', '.join(shown)}]"
    if flat.dtype.kind in "iub" or flat.dtype.kind == "f" or name in ("bf16",):
        as_f = flat.astype(np.float64) if flat.dtype.kind != "b" else flat.astype(np.int64)
        finite = as_f[np.isfinite(as_f)]
        extra = []
        if finite.size:
            lo, hi = finite.min(), finite.max()
            show = (
                (lambda x: repr(int(x)))
                if flat.dtype.kind in "iub"
                else (lambda x: repr(float(x)))
            )
            extra.append(f"min {show(lo)}, max {show(hi)}")
        nans = int(np.isnan(as_f).sum()) if flat.dtype.kind not in "iub" else 0
        if nans:
            extra.append(f"{nans} NaN")
        if extra:
            text += f" ({'; '.join(extra)})"
    return text


def element_position(kernel: Kernel, index: int, element: int) -> str:
    """``element`` of argument ``index`` as a position in its cells' extent (``(3, 7)``)."""
    c = kernel.params[index].cells
    extent = [] if c is None else [e for e in c.extent if isinstance(e, int)]
    if c is None or len(extent) != len(c.extent):  # (no cells, or a DYN_DIM extent)
        return f"element {element}"
    if element >= int(np.prod(extent)):
        return f"element {element} (past the extent {list(c.extent)})"
    at = tuple(int(i) for i in np.unravel_index(element, extent))
    return f"element {element} = {at} of extent {list(c.extent)}"


def describe_difference(
    kernel: Kernel,
    index: int,
    diff: Difference,
    grid: Sequence[int],
    tolerance: Optional[Tolerance],
    total: int,
) -> str:
    """One line naming the argument, the first differing element, its block, both values,
    the tolerance and how many elements differ."""
    p = kernel.params[index]
    block = block_of_element(kernel, index, diff.index, tuple(grid))
    where = f"block {list(block)}" if block is not None else "no cell (Shared)"
    tol = "bit-exact" if tolerance is None else str(tolerance)
    return (
        f"argument {index} ({p.role} {p.format}) differs at "
        f"{element_position(kernel, index, diff.index)}, in {where}: the kernel gives "
        f"{_item(diff.got)} and the reference {_item(diff.expected)} ({tol}); "
        f"{diff.count} of {total} element(s) differ"
    )


def describe_inputs(kernel: Kernel, args: Sequence[Any]) -> str:
    """One line per argument: its role, format and a summary of the value drawn."""
    lines = []
    for p, a in zip(kernel.params, args):
        lines.append(f"    argument {p.index} ({p.role}): {summarize(a)}")
    return "\n".join(lines)
