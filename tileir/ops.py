"""The kernel-facing operations.

Two kinds, as the recorder needs them:

* pure operations return a :class:`~tileir.tile.Tile` at once (arithmetic,
  math, reductions, shapes, conversions, ``mma``, ``block_id``, constants);
* effects return an instruction the body must ``yield``; the value the
  ``yield`` answers is the effect's result (``load_cell``, ``store_cell``,
  ``load_at``, ``store_sub``, the pointer path ``load`` / ``store``,
  ``atomic_add``, ``for_range``, ``if_``, ``assert_``, ``print_``).

>>> from tileir import trace, In, Out, cells, F64
>>> def softmax(x, out):
...     t = yield load_cell(x)
...     e = exp(t - reduce_max(t))
...     yield store_cell(out, e / reduce_sum(e))
>>> k = trace("softmax", softmax, In(F64, cells([3], [4], pad="neg_inf")), Out(F64, cells([3], [4])))
>>> len(k.program.body)
2
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence, Union

from attrs import field, frozen

from tileir.broadcast import RuleError, check_mma, check_write, reduce_shape, widen_many
from tileir.markers import DYN_DIM, FREE_AXIS, Cells, Param
from tileir.module import Loc
from tileir.program import Assert, Atomic, For, If, Load, LoadPtr, Print, Store, StorePtr
from tileir.record import Builder, Effect, drive
from tileir.source import user_loc
from tileir.tile import (Number, Tile, as_tile, binary, compare, constant, float_identity, refuse,
                         reduce_dim, unary, widen_pair)
from tileir.types import F32, F64, I1, I32, I64, Format, PointerType, TileType

__all__ = [
    # memory effects
    "load_cell", "load_at", "store_cell", "store_sub", "load", "store", "atomic_add", "atomic",
    # control effects
    "for_range", "if_", "assert_", "print_",
    # pure
    "block_id", "num_blocks", "scalar", "zeros", "full", "iota", "arange", "broadcast",
    "reshape", "permute", "transpose", "convert", "where", "mma", "maximum", "minimum",
    "reduce_max", "reduce_min", "reduce_sum", "reduce_prod", "exp", "exp2", "log", "log2",
    "sqrt", "rsqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "ceil", "floor", "absolute",
    "fma", "pow", "atan2", "equal", "not_equal", "logical_and", "logical_or", "logical_not",
    "constant", "cat",
]

Index = Union[int, Tile]


def _param(p, op: str) -> Param:
    if not isinstance(p, Param):
        raise refuse(op, f"expected a kernel parameter, got {type(p).__name__} {p!r}", user_loc())
    return p


def _index_tile(i: Index, op: str) -> Tile:
    t = as_tile(i, None, op)
    if t.rank != 0 or not isinstance(t.format, Format) or not t.format.is_int:
        raise refuse(op, f"an index is a rank-0 integer tile or an int, got {t.type}", user_loc())
    if t.format != I32:
        t = convert(t, I32)
    return t


# ----------------------------------------------------------------------------- grid


def block_id(axis: int = 0) -> Tile:
    """The running block's index along grid ``axis`` (0, 1 or 2): a ``tile<i32>``."""
    if axis not in (0, 1, 2):
        raise refuse("get_tile_block_id", f"grid axis {axis!r} is not 0, 1 or 2")
    return Tile("block_id", (), {"axis": axis}, TileType((), I32), user_loc())


def num_blocks(axis: int = 0) -> Tile:
    """How many blocks the grid has along ``axis``: a ``tile<i32>``."""
    if axis not in (0, 1, 2):
        raise refuse("get_num_tile_blocks", f"grid axis {axis!r} is not 0, 1 or 2")
    return Tile("num_blocks", (), {"axis": axis}, TileType((), I32), user_loc())


def scalar(p: Param) -> Tile:
    """The value of a ``Scalar`` parameter: a rank-0 tile."""
    p = _param(p, "scalar")
    if p.role != "Scalar":
        raise refuse("scalar", f"{p.describe()} is a buffer; scalar() reads a Scalar parameter")
    return Tile("param", (), {"index": p.index}, TileType((), p.format), user_loc())


# ----------------------------------------------------------------------------- cells


