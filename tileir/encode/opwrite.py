"""Writing one instruction (and its regions) by the rules of ``OP_CODECS``.

The reader (``opread``) walks the same :class:`~tileir.encode.optable.OpCodec`
fields in the same order (results, flags, attributes, operands, regions), so a
layout fact lives in one place.  Value numbering follows the bytecode:
parameters first, block arguments when a block opens, then its ops, each op's
results after its regions; a block's values are forgotten when it closes (the
next index rolls back), so sibling regions reuse indices.
"""

from __future__ import annotations

from typing import Optional

from tileir.dialect import ENUMS, version_text
from tileir.errors import EncodeError
from tileir.module import Block, Dense, Loc, Op, Scalar, Value
from tileir.signatures import operand_groups
from tileir.encode.attrcodec import write_hints, write_tagged
from tileir.encode.optable import (OP_CODECS, PREDICATES, TERMINATORS, VALUE_TYPES, OpCodec,
                                   dense_fault, is_default)
from tileir.encode.pools import Pools
from tileir.encode.wire import Sink

__all__ = ["WriteScope", "write_ops", "check_block"]


class WriteScope:
    """Per-function writer state: bytecode indices of the values in scope, and op locations."""

    def __init__(self, pools: Pools, function: str) -> None:
        self.pools = pools
        self.version = pools.version
        self.function = function
        self.index: dict[int, tuple[int, Value]] = {}
        self.next = 0
        self.locs: list[Optional[Loc]] = []

    def fail(self, message: str, op: Optional[Op] = None) -> EncodeError:
        return EncodeError(message, kernel=self.function, op=op.name if op else None,
                           where=str(op.loc) if op is not None and op.loc else None)

    def define(self, value: Value, op: Optional[Op] = None) -> int:
        if not isinstance(value.type, VALUE_TYPES):
            raise self.fail(f"value %{value.id} has type {value.type!r}; values are tiles, views "
                            "or tokens", op)
        if value.id in self.index:
            raise self.fail(f"value %{value.id} is defined twice in one scope", op)
        self.index[value.id] = (self.next, value)
        self.next += 1
        return value.id

    def ref(self, value: Value, op: Op) -> int:
        found = self.index.get(value.id)
        if found is None:
            raise self.fail(f"operand %{value.id} is not defined before its use in this scope "
                            f"(bytecode {version_text(self.version)})", op)
        if found[1] != value:
            raise self.fail(f"operand %{value.id} has type {value.type} but was defined as "
                            f"{found[1].type}", op)
        return found[0]


def write_ops(s: Sink, ops, scope: WriteScope) -> None:
    """Write ``ops`` back to back; a fault names the innermost op it is about."""
    for op in ops:
        try:
            _write_op(s, op, scope)
        except EncodeError as e:
            raise e.with_context(kernel=scope.function, op=op.name,
                                 where=str(op.loc) if op.loc else None) from None


def _write_block(s: Sink, block: Block, scope: WriteScope, op: Op) -> None:
    check_block(block, scope, op)
    mark, before = scope.next, set(scope.index)
    s.varint(len(block.args))
    for arg in block.args:
        s.varint(scope.pools.type(arg.type))
        scope.define(arg, op)
    s.varint(len(block.ops))
    write_ops(s, block.ops, scope)
    for vid in set(scope.index) - before:
        del scope.index[vid]
    scope.next = mark  # the bytecode forgets a block's values when it closes


def check_block(block: Block, scope: WriteScope, op: Optional[Op],
                final: Optional[str] = None) -> None:
    """A block ends in a terminator (``final`` when given) and holds no other one."""
    names = [o.name for o in block.ops]
    if not names or names[-1] not in TERMINATORS or (final and names[-1] != final):
        want = f"`{final}`" if final else "a terminator (" + ", ".join(sorted(TERMINATORS)) + ")"
        raise scope.fail(f"a block must end in {want}; this one ends in "
                         f"{names[-1] if names else 'nothing'}", op)
    inner = [n for n in names[:-1] if n in TERMINATORS]
    if inner:
        raise scope.fail(f"terminator `{inner[0]}` in the middle of a block", op)


def _groups(op: Op, codec: OpCodec, scope: WriteScope) -> dict[str, tuple]:
    try:
        groups = operand_groups(op)
    except ValueError as e:
        raise scope.fail(str(e), op) from None
    sizes = [len(groups.get(name, ())) for name, _ in codec.groups]
    if sum(sizes) != len(op.operands) or (op.segments is not None
                                          and len(op.segments) != len(codec.groups)):
        raise scope.fail(f"segments {op.segments} do not split the {len(op.operands)} operands "
                         f"into the groups {[g for g, _ in codec.groups]}", op)
    for (name, kind), n in zip(codec.groups, sizes):
        if (kind == "1" and n != 1) or (kind == "?" and n > 1):
            raise scope.fail(f"operand group `{name}` takes {'one' if kind == '1' else 'at most one'}"
                             f" value, not {n}", op)
    return groups


