"""Tiles: frozen values of pure tile expressions.

A :class:`Tile` is one node of a pure expression: an op name, its argument
tiles, its attributes and its type.  Arithmetic on tiles builds new nodes and
checks shapes and formats as it goes, so a wrong shape is refused on the line
that wrote it.  Equal expressions are equal values (and hash alike), so the
lowering gives them one SSA value.  Effects (memory, loops) are not tiles:
they are instructions a kernel body yields (see :mod:`tileir.ops`).

Op names are the dialect's where one op is meant (``addf``, ``exp``,
``broadcast``, ``cmpi``, ``get_global``, ``get_tensor_shape`` ...); the
lowering emits those as they are, less the attributes that are only the
recorder's (a global's definition, a shape query's parameter and cells, a
combiner's :class:`Region`).  A few are the recorder's own: ``var`` (a value
an instruction made), ``param`` / ``ptr_param`` (a scalar parameter, a buffer
parameter's address), ``block_id`` / ``num_blocks`` (one axis), ``reduce`` with
a named combiner (``reduce_sum`` ...), ``region_arg`` (a combiner's placeholder
argument) and ``result`` (result ``index`` of a multi-result ``reduce`` /
``scan``).
"""

from __future__ import annotations

import math
import operator as _operator
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Iterable,
    Mapping,
    NoReturn,
    Optional,
    Sequence,
    Union,
)

from attrs import field, frozen

from tileir.errors import RecordingError
from tileir.ir.attr_rules import ARITH_FORMATS, check_arith_format
from tileir.ir.attrmap import AttrMap
from tileir.ir.dialect import ENUMS
from tileir.ir.drafts import Referable, draft_of
from tileir.ir.memo import memo_table, remember
from tileir.ir.module import AS_TUPLE, EMPTY_ATTRS, Dense, Loc, freeze_attrs
from tileir.ir.numerics import dense_format, dense_of, element_bytes, int_value_range
from tileir.ir.signatures import attr_defaults
from tileir.record.effect import not_a_tile_hint
from tileir.record.source import CALLER, user_loc
from tileir.shape_rules import RuleError, normalize_dim, widen_shapes
from tileir.types import (
    F32,
    I1,
    I32,
    ElementType,
    Format,
    PointerType,
    TileType,
    _all_ints,
    canonical_tile_type,
    shared_tile_type,
)

__all__ = [
    "Tile",
    "Dims",
    "Region",
    "constant",
    "as_tile",
    "refuse",
    "Number",
    "TileLike",
    "drop_defaults",
    "install_methods",
    "shape_tuple",
    "make_tile",
]

#: Tile methods whose work a kernel-facing operation does (``t.to(F16)`` is
#: ``tileir.ops.convert(t, F16)``).  The operations sit above the recorder, so a Tile cannot
#: import them; :mod:`tileir.ops` hands them over once, when it is imported (as JAX's
#: numpy layer sets its array methods).  ``import tileir`` always runs it first.
_METHODS: dict[str, Callable[..., "Tile"]] = {}


def install_methods(**impls: Callable[..., "Tile"]) -> None:
    """Give Tile the operations behind its methods (called by :mod:`tileir.ops`)."""
    _METHODS.update(impls)


def _method(name: str) -> Callable[..., "Tile"]:
    impl = _METHODS.get(name)
    if impl is None:  # only when tileir.record.tile is loaded without the tileir package
        raise RecordingError(f"Tile.{name} needs tileir.ops: import tileir first", op=name)
    return impl


Number = Union[int, float, bool]
#: The dimensions a reduction runs over: one, several, or None for all of them.
Dims = Union[int, Sequence[int], None]

#: numpy ufunc name -> the Python operator it is when a numpy number meets a tile
_UFUNC_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "add": _operator.add,
    "subtract": _operator.sub,
    "multiply": _operator.mul,
    "true_divide": _operator.truediv,
    "divide": _operator.truediv,
    "power": _operator.pow,
}

#: numpy ufunc name -> what a kernel writes instead, for the refusal of a ufunc on a tile
_UFUNC_INSTEAD = {
    "add": "`a + b`",
    "subtract": "`a - b`",
    "multiply": "`a * b`",
    "true_divide": "`a / b`",
    "divide": "`a / b`",
    "power": "`a ** b`",
    "matmul": "`a @ b` or mma(a, b, acc)",
    "negative": "`-a`",
    "maximum": "maximum(a, b)",
    "minimum": "minimum(a, b)",
    "absolute": "absolute(a) or abs(a)",
    **{n: f"{n}(t)" for n in ("exp", "exp2", "log", "log2", "sqrt", "sin", "cos", "tan")},
    **{n: f"{n}(t)" for n in ("sinh", "cosh", "tanh", "floor", "ceil")},
}

if TYPE_CHECKING:
    # the tuple fields' converter (the builtin ``tuple``), as the checker sees it
    def _tiles(value: Iterable[Tile]) -> tuple[Tile, ...]: ...
else:
    _tiles = AS_TUPLE


