"""Malformed bytecode is refused with a DecodeError that names the byte offset.

Files are put together by hand here (header, sections, a function body of a
few instructions) so each test breaks exactly one thing.
"""

from __future__ import annotations

import pytest

from support.samples import control_family, vadd_module
from tileir.encode import decode, encode
from tileir.encode.pools import write_table
from tileir.encode.wire import SECTION, Sink
from tileir.errors import DecodeError

# types: 0 i32, 1 () -> (), 2 token, 3 tile<i32>, 4 (tile<i32>) -> ()
TYPES = [b"\x03", b"\x10\x00\x00", b"\x11", b"\x0d\x00\x00", b"\x10\x01\x03\x00"]
RETURN = b"\x5c\x00\x00"
MAKE_TOKEN = b"\x44\x02"


def _table(entries, width) -> bytes:
    s = Sink()
    write_table(s, entries, width)
    return bytes(s.buf)


def _section(out: Sink, name: str, payload: bytes, alignment: int) -> None:
    out.byte(SECTION[name] | (0x80 if alignment else 0))
    out.varint(len(payload))
    if alignment:
        out.varint(alignment)
        out.pad_to(alignment)
    out.raw(payload)


def _func(body: bytes, *, name=0, sig=1, flags=0x02, loc=0, tail=b"") -> bytes:
    s = Sink()
    s.varint(1)
    s.varint(name)
    s.varint(sig)
    s.byte(flags)
    s.varint(loc)
    s.varint(len(body))
    s.raw(body)
    return bytes(s.buf) + tail


def bytecode(
    body: bytes = RETURN,
    *,
    version=(13, 4),
    func: bytes | None = None,
    types=TYPES,
    strings=(b"k",),
    extra=(),
    skip=(),
    end=b"\x00",
) -> bytes:
    """A file with one entry `k` whose body is ``body``; ``extra`` adds (name, payload, align)."""
    out = Sink()
    out.raw(b"\x7fTileIR\x00" + bytes(version) + b"\x00\x00")
    sections = [
        ("func", func if func is not None else _func(body), 8),
        ("type", _table(list(types), 4), 4),
        *extra,
        ("string", _table(list(strings), 4), 4),
    ]
    for name, payload, alignment in sections:
        if name not in skip:
            _section(out, name, payload, alignment)
    return bytes(out.buf) + end


def refused(data: bytes, words: str) -> DecodeError:
    with pytest.raises(DecodeError, match=words) as err:
        decode(data)
    assert "offset" in str(err.value)
    return err.value


def test_the_hand_made_file_is_valid():
    m = decode(bytecode(MAKE_TOKEN + RETURN))
    assert [op.name for op in m.functions[0].body.ops] == ["make_token", "return"]


# ----------------------------------------------------------------------------- header


@pytest.mark.parametrize(
    "data", [b"", b"\x7fTile", b"\x7fTileIX\x00\x0d\x04\x00\x00", b"MZ" + bytecode()[2:]]
)
def test_bad_magic(data):
    refused(data, "magic|truncated")


@pytest.mark.parametrize("version", [(13, 0), (13, 6), (12, 4), (14, 1)])
def test_unsupported_version(version):
    refused(bytecode(version=version), "unsupported bytecode version")


def test_truncated_header():
    refused(bytecode()[:10], "truncated")


# ----------------------------------------------------------------------------- sections


@pytest.mark.parametrize("cut", [12, 13, 20, 40, -2, -1])
def test_truncated_file(cut):
    good = bytecode(MAKE_TOKEN + RETURN)
    refused(good[:cut], "truncated|runs past")


def test_truncated_varint():
    head = bytecode()[:12]
    refused(head + bytes([SECTION["string"] | 0x80, 0x85]), "truncated")


def test_varint_longer_than_ten_bytes():
    head = bytecode()[:12]
    refused(head + bytes([SECTION["string"] | 0x80]) + b"\x80" * 11 + b"\x01", "longer than 10")


def test_unknown_section_id():
    good = bytecode()
    refused(good[:12] + b"\x09\x00" + good[12:], "unknown section id 9")


def test_duplicate_section():
    data = bytecode(extra=[("type", _table(TYPES, 4), 4)])
    refused(data, "appears twice")


@pytest.mark.parametrize("missing", ["string", "func"])
def test_missing_mandatory_section(missing):
    refused(bytecode(skip=(missing,)), f"{missing} section is missing")


def test_section_without_its_alignment():
    out = Sink()
    out.raw(bytecode()[:12])
    _section(out, "func", _func(RETURN), 0)
    refused(bytes(out.buf), "must be aligned")


