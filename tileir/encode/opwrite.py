"""Writing one instruction (and its regions) by the rules of ``OP_CODECS``.

The reader (``opread``) walks the same :class:`~tileir.encode.optable.OpCodec`
fields in the same order (results, flags, attributes, operands, regions), so a
layout fact lives in one place.  Value numbering follows the bytecode:
parameters first, block arguments when a block opens, then its ops, each op's
results after its regions; a block's values are forgotten when it closes (the
next index rolls back), so sibling regions reuse indices.
"""

from __future__ import annotations

from typing import Any, Iterable, Literal, Mapping, Optional, Sequence, Union

from tileir.encode.attrcodec import write_hints, write_tagged
from tileir.encode.optable import (
    PREDICATES,
    TERMINATORS,
    VALUE_TYPES,
    OpCodec,
    dense_fault,
    is_default,
)
from tileir.encode.plans import FAST, PLAIN_KINDS, PLANS, OpPlan, write_plain_attr
from tileir.encode.pools import Pools
from tileir.encode.wire import Sink
from tileir.errors import EncodeError
from tileir.ir.dialect import VERSIONS, version_text
from tileir.ir.memo import memo_table, remember
from tileir.ir.module import EMPTY_ATTRS, Block, Dense, Loc, Op, ScalarAttr, Value
from tileir.ir.signatures import operand_groups

__all__ = ["WriteScope", "write_ops", "check_block"]


class WriteScope:
    """Per-function writer state: bytecode indices of the values in scope, and op locations."""

    __slots__ = ("pools", "version", "function", "index", "next", "locs", "newer")

    def __init__(self, pools: Pools, function: str) -> None:
        self.pools = pools
        self.version = pools.version
        self.function = function
        self.index: dict[int, tuple[int, Value]] = {}
        self.next = 0
        self.locs: list[Optional[Loc]] = []
        #: an op was written whose codec has something newer than the file's version (an op,
        #: attribute, enum value or operand group): the encoder then runs the full version
        #: check, which says whether this op uses it (see writer.encode)
        self.newer = False

    def fail(self, message: str, op: Optional[Op] = None) -> EncodeError:
        return EncodeError(
            message,
            kernel=self.function,
            op=op.name if op else None,
            where=str(op.loc) if op is not None and op.loc else None,
        )

    def define(self, value: Value, op: Optional[Op] = None) -> int:
        if not isinstance(value.type, VALUE_TYPES):
            raise self.fail(
                f"value %{value.id} has type {value.type!r}; values are tiles, views or tokens", op
            )
        if value.id in self.index:
            raise self.fail(f"value %{value.id} is defined twice in one scope", op)
        self.index[value.id] = (self.next, value)
        self.next += 1
        return value.id

    def ref(self, value: Value, op: Op) -> int:
        found = self.index.get(value.id)
        if found is None:
            raise self.fail(
                f"operand %{value.id} is not defined before its use in this scope "
                f"(bytecode {version_text(self.version)})",
                op,
            )
        if found[1] != value:
            raise self.fail(
                f"operand %{value.id} has type {value.type} but was defined as {found[1].type}", op
            )
        return found[0]


