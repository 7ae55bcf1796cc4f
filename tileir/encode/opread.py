"""Reading one instruction (and its regions) by the rules of ``OP_CODECS``.

The mirror of ``opwrite``.  Bytecode value indices roll back when a block
closes; our ids do not (each value read takes the next id of its function), so
the Module read is canonical (see ``canon``).  Every fault is a DecodeError
naming the byte offset.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from tileir.encode.attrcodec import read_hints, read_tagged
from tileir.encode.optable import (
    MAX_OPCODE,
    PREDICATES,
    TERMINATORS,
    VALUE_TYPES,
    OpCodec,
    codec_by_opcode,
    dense_fault,
    is_default,
)
from tileir.encode.pools import ReadPools
from tileir.encode.wire import Source
from tileir.ir.dialect import ENUMS, version_text
from tileir.ir.module import Block, Dense, Loc, Op, ScalarAttr, Value
from tileir.types import (
    TOKEN,
    GatherScatterViewType,
    PartitionViewType,
    StridedViewType,
    TensorViewType,
    TileType,
    TokenType,
    Type,
)

__all__ = ["ReadScope", "read_ops", "MAX_REGION_DEPTH"]

#: How deeply regions may nest in a file the decoder accepts (docs/bytecode.md, "Limits"):
#: every later stage (render, canonicalize, hashing, encode, the checker, the interpreter)
#: walks regions recursively, and at this depth stays far inside Python's recursion limit.
#: No bundled kernel nests more than a few regions.
MAX_REGION_DEPTH = 64


class ReadScope:
    """Per-function reader state: values by bytecode index, our next id, the location feed."""

    def __init__(
        self,
        pools: ReadPools,
        params: tuple[Value, ...],
        next_loc: Callable[[Source], Optional[Loc]],
    ):
        self.pools = pools
        self.version = pools.version
        self.values: list[Value] = list(params)
        self.next_id = len(params)
        self.next_loc = next_loc
        self.depth = 0  # regions open around the op being read

    def fresh(self, t: Type) -> Value:
        v = Value(self.next_id, t)
        self.next_id += 1
        return v

    def ref(self, src: Source) -> Value:
        at = src.offset
        i = src.varint()
        if i >= len(self.values):
            src.fail(f"value index {i} out of range ({len(self.values)} values in scope)", at)
        return self.values[i]


def read_ops(src: Source, scope: ReadScope, count: Optional[int]) -> tuple[Op, ...]:
    """``count`` ops (None: until ``src`` ends), checking the block ends in a terminator."""
    ops: list[Op] = []
    starts: list[int] = []
    while (src.remaining() > 0) if count is None else (len(ops) < count):
        starts.append(src.offset)
        ops.append(_read_op(src, scope))
    for op, at in zip(ops[:-1], starts):
        if op.name in TERMINATORS:
            src.fail(f"terminator `{op.name}` in the middle of a block", at)
    if not ops or ops[-1].name not in TERMINATORS:
        src.fail("block does not end in a terminator (continue, break, yield or return)")
    return tuple(ops)


def _read_block(src: Source, scope: ReadScope) -> Block:
    if scope.depth >= MAX_REGION_DEPTH:
        src.fail(f"regions nest more than {MAX_REGION_DEPTH} deep (the decoder's limit)")
    scope.depth += 1
    try:
        return _read_block_body(src, scope)
    finally:
        scope.depth -= 1


def _read_block_body(src: Source, scope: ReadScope) -> Block:
    mark = len(scope.values)
    args = []
    for _ in range(src.count()):
        arg = scope.fresh(scope.pools.type(src, VALUE_TYPES, "block argument type"))
        args.append(arg)
        scope.values.append(arg)
    ops = read_ops(src, scope, src.count())
    del scope.values[mark:]
    return Block(tuple(args), ops)


#: the view ops and the one type of view each makes; no other op makes a view
_VIEW_RESULTS = {
    "make_tensor_view": TensorViewType,
    "make_partition_view": PartitionViewType,
    "make_strided_view": StridedViewType,
    "make_gather_scatter_view": GatherScatterViewType,
}
_VIEW_TYPES = tuple(_VIEW_RESULTS.values())
_TOKEN_OPS = frozenset({"make_token", "join_tokens"})


def _result_fault(name: str, types: list) -> Optional[str]:
    """Why ``types`` cannot be the results of op ``name`` by its layout (None if they can):
    a view op makes its kind of view, a token-ordered op (``*_tko``) ends in a token, and
    any other result is a tile (token-producing ops aside), never a view."""
    view = _VIEW_RESULTS.get(name)
    for k, t in enumerate(types):
        if view is not None:
            if not isinstance(t, view):
                return f"result {k} is {t}, not a {view.__name__.removesuffix('Type')}"
        elif isinstance(t, _VIEW_TYPES):
            return f"result {k} is {t}: only view ops make views"
        elif name in _TOKEN_OPS and not isinstance(t, TokenType):
            return f"result {k} is {t}, not a token"
    if name.endswith("_tko") and types and not isinstance(types[-1], TokenType):
        return f"its last result is {types[-1]}, not the token a token-ordered op makes"
    if name.endswith("_tko") and any(isinstance(t, TokenType) for t in types[:-1]):
        return "only its last result may be a token"
    if name not in _TOKEN_OPS and name not in _VIEW_RESULTS and not name.endswith("_tko"):
        if any(not isinstance(t, (TileType, TokenType)) for t in types):
            return "its results must be tiles"
    return None


def _read_op(src: Source, scope: ReadScope) -> Op:
    at = src.offset
    v, pools = scope.version, scope.pools
    opcode = src.varint()
    if opcode > MAX_OPCODE[v]:
        src.fail(
            f"opcode {opcode:#x} is above bytecode {version_text(v)}'s maximum {MAX_OPCODE[v]:#x}",
            at,
        )
    codec = codec_by_opcode(opcode)
    if codec is None or codec.since > v:
        src.fail(f"opcode {opcode:#x} is not a body op of bytecode {version_text(v)}", at)
    loc = scope.next_loc(src)
    dropped = codec.last_result_since is not None and v < codec.last_result_since
    n = codec.fixed_results
    if n is None:
        n = src.count()
        want = codec.counted_results
        if want is not None and n != want - dropped:
            src.fail(f"`{codec.name}` with {n} results (it has {want - dropped})", at)
    else:
        n -= dropped
    types = [pools.type(src, VALUE_TYPES, "result type") for _ in range(n)]
    fault = _result_fault(codec.name, types)
    if fault:
        src.fail(f"`{codec.name}`: {fault}", at)

    flags = 0
    if codec.flags_since is not None and v >= codec.flags_since:
        flags_at = src.offset
        flags = src.varint()
        if flags >> len(codec.flags):
            src.fail(f"`{codec.name}` flags {flags:#x} set unknown bits", flags_at)
    present = {name: bool(flags >> i & 1) for i, name in enumerate(codec.flags)}

    attrs: dict[str, Any] = {}
    for name, kind, default, optional, since in codec.attrs:
        if since > v:
            continue
        if kind == "unit":
            value = present[name]
        elif optional and not present[name]:
            continue
        else:
            value = _read_attr(src, kind, name, types, pools, codec)
        if not is_default(kind, value, default):
            attrs[name] = value

    sizes: list[int] = []
    operands: list[Value] = []
    if codec.operand_layout == "grouped":
        for name, kind in codec.groups:
            sizes.append(src.count() if kind == "*" else 1 if kind == "1" or present[name] else 0)
            operands.extend(scope.ref(src) for _ in range(sizes[-1]))
    else:
        fixed = sum(1 for _, kind in codec.groups if kind == "1")
        total = src.count() if codec.operand_layout == "counted" else fixed
        rest = total - fixed
        for _, kind in codec.groups:
            sizes.append(1 if kind == "1" else rest)
        if rest < 0 or (any(k == "?" for _, k in codec.groups) and rest > 1):
            src.fail(f"`{codec.name}` cannot take {total} operands", at)
        operands = [scope.ref(src) for _ in range(total)]
    if codec.bool_array_group and "inbounds" in attrs:
        n_index = sizes[[g for g, _ in codec.groups].index(codec.bool_array_group)]
        if len(attrs["inbounds"]) != n_index:
            src.fail(
                f"`{codec.name}` has {len(attrs['inbounds'])} inbounds flags for "
                f"{n_index} indices",
                at,
            )

    regions = []
    if codec.regions:
        reg_at = src.offset
        if src.varint() != codec.regions:
            src.fail(f"`{codec.name}` must have {codec.regions} regions", reg_at)
        for _ in range(codec.regions):
            blk_at = src.offset
            if src.varint() != 1:
                src.fail(f"a region of `{codec.name}` must hold exactly one block", blk_at)
            regions.append(_read_block(src, scope))
    results = [scope.fresh(t) for t in types]
    scope.values.extend(results)
    if dropped:
        results.append(scope.fresh(TOKEN))  # print before 13.2 made no token; ours has one
    segments = tuple(sizes) if codec.operand_layout == "grouped" else None
    return Op(codec.name, tuple(operands), tuple(results), attrs, tuple(regions), segments, loc)


def _read_attr(src: Source, kind: str, name: str, types, pools: ReadPools, codec: OpCodec):
    at = src.offset
    if kind.startswith("enum:"):
        spellings = ENUMS[kind[5:]]
        code = src.varint()
        if code >= len(spellings):
            src.fail(f"`{codec.name}` {name} = {code} is not a {kind[5:]} value", at)
        return spellings[code]
    if kind == "bool":
        return src.byte() != 0
    if kind == "int":
        return src.varint()
    if kind == "i32[]":
        return src.ints(4)
    if kind == "bool[]":
        return tuple(b != 0 for b in src.take(src.count()))
    if kind == "str":
        return pools.string(src)
    if kind == "dense":
        data = pools.constant(src)
        fault = dense_fault(types[0] if types else None, data)
        if fault:
            src.fail(f"`{codec.name}` value: {fault}", at)
        return Dense(types[0], data)
    if kind == "scalars":
        items = tuple(read_tagged(src, pools) for _ in range(src.count()))
        if not all(isinstance(x, ScalarAttr) for x in items):
            src.fail(f"`{codec.name}` {name} must be integers or floats", at)
        return items
    if kind == "predicate":
        value = read_tagged(src, pools)
        if type(value).__name__ not in PREDICATES:
            src.fail(f"`{codec.name}` predicate {value!r} is not an assume predicate", at)
        return value
    if kind == "hints":
        return read_hints(src, pools)
    src.fail(f"attribute kind {kind} has no decoding", at)  # pragma: no cover
