"""Type rules of the reduction, shape and control-flow ops (part of ``VERIFY_RULES``).

``continue`` / ``break`` / ``yield`` / ``return`` check the values they pass
against what their parent takes; the walker in tileir/verify.py has already
checked that each ends its block and sits in a region that may end with it.
"""

from __future__ import annotations

from tileir.ir.numerics import element_bytes
from tileir.ir.signatures import attr_of, operand_groups
from tileir.types import (
    I1,
    I32,
    Format,
    GatherScatterViewType,
    PartitionViewType,
    StridedViewType,
    TensorViewType,
    TileType,
)
from tileir.verify.common import int_tile, one_result, same_types, scalar_int, tile, types_text

__all__ = ["VERIFY_SHAPE_RULES"]

_VIEWS = (TensorViewType, PartitionViewType, StridedViewType, GatherScatterViewType)


# ----------------------------------------------------------------------------- reduce, scan


def _reduce_like(c, op):
    if not op.operands:
        c.fail(f"`{op.name}` needs at least one operand")
    first = tile(c, op.operands[0], "operand 0")
    for i, v in enumerate(op.operands):
        if tile(c, v, f"operand {i}").shape != first.shape:
            c.fail(f"operands must share one shape, got {types_text(op.operands)}")
    dim = attr_of(op, "dim")
    if not 0 <= dim < first.rank:
        c.fail(f"dim={dim} is not a dimension of {first}")
    n = len(op.operands)
    if len(op.results) != n:
        c.fail(f"has {len(op.results)} results for {n} operands")
    identities = attr_of(op, "identities")
    if len(identities) != n:
        c.fail(f"has {len(identities)} identities for {n} operands")
    args = op.regions[0].args
    if len(args) != 2 * n:
        c.fail(f"its region takes {len(args)} arguments; {n} operands need {2 * n}")
    for i, (v, r, ident) in enumerate(zip(op.operands, op.results, identities)):
        elem = v.type.element
        shape = v.type.shape if op.name == "scan" else v.type.shape[:dim] + v.type.shape[dim + 1 :]
        if r.type != TileType(shape, elem):
            c.fail(
                f"result {i} is {r.type}; operand {v.type} along dim={dim} gives "
                f"{TileType(shape, elem)}"
            )
        # tileirdisasm lets an f16 identity stand for a bf16 operand and the other way round
        # (the dialect's verifier makes that one exception); the value is what counts
        if ident.format != elem and {ident.format.name, elem.name} != {"f16", "bf16"}:
            c.fail(f"identity {i} is {ident.format}, operand {i} holds {elem}")
        for a in args[2 * i : 2 * i + 2]:
            if a.type != TileType((), elem):
                c.fail(f"region arguments of operand {i} must be tile<{elem}>, got {a.type}")


# ----------------------------------------------------------------------------- shapes


def _constant(c, op):
    one_result(c, op)
    t = tile(c, op.results[0], "result")
    if not isinstance(t.element, Format) or t.element.name == "i4":
        c.fail(f"a constant holds numbers (not i4 or pointers), result is {t}")
    value = attr_of(op, "value")
    if value.type != t:
        c.fail(f"value is a {value.type} constant, the result is {t}")
    one = 1 if t.element.name == "i1" else element_bytes(t.element)
    full = (t.size + 7) // 8 if t.element.name == "i1" else one * t.size
    if len(value.data) not in (one, full):
        c.fail(f"value has {len(value.data)} bytes; {t} takes {one} (a splat) or {full}")


def _iota(c, op):
    one_result(c, op)
    t = int_tile(c, op.results[0], "result")
    if t.rank != 1 or t.element.name not in ("i1", "i8", "i16", "i32", "i64"):
        c.fail(f"iota makes a rank-1 tile of i1, i8, i16, i32 or i64, not {t}")
    bits = t.element.bits
    if bits < 64 and t.size > 1 << bits:
        c.fail(f"iota counts 0 .. {t.size - 1}, more values than {t.element} holds ({1 << bits})")


