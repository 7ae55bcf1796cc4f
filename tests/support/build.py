"""A small helper to write Modules by hand, op by op (tests, examples, tools).

A :class:`FunctionBuilder` hands out fresh value ids (parameters first) and
numbers a region-holding op's results after its regions, as the bytecode does,
so what it builds is already canonical (``canonicalize(m) == m``).  It is a
local, short-lived mutable helper: ``finish()`` gives an immutable Function.

>>> from tileir.types import TileType, F32
>>> b = FunctionBuilder("k", [TileType((), F32)])
>>> x, = b.params
>>> y = b.op("addf", [x, x], [x.type])
>>> f = b.finish()
>>> [op.name for op in f.body.ops], y.id
(['addf', 'return'], 1)
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from tileir.ir.module import Block, Function, Loc, Op, Value

__all__ = ["FunctionBuilder"]


class FunctionBuilder:
    """Builds one entry function; ``op`` appends to the innermost open block."""

    def __init__(
        self, name: str, param_types: Sequence = (), *, hints=None, loc: Optional[Loc] = None
    ) -> None:
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

    def op(
        self,
        name: str,
        operands: Sequence[Value] = (),
        result_types: Sequence = (),
        /,
        *,
        segments=None,
        loc: Optional[Loc] = None,
        **attrs,
    ):
        """Append op ``name``; answers its one result, a tuple of several, or None."""
        results = tuple(self.fresh(t) for t in result_types)
        self._blocks[-1].append(Op(name, tuple(operands), results, attrs, (), segments, loc))
        return results[0] if len(results) == 1 else (results or None)

    def region_op(
        self,
        name: str,
        operands: Sequence[Value],
        result_types: Sequence,
        regions: Sequence[tuple[Sequence, Callable]],
        /,
        *,
        segments=None,
        loc: Optional[Loc] = None,
        **attrs,
    ):
        """Append a region-holding op; each region is ``(arg types, body(builder, *args))``.

        ``body`` appends the region's ops, its terminator included.
        """
        blocks = []
        for arg_types, body in regions:
            args = tuple(self.fresh(t) for t in arg_types)
            self._blocks.append([])
            body(self, *args)
            blocks.append(Block(args, tuple(self._blocks.pop())))
        results = tuple(self.fresh(t) for t in result_types)
        self._blocks[-1].append(
            Op(name, tuple(operands), results, attrs, tuple(blocks), segments, loc)
        )
        return results[0] if len(results) == 1 else (results or None)

    def finish(self) -> Function:
        """The function (a ``return`` is appended when the body does not end in one)."""
        ops = self._blocks[0]
        if not ops or ops[-1].name != "return":
            ops = ops + [Op("return")]
        return Function(self.name, self.params, Block((), tuple(ops)), self.hints, self.loc)
