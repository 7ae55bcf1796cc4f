"""The bytecode's integer writers hold every value of their field's range and refuse,
with an EncodeError naming the value and the range, anything past it (never wrapping it
around into another number); a Module with such a value is refused by ``encode``."""

from __future__ import annotations

import inspect

import pytest

from support.build import FunctionBuilder
from tileir import I64, In, Shared, assume_bounded, cells, convert, load_cell, store, trace
from tileir.encode import decode, encode
from tileir.encode.wire import (
    INT64_MAX,
    INT64_MIN,
    U64_MAX,
    Sink,
    Source,
    as_int64,
    leb128,
    unzigzag,
    zigzag,
)
from tileir.errors import DecodeError, EncodeError, RecordingError
from tileir.ir.module import Bounded, DivBy, Hints, Loc, Module, SameElements, ScalarAttr
from tileir.types import F16, F32, F64, TileType

SIGNED_EDGES = [INT64_MIN, INT64_MIN + 1, -1, 0, 1, 63, 64, -64, -65, INT64_MAX - 1, INT64_MAX]
UNSIGNED_EDGES = [0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, 1 << 63, U64_MAX - 1, U64_MAX]


def _written(write) -> Source:
    s = Sink()
    write(s)
    return Source(bytes(s.buf))


@pytest.mark.parametrize("value", SIGNED_EDGES)
def test_signed_varints_round_trip_to_the_int64_edges(value):
    r = _written(lambda s: s.svarint(value))
    assert r.svarint() == value
    assert r.remaining() == 0
    assert unzigzag(zigzag(value)) == value


@pytest.mark.parametrize("value", [INT64_MIN - 1, INT64_MAX + 1, 1 << 70, -(1 << 70)])
def test_a_signed_varint_past_int64_is_refused_not_wrapped(value):
    with pytest.raises(EncodeError) as info:
        Sink().svarint(value, "bounded upper bound")
    text = str(info.value)
    assert "bounded upper bound" in text and str(value) in text
    assert f"{INT64_MIN} .. {INT64_MAX}" in text
    with pytest.raises(EncodeError):
        zigzag(value)


@pytest.mark.parametrize("value", UNSIGNED_EDGES)
def test_varints_round_trip_to_the_u64_edges(value):
    r = _written(lambda s: s.varint(value))
    assert r.varint() == value
    assert r.remaining() == 0


def test_leb128_spells_fields_as_the_sink_writes_their_varints():
    fields = (0, 5, 0x7F, 0x80, 300, 0x3FFF, 0x4000, 1 << 40, U64_MAX)
    s = Sink()
    for f in fields:
        s.varint(f)
    assert leb128(fields) == bytes(s.buf)
    assert leb128((4, 1, 2)) == bytes([4, 1, 2])


@pytest.mark.parametrize("value", [-1, -(1 << 63), U64_MAX + 1, 1 << 70])
def test_a_varint_past_u64_is_refused(value):
    with pytest.raises(
        EncodeError,
        match=rf"varint {value} is outside the field's range "
        rf"0 \.\. {U64_MAX}",
    ):
        Sink().varint(value)


@pytest.mark.parametrize("width", [1, 2, 4, 8])
def test_words_hold_their_width_and_no_more(width):
    top = (1 << (8 * width)) - 1
    for value in (0, 1, top):
        assert _written(lambda s: s.word(value, width)).word(width) == value
    for value in (-1, top + 1):
        with pytest.raises(EncodeError, match=rf"{width}-byte word {value} .*0 \.\. {top}"):
            Sink().word(value, width)


@pytest.mark.parametrize("width", [4, 8])
def test_signed_word_arrays_hold_their_width_and_no_more(width):
    low, high = -(1 << (8 * width - 1)), (1 << (8 * width - 1)) - 1
    values = (low, low + 1, -1, 0, 1, high)
    assert _written(lambda s: s.ints(values, width)).ints(width) == values
    for bad in (low - 1, high + 1):
        with pytest.raises(
            EncodeError,
            match=rf"{width}-byte signed word {bad} .*"
            rf"{low} \.\. {high}",
        ):
            Sink().ints((0, bad), width)


def test_bytes_hold_0_to_255():
    assert _written(lambda s: s.byte(255)).byte() == 255
    for bad in (-1, 256):
        with pytest.raises(EncodeError, match=rf"byte {bad} .*0 \.\. 255"):
            Sink().byte(bad)


def test_float_patterns_are_written_as_the_int64_of_their_bits():
    # f64 patterns past 2**63 (negative floats) are unsigned: the writer converts them
    assert as_int64(0xBFF0_0000_0000_0000) == -0x4010_0000_0000_0000
    assert as_int64(U64_MAX) == -1 and as_int64(INT64_MAX) == INT64_MAX
    with pytest.raises(EncodeError):
        as_int64(U64_MAX + 1)