def test_alignment_not_a_power_of_two():
    out = Sink()
    out.raw(bytecode()[:12])
    out.byte(SECTION["func"] | 0x80)
    out.varint(3)
    out.varint(3)
    refused(bytes(out.buf) + b"\x00" * 8, "power of two")


def test_section_longer_than_the_file():
    out = Sink()
    out.raw(bytecode()[:12])
    out.byte(SECTION["producer"])
    out.varint(500)
    refused(bytes(out.buf) + b"\x00\x00", "runs past the end")


def test_end_marker_with_alignment_flag():
    refused(bytecode(end=b"\x80"), "end marker")


def test_trailing_bytes():
    refused(bytecode() + b"\x00", "trailing bytes")
    refused(encode(vadd_module()) + b"\xcb\xcb", "trailing bytes")


# ----------------------------------------------------------------------------- indices


def test_string_index_out_of_range():
    refused(bytecode(func=_func(RETURN, name=5)), "function name index 5 out of range")


def test_type_index_out_of_range():
    refused(bytecode(func=_func(RETURN, sig=9)), "index 9 out of range")
    refused(bytecode(b"\x44\x09" + RETURN), "result type index 9 out of range")


def test_constant_index_out_of_range():
    refused(bytecode(b"\x10\x03\x00" + RETURN), "constant index 0 out of range")


def test_value_index_out_of_range():
    # negi of value 7 in a function with one parameter
    refused(
        bytecode(b"\x50\x03\x00\x07" + RETURN, func=_func(b"\x50\x03\x00\x07" + RETURN, sig=4)),
        "value index 7 out of range",
    )


def test_debug_row_out_of_range():
    refused(bytecode(func=_func(RETURN, loc=3)), "no row in the Debug section")


# ----------------------------------------------------------------------------- opcodes


@pytest.mark.parametrize(
    "opcode,words",
    [
        (b"\x19", "not a body op"),
        (b"\x16", "not a body op"),
        (b"\x31", "not a body op"),
        (b"\x7b", "above bytecode 13.4"),
        (b"\x80\x80\x01", "above bytecode 13.4"),
    ],
)
def test_unknown_or_structural_opcode(opcode, words):
    refused(bytecode(opcode + RETURN), words)


def test_opcode_above_the_version_maximum():
    # gdc_wait_tko (0x78) is a 13.4 op: refused in a 13.3 file
    body = b"\x78\x02\x00" + RETURN
    assert decode(bytecode(body, version=(13, 4)))
    refused(bytecode(body, version=(13, 3)), "opcode 0x78 is above bytecode 13.3")


def test_enum_value_out_of_range():
    body = b"\x50\x03\x09\x00" + RETURN  # negi overflow = 9
    refused(bytecode(body, func=_func(body, sig=4)), "not a overflow value")


def test_unknown_flag_bits():
    body = b"\x44\x02" + b"\x78\x02\x00" + b"\x18\x03\x06\x00" + RETURN  # exp2 flags 0x6
    refused(bytecode(body, func=_func(b"\x18\x03\x06\x00" + RETURN, sig=4)), "unknown bits")


# ----------------------------------------------------------------------------- blocks


def test_body_without_a_terminator():
    refused(bytecode(MAKE_TOKEN), "does not end in a terminator")
    refused(bytecode(b""), "does not end in a terminator")


def test_terminator_in_the_middle_of_a_block():
    refused(bytecode(RETURN + RETURN), "middle of a block")


def test_body_ending_in_another_terminator():
    refused(bytecode(b"\x6d\x00\x00"), "not `return`")


def test_region_block_without_a_terminator():
    # loop with no results/operands, one region, one block, 0 args, 1 op (make_token)
    loop = b"\x41\x00\x00" + b"\x01\x01\x00\x01" + MAKE_TOKEN
    refused(bytecode(loop + RETURN), "does not end in a terminator")


def test_wrong_region_and_block_counts():
    refused(bytecode(b"\x41\x00\x00\x02" + RETURN), "must have 1 regions")
    refused(bytecode(b"\x41\x00\x00\x01\x02" + RETURN), "exactly one block")


def test_non_entry_function():
    refused(bytecode(func=_func(RETURN, flags=0x00)), "non-entry")


def test_signature_is_not_a_function_type():
    refused(bytecode(func=_func(RETURN, sig=0)), "not a FunctionType")


# ----------------------------------------------------------------------------- types


def test_unknown_type_tag():
    refused(
        bytecode(types=[b"\x63", b"\x10\x00\x00", b"\x11"], func=_func(b"\x44\x00" + RETURN)),
        "unknown type tag 99",
    )