def _cell_index(p: Param, free: Sequence[Index], op: str) -> tuple:
    """One i32 tile per dimension: the block id along its grid axis, or the kernel's pick."""
    c = p.cells
    free = list(free)
    n_free = sum(1 for a in c.along if a is FREE_AXIS)
    if len(free) != n_free:
        if op == "load_cell":
            raise refuse(op, f"{p.describe()} has {n_free} FREE_AXIS dimension(s) in {c!r}; "
                         f"pick its cell there with load_at(p, [k])", user_loc())
        raise refuse(op, f"{p.describe()} has {n_free} FREE_AXIS dimension(s) in {c!r}, and "
                     f"{len(free)} index(es) were given", user_loc())
    out = []
    for axis in c.along:
        if axis is FREE_AXIS:
            out.append(_index_tile(free.pop(0), op))
        else:
            out.append(Tile("block_id", (), {"axis": axis}, TileType((), I32)))
    return tuple(out)


def _needs_cells(p: Param, op: str) -> Cells:
    if p.cells is None:
        raise refuse(op, f"{p.describe()} has no cells; read a {p.role} through the pointer path "
                     f"(load) or declare it In(format, cells(...))", user_loc())
    return p.cells


@frozen
class _LoadView(Effect):
    param: Param
    index: tuple
    loc: Optional[Loc]
    op: str = "load_view_tko"

    def apply(self, builder: Builder):
        c = self.param.cells
        builder, (rid,) = builder.fresh()
        ttype = TileType(c.tile, self.param.format)
        builder = builder.emit(Load(rid, self.param.index, c, self.index, ttype, self.loc))
        return builder, builder.var(rid, ttype, self.loc)


def load_cell(p: Param) -> Effect:
    """Read this block's cell of ``p`` (yield it): a tile of the cell's shape.  Lanes past
    the extent read the cells' padding value."""
    p = _param(p, "load_cell")
    if p.role not in ("In", "Out"):
        raise refuse("load_cell", f"{p.describe()} has no cells; read it with load()")
    _needs_cells(p, "load_cell")
    return _LoadView(p, _cell_index(p, (), "load_cell"), user_loc())


def load_at(p: Param, index: Sequence[Index]) -> Effect:
    """Read the cell of ``p`` whose FREE_AXIS dimensions are at ``index`` (in cells) and whose
    other dimensions follow this block (yield it)."""
    p = _param(p, "load_at")
    if p.role not in ("In", "Out"):
        raise refuse("load_at", f"{p.describe()} has no cells; read it with load()")
    _needs_cells(p, "load_at")
    return _LoadView(p, _cell_index(p, index, "load_at"), user_loc())


@frozen
class _StoreView(Effect):
    param: Param
    view: Cells
    index: tuple
    value: Tile
    loc: Optional[Loc]
    op: str = "store_view_tko"

    def apply(self, builder: Builder):
        return builder.emit(Store(self.param.index, self.view, self.index, self.value,
                                  self.loc)), None


def _check_store_value(p: Param, t, shape: tuple, op: str) -> Tile:
    if not isinstance(t, Tile):
        t = constant(_number_of(as_tile(t, None, op)), p.format, shape)
    if t.format != p.format:
        raise refuse(op, f"value is {t.type} and {p.describe()} holds {p.format}; convert it "
                     f"with .to({p.format})", user_loc())
    if t.rank == 0:
        t = broadcast(t, shape)
    if t.shape != tuple(shape):
        raise refuse(op, f"value is {t.type}, and a cell of {p.describe()} is "
                     f"{TileType(shape, p.format)}", user_loc())
    return t


def _number_of(t: Tile):
    from tileir.numerics import dense_splat_value

    return dense_splat_value(t.attrs["value"])


def store_cell(p: Param, value: Tile) -> Effect:
    """Write ``value`` to this block's cell of the Out ``p`` (yield it).  Lanes past the
    extent are not written."""
    p = _param(p, "store_cell")
    try:
        check_write(p, "cell")
    except RuleError as err:
        raise refuse("store_cell", str(err)) from None
    c = _needs_cells(p, "store_cell")
    value = _check_store_value(p, value, c.tile, "store_cell")
    return _StoreView(p, c, _cell_index(p, (), "store_cell"), value, user_loc())