def write_ops(s: Sink, ops: Iterable[Op], scope: WriteScope) -> None:
    """Write ``ops`` back to back; a fault names the innermost op it is about.

    Hot (every op of every file), so one loop does it all for the usual op: its checks come
    first, before a byte is written or a pool touched (an op with regions has its blocks
    written after its operands, by ``_write_block``), and an op they do not pass is written
    by ``_write_op`` instead, whose checks name the fault.  The bytes are the same either
    way (tests/encode check both paths against each other).
    """
    fast = FAST[scope.version]
    layouts = _LAYOUTS[scope.version]
    buf = s.buf
    index = scope.index
    locs = scope.locs
    types = scope.pools.types
    type_ids, type_index = types.by_id, types.index
    # the next value's index, kept here while the loop runs (scope.next for the calls out)
    next_index = scope.next
    op: Optional[Op] = None
    try:
        for op in ops:
            results, operands = op.results, op.operands
            # a plain op (no segments or regions, and no attributes or only ones that need no
            # pool): its layout, by its name, counts and attribute map (a shared object),
            # holds all its bytes but its values' indices (and was checked once)
            if op.segments is None and not op.regions:
                op_attrs = op.attrs
                layout = layouts.get(
                    (op.name, len(operands), len(results))
                    if op_attrs is EMPTY_ATTRS
                    else (op.name, len(operands), len(results), id(op_attrs))
                )
                if layout is None:
                    layout = _plain_layout(op, scope)
                if layout:  # (keyed by its map's id, which the layout holds: that very map)
                    head, middle, newer, _ = layout
                    if newer:
                        scope.newer = True
                    locs.append(op.loc)
                    buf += head
                    for r in results:
                        t = r.type
                        i = type_ids.get(id(t))
                        if i is None:
                            i = type_index(t)
                            type_ids = types.by_id  # (a replay hands the table another map)
                        if i < 0x80:
                            buf.append(i)
                        else:
                            s.varint(i)
                    buf += middle
                    for val in operands:  # (as below)
                        found = index.get(val.id)
                        if found is None or (found[1] is not val and found[1] != val):
                            s.varint(scope.ref(val, op))  # raises the fault
                        elif found[0] < 0x80:
                            buf.append(found[0])
                        else:
                            s.varint(found[0])
                    for r in results:  # (as below)
                        if r.id in index or type(r.type) not in _VALUE_CLASSES:
                            scope.next = next_index
                            scope.define(r, op)
                            next_index = scope.next
                        else:
                            index[r.id] = (next_index, r)
                            next_index += 1
                    continue
            # the usual op: its record, by its name, says how to check and write it
            record = fast.get(op.name)
            if record is None:
                scope.next = next_index
                _write_op(s, op, scope)
                next_index = scope.next
                continue
            (plan, opcode, counted, want, attr_names, kinds, run, n_fixed, n_variable, star,
             flags, group_flags, defaults, newer, n_regions) = record  # fmt: skip
            op_attrs = op.attrs
            attrs = None if op_attrs is EMPTY_ATTRS or not op_attrs else op_attrs
            n_results = len(results)
            ok = (want is None or n_results == want) and len(op.regions) == n_regions
            if ok and attrs is not None:  # (a loop: frozenset.issuperset is C code of its own)
                for attr in attrs:
                    if attr not in attr_names:
                        ok = False
                        break
            sizes: Optional[Sequence[int]]
            if kinds is None:  # the operands are one run: one count at most
                n = len(operands)
                rest = n - n_fixed
                ok = (
                    ok
                    and op.segments is None
                    and ((rest >= 0 and (star or rest <= 1)) if n_variable else rest == 0)
                )
                kinds, sizes = run, _RUNS[n] if n < 16 else (n,)
            else:
                sizes = plan.sizes(op) if ok else None
                ok = sizes is not None
            if not ok or sizes is None:
                scope.next = next_index
                _write_op(s, op, scope)
                next_index = scope.next
                continue

            if newer:
                scope.newer = True
            locs.append(op.loc)
            # one-byte varints are appended in place (the common case); s.varint the rest
            buf += opcode
            if counted:
                if n_results < 0x80:
                    buf.append(n_results)
                else:
                    s.varint(n_results)
            for r in results:
                t = r.type
                i = type_ids.get(id(t))
                if i is None:
                    i = type_index(t)
                    type_ids = types.by_id  # (as above)
                if i < 0x80:
                    buf.append(i)
                else:
                    s.varint(i)
            if flags is not None:
                # a flag marks an optional operand group that is there, or an attribute set
                bits = 0
                if attrs is not None or group_flags:
                    for bit, group, flag in flags:
                        if sizes[group] if group is not None else attrs and attrs.get(flag):
                            bits |= bit
                buf.append(bits)  # (fewer than 8 flags: one byte)
            if attrs is not None or defaults is None:
                _write_attrs(s, op, scope, plan, attrs, sizes)
            elif type(defaults) is bytes:
                buf += defaults
            else:  # bool[] attributes at their default: one 0 per value of their group
                for part in defaults:
                    if type(part) is bytes:
                        buf += part
                    else:
                        n = sizes[part]
                        if n < 0x80:  # (the count's varint in place, as below)
                            buf.append(n)
                        else:
                            s.varint(n)
                        buf += _ZEROS[n] if n < 16 else bytes(n)
            at = 0
            for kind, n in zip(kinds, sizes):  # group by group, a count before a "*" one
                if kind == "*":
                    if n < 0x80:
                        buf.append(n)
                    else:
                        s.varint(n)
                # each operand's index (as _write_refs writes them, without its call; a
                # slice of a whole tuple is the tuple itself)
                for val in operands[at : at + n]:
                    found = index.get(val.id)
                    if found is None or (found[1] is not val and found[1] != val):
                        s.varint(scope.ref(val, op))  # raises the fault
                    elif found[0] < 0x80:
                        buf.append(found[0])
                    else:
                        s.varint(found[0])
                at += n
            if n_regions:  # (as _write_op: the count, then per region 1 block and the block)
                buf.append(n_regions)  # (a varint of one byte: no op has 128 regions)
                scope.next = next_index
                for block in op.regions:
                    buf.append(1)
                    _write_block(s, block, scope, op)
                next_index = scope.next
            for r in results:
                if r.id in index or type(r.type) not in _VALUE_CLASSES:
                    scope.next = next_index
                    scope.define(r, op)  # raises the fault, or defines a subclass's value
                    next_index = scope.next
                else:
                    index[r.id] = (next_index, r)
                    next_index += 1
        scope.next = next_index
    except EncodeError as e:
        if op is None:
            raise
        raise e.with_context(
            kernel=scope.function, op=op.name, where=str(op.loc) if op.loc else None
        ) from None


