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
* the combiner regions of reductions, and equal pure expressions shared
  (one SSA value each per scope).

Values are numbered as bytecode numbers them (params first, then each op's
region arguments and nested ops before the op's own results), so that
``decode(encode(m)) == m``.

Calling convention of the entry: one ``tile<ptr<T>>`` per In / Out / Shared
parameter and one ``tile<T>`` per Scalar parameter, in the markers' order,
then one ``tile<i32>`` for each ``DYN_DIM`` extent (parameter by parameter,
dimension by dimension).
"""

from __future__ import annotations

from typing import Optional

from tileir.errors import LoweringError
from tileir.markers import DYN_DIM, Param
from tileir.module import Block, DivBy, Function, Loc, Module, Op, Scalar, Value
from tileir.numerics import scalar_bits
from tileir.program import Assert, Atomic, For, If, Load, LoadPtr, Print, Program, Store, StorePtr
from tileir.tile import Tile
from tileir.types import (I32, TOKEN, PartitionViewType, PointerType, TensorViewType, TileType)

__all__ = ["lower", "entry_param_types", "dyn_extents"]

_MEMORY = (Load, Store, LoadPtr, StorePtr, Atomic, Print)
_RECORDER_ATTRS = {"combiner", "identity"}
_COMBINERS = {
    ("max", True): "maxf", ("min", True): "minf", ("sum", True): "addf", ("prod", True): "mulf",
    ("max", False): "maxi", ("min", False): "mini", ("sum", False): "addi", ("prod", False): "muli",
}


def dyn_extents(params) -> tuple:
    """``(param index, dimension)`` of every DYN_DIM extent, in entry-parameter order."""
    out = []
    for p in params:
        if p.cells is not None:
            out.extend((p.index, d) for d, e in enumerate(p.cells.extent) if e is DYN_DIM)
    return tuple(out)


def entry_param_types(params) -> tuple:
    """The entry's parameter types, by the calling convention."""
    types = []
    for p in params:
        if p.role == "Scalar":
            types.append(TileType((), p.format))
        else:
            types.append(TileType((), PointerType(p.format)))
    types.extend(TileType((), I32) for _ in dyn_extents(params))
    return tuple(types)


def _touches_memory(body) -> bool:
    for instr in body:
        if isinstance(instr, _MEMORY):
            return True
        if isinstance(instr, For) and _touches_memory(instr.body):
            return True
        if isinstance(instr, If) and (_touches_memory(instr.then_body)
                                      or _touches_memory(instr.else_body)):
            return True
    return False


class _Lowering:
    """The walk of one Program (used once, by :func:`lower`)."""

    def __init__(self, program: Program):
        self.program = program
        self.next_id = 0
        self.blocks: list[list[Op]] = []
        self.scopes: list[dict] = []
        self.token: Optional[Value] = None
        types = entry_param_types(program.params)
        self.params = tuple(self.fresh(t) for t in types)
        n = len(program.params)
        self.extent_values = {key: self.params[n + i]
                              for i, key in enumerate(dyn_extents(program.params))}
        self.block_ids: tuple = ()

    # -- plumbing ----------------------------------------------------------------------
    def fresh(self, ttype) -> Value:
        v = Value(self.next_id, ttype)
        self.next_id += 1
        return v

    def emit(self, name: str, operands=(), result_types=(), attrs=None, regions=(),
             segments=None, loc: Optional[Loc] = None) -> tuple:
        results = tuple(self.fresh(t) for t in result_types)
        self.blocks[-1].append(Op(name, tuple(operands), results, attrs or {}, tuple(regions),
                                  segments, loc))
        return results

    def lookup(self, key, innermost_only: bool = False):
        scopes = self.scopes[-1:] if innermost_only else reversed(self.scopes)
        for scope in scopes:
            if key in scope:
                return scope[key]
        return None

    def bind(self, key, value) -> None:
        self.scopes[-1][key] = value

    def open_block(self, bindings: dict) -> None:
        self.blocks.append([])
        self.scopes.append(dict(bindings))

    def close_block(self) -> list:
        self.scopes.pop()
        return self.blocks.pop()

    # -- pure expressions ----------------------------------------------------------------
    def value(self, t: Tile) -> Value:
        found = self.lookup(("var", t.attrs["id"]) if t.op == "var" else t)
        if found is not None:
            return found
        if t.op == "var":
            raise LoweringError(
                f"a {t.type} made inside a loop or branch body is used outside it; carry it out "
                f"of the loop (init / return) or return it from the branch", op=t.op,
                where=str(t.loc) if t.loc else None)
        v = self._emit_tile(t)
        self.bind(t, v)
        return v

    def _emit_tile(self, t: Tile) -> Value:
        if t.op == "param":
            return self.params[t.attrs["index"]]
        if t.op == "block_id":
            return self.block_ids[t.attrs["axis"]]
        if t.op == "num_blocks":
            key = ("num_blocks",)
            found = self.lookup(key)
            if found is None:
                found = self.emit("get_num_tile_blocks", (), [TileType((), I32)] * 3, loc=t.loc)
                self.bind(key, found)
            return found[t.attrs["axis"]]
        if t.op == "reduce":
            return self._emit_reduce(t)
        operands = [self.value(a) for a in t.args]
        attrs = {k: v for k, v in t.attrs.items() if k not in _RECORDER_ATTRS}
        (result,) = self.emit(t.op, operands, [t.type], attrs, loc=t.loc)
        return result

    def _emit_reduce(self, t: Tile) -> Value:
        (src,) = t.args
        operand = self.value(src)
        fmt = src.format
        scalar = TileType((), fmt)
        combiner = _COMBINERS[(t.attrs["combiner"], fmt.is_float)]
        a, b = self.fresh(scalar), self.fresh(scalar)
        self.open_block({})
        attrs = {"signedness": "signed"} if combiner in ("maxi", "mini") else {}
        (c,) = self.emit(combiner, (a, b), [scalar], attrs, loc=t.loc)
        self.emit("yield", (c,), loc=t.loc)
        region = Block((a, b), self.close_block())
        identity = Scalar(fmt, scalar_bits(fmt, t.attrs["identity"]))
        (result,) = self.emit("reduce", (operand,), [t.type],
                              {"dim": t.attrs["dim"], "identities": (identity,)}, [region],
                              loc=t.loc)
        return result

    # -- addressing ----------------------------------------------------------------------
    def _param(self, index: int) -> Param:
        return self.program.params[index]

    def view(self, index: int, cells, loc) -> Value:
        """The partition view of parameter ``index`` in ``cells`` (made in this block: before
        bytecode 13.3 a view must sit in the block of its users)."""
        key = ("view", index, cells)
        found = self.lookup(key, innermost_only=True)
        if found is not None:
            return found
        p = self._param(index)
        ptr = self.params[index]
        (base,) = self.emit("assume", (ptr,), [ptr.type], {"predicate": DivBy(16)}, loc=loc)
        shape, dyn_shape = [], []
        for d, e in enumerate(cells.extent):
            if e is DYN_DIM:
                if p.cells is not cells and (index, d) not in self.extent_values:
                    raise LoweringError("a retiled view cannot have a DYN_DIM extent",
                                        op="make_tensor_view", where=str(loc) if loc else None)
                shape.append(None)
                dyn_shape.append(self.extent_values[(index, d)])
            else:
                shape.append(e)
        strides, dyn_strides = self._strides(index, cells, shape, loc)
        tv_type = TensorViewType(p.format, tuple(shape), tuple(strides))
        (tv,) = self.emit("make_tensor_view", [base, *dyn_shape, *dyn_strides], [tv_type],
                          segments=(1, len(dyn_shape), len(dyn_strides)), loc=loc)
        pv_type = PartitionViewType(cells.tile, tv_type, tuple(range(len(cells.tile))), cells.pad)
        (pv,) = self.emit("make_partition_view", (tv,), [pv_type], loc=loc)
        self.bind(key, pv)
        return pv

    def _strides(self, index: int, cells, shape: list, loc) -> tuple:
        """Row-major strides; a stride after a dynamic extent is computed in the kernel."""
        strides, dyn = [], []
        acc_static, acc_value = 1, None
        for d in reversed(range(len(shape))):
            if acc_value is None:
                strides.append(acc_static)
            else:
                strides.append(None)
                dyn.append(acc_value)
            if shape[d] is None:
                extent = self.extent_values[(index, d)]
                if acc_value is None:
                    if acc_static == 1:
                        acc_value = extent
                    else:
                        c = self.value(Tile("constant", (), {"value": _i32_dense(acc_static)},
                                            TileType((), I32)))
                        (acc_value,) = self.emit("muli", (extent, c), [extent.type], loc=loc)
                else:
                    (acc_value,) = self.emit("muli", (acc_value, extent), [extent.type], loc=loc)
            elif acc_value is None:
                acc_static *= shape[d]
            else:
                c = self.value(Tile("constant", (), {"value": _i32_dense(shape[d])},
                                    TileType((), I32)))
                (acc_value,) = self.emit("muli", (acc_value, c), [acc_value.type], loc=loc)
        return tuple(reversed(strides)), tuple(reversed(dyn))

    def pointers(self, index: int, offsets: Tile, loc) -> Value:
        """A tile of pointers into parameter ``index`` at element ``offsets``."""
        ptr = self.params[index]
        shape = offsets.shape
        base = ptr
        if shape:
            key = ("ptr-splat", index, shape)
            found = self.lookup(key)
            if found is None:
                (r,) = self.emit("reshape", (ptr,), [TileType((1,) * len(shape), ptr.type.element)],
                                 loc=loc)
                (found,) = self.emit("broadcast", (r,), [TileType(shape, ptr.type.element)],
                                     loc=loc)
                self.bind(key, found)
            base = found
        (ptrs,) = self.emit("offset", (base, self.value(offsets)), [base.type], loc=loc)
        return ptrs

    # -- instructions --------------------------------------------------------------------
    def instr(self, ins) -> None:
        handler = getattr(self, "_" + type(ins).__name__.lower())
        handler(ins)

    def _load(self, ins: Load) -> None:
        pv = self.view(ins.param, ins.view, ins.loc)
        index = [self.value(i) for i in ins.index]
        tile, tok = self.emit("load_view_tko", [pv, *index, self.token], [ins.type, TOKEN],
                              {"memory_ordering": "weak"}, segments=(1, len(index), 1),
                              loc=ins.loc)
        self.token = tok
        self.bind(("var", ins.result), tile)

    def _store(self, ins: Store) -> None:
        value = self.value(ins.value)
        pv = self.view(ins.param, ins.view, ins.loc)
        index = [self.value(i) for i in ins.index]
        (self.token,) = self.emit("store_view_tko", [value, pv, *index, self.token], [TOKEN],
                                  {"memory_ordering": "weak"}, segments=(1, 1, len(index), 1),
                                  loc=ins.loc)

    def _loadptr(self, ins: LoadPtr) -> None:
        ptrs = self.pointers(ins.param, ins.offsets, ins.loc)
        extra = [self.value(ins.mask)] if ins.mask is not None else []
        pad = [self.value(ins.padding)] if ins.padding is not None else []
        tile, tok = self.emit("load_ptr_tko", [ptrs, *extra, *pad, self.token], [ins.type, TOKEN],
                              {"memory_ordering": "weak"},
                              segments=(1, len(extra), len(pad), 1), loc=ins.loc)
        self.token = tok
        self.bind(("var", ins.result), tile)

    def _storeptr(self, ins: StorePtr) -> None:
        value = self.value(ins.value)
        ptrs = self.pointers(ins.param, ins.offsets, ins.loc)
        extra = [self.value(ins.mask)] if ins.mask is not None else []
        (self.token,) = self.emit("store_ptr_tko", [ptrs, value, *extra, self.token], [TOKEN],
                                  {"memory_ordering": "weak"}, segments=(1, 1, len(extra), 1),
                                  loc=ins.loc)

    def _atomic(self, ins: Atomic) -> None:
        value = self.value(ins.value)
        ptrs = self.pointers(ins.param, ins.offsets, ins.loc)
        extra = [self.value(ins.mask)] if ins.mask is not None else []
        old, tok = self.emit("atomic_rmw_tko", [ptrs, value, *extra, self.token],
                             [ins.type, TOKEN],
                             {"memory_ordering": "relaxed", "memory_scope": "device",
                              "mode": ins.mode},
                             segments=(1, 1, len(extra), 1), loc=ins.loc)
        self.token = tok
        self.bind(("var", ins.result), old)

    def _for(self, ins: For) -> None:
        lower, upper, step = (self.value(t) for t in (ins.lower, ins.upper, ins.step))
        init = [self.value(t) for t in ins.init]
        carry_token = _touches_memory(ins.body)
        if carry_token:
            init.append(self.token)
        iv = self.fresh(TileType((), I32))
        args = [self.fresh(v.type) for v in init]
        bindings = {("var", ins.iv): iv}
        bindings.update({("var", c): a for c, a in zip(ins.carried, args)})
        outer_token = self.token
        if carry_token:
            self.token = args[-1]
        self.open_block(bindings)
        for sub in ins.body:
            self.instr(sub)
        yields = [self.value(t) for t in ins.yields]
        if carry_token:
            yields.append(self.token)
        self.emit("continue", yields, loc=ins.loc)
        region = Block([iv, *args], self.close_block())
        results = self.emit("for", [lower, upper, step, *init], [v.type for v in init], {},
                            [region], loc=ins.loc)
        self.token = results[-1] if carry_token else outer_token
        for r, v in zip(ins.results, results):
            self.bind(("var", r), v)

    def _if(self, ins: If) -> None:
        cond = self.value(ins.cond)
        carry_token = _touches_memory(ins.then_body) or _touches_memory(ins.else_body)
        regions = []
        outer_token = self.token
        for body, yields in ((ins.then_body, ins.then_yields), (ins.else_body, ins.else_yields)):
            self.token = outer_token
            self.open_block({})
            for sub in body:
                self.instr(sub)
            values = [self.value(t) for t in yields]
            if carry_token:
                values.append(self.token)
            self.emit("yield", values, loc=ins.loc)
            regions.append(Block((), self.close_block()))
        types = [v.type for v in ins.then_yields] + ([TOKEN] if carry_token else [])
        results = self.emit("if", [cond], types, {}, regions, loc=ins.loc)
        self.token = results[-1] if carry_token else outer_token
        for r, v in zip(ins.results, results):
            self.bind(("var", r), v)

    def _assert(self, ins: Assert) -> None:
        self.emit("assert", [self.value(ins.cond)], (), {"message": ins.message}, loc=ins.loc)

    def _print(self, ins: Print) -> None:
        args = [self.value(a) for a in ins.args]
        (self.token,) = self.emit("print_tko", [*args, self.token], [TOKEN],
                                  {"format": ins.format}, segments=(len(args), 1), loc=ins.loc)

    # -- the whole function ----------------------------------------------------------------
    def function(self) -> Function:
        prog = self.program
        self.open_block({})
        (self.token,) = self.emit("make_token", (), [TOKEN], loc=prog.loc)
        self.block_ids = self.emit("get_tile_block_id", (), [TileType((), I32)] * 3, loc=prog.loc)
        for ins in prog.body:
            self.instr(ins)
        self.emit("return", (), loc=prog.loc)
        body = Block((), self.close_block())
        return Function(prog.name, self.params, body, None, prog.loc)


def _i32_dense(n: int):
    from tileir.numerics import dense_of

    return dense_of(TileType((), I32), n)


def lower(program: Program) -> Module:
    """The Module of ``cuda_tile`` ops that ``program`` records."""
    return Module((_Lowering(program).function(),))

