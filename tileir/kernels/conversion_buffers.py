"""How the conversion kernels carry each format in host memory, and the kernel they share.

f8E5M2 travels as i8 bit patterns reinterpreted with ``bitcast`` in the kernel, i4 as i8
(``trunci`` in, ``exti`` signed out: no pointer to i4 exists), fnv8E5M3FNU as raw bits
(numpy has no such type), i1 as bools; the other formats in their own numpy dtype.
"""

from __future__ import annotations

import numpy as np

from tileir import (
    F4E2M1FN,
    F8E5M2,
    FNV8E5M3FNU,
    I1,
    I4,
    I8,
    TF32,
    In,
    Out,
    bitcast,
    cells,
    convert,
    load_cell,
    store_cell,
    trace,
)
from tileir.kernels.floatref import fnv8_values, round_to, to_bits

__all__ = [
    "N",
    "TILE",
    "memory_format",
    "arrive",
    "leave",
    "to_buffer",
    "from_buffer",
    "wrap_ints",
    "int_values",
    "cell_kernel",
    "zeros_for",
    "random_bits",
]

#: Every conversion kernel converts N values in cells of TILE.
N, TILE = 512, 128


def memory_format(fmt):
    """The format of the host buffer that carries ``fmt`` values."""
    return I8 if fmt in (F8E5M2, I4) else fmt


def arrive(x, fmt):
    """A loaded tile of ``memory_format(fmt)`` as a tile of ``fmt``."""
    if fmt == F8E5M2:
        return bitcast(x, F8E5M2)
    return convert(x, I4) if fmt == I4 else x


def leave(y, fmt):
    """A tile of ``fmt`` as the tile its buffer stores (i4 widens signed)."""
    if fmt == F8E5M2:
        return bitcast(y, I8)
    return convert(y, I8) if fmt == I4 else y


def to_buffer(values: np.ndarray, fmt) -> np.ndarray:
    """Values exact in ``fmt`` as the host buffer of ``fmt``."""
    if fmt == F8E5M2:
        return to_bits(values, fmt).astype(np.uint8).view(np.int8)
    if fmt == FNV8E5M3FNU:
        return to_bits(values, fmt).astype(np.uint8)
    return values.astype(fmt.numpy_dtype)


def from_buffer(buf: np.ndarray, fmt) -> np.ndarray:
    """A float buffer's values as float64."""
    if fmt == F8E5M2:
        import ml_dtypes

        return buf.view(np.uint8).view(ml_dtypes.float8_e5m2).astype(np.float64)
    if fmt == FNV8E5M3FNU:
        return fnv8_values()[buf.astype(np.int64)]
    return buf.astype(np.float64)


def wrap_ints(values, fmt) -> np.ndarray:
    """Integers (any range) wrapped two's-complement into the buffer of ``fmt``."""
    v = np.asarray(values).astype(np.int64)  # wide unsigned values keep their low bits
    if fmt == I1:
        return (v & 1).astype(bool)
    if fmt == I4:  # the buffer is i8, written by a signed exti
        return (((v & 15) ^ 8) - 8).astype(np.int8)
    return v.astype(fmt.numpy_dtype)


def int_values(a: np.ndarray, fmt, signed: bool) -> np.ndarray:
    """An integer buffer's values read signed or unsigned (i4: the low nibble of the i8)."""
    if fmt == I1:  # read unsigned, a true is 1; signed, it is -1
        return -a.astype(np.int64) if signed else a.astype(np.int64)
    if fmt == I4:
        low = a.astype(np.int64) & 15
        return np.where(low >= 8, low - 16, low) if signed else low
    return a.astype(np.int64) if signed else a.view(np.dtype(f"u{a.itemsize}")).astype(np.uint64)


def cell_kernel(name, src, dst, fn):
    """A kernel loading a cell of ``src`` and storing ``fn(tile)`` (of ``dst``) to a cell."""

    def body(a, out):
        x = yield load_cell(a)
        yield store_cell(out, leave(fn(arrive(x, src)), dst))

    def build():
        g = cells([N], [TILE])
        return trace(name, body, In(memory_format(src), g), Out(memory_format(dst), g))

    return build


def zeros_for(fmt) -> np.ndarray:
    return np.zeros(N, memory_format(fmt).numpy_dtype)


def random_bits(rng, src, dst) -> np.ndarray:
    """Random bit patterns in ``src``'s buffer, none of them a NaN in ``src`` or ``dst`` (a
    device need not keep a NaN's payload)."""
    if src == TF32:  # tf32 -> tf32 only: values whose low 13 bits are zero
        return round_to(rng.uniform(-100.0, 100.0, N), TF32).astype(np.float32)
    if src == I1:
        return rng.integers(0, 2, N).astype(bool)
    width = memory_format(src).numpy_dtype.itemsize
    bits = np.frombuffer(rng.bytes(N * width), dtype=f"u{width}").copy()
    if src == F4E2M1FN:  # four bits in each byte of the buffer
        bits &= 0xF
    for fmt in (src, dst):
        if fmt.is_float:
            with np.errstate(invalid="ignore"):
                nan = np.isnan(from_buffer(bits.view(memory_format(fmt).numpy_dtype), fmt))
            bits[nan] = 0
    return bits.view(memory_format(src).numpy_dtype)