_RUNS = [(n,) for n in range(16)]  # an ungrouped op's sizes: one run (made once)
_ZEROS = [bytes(n) for n in range(16)]  # a bool[] attribute's default, per count (made once)

#: a plain op's layout (see _plain_layout), or False where there is none
_Layout = Union[tuple[bytes, bytes, bool, Mapping[str, Any]], Literal[False]]
# version -> (op name, operand count, result count[, id(attribute map)]) -> the layout of a
# plain op of that name, counts and attributes (see _plain_layout), or False: a memo of a
# pure function of constants, counts and the map (which the layout holds, so that its id
# names no other map meanwhile)
_LAYOUTS: dict[tuple[int, int], dict[tuple, "_Layout"]] = {
    v: memo_table(f"encode.opwrite: plain op layouts of {version_text(v)}") for v in VERSIONS
}
#: attribute kinds whose bytes come from a pool (an index into the String or Constant table):
#: an op with one is written the usual way
_POOLED_KINDS = frozenset({"dense", "str", "scalars", "hints"})


def _plain_layout(op: Op, scope: WriteScope) -> _Layout:
    """How write_ops writes a plain op (one without segments or regions, whose attributes
    need no pool) of ``op``'s name, counts and attribute map at the scope's version: (the
    opcode and result count, the flags, attributes and operand count between the result
    types and the operands, whether it may need a later version, the map); False where such
    an op takes the usual path (no record, a fault the checks name, an operand count between
    its groups, a pooled attribute).  What the usual path would write for such an op, worked
    out once per name, counts and map."""
    key: tuple = (op.name, len(op.operands), len(op.results))
    if op.attrs is not EMPTY_ATTRS:
        key += (id(op.attrs),)
    layout = _plain_layout_of(op, scope)
    remember(_LAYOUTS[scope.version], key, layout)
    return layout


def _plain_layout_of(op: Op, scope: WriteScope) -> _Layout:
    record = FAST[scope.version].get(op.name)
    n_operands, n_results, attrs = len(op.operands), len(op.results), op.attrs
    if record is None:
        return False
    (plan, opcode, counted, want, attr_names, kinds, run, n_fixed, n_variable, star,
     flags, _group_flags, defaults, newer, n_regions) = record  # fmt: skip
    if n_regions or (want is not None and n_results != want):
        return False  # (an op whose codec has regions, but this one none: the usual way)
    if attrs:
        if not attr_names.issuperset(attrs):
            return False
        for _, kind, *_ in plan.attrs_at[scope.version]:
            if kind in _POOLED_KINDS:  # (an op that may write a pool index: the usual way)
                return False
    sizes: Optional[Sequence[int]]
    if kinds is None:  # one run, after its count when the run is "*"
        rest = n_operands - n_fixed
        if not ((rest >= 0 and (star or rest <= 1)) if n_variable else rest == 0):
            return False
        sizes = (n_operands,)
        counted_run = run[0] == "*"
    else:  # groups without counts between them: one run too
        sizes = plan.group_sizes(n_operands)
        if sizes is None or "*" in kinds:
            return False
        counted_run = False
    head, middle = Sink(), Sink()
    head.raw(opcode)
    if counted:
        head.varint(n_results)
    if flags is not None:  # the flags of the groups that are there and the attributes set
        middle.buf.append(
            sum(
                bit
                for bit, group, flag in flags
                if (sizes[group] if group is not None else attrs and attrs.get(flag))
            )
        )
    if attrs:
        try:  # (the usual path's own writer; a fault it finds, that path names)
            _write_attrs(middle, op, scope, plan, attrs, sizes)
        except EncodeError:
            return False
    else:
        if defaults is None:
            return False  # (its attributes are worked out one by one: a fault may lie there)
        parts: tuple = (defaults,) if type(defaults) is bytes else defaults
        for part in parts:
            if type(part) is bytes:
                middle.raw(part)
            else:  # a bool[] attribute at its default: one 0 per value of its group
                n = sizes[part]
                middle.varint(n)
                middle.raw(bytes(n))
    if counted_run:
        middle.varint(n_operands)
    return bytes(head.buf), bytes(middle.buf), newer, attrs


