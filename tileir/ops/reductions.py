"""Reductions and scans: the named ones, and ones with a combiner the kernel writes.

A combiner is a plain function of two arguments, ``combiner(acc, x)``: ``acc``
is what was accumulated so far and ``x`` the next element, each one rank-0
tile per operand (a tile for one operand, a tuple of tiles for several).  It is
called once, with placeholder tiles, and the tiles it returns become the
region's ``yield``; it must be pure and associative (the device combines in an
unspecified order).  ``identities`` give each operand's neutral value.

>>> from tileir.types import F32, I32
>>> from tileir.ops.shape import full, iota
>>> x = full((4, 8), 1.0, F32)
>>> reduce(x, lambda acc, v: acc + v, 0.0, dim=1).type
tile<4xf32>
>>> best, where = reduce((x, broadcast_iota(x, 1)), argmax_combiner, (-float("inf"), 2**31 - 1), dim=1)
>>> where.type
tile<4xi32>
>>> scan(iota(8), lambda acc, v: acc + v, 0, reverse=True).type
tile<8xi32>
"""

from __future__ import annotations

import inspect
import math
from typing import Any, Callable, Sequence, Union, overload

from tileir.ir.attrmap import AttrMap
from tileir.ir.memo import memo_table, remember
from tileir.ir.module import EMPTY_ATTRS, ScalarAttr, freeze_attrs
from tileir.ops.elementwise import compare
from tileir.ops.shape import broadcast, iota, reshape, where
from tileir.record.source import CALLER, user_loc
from tileir.record.tile import (
    Dims,
    Number,
    Region,
    Tile,
    TileLike,
    as_tile,
    float_identity,
    make_tile,
    reduce_dim,
    refuse,
)
from tileir.shape_rules import RuleError, normalize_dim, reduce_shape
from tileir.types import I32, Format, TileType, canonical_tile_type

__all__ = [
    "reduce",
    "scan",
    "reduce_max",
    "reduce_min",
    "reduce_sum",
    "reduce_prod",
    "argmax",
    "argmin",
    "cumsum",
    "cumprod",
    "argmax_combiner",
    "argmin_combiner",
    "broadcast_iota",
    "reduce_dims",
]

Operands = Union[Tile, Sequence[Tile]]
#: One operand's identity: a Python number (in the operand's format) or a typed scalar.
Identity = Union[Number, ScalarAttr]
#: The identities of a reduce / scan: one, or one per operand.
Identities = Union[Identity, Sequence[Identity]]
#: A combiner: ``combiner(acc, x)`` -> the next accumulator(s) (tiles, one per operand).
Combiner = Callable[[Any, Any], Any]


def _numbers(t: Tile, op: str) -> Format:
    """The format of ``t``, which a named reduction combines: numbers, not pointers."""
    fmt = t.format
    if not isinstance(fmt, Format):
        raise refuse(op, f"{op} combines numbers, got {t.type}", user_loc())
    return fmt


def reduce_dims(t: Tile, dim: Dims, op: str) -> tuple[int, ...]:
    """``dim`` (an int, a sequence of ints, or None for all) as distinct dimensions of ``t``
    in ``[0, rank)``, or a refusal that names the value."""
    if dim is None:
        return tuple(range(t.rank))
    if isinstance(dim, (list, tuple)):
        dims = tuple(reduce_dim(t, d, op) for d in dim)
        if len(set(dims)) != len(dims):
            raise refuse(op, f"dims {list(dim)} name one dimension of {t.type} twice", user_loc())
        return dims
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise refuse(
            op,
            f"dim must be an int, a tuple of ints or None (all dimensions) of {t.type}, "
            f"got {dim!r}",
            user_loc(),
        )
    return (reduce_dim(t, dim, op),)


def _named(combiner: str, t: TileLike, dim: Dims, keepdims: bool) -> Tile:
    # (the op's name made only for the calls that may refuse: the usual reduce of one tile
    # along one dimension builds no string)
    if not isinstance(t, Tile):
        t = as_tile(t, None, f"reduce_{combiner}")
    if isinstance(dim, int) and not isinstance(dim, bool):
        return _named_one(combiner, t, dim, keepdims)
    dims = reduce_dims(t, dim, f"reduce_{combiner}")
    if not dims:  # a rank-0 tile, or no dimensions named: nothing to combine
        return t
    # one reduce per dimension, the highest first, so the lower ones keep their numbers
    r = t
    for d in sorted(dims, reverse=True):
        r = _named_one(combiner, r, d, False)
    if keepdims:
        kept = tuple(1 if i in dims else n for i, n in enumerate(t.shape))
        r = Tile("reshape", (r,), {}, t.type.with_shape(kept), r.loc)
    return r


