"""Pure shape, format, grid and role rules of the recorder.

Every rule is a pure function of values that either answers or raises
:class:`RuleError` with the reason in words; the recorder adds the kernel, the
op and the source line.  Hypothesis checks these against numpy
(``property_tests/rules/test_rules.py``).

The widening rule: an operand of an element-wise operation widens along its
dimensions of length 1 when it has the operation's rank, and a rank-0 tile
widens to any shape.  Anything else is refused: NumPy would align a ``[64]``
against the last axis of a ``[64, 64]``, silently using the wrong axis after a
reduction without ``keepdims``.

>>> widen_shapes((32, 64), (32, 1))
(32, 64)
>>> widen_shapes((), (4, 4))
(4, 4)
>>> widen_shapes((32, 64), (32,))
Traceback (most recent call last):
...
tileir.errors.RuleError: ranks 2 and 1 differ: an operand widens from rank 0, or along its dimensions of length 1 at the same rank (reduce with keepdims=True keeps the rank)
"""

from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING, Optional, Sequence

from tileir.errors import RuleError
from tileir.ir.attr_rules import is_power_of_two
from tileir.types import DYN_DIM, Format

if TYPE_CHECKING:  # for annotations only: the recorder sits above these rules
    from tileir.record.markers import Cells, Param

__all__ = [
    "RuleError",
    "widen_shapes",
    "widen_many",
    "reduce_shape",
    "normalize_dim",
    "MMA_PAIRS",
    "mma_accumulators",
    "check_mma",
    "grid_of",
    "check_cells_agree",
    "check_write",
    "is_power_of_two",
]


def widen_shapes(lhs: Sequence[int], rhs: Sequence[int]) -> tuple:
    """The shape an element-wise op of ``lhs`` and ``rhs`` produces, or RuleError."""
    lhs, rhs = tuple(lhs), tuple(rhs)
    if not lhs:
        return rhs
    if not rhs:
        return lhs
    if len(lhs) != len(rhs):
        raise RuleError(
            f"ranks {len(lhs)} and {len(rhs)} differ: an operand widens from rank 0, or along its "
            f"dimensions of length 1 at the same rank (reduce with keepdims=True keeps the rank)"
        )
    out = []
    for d, (a, b) in enumerate(zip(lhs, rhs)):
        if a == b or b == 1:
            out.append(a)
        elif a == 1:
            out.append(b)
        else:
            raise RuleError(
                f"dimension {d} is {a} against {b}; only a dimension of length 1 widens"
            )
    return tuple(out)


def widen_many(shapes: Sequence[Sequence[int]]) -> tuple:
    """:func:`widen_shapes` folded over several operands (select, fma)."""
    out: tuple = ()
    for shape in shapes:
        out = widen_shapes(out, shape)
    return out


def normalize_dim(dim: int, rank: int) -> int:
    """``dim`` in ``[0, rank)``; negative counts from the end (``-1`` is the last)."""
    if rank == 0:
        raise RuleError("a rank-0 tile has no dimension to reduce")
    if not -rank <= dim < rank:
        raise RuleError(
            f"dim {dim} is outside a rank-{rank} tile (use 0..{rank - 1} or -1..-{rank})"
        )
    return dim % rank


def reduce_shape(shape: Sequence[int], dim: int, keepdims: bool) -> tuple:
    """The shape of reducing ``shape`` along ``dim``."""
    shape = tuple(shape)
    d = normalize_dim(dim, len(shape))
    if keepdims:
        return shape[:d] + (1,) + shape[d + 1 :]
    return shape[:d] + shape[d + 1 :]


#: mmaf's operand format -> the accumulator formats the dialect allows (docs/dialect.md §1.4).
MMA_PAIRS: dict[str, tuple[str, ...]] = {
    "f16": ("f16", "f32"),
    "bf16": ("f32",),
    "tf32": ("f32",),
    "f32": ("f32",),
    "f64": ("f64",),
    "f8E4M3FN": ("f16", "f32"),
    "f8E5M2": ("f16", "f32"),
    "i8": ("i32",),  # mmai
}


def mma_table_text() -> str:
    return "; ".join(f"{k} x {k} -> {' or '.join(v)}" for k, v in MMA_PAIRS.items())


def mma_accumulators(operand: Format) -> tuple:
    """The accumulator formats allowed for ``operand`` x ``operand``."""
    return MMA_PAIRS.get(operand.name, ())


