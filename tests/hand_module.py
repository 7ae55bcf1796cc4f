"""A test-only helper to write tileir Modules by hand, op by op.

``FnBuilder`` hands out fresh value ids (parameters first), so a test names
types and attributes and nothing else:

>>> from tileir.types import TileType, F32
>>> b = FnBuilder("k", [TileType((), F32)])
>>> x, = b.params
>>> y = b.op("addf", [x, x], [x.type])
>>> f = b.finish()
>>> [op.name for op in f.body.ops]
['addf', 'return']
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from tileir.module import Block, Function, Loc, Op, Value

__all__ = ["FnBuilder"]


class FnBuilder:
    """Builds one entry function; ``op`` appends to the innermost open block."""

    def __init__(self, name: str, param_types: Sequence, hints=None, loc: Optional[Loc] = None):
        self.name = name
        self.hints = hints
        self.loc = loc
        self.params = tuple(Value(i, t) for i, t in enumerate(param_types))
        self._next = len(self.params)
        self._blocks: list[list[Op]] = [[]]

    def fresh(self, t) -> Value:
        v = Value(self._next, t)
        self._next += 1
        return v

    def op(self, opname: str, operands: Sequence[Value] = (), result_types: Sequence = (), /,
           segments=None, loc: Optional[Loc] = None, **attrs):
        """Append op ``opname``; answers its one result, a tuple of several, or None."""
        results = tuple(self.fresh(t) for t in result_types)
        self._blocks[-1].append(Op(opname, tuple(operands), results, attrs, (), segments, loc))
        if len(results) == 1:
            return results[0]
        return results or None

    def region_op(self, opname: str, operands: Sequence[Value], result_types: Sequence,
                  regions: Sequence[tuple[Sequence, Callable]], /, segments=None,
                  loc: Optional[Loc] = None, **attrs):
        """Append a region-holding op; each region is (block arg types, body(builder, *args)).

        Region results are numbered after the regions, as the bytecode does.
        """
        blocks = []
        for arg_types, body in regions:
            args = tuple(self.fresh(t) for t in arg_types)
            self._blocks.append([])
            body(self, *args)
            blocks.append(Block(args, self._blocks.pop()))
        results = tuple(self.fresh(t) for t in result_types)
        self._blocks[-1].append(Op(opname, tuple(operands), results, attrs, tuple(blocks),
                                   segments, loc))
        if len(results) == 1:
            return results[0]
        return results or None

    def finish(self, add_return: bool = True) -> Function:
        ops = self._blocks[0]
        if add_return and (not ops or ops[-1].name != "return"):
            ops.append(Op("return"))
        return Function(self.name, self.params, Block((), ops), self.hints, self.loc)
