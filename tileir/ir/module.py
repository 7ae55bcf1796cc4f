"""The Module: ``cuda_tile`` ops exactly as the dialect has them.

A Module is what every producer is turned into and every consumer reads: the
lowering writes one, the decoder reads any producer's bytecode into one, and
render, encode and the fake device's interpreter take one.  It is immutable
(frozen attrs values, tuples and immutable attribute maps) and structural: two
Modules with the same ops, value ids, types and attributes are equal and hash equal.
Source locations ride along but take no part in equality.

SSA values are :class:`Value` (an explicit integer id and a type).  Ids are
unique inside one function; a function's parameters take ``0 .. P-1``.

>>> from tileir.types import TileType, F32
>>> x = Value(0, TileType((4,), F32))
>>> y = Value(1, TileType((4,), F32))
>>> op = Op("addf", (x, x), (y,))
>>> op.result.type
tile<4xf32>
>>> op == Op("addf", (x, x), (y,), loc=Loc("k.py", 3, 1))
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator, Optional, Union

from attrs import Converter, field, frozen

from tileir.ir.attrmap import AttrMap
from tileir.ir.dialect import ENUMS
from tileir.ir.drafts import Referable, draft_of
from tileir.ir.memo import memo_table, register_memo, remember
from tileir.ir.numerics import Dense, ScalarAttr
from tileir.ir.signatures import attr_defaults
from tileir.types import (
    POINTER_TYPES,
    TILE_TYPES,
    Format,
    FunctionType,
    TileType,
    Type,
    _all_ints,
)

__all__ = [
    "Value",
    "Loc",
    "DIFile",
    "Subprogram",
    "LexicalBlock",
    "Scope",
    "Op",
    "Block",
    "Function",
    "Global",
    "Module",
    "Dense",
    "ScalarAttr",
    "DivBy",
    "SameElements",
    "Bounded",
    "Hints",
    "MultimemReduction",
    "freeze_attrs",
    "clean_attrs",
    "trusted_op",
    "trusted_op1",
    "trusted_op_n",
    "trusted_block",
    "trusted_value",
    "AttrMap",
    "walk",
]

#: The builtin ``tuple`` as one attrs converter for every tuple field here and in
#: ``tileir.record``: attrs reads a bare converter's signature with ``inspect`` once per
#: field (for a builtin, by parsing its text signature: about 0.7 ms each, 30 ms of
#: ``tileir render``'s start-up over 43 fields); a ``Converter`` is read once.  The
#: generated ``__init__`` still calls ``tuple`` itself.
AS_TUPLE: Converter[Any, tuple] = Converter(tuple)

if TYPE_CHECKING:
    # what the tuple fields' converter (the builtin ``tuple``) takes and gives, spelt per
    # field so that the checker knows each constructor's argument types
    def _values(value: Iterable[Value]) -> tuple[Value, ...]: ...
    def _ops(value: Iterable[Op]) -> tuple[Op, ...]: ...
    def _blocks(value: Iterable[Block]) -> tuple[Block, ...]: ...
    def _functions(value: Iterable[Function]) -> tuple[Function, ...]: ...
    def _globals(value: Iterable[Global]) -> tuple[Global, ...]: ...
    def _ints(value: Iterable[int]) -> tuple[int, ...]: ...
else:
    _values = _ops = _blocks = _functions = _globals = _ints = AS_TUPLE


@frozen(repr=False)
class Value(Referable):
    """An SSA value: an id unique in its function, and its type."""

    id: int
    type: Type

    def __repr__(self) -> str:
        return f"%{self.id}: {self.type}"


@frozen
class DIFile:
    """A debug-info file: its base ``name`` and its ``directory`` (``DIFile``)."""

    name: str
    directory: str


@frozen
class Subprogram:
    """A function as the debug section describes it (``DISubprogram``, docs/bytecode.md
    §3.8): its file, its own ``line`` and ``scope_line`` (cuTile writes the decorator's
    line, tileir the ``def`` line), its ``name`` and ``linkage`` name, and the file of its
    compile unit.  An entry has one; so has each helper function a producer inlined."""

    file: DIFile
    line: int
    name: str
    linkage: str
    unit: DIFile
    scope_line: int


@frozen
class LexicalBlock:
    """A lexical block inside a subprogram or another block (``DILexicalBlock``)."""

    scope: Union[Subprogram, "LexicalBlock"]
    file: DIFile
    line: int
    column: int

    @property
    def subprogram(self) -> Subprogram:
        scope = self.scope
        while isinstance(scope, LexicalBlock):
            scope = scope.scope
        return scope


#: What a location is scoped in (None: its function's own subprogram).
Scope = Union[Subprogram, LexicalBlock]


@frozen
class Loc:
    """A source location: the user's file, line and column (1-based), and the function name.

    ``scope`` is the subprogram (or lexical block) the location lies in; ``None`` means the
    entry's own, which the encoder makes from the function (tileir's recordings of a
    kernel body leave it out).  ``caller`` is where the helper holding this location was
    called from (itself a Loc, maybe with a caller of its own): the bytecode's
    ``callsite(this at caller)``, which producers write for the ops of inlined helpers.
    """

    file: str
    line: int
    column: int = 1
    function: str = ""
    scope: Optional[Scope] = None
    caller: Optional["Loc"] = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    def callers(self) -> tuple["Loc", ...]:
        """The call sites that led here, innermost first (empty outside a helper)."""
        out = []
        at = self.caller
        while at is not None:
            out.append(at)
            at = at.caller
        return tuple(out)


#: The one empty attribute map: most ops have no attributes (compared by identity).
EMPTY_ATTRS: AttrMap = AttrMap()


def freeze_attrs(value: Any) -> AttrMap:
    """Attributes as an immutable map (accepts a dict, an AttrMap, any mapping, pairs or None)."""
    # hot: every Op and Tile passes through here; an AttrMap is kept as it is (never re-frozen)
    if type(value) is AttrMap:
        return value if value else EMPTY_ATTRS
    if value is None:
        return EMPTY_ATTRS
    if type(value) is not dict:
        value = dict(value)  # a mapping's items, or pairs
    if not value:
        return EMPTY_ATTRS
    key = _exact_key(value)
    if key is None:
        return AttrMap(value)
    frozen_ = _FROZEN.get(key)
    if frozen_ is None:
        frozen_ = remember(_FROZEN, key, AttrMap(value), _MAX_FROZEN)
    return frozen_


# Equal attribute dicts share one map (a memo: a shared one is hashed once, and compares by
# identity).
# Only dicts whose values are of the types below are shared, keyed by (name, type, value)
# triples, so that a shared map always holds values identical in type and bits to the ones
# asked for (1 and True, or 0.0 and -0.0, are equal but never share; a tuple is shared only
# when each item is an exact int, so (1, 0) never stands for (True, False)).  Floats are
# keyed by their hex spelling (NaN, whose payloads that spelling loses, is never shared).
_FROZEN: dict[tuple, AttrMap] = memo_table("ir.module: shared attribute maps")
# (tileir.types sits below the memo registry: its memo of tile types is registered here)
register_memo("types: shared tile types", TILE_TYPES)
register_memo("types: shared pointer types", POINTER_TYPES)
_MAX_FROZEN = 4096
_PLAIN_TYPES = frozenset({str, int, bool, type(None)})


def _exact_key(value: dict) -> Optional[tuple]:
    key: list[tuple[str, type, object]] = []
    for k, v in value.items():
        t = type(v)
        if type(k) is not str:
            return None
        if t in _PLAIN_TYPES:
            key.append((k, t, v))
        elif t is float:
            if v != v:
                return None
            key.append((k, t, v.hex()))
        elif t is tuple and _all_ints(v):  # (a loop: no generator's function object)
            key.append((k, t, v))  # (a permutation, dims: exact ints only, never bools)
        elif (
            t is Dense
            and type(v.data) is bytes
            and type(v.type) is TileType
            and type(v.type.element) is Format
        ):
            key.append((k, t, v))
        else:
            return None
    return tuple(key)


@frozen(repr=False, cache_hash=True)
class Block(Referable):
    """A block: its arguments and its ops (the last one a terminator where the dialect says)."""

    args: tuple[Value, ...] = field(converter=_values, default=())
    ops: tuple[Op, ...] = field(converter=_ops, default=())

    def __repr__(self) -> str:
        return f"Block(args={list(self.args)}, ops={len(self.ops)})"


# (op name, id(map)) -> (the map, the map without its defaults for that op): a memo keyed by
# identity, whose entry keeps the map alive (so the id cannot name another map meanwhile);
# attribute maps are shared (see freeze_attrs), so most ops find theirs here
_CLEAN: dict[tuple[str, int], tuple[AttrMap, AttrMap]] = memo_table(
    "ir.module: maps without defaults"
)


def clean_attrs(name: str, attrs: AttrMap) -> AttrMap:
    """``attrs`` (a frozen map) less the entries equal to op ``name``'s declared defaults:
    what an Op of that name keeps (``attrs`` itself when it holds no default)."""
    key = (name, id(attrs))
    hit = _CLEAN.get(key)
    if hit is not None and hit[0] is attrs:
        return hit[1]
    clean = attrs
    if attrs:
        defaults = attr_defaults(name).items()
        for k, d in defaults:
            if k in attrs and d == attrs[k]:
                dropped = {k for k, d in defaults if k in attrs and d == attrs[k]}
                clean = freeze_attrs({k: v for k, v in attrs.items() if k not in dropped})
                break
    remember(_CLEAN, key, (attrs, clean))
    return clean


def _segments(value: Optional[Iterable[int]]) -> Optional[tuple[int, ...]]:
    return None if value is None else tuple(value)


@frozen(repr=False, cache_hash=True)
class Op(Referable):
    """One operation: ``name`` is the dialect mnemonic (``"addf"``, ``"load_view_tko"``).

    ``operands`` are flat; ``segments`` gives the size of each declared operand
    group when the op has variadic or optional groups (see ``signatures``).
    ``regions`` holds one :class:`Block` per region (``for`` has one, ``if`` two).
    """

    name: str
    operands: tuple[Value, ...] = field(converter=_values, default=())
    results: tuple[Value, ...] = field(converter=_values, default=())
    attrs: AttrMap = field(converter=freeze_attrs, default=EMPTY_ATTRS)
    regions: tuple[Block, ...] = field(converter=_blocks, default=())
    segments: Optional[tuple[int, ...]] = field(default=None, converter=_segments)
    loc: Optional[Loc] = field(default=None, eq=False)

    def __attrs_post_init__(self) -> None:
        # An attribute equal to its declared default is the same op without it: drop it, so
        # that equality (and every consumer) sees one spelling of each op.  Hot (every op of
        # every lowering): most ops have no attributes, and the rest a handful of defaults.
        attrs = self.attrs
        if attrs is not EMPTY_ATTRS:
            clean = clean_attrs(self.name, attrs)
            if clean is not attrs:
                object.__setattr__(self, "attrs", clean)

    @property
    def result(self) -> Value:
        """The only result (an error for an op with several or none)."""
        if len(self.results) != 1:
            raise ValueError(f"op `{self.name}` has {len(self.results)} results, not one")
        return self.results[0]

    def __repr__(self) -> str:
        res = ", ".join(f"%{v.id}" for v in self.results)
        ops = ", ".join(f"%{v.id}" for v in self.operands)
        return f"Op({res + ' = ' if res else ''}{self.name} {ops})"


# The lowering's constructors: an Op, Value or Block from fields already in the form the
# normal constructor would give them (no converters, no default dropping, no Python
# ``__init__`` frame).  The lowering makes every op of every kernel: the attrs ``__init__``
# with its five converters was a third of its time, and setting a frozen class's slots one
# descriptor call at a time half of what was left.  So each is made as its *draft*: a plain
# class of the same slots on the same base, whose fields are set by ordinary attribute
# stores, and which then becomes the frozen class by ``__class__`` assignment (Python allows
# it between classes of one layout; the weak-reference slot sits in the shared base because
# Python compares layouts without it).  A test checks that each gives what the normal
# constructor gives, field for field.


_ValueDraft, _OpDraft, _BlockDraft = draft_of(Value), draft_of(Op), draft_of(Block)


def trusted_op(
    name: str,
    operands: tuple[Value, ...],
    results: tuple[Value, ...],
    attrs: AttrMap,
    regions: tuple[Block, ...],
    segments: Optional[tuple[int, ...]],
    loc: Optional[Loc],
) -> Op:
    """``Op(name, operands, results, attrs, regions, segments, loc)`` for a caller that hands
    over tuples, and an attribute map that is frozen and already without ``name``'s defaults
    (:func:`clean_attrs`): the same op, made without re-checking what it was given."""
    op: Any = _OpDraft()
    op.name = name
    op.operands = operands
    op.results = results
    op.attrs = attrs
    op.regions = regions
    op.segments = segments
    op.loc = loc
    op._attrs_cached_hash = None
    op.__class__ = Op
    return op


def trusted_op1(
    name: str,
    operands: tuple[Value, ...],
    result_id: int,
    result_type: Type,
    attrs: AttrMap,
    loc: Optional[Loc],
    segments: Optional[tuple[int, ...]] = None,
    regions: tuple[Block, ...] = (),
) -> Op:
    """``trusted_op`` of the commonest op, one result (a pure op, a view, a store's token, a
    reduce), with its result ``Value(result_id, result_type)`` as ``trusted_value`` makes it.
    (Both restated here: the lowering makes one per op, and the two calls it saves are two
    frames per op and two functions fewer to fetch when the caches are cold; callgrind's count
    says so where a timing could not tell.)"""
    v: Any = _ValueDraft()
    v.id = result_id
    v.type = result_type
    v.__class__ = Value
    op: Any = _OpDraft()
    op.name = name
    op.operands = operands
    op.results = (v,)
    op.attrs = attrs
    op.regions = regions
    op.segments = segments
    op.loc = loc
    op._attrs_cached_hash = None
    op.__class__ = Op
    return op


def trusted_op_n(
    name: str,
    operands: tuple[Value, ...],
    first_id: int,
    result_types: Iterable[Type],
    attrs: AttrMap,
    regions: tuple[Block, ...],
    segments: Optional[tuple[int, ...]],
    loc: Optional[Loc],
) -> Op:
    """``trusted_op`` with its results made in the same call: ``Value(first_id + i, t)`` for
    the ``i``-th type ``t`` of ``result_types``."""
    results = []
    for t in result_types:
        results.append(trusted_value(first_id, t))
        first_id += 1
    return trusted_op(name, operands, tuple(results), attrs, regions, segments, loc)


def trusted_block(args: tuple[Value, ...], ops: tuple[Op, ...]) -> Block:
    """``Block(args, ops)`` for a caller that hands over tuples, made as its draft (see
    :func:`trusted_op`): the lowering makes one per region and per function."""
    block: Any = _BlockDraft()
    block.args = args
    block.ops = ops
    block._attrs_cached_hash = None
    block.__class__ = Block
    return block


def trusted_value(id: int, type: Type) -> Value:
    """``Value(id, type)``, made as its draft (see :func:`trusted_op`)."""
    v: Any = _ValueDraft()
    v.id = id
    v.type = type
    v.__class__ = Value
    return v


@frozen(repr=False, cache_hash=True)
class Function(Referable):
    """An entry function.  ``params`` are values ``0 .. P-1``; ``body`` ends in ``return``."""

    name: str
    params: tuple[Value, ...] = field(converter=_values)
    body: Block
    hints: Optional[Hints] = None
    loc: Optional[Loc] = field(default=None, eq=False)

    @property
    def type(self) -> FunctionType:
        return FunctionType(tuple(p.type for p in self.params), ())

    def __repr__(self) -> str:
        return f"Function({self.name}, {len(self.params)} params, {len(self.body.ops)} ops)"


@frozen
class Global:
    """A module-level constant array: ``global @name`` (rank-1 tile of ``value``)."""

    name: str
    value: Dense
    alignment: int = 16
    constant: bool = True
    visibility: str = "public"


@frozen
class Module(Referable):
    """A ``cuda_tile`` module: its entry functions and globals."""

    functions: tuple[Function, ...] = field(converter=_functions)
    globals: tuple[Global, ...] = field(converter=_globals, default=())
    producer: Optional[str] = None
    name: str = "kernels"

    def function(self, name: str) -> Function:
        for f in self.functions:
            if f.name == name:
                return f
        names = ", ".join(f.name for f in self.functions)
        raise KeyError(f"module has no entry `{name}` (it has {names or 'none'})")


# (the lowering makes one Function and one Module per kernel: made as their drafts, as
# trusted_op makes an Op, without the constructors' converters and frames)
_FunctionDraft, _ModuleDraft = draft_of(Function), draft_of(Module)


def trusted_function(
    name: str,
    params: tuple[Value, ...],
    body: Block,
    hints: Optional[Hints],
    loc: Optional[Loc],
) -> Function:
    """``Function(name, params, body, hints, loc)`` for a caller that hands over a tuple of
    parameters: the same function, made as its draft (see :func:`trusted_op`)."""
    fn: Any = _FunctionDraft()
    fn.name = name
    fn.params = params
    fn.body = body
    fn.hints = hints
    fn.loc = loc
    fn._attrs_cached_hash = None
    fn.__class__ = Function
    return fn


def trusted_module(functions: tuple[Function, ...], globals_: tuple[Global, ...]) -> Module:
    """``Module(functions, globals_)`` for a caller that hands over tuples: the same module
    (no producer, the default name), made as its draft (see :func:`trusted_op`)."""
    module: Any = _ModuleDraft()
    module.functions = functions
    module.globals = globals_
    module.producer = None
    module.name = "kernels"
    module.__class__ = Module
    return module


# ----------------------------------------------------------------------------- attributes


@frozen
class DivBy:
    """``div_by<D[, every E along A]>``: an assume predicate."""

    divisor: int
    every: Optional[int] = None
    along: Optional[int] = None


@frozen
class SameElements:
    """``same_elements<[...]>``: an assume predicate."""

    values: tuple[int, ...] = field(converter=_ints)


@frozen
class Bounded:
    """``bounded<lb, ub>`` (``None`` for ``?``): an assume predicate."""

    lower: Optional[int] = None
    upper: Optional[int] = None


def _check_reduction(instance: object, attribute: object, kind: str) -> None:
    if kind not in ENUMS["multimem_reduction_kind"]:
        raise ValueError(
            f"multimem reduction kind {kind!r} is not one of "
            f"{', '.join(ENUMS['multimem_reduction_kind'])}"
        )


@frozen
class MultimemReduction:
    """``#cuda_tile.multimem_reduction_kind<K>`` as a self-contained attribute (bytecode tag
    13, 13.5; docs/bytecode.md §2.4).  Ops hold their reduction as a plain enum spelling;
    this value is what a tagged attribute of that kind decodes to.

    >>> MultimemReduction("umin").kind
    'umin'
    """

    kind: str = field(validator=_check_reduction)


def _by_arch(
    value: Iterable[tuple[str, Iterable[tuple[str, Union[int, bool]]]]],
) -> tuple[tuple[str, tuple[tuple[str, Union[int, bool]], ...]], ...]:
    return tuple((a, tuple(d)) for a, d in value)


@frozen
class Hints:
    """``optimization_hints=<arch = {key = value, ...}, ...>``.

    ``by_arch`` is a tuple of ``(arch, ((key, value), ...))`` in order; values
    are ints or bools (``allow_tma``).
    """

    by_arch: tuple[tuple[str, tuple[tuple[str, Union[int, bool]], ...]], ...] = field(
        converter=_by_arch
    )


def walk(block: Block) -> Iterator[Op]:
    """Every op in ``block`` and its regions, in pre-order (the order bytecode writes them)."""
    for op in block.ops:
        yield op
        for region in op.regions:
            yield from walk(region)
