"""Control effects: loops, branches, exits, asserts, prints and the token chain (yield each).

Loops carry their values explicitly.  ``for_range(lo, hi, body, init)`` runs
``body(k, *carried)`` per trip; ``loop(body, init)`` runs ``body(*carried)``
until it breaks.  A body (or an ``if_`` branch inside one) ends a trip by
returning ``continue_(*next_values)`` or, in a ``loop``, ``break_(*results)``;
a plain return continues with the values returned.

>>> from tileir import trace, Shared, Scalar, I32, scalar, store
>>> def countdown(n_p, out):
...     def trip(k, total):
...         yield if_(k <= 0, lambda: break_(total))
...         return continue_(k - 1, total + k)
...     total = yield loop(trip, (scalar(n_p), 0 * scalar(n_p)))
...     yield store(out, 0, total)
>>> k = trace("countdown", countdown, Scalar(I32), Shared(I32))
>>> [op.name for op in k.function.body.ops if op.name in ("loop", "store_ptr_tko")]
['loop', 'store_ptr_tko']
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable, Optional, Sequence, Union

from attrs import field, frozen

from tileir.errors import RecordingError
from tileir.ir.module import Loc
from tileir.ops.shape import Index, index_tile
from tileir.record.builder import Builder, Effect, Emit, drive
from tileir.record.dropped import check_function
from tileir.record.effect import not_a_tile_hint
from tileir.record.program import (
    Assert,
    Exit,
    For,
    If,
    Instr,
    Loop,
    Print,
    Together,
    TokenStep,
)
from tileir.record.source import CALLER, user_loc
from tileir.record.tile import Tile, TileLike, as_tile, refuse
from tileir.types import I1, I32, canonical_tile_type

#: a tile's type (in C: no comprehension's code object on a loop's path)
_TYPE_OF = attrgetter("type")

__all__ = [
    "for_range",
    "loop",
    "continue_",
    "break_",
    "LoopExit",
    "if_",
    "assert_",
    "print_",
    "together",
    "alias_fence",
    "grid_dependency_wait",
    "launch_dependents",
]


#: Carried values (a loop's ``init``, what a body or branch returns): a tile, a tuple or list
#: of tiles (numbers become constants), or None for none.
Values = Union[TileLike, Sequence[TileLike], None]


def _not_a_value(value: object, what: str, op: str, held: str = "is") -> RecordingError:
    """The refusal of ``value`` as a carried value: an effect (or a helper's generator)
    returned where it should have been yielded says so, with the line that made it."""
    if isinstance(value, Effect):
        made = value.loc if isinstance(value, Emit) else None
        return refuse(
            op,
            f"{what} {held} an effect ({value.op}), returned instead of yielded, so it would "
            f"never happen: a body or branch yields its effects (`yield store_cell(out, t)`) "
            f"and returns only tiles",
            made or user_loc(),
        )
    hint = not_a_tile_hint(value)
    if hint is not None:
        return refuse(op, f"{what} {held} {hint}", user_loc())
    return refuse(op, f"{what} {held} {value!r}; carried values are tiles", user_loc())


def _as_values(value: object, what: str, op: str) -> tuple[Tile, ...]:
    if isinstance(value, Tile):
        return (value,)
    if isinstance(value, (tuple, list)):
        out = []
        for v in value:
            if isinstance(v, (bool, int, float)):
                v = as_tile(v, None, op)
            if not isinstance(v, Tile):
                raise _not_a_value(v, what, op, "holds")
            out.append(v)
        return tuple(out)
    if value is None:
        return ()
    raise _not_a_value(value, what, op)


def _shape_back(values: tuple[Tile, ...], like: object) -> Union[Tile, tuple[Tile, ...], None]:
    if isinstance(like, Tile):
        return values[0]
    if like is None:
        return None
    return tuple(values)


@frozen
class LoopExit:
    """What a loop body (or an ``if_`` branch in one) returns to end the trip: ``continue``
    with the next carried values, or ``break`` with the loop's results."""

    kind: str
    values: tuple[Tile, ...]

    def __repr__(self) -> str:
        return f"{self.kind}_({', '.join(str(v.type) for v in self.values)})"


def continue_(*values: TileLike) -> LoopExit:
    """End this trip and start the next with ``values`` as the carried values (``continue``)."""
    return LoopExit("continue", _as_values(values, "continue_()", "continue"))


def break_(*values: TileLike) -> LoopExit:
    """Leave the enclosing ``loop`` with ``values`` as its results (``break``)."""
    return LoopExit("break", _as_values(values, "break_()", "break"))


def _check_exit(builder: Builder, ex: LoopExit, loc: Optional[Loc]) -> None:
    """An exit is legal where it is: inside a loop, with the values that loop takes."""
    if not builder.loops:
        raise refuse(
            ex.kind, f"{ex!r} outside a loop body; exits end a trip of for_range or loop", loc
        )
    kind, carried = builder.loops[-1]
    if ex.kind == "break" and kind != "loop":
        raise refuse(
            "break",
            "break_ leaves a `loop`; for_range has none (use loop() for an early exit)",
            loc,
        )
    if ex.kind == "continue":
        got = [str(v.type) for v in ex.values]
        want = [str(t) for t in carried]
        if got != want:
            raise refuse(
                "continue",
                f"continue_ passes ({', '.join(got)}) and the {kind} carries ({', '.join(want)})",
                loc,
            )


def _checked_yields(
    out: object, carried: tuple[Tile, ...], what: str, loc: Optional[Loc]
) -> tuple[Tile, ...]:
    yields = _as_values(out, what, "for")
    if len(yields) != len(carried):
        raise refuse(
            "for",
            f"the body returns {len(yields)} value(s) and the loop carries {len(carried)} (init)",
            loc,
        )
    for k, (y, c) in enumerate(zip(yields, carried)):
        if y.type is not c.type and y.type != c.type:  # (most types are one shared object)
            raise refuse(
                "for",
                f"carried value {k} starts as {c.type} and the body returns "
                f"{y.type}; a carried value keeps its type",
                loc,
            )
    return yields


@frozen
class _ForRange(Effect):
    lower: Tile
    upper: Tile
    step: Tile
    body: Callable[..., Any] = field(eq=False)
    init: tuple[Tile, ...]
    init_like: object = field(eq=False)
    loc: Optional[Loc]
    unsigned: bool = False
    op: str = "for"

    def apply(self, builder: Builder) -> tuple[Builder, Any]:
        # (plain loops, not comprehensions: a comprehension makes a function object and a
        # frame each time, and one fewer code object is touched when the caches are cold)
        types = tuple(map(_TYPE_OF, self.init))
        inner, ids = builder.nested(("for", types), 1 + len(self.init))
        iv = inner.var(ids[0], canonical_tile_type((), I32), self.loc)
        carried_vars: list[Tile] = []
        for k, t in enumerate(types):
            carried_vars.append(inner.var(ids[k + 1], t, self.loc))
        carried = tuple(carried_vars)
        check_function(self.body)
        inner, out = drive(inner, self.body(iv, *carried))
        if isinstance(out, LoopExit):
            _check_exit(inner, out, self.loc)
            out = out.values
        yields = _checked_yields(out, self.init, "the loop body's result", self.loc)
        builder, rids = builder.adopt_fresh(inner, len(self.init))
        builder = builder.emit(
            For(
                self.lower,
                self.upper,
                self.step,
                self.init,
                ids[0],
                ids[1:],
                tuple(inner.instrs),
                yields,
                rids,
                self.loc,
                self.unsigned,
            )
        )
        result_vars: list[Tile] = []
        for k, t in enumerate(types):
            result_vars.append(builder.var(rids[k], t, self.loc))
        return builder, _shape_back(tuple(result_vars), self.init_like)


def for_range(
    lower: Index,
    upper: Index,
    body: Callable[..., Any],
    init: Values = None,
    step: Index = 1,
    *,
    unsigned: bool = False,
) -> Effect:
    """A counted loop (yield it): ``body(k, *carried)`` runs for ``k`` in ``[lower, upper)`` by
    ``step`` and returns the next carried values (or ``continue_(...)``, also from an ``if_``
    branch); the yield answers their final values.  ``unsigned`` compares the bounds as
    unsigned numbers (13.2).

    The carried values are explicit (``init``: a tile or a tuple of tiles); the body is
    recorded once, as the loop's region.  ``body`` may be a generator (it yields effects).
    """
    init_values = _as_values(init, "init", "for")
    loc = user_loc(CALLER)  # the loop's, and its bounds' (made at once, at the same line)
    lo = index_tile(lower, "for", loc)
    hi = index_tile(upper, "for", loc)
    st = index_tile(step, "for", loc)
    return _ForRange(lo, hi, st, body, init_values, init, loc, bool(unsigned))


def _breaks(body: Sequence[Instr]) -> list[Exit]:
    """The break exits of a loop body (through ifs, not into inner loops)."""
    out: list[Exit] = []
    for ins in body:
        if isinstance(ins, Exit) and ins.kind == "break":
            out.append(ins)
        elif isinstance(ins, If):
            out.extend(_breaks(ins.then_body) + _breaks(ins.else_body))
        elif isinstance(ins, Together):
            for group in ins.groups:
                out.extend(_breaks(group))
    return out


@frozen
class _Loop(Effect):
    body: Callable[..., Any] = field(eq=False)
    init: tuple[Tile, ...]
    loc: Optional[Loc]
    op: str = "loop"

    def apply(self, builder: Builder) -> tuple[Builder, Any]:
        types = tuple(t.type for t in self.init)
        inner, ids = builder.nested(("loop", types), len(self.init))
        carried = tuple(inner.var(i, t, self.loc) for i, t in zip(ids, types))
        check_function(self.body)
        inner, out = drive(inner, self.body(*carried))
        ex = (
            out
            if isinstance(out, LoopExit)
            else continue_(*_as_values(out, "the loop body's result", "loop"))
        )
        _check_exit(inner, ex, self.loc)
        body = tuple(inner.instrs) + (Exit(ex.kind, ex.values, self.loc),)
        breaks = _breaks(body)
        if not breaks:
            raise refuse(
                "loop",
                "the loop never breaks; return break_(...) from the body or "
                "from an if_ branch inside it",
                self.loc,
            )
        result_types = tuple(v.type for v in breaks[0].values)
        for b in breaks[1:]:
            if tuple(v.type for v in b.values) != result_types:
                raise refuse(
                    "break",
                    f"the loop's breaks pass ({', '.join(map(str, result_types))}"
                    f") and ({', '.join(str(v.type) for v in b.values)}); they must "
                    f"agree",
                    b.loc or self.loc,
                )
        builder, rids = builder.adopt_fresh(inner, len(result_types))
        builder = builder.emit(Loop(self.init, ids, body, rids, result_types, self.loc))
        results = tuple(builder.var(r, t, self.loc) for r, t in zip(rids, result_types))
        return builder, results[0] if len(results) == 1 else (results or None)


def loop(body: Callable[..., Any], init: Values = None) -> Effect:
    """An open loop (yield it): ``body(*carried)`` runs trip after trip, each ending in
    ``continue_(*next_carried)`` (or a plain return of the next values) until a
    ``break_(*results)``, usually returned from an ``if_`` branch; the yield answers the
    results (a tile, a tuple, or None)."""
    return _Loop(body, _as_values(init, "init", "loop"), user_loc(CALLER))


@frozen
class _If(Effect):
    cond: Tile
    then: Callable[[], Any] = field(eq=False)
    else_: Optional[Callable[[], Any]] = field(eq=False)
    loc: Optional[Loc]
    op: str = "if"

    def _branch(
        self, builder: Builder, fn: Callable[[], Any], what: str
    ) -> tuple[Builder, tuple[Instr, ...], Optional[tuple[Tile, ...]], object]:
        check_function(fn)
        inner, out = drive(builder.child(), fn())
        body = tuple(inner.instrs)
        if isinstance(out, LoopExit):
            _check_exit(inner, out, self.loc)
            return inner, body + (Exit(out.kind, out.values, self.loc),), None, None
        return inner, body, _as_values(out, what, "if"), out

    def apply(self, builder: Builder) -> tuple[Builder, Any]:
        inner, then_body, then_vals, like = self._branch(
            builder, self.then, "the then branch's result"
        )
        builder = builder.adopt(inner)
        else_body: tuple[Instr, ...]
        else_vals: Optional[tuple[Tile, ...]]
        if self.else_ is None:
            if then_vals:
                raise self.refuse("the then branch returns values, so an else branch must too")
            else_body, else_vals = (), ()
        else:
            inner, else_body, else_vals, else_like = self._branch(
                builder, self.else_, "the else branch's result"
            )
            builder = builder.adopt(inner)
            like = like if then_vals is not None else else_like
        if (
            then_vals is not None
            and else_vals is not None
            and [v.type for v in then_vals] != [v.type for v in else_vals]
        ):
            raise self.refuse(
                f"the branches return {[str(v.type) for v in then_vals]} and "
                f"{[str(v.type) for v in else_vals]}; they must agree"
            )
        values = then_vals if then_vals is not None else (else_vals or ())
        builder, rids = builder.fresh(len(values))
        builder = builder.emit(
            If(self.cond, then_body, then_vals or (), else_body, else_vals or (), rids, self.loc)
        )
        results = tuple(builder.var(r, v.type, self.loc) for r, v in zip(rids, values))
        return builder, _shape_back(results, like) if results else None


def if_(cond: Tile, then: Callable[[], Any], else_: Optional[Callable[[], Any]] = None) -> Effect:
    """Branch on a rank-0 ``i1`` tile (yield it).  ``then()`` and ``else_()`` take no arguments,
    may yield effects, and return the same values (a tile, a tuple of tiles, or nothing); inside
    a loop body a branch may instead return ``continue_(...)`` or ``break_(...)``."""
    if not isinstance(cond, Tile) or cond.format != I1 or cond.rank != 0:
        what = cond.type if isinstance(cond, Tile) else repr(cond)
        raise refuse(
            "if",
            f"the condition must be a rank-0 i1 tile (a comparison of rank-0 tiles), got {what}",
        )
    return _If(cond, then, else_, user_loc(CALLER))


def assert_(cond: Tile, message: str) -> Effect:
    """Fail the kernel with ``message`` where ``cond`` (an i1 tile) is false (yield it)."""
    if not isinstance(cond, Tile) or cond.format != I1:
        raise refuse("assert", f"the condition must be an i1 tile, got {cond!r}")
    return Emit("assert", Assert(cond, str(message), user_loc(CALLER)), None, user_loc(CALLER))


def print_(fmt: str, *args: TileLike) -> Effect:
    """Print from the device with a printf-like ``fmt`` (yield it)."""
    values = tuple(as_tile(a, None, "print_tko") for a in args)
    return Emit("print_tko", Print(str(fmt), values, user_loc(CALLER)), None, user_loc(CALLER))


# ----------------------------------------------------------------------------- the token chain


@frozen
class _Together(Effect):
    effects: tuple[Effect, ...]
    loc: Optional[Loc]
    op: str = "join_tokens"

    def apply(self, builder: Builder) -> tuple[Builder, Any]:
        groups: list[tuple[Instr, ...]] = []
        values: list[Any] = []
        for effect in self.effects:
            inner, value = effect.apply(builder.child())
            builder = builder.adopt(inner)
            groups.append(tuple(inner.instrs))
            values.append(value)
        return builder.emit(Together(tuple(groups), self.loc)), tuple(values)


def together(*effects: Effect) -> Effect:
    """Run ``effects`` unordered with one another (yield it): each starts from the same token
    and their tokens are joined (``join_tokens``) before what follows.  Answers the tuple of
    their results."""
    for i, e in enumerate(effects):
        if not isinstance(e, Effect):
            raise refuse(
                "join_tokens",
                f"together() takes effects (load_cell, store, ...); argument {i} is {e!r}",
                user_loc(),
            )
    return _Together(tuple(effects), user_loc(CALLER))


def alias_fence() -> Effect:
    """Order the memory operations before it against those after it, also through views that
    may alias one another (``memory_fence_alias_tko``, 13.4) (yield it)."""
    return Emit(
        "memory_fence_alias_tko",
        TokenStep("memory_fence_alias_tko", user_loc(CALLER)),
        None,
        user_loc(CALLER),
    )


def grid_dependency_wait() -> Effect:
    """Wait until the kernel this one depends on (programmatic dependent launch) has finished
    and its memory is visible (``gdc_wait_tko``, 13.4) (yield it)."""
    return Emit(
        "gdc_wait_tko", TokenStep("gdc_wait_tko", user_loc(CALLER)), None, user_loc(CALLER)
    )


def launch_dependents() -> Effect:
    """Let a dependent kernel start being scheduled (``gdc_launch_dependents_tko``, 13.4) (yield
    it); this does not make this kernel's writes visible to it."""
    return Emit(
        "gdc_launch_dependents_tko",
        TokenStep("gdc_launch_dependents_tko", user_loc(CALLER)),
        None,
        user_loc(),
    )