#: the classes of VALUE_TYPES, for a test by the exact class (a subclass goes to define)
_VALUE_CLASSES = frozenset(VALUE_TYPES)


def _write_block(s: Sink, block: Block, scope: WriteScope, op: Op) -> None:
    check_block(block, scope, op)
    index = scope.index
    mark, before = scope.next, len(index)
    buf = s.buf  # (one-byte varints in place, as write_ops writes them)
    args = block.args
    if len(args) < 0x80:
        buf.append(len(args))
    else:
        s.varint(len(args))
    type_index = scope.pools.type
    for arg in args:
        i = type_index(arg.type)
        if i < 0x80:
            buf.append(i)
        else:
            s.varint(i)
        scope.define(arg, op)
    if len(block.ops) < 0x80:
        buf.append(len(block.ops))
    else:
        s.varint(len(block.ops))
    write_ops(s, block.ops, scope)
    # the bytecode forgets a block's values when it closes: they are the entries added last
    # (a value is never defined twice, and inner blocks take theirs back out)
    while len(index) > before:
        index.popitem()
    scope.next = mark


def check_block(
    block: Block, scope: WriteScope, op: Optional[Op], final: Optional[str] = None
) -> None:
    """A block ends in a terminator (``final`` when given) and holds no other one."""
    ops = block.ops
    last = ops[-1].name if ops else None
    if last is None or last not in TERMINATORS or (final and last != final):
        want = f"`{final}`" if final else "a terminator (" + ", ".join(sorted(TERMINATORS)) + ")"
        raise scope.fail(
            f"a block must end in {want}; this one ends in {last if ops else 'nothing'}", op
        )
    for other in ops[:-1]:
        if other.name in TERMINATORS:
            raise scope.fail(f"terminator `{other.name}` in the middle of a block", op)


def _groups(op: Op, codec: OpCodec, scope: WriteScope) -> dict[str, tuple]:
    try:
        groups = operand_groups(op)
    except ValueError as e:
        raise scope.fail(str(e), op) from None
    sizes = [len(groups.get(name, ())) for name, _ in codec.groups]
    if sum(sizes) != len(op.operands) or (
        op.segments is not None and len(op.segments) != len(codec.groups)
    ):
        raise scope.fail(
            f"segments {op.segments} do not split the {len(op.operands)} operands "
            f"into the groups {[g for g, _ in codec.groups]}",
            op,
        )
    for (name, kind), n in zip(codec.groups, sizes):
        if (kind == "1" and n != 1) or (kind == "?" and n > 1):
            raise scope.fail(
                f"operand group `{name}` takes {'one' if kind == '1' else 'at most one'}"
                f" value, not {n}",
                op,
            )
    return groups


