"""``canonicalize``: a Module as a bytecode round trip gives it back.

``decode(encode(m)) == canonicalize(m)`` for every well-formed ``m``.  The
canonical form:

* value ids: a function's parameters are ``0 .. P-1``; then, in emission
  pre-order, each region's block arguments take the next ids when the block
  opens, then its ops, and an op's own results come after its regions (as the
  bytecode numbers them).  Unlike bytecode indices, ids never roll back when a
  block closes, so they are unique in the whole function;
* attributes equal to their default are left out (unit attributes that are
  false, ``inbounds`` that are all false, ``rounding<nearest_even>`` ...), and
  array attributes are tuples;
* ``Op.segments`` is set exactly for ops with several variable operand groups;
* the module is named ``kernels`` (bytecode does not store a module name).

Source locations are kept as they are (they take no part in equality).
"""

from __future__ import annotations

import attrs

from tileir.encode.optable import OP_CODECS, is_default
from tileir.errors import VerifyError
from tileir.ir.module import Block, Function, Module, Op, Value
from tileir.ir.signatures import operand_groups

__all__ = ["canonicalize"]

_ARRAYS = {"i32[]": int, "bool[]": bool}


class _Renumber:
    def __init__(self, fn: Function) -> None:
        self.fn = fn
        self.scopes: list[dict[int, Value]] = [{}]
        self.next = 0

    def new(self, v: Value) -> Value:
        out = Value(self.next, v.type)
        self.next += 1
        self.scopes[-1][v.id] = out
        return out

    def ref(self, v: Value, op: Op) -> Value:
        for scope in reversed(self.scopes):
            if v.id in scope:
                return scope[v.id]
        raise VerifyError(
            f"operand %{v.id} is not defined before its use",
            kernel=self.fn.name,
            op=op.name,
            where=str(op.loc) if op.loc else None,
        )

    def block(self, block: Block, op: Op) -> Block:
        self.scopes.append({})
        args = tuple(self.new(a) for a in block.args)
        ops = tuple(self.op(o) for o in block.ops)
        self.scopes.pop()
        return Block(args, ops)

    def op(self, op: Op) -> Op:
        operands = tuple(self.ref(v, op) for v in op.operands)
        regions = tuple(self.block(b, op) for b in op.regions)
        results = tuple(self.new(r) for r in op.results)
        codec = OP_CODECS.get(op.name)
        if codec is None:
            return attrs.evolve(op, operands=operands, results=results, regions=regions)
        kept = {}
        for name, kind, default, _optional, _since in codec.attrs:
            if name not in op.attrs:
                continue
            value = op.attrs[name]
            if kind in _ARRAYS:
                value = tuple(_ARRAYS[kind](x) for x in value)
            elif kind == "scalars":
                value = tuple(value)
            if not is_default(kind, value, default):
                kept[name] = value
        segments = None
        if codec.operand_layout == "grouped":
            groups = operand_groups(op)
            segments = tuple(len(groups[name]) for name, _ in codec.groups)
        return Op(op.name, operands, results, kept, regions, segments, op.loc)


def _function(fn: Function) -> Function:
    r = _Renumber(fn)
    params = tuple(r.new(p) for p in fn.params)
    body = Block((), tuple(r.op(o) for o in fn.body.ops))
    return Function(fn.name, params, body, fn.hints, fn.loc)


def canonicalize(module: Module) -> Module:
    """``module`` renumbered and normalized the way ``decode`` builds Modules (see above)."""
    return Module(tuple(_function(f) for f in module.functions), module.globals, module.producer)