def store_sub(p: Param, value: Tile, at: Sequence[Index]) -> Effect:
    """Write ``value``, one piece of this block's cell of ``p``, at piece index ``at``
    (one entry per dimension, counted in pieces of ``value``'s shape) (yield it)."""
    p = _param(p, "store_sub")
    try:
        check_write(p, "cell")
    except RuleError as err:
        raise refuse("store_sub", str(err)) from None
    c = _needs_cells(p, "store_sub")
    if not isinstance(value, Tile) or value.rank != c.rank:
        raise refuse("store_sub", f"the piece must be a tile of rank {c.rank}, got {value!r}")
    if value.format != p.format:
        raise refuse("store_sub", f"value is {value.type} and {p.describe()} holds {p.format}")
    at = list(at)
    if len(at) != c.rank:
        raise refuse("store_sub", f"at has {len(at)} entries; the cell has rank {c.rank}")
    index = []
    for d, (cell_len, piece, axis) in enumerate(zip(c.tile, value.shape, c.along)):
        if piece > cell_len or cell_len % piece:
            raise refuse("store_sub", f"a piece of {value.type} does not divide the cell "
                         f"{list(c.tile)} in dimension {d}")
        per_cell = cell_len // piece
        base = Tile("block_id", (), {"axis": axis}, TileType((), I32))
        index.append(base * per_cell + _index_tile(at[d], "store_sub") if per_cell > 1
                     else base)
    view = Cells(c.extent, value.shape, c.along, c.pad)
    return _StoreView(p, view, tuple(index), value, user_loc())


# ----------------------------------------------------------------------------- pointer path


def _offsets(at: Index, shape: Sequence[int], strides: Optional[Sequence[int]], op: str) -> Tile:
    """Element offsets of a tile of ``shape`` starting at ``at`` with ``strides``."""
    shape = tuple(shape)
    if strides is None:
        strides, acc = [], 1
        for n in reversed(shape):
            strides.append(acc)
            acc *= n
        strides = tuple(reversed(strides))
    strides = tuple(strides)
    if len(strides) != len(shape):
        raise refuse(op, f"strides {list(strides)} has {len(strides)} entries; the tile has rank "
                     f"{len(shape)}", user_loc())
    total = _index_tile(at, op)
    for d, (n, s) in enumerate(zip(shape, strides)):
        lane = iota(n)
        if len(shape) > 1:
            lane = reshape(lane, tuple(n if e == d else 1 for e in range(len(shape))))
        total = total + lane * s if s != 1 else total + lane
    if total.rank == 0:
        total = broadcast(total, shape)
    elif total.shape != shape:
        total = broadcast(total, shape)
    return total


def _offset_tile(offsets, op: str) -> Tile:
    t = as_tile(offsets, None, op)
    if not isinstance(t.format, Format) or not t.format.is_int:
        raise refuse(op, f"offsets must be an integer tile, got {t.type}", user_loc())
    return t


def _mask_tile(mask, shape: tuple, op: str) -> Optional[Tile]:
    if mask is None:
        return None
    m = as_tile(mask, None, op)
    if m.format != I1:
        raise refuse(op, f"a mask is an i1 tile (a comparison), got {m.type}", user_loc())
    if m.shape != shape:
        m = broadcast(m, shape)
    return m


@frozen
class _LoadPtr(Effect):
    param: Param
    offsets: Tile
    mask: Optional[Tile]
    padding: Optional[Tile]
    loc: Optional[Loc]
    op: str = "load_ptr_tko"

    def apply(self, builder: Builder):
        builder, (rid,) = builder.fresh()
        ttype = TileType(self.offsets.shape, self.param.format)
        builder = builder.emit(LoadPtr(rid, self.param.index, self.offsets, self.mask,
                                       self.padding, ttype, self.loc))
        return builder, builder.var(rid, ttype, self.loc)


def load(p: Param, at: Index = 0, shape: Sequence[int] = (), strides: Optional[Sequence[int]] = None,
         *, offsets: Optional[Tile] = None, mask=None, padding: Number = 0) -> Effect:
    """Read ``p`` through the pointer path (yield it): a tile of ``shape`` starting at element
    ``at`` with element ``strides`` (row-major by default), or at explicit element ``offsets``.
    Masked-off lanes read ``padding``."""
    p = _param(p, "load")
    if p.role == "Scalar":
        raise refuse("load", f"{p.describe()} is a value; read it with scalar()")
    offs = _offset_tile(offsets, "load") if offsets is not None else _offsets(at, shape, strides, "load")
    m = _mask_tile(mask, offs.shape, "load")
    pad = None
    if m is not None:
        pad = constant(padding, p.format, offs.shape)
    return _LoadPtr(p, offs, m, pad, user_loc())