def _flag_present(name: str, op: Op, groups: dict) -> bool:
    # a flag marks an optional operand group that is there, or an attribute set / true
    return bool(groups[name]) if name in groups else bool(op.attrs.get(name))


def _write_op(s: Sink, op: Op, scope: WriteScope) -> None:
    codec = OP_CODECS.get(op.name)
    if codec is None:
        raise scope.fail(f"`{op.name}` is not a body op of the dialect", op)
    v, pools = scope.version, scope.pools
    if codec.since > v:
        raise scope.fail(f"needs bytecode {version_text(codec.since)}, the file is "
                         f"{version_text(v)}", op)
    scope.locs.append(op.loc)
    written = op.results
    if codec.last_result_since is not None and v < codec.last_result_since:
        written = op.results[:-1]
    want = codec.fixed_results if codec.fixed_results is not None else codec.counted_results
    if want is not None and len(op.results) != want:
        raise scope.fail(f"has {len(op.results)} results, the dialect gives it {want}", op)
    if len(op.regions) != codec.regions:
        raise scope.fail(f"has {len(op.regions)} regions, the dialect gives it {codec.regions}",
                         op)
    unknown = set(op.attrs) - {a[0] for a in codec.attrs}
    if unknown:
        raise scope.fail(f"has no attribute {sorted(unknown)[0]!r}", op)
    groups = _groups(op, codec, scope)

    s.varint(codec.opcode)
    if codec.fixed_results is None:
        s.varint(len(written))
    for r in written:
        s.varint(pools.type(r.type))

    if codec.flags_since is not None and v >= codec.flags_since:
        bits = 0
        for i, name in enumerate(codec.flags):
            if _flag_present(name, op, groups):
                bits |= 1 << i
        s.varint(bits)
    for name, kind, default, optional, since in codec.attrs:
        value = op.attrs.get(name, default)
        if since > v:
            if not is_default(kind, value, default):
                raise scope.fail(f"attribute {name} = {value!r} needs bytecode "
                                 f"{version_text(since)}", op)
            continue
        if kind == "unit" or (optional and value is None):
            continue
        if value is None:
            raise scope.fail(f"attribute {name!r} is required", op)
        if kind == "bool[]" and not value:
            value = (False,) * len(groups[codec.bool_array_group])
        _write_attr(s, kind, name, value, op, scope)

    for name, kind in codec.groups:
        vals = groups[name]
        if vals and codec.group_since(name) > v:
            raise scope.fail(f"operand {name} needs bytecode "
                             f"{version_text(codec.group_since(name))}", op)
    if codec.operand_layout == "grouped":
        for name, kind in codec.groups:
            if kind == "*":
                s.varint(len(groups[name]))
            for val in groups[name]:
                s.varint(scope.ref(val, op))
    else:
        if codec.operand_layout == "counted":
            s.varint(len(op.operands))
        for val in op.operands:
            s.varint(scope.ref(val, op))

    if codec.regions:
        s.varint(len(op.regions))
        for block in op.regions:
            s.varint(1)
            _write_block(s, block, scope, op)
    for r in written:
        scope.define(r, op)


def _write_attr(s: Sink, kind: str, name: str, value, op: Op, scope: WriteScope) -> None:
    pools = scope.pools
    try:
        if kind.startswith("enum:"):
            s.varint(ENUMS[kind[5:]].index(value))
        elif kind == "bool":
            s.byte(int(bool(value)))
        elif kind == "int":
            s.varint(int(value))
        elif kind == "i32[]":
            s.ints(tuple(value), 4)
        elif kind == "bool[]":
            s.varint(len(value))
            for b in value:
                s.byte(int(bool(b)))
        elif kind == "str":
            s.varint(pools.string(str(value)))
        elif kind == "dense":
            result = op.results[0].type
            if not isinstance(value, Dense) or value.type != result:
                raise scope.fail(f"value {value!r} is not a dense constant of {result}", op)
            fault = dense_fault(value.type, value.data)
            if fault:
                raise scope.fail(f"value: {fault}", op)
            s.varint(pools.constant(value.data))
        elif kind == "scalars":
            if not all(isinstance(x, Scalar) for x in value):
                raise scope.fail(f"{name} must be Scalars, not {value!r}", op)
            s.varint(len(value))
            for x in value:
                write_tagged(s, x, pools)
        elif kind == "predicate":
            if type(value).__name__ not in PREDICATES:
                raise scope.fail(f"{value!r} is not an assume predicate", op)
            write_tagged(s, value, pools)
        elif kind == "hints":
            write_hints(s, value, pools)
        else:  # pragma: no cover - the signatures list no other kind
            raise scope.fail(f"attribute kind {kind} has no encoding", op)
    except (ValueError, TypeError, OverflowError, AttributeError) as e:
        raise scope.fail(f"attribute {name} = {value!r} cannot be written: {e}", op) from None