def refuse(op: str, message: str, loc: Optional[Loc] = None) -> RecordingError:
    """A recording refusal for Tile IR op ``op`` at the user's line."""
    loc = loc or user_loc()
    return RecordingError(message, op=op, where=str(loc) if loc else None)


@frozen(repr=False, cache_hash=True)
class Tile(Referable):
    """A tile value: ``op`` applied to ``args`` (other tiles) with ``attrs``, of ``type``."""

    op: str
    args: tuple[Tile, ...] = field(converter=_tiles)
    attrs: AttrMap = field(converter=freeze_attrs)
    type: TileType
    loc: Optional[Loc] = field(default=None, eq=False)
    #: which lanes of a tile read from cells lie inside the extent, outside equality (the
    #: lanes are a fact about where the value came from, not part of the value): one
    #: ``(dim, start, limit)`` per ragged dimension, lane ``i`` along ``dim`` being valid when
    #: ``start + i < limit`` (rank-0 i32 tiles).  Only loads set it; :func:`tileir.ops.valid`
    #: derives the lanes of every other tile from its arguments.
    lanes: tuple[tuple[int, "Tile", "Tile"], ...] = field(default=(), eq=False)

    # -- facts ---------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self.type.shape

    @property
    def format(self) -> ElementType:
        """The element format (a :class:`~tileir.types.PointerType` for a tile of pointers)."""
        return self.type.element

    @property
    def rank(self) -> int:
        return self.type.rank

    def __repr__(self) -> str:
        return f"Tile({self.op}: {self.type})"

    def __bool__(self) -> bool:
        raise refuse(
            self.op,
            f"a {self.type} was used as a Python bool; a tile's value is only known on the "
            f"device, so branch with `yield if_(cond, then, else_)` or pick with where(cond, a, b)",
        )

    def __iter__(self) -> NoReturn:
        raise refuse(
            "iter()",
            f"a {self.type} cannot be iterated in Python; index it on the device "
            f"with extract, or reduce it",
        )

    def __len__(self) -> int:
        raise refuse("len()", f"a {self.type} has no Python length; use .shape")

    # -- Python protocols a tile cannot serve: what to write instead ------------------------
    def __index__(self) -> NoReturn:
        raise refuse(
            "int()",
            f"a {self.type} was used as a Python int (range(), a list index ...); its value is "
            f"only known on the device: loop with `yield for_range(start, stop, body)` (whose "
            f"bounds may be tiles), index a tile with extract()",
        )

    def __int__(self) -> NoReturn:
        self.__index__()

    def __float__(self) -> NoReturn:
        raise refuse(
            "float()",
            f"a {self.type} was used as a Python float; its value is only known on the "
            f"device: keep computing with tiles (convert formats with .to(F32))",
        )

    def __getitem__(self, index: object) -> NoReturn:
        raise refuse(
            "[]",
            f"a {self.type} cannot be indexed with [{index!r}]; take a sub-tile with "
            f"extract(t, index, shape), one element with reshape/extract",
        )

    def __array__(self, *args: object, **kwargs: object) -> NoReturn:
        raise refuse(
            "numpy",
            f"a {self.type} is not a numpy array: it is recorded, not computed; its values "
            f"exist only when the kernel runs (on FakeDevice or a GPU)",
        )

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Tile:
        name = getattr(ufunc, "__name__", str(ufunc))
        operator = _UFUNC_OPERATORS.get(name)
        if operator is not None and method == "__call__" and not kwargs and len(inputs) == 2:
            # a numpy number beside a tile (``np.float32(2) * t``): the Python number's op
            a, b = (_python_number(x) for x in inputs)
            if all(isinstance(x, (Tile, bool, int, float)) for x in (a, b)):
                return operator(a, b)
        instead = _UFUNC_INSTEAD.get(name, f"tileir's own {name} if it has one (see tileir.ops)")
        raise refuse(
            f"numpy.{name}",
            f"numpy's `{name}` cannot run on a {self.type}: a tile is recorded, not computed; "
            f"write {instead} (a numpy number as an operand: convert it with float() or int())",
        )

    # -- arithmetic (element-wise, with widening) -----------------------------------------
    def __add__(self, other: TileLike) -> Tile:
        return binary_at("add", self, other, user_loc(CALLER), EMPTY_ATTRS)

    def __radd__(self, other: TileLike) -> Tile:
        return binary_at("add", other, self, user_loc(CALLER), EMPTY_ATTRS)

    def __sub__(self, other: TileLike) -> Tile:
        return binary_at("sub", self, other, user_loc(CALLER), EMPTY_ATTRS)

    def __rsub__(self, other: TileLike) -> Tile:
        return binary_at("sub", other, self, user_loc(CALLER), EMPTY_ATTRS)

    def __mul__(self, other: TileLike) -> Tile:
        return binary_at("mul", self, other, user_loc(CALLER), EMPTY_ATTRS)

    def __rmul__(self, other: TileLike) -> Tile:
        return binary_at("mul", other, self, user_loc(CALLER), EMPTY_ATTRS)

    def __truediv__(self, other: TileLike) -> Tile:
        return binary_at("div", self, other, user_loc(CALLER), EMPTY_ATTRS)

    def __rtruediv__(self, other: TileLike) -> Tile:
        return binary_at("div", other, self, user_loc(CALLER), EMPTY_ATTRS)

    def __floordiv__(self, other: TileLike) -> Tile:
        return binary_at("floordiv", self, other, user_loc(CALLER), EMPTY_ATTRS)

    def __rfloordiv__(self, other: TileLike) -> Tile:
        return binary_at("floordiv", other, self, user_loc(CALLER), EMPTY_ATTRS)

    def __mod__(self, other: TileLike) -> Tile:
        return binary_at("rem", self, other, user_loc(CALLER), EMPTY_ATTRS)

    def __rmod__(self, other: TileLike) -> Tile:
        return binary_at("rem", other, self, user_loc(CALLER), EMPTY_ATTRS)

    def __neg__(self) -> Tile:
        return unary("neg", self)

    def __abs__(self) -> Tile:
        return unary("abs", self)

    def __and__(self, other: TileLike) -> Tile:
        return binary_at("and", self, other, user_loc(CALLER), EMPTY_ATTRS)

    def __rand__(self, other: TileLike) -> Tile:
        return binary_at("and", other, self, user_loc(CALLER), EMPTY_ATTRS)

    def __or__(self, other: TileLike) -> Tile:
        return binary_at("or", self, other, user_loc(CALLER), EMPTY_ATTRS)

    def __ror__(self, other: TileLike) -> Tile:
        return binary_at("or", other, self, user_loc(CALLER), EMPTY_ATTRS)

    def __xor__(self, other: TileLike) -> Tile:
        return binary_at("xor", self, other, user_loc(CALLER), EMPTY_ATTRS)

    def __rxor__(self, other: TileLike) -> Tile:
        return binary_at("xor", other, self, user_loc(CALLER), EMPTY_ATTRS)

    def __lshift__(self, other: TileLike) -> Tile:
        return binary_at("shl", self, other, user_loc(CALLER), EMPTY_ATTRS)

    def __rshift__(self, other: TileLike) -> Tile:
        return binary_at("shr", self, other, user_loc(CALLER), EMPTY_ATTRS)

    # a comparison of tiles is a tile (an i1 mask), as numpy's comparisons are arrays; the
    # checker calls that an unsafe overlap with the numbers' own (``int.__gt__`` answers bool
    # for ``3 > t``, where Python asks the tile's reflected ``__lt__`` once int declines)
    def __lt__(self, other: TileLike) -> Tile:  # type: ignore[misc]
        return compare("less_than", self, other)

    def __le__(self, other: TileLike) -> Tile:  # type: ignore[misc]
        return compare("less_than_or_equal", self, other)

    def __gt__(self, other: TileLike) -> Tile:  # type: ignore[misc]
        return compare("greater_than", self, other)

    def __ge__(self, other: TileLike) -> Tile:  # type: ignore[misc]
        return compare("greater_than_or_equal", self, other)

    def __pow__(self, other: TileLike) -> Tile:
        return _method("pow")(self, other)

    def __rpow__(self, other: TileLike) -> Tile:
        return _method("pow")(other, self)

    def __matmul__(self, other: Tile) -> Tile:
        return _method("matmul")(self, other)

    def __rmatmul__(self, other: Tile) -> Tile:
        return _method("matmul")(other, self)

    # -- methods ---------------------------------------------------------------------------
    def astype(self, fmt: Format, rounding: Optional[str] = None, **options: Any) -> "Tile":
        """The same as :meth:`to` (numpy's spelling)."""
        return _method("to")(self, fmt, rounding, **options)

    @property
    def T(self) -> "Tile":
        """The dimensions reversed (numpy's ``.T``): a matrix transposed; a tile of rank 0
        or 1 as it is."""
        if self.rank < 2:
            return self
        return _method("permute")(self, tuple(range(self.rank))[::-1])

    def sum(self, dim: Dims = None, keepdims: bool = False) -> "Tile":
        """:func:`~tileir.ops.reduce_sum` over ``dim``: an int, a tuple of ints, or None (the
        default, as numpy's) for all of them."""
        return _method("reduce_sum")(self, dim, keepdims)

    def max(self, dim: Dims = None, keepdims: bool = False) -> "Tile":
        """:func:`~tileir.ops.reduce_max` over ``dim`` (all dimensions by default)."""
        return _method("reduce_max")(self, dim, keepdims)

    def min(self, dim: Dims = None, keepdims: bool = False) -> "Tile":
        """:func:`~tileir.ops.reduce_min` over ``dim`` (all dimensions by default)."""
        return _method("reduce_min")(self, dim, keepdims)

    def prod(self, dim: Dims = None, keepdims: bool = False) -> "Tile":
        """:func:`~tileir.ops.reduce_prod` over ``dim`` (all dimensions by default)."""
        return _method("reduce_prod")(self, dim, keepdims)

    def to(self, fmt: Format, rounding: Optional[str] = None, **options: Any) -> "Tile":
        """This tile converted to ``fmt`` (ftof / itof / ftoi / exti / trunci as the formats
        say); ``options`` are :func:`tileir.ops.convert`'s (signed, saturating, overflow)."""
        return _method("to")(self, fmt, rounding, **options)

    def transpose(self) -> "Tile":
        """The two dimensions of a matrix swapped (``permute [1, 0]``)."""
        if self.rank != 2:
            raise refuse(
                "permute", f"transpose swaps the two dimensions of a matrix; this is a {self.type}"
            )
        ttype = self.type.with_shape(self.shape[::-1])
        return make_tile("permute", (self,), _SWAP_ATTRS, ttype, user_loc(CALLER))

    def reshape(self, shape: Sequence[int]) -> "Tile":
        return _method("reshape")(self, shape)

    @property
    def valid(self) -> "Tile":
        """The i1 mask of this tile's lanes that lie inside its cells' extent
        (:func:`tileir.ops.valid`)."""
        return _method("valid")(self)

    def broadcast_to(self, shape: Sequence[int]) -> "Tile":
        return _method("broadcast_to")(self, shape)


