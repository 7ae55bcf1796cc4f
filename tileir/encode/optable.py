"""The per-op rule table of the bytecode: ``OP_CODECS[name]`` says how op ``name`` is laid out.

One :class:`OpCodec` per body op, used by both the writer (``opwrite``)
and the reader (``opread``).  Almost everything is derived from
``tileir.ir.signatures`` (operand groups, attributes and their kinds, regions)
by the tablegen rules NVIDIA's writer follows (docs/bytecode.md §3.7):

1. opcode varint;
2. result types: a count first when the op has a variadic operand group or
   variadic results, else one type index per declared result;
3. a flags varint when the op has unit attributes, optional attributes or
   (for ops with several variable operand groups) optional operand groups:
   one bit each, ordered by the version that added them, attributes before
   operands, then declaration order; when every flag is newer than the op the
   varint exists only from that version on;
4. attributes in declaration order (unit ones live in the flags only;
   optional ones only when flagged; required ones newer than the file are
   left out and must hold their default);
5. operands: group by group (single: index, variadic: count + indices,
   optional: index when flagged) for ops with several variable groups;
   otherwise a total count first when any group is variable;
6. regions: count, then per region one block (arg count, arg types, op
   count, ops).

What the signatures cannot say is listed in the fact tables below: result
counts, which attributes are optional, and what later versions added.

>>> OP_CODECS["load_view_tko"].flags
('memory_scope', 'optimization_hints', 'token')
>>> OP_CODECS["for"].flags_since, OP_CODECS["addf"].flags_since
((13, 2), (13, 1))
"""

from __future__ import annotations

from typing import Any, Optional

import attrs

from tileir.ir.dialect import BODY_OPS, OPS, TERMINATORS
from tileir.ir.numerics import element_bytes
from tileir.ir.rule_table import rule_table
from tileir.ir.signatures import SIGNATURES
from tileir.types import (
    Format,
    GatherScatterViewType,
    PartitionViewType,
    StridedViewType,
    TensorViewType,
    TileType,
    TokenType,
    Type,
)

__all__ = [
    "OpCodec",
    "OP_CODECS",
    "TERMINATORS",
    "ENUM_VALUE_SINCE",
    "MAX_OPCODE",
    "VALUE_TYPES",
    "PREDICATES",
    "codec_by_opcode",
    "is_default",
    "dense_fault",
]

V1, V2, V3, V4, V5 = (13, 1), (13, 2), (13, 3), (13, 4), (13, 5)


# ---------------------------------------------------------------- facts beyond the signatures

# Results written without a count (the rest of the ops with no variadic group: 1).
_FIXED_RESULTS = {
    "assert": 0,
    "load_ptr_tko": 2,
    "atomic_rmw_tko": 2,
    "atomic_cas_tko": 2,
    "get_tile_block_id": 3,
    "get_num_tile_blocks": 3,
}
# Ops whose results are variadic (any number, counted).
_VARIADIC_RESULTS = {
    "get_tensor_shape",
    "get_index_space_shape",
    "for",
    "loop",
    "if",
    "reduce",
    "scan",
}
# Counted results of the other counted ops.
_COUNTED_RESULTS = {
    "make_tensor_view": 1,
    "load_view_tko": 2,
    "store_view_tko": 1,
    "atomic_red_view_tko": 1,
    "multimem_load_reduce_view_tko": 2,
    "multimem_reduce_view_tko": 1,
    "multimem_store_view_tko": 1,
    "extract": 1,
    "insert": 1,
    "join_tokens": 1,
    "print_tko": 1,
    "continue": 0,
    "break": 0,
    "yield": 0,
    "return": 0,
}
# Attributes with no default that may still be absent (flagged).
_OPTIONAL_ATTRS = {
    name: {"memory_scope"}
    for name in (
        "load_view_tko",
        "store_view_tko",
        "load_ptr_tko",
        "store_ptr_tko",
        "multimem_load_reduce_view_tko",
        "multimem_store_view_tko",
    )
}
# Attributes, operand groups and results added after their op (name -> version).
_ATTR_SINCE = {
    "negi": {"overflow": V2},
    "tanh": {"rounding": V2},
    "exp": {"rounding": V3},
    "for": {"unsigned_cmp": V2},
    "mmaf": {"fast_acc": V3},
    "ftoi": {"saturating": V4},
    "load_view_tko": {"inbounds": V4},
    "store_view_tko": {"inbounds": V4},
    "atomic_red_view_tko": {"inbounds": V5},
}
_OPERAND_SINCE = {"print_tko": {"token": V2}}
# the op's last result (print_tko's token) exists from this version on
_RESULT_SINCE = {"print_tko": V2}
# bool[] attributes hold one entry per value of this operand group
_BOOL_ARRAY_GROUP = {
    name: "index"
    for name in (
        "load_view_tko",
        "store_view_tko",
        "atomic_red_view_tko",
        "multimem_load_reduce_view_tko",
        "multimem_reduce_view_tko",
        "multimem_store_view_tko",
    )
}

#: Enum values added after their enum: (enum, spelling) -> version.
ENUM_VALUE_SINCE = {("rounding", "nearest_away"): V4}


