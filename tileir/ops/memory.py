"""Memory effects: reading and writing cells, the pointer path, and atomics (yield each).

Every access takes the same keywords, which become the op's attributes:

* ``ordering``: ``"weak"`` (the default: no ordering with other blocks), ``"relaxed"``,
  ``"acquire"`` (loads) or ``"release"`` (stores); atomics ``"relaxed"`` (default),
  ``"acquire"``, ``"release"`` or ``"acq_rel"``;
* ``scope``: ``"tl_blk"``, ``"device"`` (the default of a non-weak access) or ``"sys"``;
* ``latency`` (1 low .. 10 high) and ``allow_tma`` (cells only): hints to ``tileiras``;
* ``inbounds`` (view accesses only, bytecode 13.4): ``True`` or one bool per index, a
  promise that the tile lies inside the tensor there.  A load promises every index or none,
  and reads through a view without a padding value (tileiras 13.4.92 refuses a padded view
  with ``inbounds``).

The pointer path (``load``, ``store``, ``atomic``, ``atomic_cas``) addresses a
parameter, a module global (:func:`~tileir.ops.views.global_constant`) or a tile of
pointers (:func:`~tileir.ops.views.address`, ``scratch``, ``int_to_ptr`` ...).
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence, Union

from tileir.ir.attr_rules import check_access, check_atomic
from tileir.ir.dialect import MULTIMEM_OPS
from tileir.ir.memo import memo_table, remember
from tileir.ir.module import EMPTY_ATTRS, Global, Loc
from tileir.ir.numerics import dense_format
from tileir.ops.conversions import ptr_attr_of
from tileir.ops.lanes import cell_lanes
from tileir.ops.shape import broadcast, index_tile, iota_at, reshape_at
from tileir.record.builder import Effect, Emit, make_emit
from tileir.record.markers import FREE_AXIS, Cells, Param
from tileir.record.program import (
    Access,
    Atomic,
    AtomicCas,
    Base,
    LoadPtr,
    Store,
    StorePtr,
    make_load,
    make_store,
)
from tileir.record.source import CALLER, user_loc
from tileir.record.tile import Number, Tile, TileLike, as_tile, binary_at, constant, refuse
from tileir.shape_rules import RuleError, check_write, widen_many
from tileir.types import (
    I1,
    I32,
    Format,
    PointerType,
    TileType,
    _all_ints,
    canonical_pointer_type,
    canonical_tile_type,
    shared_tile_type,
)

__all__ = [
    "load_cell",
    "load_at",
    "store_cell",
    "store_sub",
    "load",
    "store",
    "atomic",
    "atomic_add",
    "atomic_cas",
    "access",
    "WEAK_ACCESS",
    "pointer_base",
    "cell_index",
    "needs_cells",
    "param_of",
]

Index = Union[int, Tile]
#: What the pointer path addresses: a parameter, a module global or a tile of pointers.
Pointee = Union[Param, Global, Tile]


def param_of(p: object, op: str) -> Param:
    if not isinstance(p, Param):
        raise refuse(op, f"expected a kernel parameter, got {type(p).__name__} {p!r}", user_loc())
    if p.marker.ptr_attr == "multicast" and op not in _MULTICAST_OPS:
        raise _multicast_refusal(p.describe(), op)
    return p


# what may take a multicast parameter: the multimem ops, and the shape queries (no access)
_MULTICAST_OPS = MULTIMEM_OPS | {"get_tensor_shape", "get_index_space_shape"}


def _multicast_refusal(what: str, op: str):
    # the 13.5 verifier: "multicast ptr_attr is not allowed" (views), "multicast pointer is
    # not allowed / supported" (the pointer path) (docs/dialect.md §2.2)
    return refuse(
        op,
        f"{what} is a multicast buffer, which only the multimem ops access "
        f"(load_reduce_cell, reduce_cell, store_cell_all); `{op}` refuses a multicast pointer",
        user_loc(),
    )


def access(
    kind: str,
    op: str,
    *,
    ordering: str = "weak",
    scope: Optional[str] = None,
    latency: Optional[int] = None,
    allow_tma: Optional[bool] = None,
    inbounds: Union[bool, Sequence[bool], None] = None,
    pointer: bool = False,
    n_index: int = 0,
) -> Access:
    """The :class:`~tileir.record.program.Access` a load (``kind="load"``) or store makes, checked."""
    if ordering != "weak" and scope is None:
        scope = "device"
    try:
        check_access(kind, ordering, scope, latency, allow_tma, pointer)
    except RuleError as err:
        raise refuse(op, str(err), user_loc()) from None
    flags: tuple[bool, ...] = ()
    if inbounds is not None and inbounds is not False:
        if pointer:
            raise refuse(
                op,
                f"inbounds={inbounds!r}: a promise of view accesses (cells), not of the "
                f"pointer path",
                user_loc(),
            )
        flags = (True,) * n_index if inbounds is True else tuple(bool(b) for b in inbounds)
        if len(flags) != n_index:
            raise refuse(
                op, f"inbounds has {len(flags)} entries for {n_index} indices", user_loc()
            )
        if kind == "load" and any(flags) and not all(flags):
            # the view of a load promised in bounds has no padding value (tileiras refuses
            # the two together), so a promise for some indices only would lose the padding
            raise refuse(
                op,
                f"inbounds {list(flags)}: a load promises every index or none (inbounds=True)",
                user_loc(),
            )
    if (
        ordering == "weak"
        and scope is None
        and latency is None
        and allow_tma is None
        and not flags
        and type(ordering) is str
    ):
        return WEAK_ACCESS  # the plain access, one shared value
    return Access(ordering, scope, latency, allow_tma, flags)


#: the plain access (weak, no scope, latency, TMA or inbounds promise): what ``access`` of no
#: options answers, so a load or store given none takes it without the call (whose keyword
#: unpacking is C code no other step of a recording runs)
WEAK_ACCESS = Access()


# ----------------------------------------------------------------------------- cells


#: the block id along grid axis 0, 1 and 2: the index of a cell along a dimension that follows
#: that axis (immutable values, shared by every recording)
_BLOCK_IDS = tuple(Tile("block_id", (), {"axis": axis}, TileType((), I32)) for axis in range(3))


def cell_index(p: Param, free: Sequence[Index], op: str) -> tuple[Tile, ...]:
    """One i32 tile per dimension: the block id along its grid axis, or the kernel's pick."""
    return _cell_index(p, needs_cells(p, op), free, op)


