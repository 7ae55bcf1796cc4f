"""The lowering at two edges the common kernels miss (issue 18, point 2).

* An ``if`` whose else branch alone touches memory still threads the token: the ``if``
  returns one, both branches yield one, and the next memory op waits on it.  (A lowering
  that asked only the then branch would drop the store's token and let the load after
  the branch read before the store.)
* A DYN_DIM extent inside a rank-3 view: the stride of each dimension outside it is the
  DYN_DIM extent times the static extents inside it, computed in the kernel; the fake
  device reads through those strides, so a stride that leaves a factor out reads the
  wrong elements.
* A retiled view with a DYN_DIM extent takes the parameter's own extent; over a static
  parameter there is none, and the lowering refuses it at the user's line.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from tileir import (
    DYN_DIM,
    F32,
    In,
    Out,
    cells,
    for_range,
    if_,
    load_cell,
    reduce_max,
    retile,
    store_cell,
    trace,
)
from tileir.errors import LoweringError
from tileir.fake import FakeDevice

# -- an if whose else branch alone stores ------------------------------------------


def _else_stores(x, out):
    t = yield load_cell(x)

    def then():
        return None  # no memory here

    def otherwise():
        yield store_cell(out, t + 1.0)

    yield if_(reduce_max(t, None) > 0.0, then, otherwise)
    u = yield load_cell(out)  # must see the else branch's store
    yield store_cell(out, u * 2.0)


def _else_stores_kernel():
    c = cells([256], [128])
    return trace("else_stores", _else_stores, In(F32, c), Out(F32, c, unwritten_ok=True))


def _else_stores_in_a_loop(x, out):
    t = yield load_cell(x)

    def step(i):
        def then():
            return None

        def otherwise():
            yield store_cell(out, t + 1.0)

        yield if_(reduce_max(t, None) > 0.0, then, otherwise)

    yield for_range(0, 2, step)
    u = yield load_cell(out)
    yield store_cell(out, u * 2.0)


def _if_lines(text: str) -> tuple[str, list[str], str]:
    """The ``if`` op's result, the lines of its two branches, and the text after it."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.search(r"= if %\w+ -> \(token\)", line))
    depth, end = 0, start
    for end in range(start, len(lines)):
        depth += lines[end].count("{") - lines[end].count("}")
        if depth == 0:
            break
    result = lines[start].split("=")[0].strip()
    return result, lines[start + 1 : end], "\n".join(lines[end + 1 :])


def test_an_if_whose_else_branch_alone_stores_returns_a_token():
    text = _else_stores_kernel().text()
    assert re.search(r"= if %\w+ -> \(token\) \{", text), text
    result, branches, after = _if_lines(text)
    else_at = branches.index("  } else {")
    then_branch, else_branch = branches[:else_at], branches[else_at + 1 :]
    # the then branch passes the token it was given on; the else branch yields its store's
    assert re.fullmatch(r"\s*yield %\w+ : token", then_branch[-1]), then_branch
    store = next(line for line in else_branch if "store_view_tko" in line)
    stored_token = store.split("=")[0].strip()
    assert else_branch[-1].strip() == f"yield {stored_token} : token"
    # the load after the branch waits on the if's token
    load = next(line for line in after.splitlines() if "load_view_tko" in line)
    assert f"token = {result} " in load, load


def test_an_if_in_a_loop_whose_else_branch_alone_stores_threads_the_token_through_both():
    c = cells([256], [128])
    k = trace("else_in_loop", _else_stores_in_a_loop, In(F32, c), Out(F32, c, unwritten_ok=True))
    text = k.text()
    assert re.search(r"= if %\w+ -> \(token\)", text), text
    loop = next(line for line in text.splitlines() if re.search(r"= for ", line))
    assert "token" in loop, loop  # the loop carries the token its body's if returns


@pytest.mark.parametrize("kernel", ["flat", "loop"])
def test_an_else_branch_store_is_seen_by_the_load_after_it_on_the_fake_device(kernel):
    c = cells([256], [128])
    body = _else_stores if kernel == "flat" else _else_stores_in_a_loop
    k = trace(f"else_{kernel}", body, In(F32, c), Out(F32, c, unwritten_ok=True))
    # block 0 takes the else branch (max -1 <= 0), block 1 the then branch (max 3 > 0)
    x = np.concatenate([np.full(128, -1.0), np.full(128, 3.0)]).astype(np.float32)
    out = FakeDevice(mode="interpret").run(k, x, np.full(256, 5.0, np.float32))[1]
    want = np.concatenate([(x[:128] + 1.0) * 2.0, np.full(128, 10.0)]).astype(np.float32)
    assert np.array_equal(out, want)


