"""Self-contained ("tagged") attributes: a tag varint, then the payload.

They carry reduce/scan identities (an Array of Integer/Float), assume
predicates (DivBy, SameElements, Bounded) and optimization hints (a dictionary
per architecture of Integer/Bool values).  A float scalar is written in its
APFloat width: one byte up to 8 bits, else the zigzag varint of its pattern as
a signed 64-bit word (so negative f64 values keep their sign, as the C++
writer does).  tf32 is a 19-bit APFloat: our ``ScalarAttr`` keeps its f32 pattern.

>>> from tileir.types import F32
>>> from tileir.encode.pools import Pools
>>> p = Pools((13, 1)); s = Sink()
>>> write_tagged(s, ScalarAttr.of(F32, -1.0), p)
>>> bytes(s.buf).hex()
'0200808080f817'
"""

from __future__ import annotations

from typing import Any, Union

from tileir.encode.pools import Pools, ReadPools
from tileir.encode.wire import Sink, Source, as_int64
from tileir.errors import EncodeError
from tileir.ir.dialect import ENUMS
from tileir.ir.module import (
    Bounded,
    Dense,
    DivBy,
    Hints,
    MultimemReduction,
    SameElements,
    ScalarAttr,
)
from tileir.types import Format, TileType, Type

__all__ = ["write_tagged", "read_tagged", "write_hints", "read_hints", "float_width", "TAG"]

#: A tagged attribute's value, as :func:`write_tagged` takes it and :func:`read_tagged` gives
#: it back (an array is a tuple of them; a dictionary a tuple of ``(key, value)`` pairs).
Tagged = Union[
    ScalarAttr,
    bool,
    int,
    str,
    Type,
    tuple[Any, ...],
    Dense,
    DivBy,
    SameElements,
    Bounded,
    Hints,
    MultimemReduction,
]
_REDUCTIONS = ENUMS["multimem_reduction_kind"]

TAG = {
    "int": 1,
    "float": 2,
    "bool": 3,
    "type": 4,
    "string": 5,
    "array": 6,
    "dense": 7,
    "div_by": 8,
    "same_elements": 9,
    "dict": 10,
    "hints": 11,
    "bounded": 12,
    "multimem_reduction_kind": 13,  # 13.5
}
_V5 = (13, 5)
_I32 = Format("i32")
_U64 = (1 << 64) - 1


def float_width(fmt: Format) -> int:
    """The APFloat width the bytecode stores a float scalar of ``fmt`` in."""
    return 19 if fmt.name == "tf32" else fmt.bits


def _scalar_payload(fmt: Format, bits: int) -> int:
    if fmt.name == "tf32":
        if bits & 0x1FFF:
            raise EncodeError(f"tf32 scalar {bits:#x} has bits below tf32's 10-bit mantissa")
        return bits >> 13
    return bits


def write_tagged(s: Sink, value: Tagged, pools: Pools) -> None:
    """Write ``value`` (ScalarAttr, bool, int (i32), str, tuple, Dense, a predicate, Hints)."""
    if isinstance(value, bool):
        s.varint(TAG["bool"])
        s.byte(int(value))
    elif isinstance(value, int):
        # an i32 as a Python int: signed, or its unsigned pattern; wider would wrap around
        if not -(1 << 31) <= value < 1 << 32:
            raise EncodeError(
                f"integer {value} is outside the i32 field's range "
                f"{-(1 << 31)} .. {(1 << 32) - 1} (signed or its unsigned pattern)"
            )
        write_tagged(s, ScalarAttr(_I32, value & 0xFFFFFFFF), pools)
    elif isinstance(value, ScalarAttr):
        fmt = value.format
        if not 0 <= value.bits < (1 << fmt.bits):
            raise EncodeError(f"scalar bits {value.bits:#x} do not fit {fmt}")
        if fmt.is_int:
            s.varint(TAG["int"])
            s.varint(pools.type(fmt))
            if fmt.bits == 1:
                s.byte(value.bits)
            else:
                s.varint(value.bits)
        else:
            s.varint(TAG["float"])
            s.varint(pools.type(fmt))
            payload = _scalar_payload(fmt, value.bits)
            if float_width(fmt) <= 8:
                s.byte(payload)
            else:  # the pattern is unsigned; the field holds it as the int64 of its bits
                s.svarint(as_int64(payload))
    elif isinstance(value, str):
        s.varint(TAG["string"])
        s.varint(pools.string(value))
    elif isinstance(value, tuple):
        s.varint(TAG["array"])
        s.varint(len(value))
        for item in value:
            write_tagged(s, item, pools)
    elif isinstance(value, Dense):
        s.varint(TAG["dense"])
        s.varint(pools.type(value.type))
        s.varint(pools.constant(value.data))
    elif isinstance(value, DivBy):
        s.varint(TAG["div_by"])
        s.varint(value.divisor, "div_by divisor")
        s.byte((value.every is not None) | (value.along is not None) << 1)
        for part, what in ((value.every, "div_by every"), (value.along, "div_by along")):
            if part is not None:
                s.svarint(part, what)
    elif isinstance(value, SameElements):
        s.varint(TAG["same_elements"])
        s.ints(value.values, 8, "same_elements group")
    elif isinstance(value, Bounded):
        s.varint(TAG["bounded"])
        s.byte((value.lower is not None) | (value.upper is not None) << 1)
        for part, what in (
            (value.lower, "bounded lower bound"),
            (value.upper, "bounded upper bound"),
        ):
            if part is not None:
                s.svarint(part, what)
    elif isinstance(value, Hints):
        s.varint(TAG["hints"])
        write_hints(s, value, pools)
    elif isinstance(value, MultimemReduction):
        if pools.version < _V5:
            raise EncodeError(
                f"attribute #cuda_tile.multimem_reduction_kind<{value.kind}> needs bytecode "
                f"13.5 or later, the file is {pools.version[0]}.{pools.version[1]}"
            )
        s.varint(TAG["multimem_reduction_kind"])
        s.varint(_REDUCTIONS.index(value.kind))
    else:
        raise EncodeError(f"{value!r} is not an attribute value the bytecode can hold")


