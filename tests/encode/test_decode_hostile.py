"""The decoder hands on only modules every later stage can take (issue 13, point 2): result
types that fit the op's layout, names that are UTF-8, regions no deeper than
``MAX_REGION_DEPTH``; and the fake device checks whatever it did not build."""

from __future__ import annotations

import numpy as np
import pytest

from support.module_builder import F32, I1, FunctionBuilder, ptr, scalar, tile
from tileir.encode import canonicalize, decode, encode
from tileir.encode.opread import MAX_REGION_DEPTH
from tileir.errors import DecodeError, VerifyError
from tileir.fake.interpreter import interpret
from tileir.text.render import render


def _view_returning_a_tile():
    fb = FunctionBuilder("bad_view", [ptr(F32)])
    tv = fb.tensor_view(fb.params[0], (16,), (1,))
    fb.op1("make_partition_view", (tv,), tile((16,), F32))  # a view op making a tile
    fb.ret()
    return fb.module()


def test_a_view_op_whose_result_is_not_a_view_is_a_decode_error():
    data = encode(_view_returning_a_tile())
    with pytest.raises(
        DecodeError, match=r"`make_partition_view`: result 0 is tile<16xf32>, not a"
    ):
        decode(data)


def test_a_hand_made_view_op_with_a_tile_result_is_refused_before_it_runs():
    with pytest.raises(VerifyError):
        interpret(_view_returning_a_tile(), "bad_view", [np.zeros(16, np.float32)], 1)


def test_a_name_that_is_not_utf8_is_a_decode_error_with_its_offset():
    fb = FunctionBuilder("kname", [ptr(F32)])
    fb.ret()
    data = encode(fb.module())
    at = data.index(b"kname")
    bad = data[:at] + b"k\xffame" + data[at + 5 :]
    with pytest.raises(
        DecodeError, match=rf"not valid UTF-8 \(byte 1 of it, at byte offset {at + 1}"
    ):
        decode(bad)


def _nested_ifs(depth: int):
    fb = FunctionBuilder("deep", [ptr(F32)])
    cond = fb.const(True, scalar(I1))

    def done():
        fb.op("yield", (), ())

    def level(k):
        def body():
            if k:
                fb.if_(cond, level(k - 1), done)
            done()

        return body

    fb.if_(cond, level(depth - 1), done)
    fb.ret()
    return fb.module()


def test_regions_at_the_depth_limit_pass_every_stage():
    m = decode(encode(_nested_ifs(MAX_REGION_DEPTH)))
    assert "if" in render(m)
    assert canonicalize(m) == m and hash(m) == hash(canonicalize(m))
    assert decode(encode(m)) == m
    out = interpret(m, "deep", [np.zeros(1, np.float32)], 1)
    assert out[0].shape == (1,)


def test_regions_past_the_depth_limit_are_a_decode_error():
    data = encode(_nested_ifs(MAX_REGION_DEPTH + 1))
    with pytest.raises(DecodeError, match=f"regions nest more than {MAX_REGION_DEPTH} deep"):
        decode(data)