def check_mma(
    a_shape: Sequence[int],
    a_fmt: Format,
    b_shape: Sequence[int],
    b_fmt: Format,
    acc_shape: Sequence[int],
    acc_fmt: Format,
) -> None:
    """Refuse an mma whose formats are outside the dialect's table or whose shapes disagree."""
    if a_fmt != b_fmt:
        raise RuleError(
            f"the factors have formats {a_fmt} and {b_fmt}; they must share one "
            f"(the dialect's pairs: {mma_table_text()})"
        )
    if acc_fmt.name not in mma_accumulators(a_fmt):
        raise RuleError(
            f"{a_fmt} x {a_fmt} into {acc_fmt} is not a pair the dialect allows "
            f"(its pairs: {mma_table_text()})"
        )
    a, b, c = tuple(a_shape), tuple(b_shape), tuple(acc_shape)
    if len(a) not in (2, 3) or len(b) != len(a) or len(c) != len(a):
        raise RuleError(
            f"mma takes rank-2 (or batched rank-3) tiles of one rank, got shapes "
            f"{list(a)}, {list(b)} and {list(c)}"
        )
    if a[-1] != b[-2]:
        raise RuleError(
            f"k disagrees: lhs is {a[-2]}x{a[-1]} and rhs is {b[-2]}x{b[-1]} "
            f"(lhs columns must equal rhs rows)"
        )
    if (a[-2], b[-1]) != c[-2:] or (len(a) == 3 and not a[0] == b[0] == c[0]):
        raise RuleError(
            f"the accumulator is {'x'.join(map(str, c))} but the product is "
            f"{'x'.join(map(str, a[:-2] + (a[-2], b[-1])))}"
        )


def grid_of(params: Sequence[Param]) -> Optional[tuple[Optional[int], ...]]:
    """The launch grid the ``Out`` parameters' cells make, or None when it is the caller's.

    ``None`` inside the tuple marks an axis whose count is only known at launch
    (a ``DYN_DIM`` extent).  Raises RuleError when two Outs disagree.
    """
    grid: dict[int, Optional[int]] = {}
    owner: dict[int, Param] = {}
    for p in params:
        c = p.cells
        if p.role != "Out" or c is None:  # (an Out always has cells)
            continue
        for d, (axis, count) in enumerate(zip(c.along, c.counts)):
            if not isinstance(axis, int):  # FREE_AXIS
                raise RuleError(
                    f"{p.describe()} has dimension {d} along FREE_AXIS; an Out's "
                    f"cells are the grid, so every dimension follows a grid axis"
                )
            if axis in grid and grid[axis] != count:
                raise RuleError(
                    f"{p.describe()} has {_count(count)} cell(s) in dimension {d}, which follows "
                    f"grid axis {axis}, and {owner[axis].describe()} makes {_count(grid[axis])} "
                    f"block(s) there"
                )
            grid[axis] = count
            owner[axis] = p
    if not grid:
        return None
    return tuple(map(grid.get, range(max(grid) + 1), repeat(1)))  # 1 on an axis no Out follows


def _count(c: Optional[int]) -> str:
    return "DYN_DIM" if c is None else str(c)


def check_cells_agree(params: Sequence[Param], grid: Optional[Sequence[Optional[int]]]) -> None:
    """Every In's (and Shared's with cells) cells that follow a grid axis have as many cells
    there as the grid has blocks."""
    if grid is None:
        return
    rank = len(grid)
    for p in params:
        c = p.cells
        if c is None or p.role not in ("In", "Shared"):
            continue
        for d, (axis, count) in enumerate(zip(c.along, c.counts)):
            if count is None or not isinstance(axis, int):  # decided at launch; FREE_AXIS
                continue
            blocks = grid[axis] if axis < rank else 1
            if blocks is None:
                continue  # decided at launch
            if count != blocks:
                raise RuleError(
                    f"argument {p.index} ({p.role}) has {count} cell(s) in dimension {d}, which follows "
                    f"grid axis {axis}, and the grid has {blocks} block(s) there"
                )


_WRITES = {"cell": "store_cell / store_sub", "pointer": "the pointer path", "atomic": "atomics"}


def check_write(param: Param, how: str) -> None:
    """Role rules: nothing writes an In; an Out is written through its cells alone; a Shared
    through the pointer path and atomics alone."""
    if param.role == "In":
        raise RuleError(f"parameter {param.index} is an In, and nothing writes an In")
    if param.role == "Scalar":
        raise RuleError(f"parameter {param.index} is a Scalar, a value and not a buffer")
    if param.role == "Out" and how != "cell":
        raise RuleError(
            f"parameter {param.index} is an Out, which is written through its cells alone "
            f"(store_cell, store_sub); a parameter written any other way is a Shared"
        )
    if param.role == "Shared" and how == "cell":
        raise RuleError(
            f"parameter {param.index} is a Shared, which has no cells; write it "
            f"through the pointer path (store) or atomics"
        )


def cells_dims(c: Cells) -> tuple:
    """(extent or None, tile, along) per dimension, DYN_DIM as None."""
    return tuple((None if e is DYN_DIM else e, t, a) for e, t, a in zip(c.extent, c.tile, c.along))
