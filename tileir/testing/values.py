"""Hypothesis strategies for element values and whole buffers of a format.

:func:`element_values` draws Python numbers that a format holds exactly: finite
floats by default, with NaN, infinities and subnormals on request (signed zeros
are always possible), and integers in the format's range.  :func:`buffers`
draws a 1-D numpy array of the format's host dtype; long buffers are made of a
small drawn pool of values laid out in a drawn pattern plus a few drawn
overrides, so they stay cheap to draw and still shrink to readable examples.

>>> from hypothesis import given
>>> from tileir.types import F16, I8
>>> @given(element_values(I8))
... def in_range(v):
...     assert -128 <= v <= 127
>>> in_range()
>>> @given(buffers(F16, 300))
... def right_dtype(a):
...     assert a.dtype == np.float16 and a.shape == (300,) and np.isfinite(a).all()
>>> right_dtype()
"""

from __future__ import annotations

import functools
import math
from typing import Callable, Literal, Optional, Union

import ml_dtypes
import numpy as np
from hypothesis import strategies as st

from tileir.formats import numpy_dtype
from tileir.ir.numerics import scalar_bits, scalar_value, tf32_round
from tileir.types import Format

__all__ = ["element_values", "buffers", "ValuesFor", "values_for", "DRAWN_ONE_BY_ONE"]

#: ``fmt -> strategy of numbers``: how a caller picks values per format.
ValuesFor = Callable[[Format], st.SearchStrategy]

#: Buffers up to this length draw every element on its own (full shrinking).
DRAWN_ONE_BY_ONE = 32

_IEEE_WIDTH: dict[str, Literal[16, 32, 64]] = {"f16": 16, "f32": 32, "f64": 64}


def _float_info(fmt: Format) -> tuple[float, float]:
    """(largest finite value, smallest normal value) of a float format."""
    if fmt.name in ("f32", "tf32"):
        info = np.finfo(np.float32)
    elif fmt.name == "fnv8E5M3FNU":
        table = _table(fmt)
        finite = table[np.isfinite(table) & (table > 0)]
        return float(finite.max()), float(finite.min())
    else:
        info = ml_dtypes.finfo(numpy_dtype(fmt))
    return float(info.max), float(info.smallest_normal)


@functools.lru_cache(maxsize=None)
def _table(fmt: Format) -> np.ndarray:
    """Every value of an 8-bit-or-narrower float format, as float64 (NaN included)."""
    if fmt.name == "fnv8E5M3FNU":
        return np.array([scalar_value(fmt, b) for b in range(256)], dtype=np.float64)
    codes = np.arange(1 << fmt.bits, dtype=np.uint8)  # 256 codes of fp8, 16 of fp4
    return codes.view(numpy_dtype(fmt)).astype(np.float64)


def _in_bounds(v: float, lo: Optional[float], hi: Optional[float]) -> bool:
    if math.isnan(v):
        return True
    return (lo is None or v >= lo) and (hi is None or v <= hi)


def _narrow_float_values(
    fmt: Format,
    nan: bool,
    infinity: bool,
    subnormal: bool,
    lo: Optional[float],
    hi: Optional[float],
) -> st.SearchStrategy:
    _, tiny = _float_info(fmt)
    keep = []
    for v in np.unique(_table(fmt)):  # sorted; NaN last
        v = float(v)
        if math.isnan(v):
            continue
        if math.isinf(v) and not infinity:
            continue
        if v != 0 and abs(v) < tiny and not subnormal:
            continue
        if _in_bounds(v, lo, hi):
            keep.append(v)
    # simplest first, so shrinking heads for 0, 1, -1 ...
    keep.sort(key=lambda v: (abs(v) if math.isfinite(v) else math.inf, v < 0))
    if -0.0 in keep and 0.0 in keep:
        keep.insert(1, -0.0)
    out = st.sampled_from(keep)
    if nan and any(math.isnan(v) for v in _table(fmt)):
        out = out | st.just(math.nan)
    return out


def _wide_float_values(
    fmt: Format,
    nan: bool,
    infinity: bool,
    subnormal: bool,
    lo: Optional[float],
    hi: Optional[float],
) -> st.SearchStrategy:
    width = _IEEE_WIDTH.get(fmt.name, 32)
    biggest, tiny = _float_info(fmt)
    # explicit bounds keep Hypothesis from drawing float64s and rejecting the unrepresentable
    lo = -biggest if lo is None else max(lo, -biggest)
    hi = biggest if hi is None else min(hi, biggest)
    base = st.floats(
        min_value=lo,
        max_value=hi,
        allow_nan=False,
        allow_infinity=False,
        allow_subnormal=subnormal,
        width=width,
    )
    if fmt.name == "tf32":
        base = base.map(lambda v: float(tf32_round(np.float32(v))))
    elif fmt.name == "bf16":

        def to_bf16(v: float) -> float:
            r = float(np.float32(v).astype(ml_dtypes.bfloat16))
            return r if subnormal or r == 0 or abs(r) >= tiny else math.copysign(tiny, r)

        base = base.map(to_bf16)
    extra = ([math.nan] if nan else []) + ([math.inf, -math.inf] if infinity else [])
    return base | st.sampled_from(extra) if extra else base