# a Tile while make_tile fills it (see tileir.ir.drafts)
_TileDraft = draft_of(Tile)
#: the attributes of a matrix's transpose (made once)
_SWAP_ATTRS = freeze_attrs({"permutation": (1, 0)})

_set_tile_hash = Tile._attrs_cached_hash.__set__  # type: ignore[attr-defined]


def _tile_hash(self: Tile) -> int:
    """A tile's hash: that of the fields equality compares, computed on first use and kept
    in its slot.  (Written here in place of attrs' cached hash, which stores the value through
    ``object.__setattr__`` wrapped in an int subclass made per tile: the lowering hashes every
    tile it emits once, and that was a C path and an object per tile.  attrs' pickled state
    leaves the slot out, so a tile unpickled in a process of another hash seed hashes
    afresh.)"""
    h = self._attrs_cached_hash  # type: ignore[attr-defined]
    if h is None:
        h = hash((self.op, self.args, self.attrs, self.type))
        _set_tile_hash(self, h)
    return h


Tile.__hash__ = _tile_hash  # type: ignore[method-assign,assignment]


def make_tile(
    op: str,
    args: tuple[Tile, ...],
    attrs: AttrMap,
    type: TileType,
    loc: Optional[Loc] = None,
    lanes: tuple = (),
) -> Tile:
    """``Tile(op, args, attrs, type, loc, lanes)`` for ``args`` already a tuple and ``attrs``
    already frozen (:func:`~tileir.ir.module.freeze_attrs`'s answer, ``EMPTY_ATTRS`` when
    empty): the recorder's hot path, which skips the constructor's conversions.  The object
    is the constructor's, field for field."""
    t: Any = _TileDraft()
    t.op = op
    t.args = args
    t.attrs = attrs
    t.type = type
    t.loc = loc
    t.lanes = lanes
    t._attrs_cached_hash = None
    t.__class__ = Tile
    return t


