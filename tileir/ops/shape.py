"""Pure construction and shape operations, the grid, ``select``, ``mma`` and ``assume``.

>>> from tileir.types import F16, F32, I32
>>> t = iota(8)
>>> extract(reshape(t, (2, 4)), [1, 0], (1, 4)).type
tile<1x4xi32>
>>> insert(zeros((4, 4), I32), full((2, 4), 7, I32), [1, 0]).type
tile<4x4xi32>
>>> mma(full((16, 16), 1.0, F16), full((16, 16), 1.0, F16), 0.0, fast_acc=True).attrs["fast_acc"]
True
>>> assume_div_by(block_id(0) * 16, 16).attrs["predicate"]
DivBy(divisor=16, every=None, along=None)
"""

from __future__ import annotations

from typing import Optional, Sequence, Union

from tileir.ir.module import EMPTY_ATTRS, Bounded, DivBy, Loc, SameElements, freeze_attrs
from tileir.ops.conversions import convert
from tileir.record.markers import Param
from tileir.record.source import CALLER, user_loc
from tileir.record.tile import (
    Number,
    Tile,
    TileLike,
    _constant,
    _widen_to,
    as_tile,
    constant,
    drop_defaults,
    make_tile,
    refuse,
    shape_tuple,
)
from tileir.shape_rules import (
    RuleError,
    check_mma,
    is_power_of_two,
    mma_accumulators,
    mma_table_text,
    widen_many,
)
from tileir.types import (
    F32,
    I1,
    I8,
    I32,
    MAX_TILE_ELEMENTS,
    Format,
    PointerType,
    TileType,
    canonical_tile_type,
    format_named,
    shared_tile_type,
)

__all__ = [
    "block_id",
    "num_blocks",
    "scalar",
    "zeros",
    "full",
    "iota",
    "arange",
    "broadcast",
    "reshape",
    "permute",
    "transpose",
    "cat",
    "extract",
    "insert",
    "where",
    "mma",
    "mma_scaled",
    "assume_div_by",
    "assume_bounded",
    "assume_same_elements",
    "check_shape",
    "index_tile",
]

Index = Union[int, Tile]


def index_tile(i: Index, op: str, loc: Optional[Loc] = None) -> Tile:
    """``i`` as a rank-0 ``i32`` tile (an int, or an integer tile converted); ``loc``: the
    user's location, when the caller has it (an int's constant is made there)."""
    if type(i) is int:  # (the constant refuses an int outside i32, as as_tile's would)
        return _constant(i, I32, (), loc)
    t = as_tile(i, None, op)
    fmt = t.type.element
    if t.type.shape or not isinstance(fmt, Format) or not fmt.is_int:
        raise refuse(op, f"an index is a rank-0 integer tile or an int, got {t.type}", user_loc())
    if fmt is not I32 and fmt != I32:  # (most formats are one shared object)
        t = convert(t, I32)
    return t


def check_shape(shape: Sequence[int], op: str) -> None:
    """Tile dimensions are positive powers of two, and a tile holds at most 2**24 elements."""
    n = 1
    for d, size in enumerate(shape):
        if not isinstance(size, int) or isinstance(size, bool) or not is_power_of_two(size):
            raise refuse(
                op,
                f"shape {list(shape)} has {size!r} in dimension {d}; tile "
                f"dimensions are powers of two",
                user_loc(),
            )
        n *= size
    if n > MAX_TILE_ELEMENTS:
        raise refuse(
            op,
            f"shape {list(shape)} holds {n} elements, more than the "
            f"{MAX_TILE_ELEMENTS} a tile may hold",
            user_loc(),
        )


# ----------------------------------------------------------------------------- grid

#: the attributes of a grid query along axis 0, 1 and 2 (an int axis: a bool or a numpy
#: integer that equals one keeps its own type in the map, as before), and its type
_AXIS_ATTRS = (freeze_attrs({"axis": 0}), freeze_attrs({"axis": 1}), freeze_attrs({"axis": 2}))
_I32_SCALAR = TileType((), I32)