@frozen
class _StorePtr(Effect):
    param: Param
    offsets: Tile
    value: Tile
    mask: Optional[Tile]
    loc: Optional[Loc]
    op: str = "store_ptr_tko"

    def apply(self, builder: Builder):
        return builder.emit(StorePtr(self.param.index, self.offsets, self.value, self.mask,
                                     self.loc)), None


def store(p: Param, at: Index, value: Tile, strides: Optional[Sequence[int]] = None, *,
          offsets: Optional[Tile] = None, mask=None) -> Effect:
    """Write ``value`` into the Shared ``p`` through the pointer path (yield it), starting at
    element ``at`` with element ``strides`` (the tile's own row-major layout by default), or
    at explicit element ``offsets``; only lanes where ``mask`` holds are written."""
    p = _param(p, "store")
    try:
        check_write(p, "pointer")
    except RuleError as err:
        raise refuse("store", str(err)) from None
    if not isinstance(value, Tile):
        raise refuse("store", f"value must be a tile, got {value!r}")
    if value.format != p.format:
        raise refuse("store", f"value is {value.type} and {p.describe()} holds {p.format}")
    offs = (_offset_tile(offsets, "store") if offsets is not None
            else _offsets(at, value.shape, strides, "store"))
    if offs.shape != value.shape:
        value = broadcast(value, offs.shape)
    return _StorePtr(p, offs, value, _mask_tile(mask, offs.shape, "store"), user_loc())


@frozen
class _Atomic(Effect):
    param: Param
    mode: str
    offsets: Tile
    value: Tile
    mask: Optional[Tile]
    loc: Optional[Loc]
    op: str = "atomic_rmw_tko"

    def apply(self, builder: Builder):
        builder, (rid,) = builder.fresh()
        ttype = self.value.type
        builder = builder.emit(Atomic(rid, self.param.index, self.mode, self.offsets, self.value,
                                      self.mask, ttype, self.loc))
        return builder, builder.var(rid, ttype, self.loc)


_ATOMIC_MODES = ("and", "or", "xor", "add", "addf", "max", "min", "umax", "umin", "xchg")


def atomic(mode: str, p: Param, offsets, value, mask=None) -> Effect:
    """``atomic_rmw_tko`` of ``mode`` on the Shared ``p`` at element ``offsets`` (yield it);
    answers the values each lane found."""
    p = _param(p, "atomic_rmw_tko")
    if mode not in _ATOMIC_MODES:
        raise refuse("atomic_rmw_tko", f"mode {mode!r} is not one of {', '.join(_ATOMIC_MODES)}")
    try:
        check_write(p, "atomic")
    except RuleError as err:
        raise refuse("atomic_rmw_tko", str(err)) from None
    offs = _offset_tile(offsets, "atomic_rmw_tko")
    val = as_tile(value, constant(0, p.format), "atomic_rmw_tko")
    if val.format != p.format:
        raise refuse("atomic_rmw_tko", f"value is {val.type} and {p.describe()} holds {p.format}")
    try:
        shape = widen_many([offs.shape, val.shape])
    except RuleError as err:
        raise refuse("atomic_rmw_tko", f"offsets {offs.type} and value {val.type}: {err}") from None
    if offs.shape != shape:
        offs = broadcast(offs, shape)
    if val.shape != shape:
        val = broadcast(val, shape)
    return _Atomic(p, mode, offs, val, _mask_tile(mask, shape, "atomic_rmw_tko"), user_loc())


def atomic_add(p: Param, offsets, value, mask=None) -> Effect:
    """Add ``value`` at element ``offsets`` of the Shared ``p`` atomically (yield it)."""
    mode = "addf" if p.format.is_float else "add"
    return atomic(mode, p, offsets, value, mask)


# ----------------------------------------------------------------------------- control flow


def _as_values(value, what: str, op: str) -> tuple:
    if isinstance(value, Tile):
        return (value,)
    if isinstance(value, (tuple, list)):
        out = []
        for v in value:
            if not isinstance(v, Tile):
                raise refuse(op, f"{what} holds {v!r}; carried values are tiles", user_loc())
            out.append(v)
        return tuple(out)
    if value is None:
        return ()
    raise refuse(op, f"{what} is {value!r}; carried values are tiles", user_loc())