@frozen(cache_hash=True)
class Region:
    """The body of a ``reduce`` / ``scan`` combiner: its block arguments (rank-0
    ``region_arg`` placeholder tiles, in the dialect's order: element then accumulator of
    each operand) and the tiles it yields (expressions over them)."""

    args: tuple[Tile, ...] = field(converter=_tiles)
    yields: tuple[Tile, ...] = field(converter=_tiles)


#: What an operand may be: a tile, or a Python number (a rank-0 constant, as JAX takes them).
TileLike = Union[Tile, Number]


# ----------------------------------------------------------------------------- constants


def constant(value: Number, fmt: Format, shape: Sequence[int] = ()) -> Tile:
    """A tile of ``shape`` holding ``value`` everywhere, in ``fmt``."""
    return _constant(value, fmt, shape, None)


def shape_tuple(shape: object, op: str, what: str = "shape") -> tuple[int, ...]:
    """``shape`` as a tuple (an int is a 1-D shape, as numpy takes it), or a refusal naming
    the value when it is not a sequence of whole numbers."""
    if isinstance(shape, int) and not isinstance(shape, bool):
        return (shape,)
    if isinstance(shape, Tile):
        raise refuse(op, f"{what} is a Python sequence of ints, got the tile {shape.type}")
    try:
        out: tuple[Any, ...] = tuple(shape)  # type: ignore[arg-type]
    except TypeError:
        raise refuse(op, f"{what} must be a sequence of ints, got {shape!r}") from None
    exact = True  # (a loop, not two generators: every shape a recording names comes here)
    for d in out:
        if type(d) is not int:
            if isinstance(d, bool) or not hasattr(d, "__index__"):
                raise refuse(op, f"{what} must be a sequence of ints, got {shape!r}")
            exact = False
    return out if exact else tuple(map(int, out))


#: (format name, shape, number type, number or a float's hex spelling) -> the type and the
#: attributes of that constant (what :func:`_constant` makes of them, less the location): a
#: memo of a pure function of immutable values, for the numbers a recording writes again and
#: again (an operand's 2, a loop's bounds, a cell's extent)
_CONSTANTS: dict[tuple, tuple[TileType, AttrMap]] = memo_table("record.tile: constants")
_MAX_CONSTANTS = 4096