def block_id(axis: int = 0) -> Tile:
    """The running block's index along grid ``axis`` (0, 1 or 2): a ``tile<i32>``."""
    if axis not in (0, 1, 2):
        raise refuse("get_tile_block_id", f"grid axis {axis!r} is not 0, 1 or 2")
    attrs_ = _AXIS_ATTRS[axis] if type(axis) is int else freeze_attrs({"axis": axis})
    return make_tile("block_id", (), attrs_, _I32_SCALAR, user_loc(2))


def num_blocks(axis: int = 0) -> Tile:
    """How many blocks the grid has along ``axis``: a ``tile<i32>`` (``get_num_tile_blocks``)."""
    if axis not in (0, 1, 2):
        raise refuse("get_num_tile_blocks", f"grid axis {axis!r} is not 0, 1 or 2")
    attrs_ = _AXIS_ATTRS[axis] if type(axis) is int else freeze_attrs({"axis": axis})
    return make_tile("num_blocks", (), attrs_, _I32_SCALAR, user_loc(2))


def scalar(p: Param) -> Tile:
    """The value of a ``Scalar`` parameter: a rank-0 tile."""
    if not isinstance(p, Param):
        raise refuse(
            "scalar", f"expected a kernel parameter, got {type(p).__name__} {p!r}", user_loc()
        )
    if p.role != "Scalar":
        raise refuse("scalar", f"{p.describe()} is a buffer; scalar() reads a Scalar parameter")
    if p.value is not None:  # fixed when recorded (tileir.compose.specialize): a constant
        return constant(p.value, p.format, ())
    ttype = canonical_tile_type((), p.format)
    return make_tile("param", (), freeze_attrs({"index": p.index}), ttype, user_loc(CALLER))


# ----------------------------------------------------------------------------- construction


def zeros(like: Union[Param, Sequence[int]], fmt: Optional[Format] = None) -> Tile:
    """Zeros shaped like one cell of the parameter ``like`` (in its format), or of a shape."""
    if isinstance(like, Param):
        if like.cells is None:
            raise refuse(
                "constant",
                f"{like.describe()} has no cells to shape zeros() after; give a shape",
                user_loc(),
            )
        return constant(0, fmt or like.format, like.cells.tile)
    return full(like, 0, fmt or F32)


def full(shape: Sequence[int], value: Number, fmt: Format = F32) -> Tile:
    """A tile of ``shape`` holding ``value`` everywhere, in ``fmt``."""
    shape = shape_tuple(shape, "constant")
    check_shape(shape, "constant")
    return constant(value, fmt, shape)


def iota(n: int, fmt: Format = I32) -> Tile:
    """The rank-1 tile ``[0, 1, ..., n-1]`` (i8, i16, i32 or i64)."""
    return iota_at(n, fmt, user_loc(CALLER))


def iota_at(n: int, fmt: Format, loc: Optional[Loc]) -> Tile:
    """:func:`iota` made at ``loc``, the user's location (for ops that have it already)."""
    check_shape((n,), "iota")
    if not isinstance(fmt, Format) or fmt.name not in ("i8", "i16", "i32", "i64"):
        raise refuse("iota", f"iota makes i8, i16, i32 or i64 tiles, not {fmt}", user_loc())
    return make_tile("iota", (), EMPTY_ATTRS, shared_tile_type((n,), fmt), loc)


arange = iota


def broadcast(t: TileLike, shape: Sequence[int]) -> Tile:
    """``t`` widened to ``shape``: its dimensions of length 1 (or a rank-0 tile) repeat."""
    t = as_tile(t, None, "broadcast")
    shape = shape_tuple(shape, "broadcast")
    check_shape(shape, "broadcast")
    if t.rank not in (0, len(shape)) or not _widens(t.shape, shape):
        raise refuse(
            "broadcast",
            f"{t.type} does not widen to {list(shape)}: only dimensions of "
            f"length 1 (or a rank-0 tile) widen",
        )
    return _widen_to(t, shape, "broadcast")


def _widens(have: tuple[int, ...], want: tuple[int, ...]) -> bool:
    """Each dimension of ``have`` (of ``want``'s rank, or rank 0) is 1 or ``want``'s."""
    # (a loop by index: any() of a generator over zip() is three C routines of its own)
    for d, a in enumerate(have):
        if a != 1 and a != want[d]:
            return False
    return True


def reshape(t: Tile, shape: Sequence[int]) -> Tile:
    """``t``'s elements in row-major order as a tile of ``shape`` (same element count)."""
    return reshape_at(t, shape, user_loc(CALLER))