def _named_one(combiner: str, t: Tile, dim: int, keepdims: bool) -> Tile:
    d = reduce_dim(t, dim)
    ttype = t.type
    shape = reduce_shape(ttype.shape, d, False)
    attrs_ = _named_attrs(combiner, d, _numbers(t, "reduce"))
    r = make_tile("reduce", (t,), attrs_, ttype.with_shape(shape), user_loc(CALLER))
    if keepdims:
        kept = ttype.with_shape(reduce_shape(ttype.shape, d, True))
        r = make_tile("reshape", (r,), EMPTY_ATTRS, kept, r.loc)
    return r


def _named_attrs(combiner: str, d: int, fmt: Format) -> AttrMap:
    """The attributes of a named reduction along ``d`` of a ``fmt`` tile (its identity is
    the combiner's in that format), frozen once per combiner, dimension and format."""
    key = (combiner, d, fmt.name)
    found = _NAMED_ATTRS.get(key)
    if found is None:
        identity = float_identity(combiner, fmt)
        made = freeze_attrs({"dim": d, "combiner": combiner, "identity": identity})
        found = remember(_NAMED_ATTRS, key, made, _MAX_NAMED_ATTRS)
    return found


#: (combiner, dimension, format name) -> the attributes of that named reduction: a memo of a
#: pure function of immutable values (the combiners are the named ones: strings)
_NAMED_ATTRS: dict[tuple[str, int, str], AttrMap] = memo_table("ops.reductions: named attributes")
_MAX_NAMED_ATTRS = 1024


def reduce_max(t: Tile, dim: Dims = -1, keepdims: bool = False) -> Tile:
    """The maximum along ``dim``: one dimension (the last by default), a tuple of them, or
    None for all (a rank-0 result); ``keepdims`` keeps the reduced ones with length 1.

    >>> from tileir.ops.shape import full
    >>> from tileir.types import F32
    >>> x = full((4, 8, 2), 1.0, F32)
    >>> reduce_max(x, (0, 2)).type, reduce_max(x, None).type
    (tile<8xf32>, tile<f32>)
    >>> reduce_max(x, None, keepdims=True).type
    tile<1x1x1xf32>
    """
    return _named("max", t, dim, keepdims)


def reduce_min(t: Tile, dim: Dims = -1, keepdims: bool = False) -> Tile:
    """The minimum along ``dim`` (an int, a tuple of ints, or None for all); ``keepdims``
    keeps the reduced dimensions with length 1."""
    return _named("min", t, dim, keepdims)


def reduce_sum(t: Tile, dim: Dims = -1, keepdims: bool = False) -> Tile:
    """The sum along ``dim`` (an int, a tuple of ints, or None for all); ``keepdims``
    keeps the reduced dimensions with length 1."""
    return _named("sum", t, dim, keepdims)


def reduce_prod(t: Tile, dim: Dims = -1, keepdims: bool = False) -> Tile:
    """The product along ``dim`` (an int, a tuple of ints, or None for all); ``keepdims``
    keeps the reduced dimensions with length 1."""
    return _named("prod", t, dim, keepdims)


# ----------------------------------------------------------------------------- combiners


def _operands(operands: Operands, op: str) -> tuple[Tile, ...]:
    if not isinstance(operands, (Tile, tuple, list)):
        raise refuse(op, f"operands are a tile or a tuple of tiles, got {operands!r}", user_loc())
    xs = (operands,) if isinstance(operands, Tile) else tuple(operands)
    if not xs or not all(isinstance(x, Tile) for x in xs):
        raise refuse(op, f"operands are a tile or a tuple of tiles, got {operands!r}", user_loc())
    if any(x.shape != xs[0].shape for x in xs):
        raise refuse(
            op,
            f"operands must share one shape, got {', '.join(str(x.type) for x in xs)}",
            user_loc(),
        )
    if any(not isinstance(x.format, Format) for x in xs):
        raise refuse(
            op, f"{op} combines numbers, got {', '.join(str(x.type) for x in xs)}", user_loc()
        )
    return xs