def _constant(value: Number, fmt: Format, shape: Sequence[int], loc: Optional[Loc]) -> Tile:
    # ``loc``: the user's location when the caller has it already (else looked up here)
    vt = type(value)
    if (
        (vt is float or vt is int or vt is bool)
        and type(fmt) is Format
        and type(shape) is tuple
        and (not shape or _all_ints(shape))
    ):
        if vt is not float:
            key: Optional[tuple] = (fmt.name, shape, vt, value)
        elif value == value:  # (NaN has payloads its hex spelling loses: never shared)
            key = (fmt.name, shape, vt, value.hex())  # type: ignore[union-attr]
        else:
            key = None
        if key is not None:
            found = _CONSTANTS.get(key)
            if found is None:
                made = _new_constant(value, fmt, shape, loc)
                remember(_CONSTANTS, key, (made.type, made.attrs), _MAX_CONSTANTS)
                return made
            return make_tile("constant", (), found[1], found[0], loc or user_loc(CALLER))
    return _new_constant(value, fmt, shape, loc)


def _new_constant(value: Number, fmt: Format, shape: Sequence[int], loc: Optional[Loc]) -> Tile:
    if not isinstance(fmt, Format):
        raise refuse(
            "constant", f"the format must be a tileir Format such as F32, got {fmt!r}", loc
        )
    shape = shape_tuple(shape, "constant")
    if isinstance(value, Tile):
        raise refuse("constant", f"the value is a Python number, got {value!r}", loc)
    if not_a_tile_hint(value) is not None:
        raise refuse("constant", not_a_tile_message(value), loc)
    if not hasattr(value, "__float__"):
        raise refuse("constant", not_a_tile_message(value), loc)
    ttype = shared_tile_type(shape, fmt)
    if fmt.is_int and isinstance(value, float) and not value.is_integer():
        raise refuse("constant", f"{value!r} is not a whole number, and the tile is {ttype}")
    if fmt.is_int and not isinstance(value, float):
        lo, hi = int_value_range(fmt)
        if not lo <= int(value) <= hi:
            raise refuse("constant", f"{value!r} does not fit {fmt} (from {lo} to {hi})")
    return Tile("constant", (), {"value": dense_of(ttype, value)}, ttype, loc or user_loc(CALLER))


def _format_for_number(value: Number, like: Optional[Tile]) -> Format:
    if like is not None and isinstance(like.format, Format):
        return like.format
    if isinstance(value, bool):
        return I1
    return I32 if isinstance(value, int) else F32


def as_tile(value: object, like: Optional[Tile] = None, op: str = "operand") -> Tile:
    """``value`` as a tile: a Tile as it is, a Python number as a rank-0 constant in the
    format of ``like`` (a weak type, as JAX treats Python scalars); anything else is refused."""
    return _as_tile(value, like, op, None)


def _python_number(value: object) -> object:
    """A numpy number (a rank-0 numpy value: ``np.float32(2)``) as the Python number it holds;
    anything else as it is."""
    if (
        getattr(value, "ndim", None) == 0
        and hasattr(value, "item")
        and not isinstance(value, Tile)
    ):
        return value.item()
    return value


def _as_tile(value: object, like: Optional[Tile], op: str, loc: Optional[Loc]) -> Tile:
    # ``loc``: the user's location when the caller has it already
    if isinstance(value, Tile):
        return value
    value = _python_number(value)
    if isinstance(value, (bool, int, float)):
        return _constant(value, _format_for_number(value, like), (), loc)
    raise refuse(op, not_a_tile_message(value), loc)


def not_a_tile_message(value: object) -> str:
    """Why ``value`` is not an operand, and what to write instead when it is an effect or
    a helper's generator."""
    hint = not_a_tile_hint(value)
    if hint is not None:
        return hint
    return f"expected a tile or a number, got {type(value).__name__} {value!r}"


# ----------------------------------------------------------------------------- element-wise

_FLOAT_OPS = {
    "add": "addf",
    "sub": "subf",
    "mul": "mulf",
    "div": "divf",
    "rem": "remf",
    "max": "maxf",
    "min": "minf",
    "pow": "fpowf",
    "atan2": "atan2",
}
_INT_OPS = {
    "add": "addi",
    "sub": "subi",
    "mul": "muli",
    "div": "divi",
    "floordiv": "divi",
    "rem": "remi",
    "max": "maxi",
    "min": "mini",
    "and": "andi",
    "or": "ori",
    "xor": "xori",
    "shl": "shli",
    "shr": "shri",
    "mulhi": "mulhii",
}


#: (kind, format name) -> the op, for every format arithmetic computes on (ARITH_FORMATS) and
#: every kind but ``floordiv`` (which sets a rounding): the pairs :func:`binary` takes without
#: its general checks, which all pass for them
_ARITH_OPS: dict[tuple[str, str], str] = {
    (kind, name): op
    for table, names in ((_FLOAT_OPS, ARITH_FORMATS["float"]), (_INT_OPS, ARITH_FORMATS["int"]))
    for kind, op in table.items()
    if kind != "floordiv"
    for name in names
}