def reshape_at(t: Tile, shape: Sequence[int], loc: Optional[Loc]) -> Tile:
    """:func:`reshape` made at ``loc``, the user's location (for ops that have it already)."""
    t = as_tile(t, None, "reshape")
    shape = shape_tuple(shape, "reshape")
    check_shape(shape, "reshape")
    n = 1
    for d in shape:
        n *= d
    if n != t.type.size:
        raise refuse("reshape", f"{t.type} has {t.type.size} elements and {list(shape)} holds {n}")
    if shape == t.shape:
        return t
    return make_tile("reshape", (t,), EMPTY_ATTRS, t.type.with_shape(shape), loc)


def permute(t: Tile, permutation: Sequence[int]) -> Tile:
    """``t``'s dimensions reordered: result dimension ``i`` is ``t``'s dimension ``permutation[i]``."""
    t = as_tile(t, None, "permute")
    perm = shape_tuple(permutation, "permute", "the permutation")
    if t.rank < 2 or sorted(perm) != list(range(t.rank)):
        raise refuse("permute", f"{list(perm)} is not a permutation of {t.type}'s dimensions")
    return Tile(
        "permute",
        (t,),
        {"permutation": perm},
        t.type.with_shape(tuple(t.shape[i] for i in perm)),
        user_loc(),
    )


def transpose(t: Tile) -> Tile:
    """The two dimensions of a matrix swapped."""
    return as_tile(t, None, "permute").transpose()


def cat(lhs: Tile, rhs: Tile, dim: int = 0) -> Tile:
    """``lhs`` and ``rhs`` joined along ``dim`` (the other dimensions must agree)."""
    lhs, rhs = as_tile(lhs, None, "cat"), as_tile(rhs, None, "cat")
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise refuse("cat", f"dim must be an int, got {dim!r}")
    if (
        lhs.format != rhs.format
        or lhs.rank != rhs.rank
        or lhs.rank == 0
        or any(a != b for i, (a, b) in enumerate(zip(lhs.shape, rhs.shape)) if i != dim % lhs.rank)
    ):
        raise refuse("cat", f"{lhs.type} and {rhs.type} do not join along dim {dim}")
    d = dim % lhs.rank
    shape = tuple(a + b if i == d else a for i, (a, b) in enumerate(zip(lhs.shape, rhs.shape)))
    check_shape(shape, "cat")
    return Tile("cat", (lhs, rhs), {"dim": d}, lhs.type.with_shape(shape), user_loc(CALLER))


def _block_index(index: Sequence[Index], rank: int, op: str, what: str) -> tuple[Tile, ...]:
    if isinstance(index, (Tile, int)) or not hasattr(index, "__iter__"):
        raise refuse(op, f"{what} takes a sequence of {rank} indices, got {index!r}", user_loc())
    index = list(index)
    if len(index) != rank:
        raise refuse(
            op, f"{what} takes {rank} indices (one per dimension), got {len(index)}", user_loc()
        )
    return tuple(index_tile(i, op) for i in index)


def extract(source: Tile, index: Sequence[Index], shape: Sequence[int]) -> Tile:
    """The block of ``shape`` at block index ``index`` of ``source`` (``index[d]`` counts
    blocks of ``shape[d]``; each must divide the source's dimension) (``extract``)."""
    source = as_tile(source, None, "extract")
    shape = shape_tuple(shape, "extract")
    check_shape(shape, "extract")
    if len(shape) != source.rank or any(s % d for s, d in zip(source.shape, shape)):
        raise refuse(
            "extract",
            f"a block of {list(shape)} does not tile {source.type} (same "
            f"rank, dimensions that divide)",
            user_loc(),
        )
    idx = _block_index(index, source.rank, "extract", str(source.type))
    return Tile("extract", (source, *idx), {}, source.type.with_shape(shape), user_loc(CALLER))