def _write_op(s: Sink, op: Op, scope: WriteScope) -> None:
    # The checking path (write_ops sends here every op its own checks do not pass, and the
    # ops with regions): every rule of OP_CODECS checked, the fault named, then the bytes.
    name = op.name
    plan = PLANS.get(name)
    if plan is None:
        raise scope.fail(f"`{name}` is not a body op of the dialect", op)
    codec = plan.codec
    v, pools = scope.version, scope.pools
    operands, results = op.operands, op.results
    op_attrs = op.attrs
    # the attributes (a read-only dict), or None
    attrs = None if op_attrs is EMPTY_ATTRS else op_attrs or None
    want = plan.want_results
    # operands per group (and the groups' operands, when _groups split them)
    sizes: Sequence[int]
    chunks: Optional[list[Sequence[Value]]] = None
    flags_on, blob, newer = plan.by_version.get(v) or plan.facts(v)
    if newer:
        scope.newer = True
    written = results
    if codec.since > v:
        raise scope.fail(
            f"needs bytecode {version_text(codec.since)}, the file is {version_text(v)}", op
        )
    if codec.last_result_since is not None and v < codec.last_result_since:
        written = results[:-1]
    if want is not None and len(results) != want:
        raise scope.fail(f"has {len(results)} results, the dialect gives it {want}", op)
    if len(op.regions) != codec.regions:
        raise scope.fail(
            f"has {len(op.regions)} regions, the dialect gives it {codec.regions}", op
        )
    if attrs:
        unknown = attrs.keys() - plan.attr_names
        if unknown:
            raise scope.fail(f"has no attribute {sorted(unknown)[0]!r}", op)
    split = plan.sizes(op)
    if split is None:  # _groups names the fault, or splits the operands its own way
        groups = _groups(op, codec, scope)
        chunks = [groups[g] for g, _ in codec.groups]
        sizes = [len(c) for c in chunks]
    else:
        sizes = split
    scope.locs.append(op.loc)

    # one-byte varints are appended in place (the common case); s.varint writes the rest
    buf = s.buf
    buf += plan.opcode
    if codec.fixed_results is None:
        s.varint(len(written))
    type_index = pools.type
    for r in written:
        i = type_index(r.type)
        if i < 0x80:
            buf.append(i)
        else:
            s.varint(i)

    if flags_on:
        # a flag marks an optional operand group that is there, or an attribute set / true
        bits = 0
        for i, (flag, group) in enumerate(zip(codec.flags, plan.flag_groups)):
            if sizes[group] if group is not None else attrs and attrs.get(flag):
                bits |= 1 << i
        s.varint(bits)
    if blob is not None and not attrs:
        buf += blob
    else:
        _write_attrs(s, op, scope, plan, attrs, sizes)

    for group, since in plan.group_since:
        if sizes[group] and since > v:
            raise scope.fail(
                f"operand {codec.groups[group][0]} needs bytecode {version_text(since)}", op
            )
    if codec.operand_layout == "grouped":  # group by group, a count before each variadic one
        if chunks is None:  # consecutive runs of the operands
            chunks, at = [], 0
            for n in sizes:
                chunks.append(operands[at : at + n])
                at += n
        for kind, chunk in zip(plan.kinds, chunks):
            if kind == "*":
                s.varint(len(chunk))
            _write_refs(s, chunk, scope, op)
    else:  # all in one run, after their total count where a group is variable
        if codec.operand_layout == "counted":
            s.varint(len(operands))
        _write_refs(s, operands, scope, op)
    index = scope.index

    if codec.regions:
        s.varint(len(op.regions))
        for block in op.regions:
            s.varint(1)
            _write_block(s, block, scope, op)
    for r in written:
        if r.id in index or not isinstance(r.type, VALUE_TYPES):
            scope.define(r, op)  # raises the fault
        else:
            index[r.id] = (scope.next, r)
            scope.next += 1


def _write_refs(s: Sink, values: Sequence[Value], scope: WriteScope, op: Op) -> None:
    """The bytecode indices of operand ``values`` (``scope.ref`` names a fault)."""
    buf, index = s.buf, scope.index
    for val in values:
        found = index.get(val.id)
        if found is None or (found[1] is not val and found[1] != val):
            s.varint(scope.ref(val, op))  # raises the fault
        elif found[0] < 0x80:
            buf.append(found[0])
        else:
            s.varint(found[0])