def _identities(identities: Identities, xs: tuple[Tile, ...], op: str) -> tuple[ScalarAttr, ...]:
    given = identities if isinstance(identities, (tuple, list)) else (identities,)
    if len(given) != len(xs):
        raise refuse(op, f"{len(given)} identities for {len(xs)} operands", user_loc())
    out: list[ScalarAttr] = []
    for value, x in zip(given, xs):
        fmt = x.format
        assert isinstance(fmt, Format)  # as _operands checked
        if isinstance(value, ScalarAttr):
            if value.format != fmt:
                raise refuse(op, f"identity {value!r} is not a {fmt}", user_loc())
            out.append(value)
            continue
        try:
            out.append(ScalarAttr.of(fmt, value))
        except (TypeError, ValueError, OverflowError) as err:
            raise refuse(
                op, f"identity {value!r} is not a {x.format}: {err}", user_loc()
            ) from None
    return tuple(out)


def _region(op: str, xs: tuple[Tile, ...], key: tuple, combiner: Combiner) -> Region:
    """Call ``combiner`` on placeholders; its results are the region's yields."""
    if not callable(combiner):
        raise refuse(
            op, f"combiner must be a function (acc, x) -> next acc, got {combiner!r}", user_loc()
        )
    args: list[Tile] = []
    for i, x in enumerate(xs):
        scalar = canonical_tile_type((), x.format)
        args.append(Tile("region_arg", (), {"slot": 2 * i, "of": key}, scalar))
        args.append(Tile("region_arg", (), {"slot": 2 * i + 1, "of": key}, scalar))
    elems, accs = args[0::2], args[1::2]
    one = len(xs) == 1
    out = combiner(accs[0] if one else tuple(accs), elems[0] if one else tuple(elems))
    if inspect.isgenerator(out):
        out.close()
        raise refuse(
            op, "the combiner yields effects; a combiner is a pure function of tiles", user_loc()
        )
    outs = (out,) if one and not isinstance(out, (tuple, list)) else tuple(out)
    if len(outs) != len(xs):
        raise refuse(
            op, f"the combiner returns {len(outs)} value(s) for {len(xs)} operand(s)", user_loc()
        )
    yields: list[Tile] = []
    for i, (y, x) in enumerate(zip(outs, xs)):
        y = as_tile(y, accs[i], op)
        if y.type != TileType((), x.format):
            raise refuse(
                op,
                f"the combiner's result {i} is {y.type}; operand {i} needs tile<{x.format}>",
                user_loc(),
            )
        yields.append(y)
    return Region(tuple(args), tuple(yields))


def _results(node: Tile, types: Sequence[TileType]) -> Union[Tile, tuple[Tile, ...]]:
    if len(types) == 1:
        return node
    return tuple(Tile("result", (node,), {"index": i}, t, node.loc) for i, t in enumerate(types))


@overload
def reduce(
    operands: Tile,
    combiner: Combiner,
    identities: Identities,
    dim: int = -1,
    keepdims: bool = False,
) -> Tile: ...


@overload
def reduce(
    operands: Sequence[Tile],
    combiner: Combiner,
    identities: Identities,
    dim: int = -1,
    keepdims: bool = False,
) -> Union[Tile, tuple[Tile, ...]]: ...


def reduce(
    operands: Operands,
    combiner: Combiner,
    identities: Identities,
    dim: int = -1,
    keepdims: bool = False,
) -> Union[Tile, tuple[Tile, ...]]:
    """Reduce ``operands`` (a tile, or a tuple of tiles of one shape) along ``dim`` with a
    combiner the kernel writes (``reduce``): ``combiner(acc, x)`` returns the next
    accumulator(s).  Answers a tile per operand (a tuple for several)."""
    xs = _operands(operands, "reduce")
    d = _dim(xs[0], dim, "reduce")
    idents = _identities(identities, xs, "reduce")
    region = _region("reduce", xs, ("reduce", xs, d), combiner)
    shape = reduce_shape(xs[0].shape, d, False)
    types = [x.type.with_shape(shape) for x in xs]
    node = Tile(
        "reduce",
        xs,
        {"dim": d, "identities": idents, "region": region},
        types[0],
        user_loc(CALLER),
    )
    out = _results(node, types)
    if keepdims:
        kept = reduce_shape(xs[0].shape, d, True)
        wrap = [
            Tile("reshape", (r,), {}, r.type.with_shape(kept), r.loc)
            for r in (out if isinstance(out, tuple) else (out,))
        ]
        out = wrap[0] if len(wrap) == 1 else tuple(wrap)
    return out