def insert(dest: Tile, piece: Tile, index: Sequence[Index]) -> Tile:
    """``dest`` with ``piece`` put at block index ``index`` (counted in blocks of the piece's
    shape) (``insert``, 13.4)."""
    dest, piece = as_tile(dest, None, "insert"), as_tile(piece, None, "insert")
    if (
        piece.rank != dest.rank
        or piece.format != dest.format
        or any(d % s for s, d in zip(piece.shape, dest.shape))
    ):
        raise refuse(
            "insert",
            f"a piece of {piece.type} does not tile {dest.type} (same rank "
            f"and format, dimensions that divide)",
            user_loc(),
        )
    idx = _block_index(index, dest.rank, "insert", str(dest.type))
    return Tile("insert", (piece, dest, *idx), {}, dest.type, user_loc(CALLER))


def where(mask: Tile, if_true: TileLike, if_false: TileLike) -> Tile:
    """Pick ``if_true`` where ``mask`` (an i1 tile) holds, ``if_false`` elsewhere (``select``)."""
    if not isinstance(mask, Tile) or mask.format != I1:
        raise refuse("select", f"the mask must be an i1 tile, got {mask!r}")
    like = (
        if_true if isinstance(if_true, Tile) else if_false if isinstance(if_false, Tile) else None
    )
    a = as_tile(if_true, like, "select")
    b = as_tile(if_false, a, "select")
    if a.format != b.format:
        raise refuse("select", f"the values are {a.type} and {b.type}: formats differ")
    try:
        shape = widen_many([mask.shape, a.shape, b.shape])
    except RuleError as err:
        raise refuse("select", f"mask {mask.type}, values {a.type} and {b.type}: {err}") from None
    mask, a, b = (broadcast(x, shape) if x.shape != shape else x for x in (mask, a, b))
    return Tile("select", (mask, a, b), {}, a.type, user_loc(CALLER))


# ----------------------------------------------------------------------------- mma


def _signs(signed: Union[bool, Sequence[bool]]) -> tuple[str, ...]:
    pair = (signed, signed) if isinstance(signed, bool) else tuple(signed)
    if len(pair) != 2 or not all(isinstance(s, bool) for s in pair):
        raise refuse(
            "mmai", f"signed is a bool or a (lhs, rhs) pair of bools, got {signed!r}", user_loc()
        )
    return tuple("signed" if s else "unsigned" for s in pair)


def mma(
    a: Tile,
    b: Tile,
    acc: TileLike,
    *,
    fast_acc: bool = False,
    signed: Union[bool, Sequence[bool]] = True,
) -> Tile:
    """``a @ b + acc`` on the tensor cores (``mmaf``; ``mmai`` for i8).  ``acc`` may be a Python
    number: a constant accumulator of the product's shape in the widest format the pair allows.
    ``fast_acc`` (mmaf, 13.3) trades accumulation precision for speed; ``signed`` (mmai) is a
    bool or a ``(lhs, rhs)`` pair."""
    if not isinstance(a, Tile) or not isinstance(b, Tile):
        raise refuse("mmaf", f"mma takes tiles, got {a!r} and {b!r}")
    op = "mmai" if a.format == I8 else "mmaf"
    if isinstance(a.format, PointerType) or isinstance(b.format, PointerType):
        raise refuse(op, f"mma multiplies numbers; lhs {a.type}, rhs {b.type}", user_loc())
    if a.rank not in (2, 3) or b.rank != a.rank:
        raise refuse(
            op,
            f"mma takes rank-2 (or batched rank-3) tiles of one rank, got lhs {a.type} and "
            f"rhs {b.type}",
            user_loc(),
        )
    if not isinstance(acc, Tile):
        allowed = mma_accumulators(a.format) or ("f32",)
        acc = constant(acc, format_named(allowed[-1]), a.shape[:-2] + (a.shape[-2], b.shape[-1]))
    if isinstance(acc.format, PointerType):
        raise refuse(op, f"mma accumulates numbers; acc {acc.type}", user_loc())
    try:
        check_mma(a.shape, a.format, b.shape, b.format, acc.shape, acc.format)
    except RuleError as err:
        raise refuse(op, f"lhs {a.type}, rhs {b.type}, acc {acc.type}: {err}") from None
    if op == "mmai":
        if fast_acc:
            raise refuse(
                op, f"fast_acc is for float products (mmaf); the factors are {a.type}", user_loc()
            )
        lhs, rhs = _signs(signed)
        attrs_: dict[str, object] = {"signedness_lhs": lhs, "signedness_rhs": rhs}
    else:
        if signed is not True:
            raise refuse(op, "signed is for i8 products (mmai)", user_loc())
        attrs_ = {"fast_acc": bool(fast_acc)}
    return make_tile(
        op, (a, b, acc), freeze_attrs(drop_defaults(op, attrs_)), acc.type, user_loc(CALLER)
    )