def test_type_that_refers_to_itself():
    types = [b"\x0d\x00\x00", b"\x10\x00\x00"]  # tile whose element is itself
    refused(bytecode(b"\x44\x00" + RETURN, types=types), "refers to itself")


def test_type_newer_than_the_file():
    types = [b"\x13", b"\x10\x00\x00", b"\x0d\x00\x01\x04\x00\x00\x00\x00\x00\x00\x00"]
    body = b"\x3a\x02" + RETURN  # iota : tile<4xf4E2M1FN>
    refused(bytecode(body, types=types, version=(13, 1)), "needs bytecode 13.3")


def test_unknown_attribute_tag():
    body = b"\x06\x03\x63\x00" + RETURN  # assume with attribute tag 99
    refused(bytecode(body, func=_func(body, sig=4)), "unknown attribute tag 99")


def test_mutating_a_real_file_never_raises_anything_else():
    good = encode(control_family((13, 4)), debug_info=True)
    for at in range(len(good)):
        for byte in (0x00, 0x7F, 0xFF):
            data = good[:at] + bytes([byte]) + good[at + 1 :]
            try:
                decode(data)
            except DecodeError as e:
                assert "offset" in str(e)


# ----------------------------------------------------------------------------- ptr_attr (13.4)


def _with_pointer_param(pointer: bytes) -> bytes:
    # types 5: the pointer given, 6: tile<it>, 7: (tile<it>) -> ()
    return bytecode(
        func=_func(RETURN, sig=7), types=TYPES + [pointer, b"\x0d\x05\x00", b"\x10\x01\x06\x00"]
    )


def test_a_pointer_with_ptr_attr_none_decodes():
    from tileir.types import I32, PointerType, TileType

    module = decode(_with_pointer_param(b"\x0c\x01\x00\x00"))  # flags 1, i32, attr 0
    assert module.functions[0].params[0].type == TileType((), PointerType(I32, "none"))
    plain = decode(_with_pointer_param(b"\x0c\x00\x00"))
    assert plain.functions[0].params[0].type == TileType((), PointerType(I32))


@pytest.mark.parametrize(
    "pointer,words",
    [
        (b"\x0c\x01\x00\x01", r"ptr_attr value 1 \(unicast\) needs bytecode 13.5"),
        (b"\x0c\x01\x00\x03", "ptr_attr value 3 is not one of the 3 13.5 defines"),
        (b"\x0c\x03\x00\x00", "pointer type flags 0x3 set bits other than bit 0"),
        (b"\x0c\x01\x00", "past the end|truncated|ends"),
    ],
)
def test_bad_ptr_attrs_are_refused(pointer, words):
    refused(_with_pointer_param(pointer), words)


def test_a_tensor_view_ptr_attr_decodes_and_bad_ones_are_refused():
    import re

    from support.samples import ptr_attr_family
    from tileir.types import F32, TensorViewType

    data = encode(ptr_attr_family((13, 4)), (13, 4))
    views = {
        op.results[0].type
        for op in decode(data).functions[0].body.ops
        if op.name == "make_tensor_view"
    }
    assert TensorViewType(F32, (), (), "none") in views
    # the rank-0 view's entry: tag 14, flags 1, element, no dims, no strides, ptr_attr 0
    found = list(re.finditer(rb"\x0e\x01.\x00\x00\x00", data, re.S))
    assert len(found) == 1
    at = found[0].end() - 1
    refused(data[:at] + b"\x04" + data[at + 1 :], "ptr_attr value 4")


@pytest.mark.parametrize(
    ("opcode", "names"), [(0x18, ("flush_to_zero",)), (0x45, ("propagate_nan", "flush_to_zero"))]
)
def test_every_known_flag_reads_and_the_first_bit_past_them_is_refused(opcode, names):
    # exp2 (one flag) and maxf (two): flags with every known bit set decode, each flag
    # on; the next bit up, alone, is refused at its byte
    operands = b"\x00" * (2 if opcode == 0x45 else 1)

    def body(flags: int) -> bytes:
        return bytes([opcode, 3, flags]) + operands + RETURN

    every = (1 << len(names)) - 1
    (op, _ret) = (
        decode(bytecode(body(every), func=_func(body(every), sig=4))).functions[0].body.ops
    )
    assert all(op.attrs[n] is True for n in names), op.attrs
    past = 1 << len(names)
    refused(
        bytecode(body(past), func=_func(body(past), sig=4)), f"flags {past:#x} set unknown bits"
    )
