"""Lowering: a recorded Program becomes a Module of ``cuda_tile`` ops.

A pure function of the Program.  The state it keeps while it walks (the ops
of the block being written, the scopes of values, the current token) lives in
one :class:`_Lowering` made per call and thrown away after it.

What the lowering adds to what the body recorded:

* addressing: each cell load or store reads its parameter through
  ``assume div_by<16>`` (the pointer's alignment promise), ``make_tensor_view``
  (the whole buffer, row-major) and ``make_partition_view`` (its cells, with
  the marker's padding), indexed by block ids and the kernel's picks;
* the token chain: every memory op takes the token of the one before it, and
  a loop or branch whose body touches memory carries the token through;
* the combiner regions of reductions (named ones, and the kernel's own combiners
  over the ``region_arg`` placeholders), and equal pure expressions shared (one
  SSA value each per scope);
* the module's globals (each ``get_global`` names one), and the entry's hints.

Addressing (views and pointers) lives in :mod:`tileir.lower.addressing`.

Values are numbered as bytecode numbers them (params first, then each op's
region arguments and nested ops before the op's own results), so that
``decode(encode(m)) == m``.

The entry's parameters are those of the calling convention,
:mod:`tileir.record.convention`.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Hashable, Iterable, Mapping, Optional, Sequence

from tileir.errors import LoweringError
from tileir.ir.attrmap import AttrMap
from tileir.ir.memo import memo_table, remember
from tileir.ir.module import (
    EMPTY_ATTRS,
    Block,
    Function,
    Global,
    Loc,
    Module,
    Op,
    ScalarAttr,
    Value,
    clean_attrs,
    freeze_attrs,
    trusted_block,
    trusted_function,
    trusted_module,
    trusted_op1,
    trusted_op_n,
    trusted_value,
)
from tileir.ir.numerics import scalar_bits
from tileir.ir.rule_table import rule_table
from tileir.lower.addressing import Addressing
from tileir.lower.guards import GuardedAccess, guarded_params
from tileir.lower.memory import MEMORY_LOWER_RULES, MemoryInstrs
from tileir.record.convention import dyn_extents, entry_param_types
from tileir.record.markers import Param
from tileir.record.program import (
    INSTRUCTIONS,
    MEMORY_INSTRS,
    Assert,
    Exit,
    For,
    If,
    Instr,
    Loop,
    Print,
    Program,
    walk_instructions,
)
from tileir.record.tile import Tile
from tileir.types import I32, TOKEN, Format, TileType, Type, canonical_tile_type

__all__ = ["lower", "LOWER_RULES"]

# attributes a Tile carries for the recorder, not for the op
_RECORDER_ATTRS = {"combiner", "identity", "region", "global", "param", "cells"}
# tile ops the lowering treats apart (the recorder's own, and ops with recorder attributes)
_RECORDER_OPS = frozenset(
    {
        "param",
        "ptr_param",
        "block_id",
        "num_blocks",
        "get_tensor_shape",
        "get_index_space_shape",
        "result",
        "reduce",
        "scan",
        "get_global",
    }
)
#: a rank-0 i32 tile's type, made once (block ids, loop counters: every kernel has some)
_I32_SCALAR = TileType((), I32)
#: the types of the three block ids
_I32_SCALARS = (_I32_SCALAR,) * 3
_COMBINERS = {
    ("max", True): "maxf",
    ("min", True): "minf",
    ("sum", True): "addf",
    ("prod", True): "mulf",
    ("max", False): "maxi",
    ("min", False): "mini",
    ("sum", False): "addi",
    ("prod", False): "muli",
}


def _op_attrs(name: str, attrs: Optional[Mapping[str, Any]]) -> AttrMap:
    """``attrs`` as the frozen map an Op named ``name`` keeps (its defaults dropped)."""
    if attrs is None or attrs is EMPTY_ATTRS:
        return EMPTY_ATTRS
    if type(attrs) is not AttrMap:
        attrs = freeze_attrs(attrs)
        if attrs is EMPTY_ATTRS:
            return attrs
    return clean_attrs(name, attrs)


def _tile_op_attrs(op: str, attrs: AttrMap) -> AttrMap:
    """A tile's attributes as its op keeps them: less the recorder's own and the defaults
    (memoized by the map's identity: tiles share their maps, see ``freeze_attrs``)."""
    key = (op, id(attrs))
    hit = _TILE_ATTRS.get(key)
    if hit is not None and hit[0] is attrs:
        return hit[1]
    kept: AttrMap = attrs
    if not _RECORDER_ATTRS.isdisjoint(attrs):
        kept = freeze_attrs({k: v for k, v in attrs.items() if k not in _RECORDER_ATTRS})
    clean = clean_attrs(op, kept) if kept else EMPTY_ATTRS
    remember(
        _TILE_ATTRS, key, (attrs, clean)
    )  # (the entry keeps the map alive: its id stays its own)
    return clean


_TILE_ATTRS: dict[tuple[str, int], tuple[AttrMap, AttrMap]] = memo_table(
    "lower.lowering: a tile's op attributes"
)


def _entry(params: tuple[Param, ...], guarded: tuple[int, ...]) -> _Entry:
    """The entry of a program of ``params`` whose pointer path reaches ``guarded``: its
    parameters as Values ``0 .. P-1`` (the convention's types), the DYN_DIM extent ->
    parameter map and the guarded parameter -> count position map.  A memo keyed by what it
    reads of those values (a kernel recorded again has equal parameters); the Values are
    immutable, so every lowering of such a program shares them, and the maps are only read."""
    key = (_entry_key(params), guarded)
    found = _ENTRIES.get(key)
    if found is not None:
        return found
    extents = dyn_extents(params)
    types = entry_param_types(params, guarded)
    values = tuple(trusted_value(i, t) for i, t in enumerate(types))
    n = len(params)
    extent_values = {key: values[n + i] for i, key in enumerate(extents)}
    first_count = n + len(extents)
    count_index = {p: first_count + i for i, p in enumerate(guarded)}
    return remember(_ENTRIES, key, (values, extent_values, count_index), 1024)


def _entry_key(params: tuple[Param, ...]) -> tuple:
    """What :func:`_entry` reads of each parameter (its index, role, format, pointer
    attribute and extent: ``dyn_extents`` and ``entry_param_types`` read no more), as values
    that hash and compare in C.  A Param, its marker and its Format hash and compare through
    attrs' Python methods: keyed by them, the memo's probe made a dozen distinct calls."""
    key = []
    for p in params:  # (a loop, not a comprehension: one code object fewer to fetch cold)
        extent = None if p.cells is None else p.cells.extent
        key.append((p.index, p.role, p.format.name, p.marker.ptr_attr, extent))
    return tuple(key)


#: an open block's bindings: what it bound over (key, old value), the keys it bound that were
#: unbound, and what is shared within it only
_Scope = tuple[list[tuple[Hashable, Any]], list[Hashable], dict[Hashable, Any]]


#: (the entry's parameters, DYN_DIM extent -> parameter, guarded parameter -> the entry
#: position of its count)
_Entry = tuple[tuple[Value, ...], dict[tuple[int, int], Value], dict[int, int]]
_ENTRIES: dict[tuple, _Entry] = memo_table("lower.lowering: entry parameters")


def _named_reduction(attrs: AttrMap, fmt: Format) -> tuple[TileType, str, AttrMap, AttrMap]:
    """A named reduction (a reduce tile's ``attrs``, over ``fmt``) as its parts: the scalar
    type of its combiner's arguments, the combiner op and its attributes, and the reduce's
    own attributes (the identity as bits).  Memoized by the map's and the format's identity
    (tiles share their maps, see ``freeze_attrs``; the entry keeps both alive)."""
    key = (id(attrs), id(fmt))
    hit = _NAMED_REDUCTIONS.get(key)
    if hit is not None and hit[0] is attrs and hit[1] is fmt:
        return hit[2]
    combiner = _COMBINERS[(attrs["combiner"], fmt.is_float)]
    signed = {"signedness": "signed"} if combiner in ("maxi", "mini") else None
    identity = ScalarAttr(fmt, scalar_bits(fmt, attrs["identity"]))
    parts = (
        canonical_tile_type((), fmt),
        combiner,
        _op_attrs(combiner, signed),
        _op_attrs("reduce", {"dim": attrs["dim"], "identities": (identity,)}),
    )
    remember(_NAMED_REDUCTIONS, key, (attrs, fmt, parts))
    return parts


_NAMED_REDUCTIONS: dict[tuple[int, int], tuple[AttrMap, Format, tuple]] = memo_table(
    "lower.lowering: a named reduction's parts"
)


def _for_attrs(unsigned: bool) -> AttrMap:
    """A ``for``'s attributes as the op keeps them, made once per flag (keyed by its type
    too: 1 and True are equal, and freeze_attrs keeps their maps apart)."""
    key = (type(unsigned), unsigned)
    found = _FOR_ATTRS.get(key)
    if found is None:
        found = remember(_FOR_ATTRS, key, _op_attrs("for", {"unsigned_cmp": unsigned}), 64)
    return found


_FOR_ATTRS: dict[tuple[type, bool], AttrMap] = memo_table("lower.lowering: a for's attributes")
#: a Value's type (in C: no comprehension's code object on the loops' path)
_type_of = attrgetter("type")


def _touches_memory(body: Iterable[Instr]) -> bool:
    # (a loop: any() of a generator closes it when it stops early, C code of its own)
    for ins in walk_instructions(body):
        if isinstance(ins, MEMORY_INSTRS):
            return True
    return False


def _exits(body: Sequence[Instr]) -> bool:
    return bool(body) and isinstance(body[-1], Exit)


class _Lowering(Addressing, GuardedAccess, MemoryInstrs):
    """The walk of one Program (used once, by :func:`lower`)."""

    def __init__(self, program: Program):
        self.program = program
        self.next_id = 0
        self.blocks: list[list[Op]] = []
        self.ops: list[Op] = []  # the ops of the block being written (blocks[-1])
        self.env: dict[Hashable, Any] = {}  # every binding visible in the block being written
        self.undo: list[tuple[Hashable, Any]] = []  # what that block bound over (see bind)
        self.made: list[Hashable] = []  # what that block bound that was unbound (see bind)
        self.local: dict[Hashable, Any] = {}  # what is shared within that block only
        self.scopes: list[_Scope] = []  # each open block's undo, made and local, innermost last
        self.token: Value  # the current token: set by function(), before any instruction
        self.loops: list[bool] = []  # enclosing loops, innermost last: does each carry the token
        self.globals: dict[str, Global] = {}
        entry = _entry(program.params, guarded_params(program))
        self.params, self.extent_values, self.count_index = entry
        self.next_id = len(self.params)
        self.scratch: dict[int, int] = {}
        self.block_ids: tuple[Value, ...] = ()

    # -- plumbing ----------------------------------------------------------------------
    def fresh(self, ttype: Type) -> Value:
        n = self.next_id
        self.next_id = n + 1
        return trusted_value(n, ttype)

    def emit(
        self,
        name: str,
        operands: Iterable[Value] = (),
        result_types: Sequence[Type] = (),
        attrs: Optional[Mapping[str, Any]] = None,
        regions: Iterable[Block] = (),
        segments: Optional[Sequence[int]] = None,
        loc: Optional[Loc] = None,
    ) -> tuple[Value, ...]:
        n = self.next_id
        op = trusted_op_n(
            name,
            operands if type(operands) is tuple else tuple(operands),
            n,
            result_types,
            _op_attrs(name, attrs),
            regions if type(regions) is tuple else tuple(regions),
            segments if segments is None or type(segments) is tuple else tuple(segments),
            loc,
        )
        results = op.results
        self.next_id = n + len(results)
        self.ops.append(op)
        return results

    def emit_exact(
        self,
        name: str,
        operands: tuple[Value, ...],
        result_types: tuple[Type, ...],
        attrs: AttrMap,
        segments: Optional[tuple[int, ...]],
        loc: Optional[Loc],
        regions: tuple[Block, ...] = (),
    ) -> tuple[Value, ...]:
        """``emit`` of an op whose operands, result types, segments and regions are tuples and
        whose attributes are already as the op keeps them (the memory ops, the views, the
        loops and reductions: no argument is converted or checked again)."""
        n = self.next_id
        op = trusted_op_n(name, operands, n, result_types, attrs, regions, segments, loc)
        self.next_id = n + len(result_types)
        self.ops.append(op)
        return op.results

    def emit1(
        self,
        name: str,
        operands: tuple,
        rtype: Type,
        attrs: AttrMap,
        loc: Optional[Loc],
        segments: Optional[tuple[int, ...]] = None,
        regions: tuple[Block, ...] = (),
    ) -> Value:
        """One op of one result, its operands, segments and regions tuples and its attributes
        already as the op keeps them (the path of every pure tile, view, store and reduce:
        one constructor's frame, where ``emit_exact`` makes each result in one more)."""
        n = self.next_id
        self.next_id = n + 1
        op = trusted_op1(name, operands, n, rtype, attrs, loc, segments, regions)
        self.ops.append(op)
        return op.results[0]

    # Bindings live in one flat map (``env``: a lookup is one dict probe, not one per
    # enclosing block); each block keeps the keys it bound that were unbound (``made``,
    # removed when it closes: most bindings, kept as bare keys, with no pair made for each),
    # an undo list of what it bound over (restored when it closes), and a map (``local``) of
    # what is shared only within it (bind_local).  A value an instruction made (a ``var``
    # tile) is bound under its bare id, an int (hashed in C, no tuple made); every other key
    # is a Tile or a tuple.
    def lookup(self, key: Hashable, innermost_only: bool = False) -> Any:
        if innermost_only:
            return self.local.get(key)
        return self.env.get(key)

    def bind(self, key: Hashable, value: Any) -> None:
        env = self.env
        old = env.get(key)
        if old is None:
            self.made.append(key)
        else:
            self.undo.append((key, old))
        env[key] = value

    def bind_local(self, key: Hashable, value: Any) -> None:
        """Bind ``key`` for this block only: ``lookup(key, innermost_only=True)`` finds it here,
        and no block nested in this one does (views: see tileir.lower.addressing)."""
        self.local[key] = value

    def open_block(self, bindings: Mapping[Hashable, Any]) -> None:
        self.ops = []
        self.blocks.append(self.ops)
        self.undo = []
        self.made = []
        self.local = {}
        self.scopes.append((self.undo, self.made, self.local))
        for key, value in bindings.items():
            self.bind(key, value)

    def close_block(self) -> tuple[Op, ...]:
        undo, made, _ = self.scopes.pop()
        env = self.env
        if self.scopes:
            # (what was bound over first, then what was unbound: a key bound fresh and then
            # again in this block is restored, then removed)
            for key, old in reversed(undo):
                env[key] = old
            for key in made:
                del env[key]
            self.undo, self.made, self.local = self.scopes[-1]
        else:  # the function's own block: nothing is bound outside it (no key to hash again;
            # a new map, where dict.clear is C code no other step of a lowering runs)
            self.env = {}
        ops = self.blocks.pop()
        self.ops = self.blocks[-1] if self.blocks else []
        return tuple(ops)

    # -- pure expressions ----------------------------------------------------------------
    def value(self, t: Tile) -> Value:
        # hot (every operand of every op)
        op = t.op
        key = t.attrs["id"] if op == "var" else t
        found = self.env.get(key)
        if found is not None:
            return found
        if op == "var":
            raise LoweringError(
                f"a {t.type} made inside a loop or branch body is used outside it; carry it out "
                f"of the loop (init / return) or return it from the branch",
                op=t.op,
                where=str(t.loc) if t.loc else None,
            )
        if op == "region_arg":
            raise LoweringError(
                f"a combiner's argument ({t.type}) is used outside its reduce / scan; a "
                f"combiner's tiles stay inside it",
                op=t.attrs["of"][0],
                where=str(t.loc) if t.loc else None,
            )
        v = self._emit_tile(t) if op in _RECORDER_OPS else self._emit_plain(t)
        # (unbound until now in every open block: removed when this one closes)
        self.made.append(key)
        self.env[key] = v
        return v

    def _emit_tile(self, t: Tile) -> Value:
        """A tile of one of the recorder's ops (value() emits the dialect's own)."""
        attrs = t.attrs
        if t.op == "param" or t.op == "ptr_param":
            return self.params[attrs["index"]]
        if t.op == "block_id":
            return self.block_ids[attrs["axis"]]
        if t.op == "num_blocks":
            key = ("num_blocks",)
            found = self.lookup(key)
            if found is None:
                found = self.emit("get_num_tile_blocks", (), [_I32_SCALAR] * 3, loc=t.loc)
                self.bind(key, found)
            return found[attrs["axis"]]
        if t.op in ("get_tensor_shape", "get_index_space_shape"):
            return self.shape_query(t)[attrs["dim"]]
        if t.op == "result":
            (node,) = t.args
            self.value(node)
            return self.lookup(("results", node))[attrs["index"]]
        if t.op == "reduce" and "combiner" in attrs:
            return self._emit_reduce(t)
        if t.op in ("reduce", "scan"):
            return self._emit_region(t)
        if t.op == "get_global":
            self._global(t)
        return self._emit_plain(t)

    def _emit_plain(self, t: Tile) -> Value:
        """A tile of a dialect op, emitted as it is (every pure tile: ``emit1`` inlined)."""
        operands = tuple(map(self.value, t.args))  # (map: no comprehension frame per tile)
        attrs = t.attrs
        if attrs is not EMPTY_ATTRS:
            attrs = _tile_op_attrs(t.op, attrs)
        n = self.next_id
        self.next_id = n + 1
        made = trusted_op1(t.op, operands, n, t.type, attrs, t.loc)
        self.ops.append(made)
        return made.results[0]

    def _global(self, t: Tile) -> None:
        g = t.attrs["global"]
        known = self.globals.setdefault(g.name, g)
        if known != g:
            raise LoweringError(
                f"two different globals are named @{g.name}",
                op="get_global",
                where=str(t.loc) if t.loc else None,
            )

    def _emit_reduce(self, t: Tile) -> Value:
        (src,) = t.args
        operand = self.value(src)
        fmt = src.format
        assert isinstance(fmt, Format)  # the recorder reduces numbers only
        scalar, combiner, combiner_attrs, reduce_attrs = _named_reduction(t.attrs, fmt)
        a, b = self.fresh(scalar), self.fresh(scalar)
        loc = t.loc
        self.open_block({})
        c = self.emit1(combiner, (a, b), scalar, combiner_attrs, loc)
        self.emit_exact("yield", (c,), (), EMPTY_ATTRS, None, loc)
        region = trusted_block((a, b), self.close_block())
        return self.emit1("reduce", (operand,), t.type, reduce_attrs, loc, None, (region,))

    def _emit_region(self, t: Tile) -> Value:
        """A reduce / scan with the kernel's combiner: its placeholders become the region's
        block arguments, its yields the region's ``yield``."""
        operands = [self.value(a) for a in t.args]
        region = t.attrs["region"]
        args = [self.fresh(p.type) for p in region.args]
        self.open_block(dict(zip(region.args, args)))
        yields = [self.value(y) for y in region.yields]
        self.emit("yield", yields, loc=t.loc)
        block = trusted_block(tuple(args), self.close_block())
        if t.op == "reduce":
            d = t.attrs["dim"]
            types = [canonical_tile_type(a.shape[:d] + a.shape[d + 1 :], a.format) for a in t.args]
        else:
            types = [a.type for a in t.args]
        # (the op's attributes made once per map: its identities make a map freeze_attrs
        # cannot share, which the lowering would otherwise make again on every call)
        attrs = _tile_op_attrs(t.op, t.attrs)
        results = self.emit(t.op, operands, types, attrs, [block], loc=t.loc)
        self.bind(("results", t), results)
        return results[0]

    # -- instructions --------------------------------------------------------------------
    def instr(self, ins: Instr) -> None:
        LOWER_RULES[type(ins)](self, ins)

    def _loop_region(
        self,
        args: list[Value],
        bindings: Mapping[Hashable, Any],
        body: Iterable[Instr],
        carry_token: bool,
        yields: Optional[tuple[Tile, ...]],
        loc: Optional[Loc],
    ) -> Block:
        """A loop's region: ``body`` lowered with the token threaded, then (a ``for``'s) the
        ``continue`` of ``yields`` and the token (None: a ``loop``, which ends itself)."""
        if carry_token:
            self.token = args[-1]
        self.loops.append(carry_token)
        self.open_block(bindings)
        for sub in body:
            self.instr(sub)
        if yields is not None:
            values = tuple(map(self.value, yields))
            if carry_token:
                values += (self.token,)
            self.emit_exact("continue", values, (), EMPTY_ATTRS, None, loc)
        region = trusted_block(tuple(args), self.close_block())
        self.loops.pop()
        return region

    def _for(self, ins: For) -> None:
        # (map, not comprehensions or a closure: each of those is one more code object to
        # fetch when the caches are cold)
        value = self.value
        bounds = (value(ins.lower), value(ins.upper), value(ins.step))
        init = tuple(map(value, ins.init))
        carry_token = _touches_memory(ins.body)
        if carry_token:
            init += (self.token,)
        iv = self.fresh(_I32_SCALAR)
        types = tuple(map(_type_of, init))
        args = list(map(self.fresh, types))
        bindings: dict[Hashable, Value] = {ins.iv: iv}
        bindings.update(zip(ins.carried, args))
        outer_token = self.token
        region = self._loop_region(
            [iv, *args], bindings, ins.body, carry_token, ins.yields, ins.loc
        )
        results = self.emit_exact(
            "for", bounds + init, types, _for_attrs(ins.unsigned), None, ins.loc, (region,)
        )
        self.token = results[-1] if carry_token else outer_token
        for r, v in zip(ins.results, results):
            self.bind(r, v)

    def _loop(self, ins: Loop) -> None:
        init = [self.value(t) for t in ins.init]
        carry_token = _touches_memory(ins.body)
        if carry_token:
            init.append(self.token)
        args = [self.fresh(v.type) for v in init]
        bindings: dict[Hashable, Value] = dict(zip(ins.carried, args))
        outer_token = self.token
        region = self._loop_region(args, bindings, ins.body, carry_token, None, ins.loc)
        types = list(ins.result_types) + ([TOKEN] if carry_token else [])
        results = self.emit("loop", init, types, {}, [region], loc=ins.loc)
        self.token = results[-1] if carry_token else outer_token
        for r, v in zip(ins.results, results):
            self.bind(r, v)

    def _exit(self, ins: Exit) -> None:
        values = [self.value(t) for t in ins.values]
        if self.loops and self.loops[-1]:
            values.append(self.token)
        self.emit(ins.kind, values, loc=ins.loc)

    def _if(self, ins: If) -> None:
        cond = self.value(ins.cond)
        both_exit = _exits(ins.then_body) and _exits(ins.else_body)
        carry_token = not both_exit and (
            _touches_memory(ins.then_body) or _touches_memory(ins.else_body)
        )
        regions = []
        outer_token = self.token
        for body, yields in ((ins.then_body, ins.then_yields), (ins.else_body, ins.else_yields)):
            self.token = outer_token
            self.open_block({})
            for sub in body:
                self.instr(sub)
            if not _exits(body):
                values = [self.value(t) for t in yields]
                if carry_token:
                    values.append(self.token)
                self.emit("yield", values, loc=ins.loc)
            regions.append(trusted_block((), self.close_block()))
        yields = ins.else_yields if _exits(ins.then_body) else ins.then_yields
        types = [v.type for v in yields] + ([TOKEN] if carry_token else [])
        results = self.emit("if", [cond], types, {}, regions, loc=ins.loc)
        self.token = results[-1] if carry_token else outer_token
        for r, v in zip(ins.results, results):
            self.bind(r, v)

    def _assert(self, ins: Assert) -> None:
        self.emit("assert", [self.value(ins.cond)], (), {"message": ins.message}, loc=ins.loc)

    def _print(self, ins: Print) -> None:
        args = [self.value(a) for a in ins.args]
        (self.token,) = self.emit(
            "print_tko",
            [*args, self.token],
            [TOKEN],
            {"format": ins.format},
            segments=(len(args), 1),
            loc=ins.loc,
        )

    # -- the whole function ----------------------------------------------------------------
    def function(self) -> Function:
        prog = self.program
        self.open_block({})
        loc = prog.loc
        (self.token,) = self.emit_exact("make_token", (), (TOKEN,), EMPTY_ATTRS, None, loc)
        self.block_ids = self.emit_exact(
            "get_tile_block_id", (), _I32_SCALARS, EMPTY_ATTRS, None, loc
        )
        rules = LOWER_RULES
        for ins in prog.body:  # (instr(ins), inlined: one frame fewer per instruction)
            rules[type(ins)](self, ins)
        self.emit_exact("return", (), (), EMPTY_ATTRS, None, loc)
        body = trusted_block((), self.close_block())
        return trusted_function(prog.name, self.params, body, prog.hints, prog.loc)


def lower(program: Program) -> Module:
    """The Module of ``cuda_tile`` ops that ``program`` records."""
    walk = _Lowering(program)
    fn = walk.function()
    return trusted_module((fn,), tuple(walk.globals.values()))


#: instruction class -> rule(lowering, instruction): the ops it emits
LOWER_RULES = rule_table(
    "LOWER_RULES",
    {
        For: _Lowering._for,
        Loop: _Lowering._loop,
        Exit: _Lowering._exit,
        If: _Lowering._if,
        Assert: _Lowering._assert,
        Print: _Lowering._print,
    },
    MEMORY_LOWER_RULES,
    domain=INSTRUCTIONS,
    what="recorded instruction class",
)
