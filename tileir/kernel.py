"""A recorded kernel and ``trace``, which makes one: record the body, then lower it.

This is the one module that joins the recorder (:mod:`tileir.record`) to the
stages after it (:mod:`tileir.lower`, :mod:`tileir.text`, :mod:`tileir.encode`):
imports run from here down, never back.

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

import functools
from operator import attrgetter
from types import GeneratorType
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Sequence

from attrs import field, frozen
from attrs import fields as attrs_fields

from tileir.errors import RecordingError, TileIRError
from tileir.host.tolerance import PER_FORMAT, KernelTolerance
from tileir.ir.attr_rules import entry_hints
from tileir.ir.drafts import Referable, draft_of
from tileir.ir.memo import memo_table, remember
from tileir.ir.module import Function, Loc, Module

# modules, not functions: the gates' tests swap in mutant lowerings and renderers
from tileir.lower import lowering
from tileir.lower.guards import guarded_params, static_reach
from tileir.record.builder import NO_INSTRS, drive_state
from tileir.record.convention import trace_params
from tileir.record.markers import In, Marker, Out, Param
from tileir.record.program import Instr, Program, Store, make_program
from tileir.record.source import code_loc, user_loc
from tileir.record.writes import written_params
from tileir.shape_rules import RuleError, check_cells_agree, grid_of
from tileir.text import render as text_render

if TYPE_CHECKING:  # the encoder loads on a kernel's first bytecode(): `tileir render` needs none
    from tileir.encode.writer import VersionLike

__all__ = ["Kernel", "Recipe", "trace", "record", "lower_program"]


@frozen
class Kernel(Referable):
    """A recorded kernel: its Program, and the Module it lowers to.

    ``grid`` is the launch grid the Out cells make (``None`` when the caller
    gives it; an entry ``None`` inside marks a ``DYN_DIM`` axis).
    """

    program: Program
    module: Module = field(eq=False, repr=False)
    #: the host reference the fake device's "both" and "reference" modes compare with
    #: (``args -> args after the launch``; see :meth:`with_reference`), outside equality
    reference: Optional[Callable[[list], list]] = field(default=None, eq=False, repr=False)
    #: how close the interpreter must come to ``reference``: a Tolerance, None for bit-exact,
    #: or PER_FORMAT for the fake device's default for the buffer's format
    tolerance: KernelTolerance = field(default=PER_FORMAT, eq=False, repr=False)
    #: what it was recorded from, as values (outside equality): the body, the markers and the
    #: trace's options, so the transforms of :mod:`tileir.compose` can record it again
    recipe: Optional["Recipe"] = field(default=None, eq=False, repr=False)

    def with_reference(
        self,
        reference: Callable[[list], list],
        tolerance: KernelTolerance = PER_FORMAT,
    ) -> "Kernel":
        """This kernel with its host reference: a function of the launch's argument list
        (numpy arrays for buffers, numbers for Scalars) that returns the list after the
        launch.  The fake device's ``both`` mode then checks the interpreter against it.

        >>> import numpy as np
        >>> from tileir import In, Out, cells, load_cell, store_cell, F32
        >>> from tileir.fake import FakeDevice
        >>> def double(x, out):
        ...     t = yield load_cell(x)
        ...     yield store_cell(out, t + t)
        >>> g = cells([100], [64])
        >>> k = trace("double", double, In(F32, g), Out(F32, g))
        >>> k = k.with_reference(lambda args: [args[0], args[0] * 2])
        >>> xs = np.arange(100, dtype=np.float32)
        >>> _, out = FakeDevice(mode="both").run(k, xs, np.zeros(100, np.float32))
        >>> float(out[-1])
        198.0
        """
        return Kernel(self.program, self.module, reference, tolerance, self.recipe)

    @property
    def body(self) -> Optional[Callable[..., Any]]:
        """The body this kernel was recorded from (None for a kernel built otherwise)."""
        return self.recipe.body if self.recipe is not None else None

    @property
    def markers(self) -> Optional[tuple[Marker, ...]]:
        """The markers this kernel was recorded with (None for a kernel built otherwise)."""
        return self.recipe.markers if self.recipe is not None else None

    @property
    def name(self) -> str:
        return self.program.name

    @property
    def params(self) -> tuple[Param, ...]:
        return self.program.params

    @property
    def grid(self) -> Optional[tuple[Optional[int], ...]]:
        return self.program.grid

    @property
    def guarded(self) -> tuple[int, ...]:
        """The buffer parameters whose element count the entry takes (those a checked
        kernel's pointer path reaches; none when traced with ``checked=False``)."""
        return guarded_params(self.program)

    @property
    def static_reach(self) -> tuple[tuple[int, int, str], ...]:
        """``(parameter, elements, where)`` each pointer access at constant offsets needs."""
        return static_reach(self.program)

    @property
    def function(self) -> Function:
        return self.module.function(self.name)

    def text(self, **options: Any) -> str:
        """The kernel as cuda_tile text (the syntax tileirdisasm prints)."""
        return text_render.render(self.module, **options)

    def bytecode(self, version: VersionLike = None, *, debug_info: bool = False) -> bytes:
        """The kernel as Tile IR bytecode (the lowest version that holds it by default)."""
        return _encoder()(self.module, version, debug_info=debug_info)


@functools.cache
def _encoder() -> Callable[..., bytes]:
    """:func:`tileir.encode.writer.encode`, imported on the first call (start-up cost:
    `tileir render` records and renders without the encoder).  Cached, because an import
    statement costs about 8,000 instructions each time it runs, even of a module already
    loaded: CPython 3.11 asks the module for ``__path__`` and builds, formats and clears an
    AttributeError (``python bench/cost_model.py``: 0.4 % of a record + lower + encode)."""
    # lazy: start-up cost (the encoder loads on a kernel's first bytecode())
    from tileir.encode.writer import encode

    return encode


@frozen
class Recipe(Referable):
    """What ``trace`` recorded a kernel from: its name, body, markers and options."""

    name: str
    body: Callable[..., Any]
    markers: tuple[Marker, ...]
    hints: Optional[Mapping[str, Any]] = None
    checked: bool = True


def _check_markers(name: str, markers: tuple[Marker, ...]) -> tuple[Param, ...]:
    if not isinstance(name, str) or not name.isidentifier():
        raise RecordingError(
            f"kernel name {name!r} must be an identifier (it becomes the entry's symbol)",
            kernel=str(name),
        )
    for i, m in enumerate(markers):
        if not isinstance(m, Marker):
            raise RecordingError(
                f"argument {i} is {m!r}; each parameter is a marker: In, Out, Shared or Scalar",
                kernel=name,
            )
    return trace_params(*markers)


def _body_loc(body: Callable[..., Any]) -> Optional[Loc]:
    code = getattr(body, "__code__", None)
    if code is None:
        return user_loc(3)
    return code_loc(code)


def _not_a_generator_body(name: str, body: Callable[..., Any], produced: Any) -> RecordingError:
    """The refusal of a body that is not a generator function (``produced``: what calling it
    returned): it records no effect at all."""
    loc = _body_loc(body)
    fname = getattr(body, "__name__", repr(body))
    return RecordingError(
        f"the body `{fname}` is not a generator function (it returned {produced!r}), so it "
        f"records nothing: a kernel body yields its effects, as in `x = yield load_cell(a)` "
        f"and `yield store_cell(out, x)`",
        kernel=name,
        op="trace",
        where=str(loc) if loc else None,
    )


def _check_outs_written(
    name: str, body: Callable[..., Any], params: tuple[Param, ...], instrs: Sequence[Instr]
) -> None:
    """Refuse an Out no instruction writes, unless its marker says it may stay unwritten."""
    # a plain loop, not a set comprehension: every recording asks, and a comprehension is a
    # call of its own
    # (a dict as the set of the Outs not yet seen written: set.add and set.discard are C code
    # that no other step of a recording runs, a dict's store and delete are not)
    unseen: dict[int, None] = {}
    for p in params:
        if isinstance(p.marker, Out) and not p.marker.unwritten_ok:
            unseen[p.index] = None
    for ins in instrs:  # most kernels store every Out at their top level
        if type(ins) is Store and ins.param in unseen:
            del unseen[ins.param]
    if not unseen:
        return
    written = written_params(instrs)
    for p in params:
        marker = p.marker
        if isinstance(marker, Out) and not marker.unwritten_ok and p.index not in written:
            loc = _body_loc(body)
            raise RecordingError(
                f"nothing writes {p.describe()}, {marker!r}: a store without `yield` is "
                f"thrown away (write `yield store_cell(out, value)`); if it may stay "
                f"unwritten, declare it Out(..., unwritten_ok=True)",
                kernel=name,
                op="store_cell",
                where=str(loc) if loc else None,
            )


def trace(
    name: str,
    body: Callable[..., Any],
    *markers: Marker,
    hints: Optional[Mapping[str, Any]] = None,
    checked: bool = True,
) -> Kernel:
    """Record ``body`` as the kernel ``name`` over parameters described by ``markers``.

    The body is called once, with one :class:`~tileir.record.markers.Param` per marker,
    and is driven to its end.  Refusals (:class:`~tileir.errors.RecordingError`)
    name the kernel, the Tile IR op, the operands' types and the user's line,
    and are raised before any bytecode exists.

    ``hints`` are the entry's optimization hints for ``tileiras``:
    ``{"num_cta_in_cga": 2, "num_worker_warps_per_cta": 8, "occupancy": 2}`` for every
    target, or ``{"sm_90": {...}, "sm_100": {...}}`` per target.

    ``checked`` (the default) guards every pointer-path load, store and atomic
    against the size of the buffer it addresses: the entry takes each such buffer's
    element count (see :mod:`tileir.record.convention`) and an offending lane traps
    (the dialect's ``assert``) on either device, naming the kernel, op and line
    (:mod:`tileir.lower.guards`).  ``checked=False`` is the opt-out for kernels whose
    bounds are proven otherwise: no guards and no counts, and nothing then stops a
    pointer-path access outside its buffer on a GPU.
    """
    program = _record(name, body, markers, hints, checked)
    # (the Recipe made as its draft, as the Kernel: see _made_kernel)
    recipe: Any = _RecipeDraft()
    recipe.name = name
    recipe.body = body
    recipe.markers = markers  # (a tuple already: *markers)
    recipe.hints = hints
    recipe.checked = checked
    recipe.__class__ = Recipe
    return lower_program(program, recipe)


def record(
    name: str,
    body: Callable[..., Any],
    *markers: Marker,
    hints: Optional[Mapping[str, Any]] = None,
    checked: bool = True,
) -> Program:
    """The Program ``trace`` records, before it is lowered (the refusals are trace's)."""
    return _record(name, body, markers, hints, checked)


def _record(
    name: str,
    body: Callable[..., Any],
    markers: tuple[Marker, ...],
    hints: Optional[Mapping[str, Any]],
    checked: bool,
) -> Program:
    # (record's work, its arguments by position: trace's call of it then takes no star or
    # keyword path, C code that nothing else in a recording runs)
    # markers that passed the checks before (a kernel recorded again): their parameters and
    # grid, without the checks' walk over every marker and cell (_PARAMS)
    key = _params_key(name, markers)
    try:
        known = _PARAMS.get(key) if key is not None else None
    except TypeError:  # a name that does not hash is no identifier: the checks refuse it
        known = None
    if known is None:
        params = _check_markers(name, markers)
    else:
        params, grid = known
    if not callable(body):
        raise RecordingError(
            f"the body must be a generator function over the parameters, got {body!r}",
            kernel=name,
            op="trace",
            where=str(user_loc(3) or ""),
        )
    if known is None:
        try:
            grid = grid_of(params)
            check_cells_agree(params, grid)
        except RuleError as err:
            raise RecordingError(str(err), kernel=name, where=str(user_loc(3) or "")) from None
        remember(_PARAMS, key, (params, grid), _MAX_PARAMS)
    try:
        # (most kernels have no hints: no call for them)
        entry = entry_hints(hints) if hints is not None else None
    except RuleError as err:
        raise RecordingError(
            str(err), kernel=name, op="entry", where=str(user_loc(3) or "")
        ) from None
    try:
        produced = body(*params)
        if type(produced) is not GeneratorType:  # (what isinstance asks: it has no subclass)
            raise _not_a_generator_body(name, body, produced)
        # drive's work on a fresh Builder's fields: only the instructions are wanted
        state, result = drive_state((name, params, NO_INSTRS, 0, ()), produced)
    except TileIRError as err:
        raise err.with_context(kernel=name) from None
    if result is not None:
        raise RecordingError(
            f"the body returned {result!r}; a kernel writes its results through "
            f"its Out and Shared parameters and returns nothing",
            kernel=name,
        )
    instrs = state[2]
    _check_outs_written(name, body, params, instrs)
    return make_program(name, params, tuple(instrs), grid, _body_loc(body), entry, bool(checked))


# _params_key(kernel name, markers) -> (the parameters, the grid) a recording of them makes,
# kept for markers that passed every check: a memo of a pure function of immutable values (a
# kernel recorded again has equal markers; the Params are immutable, so its recordings share
# them)
_PARAMS: dict[tuple, tuple[tuple[Param, ...], Optional[tuple]]] = memo_table(
    "kernel: a recording's parameters and grid"
)
_MAX_PARAMS = 1024


def _params_key(name: str, markers: tuple[Marker, ...]) -> Optional[tuple]:
    """The _PARAMS key of a recording: its name and, per marker, its class and the identity
    of each of its fields' values (hashed and compared in C: a marker, its Format and its
    Cells hash and compare through attrs' Python methods, a dozen calls for two markers).
    Equal identities make equal markers; an entry holds its markers, so no identity in its key
    can name another object while it lives.  None when an argument is no marker."""
    key: list = [name]
    for m in markers:
        cls = type(m)
        # the usual markers' fields by name (tests/record check these are all their fields):
        # attribute loads the interpreter specializes, where the getter below runs C code
        # (attrgetter, map, tuple) that nothing else on a recording's path runs
        if cls is In:
            key.append(In)
            key.append((id(m.format), id(m.ptr_attr), id(m.cells)))
            continue
        if cls is Out:
            key.append(Out)
            unwritten_ok = m.unwritten_ok  # type: ignore[attr-defined]  # (an Out: cls is)
            key.append((id(m.format), id(m.ptr_attr), id(m.cells), id(unwritten_ok)))
            continue
        fields = _MARKER_FIELDS.get(cls)
        if fields is None:
            if not issubclass(cls, Marker):
                return None  # (the checks refuse it)
            fields = remember(
                _MARKER_FIELDS, cls, attrgetter(*[f.name for f in attrs_fields(cls)]), 64
            )
        key.append(cls)
        key.append(tuple(map(id, fields(m))))
    return tuple(key)


# a marker class -> the getter of its fields' values, in order (every marker has a format and
# a ptr_attr: at least two fields, so the getter answers a tuple)
_MARKER_FIELDS: dict[type, Callable[[Marker], tuple]] = memo_table("kernel: a marker's fields")


def lower_program(program: Program, recipe: Optional[Recipe] = None) -> Kernel:
    """The Kernel of a recorded ``program``: lowered, and keeping the ``recipe`` it was
    recorded from."""
    try:
        module = lowering.lower(program)
    except TileIRError as err:
        raise err.with_context(kernel=program.name) from None
    return _made_kernel(program, module, recipe)


def _made_kernel(program: Program, module: Module, recipe: Optional[Recipe]) -> Kernel:
    """``Kernel(program, module, recipe=recipe)``, made as its draft (see
    :mod:`tileir.ir.drafts`): every trace makes one, and the frozen class's constructor sets
    each field through a bound ``object.__setattr__``, a C call that looks the field up in
    the class each time."""
    kernel: Any = _KernelDraft()
    kernel.program = program
    kernel.module = module
    kernel.reference = None
    kernel.tolerance = PER_FORMAT
    kernel.recipe = recipe
    kernel.__class__ = Kernel
    return kernel


_KernelDraft, _RecipeDraft = draft_of(Kernel), draft_of(Recipe)