def _broadcast(c, op):
    src = tile(c, op.operands[0], "source")
    one_result(c, op)
    dst = tile(c, op.results[0], "result")
    if (
        src.rank != dst.rank
        or src.element != dst.element
        or any(s not in (1, d) for s, d in zip(src.shape, dst.shape))
    ):
        c.fail(
            f"broadcast widens dimensions of length 1 only, keeping rank and element: "
            f"{src} -> {dst}"
        )


def _reshape(c, op):
    src = tile(c, op.operands[0], "source")
    one_result(c, op)
    dst = tile(c, op.results[0], "result")
    if src.size != dst.size or src.element != dst.element:
        c.fail(f"reshape keeps the element count and format: {src} -> {dst}")


def _permute(c, op):
    src = tile(c, op.operands[0], "source")
    if src.rank < 2:
        c.fail(f"permute needs a tile of rank 2 or more, source is {src}")
    perm = tuple(attr_of(op, "permutation"))
    if sorted(perm) != list(range(src.rank)):
        c.fail(f"permutation {list(perm)} is not a permutation of the {src.rank} dims of {src}")
    one_result(c, op, TileType(tuple(src.shape[i] for i in perm), src.element))


def _cat(c, op):
    a, b = tile(c, op.operands[0], "lhs"), tile(c, op.operands[1], "rhs")
    dim = attr_of(op, "dim")
    if (
        a.rank != b.rank
        or a.element != b.element
        or not 0 <= dim < a.rank
        or any(x != y for i, (x, y) in enumerate(zip(a.shape, b.shape)) if i != dim)
    ):
        c.fail(f"cat along dim = {dim} needs tiles equal but for that dim, got {a}, {b}")
    shape = tuple(x + y if i == dim else x for i, (x, y) in enumerate(zip(a.shape, b.shape)))
    one_result(c, op, TileType(shape, a.element))


def _indices(c, values, rank: int, what: str):
    if len(values) != rank:
        c.fail(f"takes {rank} indices for {what}, got {len(values)}")
    for i, v in enumerate(values):
        if v.type != TileType((), I32):  # extract / insert index by tile<i32> only
            c.fail(f"index {i} is {v.type}; {what} is indexed by tile<i32> values")


def _extract(c, op):
    g = operand_groups(op)
    src = tile(c, g["source"][0], "source")
    _indices(c, g["indices"], src.rank, str(src))
    one_result(c, op)
    dst = tile(c, op.results[0], "result")
    if (
        dst.rank != src.rank
        or dst.element != src.element
        or any(s % d for s, d in zip(src.shape, dst.shape))
    ):
        c.fail(f"extract takes a block whose dims divide the source's: {src} -> {dst}")


def _insert(c, op):
    g = operand_groups(op)
    src, dst = tile(c, g["source"][0], "source"), tile(c, g["destination"][0], "destination")
    _indices(c, g["indices"], dst.rank, str(dst))
    if (
        src.rank != dst.rank
        or src.element != dst.element
        or any(d % s for s, d in zip(src.shape, dst.shape))
    ):
        c.fail(f"insert puts a block whose dims divide the destination's: {src} into {dst}")
    one_result(c, op, dst)


# ----------------------------------------------------------------------------- control flow


def _no_views(c, values, what: str) -> None:
    # loops and ifs carry tiles and tokens, never views (tileirdisasm: "loop-carried value 0
    # is a tensor_view / tile view, which is not supported"; likewise `if` results)
    for i, v in enumerate(values):
        if isinstance(v.type, _VIEWS):
            c.fail(f"{what} {i} is a view ({v.type}); views cannot be carried")


