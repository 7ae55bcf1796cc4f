"""The recorder: ``trace`` drives a kernel body and threads an immutable Builder.

A kernel body is a generator function.  Pure tile arithmetic builds values;
anything with an effect is an instruction the body ``yield``s, and the
builder answers with its result.  ``yield`` is the monad's bind: ``trace``
takes each yielded effect, asks it to extend the current :class:`Builder`
(which returns a *new* builder and the value), and sends the value back.
Nothing is global or thread-local, so kernels can be recorded interleaved, in
threads, or thousands of times inside a Hypothesis run.

>>> from tileir import In, Out, cells, load_cell, store_cell, F32
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
from typing import Any, Callable, Optional

from attrs import evolve, field, frozen
from attrs import fields as attrs_fields
from pyrsistent import PVector, pvector

from tileir.broadcast import RuleError, check_cells_agree, grid_of
from tileir.errors import RecordingError, TileIRError
from tileir.markers import Marker, Param
from tileir.module import Loc
from tileir.program import Program
from tileir.source import user_loc
from tileir.tile import Tile
from tileir.types import TileType

__all__ = ["Builder", "Effect", "Emit", "trace", "drive", "Kernel"]


@frozen
class Builder:
    """The recording state: instructions so far and the next free value id.  Immutable:
    every step returns a new Builder."""

    kernel: str
    params: tuple
    instrs: PVector = field(factory=pvector)
    next_id: int = 0
    #: the loops enclosing what is being recorded, innermost last: ``(kind, carried types)``
    loops: tuple = ()

    def fresh(self, count: int = 1) -> tuple["Builder", tuple]:
        """``count`` new value ids, and the builder that has used them."""
        # the constructor directly, not attrs.evolve (which looks the fields up every call)
        n = self.next_id
        return (Builder(self.kernel, self.params, self.instrs, n + count, self.loops),
                tuple(range(n, n + count)))

    def emit(self, instr) -> "Builder":
        return Builder(self.kernel, self.params, self.instrs.append(instr), self.next_id,
                       self.loops)

    def child(self, loop: Optional[tuple] = None) -> "Builder":
        """A builder for a nested body: no instructions yet, ids continuing from here.
        ``loop`` (``(kind, carried types)``) when the body is a loop's."""
        loops = self.loops + (loop,) if loop is not None else self.loops
        return Builder(self.kernel, self.params, pvector(), self.next_id, loops)

    def adopt(self, child: "Builder") -> "Builder":
        """This builder after a nested body recorded with ``child``: its ids are used up."""
        return Builder(self.kernel, self.params, self.instrs, child.next_id, self.loops)

    def var(self, ident: int, ttype: TileType, loc=None) -> Tile:
        return Tile("var", (), {"id": ident}, ttype, loc)


