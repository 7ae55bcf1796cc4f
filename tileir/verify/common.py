"""Small checks the verifier's rules share (each fails with the offending types in its message)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from tileir.ir.module import Value
from tileir.ir.signatures import attr_of, operand_groups
from tileir.types import TOKEN, Format, TileType

if TYPE_CHECKING:
    from tileir.verify.checker import Check

__all__ = [
    "types_text",
    "names_of",
    "tile",
    "float_tile",
    "int_tile",
    "scalar_int",
    "same_types",
    "one_result",
    "token",
    "is_pow2",
    "results_are",
    "tokens_in",
    "check_ordering",
]


def types_text(values) -> str:
    return ", ".join(str(v.type) for v in values)


def names_of(op) -> list[str]:
    """The signature's group name of each operand, in order."""
    out = []
    for name, values in operand_groups(op).items():
        out.extend([name] * len(values))
    return out


def tile(c: Check, v: Value, what: str) -> TileType:
    if not isinstance(v.type, TileType):
        c.fail(f"{what} must be a tile, got {v.type}")
    return v.type


def float_tile(c: Check, v: Value, what: str) -> TileType:
    t = tile(c, v, what)
    if not (isinstance(t.element, Format) and t.element.is_float):
        c.fail(f"{what} must be a tile of floats, got {t}")
    return t


def int_tile(c: Check, v: Value, what: str, i4: bool = False) -> TileType:
    """A tile of integers; i4 only where ``i4`` says so (exti / trunci: the dialect's integer
    operands are i1 .. i64 elsewhere, probed op by op)."""
    t = tile(c, v, what)
    if not (isinstance(t.element, Format) and t.element.is_int):
        c.fail(f"{what} must be a tile of integers, got {t}")
    if t.element.name == "i4" and not i4:
        c.fail(f"{what} must be a tile of i1, i8, i16, i32 or i64, got {t}")
    return t


def scalar_int(c: Check, v: Value, what: str) -> TileType:
    t = int_tile(c, v, what)
    if t.rank != 0:
        c.fail(f"{what} must be a rank-0 integer tile, got {t}")
    return t


def token(c: Check, v: Value, what: str) -> None:
    if v.type != TOKEN:
        c.fail(f"{what} must be a token, got {v.type}")


def same_types(c, values, names) -> None:
    values = tuple(values)
    if any(v.type != values[0].type for v in values):
        pairs = ", ".join(f"{n} {v.type}" for n, v in zip(names, values))
        c.fail(f"operands must have one type, got {pairs}")


def one_result(c, op, t=None, count: int = 1) -> Optional[object]:
    """``op`` has ``count`` results (and, for one, of type ``t`` when given)."""
    if len(op.results) != count:
        c.fail(f"has {len(op.results)} results; `{op.name}` makes {count}")
    if count == 1 and t is not None and op.results[0].type != t:
        c.fail(f"result is {op.results[0].type}, expected {t}")
    return op.results[0].type if count == 1 else None


def is_pow2(n: int) -> bool:
    """``n`` is a positive power of two."""
    return n > 0 and n & (n - 1) == 0


def results_are(c, op, *types) -> None:
    """``op``'s results have exactly ``types``."""
    if len(op.results) != len(types) or any(r.type != t for r, t in zip(op.results, types)):
        c.fail(f"results are ({types_text(op.results)}); expected ({', '.join(map(str, types))})")


def tokens_in(c, op, values) -> None:
    """Each of ``values`` is a token."""
    for v in values:
        token(c, v, "token")


def check_ordering(c, op, allowed) -> None:
    """A memory ordering among ``allowed``, with a scope exactly when it is not weak."""
    ordering = attr_of(op, "memory_ordering")
    if ordering not in allowed:
        c.fail(f"memory ordering {ordering} is not allowed here ({', '.join(allowed)})")
    scope = attr_of(op, "memory_scope")
    if ordering == "weak" and scope is not None:
        c.fail(f"a weak access takes no memory scope (got {scope})")
    if ordering != "weak" and scope is None:
        c.fail(f"a {ordering} access needs a memory scope")