#: _ARITH_OPS by kind, then format name (two lookups of strings, no key tuple to make)
_ARITH_OPS_BY_KIND: dict[str, dict[str, str]] = {
    kind: {name: op for (k, name), op in _ARITH_OPS.items() if k == kind} for kind, _ in _ARITH_OPS
}
_NO_OPS: dict[str, str] = {}


def _widen_to(t: Tile, shape: tuple[int, ...], op: str) -> Tile:
    """``t`` widened to ``shape`` (reshape a rank-0 tile first, then broadcast)."""
    ttype = t.type
    if ttype.shape == shape:
        return t
    if t.op == "constant" and len(t.attrs["value"].data) <= 8 and _is_splat(t):
        return _splat_like(t, shape)
    src = t
    if not ttype.shape:  # rank 0
        src = make_tile("reshape", (t,), EMPTY_ATTRS, ttype.with_shape((1,) * len(shape)), t.loc)
    return make_tile("broadcast", (src,), EMPTY_ATTRS, ttype.with_shape(shape), t.loc)


def _is_splat(t: Tile) -> bool:
    value: Dense = t.attrs["value"]
    fmt = dense_format(value)
    if fmt.name == "i1":
        return len(value.data) == 1 and value.data[0] in (0, 0xFF)
    return len(value.data) == element_bytes(fmt)


def _splat_like(t: Tile, shape: tuple[int, ...]) -> Tile:
    value: Dense = t.attrs["value"]
    ttype = t.type.with_shape(shape)
    return make_tile(
        "constant", (), freeze_attrs({"value": Dense(ttype, value.data)}), ttype, t.loc
    )


def widen_pair(op: str, lhs: Tile, rhs: Tile) -> tuple[Tile, Tile]:
    """Both operands widened to the op's shape, or a refusal naming both types."""
    try:
        shape = widen_shapes(lhs.type.shape, rhs.type.shape)
    except RuleError as err:
        raise refuse(
            op,
            f"lhs is {lhs.type} and rhs is {rhs.type}, which do not broadcast: {err}",
            user_loc(),
        ) from None
    return _widen_to(lhs, shape, op), _widen_to(rhs, shape, op)


def _same_format(op: str, lhs: Tile, rhs: Tile) -> None:
    left, right = lhs.type.element, rhs.type.element
    if left is not right and left != right:  # (most formats are one shared object)
        raise refuse(
            op,
            f"lhs is {lhs.type} and rhs is {rhs.type}: formats differ; "
            f"{widening_hint(lhs.format, rhs.format)}",
            user_loc(),
        )


def widening_hint(lhs: ElementType, rhs: ElementType) -> str:
    """How to make two formats agree without losing precision: convert the narrower side to
    the wider format (both to f32 when neither holds the other, as f16 and bf16)."""
    if not isinstance(lhs, Format) or not isinstance(rhs, Format):
        return f"convert one with .to({lhs})"
    if lhs.is_float != rhs.is_float:
        wide, side = (lhs, "rhs") if lhs.is_float else (rhs, "lhs")
        return f"convert the {side} with .to({wide.name.upper()})"
    if lhs.bits == rhs.bits and lhs.is_float and "f32" in (lhs.name, rhs.name):
        return f"convert the {'rhs' if lhs.name == 'f32' else 'lhs'} with .to(F32)"
    if lhs.bits == rhs.bits:  # f16 and bf16, f8 kinds: neither holds the other
        wide_name = "F32" if lhs.is_float else lhs.name.upper()
        return f"convert both with .to({wide_name})"
    wide, side = (lhs, "rhs") if lhs.bits > rhs.bits else (rhs, "lhs")
    return f"widen the {side} with .to({wide.name.upper()})"


def binary(kind: str, lhs: TileLike, rhs: TileLike, **attrs_: Any) -> Tile:
    """An element-wise binary op of kind ``add``/``sub``/... picked by the operands' format."""
    if not isinstance(lhs, Tile) and not isinstance(rhs, Tile):
        raise refuse(kind, f"neither {lhs!r} nor {rhs!r} is a tile")
    return binary_at(kind, lhs, rhs, user_loc(CALLER), attrs_)