def _write_dict(s: Sink, items, pools: Pools) -> None:
    s.varint(len(items))
    for key, value in items:
        s.varint(pools.string(key))
        write_tagged(s, value, pools)


def write_hints(s: Sink, hints: Hints, pools: Pools) -> None:
    """Optimization hints without their tag: per architecture, a tagged Dictionary."""
    s.varint(len(hints.by_arch))
    for arch, items in hints.by_arch:
        s.varint(pools.string(arch))
        s.varint(TAG["dict"])
        _write_dict(s, items, pools)


def _read_scalar(src: Source, pools: ReadPools, is_int: bool) -> ScalarAttr:
    fmt = pools.type(src, Format, "scalar type")
    if fmt.is_int != is_int:
        src.fail(f"{'Integer' if is_int else 'Float'} attribute of type {fmt}")
    at = src.offset
    if is_int:
        bits = src.byte() if fmt.bits == 1 else src.varint()
        width = fmt.bits
    else:
        width = float_width(fmt)
        bits = src.byte() if width <= 8 else src.svarint() & _U64
    if bits >= 1 << width:
        src.fail(f"value {bits:#x} does not fit in {width} bits of {fmt}", at)
    if is_int and fmt.bits == 1:
        bits = int(bits != 0)
    if fmt.name == "tf32":
        bits <<= 13
    return ScalarAttr(fmt, bits)


def _read_items(src: Source, pools: ReadPools) -> tuple:
    items, seen = [], set()
    for _ in range(src.count()):
        at = src.offset
        key = pools.string(src, "dictionary key")
        if not key or key in seen:
            src.fail(f"dictionary key {key!r} is empty or repeated", at)
        seen.add(key)
        items.append((key, read_tagged(src, pools)))
    return tuple(items)


def read_hints(src: Source, pools: ReadPools) -> Hints:
    """Optimization hints without their tag; values come back as ints and bools."""
    by_arch = []
    for _ in range(src.count()):
        arch = pools.string(src, "hint architecture")
        at = src.offset
        if src.varint() != TAG["dict"]:
            src.fail(f"hints for {arch} are not a dictionary", at)
        items = []
        for key, value in _read_items(src, pools):
            if isinstance(value, ScalarAttr) and value.format.is_int:
                value = value.value()
            if not isinstance(value, (bool, int)):
                src.fail(f"hint {arch}.{key} is {value!r}, not an integer or a bool")
            items.append((key, value))
        by_arch.append((arch, tuple(items)))
    return Hints(tuple(by_arch))


def read_tagged(src: Source, pools: ReadPools) -> Tagged:
    """One tagged attribute, as the value :func:`write_tagged` takes."""
    at = src.offset
    tag = src.varint()
    if tag == TAG["int"]:
        return _read_scalar(src, pools, True)
    if tag == TAG["float"]:
        return _read_scalar(src, pools, False)
    if tag == TAG["bool"]:
        return src.byte() != 0
    if tag == TAG["type"]:
        return pools.type(src)
    if tag == TAG["string"]:
        return pools.string(src)
    if tag == TAG["array"]:
        return tuple(read_tagged(src, pools) for _ in range(src.count()))
    if tag == TAG["dense"]:
        t = pools.type(src, TileType, "dense type")
        return Dense(t, pools.constant(src))
    if tag == TAG["div_by"]:
        divisor = src.varint()
        flags = src.byte()
        every = src.svarint() if flags & 1 else None
        along = src.svarint() if flags & 2 else None
        return DivBy(divisor, every, along)
    if tag == TAG["same_elements"]:
        return SameElements(src.ints(8))
    if tag == TAG["dict"]:
        return _read_items(src, pools)
    if tag == TAG["hints"]:
        return read_hints(src, pools)
    if tag == TAG["bounded"]:
        flags = src.byte()
        lower = src.svarint() if flags & 1 else None
        upper = src.svarint() if flags & 2 else None
        return Bounded(lower, upper)
    if tag == TAG["multimem_reduction_kind"] and pools.version >= _V5:
        code_at = src.offset
        code = src.varint()
        if code >= len(_REDUCTIONS):
            src.fail(f"multimem reduction kind {code} is not one of {len(_REDUCTIONS)}", code_at)
        return MultimemReduction(_REDUCTIONS[code])
    if tag == TAG["multimem_reduction_kind"]:
        src.fail(f"attribute tag {tag} (multimem_reduction_kind) needs bytecode 13.5", at)
    src.fail(f"unknown attribute tag {tag}", at)
