"""The recorder: ``trace`` drives a kernel body and threads an immutable Builder.

A kernel body is a generator function.  Pure tile arithmetic builds values;
anything with an effect is an instruction the body ``yield``s, and the
builder answers with its result.  ``yield`` is the monad's bind: ``trace``
takes each yielded effect, asks it to extend the current :class:`Builder`
(which returns a *new* builder and the value), and sends the value back.
Nothing is global or thread-local, so kernels can be recorded interleaved, in
threads, or thousands of times inside a Hypothesis run.

>>> from tileir import In, Out, cells, load_cell, store_cell, trace, F32
>>> def vadd(a, b, out):
...     x = yield load_cell(a)
...     y = yield load_cell(b)
...     yield store_cell(out, x + y)
>>> g = cells([256], [128])
>>> k = trace("vadd", vadd, In(F32, g), In(F32, g), Out(F32, g))
>>> k.grid
(2,)
>>> [type(i).__name__ for i in k.program.body]
['Load', 'Load', 'Store']
"""

from __future__ import annotations

from operator import attrgetter
from types import GeneratorType
from typing import Any, Callable, Literal, Optional, Union

from attrs import evolve, field, frozen
from attrs import fields as attrs_fields
from pyrsistent import PVector, pvector

from tileir.errors import RecordingError
from tileir.ir.attrmap import AttrMap
from tileir.ir.drafts import Referable, draft_of
from tileir.ir.memo import memo_table, remember
from tileir.ir.module import Loc, freeze_attrs
from tileir.record.dropped import check_generator
from tileir.record.effect import Effect
from tileir.record.markers import Param
from tileir.record.program import Instr, Load, make_load
from tileir.record.tile import Tile, make_tile
from tileir.types import TileType

__all__ = [
    "Builder",
    "BuilderState",
    "Effect",
    "Emit",
    "NO_INSTRS",
    "drive",
    "drive_state",
    "make_emit",
]

#: the instructions a body's recording starts from: one empty persistent vector, made once
#: (appending makes another; ``pvector()`` parses its arguments in C code that no other step
#: of a recording runs)
NO_INSTRS: PVector = pvector()


#: A loop enclosing what is being recorded: its kind (``"for"`` or ``"loop"``) and the types
#: of the values it carries.
LoopScope = tuple[str, tuple[TileType, ...]]


@frozen
class Builder(Referable):
    """The recording state: instructions so far and the next free value id.  Immutable:
    every step returns a new Builder."""

    kernel: str
    params: tuple[Param, ...]
    instrs: PVector[Instr] = field(factory=pvector)
    next_id: int = 0
    #: the loops enclosing what is being recorded, innermost last: ``(kind, carried types)``
    loops: tuple[LoopScope, ...] = ()

    def fresh(self, count: int = 1) -> tuple["Builder", tuple[int, ...]]:
        """``count`` new value ids, and the builder that has used them."""
        # the constructor directly, not attrs.evolve (which looks the fields up every call)
        n = self.next_id
        return (
            make_builder(self.kernel, self.params, self.instrs, n + count, self.loops),
            tuple(range(n, n + count)),
        )

    def emit(self, instr: Instr) -> "Builder":
        return make_builder(
            self.kernel, self.params, self.instrs.append(instr), self.next_id, self.loops
        )

    def child(self, loop: Optional[LoopScope] = None) -> "Builder":
        """A builder for a nested body: no instructions yet, ids continuing from here.
        ``loop`` (``(kind, carried types)``) when the body is a loop's."""
        loops = self.loops + (loop,) if loop is not None else self.loops
        return make_builder(self.kernel, self.params, NO_INSTRS, self.next_id, loops)

    def adopt(self, child: "Builder") -> "Builder":
        """This builder after a nested body recorded with ``child``: its ids are used up."""
        return make_builder(self.kernel, self.params, self.instrs, child.next_id, self.loops)

    # a loop's recording makes a child, takes ids, adopts it and takes ids again: the two
    # pairs of steps in one Builder each
    def nested(self, loop: LoopScope, count: int) -> tuple["Builder", tuple[int, ...]]:
        """``child(loop).fresh(count)``: a loop body's builder and its ``count`` first ids."""
        n = self.next_id
        child = make_builder(self.kernel, self.params, NO_INSTRS, n + count, self.loops + (loop,))
        return child, tuple(range(n, n + count))

    def adopt_fresh(self, child: "Builder", count: int) -> tuple["Builder", tuple[int, ...]]:
        """``adopt(child).fresh(count)``: this builder after ``child``'s body, and ``count``
        new ids (a nested construct's results)."""
        n = child.next_id
        adopted = make_builder(self.kernel, self.params, self.instrs, n + count, self.loops)
        return adopted, tuple(range(n, n + count))

    def var(
        self, ident: int, ttype: TileType, loc: Optional[Loc] = None, lanes: tuple = ()
    ) -> Tile:
        return make_tile("var", (), var_attrs(ident), ttype, loc, lanes)