def _shape_back(values: tuple, like) -> object:
    if isinstance(like, Tile):
        return values[0]
    if like is None:
        return None
    return tuple(values)


@frozen
class _ForRange(Effect):
    lower: Tile
    upper: Tile
    step: Tile
    body: Callable = field(eq=False)
    init: tuple
    init_like: object = field(eq=False)
    loc: Optional[Loc]
    op: str = "for"

    def apply(self, builder: Builder):
        inner = builder.child()
        inner, ids = inner.fresh(1 + len(self.init))
        iv = inner.var(ids[0], TileType((), I32), self.loc)
        carried = tuple(inner.var(i, t.type, self.loc) for i, t in zip(ids[1:], self.init))
        inner, out = drive(inner, self.body(iv, *carried))
        yields = _as_values(out, "the loop body's result", "for")
        if len(yields) != len(self.init):
            raise self.refuse(f"the body returns {len(yields)} value(s) and the loop carries "
                              f"{len(self.init)} (init)")
        for k, (y, i) in enumerate(zip(yields, self.init)):
            if y.type != i.type:
                raise self.refuse(f"carried value {k} starts as {i.type} and the body returns "
                                  f"{y.type}; a carried value keeps its type")
        builder = builder.adopt(inner)
        builder, rids = builder.fresh(len(self.init))
        builder = builder.emit(For(self.lower, self.upper, self.step, self.init, ids[0], ids[1:],
                                   tuple(inner.instrs), yields, rids, self.loc))
        results = tuple(builder.var(r, t.type, self.loc) for r, t in zip(rids, self.init))
        return builder, _shape_back(results, self.init_like)


def for_range(lower: Index, upper: Index, body: Callable, init=None, step: Index = 1) -> Effect:
    """A counted loop (yield it): ``body(k, *carried)`` runs for ``k`` in ``[lower, upper)`` by
    ``step`` and returns the next carried values; the yield answers their final values.

    The carried values are explicit (``init``: a tile or a tuple of tiles); the body is
    recorded once, as the loop's region.  ``body`` may be a generator (it yields effects).
    """
    init_values = _as_values(init, "init", "for")
    lo, hi, st = (_index_tile(v, "for") for v in (lower, upper, step))
    return _ForRange(lo, hi, st, body, init_values, init, user_loc())


@frozen
class _If(Effect):
    cond: Tile
    then: Callable = field(eq=False)
    else_: Optional[Callable] = field(eq=False)
    loc: Optional[Loc]
    op: str = "if"

    def apply(self, builder: Builder):
        inner, then_out = drive(builder.child(), self.then())
        then_vals = _as_values(then_out, "the then branch's result", "if")
        then_body = tuple(inner.instrs)
        builder = builder.adopt(inner)
        if self.else_ is None:
            if then_vals:
                raise self.refuse("the then branch returns values, so an else branch must too")
            else_vals, else_body = (), ()
        else:
            inner, else_out = drive(builder.child(), self.else_())
            else_vals = _as_values(else_out, "the else branch's result", "if")
            else_body = tuple(inner.instrs)
            builder = builder.adopt(inner)
        if [v.type for v in then_vals] != [v.type for v in else_vals]:
            raise self.refuse(f"the branches return {[str(v.type) for v in then_vals]} and "
                              f"{[str(v.type) for v in else_vals]}; they must agree")
        builder, rids = builder.fresh(len(then_vals))
        builder = builder.emit(If(self.cond, then_body, then_vals, else_body, else_vals, rids,
                                  self.loc))
        results = tuple(builder.var(r, v.type, self.loc) for r, v in zip(rids, then_vals))
        return builder, _shape_back(results, then_out)


def if_(cond: Tile, then: Callable, else_: Optional[Callable] = None) -> Effect:
    """Branch on a rank-0 ``i1`` tile (yield it).  ``then()`` and ``else_()`` take no arguments,
    may yield effects, and return the same values (a tile, a tuple of tiles, or nothing)."""
    if not isinstance(cond, Tile) or cond.format != I1 or cond.rank != 0:
        what = cond.type if isinstance(cond, Tile) else repr(cond)
        raise refuse("if", f"the condition must be a rank-0 i1 tile (a comparison of rank-0 "
                     f"tiles), got {what}")
    return _If(cond, then, else_, user_loc())