def _cell_index(
    p: Param, c: Cells, free: Sequence[Index], op: str, loc: Optional[Loc] = None
) -> tuple[Tile, ...]:
    """:func:`cell_index` of ``p``, whose cells are ``c``; ``loc``: the user's location, when
    the caller has it (the index constants of ints are made there)."""
    along = c.along
    if not free:
        found = _GRID_INDEX.get(along)
        if found is not None:  # every dimension follows a grid axis: its block ids
            return found
    n_free = along.count(FREE_AXIS)
    if not n_free and not free:  # every dimension follows a grid axis (checked: 0, 1 or 2)
        found = tuple([_BLOCK_IDS[axis] for axis in along])  # type: ignore[index]
        return remember(_GRID_INDEX, along, found, _MAX_GRID_INDEX)
    free = list(free)
    if len(free) != n_free:
        if op == "load_cell":
            raise refuse(
                op,
                f"{p.describe()} has {n_free} FREE_AXIS dimension(s) in {c!r}; "
                f"pick its cell there with load_at(p, [k])",
                user_loc(),
            )
        raise refuse(
            op,
            f"{p.describe()} has {n_free} FREE_AXIS dimension(s) in {c!r}, and "
            f"{len(free)} index(es) were given",
            user_loc(),
        )
    out: list[Tile] = []
    for axis in along:
        if axis is FREE_AXIS:
            out.append(index_tile(free.pop(0), op, loc))
        else:
            out.append(_BLOCK_IDS[axis])  # type: ignore[index]
    return tuple(out)


#: the ``along`` of cells none of whose dimensions is FREE_AXIS -> their block ids, one per
#: dimension: a memo of a pure function of immutable values (a few ``along`` recur)
_GRID_INDEX: dict[tuple, tuple[Tile, ...]] = memo_table("ops.memory: cell indices")
_MAX_GRID_INDEX = 256


def needs_cells(p: Param, op: str) -> Cells:
    if p.cells is None:
        raise refuse(
            op,
            f"{p.describe()} has no cells; read a {p.role} through the pointer path "
            f"(load) or give it cells: {p.role}(format, cells(...))",
            user_loc(),
        )
    return p.cells


