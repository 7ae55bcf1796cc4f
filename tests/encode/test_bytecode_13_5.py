"""Bytecode 13.5 (docs/bytecode.md §3.11, docs/dialect.md §1.13): the version a module needs,
the 13.5 function-table entry, the header's version tag, DISubprogram flags, attribute tag
13, and the multimem kernels through the 13.5.37 tools."""

from __future__ import annotations

import pytest

from support.tools import needs_tools
from tileir import (
    F32,
    FREE_AXIS,
    I32,
    In,
    Out,
    Shared,
    atomic_cell,
    cells,
    load_cell,
    load_reduce_cell,
    store_cell_all,
    trace,
)
from tileir.encode import decode, encode, required_version
from tileir.encode.attrcodec import read_tagged, write_tagged
from tileir.encode.pools import Pools, ReadPools
from tileir.encode.wire import Sink, Source
from tileir.errors import DecodeError, EncodeError
from tileir.ir.module import MultimemReduction
from tileir.kernels.registry import get
from tileir.text.render import render

G = cells([256], [64])


def _allreduce():
    def body(x, out):
        t = yield load_reduce_cell(x, ordering="relaxed", scope="device")
        yield store_cell_all(out, t)

    return trace("ar", body, In(F32, G, ptr_attr="multicast"), Out(F32, G, ptr_attr="multicast"))


def _cell_inbounds(inbounds):
    def body(x, acc):
        t = yield load_cell(x)
        yield atomic_cell("add", acc, t, [0], inbounds=inbounds)

    return trace("cell", body, In(I32, G), Shared(I32, cells([64], [64], along=[FREE_AXIS])))


def test_the_lowest_version_holding_a_module_stays_the_default():
    assert required_version(_allreduce().module) == (13, 5)
    assert encode(_allreduce().module)[8:10] == bytes((13, 5))
    assert required_version(_cell_inbounds(None).module) == (13, 3)
    assert required_version(_cell_inbounds(True).module) == (13, 5)
    assert encode(get("vadd").kernel().module)[8:10] == bytes((13, 1))


@pytest.mark.parametrize(
    "make,words",
    [
        (
            _allreduce,
            r"type ptr<f32, <multicast>> \(parameter %0\) needs bytecode 13.5 or later, but 13.4",
        ),
        (
            lambda: _cell_inbounds(True),
            r"attribute inbounds = \(True,\) of `atomic_red_view_tko` "
            r"needs bytecode 13.5 or later, but 13.4",
        ),
    ],
)
def test_a_13_5_feature_asked_for_at_13_4_is_named_with_its_version(make, words):
    with pytest.raises(EncodeError, match=words) as caught:
        encode(make().module, "13.4")
    assert caught.value.kernel in ("ar", "cell")
    if caught.value.op is not None:  # an op's need names the user's line (a parameter has none)
        assert "test_bytecode_13_5.py" in str(caught.value)


def test_multicast_pointers_alone_need_13_5():
    def body(x, out):
        yield store_cell_all(out, (yield load_reduce_cell(x)))

    k = trace("k", body, In(F32, G, ptr_attr="multicast"), Out(F32, G, ptr_attr="multicast"))
    with pytest.raises(EncodeError, match="13.5"):
        encode(k.module, (13, 4))


def _entry_bytes(data: bytes) -> bytes:
    # the Func section is the first one: id 0x82 (aligned), length, alignment, padding
    at = data.index(b"\x82", 12)
    return data[at : at + 24]


def test_a_13_5_entry_always_carries_hints_and_argument_dictionaries():
    m = get("vadd").kernel().module
    v4, v5 = encode(m, "13.4"), encode(m, "13.5")
    assert b"\x02\x00\x0b\x00\x06\x00" in v5 and b"\x02\x00\x0b\x00\x06\x00" not in v4
    assert decode(v5) == m and decode(v4) == m
    hinted = get("hints_view_f32").kernel().module
    assert decode(encode(hinted, "13.5")) == hinted


def _with_tag(data: bytes, tag: int) -> bytes:
    return data[:10] + tag.to_bytes(2, "little") + data[12:]


def test_the_header_preview_bit_is_refused_unless_asked_for():
    m = get("vadd").kernel().module
    v5 = _with_tag(encode(m, "13.5"), 1)
    with pytest.raises(DecodeError, match="preview=True"):
        decode(v5)
    assert decode(v5, preview=True) == m
    with pytest.raises(DecodeError, match="only valid at version 13.5"):
        decode(_with_tag(encode(m, "13.4"), 1), preview=True)
    for bits in (2, 4, 0x100, 0x8000):
        with pytest.raises(DecodeError, match="unrecognized version tag bits"):
            decode(_with_tag(encode(m, "13.5"), bits))


def test_entry_flags_other_than_a_public_kernel_are_refused():
    data = bytearray(encode(get("vadd").kernel().module, "13.5"))
    at = bytes(data).index(b"\x02\x00\x0b\x00\x06\x00")
    for flags, words in (
        (0x03, "public symbol visibility"),
        (0x06, "both kernel and extern"),
        (0x00, "preview\\$func"),
        (0x04, "extern implementation"),
        (0x0A, "unrecognized bits"),
    ):
        data[at] = flags
        with pytest.raises(DecodeError, match=words):
            decode(bytes(data))


def test_the_reduction_kind_attribute_is_tag_13_from_13_5():
    s = Sink()
    write_tagged(s, MultimemReduction("umin"), Pools((13, 5)))
    assert bytes(s.buf) == b"\x0d\x06"
    back = read_tagged(Source(bytes(s.buf), 0, "t"), ReadPools((13, 5), (b"", [], 0), None, None))
    assert back == MultimemReduction("umin")
    with pytest.raises(EncodeError, match="needs bytecode 13.5"):
        write_tagged(Sink(), MultimemReduction("add"), Pools((13, 4)))
    with pytest.raises(DecodeError, match="needs bytecode 13.5"):
        read_tagged(Source(b"\x0d\x00", 0, "t"), ReadPools((13, 4), (b"", [], 0), None, None))
    with pytest.raises(DecodeError, match="not one of 8"):
        read_tagged(Source(b"\x0d\x08", 0, "t"), ReadPools((13, 5), (b"", [], 0), None, None))
    with pytest.raises(ValueError, match="not one of add"):
        MultimemReduction("sum")


def test_debug_info_carries_the_subprogram_flags_at_13_5_only():
    m = _allreduce().module
    with_flags = encode(m, debug_info=True)
    assert decode(with_flags) == m
    old = get("vadd").kernel().module
    assert len(encode(old, "13.5", debug_info=True)) >= len(encode(old, "13.4", debug_info=True))
    assert decode(encode(old, "13.5", debug_info=True)) == decode(
        encode(old, "13.4", debug_info=True)
    )


@needs_tools
def test_tileirdisasm_13_5_prints_what_render_prints_with_debug_info():
    from tileir.real import tileiras
    from tileir.text.compare import normalize_ssa

    if not tileiras.tool_version("tileirdisasm").startswith("13.5"):
        pytest.skip("needs tileirdisasm 13.5 (TILEIR_TOOLS_DIR)")
    for m in (_allreduce().module, get("mm_reduce_add_f32").kernel().module):
        shown = tileiras.disassemble(encode(m, debug_info=True), debug_info=True)
        assert "#di_subprogram" in shown
        assert normalize_ssa(shown) == normalize_ssa(render(m, debug_info=True))