@frozen
class _Assert(Effect):
    cond: Tile
    message: str
    loc: Optional[Loc]
    op: str = "assert"

    def apply(self, builder: Builder):
        return builder.emit(Assert(self.cond, self.message, self.loc)), None


def assert_(cond: Tile, message: str) -> Effect:
    """Fail the kernel with ``message`` where ``cond`` (an i1 tile) is false (yield it)."""
    if not isinstance(cond, Tile) or cond.format != I1:
        raise refuse("assert", f"the condition must be an i1 tile, got {cond!r}")
    return _Assert(cond, str(message), user_loc())


@frozen
class _Print(Effect):
    format: str
    args: tuple
    loc: Optional[Loc]
    op: str = "print_tko"

    def apply(self, builder: Builder):
        return builder.emit(Print(self.format, self.args, self.loc)), None


def print_(fmt: str, *args: Tile) -> Effect:
    """Print from the device with a printf-like ``fmt`` (yield it)."""
    return _Print(str(fmt), tuple(as_tile(a, None, "print_tko") for a in args), user_loc())


# ----------------------------------------------------------------------------- construction


def zeros(like: Union[Param, Sequence[int]], fmt: Optional[Format] = None) -> Tile:
    """Zeros shaped like one cell of the parameter ``like`` (in its format), or of a shape."""
    if isinstance(like, Param):
        c = _needs_cells(like, "zeros") if like.cells is None else like.cells
        return constant(0, fmt or like.format, c.tile)
    return full(like, 0, fmt or F32)


def full(shape: Sequence[int], value: Number, fmt: Format = F32) -> Tile:
    """A tile of ``shape`` holding ``value`` everywhere, in ``fmt``."""
    _check_shape(shape, "constant")
    return constant(value, fmt, tuple(shape))


def _check_shape(shape, op: str) -> None:
    for d, n in enumerate(shape):
        if not isinstance(n, int) or n <= 0 or n & (n - 1):
            raise refuse(op, f"shape {list(shape)} has {n!r} in dimension {d}; tile dimensions are "
                         f"powers of two", user_loc())


def iota(n: int, fmt: Format = I32) -> Tile:
    """The rank-1 tile ``[0, 1, ..., n-1]``."""
    _check_shape((n,), "iota")
    return Tile("iota", (), {}, TileType((n,), fmt), user_loc())


arange = iota


def broadcast(t: Tile, shape: Sequence[int]) -> Tile:
    """``t`` widened to ``shape``: its dimensions of length 1 (or a rank-0 tile) repeat."""
    t = as_tile(t, None, "broadcast")
    shape = tuple(shape)
    _check_shape(shape, "broadcast")
    if t.rank not in (0, len(shape)) or any(a not in (1, b) for a, b in zip(t.shape, shape)):
        raise refuse("broadcast", f"{t.type} does not widen to {list(shape)}: only dimensions of "
                     f"length 1 (or a rank-0 tile) widen")
    from tileir.tile import _widen_to

    return _widen_to(t, shape, "broadcast")


def reshape(t: Tile, shape: Sequence[int]) -> Tile:
    """``t``'s elements in row-major order as a tile of ``shape`` (same element count)."""
    shape = tuple(shape)
    _check_shape(shape, "reshape")
    n = 1
    for d in shape:
        n *= d
    if n != t.type.size:
        raise refuse("reshape", f"{t.type} has {t.type.size} elements and {list(shape)} holds {n}")
    if shape == t.shape:
        return t
    return Tile("reshape", (t,), {}, t.type.with_shape(shape), user_loc())


def permute(t: Tile, permutation: Sequence[int]) -> Tile:
    """``t``'s dimensions reordered: result dimension ``i`` is ``t``'s dimension ``permutation[i]``."""
    perm = tuple(permutation)
    if sorted(perm) != list(range(t.rank)):
        raise refuse("permute", f"{list(perm)} is not a permutation of {t.type}'s dimensions")
    return Tile("permute", (t,), {"permutation": perm},
                t.type.with_shape(tuple(t.shape[i] for i in perm)), user_loc())


def transpose(t: Tile) -> Tile:
    """The two dimensions of a matrix swapped."""
    return t.transpose()


