"""Launch arguments for fuzzed kernels, and their JSON form in regression files.

Buffers get a drawn kind of values (small halves, uniform, wide magnitudes), a drawn
seed and up to three drawn special values at drawn places; a Scalar a value from a small
drawn set.  Few draws per example, so many kernels run per second.  Narrow floats hold
values already rounded into the format (``fuzz_numerics.round_into``): a tf32 buffer
is float32 memory holding tf32 numbers (a device reads the top 19 bits of each word).
Atomic buffers hold small values (integer folds then stay readable).
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from fuzz_grammar import INTS
from fuzz_numerics import dtype_of, is_float, max_finite, round_into, tiny

__all__ = ["launch_args", "args_json", "args_from_json", "specials"]


def specials(fmt: str) -> list:
    if is_float(fmt):
        out = [math.nan, math.inf, -math.inf, -0.0, max_finite(fmt), -tiny(fmt), 1.0]
        return [v for v in out if not (fmt == "f8E4M3FN" and math.isinf(v))]
    bits = int(fmt[1:])
    return [-(1 << (bits - 1)), (1 << (bits - 1)) - 1, 0, -1]


def _as_format(x: np.ndarray, fmt: str) -> np.ndarray:
    """float64 values as elements of ``fmt`` (rounded once, correctly)."""
    return np.asarray(round_into(np.asarray(x, dtype=np.float64), fmt)).astype(dtype_of(fmt))


def _values(fmt: str, kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if is_float(fmt):
        if kind == "small":
            x = rng.integers(-8, 9, size=n) / 2.0
        elif kind == "uniform":
            x = rng.uniform(-10, 10, size=n)
        else:
            x = rng.choice([-1.0, 1.0], size=n) * 10.0 ** rng.uniform(-8, 8, size=n)
            x = np.clip(x, -max_finite(fmt), max_finite(fmt))
        return _as_format(x, fmt)
    bits = int(fmt[1:])
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if kind == "small":
        return rng.integers(-8, 9, size=n).astype(dtype_of(fmt))
    if kind == "uniform":
        return rng.integers(lo, hi, size=n, endpoint=True).astype(dtype_of(fmt))
    return (rng.choice([-1, 1], size=n) * (1 << rng.integers(0, bits - 1, size=n))).astype(
        dtype_of(fmt)
    )


def _length(p: dict) -> int:
    if p["role"] == "Shared":
        return p["length"]
    return int(np.prod(p["extent"]))


@st.composite
def launch_args(draw, desc: dict) -> list:
    """Inputs for a description (see the module docstring)."""
    args = []
    for i, p in enumerate(desc["params"]):
        fmt = p["format"]
        if p["role"] == "Scalar":
            v = draw(st.sampled_from([0, 1, -1, 2, 3, -4] + specials(fmt)), label=f"scalar {i}")
            args.append(
                np.asarray(v).astype(dtype_of(fmt))[()]
                if is_float(fmt)
                else np.asarray(int(v)).astype(dtype_of(fmt))[()]
            )
            continue
        n = _length(p)
        kinds = ["small"] if p.get("use") == "atomic" else ["small", "uniform", "wide"]
        kind = draw(st.sampled_from(kinds), label=f"values {i}")
        seed = draw(st.integers(0, 2**32 - 1), label=f"seed {i}")
        x = _values(fmt, kind, n, np.random.default_rng(seed))
        for at, v in draw(
            st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from(specials(fmt))), max_size=3),
            label=f"specials {i}",
        ):
            x[at] = (
                _as_format(np.asarray([v]), fmt)[0]
                if is_float(fmt)
                else np.asarray(v).astype(dtype_of(fmt))
            )
        args.append(x)
    return args


def args_json(desc: dict, args: list) -> list:
    """Arguments as JSON numbers (floats as float64: exact for every drawn format)."""
    out = []
    for p, a in zip(desc["params"], args):
        arr = np.asarray(a)
        if p["format"] in INTS or p["format"] == "i1":
            out.append([int(v) for v in arr.reshape(-1)] if arr.ndim else int(arr))
        else:
            vals = arr.astype(np.float64)
            out.append([float(v) for v in vals.reshape(-1)] if arr.ndim else float(vals))
    return out


def args_from_json(desc: dict, raw: list) -> list:
    args = []
    for p, a in zip(desc["params"], raw):
        dt = dtype_of(p["format"])
        if p["role"] == "Scalar":
            args.append(
                np.asarray(a, dtype=np.float64 if is_float(p["format"]) else np.int64).astype(dt)[
                    ()
                ]
            )
        elif is_float(p["format"]):
            args.append(_as_format(np.asarray(a, dtype=np.float64), p["format"]))
        else:
            args.append(np.asarray(a, dtype=np.int64).astype(dt))
    return args
