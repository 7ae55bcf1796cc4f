"""What the op writer needs of each codec, worked out once from the constant ``OP_CODECS``.

An :class:`OpPlan` holds, per op, the facts ``opwrite`` would otherwise derive from the
codec on every op it writes: the attribute bytes of an op that sets none, the operand
groups' positions, and per bytecode version the record ``opwrite.write_ops`` writes the
usual op by (``FAST``).
"""

from __future__ import annotations

from typing import Optional, Union

from tileir.encode.optable import OP_CODECS, OpCodec
from tileir.encode.versions import op_ceiling
from tileir.encode.wire import Sink
from tileir.errors import EncodeError
from tileir.ir.dialect import ENUMS, VERSIONS
from tileir.ir.memo import register_memo
from tileir.ir.module import Op

__all__ = ["OpPlan", "PLANS", "FAST", "write_plain_attr"]


def _default_bytes(kind: str, default) -> Optional[bytes]:
    """The bytes of an attribute left at its default, when they depend on nothing else (no
    pool, no operand group); None when they must be worked out per op."""
    if default is None or not (kind.startswith("enum:") or kind in ("bool", "int", "i32[]")):
        return None
    s = Sink()
    try:
        write_plain_attr(s, kind, default)
    except (ValueError, TypeError, OverflowError, KeyError, EncodeError):
        return None  # the writer raises its own error for it, op by op
    return bytes(s.buf)


class OpPlan:
    """What ``_write_op`` needs of one codec, worked out once from the constant OP_CODECS."""

    __slots__ = (
        "codec",
        "attr_names",
        "attrs",
        "attrs_at",
        "want_results",
        "kinds",
        "ones",
        "n_fixed",
        "n_variable",
        "flag_groups",
        "group_since",
        "bool_array_at",
        "opcode",
        "by_version",
        "star",
        "good_segments",
    )

    def __init__(self, codec: OpCodec) -> None:
        self.codec = codec
        self.attr_names = frozenset(a[0] for a in codec.attrs)
        # (name, kind, default, optional, since, bytes of the default or None)
        self.attrs = tuple((*a, _default_bytes(a[1], a[2])) for a in codec.attrs)
        # per version: each of those, and whether the attribute is newer than the version,
        # and whether it is left out when absent (newer, a unit, or optional with no default)
        self.attrs_at = {
            v: tuple(
                (*a, a[4] > v, a[4] > v or a[1] == "unit" or (a[3] and a[2] is None))
                for a in self.attrs
            )
            for v in VERSIONS
        }
        self.want_results = (
            codec.fixed_results if codec.fixed_results is not None else codec.counted_results
        )
        self.kinds = tuple(kind for _, kind in codec.groups)
        self.ones = (1,) * len(self.kinds)
        self.n_variable = sum(1 for k in self.kinds if k != "1")
        self.n_fixed = len(self.kinds) - self.n_variable
        # (looked up with the codec's optional group names too: None finds nothing)
        position: dict[Optional[str], int] = {name: i for i, (name, _) in enumerate(codec.groups)}
        # per flag: the position of the operand group it marks, or None (an attribute)
        self.flag_groups = tuple(position.get(flag) for flag in codec.flags)
        # (position, version) of the operand groups newer than their op
        self.group_since = tuple(
            sorted((position[g], since) for g, since in codec.operand_since if since > codec.since)
        )
        # the group whose values a bool[] attribute has one entry each for
        self.bool_array_at = position.get(codec.bool_array_group)
        s = Sink()
        s.varint(codec.opcode)
        self.opcode = bytes(s.buf)
        self.by_version = {v: self.facts(v) for v in VERSIONS}
        self.star = "*" in self.kinds  # the variable group (if any) takes any number
        # segments found good for these groups -> their sum (the operand count they fit): a
        # memo (bounded) of tuples of exact ints; a tuple equal to one of them (True for 1 ...)
        # splits the operands the same way
        self.good_segments: dict = register_memo(f"encode.opwrite: segments of {codec.name}", {})

    def fast(self, v: tuple[int, int]) -> Optional[tuple]:
        """What the op writer's fast path needs to write an op of this codec at version
        ``v`` (see ``opwrite.write_ops``), or None when every such op takes the checking
        path: the op is newer than ``v``, or has parts newer than itself that ``v`` lacks.
        (An op with regions is written here too, its blocks by ``_write_block``.)"""
        codec = self.codec
        since = codec.last_result_since
        if (
            codec.since > v
            or (since is not None and since > v)
            or any(since > v for _, since in self.group_since)
        ):
            return None
        grouped = codec.operand_layout == "grouped"
        if not grouped and codec.bool_array_group is not None:
            return None  # (no such op: a bool[] attribute's group lies among several)
        flags = None
        if len(codec.flags) > 7:
            return None  # (no such op: its flags would take a varint of two bytes)
        if codec.flags_since is not None and v >= codec.flags_since:
            flags = tuple(
                (1 << i, group, flag)
                for i, (flag, group) in enumerate(zip(codec.flags, self.flag_groups))
            )
        return (
            self,
            self.opcode,
            codec.fixed_results is None,  # a count before the result types
            self.want_results,
            self.attr_names,
            # the operand groups: an ungrouped op's operands are one run (after a count
            # where a group is variable), checked by (fixed groups, variable groups, "*")
            self.kinds if grouped else None,
            ("*" if codec.operand_layout == "counted" else "1",),
            self.n_fixed,
            self.n_variable,
            self.star,
            flags,
            any(g is not None for g in self.flag_groups),  # a flag marks an operand group
            self._defaults_parts(v),
            op_ceiling(codec) > v,
            codec.regions,  # how many regions the op has (each a block, after the operands)
        )

    def _defaults_parts(self, v: tuple[int, int]) -> Union[bytes, tuple, None]:
        # the attribute bytes of an op that sets none: bytes, or where they depend on an
        # operand group's size a tuple of parts, each bytes or the position of the group a
        # bool[] attribute at its default (all false) writes one 0 per value of; None: they
        # are worked out attribute by attribute
        parts: list = []
        for _attr, kind, default, optional, since, default_bytes in self.attrs:
            if since > v or kind == "unit" or (optional and default is None):
                continue
            if default_bytes is not None:
                if parts and type(parts[-1]) is bytes:
                    parts[-1] += default_bytes
                else:
                    parts.append(default_bytes)
            elif kind == "bool[]" and default is not None and not default:
                if self.bool_array_at is None:
                    return None
                parts.append(self.bool_array_at)
            else:
                return None
        if all(type(p) is bytes for p in parts):
            return b"".join(parts)
        return tuple(parts)

    def facts(self, v: tuple[int, int]) -> tuple:
        """At version ``v``: (the flags varint is written, the attribute bytes of an op
        that sets none or None, an op of this codec may need a version after ``v``)."""
        codec = self.codec
        return (
            codec.flags_since is not None and v >= codec.flags_since,
            self._defaults_blob(v),
            op_ceiling(codec) > v,
        )

    def _defaults_blob(self, v: tuple[int, int]) -> Optional[bytes]:
        # the attribute bytes of an op that sets none, when they depend on nothing but the
        # version (None: they are worked out attribute by attribute)
        blob = b""
        for _attr, kind, default, optional, since, default_bytes in self.attrs:
            if since > v or kind == "unit" or (optional and default is None):
                continue
            if default_bytes is None:
                return None
            blob += default_bytes
        return blob

    def group_sizes(self, n: int) -> Optional[tuple]:
        """How many of ``n`` operands each group takes in an op without segments, when they
        split cleanly (what ``_groups`` would accept); None sends the op to ``_groups``."""
        if not self.n_variable:
            return self.ones if n == len(self.kinds) else None
        rest = n - self.n_fixed
        if self.n_variable > 1 or rest < 0 or (rest > 1 and "?" in self.kinds):
            return None
        return tuple(1 if k == "1" else rest for k in self.kinds)

    def sizes(self, op: Op) -> Optional[tuple]:
        """How many operands each group takes, when ``op``'s operands split cleanly (what
        ``_groups`` would accept, in consecutive runs); None sends the op to ``_groups``."""
        n = len(op.operands)
        counts = op.segments
        if counts is None:
            return self.group_sizes(n)
        total = self.good_segments.get(counts)  # (checked before: no sum() on the way)
        if total is not None:
            return counts if total == n else None
        if len(counts) != len(self.kinds) or sum(counts) != n:
            return None
        for k, c in zip(self.kinds, counts):
            if type(c) is not int or c < 0 or (k == "1" and c != 1) or (k == "?" and c > 1):
                return None
        if len(self.good_segments) < 64:
            self.good_segments[counts] = n
        return counts