def binary_at(
    kind: str, lhs: TileLike, rhs: TileLike, loc: Optional[Loc], attrs_: Mapping[str, Any]
) -> Tile:
    """:func:`binary` of operands one of which is a tile, at ``loc``: the user's location,
    which the Tile operators look up from their own caller and the ops that have it already
    pass on (one look for the op and the constant a number becomes)."""
    lhs_tile = isinstance(lhs, Tile)
    if not attrs_:
        # one format, one that arithmetic computes on, no attribute: every check of the
        # general path below passes, so the tile is made at once
        tile: Tile = lhs if lhs_tile else rhs  # type: ignore[assignment]
        other = rhs if lhs_tile else lhs
        ttype = tile.type
        fmt = ttype.element
        op_ = _ARITH_OPS_BY_KIND.get(kind, _NO_OPS).get(fmt.name) if type(fmt) is Format else None
        if op_ is not None:
            if type(other) is Tile and other.type is ttype:  # one shared type: no widening
                return make_tile(op_, (lhs, rhs), EMPTY_ATTRS, ttype, loc)  # type: ignore[arg-type]
            pair = _trusted_pair(op_, tile, other, lhs_tile, loc)
            if pair is not None:
                return make_tile(op_, pair, EMPTY_ATTRS, pair[0].type, loc)
    lhs = _as_tile(lhs, rhs if isinstance(rhs, Tile) else None, kind, loc)
    rhs = _as_tile(rhs, lhs, kind, loc)
    fmt = lhs.format
    if isinstance(fmt, PointerType):
        raise refuse(kind, f"{lhs.type} holds pointers; use offset() for pointer arithmetic")
    table = _FLOAT_OPS if fmt.is_float else _INT_OPS
    if kind not in table:
        family = "float" if fmt.is_float else "integer"
        raise refuse(kind, f"`{kind}` is not defined on {family} tiles ({lhs.type})", user_loc())
    op = table[kind]
    _same_format(op, lhs, rhs)
    _arith_format(op, lhs.type)
    lhs, rhs = widen_pair(op, lhs, rhs)
    if kind == "floordiv":
        attrs_ = {**attrs_, "rounding": "negative_inf"}
    return make_tile(op, (lhs, rhs), freeze_attrs(drop_defaults(op, dict(attrs_))), lhs.type, loc)


def _trusted_pair(
    op: str, tile: Tile, other: object, tile_first: bool, loc: Optional[Loc]
) -> Optional[tuple[Tile, Tile]]:
    """The operands of element-wise op ``op`` on ``tile`` (of a format arithmetic computes
    on) and ``other``, made without the general checks where they all pass: ``other`` a tile
    of the same format (the pair widened where the shapes differ), or a number a constant of
    that format takes as it is (a constant of ``tile``'s shape: what widening the rank-0
    constant it becomes would make, a splat of the same bytes at this loc).  None for
    anything else: the general path checks it and names the fault."""
    fmt = tile.type.element
    if type(other) is Tile:
        if other.type.element is not fmt:
            return None
        pair = (tile, other) if tile_first else (other, tile)
        if tile.type.shape != other.type.shape:
            pair = widen_pair(op, *pair)
        return pair
    if type(fmt) is Format and _splat_number(other, fmt):
        c = _constant(other, fmt, tile.type.shape, loc)  # type: ignore[arg-type]
        return (tile, c) if tile_first else (c, tile)
    return None


def _splat_number(value: object, fmt: Format) -> bool:
    """True when ``value`` is a Python number that a constant of ``fmt`` takes as it is (no
    refusal, no rounding question), so it may be made at once at a tile's shape."""
    vt = type(value)
    if vt is float:
        return fmt.is_float
    if vt is int or vt is bool:
        bounds = _SPLAT_BOUNDS.get(fmt.name)
        if bounds is None:
            bounds = _SPLAT_BOUNDS[fmt.name] = (
                (-(1 << 53), 1 << 53) if fmt.is_float else int_value_range(fmt)
            )
        return bounds[0] <= value <= bounds[1]  # type: ignore[operator]
    return False


#: format name -> the ints a constant of it takes as they are: a float format's exact ints,
#: an int format's int_value_range (a memo of a pure function of the name, one per format)
_SPLAT_BOUNDS: dict[str, tuple[int, int]] = memo_table("record.tile: splat bounds")


def drop_defaults(op: str, attrs_: dict[str, Any]) -> dict[str, Any]:
    """``attrs_`` without the values equal to ``op``'s declared defaults (and without None):
    one spelling per op, so equal expressions are equal tiles."""
    if not attrs_:
        return attrs_
    defaults = attr_defaults(op)
    kept: dict[str, Any] = {}  # (a loop: a comprehension is a function object per call)
    for k, v in attrs_.items():
        if v is not None and not (k in defaults and defaults[k] == v):
            kept[k] = v
    return kept


def _arith_format(op: str, t: TileType) -> None:
    try:
        check_arith_format(op, t.element)
    except RuleError as err:
        raise refuse(op, f"the operands are {t}: {err}", user_loc()) from None


_FLOAT_UNARY = {"neg": "negf", "abs": "absf"}
_INT_UNARY = {"neg": "negi", "abs": "absi"}
#: (neg or abs, format name) -> the op, for the formats arithmetic computes on
_UNARY_OPS: dict[tuple[str, str], str] = {
    (kind, name): op
    for table, names in (
        (_FLOAT_UNARY, ARITH_FORMATS["float"]),
        (_INT_UNARY, ARITH_FORMATS["int"]),
    )
    for kind, op in table.items()
    for name in names
}
_FLOAT_ARITH = frozenset(ARITH_FORMATS["float"])