@overload
def scan(
    operands: Tile,
    combiner: Combiner,
    identities: Identities,
    dim: int = -1,
    reverse: bool = False,
) -> Tile: ...


@overload
def scan(
    operands: Sequence[Tile],
    combiner: Combiner,
    identities: Identities,
    dim: int = -1,
    reverse: bool = False,
) -> Union[Tile, tuple[Tile, ...]]: ...


def scan(
    operands: Operands,
    combiner: Combiner,
    identities: Identities,
    dim: int = -1,
    reverse: bool = False,
) -> Union[Tile, tuple[Tile, ...]]:
    """The inclusive prefix combination of ``operands`` along ``dim`` (``scan``; from the end
    when ``reverse``), with ``combiner(acc, x)`` as in :func:`reduce`.  Answers tiles of the
    operands' shape."""
    xs = _operands(operands, "scan")
    d = _dim(xs[0], dim, "scan")
    idents = _identities(identities, xs, "scan")
    region = _region("scan", xs, ("scan", xs, d, bool(reverse)), combiner)
    types = [x.type for x in xs]
    node = Tile(
        "scan",
        xs,
        {"dim": d, "reverse": bool(reverse), "identities": idents, "region": region},
        types[0],
        user_loc(),
    )
    return _results(node, types)


def _dim(x: Tile, dim: int, op: str) -> int:
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise refuse(op, f"dim must be an int (a dimension of {x.type}), got {dim!r}", user_loc())
    try:
        return normalize_dim(dim, x.rank)
    except RuleError as err:
        raise refuse(op, f"{x.type}: {err}", user_loc()) from None


# ----------------------------------------------------------------------------- built on them


def broadcast_iota(x: Tile, dim: int) -> Tile:
    """The index along ``dim`` of every element of ``x``'s shape, as ``i32``."""
    d = _dim(x, dim, "iota")
    lane = iota(x.shape[d], I32)
    if x.rank > 1:
        lane = reshape(lane, tuple(n if k == d else 1 for k, n in enumerate(x.shape)))
    return broadcast(lane, x.shape) if lane.shape != x.shape else lane


def _arg_combiner(
    better: str,
) -> Callable[[tuple[Tile, Tile], tuple[Tile, Tile]], tuple[Tile, Tile]]:
    def combine(acc: tuple[Tile, Tile], x: tuple[Tile, Tile]) -> tuple[Tile, Tile]:
        (va, ia), (vb, ib) = acc, x
        wins = compare(better, vb, va)
        tie = compare("equal", vb, va) & compare("less_than", ib, ia)
        take = wins | tie
        return where(take, vb, va), where(take, ib, ia)

    combine.__name__ = f"arg{'max' if better == 'greater_than' else 'min'}_combiner"
    combine.__doc__ = "(value, index) pairs: the better value, the lower index on a tie"
    return combine


argmax_combiner = _arg_combiner("greater_than")
argmin_combiner = _arg_combiner("less_than")


def _arg(x: TileLike, dim: int, keepdims: bool, largest: bool) -> Tile:
    x = as_tile(x, None, "reduce")
    fmt = _numbers(x, "reduce")
    worst: Number
    if fmt.is_float:
        worst = -math.inf if largest else math.inf
    else:
        worst = float_identity("max" if largest else "min", fmt)
    combiner = argmax_combiner if largest else argmin_combiner
    _value, index = reduce(
        (x, broadcast_iota(x, dim)), combiner, (worst, 2**31 - 1), dim, keepdims
    )
    return index


def argmax(x: Tile, dim: int = -1, keepdims: bool = False) -> Tile:
    """The index (``i32``) of the largest element along ``dim`` (the first on a tie), by a
    two-operand ``reduce`` over (value, index)."""
    return _arg(x, dim, keepdims, True)


def argmin(x: Tile, dim: int = -1, keepdims: bool = False) -> Tile:
    """The index (``i32``) of the smallest element along ``dim`` (the first on a tie)."""
    return _arg(x, dim, keepdims, False)


def cumsum(x: Tile, dim: int = -1, reverse: bool = False) -> Tile:
    """The running sum along ``dim`` (``scan`` with addition)."""
    x = as_tile(x, None, "scan")
    return scan(x, lambda acc, v: acc + v, 0, dim, reverse)


def cumprod(x: Tile, dim: int = -1, reverse: bool = False) -> Tile:
    """The running product along ``dim`` (``scan`` with multiplication)."""
    x = as_tile(x, None, "scan")
    return scan(x, lambda acc, v: acc * v, 1, dim, reverse)