def _for(c, op):
    g = operand_groups(op)
    bounds = g["lower"] + g["upper"] + g["step"]
    for v, name in zip(bounds, ("lower", "upper", "step")):
        scalar_int(c, v, name)
    same_types(c, bounds, ("lower", "upper", "step"))
    inits = g["init"]
    _no_views(c, inits, "loop-carried value")
    if types_text(op.results) != types_text(inits):
        c.fail(
            f"results ({types_text(op.results)}) must have the init values' types "
            f"({types_text(inits)})"
        )
    args = op.regions[0].args
    if not args or args[0].type != bounds[0].type or types_text(args[1:]) != types_text(inits):
        c.fail(
            f"its region takes ({bounds[0].type}, {types_text(inits)}), got ({types_text(args)})"
        )


def _loop(c, op):
    _no_views(c, op.operands, "loop-carried value")
    _no_views(c, op.results, "result")
    args = op.regions[0].args
    if types_text(args) != types_text(op.operands):
        c.fail(
            f"its region takes the init values' types ({types_text(op.operands)}), "
            f"got ({types_text(args)})"
        )


def _if(c, op):
    cond = tile(c, op.operands[0], "condition")
    if cond != TileType((), I1):
        c.fail(f"condition is {cond}; it must be tile<i1>")
    if any(r.args for r in op.regions):
        c.fail("if regions take no arguments")
    _no_views(c, op.results, "result")


def _enclosing_loop(c, op, kinds):
    for parent in reversed(c.parents):
        if parent.name == "if":
            continue
        if parent.name in kinds:
            return parent
        break
    c.fail(f"`{op.name}` must sit in a {' or '.join(kinds)} (through `if`s only)")


def _expect_types(c, op, values, what: str) -> None:
    if types_text(op.operands) != types_text(values):
        c.fail(
            f"`{op.name}` passes ({types_text(op.operands)}); {what} takes ({types_text(values)})"
        )


def _continue(c, op):
    loop = _enclosing_loop(c, op, ("for", "loop"))
    args = loop.regions[0].args
    _expect_types(c, op, args[1:] if loop.name == "for" else args, f"the enclosing `{loop.name}`")
    one_result(c, op, None, count=0)


def _break(c, op):
    loop = _enclosing_loop(c, op, ("loop",))
    _expect_types(c, op, loop.results, "the enclosing `loop`'s results")
    one_result(c, op, None, count=0)


def _yield(c, op):
    parent = c.parents[-1] if c.parents else None
    if parent is None or parent.name not in ("if", "reduce", "scan"):
        c.fail("`yield` ends a region of `if`, `reduce` or `scan`")
    if parent.name == "if":
        _expect_types(c, op, parent.results, "the `if`'s results")
    else:
        _expect_types(c, op, parent.regions[0].args[::2], f"the `{parent.name}` region")
    one_result(c, op, None, count=0)


def _return(c, op):
    # an early `return` may end an `if` or `loop` region, but only when nothing else (no
    # `for`, `reduce`, `scan`) stands between it and the entry (probed with tileirdisasm)
    others = [p.name for p in c.parents if p.name not in ("if", "loop")]
    if others:
        c.fail(f"`return` may sit in `if`s and `loop`s only, not inside a `{others[-1]}`")
    if op.operands:
        c.fail(f"an entry returns nothing, this returns ({types_text(op.operands)})")
    one_result(c, op, None, count=0)


def _assert(c, op):
    cond = tile(c, op.operands[0], "condition")
    if cond.element != I1:
        c.fail(f"condition is {cond}; it must be an i1 tile")
    one_result(c, op, None, count=0)


VERIFY_SHAPE_RULES = {
    "reduce": _reduce_like,
    "scan": _reduce_like,
    "constant": _constant,
    "iota": _iota,
    "broadcast": _broadcast,
    "reshape": _reshape,
    "permute": _permute,
    "cat": _cat,
    "extract": _extract,
    "insert": _insert,
    "for": _for,
    "loop": _loop,
    "if": _if,
    "continue": _continue,
    "break": _break,
    "yield": _yield,
    "return": _return,
    "assert": _assert,
}