def write_plain_attr(s: Sink, kind: str, value) -> None:
    """An attribute of kind ``enum:E``, ``bool``, ``int`` or ``i32[]`` (no pool involved)."""
    # (the kind's enum by a dict's look, not str.startswith and a slice: C code that no other
    # step of a recording runs, each a cache miss of its own after a full collection)
    enum = _ENUM_KINDS.get(kind)
    if enum is not None:
        values, first_index = enum
        try:
            index = first_index.get(value)
        except TypeError:  # unhashable: tuple.index says why
            index = None
        s.varint(values.index(value) if index is None else index)
    elif kind == "bool":
        s.byte(int(bool(value)))
    elif kind == "int":
        s.varint(int(value))
    else:
        s.ints(tuple(value), 4)


# enum -> {spelling: index of its first occurrence} (what tuple.index answers)
_ENUM_INDEX = {
    name: {v: i for i, v in reversed(list(enumerate(values)))} for name, values in ENUMS.items()
}
# "enum:E" -> (E's spellings, {spelling: index of its first occurrence})
_ENUM_KINDS = {f"enum:{name}": (values, _ENUM_INDEX[name]) for name, values in ENUMS.items()}
#: the attribute kinds write_plain_attr writes
PLAIN_KINDS = frozenset({"bool", "int", "i32[]", *_ENUM_KINDS})
# op name -> its OpPlan: derived once from the constant OP_CODECS
PLANS = {name: OpPlan(codec) for name, codec in OP_CODECS.items()}
# version -> op name -> what the op writer's fast path needs (only the ops it can take)
FAST = {
    v: {name: fast for name, plan in PLANS.items() if (fast := plan.fast(v)) is not None}
    for v in VERSIONS
}
