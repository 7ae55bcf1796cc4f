"""The streaming (online) softmax of attention: a state folded over blocks of scores.

``softmax(S) @ V`` over many key blocks, one block at a time, keeps three tiles: the running
row maximum ``m``, the running sum ``l`` of ``exp(s - m)`` and the accumulator ``acc`` of
``exp(s - m) @ V``; each new block rescales the old sum and accumulator by
``exp(m_old - m_new)``.  The state is a plain tuple ``(m, l, acc)``, so it is a loop's carried
values as it is:

    state = online_softmax.init([BQ, D], F32)
    def step(j, *state):
        k = yield load_at(keys, [j])
        v = yield load_at(values, [j])
        return online_softmax.step(state, q @ k.T, v)
    state = yield for_range(0, blocks, step, init=state)
    yield store_cell(out, online_softmax.finish(state).to(F16))

Scores are in the accumulator's format.  Score lanes past a ragged extent of the keys (and the
value rows there) are left out, whatever their padding: they give ``exp`` 0 and add nothing.
"""

from __future__ import annotations

from typing import Sequence

from tileir.lib.masked import fmt_of, masked_max, masked_sum
from tileir.ops import exp, full, maximum, mma, valid_along, where
from tileir.record.tile import Tile, refuse, shape_tuple
from tileir.types import Format

__all__ = ["init", "step", "finish", "State"]

#: ``(running max [rows, 1], running sum [rows, 1], accumulator [rows, cols])``
State = tuple[Tile, Tile, Tile]


def init(shape: Sequence[int], fmt: Format) -> State:
    """The state before any block: max -inf, sum 0 and a zero accumulator of ``shape``
    (``[rows, cols]``), all in ``fmt``."""
    rows, cols = _matrix(shape_tuple(shape, "online_softmax.init"), "online_softmax.init")
    return (
        full([rows, 1], float("-inf"), fmt),
        full([rows, 1], 0.0, fmt),
        full([rows, cols], 0.0, fmt),
    )


def _matrix(shape: tuple[int, ...], op: str) -> tuple[int, int]:
    if len(shape) != 2:
        raise refuse(op, f"the accumulator is a matrix [rows, cols], got shape {list(shape)}")
    return shape[0], shape[1]


def _state(state: object) -> State:
    if (
        not isinstance(state, tuple)
        or len(state) != 3
        or not all(isinstance(x, Tile) for x in state)
    ):
        raise refuse(
            "online_softmax.step",
            f"the state is the tuple (max, sum, accumulator) that init made, got {state!r}",
        )
    return state


def step(state: State, scores: Tile, values: Tile) -> State:
    """The state after one block: ``scores`` ``[rows, keys]`` (in the state's format) and the
    block's ``values`` ``[keys, cols]`` (any format mma takes; the probabilities are
    converted to it)."""
    m, l, acc = _state(state)
    if not isinstance(scores, Tile) or scores.format != m.format:
        raise refuse(
            "online_softmax.step",
            f"the scores are {getattr(scores, 'type', scores)!r} and the state is in {m.format}; "
            f"convert the scores with .to({m.format})",
        )
    mask = valid_along(scores, 1)
    if mask is not None:
        scores = where(mask, scores, float("-inf"))
    rows = valid_along(values, 0)
    if rows is not None:
        values = where(rows, values, 0.0)
    m_new = maximum(m, masked_max(scores, 1, keepdims=True))
    p = exp(scores - m_new)
    alpha = exp(m - m_new)
    l = l * alpha + masked_sum(p, 1, keepdims=True)
    acc = mma(p.to(fmt_of(values)), values, acc * alpha)
    return m_new, l, acc


def finish(state: State) -> Tile:
    """The softmax-weighted sum the state holds: ``acc / l``."""
    _m, l, acc = _state(state)
    return acc / l
