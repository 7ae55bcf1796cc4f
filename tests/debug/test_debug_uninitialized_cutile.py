"""find_uninitialized on another producer's bytecode: cuTile's default padding mode leaves
the lanes past the extent undefined, and a sum over them reaches the output."""

from __future__ import annotations

import io

import numpy as np
import pytest

ct = pytest.importorskip("cuda.tile")
from cuda.tile.compilation import (  # noqa: E402
    ArrayConstraint,
    CallingConvention,
    KernelSignature,
    export_kernel,
)

from tileir.debug import find_padding_leaks, find_uninitialized  # noqa: E402
from tileir.encode import decode  # noqa: E402
from tileir.fake import interpret  # noqa: E402


@ct.kernel
def tile_sum(X, S):
    bid = ct.bid(0)
    x = ct.load(X, index=(bid,), shape=(128,))  # no padding_mode: the lanes past are undefined
    ct.store(S, index=(bid,), tile=ct.sum(x, axis=0, keepdims=True))


@ct.kernel
def tile_sum_zero(X, S):
    bid = ct.bid(0)
    x = ct.load(X, index=(bid,), shape=(128,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(S, index=(bid,), tile=ct.sum(x, axis=0, keepdims=True))


def _module(kernel, name: str):
    array = ArrayConstraint(
        ct.float32,
        1,
        index_dtype=ct.int32,
        stride_lower_bound_incl=0,
        alias_groups=(),
        may_alias_internally=False,
    )
    sig = KernelSignature([array, array], CallingConvention.cutile_python_v1(), symbol=name)
    buf = io.BytesIO()
    export_kernel(
        kernel,
        [sig],
        buf,
        gpu_code="sm_90",
        output_format="tileir_bytecode",
        bytecode_version="13.1",
    )
    return decode(buf.getvalue())


def _args(n: int):
    # cuTile's convention: each array as its pointer, its shape and its strides (i32 each)
    blocks = -(-n // 128)
    return [np.arange(n, dtype=np.float32), n, 1, np.zeros(blocks, np.float32), blocks, 1]


def test_undefined_padding_lanes_that_reach_a_store_are_found():
    m = _module(tile_sum, "tile_sum")
    (f,) = find_uninitialized(m, _args(100), grid=(1,))
    assert (f.kind, f.detail, f.op.name, f.block, f.element) == (
        "uninitialized",
        "undefined-lanes",
        "load_view_tko",
        (0, 0, 0),
        (100,),
    )
    lines = open(__file__, encoding="utf-8").read().splitlines()
    assert f.line == 1 + lines.index(
        "    x = ct.load(X, index=(bid,), shape=(128,))  # no padding_mode: the lanes past are "
        "undefined"
    )
    assert "28 lane(s) of the loaded tile lie past the tensor's extent of a view with no " in (
        f.message
    )
    assert "reaches element 0 of argument 3" in f.message
    assert f.related[0].op.name == "store_view_tko"
    # the padding finder judges by value: zeros under a sum look neutral to it
    assert find_padding_leaks(m, _args(100), grid=(1,)) == []
    # the signal fill shows the same read in the result; zeros hide it
    entry = m.functions[0].name
    assert np.isnan(interpret(m, entry, _args(100), (1,), fill="signal")[3][0])
    assert interpret(m, entry, _args(100), (1,))[3][0] == sum(range(100))


def test_a_whole_tile_or_a_padding_value_is_clean():
    assert find_uninitialized(_module(tile_sum, "tile_sum"), _args(256), grid=(2,)) == []
    zero = _module(tile_sum_zero, "tile_sum_zero")
    assert find_uninitialized(zero, _args(100), grid=(1,)) == []