def _load_cells(p: Param, index: Sequence[Index], op: str, options: dict[str, Any]) -> Effect:
    p = param_of(p, op)
    if p.role == "Scalar":
        raise refuse(op, f"{p.describe()} is a value; read it with scalar()")
    c = needs_cells(p, op)
    # the same frame (and so location) for the instruction, its effect and the tiles made for
    # it; looked for from load_cell's or load_at's caller (both of them tileir's own)
    loc = user_loc(3)
    idx = _cell_index(p, c, index, op, loc)
    acc = access("load", op, n_index=len(idx), **options) if options else WEAK_ACCESS
    tile = c.tile
    ttype = canonical_tile_type(tile, p.format) if _all_ints(tile) else TileType(tile, p.format)
    lanes = cell_lanes(p, c, idx, loc) if c.ragged else ()
    load = make_load(-1, p.index, c, idx, ttype, loc, acc)
    return make_emit("load_view_tko", load, ttype, loc, lanes)


def load_cell(p: Param, **options: Any) -> Effect:
    """Read this block's cell of ``p`` (yield it): a tile of the cell's shape.  Lanes past
    the extent read the cells' padding value.

    ``options`` are the access keywords every memory op takes:

    * ``ordering``: ``"weak"`` (the default), ``"relaxed"`` or ``"acquire"``;
    * ``scope``: ``"tl_blk"``, ``"device"`` (the default of a non-weak access) or ``"sys"``;
    * ``latency`` (1 low .. 10 high) and ``allow_tma``: hints to ``tileiras``;
    * ``inbounds=True`` (bytecode 13.4): a promise that the cell lies inside the tensor (the
      view then has no padding value).

    >>> from tileir import In, Out, cells, store_cell, trace, F32
    >>> def copy(x, out):
    ...     t = yield load_cell(x, latency=4)
    ...     yield store_cell(out, t)
    >>> g = cells([256], [128])
    >>> trace("copy", copy, In(F32, g), Out(F32, g)).grid
    (2,)
    """
    return _load_cells(p, (), "load_cell", options)


def load_at(p: Param, index: Sequence[Index], **options: Any) -> Effect:
    """Read the cell of ``p`` whose FREE_AXIS dimensions are at ``index`` (in cells) and whose
    other dimensions follow this block (yield it)."""
    return _load_cells(p, index, "load_at", options)


def _check_store_value(p: Param, t: TileLike, shape: tuple[int, ...], op: str) -> Tile:
    if not isinstance(t, Tile):
        t = constant(t, p.format, ())
    fmt = t.type.element
    if fmt is not p.format and fmt != p.format:  # (most formats are one shared object)
        raise refuse(
            op,
            f"value is {t.type} and {p.describe()} holds {p.format}; convert it "
            f"with .to({p.format})",
            user_loc(),
        )
    if not t.type.shape:  # rank 0
        t = broadcast(t, shape)
    if t.type.shape != tuple(shape):
        raise refuse(
            op,
            f"value is {t.type}, and a cell of {p.describe()} is {TileType(shape, p.format)}",
            user_loc(),
        )
    return t


def _writable(p: Param, how: str, op: str) -> None:
    try:
        check_write(p, how)
    except RuleError as err:
        raise refuse(op, str(err)) from None


def store_cell(p: Param, value: TileLike, **options: Any) -> Effect:
    """Write ``value`` to this block's cell of the Out ``p`` (yield it).  Lanes past the
    extent are not written."""
    p = param_of(p, "store_cell")
    if p.role != "Out":  # an Out is written through its cells: check_write passes it
        _writable(p, "cell", "store_cell")
    c = needs_cells(p, "store_cell")
    value = _check_store_value(p, value, c.tile, "store_cell")
    idx = _cell_index(p, c, (), "store_cell")
    acc = access("store", "store_cell", n_index=len(idx), **options) if options else WEAK_ACCESS
    loc = user_loc(2)  # the same frame (and so location) for the instruction and its effect
    store = make_store(p.index, c, idx, value, loc, acc)
    return make_emit("store_view_tko", store, None, loc, ())