# a Builder while make_builder fills it (see tileir.ir.drafts): a loop's recording makes a
# few per loop, a body's effects other than Emit one each
_BuilderDraft = draft_of(Builder)


def make_builder(
    kernel: str, params: tuple[Param, ...], instrs: PVector[Instr], next_id: int, loops: tuple
) -> Builder:
    """``Builder(kernel, params, instrs, next_id, loops)``, field for field the constructor's
    object."""
    builder: Any = _BuilderDraft()
    builder.kernel = kernel
    builder.params = params
    builder.instrs = instrs
    builder.next_id = next_id
    builder.loops = loops
    builder.__class__ = Builder
    return builder


def var_attrs(ident: int) -> AttrMap:
    """The attributes of the ``var`` tile of value ``ident``: ``freeze_attrs({"id": ident})``,
    kept per id (every recording numbers its values from 0, so the same few ids recur)."""
    found = _VAR_ATTRS.get(ident)
    if found is None:
        found = remember(_VAR_ATTRS, ident, freeze_attrs({"id": ident}), _MAX_VAR_ATTRS)
    return found


#: value id -> the attributes of its ``var`` tile: a memo of a pure function of an int
_VAR_ATTRS: dict[int, AttrMap] = memo_table("record.builder: var attributes")
_MAX_VAR_ATTRS = 4096


@frozen
class Emit(Effect):
    """An effect that appends one instruction, ``template``; when ``type`` is given the
    instruction makes a value: its ``result`` field gets a fresh id, and the yield answers
    that value as a tile of ``type``."""

    op: str
    template: Instr
    type: Optional[TileType] = None
    loc: Optional[Loc] = None
    #: the answered tile's valid lanes (see :attr:`Tile.lanes`), for a read of cells
    lanes: tuple = ()

    def apply(self, builder: Builder) -> tuple[Builder, Any]:
        if self.type is None:
            return builder.emit(self.template), None
        # fresh() then emit(), in one new Builder
        rid = builder.next_id
        builder = make_builder(
            builder.kernel,
            builder.params,
            builder.instrs.append(_with_result(self.template, rid)),
            rid + 1,
            builder.loops,
        )
        return builder, builder.var(rid, self.type, self.loc, self.lanes)


# an Emit while make_emit fills it (see tileir.ir.drafts: Emit's base holds no slots)
_EmitDraft = draft_of(Emit)


def make_emit(
    op: str, template: Instr, type: Optional[TileType], loc: Optional[Loc], lanes: tuple
) -> Emit:
    """``Emit(op, template, type, loc, lanes)``, made as the recorder's trusted constructors
    make theirs (the loads and stores of cells make one each): field for field the
    constructor's object."""
    effect: Any = _EmitDraft()
    effect.op = op
    effect.template = template
    effect.type = type
    effect.loc = loc
    effect.lanes = lanes
    effect.__class__ = Emit
    return effect


def _with_result(template: Any, rid: int) -> Instr:
    """``attrs.evolve(template, result=rid)``, by position where the class allows it
    (``template``: an instruction that makes a value, so has a ``result`` field)."""
    cls = type(template)
    if cls is Load:  # a read of cells or windows, the most common: its trusted maker
        t = template
        return make_load(rid, t.param, t.view, t.index, t.type, t.loc, t.access)
    how = _REBUILD.get(cls)
    if how is None:
        fields = attrs_fields(cls)
        plain = all(f.init and not f.kw_only and f.alias == f.name for f in fields)
        names = [f.name for f in fields]
        how = _REBUILD[cls] = (
            (attrgetter(*names), names.index("result"))
            if plain and "result" in names and len(names) > 1
            else False
        )
    if how is False:
        return evolve(template, result=rid)
    getter, at = how
    values = list(getter(template))
    values[at] = rid
    return cls(*values)


# instruction class -> (a getter of all its fields, the position of ``result``), or False to
# use attrs.evolve: a memo of a pure function of the (attrs) class
_REBUILD: dict[type, Union[tuple[Callable[[Any], Any], int], Literal[False]]] = memo_table(
    "record.builder: instruction rebuilders"
)