def unary(kind: str, x: TileLike, **attrs_: Any) -> Tile:
    """``neg`` or ``abs`` by format, or a math op (``exp``, ``sqrt`` ...) on float tiles."""
    if type(x) is Tile and not attrs_:
        fmt = x.type.element
        if type(fmt) is Format:
            op_ = _UNARY_OPS.get((kind, fmt.name))
            if op_ is None and fmt.name in _FLOAT_ARITH and kind not in _FLOAT_UNARY:
                op_ = kind  # a math op on a float tile arithmetic computes on
            if op_ is not None:  # every check below passes
                return make_tile(op_, (x,), EMPTY_ATTRS, x.type, user_loc(2))
    x = as_tile(x, None, kind)
    if isinstance(x.format, PointerType):
        raise refuse(kind, f"{x.type} holds pointers")
    if kind in _FLOAT_UNARY:
        op = (_FLOAT_UNARY if x.format.is_float else _INT_UNARY)[kind]
    else:
        op = kind
        if not x.format.is_float:
            raise refuse(
                op, f"`{op}` takes a float tile, got {x.type}; convert with .to(F32)", user_loc()
            )
    _arith_format(op, x.type)
    return Tile(op, (x,), drop_defaults(op, attrs_), x.type, user_loc(CALLER))


def compare(
    predicate: str, lhs: TileLike, rhs: TileLike, ordering: str = "ordered", signed: bool = True
) -> Tile:
    """An element-wise comparison: an ``i1`` mask of the widened shape.  ``ordering`` (floats:
    ``ordered`` is false where either side is NaN, ``unordered`` true) and ``signed``
    (integers) choose how values compare."""
    lhs_tile = isinstance(lhs, Tile)
    if not lhs_tile and not isinstance(rhs, Tile):
        raise refuse("cmp", f"neither {lhs!r} nor {rhs!r} is a tile")
    loc = user_loc(CALLER)  # one look for the op and the constant a number becomes
    tile: Tile = lhs if lhs_tile else rhs  # type: ignore[assignment]
    fmt = tile.type.element
    if type(fmt) is Format and type(signed) is bool:
        found = _COMPARISONS.get((fmt.name, predicate, ordering, signed))
        if found is not None:  # a comparison made before: every check below passes
            op_, attrs_map = found
            pair = _trusted_pair(op_, tile, rhs if lhs_tile else lhs, lhs_tile, loc)
            if pair is not None:
                ttype = canonical_tile_type(pair[0].type.shape, I1)
                return make_tile(op_, pair, attrs_map, ttype, loc)
    lhs = _as_tile(lhs, rhs if isinstance(rhs, Tile) else None, "operand", loc)
    rhs = _as_tile(rhs, lhs, "operand", loc)
    if isinstance(lhs.format, PointerType):
        raise refuse("cmpi", f"{lhs.type} holds pointers; compare ptr_to_int() of them")
    op = "cmpf" if lhs.format.is_float else "cmpi"
    _same_format(op, lhs, rhs)
    _arith_format(op, lhs.type)
    if predicate not in ENUMS["comparison_predicate"]:
        raise refuse(
            op,
            f"predicate {predicate!r} is not one of {', '.join(ENUMS['comparison_predicate'])}",
            user_loc(),
        )
    if ordering not in ENUMS["comparison_ordering"]:
        raise refuse(op, f"ordering {ordering!r} is not ordered or unordered", user_loc())
    lhs, rhs = widen_pair(op, lhs, rhs)
    attrs_: dict = {"comparison_predicate": predicate}
    if op == "cmpf":
        attrs_["comparison_ordering"] = ordering
    else:
        attrs_["signedness"] = "signed" if signed else "unsigned"
    made = Tile(op, (lhs, rhs), drop_defaults(op, attrs_), lhs.type.with_element(I1), loc)
    fmt = lhs.format
    if type(fmt) is Format and type(signed) is bool and type(predicate) is str:
        if type(ordering) is str:
            remember(_COMPARISONS, (fmt.name, predicate, ordering, signed), (op, made.attrs))
    return made


#: (format name, predicate, ordering, signed) -> the op and attributes of that comparison, for
#: the ones made before (so checked): a memo of a pure function of immutable values
_COMPARISONS: dict[tuple, tuple[str, AttrMap]] = memo_table("record.tile: comparisons")


def reduce_dim(x: Tile, dim: int, op: str = "reduce") -> int:
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise refuse(op, f"dim must be an int (a dimension of {x.type}), got {dim!r}", user_loc())
    try:
        return normalize_dim(dim, len(x.type.shape))
    except RuleError as err:
        raise refuse("reduce", f"{x.type}: {err}", user_loc()) from None


def float_identity(combiner: str, fmt: Format) -> Number:
    """The identity of a reduction's combiner: -inf for max, +inf for min, 0 for sum, 1 for prod."""
    if fmt.is_float:
        return {"max": -math.inf, "min": math.inf, "sum": 0.0, "prod": 1.0}[combiner]
    lo, hi = -(1 << (fmt.bits - 1)), (1 << (fmt.bits - 1)) - 1
    return {"max": lo, "min": hi, "sum": 0, "prod": 1}[combiner]