def cat(lhs: Tile, rhs: Tile, dim: int = 0) -> Tile:
    """``lhs`` and ``rhs`` joined along ``dim`` (the other dimensions must agree)."""
    if lhs.format != rhs.format or lhs.rank != rhs.rank or any(
            a != b for i, (a, b) in enumerate(zip(lhs.shape, rhs.shape)) if i != dim % lhs.rank):
        raise refuse("cat", f"{lhs.type} and {rhs.type} do not join along dim {dim}")
    d = dim % lhs.rank
    shape = tuple(a + b if i == d else a for i, (a, b) in enumerate(zip(lhs.shape, rhs.shape)))
    _check_shape(shape, "cat")
    return Tile("cat", (lhs, rhs), {"dim": d}, lhs.type.with_shape(shape), user_loc())


_INT_FORMATS = ("i1", "i4", "i8", "i16", "i32", "i64")


def convert(t: Tile, fmt: Format, rounding: str = "nearest_even", signed: bool = True) -> Tile:
    """``t`` in format ``fmt``: ftof, itof, ftoi, exti or trunci as the formats need."""
    t = as_tile(t, None, "convert")
    src = t.format
    if not isinstance(src, Format) or not isinstance(fmt, Format):
        raise refuse("convert", f"cannot convert {t.type} to {fmt}")
    if src == fmt:
        return t
    sign = "signed" if signed else "unsigned"
    if src.is_float and fmt.is_float:
        op, attrs_ = "ftof", {"rounding": rounding}
    elif src.is_int and fmt.is_float:
        op, attrs_ = "itof", {"signedness": sign}
    elif src.is_float and fmt.is_int:
        op, attrs_ = "ftoi", {"signedness": sign}
    elif fmt.bits > src.bits:
        op, attrs_ = "exti", {"signedness": "unsigned" if src == I1 else sign}
    else:
        op, attrs_ = "trunci", {}
    return Tile(op, (t,), attrs_, t.type.with_element(fmt), user_loc())


def where(mask: Tile, if_true, if_false) -> Tile:
    """Pick ``if_true`` where ``mask`` (an i1 tile) holds, ``if_false`` elsewhere (``select``)."""
    if not isinstance(mask, Tile) or mask.format != I1:
        raise refuse("select", f"the mask must be an i1 tile, got {mask!r}")
    like = if_true if isinstance(if_true, Tile) else if_false if isinstance(if_false, Tile) else None
    a = as_tile(if_true, like, "select")
    b = as_tile(if_false, a, "select")
    if a.format != b.format:
        raise refuse("select", f"the values are {a.type} and {b.type}: formats differ")
    try:
        shape = widen_many([mask.shape, a.shape, b.shape])
    except RuleError as err:
        raise refuse("select", f"mask {mask.type}, values {a.type} and {b.type}: {err}") from None
    mask, a, b = (broadcast(x, shape) if x.shape != shape else x for x in (mask, a, b))
    return Tile("select", (mask, a, b), {}, a.type, user_loc())


def mma(a: Tile, b: Tile, acc) -> Tile:
    """``a @ b + acc`` on the tensor cores (``mmaf``; ``mmai`` for i8).  ``acc`` may be a Python
    number: a constant accumulator of the product's shape in the widest format the pair allows."""
    if not isinstance(a, Tile) or not isinstance(b, Tile):
        raise refuse("mmaf", f"mma takes tiles, got {a!r} and {b!r}")
    op = "mmai" if a.format == Format("i8") else "mmaf"
    if not isinstance(acc, Tile):
        from tileir.broadcast import mma_accumulators

        allowed = mma_accumulators(a.format) or ("f32",)
        acc_fmt = Format(allowed[-1])
        acc = constant(acc, acc_fmt, a.shape[:-2] + (a.shape[-2], b.shape[-1]))
    try:
        check_mma(a.shape, a.format, b.shape, b.format, acc.shape, acc.format)
    except RuleError as err:
        raise refuse(op, f"lhs {a.type}, rhs {b.type}, acc {acc.type}: {err}") from None
    attrs_ = {"signedness_lhs": "signed", "signedness_rhs": "signed"} if op == "mmai" else {}
    return Tile(op, (a, b, acc), attrs_, acc.type, user_loc())


def maximum(a, b) -> Tile:
    """Element-wise maximum (``maxf`` / ``maxi``)."""
    return binary("max", a, b)


