"""Short text for tile values: whole when small, a summary when long.

A long tile is shown as its shape, min, max, the count of NaNs and infinities,
and its first few values, so a trace of a 32x32 kernel stays readable.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence

import numpy as np

from tileir.types import PointerType, Type

__all__ = ["describe", "describe_values", "is_float", "SMALL"]

#: Tiles with at most this many elements are printed whole.
SMALL = 8
_FIRST = 4


def is_float(a: np.ndarray) -> bool:
    """True for arrays of floats, ml_dtypes' narrow floats included (their kind is 'V')."""
    kind = a.dtype.kind
    return kind == "f" or (kind == "V" and "float" in a.dtype.name)


def _num(x) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, (float, np.floating)) or is_float(np.asarray(x)):
        return f"{float(x):.6g}"
    return str(int(x)) if isinstance(x, (int, np.integer)) else str(x)


def _flat(a: np.ndarray) -> list:
    return [_num(v) for v in a.reshape(-1)]


def describe(value: Any, ttype: Optional[Type] = None) -> str:
    """One line for one value: a scalar, a tile (summarised when long), a view, a token.
    Pointers (``ttype`` a tile of pointers) show as hex addresses of the fake memory."""
    if value is None:
        return "token"
    if isinstance(value, np.ndarray) and isinstance(getattr(ttype, "element", None), PointerType):
        flat = [f"{int(v):#x}" for v in value.reshape(-1)[:_FIRST]]
        if value.ndim == 0:
            return flat[0]
        more = ", ..." if value.size > _FIRST else ""
        return f"[{'x'.join(str(n) for n in value.shape)}] pointers [{', '.join(flat)}{more}]"
    if not isinstance(value, np.ndarray):
        return (
            type(value).__name__.replace("TileView", "view").replace("TensorView", "tensor view")
        )
    a = value
    if a.ndim == 0:
        return _num(a[()])
    shape = "x".join(str(n) for n in a.shape)
    if a.size <= SMALL:
        return f"[{shape}] " + "[" + ", ".join(_flat(a)) + "]"
    head = ", ".join(_flat(a.reshape(-1)[:_FIRST]))
    if is_float(a):
        f = a.astype(np.float64)
        fin = np.isfinite(f)
        nan = int(np.isnan(f).sum())
        inf = int(np.isinf(f).sum())
        lo = _num(f[fin].min()) if fin.any() else "-"
        hi = _num(f[fin].max()) if fin.any() else "-"
        extra = f" nan {nan}" + (f" inf {inf}" if inf else "")
        return f"[{shape}] min {lo} max {hi}{extra} first [{head}, ...]"
    if a.dtype == np.bool_:
        return f"[{shape}] true {int(a.sum())} of {a.size} first [{head}, ...]"
    return f"[{shape}] min {_num(a.min())} max {_num(a.max())} first [{head}, ...]"


def describe_values(
    values: Sequence[Any], types: Optional[Iterable[Optional[Type]]] = None
) -> str:
    """The results of one op, ``; ``-separated (tokens left out when others exist);
    ``types`` are the results' types, when known."""
    types = list(types) if types is not None else [None] * len(values)
    shown = [describe(v, t) for v, t in zip(values, types)]
    real = [s for s in shown if s != "token"]
    return "; ".join(real or shown)