# -- a DYN_DIM extent inside a rank-3 view -------------------------------------------

# (extent with its DYN_DIM, tile, grid): the DYN_DIM extent is its tile times the grid's axis
_RANK3 = [
    ([2, DYN_DIM, 4], [2, 8, 4], [1, 2, 1]),  # static extent inside the DYN_DIM
    ([2, 4, DYN_DIM], [2, 4, 8], [1, 1, 3]),  # DYN_DIM innermost: two strides outside it
    ([DYN_DIM, 4, 8], [2, 4, 8], [3, 1, 1]),  # DYN_DIM outermost: every stride static
    ([DYN_DIM, 2, DYN_DIM], [2, 2, 4], [2, 1, 3]),  # two of them
]


def _copy_doubled(x, out):
    t = yield load_cell(x)
    yield store_cell(out, t * 2.0)


def _rank3_kernel(extent, tile, grid):
    shape = [tile[d] * grid[d] if e is DYN_DIM else e for d, e in enumerate(extent)]
    k = trace(
        "dyn_rank3", _copy_doubled, In(F32, cells(extent, tile)), Out(F32, cells(shape, tile))
    )
    return k, shape


@pytest.mark.parametrize("extent, tile, grid", _RANK3, ids=[str(c[0]) for c in _RANK3])
def test_a_rank3_view_with_a_dyn_dim_reads_what_numpy_reads(extent, tile, grid):
    k, shape = _rank3_kernel(extent, tile, grid)
    rng = np.random.default_rng(7)
    x = rng.standard_normal(int(np.prod(shape))).astype(np.float32)
    out = FakeDevice(mode="interpret").run(k, x, np.zeros_like(x), grid=grid)[1]
    assert np.array_equal(out.reshape(shape), x.reshape(shape) * np.float32(2.0))


def test_a_stride_outside_a_dyn_dim_is_multiplied_by_the_static_extents_inside_it():
    k, _ = _rank3_kernel([2, DYN_DIM, 4], [2, 8, 4], [1, 2, 1])
    text = k.text()
    view = next(line for line in text.splitlines() if "shape = [2, %" in line)
    stride = re.search(r"strides = \[(%\w+), 4, 1\]", view)
    assert stride, view
    product = next(line for line in text.splitlines() if line.strip().startswith(stride[1] + " "))
    extent, factor = re.fullmatch(r"\s*%\w+ = muli (%\w+), (%\w+) : tile<i32>", product).groups()
    assert extent.startswith("%arg")  # the DYN_DIM extent the entry takes
    assert re.search(rf"{factor} = constant <i32: 4> : tile<i32>", text)


# -- a retiled view with a DYN_DIM extent ------------------------------------------


def _read_retiled(x, out):
    view = retile(x, [DYN_DIM], [64])
    t = yield load_cell(view)
    yield store_cell(out, t)


def test_a_retiled_view_cannot_invent_a_dyn_dim_extent():
    # the parameter's extent is static: the entry takes no extent the view could use
    with pytest.raises(LoweringError) as err:
        trace(
            "retile_dyn", _read_retiled, In(F32, cells([128], [128])), Out(F32, cells([64], [64]))
        )
    assert "a retiled view cannot have a DYN_DIM extent" in str(err.value)
    assert err.value.op == "make_tensor_view" and err.value.kernel == "retile_dyn"
    assert "test_lowering_edges.py" in (err.value.where or "")


def test_a_retiled_view_of_a_dyn_dim_parameter_uses_the_parameters_extent():
    c = cells([DYN_DIM], [64])
    k = trace("retile_same", _read_retiled, In(F32, c), Out(F32, c))
    view = next(line for line in k.text().splitlines() if "make_tensor_view" in line)
    assert re.search(r"shape = \[%arg\d+\], strides = \[1\]", view), view
    x = np.arange(192, dtype=np.float32)
    out = FakeDevice(mode="interpret").run(k, x, np.zeros_like(x), grid=[3])[1]
    assert np.array_equal(out, x)