def element_values(
    fmt: Format,
    *,
    nan: bool = False,
    infinity: bool = False,
    subnormal: bool = False,
    min_value: Optional[Union[int, float]] = None,
    max_value: Optional[Union[int, float]] = None,
) -> st.SearchStrategy:
    """Numbers the format ``fmt`` holds exactly (Python floats, ints or bools).

    Floats are finite and normal (or zero, of either sign) unless ``nan``,
    ``infinity`` or ``subnormal`` ask for more; ``min_value`` / ``max_value``
    bound them (NaN and infinities are added beside the bounds when asked for).
    Integers cover the format's signed range, or the bounds given; ``i1`` draws
    booleans.
    """
    if not isinstance(fmt, Format):
        raise TypeError(f"element_values takes a tileir Format such as F32, got {fmt!r}")
    if fmt.is_int:
        if fmt.bits == 1:
            return st.booleans()
        lo, hi = -(1 << (fmt.bits - 1)), (1 << (fmt.bits - 1)) - 1
        lo = lo if min_value is None else max(lo, int(min_value))
        hi = hi if max_value is None else min(hi, int(max_value))
        return st.integers(lo, hi)
    flo = None if min_value is None else float(min_value)
    fhi = None if max_value is None else float(max_value)
    if fmt.bits <= 8:
        return _narrow_float_values(fmt, nan, infinity, subnormal, flo, fhi)
    return _wide_float_values(fmt, nan, infinity, subnormal, flo, fhi)


def values_for(
    *,
    nan: bool = False,
    infinity: bool = False,
    subnormal: bool = False,
    magnitude: Optional[float] = 1000.0,
) -> ValuesFor:
    """A ``fmt -> strategy`` picker: floats within ``magnitude`` (clipped to the format's
    range; ``None`` for no bound) with the specials asked for, integers in full range."""

    def pick(fmt: Format) -> st.SearchStrategy:
        if fmt.is_int or magnitude is None:
            return element_values(fmt, nan=nan, infinity=infinity, subnormal=subnormal)
        biggest, _ = _float_info(fmt)
        m = min(float(magnitude), biggest)
        lo = 0.0 if fmt.name == "f8E8M0FNU" else -m
        return element_values(
            fmt, nan=nan, infinity=infinity, subnormal=subnormal, min_value=lo, max_value=m
        )

    return pick


def _host_array(values: list, fmt: Format) -> np.ndarray:
    dt = numpy_dtype(fmt)
    if fmt.name == "fnv8E5M3FNU":
        return np.array([scalar_bits(fmt, float(v)) for v in values], dtype=np.uint8)
    if fmt.is_int:
        return np.array([int(v) for v in values], dtype=np.int64).astype(dt)
    return np.array(values, dtype=np.float64).astype(dt)


@st.composite
def _pooled(draw, fmt: Format, n: int, values: st.SearchStrategy) -> np.ndarray:
    pool = draw(st.lists(values, min_size=1, max_size=DRAWN_ONE_BY_ONE), label="pool")
    layout = draw(st.sampled_from(["cycle", "scattered"]), label="layout")
    if layout == "cycle":
        picks = np.arange(n) % len(pool)
    else:
        seed = draw(st.integers(0, 2**32 - 1), label="seed")
        picks = np.random.default_rng(seed).integers(0, len(pool), size=n)
    out = _host_array(pool, fmt)[picks]
    overrides = draw(
        st.lists(st.tuples(st.integers(0, n - 1), values), max_size=4), label="overrides"
    )
    if overrides:
        at = np.array([i for i, _ in overrides])
        out[at] = _host_array([v for _, v in overrides], fmt)
    return out


def buffers(
    fmt: Format, n: int, *, values: Optional[st.SearchStrategy] = None
) -> st.SearchStrategy:
    """A 1-D numpy array of ``n`` elements of ``fmt`` (its host dtype).

    ``values`` draws the elements (default: :func:`element_values` of ``fmt``).
    Up to :data:`DRAWN_ONE_BY_ONE` elements are drawn one by one; longer buffers
    repeat a drawn pool of values (cyclically, or scattered by a drawn seed) with
    up to four drawn elements placed anywhere.
    """
    if n < 0:
        raise ValueError(f"buffers: length {n} is negative")
    values = element_values(fmt) if values is None else values
    if n <= DRAWN_ONE_BY_ONE:
        return st.lists(values, min_size=n, max_size=n).map(lambda vs: _host_array(vs, fmt))
    return _pooled(fmt, n, values)