class Effect:
    """An instruction a kernel body yields.  Subclasses implement ``apply``."""

    op = "effect"

    def apply(self, builder: Builder) -> tuple[Builder, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def refuse(self, message: str) -> RecordingError:
        loc = getattr(self, "loc", None)
        return RecordingError(message, op=self.op, where=str(loc) if loc else None)


@frozen
class Emit(Effect):
    """An effect that appends one instruction, ``template``; when ``type`` is given the
    instruction makes a value: its ``result`` field gets a fresh id, and the yield answers
    that value as a tile of ``type``."""

    op: str
    template: Any
    type: Optional[TileType] = None
    loc: Optional[Loc] = None

    def apply(self, builder: Builder) -> tuple[Builder, Any]:
        if self.type is None:
            return builder.emit(self.template), None
        # fresh() then emit(), in one new Builder
        rid = builder.next_id
        builder = Builder(builder.kernel, builder.params,
                          builder.instrs.append(_with_result(self.template, rid)), rid + 1,
                          builder.loops)
        return builder, builder.var(rid, self.type, self.loc)


def _with_result(template, rid: int):
    """``attrs.evolve(template, result=rid)``, by position where the class allows it."""
    cls = type(template)
    how = _REBUILD.get(cls)
    if how is None:
        fields = attrs_fields(cls)
        plain = all(f.init and not f.kw_only and f.alias == f.name for f in fields)
        names = [f.name for f in fields]
        how = _REBUILD[cls] = ((attrgetter(*names), names.index("result"))
                               if plain and "result" in names and len(names) > 1 else False)
    if how is False:
        return evolve(template, result=rid)
    getter, at = how
    values = list(getter(template))
    values[at] = rid
    return cls(*values)


# instruction class -> (a getter of all its fields, the position of ``result``), or False to
# use attrs.evolve: a memo of a pure function of the (attrs) class
_REBUILD: dict = {}


def drive(builder: Builder, produced: Any) -> tuple[Builder, Any]:
    """Run a body's result: a generator is driven effect by effect; anything else is its value.

    Helper functions compose with plain calls (pure ones) and ``yield from``
    (ones with effects); a nested body (a loop's) is driven with a child builder.
    """
    if not isinstance(produced, GeneratorType):  # what inspect.isgenerator asks
        return builder, produced
    value: Any = None
    while True:
        try:
            effect = produced.send(value)
        except StopIteration as stop:
            return builder, stop.value
        if not isinstance(effect, Effect):
            where = _where(produced)
            produced.close()
            if type(effect).__name__ == "LoopExit":
                raise RecordingError(
                    f"the body yielded {effect!r}; an exit ends a loop trip: `return` it from "
                    f"the loop body or from an if_ branch", op=effect.kind, where=where)
            what = "a tile" if isinstance(effect, Tile) else f"{type(effect).__name__} {effect!r}"
            raise RecordingError(
                f"the body yielded {what}; a kernel body yields effects (load_cell, store_cell, "
                f"for_range ...), and computes tiles without yield", op="yield", where=where)
        builder, value = effect.apply(builder)


def _where(gen) -> Optional[str]:
    frame = getattr(gen, "gi_frame", None)
    if frame is None:
        return None
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


@frozen
class Kernel:
    """A recorded kernel: its Program, and the Module it lowers to.

    ``grid`` is the launch grid the Out cells make (``None`` when the caller
    gives it; an entry ``None`` inside marks a ``DYN_DIM`` axis).
    """

    program: Program
    module: Any = field(eq=False, repr=False)

    @property
    def name(self) -> str:
        return self.program.name

    @property
    def params(self) -> tuple:
        return self.program.params

    @property
    def grid(self) -> Optional[tuple]:
        return self.program.grid

    @property
    def function(self):
        return self.module.function(self.name)

    def text(self, **options) -> str:
        """The kernel as cuda_tile text (the syntax tileirdisasm prints)."""
        from tileir.lower.render import render

        return render(self.module, **options)

    def bytecode(self, version=None, *, debug_info: bool = False) -> bytes:
        """The kernel as Tile IR bytecode (the lowest version that holds it by default)."""
        from tileir.encode.writer import encode  # a module: no importlib code on the way

        return encode(self.module, version, debug_info=debug_info)


def _check_markers(name: str, markers: tuple) -> tuple:
    if not isinstance(name, str) or not name.isidentifier():
        raise RecordingError(f"kernel name {name!r} must be an identifier (it becomes the "
                             f"entry's symbol)", kernel=str(name))
    for i, m in enumerate(markers):
        if not isinstance(m, Marker):
            raise RecordingError(f"argument {i} is {m!r}; each parameter is a marker: In, Out, "
                                 f"Shared or Scalar", kernel=name)
    return tuple(Param(i, m) for i, m in enumerate(markers))


def _body_loc(body: Callable):
    code = getattr(body, "__code__", None)
    if code is None:
        return user_loc(3)
    return Loc(code.co_filename, code.co_firstlineno, 1, code.co_name)


def trace(name: str, body: Callable, *markers: Marker, hints: Optional[dict] = None) -> Kernel:
    """Record ``body`` as the kernel ``name`` over parameters described by ``markers``.

    The body is called once, with one :class:`~tileir.markers.Param` per marker,
    and is driven to its end.  Refusals (:class:`~tileir.errors.RecordingError`)
    name the kernel, the Tile IR op, the operands' types and the user's line,
    and are raised before any bytecode exists.

    ``hints`` are the entry's optimization hints for ``tileiras``:
    ``{"num_cta_in_cga": 2, "num_worker_warps_per_cta": 8, "occupancy": 2}`` for every
    target, or ``{"sm_90": {...}, "sm_100": {...}}`` per target.
    """
    from tileir.attr_rules import entry_hints

    params = _check_markers(name, markers)
    try:
        grid = grid_of(params)
        check_cells_agree(params, grid)
    except RuleError as err:
        raise RecordingError(str(err), kernel=name, where=str(user_loc(2) or "")) from None
    try:
        entry = entry_hints(hints)
    except RuleError as err:
        raise RecordingError(str(err), kernel=name, op="entry",
                             where=str(user_loc(2) or "")) from None
    builder = Builder(name, params)
    try:
        builder, result = drive(builder, body(*params))
    except TileIRError as err:
        raise err.with_context(kernel=name) from None
    if result is not None:
        raise RecordingError(f"the body returned {result!r}; a kernel writes its results through "
                             f"its Out and Shared parameters and returns nothing", kernel=name)
    program = Program(name, params, tuple(builder.instrs), grid, _body_loc(body), entry)
    from tileir.lower.lowering import lower

    try:
        module = lower(program)
    except TileIRError as err:
        raise err.with_context(kernel=name) from None
    return Kernel(program, module)