def minimum(a, b) -> Tile:
    """Element-wise minimum (``minf`` / ``mini``)."""
    return binary("min", a, b)


def _reduce(combiner: str, t: Tile, dim: int, keepdims: bool) -> Tile:
    t = as_tile(t, None, "reduce")
    d = reduce_dim(t, dim)
    shape = reduce_shape(t.shape, d, False)
    identity = float_identity(combiner, t.format)
    r = Tile("reduce", (t,), {"dim": d, "combiner": combiner, "identity": identity},
             t.type.with_shape(shape), user_loc())
    if keepdims:
        r = Tile("reshape", (r,), {}, t.type.with_shape(reduce_shape(t.shape, d, True)), r.loc)
    return r


def reduce_max(t: Tile, dim: int = -1, keepdims: bool = False) -> Tile:
    """The maximum along ``dim`` (the last by default); ``keepdims`` keeps it with length 1."""
    return _reduce("max", t, dim, keepdims)


def reduce_min(t: Tile, dim: int = -1, keepdims: bool = False) -> Tile:
    """The minimum along ``dim``; ``keepdims`` keeps it with length 1."""
    return _reduce("min", t, dim, keepdims)


def reduce_sum(t: Tile, dim: int = -1, keepdims: bool = False) -> Tile:
    """The sum along ``dim``; ``keepdims`` keeps it with length 1."""
    return _reduce("sum", t, dim, keepdims)


def reduce_prod(t: Tile, dim: int = -1, keepdims: bool = False) -> Tile:
    """The product along ``dim``; ``keepdims`` keeps it with length 1."""
    return _reduce("prod", t, dim, keepdims)


def _math(name: str):
    def op(x: Tile) -> Tile:
        return unary(name, x)

    op.__name__ = name
    op.__doc__ = f"Element-wise ``{name}`` of a float tile."
    return op


exp, exp2, log, log2, sqrt, rsqrt = (_math(n) for n in ("exp", "exp2", "log", "log2", "sqrt", "rsqrt"))
sin, cos, tan, sinh, cosh, tanh = (_math(n) for n in ("sin", "cos", "tan", "sinh", "cosh", "tanh"))
ceil, floor = _math("ceil"), _math("floor")


def absolute(x: Tile) -> Tile:
    """Element-wise absolute value (``absf`` / ``absi``)."""
    return unary("abs", x)


def fma(a: Tile, b, c) -> Tile:
    """``a * b + c`` with one rounding (float tiles)."""
    a = as_tile(a, None, "fma")
    b, c = as_tile(b, a, "fma"), as_tile(c, a, "fma")
    if not a.format.is_float or not (a.format == b.format == c.format):
        raise refuse("fma", f"fma takes float tiles of one format: {a.type}, {b.type}, {c.type}")
    try:
        shape = widen_many([a.shape, b.shape, c.shape])
    except RuleError as err:
        raise refuse("fma", f"{a.type}, {b.type}, {c.type}: {err}") from None
    a, b, c = (broadcast(x, shape) if x.shape != shape else x for x in (a, b, c))
    return Tile("fma", (a, b, c), {}, a.type, user_loc())


def pow(base: Tile, exponent) -> Tile:  # noqa: A001 - the math name
    """``base ** exponent`` (``fpowf``; ``fpowi`` when the exponent is an integer tile)."""
    base = as_tile(base, None, "fpowf")
    if isinstance(exponent, Tile) and exponent.format.is_int:
        lhs, rhs = widen_pair("fpowi", base, exponent)
        return Tile("fpowi", (lhs, rhs), {}, lhs.type, user_loc())
    return binary("pow", base, exponent)


def atan2(y: Tile, x) -> Tile:
    """The angle of ``(x, y)`` element-wise."""
    return binary("atan2", y, x)


def equal(a, b) -> Tile:
    """Element-wise ``a == b`` as an i1 mask (``==`` on tiles compares the values recorded)."""
    return compare("equal", a, b)


def not_equal(a, b) -> Tile:
    """Element-wise ``a != b`` as an i1 mask."""
    return compare("not_equal", a, b, ordering="unordered")


def logical_and(a: Tile, b: Tile) -> Tile:
    return binary("and", a, b)


def logical_or(a: Tile, b: Tile) -> Tile:
    return binary("or", a, b)


def logical_not(a: Tile) -> Tile:
    return binary("xor", a, True)