@attrs.frozen
class OpCodec:
    """The byte layout of one op (see the module docstring for the rules)."""

    name: str
    opcode: int
    since: tuple[int, int]
    #: results written without a count; None = a count comes first
    fixed_results: Optional[int]
    #: for counted ops, how many results the op has (None = any number)
    counted_results: Optional[int]
    #: the version from which the op's last result exists (None = always)
    last_result_since: Optional[tuple[int, int]]
    #: flag bits in bit order: names of unit / optional attributes and optional operand groups
    flags: tuple[str, ...]
    #: the version from which the flags varint exists (None = the op has no flags)
    flags_since: Optional[tuple[int, int]]
    #: (name, kind, default, optional, since) per attribute, declaration order
    attrs: tuple[tuple, ...]
    #: (name, kind) per operand group, kind "1", "*" or "?"
    groups: tuple[tuple[str, str], ...]
    #: "grouped" (group by group), "counted" (total count first) or "plain"
    operand_layout: str
    operand_since: tuple[tuple[str, tuple[int, int]], ...]
    regions: int
    bool_array_group: Optional[str]

    def attr_since(self, name: str) -> tuple[int, int]:
        for attr in self.attrs:
            if attr[0] == name:
                return attr[4]
        raise KeyError(name)

    def group_since(self, name: str) -> tuple[int, int]:
        return dict(self.operand_since).get(name, self.since)


def _codec(name: str) -> OpCodec:
    info, sig = OPS[name], SIGNATURES[name]
    attr_since = _ATTR_SINCE.get(name, {})
    operand_since = _OPERAND_SINCE.get(name, {})
    variable = [g for g, kind in sig.operands if kind != "1"]
    grouped = len(variable) > 1
    counted = any(kind == "*" for _, kind in sig.operands) or name in _VARIADIC_RESULTS

    attr_rows, flag_rows = [], []
    for order, (aname, kind, default) in enumerate(sig.attrs):
        optional = kind == "unit" or kind == "hints" or aname in _OPTIONAL_ATTRS.get(name, ())
        since = attr_since.get(aname, info.since)
        attr_rows.append((aname, kind, default, optional, since))
        if optional:
            flag_rows.append((since, 0, order, aname))
    if grouped:
        for order, (gname, kind) in enumerate(sig.operands):
            if kind == "?":
                flag_rows.append((operand_since.get(gname, info.since), 1, order, gname))
    flag_rows.sort()
    flags = tuple(row[3] for row in flag_rows)
    flags_since = min(row[0] for row in flag_rows) if flag_rows else None
    if flags_since is not None and flags_since < info.since:
        flags_since = info.since

    return OpCodec(
        name=name,
        opcode=info.opcode,
        since=info.since,
        fixed_results=None if counted else _FIXED_RESULTS.get(name, 1),
        counted_results=None
        if not counted or name in _VARIADIC_RESULTS
        else _COUNTED_RESULTS[name],
        last_result_since=_RESULT_SINCE.get(name),
        flags=flags,
        flags_since=flags_since,
        attrs=tuple(attr_rows),
        groups=tuple(sig.operands),
        operand_layout="grouped" if grouped else "counted" if variable else "plain",
        operand_since=tuple(operand_since.items()),
        regions=sig.regions,
        bool_array_group=_BOOL_ARRAY_GROUP.get(name),
    )


#: Every body op's layout, by mnemonic.
#: op name -> its layout in the bytecode, for the writer and the reader alike
OP_CODECS = rule_table("OP_CODECS", ((name, _codec(name)) for name in BODY_OPS))

_BY_OPCODE = {c.opcode: c for c in OP_CODECS.values()}


def codec_by_opcode(opcode: int) -> Optional[OpCodec]:
    """The codec of the body op with ``opcode`` (None for structural or unknown opcodes)."""
    return _BY_OPCODE.get(opcode)


MAX_OPCODE = {(13, 1): 0x6D, (13, 2): 0x6E, (13, 3): 0x75, (13, 4): 0x7A, (13, 5): 0x7D}
#: The types an SSA value may have.
VALUE_TYPES = (
    TileType,
    TensorViewType,
    PartitionViewType,
    StridedViewType,
    GatherScatterViewType,
    TokenType,
)
#: The classes an assume predicate may be (by name).
PREDICATES = ("DivBy", "SameElements", "Bounded")


def is_default(kind: str, value: Any, default: Any) -> bool:
    """True when an attribute value may be left out of ``Op.attrs`` (canonical form)."""
    if kind == "bool[]":
        return not any(value)
    if kind == "unit":
        return not value
    return value == default


def dense_fault(t: Optional[Type], data: bytes) -> Optional[str]:
    """Why ``data`` is not a valid dense constant of tile type ``t`` (None when it is)."""
    if not isinstance(t, TileType) or not isinstance(t.element, Format):
        return f"a dense constant needs a tile of numbers, not {t}"
    n = t.size
    if t.element.name == "i1":
        if len(data) == 1 and data[0] in (0x00, 0xFF):
            return None
        if len(data) == (n + 7) // 8:
            return None
        return f"{len(data)} bytes are neither an i1 splat nor {n} packed bits"
    width = element_bytes(t.element)
    if len(data) in (width, width * n):
        return None
    return f"{len(data)} bytes do not hold one or {n} elements of {width} bytes ({t})"