def store_sub(p: Param, value: Tile, at: Sequence[Index], **options: Any) -> Effect:
    """Write ``value``, one piece of this block's cell of ``p``, at piece index ``at``
    (one entry per dimension, counted in pieces of ``value``'s shape) (yield it)."""
    p = param_of(p, "store_sub")
    _writable(p, "cell", "store_sub")
    c = needs_cells(p, "store_sub")
    if not isinstance(value, Tile) or value.rank != c.rank:
        raise refuse("store_sub", f"the piece must be a tile of rank {c.rank}, got {value!r}")
    if value.format != p.format:
        raise refuse("store_sub", f"value is {value.type} and {p.describe()} holds {p.format}")
    at = list(at)
    if len(at) != c.rank:
        raise refuse("store_sub", f"at has {len(at)} entries; the cell has rank {c.rank}")
    index: list[Tile] = []
    for d, (cell_len, piece, axis) in enumerate(zip(c.tile, value.shape, c.along)):
        if piece > cell_len or cell_len % piece:
            raise refuse(
                "store_sub",
                f"a piece of {value.type} does not divide the cell "
                f"{list(c.tile)} in dimension {d}",
            )
        per_cell = cell_len // piece
        base = Tile("block_id", (), {"axis": axis}, canonical_tile_type((), I32))
        index.append(base * per_cell + index_tile(at[d], "store_sub") if per_cell > 1 else base)
    view = Cells(c.extent, value.shape, c.along, c.pad)
    acc = access("store", "store_sub", n_index=len(index), **options) if options else WEAK_ACCESS
    loc = user_loc(CALLER)
    return Emit("store_view_tko", Store(p.index, view, tuple(index), value, loc, acc), None, loc)


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
        raise refuse(
            op,
            f"strides {list(strides)} has {len(strides)} entries; the tile has rank {len(shape)}",
            user_loc(),
        )
    loc = user_loc(CALLER)  # every tile of the offsets is made at the access's line
    total = index_tile(at, op, loc)
    for d, (n, s) in enumerate(zip(shape, strides)):
        lane = iota_at(n, I32, loc)
        if len(shape) > 1:  # (n along d, 1 along the others: no generator's frame)
            lane = reshape_at(lane, (1,) * d + (n,) + (1,) * (len(shape) - d - 1), loc)
        if s != 1:
            lane = binary_at("mul", lane, s, loc, EMPTY_ATTRS)
        total = binary_at("add", total, lane, loc, EMPTY_ATTRS)
    if total.shape != shape:
        total = broadcast(total, shape)
    return total


def _offset_tile(offsets: object, op: str) -> Tile:
    t = as_tile(offsets, None, op)
    if not isinstance(t.format, Format) or not t.format.is_int:
        raise refuse(op, f"offsets must be an integer tile, got {t.type}", user_loc())
    return t


def _mask_tile(mask: Optional[TileLike], shape: tuple[int, ...], op: str) -> Optional[Tile]:
    if mask is None:
        return None
    m = as_tile(mask, None, op)
    if m.format != I1:
        raise refuse(op, f"a mask is an i1 tile (a comparison), got {m.type}", user_loc())
    if m.shape != shape:
        m = broadcast(m, shape)
    return m


def _roots(t: Tile, seen: set[int]) -> list[Tile]:
    """The ``ptr_param`` and ``get_global`` tiles a pointer expression is built from."""
    if id(t) in seen:
        return []
    seen.add(id(t))
    if t.op in ("ptr_param", "get_global"):
        return [t]
    out: list[Tile] = []
    for a in t.args:
        if isinstance(a, Tile):
            out.extend(_roots(a, seen))
    return out


def pointer_base(x: Pointee, op: str, write: Optional[str] = None) -> tuple[Base, Format]:
    """What the pointer path addresses: ``(base, format)`` where ``base`` is a parameter's
    index or a tile of pointers; ``write`` (``pointer`` / ``atomic``) checks the roles of every
    parameter a pointer tile comes from."""
    if isinstance(x, Global):
        x = global_pointer(x)
    if isinstance(x, Param):
        if x.role == "Scalar":
            raise refuse(op, f"{x.describe()} is a value; read it with scalar()")
        if x.marker.ptr_attr == "multicast":
            raise _multicast_refusal(x.describe(), op)
        if write is not None:
            _writable(x, write, op)
        return x.index, x.format
    if isinstance(x, Tile) and isinstance(x.format, PointerType):
        if x.format.attr == "multicast":
            raise _multicast_refusal(f"the pointers {x.type}", op)
        if write is not None:
            for root in _roots(x, set()):
                if root.op == "get_global" and root.attrs["global"].constant:
                    raise refuse(
                        op,
                        f"@{root.attrs['name']} is a constant global; nothing "
                        f"writes it (make it with global_array to write it)",
                        user_loc(),
                    )
                if root.op == "ptr_param":
                    _writable(root.attrs["param"], write, op)
        return x, x.format.pointee
    raise refuse(
        op,
        f"the pointer path addresses a parameter, a global or a tile of pointers, "
        f"got {getattr(x, 'type', x)!r}",
        user_loc(),
    )