def matmul(a: Tile, b: Tile) -> Tile:
    """``a @ b``: :func:`mma` into a fresh zero accumulator in the widest format the pair
    allows (f16 x f16 into f32, i8 x i8 into i32, ...).

    >>> from tileir.types import F16
    >>> (full((16, 32), 1.0, F16) @ full((32, 8), 1.0, F16)).type
    tile<16x8xf32>
    """
    if not isinstance(a, Tile) or not isinstance(b, Tile):
        raise refuse(
            "mmaf",
            f"`@` multiplies two tiles, got {a!r} and {b!r} (the dialect's pairs: "
            f"{mma_table_text()})",
            user_loc(),
        )
    return mma(a, b, 0)


#: (factor format, scale format) -> the block sizes (elements along K per scale) allowed
#: (tileirdisasm 13.4.92 verifies these; probed pair by pair)
SCALED_BLOCKS = {
    ("f8E4M3FN", "f8E8M0FNU"): (32,),
    ("f8E5M2", "f8E8M0FNU"): (32,),
    ("f4E2M1FN", "f8E4M3FN"): (16,),
    ("f4E2M1FN", "f8E8M0FNU"): (16, 32),
    ("f4E2M1FN", "fnv8E5M3FNU"): (16, 32),
}


def _scaled_table() -> str:
    return "; ".join(
        f"{f} with {s} scales: blocks of {' or '.join(map(str, b))}"
        for (f, s), b in SCALED_BLOCKS.items()
    )


def mma_scaled(a: Tile, b: Tile, acc: TileLike, a_scale: Tile, b_scale: Tile) -> Tile:
    """Block-scaled ``(a * a_scale) @ (b * b_scale) + acc`` into f32 (``mmaf_scaled``, 13.3).

    ``a`` (M x K) and ``b`` (K x N) share one format; ``a_scale`` is M x (K / B) and
    ``b_scale`` (K / B) x N of one scale format: each scale multiplies a block of B
    consecutive elements along K.  The pairs and block sizes: f8E4M3FN or f8E5M2 with
    f8E8M0FNU scales, B = 32 (MX); f4E2M1FN with f8E4M3FN scales, B = 16 (NVFP4), or with
    f8E8M0FNU / fnv8E5M3FNU scales, B = 16 or 32.  ``acc`` may be a Python number.
    """
    op = "mmaf_scaled"
    tiles = [x for x in (a, b, a_scale, b_scale)]
    if not all(isinstance(x, Tile) for x in tiles):
        raise refuse(op, f"mma_scaled takes tiles, got {tiles!r}", user_loc())
    if a.rank != 2 or b.rank != 2:
        raise refuse(
            op, f"mma_scaled takes matrices, got lhs {a.type} and rhs {b.type}", user_loc()
        )
    if not isinstance(acc, Tile):
        acc = constant(acc, F32, a.shape[:-2] + (a.shape[-2], b.shape[-1]))
    types = f"lhs {a.type}, rhs {b.type}, acc {acc.type}, scales {a_scale.type}, {b_scale.type}"
    if (
        b.format != a.format
        or a_scale.format != b_scale.format
        or not isinstance(a.format, Format)
        or not isinstance(a_scale.format, Format)
        or (a.format.name, a_scale.format.name) not in SCALED_BLOCKS
    ):
        raise refuse(
            op,
            f"{types}: the factors share one format and the scales another, as {_scaled_table()}",
            user_loc(),
        )
    if acc.format != F32:
        raise refuse(op, f"{types}: mma_scaled accumulates in f32", user_loc())
    if (
        any(x.rank != 2 for x in (a, b, acc, a_scale, b_scale))
        or a.shape[1] != b.shape[0]
        or acc.shape != (a.shape[0], b.shape[1])
    ):
        raise refuse(
            op, f"{types}: the factors are M x K and K x N, the accumulator M x N", user_loc()
        )
    blocks = a_scale.shape[1]
    if (
        a_scale.shape != (a.shape[0], blocks)
        or b_scale.shape != (blocks, b.shape[1])
        or a.shape[1] % blocks
    ):
        raise refuse(op, f"{types}: the scales must be M x (K/B) and (K/B) x N", user_loc())
    allowed = SCALED_BLOCKS[(a.format.name, a_scale.format.name)]
    if a.shape[1] // blocks not in allowed:
        raise refuse(
            op, f"{types}: blocks of {a.shape[1] // blocks} along K; {_scaled_table()}", user_loc()
        )
    return Tile(op, (a, b, acc, a_scale, b_scale), {}, acc.type, user_loc(CALLER))