def _write_attrs(
    s: Sink,
    op: Op,
    scope: WriteScope,
    plan: OpPlan,
    attrs: Optional[Mapping[str, Any]],
    sizes: Sequence[int],
) -> None:
    """The attributes, in declaration order (``attrs``: the op's, as a dict, or None)."""
    buf = s.buf
    # (per attribute: whether it is newer than the file, and whether an absent one is left
    # out, worked out once per version)
    for attr, kind, default, optional, since, default_bytes, later, left_out in plan.attrs_at[
        scope.version
    ]:
        if attrs and attr in attrs:
            value = attrs[attr]
        else:
            # absent: the default, which a version without the attribute also holds
            if left_out:
                continue
            if default_bytes is not None:
                buf += default_bytes
                continue
            value = default
        if later:
            if not is_default(kind, value, default):
                raise scope.fail(
                    f"attribute {attr} = {value!r} needs bytecode {version_text(since)}", op
                )
            continue
        if value is None:
            if optional or kind == "unit":
                continue
            raise scope.fail(f"attribute {attr!r} is required", op)
        if kind == "unit":
            continue
        if kind == "bool[]" and not value:  # one False per value of its operand group
            at = plan.bool_array_at
            assert at is not None  # a bool[] attribute has an operand group (see _Plan)
            n = sizes[at]
            s.varint(n)
            buf += bytes(n)
            continue
        _write_attr(s, kind, attr, value, op, scope)


def _write_attr(s: Sink, kind: str, name: str, value, op: Op, scope: WriteScope) -> None:
    pools = scope.pools
    try:
        # (the kinds are distinct: the usual ones are tried first)
        if kind == "dense":
            result = op.results[0].type
            if not isinstance(value, Dense) or (value.type is not result and value.type != result):
                raise scope.fail(f"value {value!r} is not a dense constant of {result}", op)
            data = value.data
            t: Any = value.type  # (a tile of numbers, once dense_fault finds no fault)
            if _GOOD_DENSE.get((id(t), len(data))) is not t:
                fault = dense_fault(t, data)
                if fault:
                    raise scope.fail(f"value: {fault}", op)
                if t.element.name != "i1":  # (an i1 constant's first byte matters too)
                    remember(_GOOD_DENSE, (id(t), len(data)), t, 1024)
            i = pools.constant(data)
            if i < 0x80:  # (a one-byte varint in place)
                s.buf.append(i)
            else:
                s.varint(i)
        elif kind in PLAIN_KINDS:
            write_plain_attr(s, kind, value)
        elif kind == "bool[]":
            s.varint(len(value))
            for b in value:
                s.byte(int(bool(b)))
        elif kind == "str":
            s.varint(pools.string(str(value)))
        elif kind == "scalars":
            for x in value:  # (a loop: no generator made per reduce)
                if not isinstance(x, ScalarAttr):
                    raise scope.fail(f"{name} must be Scalars, not {value!r}", op)
            s.varint(len(value))
            for x in value:
                write_tagged(s, x, pools)
        elif kind == "predicate":
            if type(value).__name__ not in PREDICATES:
                raise scope.fail(f"{value!r} is not an assume predicate", op)
            # a predicate's bytes need no pool: kept per predicate object (a memo keyed by
            # identity; the entry keeps the object alive, so its id names no other meanwhile)
            known = _PREDICATE_BYTES.get(id(value))
            if known is not None and known[0] is value:
                s.buf += known[1]
            else:
                tagged = Sink()
                write_tagged(tagged, value, pools)
                remember(_PREDICATE_BYTES, id(value), (value, bytes(tagged.buf)), 1024)
                s.buf += tagged.buf
        elif kind == "hints":
            write_hints(s, value, pools)
        else:  # pragma: no cover - the signatures list no other kind
            raise scope.fail(f"attribute kind {kind} has no encoding", op)
    except (ValueError, TypeError, OverflowError, AttributeError) as e:
        raise scope.fail(f"attribute {name} = {value!r} cannot be written: {e}", op) from None
    except EncodeError as e:
        if e.op is not None:  # scope.fail above: it names the fault already
            raise
        # a field the wire refused (a value past its range): say which attribute holds it
        raise scope.fail(
            f"attribute {name} = {value!r} cannot be written: {e.message}", op
        ) from None


# id(predicate) -> (predicate, its tagged bytes)
_PREDICATE_BYTES: dict = memo_table("encode.opwrite: predicate bytes")
# (id(tile type), byte count) -> the tile type, where a dense constant of that many bytes is
# one of it (dense_fault found no fault; not kept for i1, whose first byte matters too): a
# memo of a pure function of immutable values (the type is kept, so its id names no other)
_GOOD_DENSE: dict = memo_table("encode.opwrite: dense constants found good")