def _where(
    base: Base,
    at: Index,
    shape: Sequence[int],
    strides: Optional[Sequence[int]],
    offsets: Optional[TileLike],
    op: str,
) -> Optional[Tile]:
    """The offsets tile of an access, or None when ``base`` is already a tile of pointers."""
    if isinstance(at, Tile) and at.rank > 0:  # a tile of element offsets given as `at`
        if offsets is not None or tuple(shape) or strides is not None:
            raise refuse(
                op,
                f"at is {at.type}, a tile of offsets; give no shape, strides or offsets with it",
                user_loc(),
            )
        at, offsets = 0, at
    if isinstance(base, Tile) and base.rank > 0:
        if offsets is not None or tuple(shape) or not (isinstance(at, int) and at == 0):
            raise refuse(
                op,
                f"{base.type} already points at every element; give offsets only "
                f"with a rank-0 base pointer",
                user_loc(),
            )
        return None
    if offsets is not None:
        return _offset_tile(offsets, op)
    return _offsets(at, shape, strides, op)


def _lanes(base: Base, offs: Optional[Tile]) -> tuple[int, ...]:
    if offs is None:
        assert isinstance(base, Tile)  # only a tile of pointers goes without offsets
        return base.shape
    return offs.shape


def load(
    x: Pointee,
    at: Index = 0,
    shape: Sequence[int] = (),
    strides: Optional[Sequence[int]] = None,
    *,
    offsets: Optional[Tile] = None,
    mask: Optional[TileLike] = None,
    padding: Number = 0,
    **options: Any,
) -> Effect:
    """Read through the pointer path (yield it): a tile of ``shape`` starting at element ``at``
    with element ``strides`` (row-major by default), or at explicit element ``offsets`` (a
    tile; also accepted as ``at``), of a parameter, global or base pointer ``x``; or the
    elements a tile of pointers ``x`` points at.  Masked-off lanes read ``padding``."""
    base, fmt = pointer_base(x, "load")
    offs = _where(base, at, shape, strides, offsets, "load")
    lanes = _lanes(base, offs)
    m = _mask_tile(mask, lanes, "load")
    pad = constant(padding, fmt, lanes) if m is not None else None
    acc = access("load", "load_ptr_tko", pointer=True, **options) if options else WEAK_ACCESS
    ttype = TileType(lanes, fmt)
    loc = user_loc(CALLER)
    return make_emit(
        "load_ptr_tko", LoadPtr(-1, base, offs, m, pad, ttype, loc, acc), ttype, loc, ()
    )


def store(
    x: Pointee,
    at: Index,
    value: TileLike,
    strides: Optional[Sequence[int]] = None,
    *,
    offsets: Optional[Tile] = None,
    mask: Optional[TileLike] = None,
    **options: Any,
) -> Effect:
    """Write ``value`` through the pointer path (yield it): into a Shared parameter, a
    writable global or a tile of pointers ``x``, starting at element ``at`` with element
    ``strides`` (the tile's own row-major layout by default), or at explicit element
    ``offsets`` (a tile; also accepted as ``at``); only lanes where ``mask`` holds are
    written."""
    base, fmt = pointer_base(x, "store", write="pointer")
    value = as_tile(value, constant(0, fmt), "store")
    if value.format != fmt:
        raise refuse("store", f"value is {value.type} and the destination holds {fmt}")
    shape = value.shape
    if (
        (isinstance(base, Tile) and base.rank)
        or (isinstance(at, Tile) and at.rank)
        or offsets is not None
    ):
        shape = ()
    offs = _where(base, at, shape, strides, offsets, "store")
    lanes = _lanes(base, offs)
    if value.shape != lanes:
        value = broadcast(value, lanes)
    acc = access("store", "store_ptr_tko", pointer=True, **options) if options else WEAK_ACCESS
    m = _mask_tile(mask, lanes, "store")
    loc = user_loc()
    return make_emit("store_ptr_tko", StorePtr(base, offs, value, m, loc, acc), None, loc, ())