# ----------------------------------------------------------------------------- assume


def _assumed(x: TileLike, predicate: Union[DivBy, Bounded, SameElements], what: str) -> Tile:
    x = as_tile(x, None, "assume")
    return Tile("assume", (x,), {"predicate": predicate}, x.type, user_loc(CALLER))


def assume_div_by(
    x: TileLike, divisor: int, *, every: Optional[int] = None, along: Optional[int] = None
) -> Tile:
    """``x`` with the promise that its values (integers, or addresses of pointers) are
    multiples of ``divisor`` (a power of two); with ``every`` and ``along``, only every
    ``every``-th element along dimension ``along`` is (``assume div_by``)."""
    x = as_tile(x, None, "assume")
    ok = isinstance(x.format, PointerType) or x.format.is_int
    if not ok:
        raise refuse(
            "assume", f"div_by constrains integer or pointer tiles, not {x.type}", user_loc()
        )
    if not isinstance(divisor, int) or not is_power_of_two(divisor):
        raise refuse(
            "assume", f"div_by<{divisor!r}>: the divisor must be a power of two", user_loc()
        )
    if (every is None) != (along is None):
        raise refuse(
            "assume",
            f"div_by: `every` and `along` go together (every={every!r}, along={along!r})",
            user_loc(),
        )
    if (
        every is not None
        and along is not None  # (given with every, as just checked)
        and (x.rank == 0 or not 0 <= along < x.rank or not 0 <= every <= x.shape[along])
    ):
        raise refuse(
            "assume",
            f"div_by every {every} along {along} does not fit {x.type} "
            f"(along a dimension, every at most its length)",
            user_loc(),
        )
    return _assumed(x, DivBy(divisor, every, along), "div_by")


def assume_bounded(x: TileLike, lower: Optional[int] = None, upper: Optional[int] = None) -> Tile:
    """``x`` with the promise ``lower <= x <= upper`` (signed; None: unbounded) (``assume
    bounded``)."""
    x = as_tile(x, None, "assume")
    if not isinstance(x.format, Format) or not x.format.is_int:
        raise refuse("assume", f"bounded constrains integer tiles, not {x.type}", user_loc())
    lo, hi = -(1 << (x.format.bits - 1)), (1 << (x.format.bits - 1)) - 1
    for b in (lower, upper):
        if b is not None and not lo <= b <= hi:
            raise refuse(
                "assume",
                f"bounded<{lower}, {upper}>: a bound of {x.type} lies in [{lo}, {hi}] (signed)",
                user_loc(),
            )
    if lower is not None and upper is not None and lower > upper:
        raise refuse("assume", f"bounded<{lower}, {upper}> is empty", user_loc())
    return _assumed(x, Bounded(lower, upper), "bounded")


def assume_same_elements(x: TileLike, groups: Sequence[int]) -> Tile:
    """``x`` (integers or pointers) with the promise that along each dimension ``d`` its
    elements come in runs of ``groups[d]`` equal values (``assume same_elements``)."""
    x = as_tile(x, None, "assume")
    if not (isinstance(x.format, PointerType) or x.format.is_int):
        raise refuse(
            "assume",
            f"same_elements constrains integer or pointer tiles, not {x.type}",
            user_loc(),
        )
    groups = tuple(int(g) for g in groups)
    if len(groups) != x.rank or any(not 0 <= g <= n for g, n in zip(groups, x.shape)):
        raise refuse(
            "assume",
            f"same_elements<{list(groups)}> needs one group size per "
            f"dimension of {x.type}, each at most its length",
            user_loc(),
        )
    return _assumed(x, SameElements(groups), "same_elements")