def _assume_module(predicate) -> Module:
    t = TileType((), I64)
    b = FunctionBuilder("bounds", [t])
    (x,) = b.params
    b.op("assume", [x], [t], predicate=predicate, loc=Loc("kernel.py", 12, 3))
    return Module((b.finish(),))


@pytest.mark.parametrize(
    "lower, upper", [(INT64_MIN, INT64_MAX), (None, INT64_MAX), (INT64_MIN, None), (-1, 1 << 40)]
)
def test_bounds_at_the_int64_edges_round_trip_through_the_bytecode(lower, upper):
    m = _assume_module(Bounded(lower, upper))
    back = decode(encode(m))
    assert back.functions[0].body.ops[0].attrs["predicate"] == Bounded(lower, upper)


@pytest.mark.parametrize(
    "predicate, words",
    [
        (Bounded(0, 1 << 70), ["bounded upper bound", str(1 << 70)]),
        (Bounded(INT64_MIN - 1, None), ["bounded lower bound", str(INT64_MIN - 1)]),
        (DivBy(16, 1 << 64, 0), ["div_by every", str(1 << 64)]),
        (SameElements((1 << 63,)), ["8-byte same_elements group", str(1 << 63)]),
    ],
)
def test_a_module_with_a_predicate_past_its_field_is_refused_by_encode(predicate, words):
    with pytest.raises(EncodeError) as info:
        encode(_assume_module(predicate))
    err = info.value
    assert (err.kernel, err.op, err.where) == ("bounds", "assume", "kernel.py:12")
    text = str(err)
    for word in words:
        assert word in text
    assert "attribute predicate" in text and "outside the field's range" in text


@pytest.mark.parametrize(
    "fmt, value", [(F16, -2.0), (F32, -1.0), (F64, -1.0), (F64, float("-inf")), (F64, 2.5)]
)
def test_float_identities_keep_their_bits_through_the_bytecode(fmt, value):
    # a float's pattern is unsigned (f64 -1.0 has bit 63 set): it is written as the int64 of
    # its bits, so the writer must not refuse it nor change its bytes
    element = TileType((), fmt)
    b = FunctionBuilder("red", [TileType((4,), fmt)])
    (x,) = b.params

    def add(bb, e, a):
        bb.op("yield", [bb.op("addf", [e, a], [element])])

    b.region_op(
        "reduce",
        [x],
        [element],
        [((element, element), add)],
        dim=0,
        identities=(ScalarAttr.of(fmt, value),),
    )
    data = encode(Module((b.finish(),)))
    back = decode(data)
    assert back.functions[0].body.ops[0].attrs["identities"] == (ScalarAttr.of(fmt, value),)
    if fmt is F64 and value < 0:  # the zigzag of a negative int64 n is -2n - 1
        n = ScalarAttr.of(fmt, value).bits - (1 << 64)
        s = Sink()
        s.varint(-2 * n - 1)
        assert bytes(s.buf) in data


def test_hint_integers_past_i32_are_refused_not_wrapped():
    b = FunctionBuilder("h", [], hints=Hints((("sm_90", (("occupancy", 1 << 40),)),)))
    with pytest.raises(EncodeError, match=rf"integer {1 << 40} is outside the i32 field"):
        encode(Module((b.finish(),)))


def test_the_recorder_refuses_a_bound_past_int64_with_the_kernel_op_and_line():
    # what a user meets first: the recorder checks a bound against the tile's width
    def body(a, out):
        x = yield load_cell(a)
        yield store(out, 0, assume_bounded(convert(x, I64), 0, 1 << 70))

    line = inspect.getsourcelines(body)[1] + 2
    with pytest.raises(RecordingError) as info:
        trace("too_far", body, In(F32, cells([64], [16])), Shared(F32))
    err = info.value
    assert (err.kernel, err.op) == ("too_far", "assume")
    assert str(1 << 70) in str(err) and err.where.endswith(f"test_wire.py:{line}")


@pytest.mark.parametrize("length", range(1, 13))
def test_a_varint_of_every_length_up_to_ten_bytes_reads_and_longer_is_refused(length):
    # length - 1 continuation bytes, then a last byte: the value is 1 << 7*(length-1),
    # which u64 holds up to ten bytes; an eleventh byte is refused however small it is
    data = b"\x80" * (length - 1) + b"\x01"
    src = Source(data)
    if length <= 10:
        assert src.varint() == (1 << (7 * (length - 1))) & U64_MAX
        assert src.remaining() == 0
    else:
        with pytest.raises(DecodeError, match="varint longer than 10 bytes") as err:
            src.varint()
        assert "offset 0" in str(err.value)


def test_the_largest_ten_byte_varint_is_u64_max():
    assert Source(b"\xff" * 9 + b"\x01").varint() == U64_MAX