def _atomic_operands(
    base: Base, fmt: Format, offsets: Optional[TileLike], values: Iterable[TileLike], op: str
) -> tuple[Optional[Tile], list[Tile], tuple[int, ...]]:
    offs = None if isinstance(base, Tile) and base.rank else _offset_tile(offsets, op)
    # (plain loops, not comprehensions: a comprehension is a function object per call)
    vals: list[Tile] = []
    for v in values:
        vals.append(as_tile(v, constant(0, fmt), op))
    shapes = [_lanes(base, offs)]
    for v in vals:
        if v.format != fmt:
            raise refuse(op, f"value is {v.type} and the destination holds {fmt}", user_loc())
        shapes.append(v.shape)
    try:
        shape = widen_many(shapes)
    except RuleError as err:
        raise refuse(op, f"offsets and values {', '.join(map(str, shapes))}: {err}") from None
    if offs is not None and offs.shape != shape:
        offs = broadcast(offs, shape)
    if offs is None and isinstance(base, Tile) and base.shape != shape:  # (a tile of pointers)
        raise refuse(op, f"values of shape {list(shape)} for {base.type}", user_loc())
    widened: list[Tile] = []
    for v in vals:
        widened.append(broadcast(v, shape) if v.shape != shape else v)
    return offs, widened, shape


def atomic(
    mode: str,
    x: Pointee,
    offsets: Optional[TileLike],
    value: TileLike,
    mask: Optional[TileLike] = None,
    *,
    ordering: str = "relaxed",
    scope: str = "device",
) -> Effect:
    """``atomic_rmw_tko`` of ``mode`` (and, or, xor, add, addf, max, min, umax, umin, xchg) at
    element ``offsets`` of ``x`` (a Shared parameter, a writable global, or a base pointer;
    ``offsets`` is None for a tile of pointers) (yield it); answers the values each lane found."""
    op = "atomic_rmw_tko"
    base, fmt = pointer_base(x, op, write="atomic")
    try:
        check_atomic(op, mode, fmt, ordering, scope)
    except RuleError as err:
        raise refuse(op, str(err), user_loc()) from None
    offs, (val,), shape = _atomic_operands(base, fmt, offsets, [value], op)
    ttype = shared_tile_type(shape, fmt)
    m = _mask_tile(mask, shape, op)
    loc = user_loc()
    atomic_ = Atomic(-1, base, mode, offs, val, m, ttype, loc, ordering, scope)
    return make_emit(op, atomic_, ttype, loc, ())


def atomic_add(
    x: Pointee,
    offsets: Optional[TileLike],
    value: TileLike,
    mask: Optional[TileLike] = None,
    **options: Any,
) -> Effect:
    """Add ``value`` at element ``offsets`` of the Shared ``x`` atomically (yield it)."""
    _base, fmt = pointer_base(x, "atomic_rmw_tko")
    mode = "addf" if fmt.is_float else "add"
    return atomic(mode, x, offsets, value, mask, **options)


def atomic_cas(
    x: Pointee,
    offsets: Optional[TileLike],
    compare: TileLike,
    value: TileLike,
    mask: Optional[TileLike] = None,
    *,
    ordering: str = "relaxed",
    scope: str = "device",
) -> Effect:
    """Where the element at ``offsets`` of ``x`` equals ``compare``, make it ``value``,
    atomically (``atomic_cas_tko``) (yield it); answers the values each lane found."""
    op = "atomic_cas_tko"
    base, fmt = pointer_base(x, op, write="atomic")
    try:
        check_atomic(op, None, fmt, ordering, scope)
    except RuleError as err:
        raise refuse(op, str(err), user_loc()) from None
    offs, (cmp, val), shape = _atomic_operands(base, fmt, offsets, [compare, value], op)
    ttype = shared_tile_type(shape, fmt)
    m = _mask_tile(mask, shape, op)
    loc = user_loc()
    return Emit(
        op, AtomicCas(-1, base, offs, cmp, val, m, ttype, loc, ordering, scope), ttype, loc
    )


def global_pointer(g: Global, *, ptr_attr: Optional[str] = None) -> Tile:
    """The address of global ``g`` (``get_global``): a rank-0 tile of pointers (with 13.4's
    pointer attribute ``ptr_attr`` when given)."""
    fmt = dense_format(g.value)
    return Tile(
        "get_global",
        (),
        {"name": g.name, "global": g},
        canonical_tile_type((), canonical_pointer_type(fmt, ptr_attr_of(ptr_attr, "get_global"))),
        user_loc(),
    )