def drive(builder: Builder, produced: Any) -> tuple[Builder, Any]:
    """Run a body's result: a generator is driven effect by effect; anything else is its value.

    Helper functions compose with plain calls (pure ones) and ``yield from``
    (ones with effects); a nested body (a loop's) is driven with a child builder.
    """
    if not isinstance(produced, GeneratorType):  # what inspect.isgenerator asks
        return builder, produced
    (kernel, params, done, next_id, loops), value = drive_state(
        (builder.kernel, builder.params, builder.instrs, builder.next_id, builder.loops),
        produced,
    )
    # (a Builder holds a persistent vector: see DrivenState)
    # (a test by the exact class: isinstance of PVector, an ABC, runs the ABC machinery)
    instrs = NO_INSTRS.extend(done) if type(done) is list else done
    return make_builder(kernel, params, instrs, next_id, loops), value  # type: ignore[arg-type]


#: the effect class drive_state applies itself (a test swaps it out to check the fast path
#: against each effect's own apply)
_DRIVE_APPLIES = Emit

#: A Builder's fields, in its constructor's order: what :func:`drive_state` threads.
BuilderState = tuple[str, tuple[Param, ...], PVector[Instr], int, tuple[LoopScope, ...]]
#: What :func:`drive_state` answers: a BuilderState, whose instructions are a plain list when
#: the body only emitted, from none (trace takes them as they are; drive makes the vector).
DrivenState = tuple[
    str, tuple[Param, ...], Union[PVector[Instr], list[Instr]], int, tuple[LoopScope, ...]
]


def drive_state(state: BuilderState, produced: GeneratorType) -> tuple[DrivenState, Any]:
    """:func:`drive` for a generator, on a Builder's fields (``Builder(*state)`` is the
    builder): the recording state after the body, and its value.  ``trace`` asks this
    directly, needing only the instructions."""
    check_generator(produced)  # an effect made and thrown away is refused here
    value: Any = None
    # the builder's fields, as locals: an Emit (almost every effect) is applied here, as
    # Emit.apply would, without a Builder made per effect; any other effect gets the
    # Builder they make, and hands back the one it leaves
    kernel, params, instrs, next_id, loops = state
    # an Emit's instruction waits in a plain list (one append in C, where a persistent
    # vector's append makes a new vector each time); the vector takes the run in one extend,
    # before any other effect sees the builder, and at the end
    pending: list[Instr] = []
    while True:
        try:
            effect = produced.send(value)
        except StopIteration as stop:
            # (a body that only emitted, from no instructions: its list, see DrivenState)
            done = (instrs.extend(pending) if instrs else pending) if pending else instrs
            return (kernel, params, done, next_id, loops), stop.value
        if type(effect) is _DRIVE_APPLIES:
            ttype = effect.type
            if ttype is None:
                pending.append(effect.template)
                value = None
            else:
                pending.append(_with_result(effect.template, next_id))
                value = make_tile("var", (), var_attrs(next_id), ttype, effect.loc, effect.lanes)
                next_id += 1
            continue
        if not isinstance(effect, Effect):
            raise _not_an_effect(produced, effect)
        if pending:
            instrs = instrs.extend(pending)
            pending = []
        builder, value = effect.apply(make_builder(kernel, params, instrs, next_id, loops))
        kernel, params, instrs, next_id, loops = (
            builder.kernel,
            builder.params,
            builder.instrs,
            builder.next_id,
            builder.loops,
        )


def _not_an_effect(produced: GeneratorType, effect: object) -> RecordingError:
    """The refusal of a body that yielded ``effect``, not an Effect (the body is closed)."""
    where = _where(produced)
    produced.close()
    if type(effect).__name__ == "LoopExit":
        return RecordingError(
            f"the body yielded {effect!r}; an exit ends a loop trip: `return` it from "
            f"the loop body or from an if_ branch",
            op=effect.kind,  # type: ignore[attr-defined]
            where=where,
        )
    if isinstance(effect, GeneratorType):
        name = getattr(effect, "__name__", "helper")
        return RecordingError(
            f"the body yielded a call of `{name}`, a helper that has effects (a "
            f"generator); call it with `yield from`: `x = yield from {name}(...)`",
            op="yield",
            where=where,
        )
    what = "a tile" if isinstance(effect, Tile) else f"{type(effect).__name__} {effect!r}"
    return RecordingError(
        f"the body yielded {what}; a kernel body yields effects (load_cell, store_cell, "
        f"for_range ...), and computes tiles without yield",
        op="yield",
        where=where,
    )


def _where(gen: GeneratorType) -> Optional[str]:
    frame = getattr(gen, "gi_frame", None)
    if frame is None:
        return None
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"
