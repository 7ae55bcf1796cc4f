"""Properties of the bytecode encoder and decoder over random Modules and random bytes.

* a round trip gives the canonical Module back, for every version from the
  one the Module needs to 13.4, and versions below it are refused (a Module
  whose pointers or tensor views carry 13.4's ptr_attr needs 13.4), and the
  checker accepts every drawn Module (the strategies draw well-formed ones);
* encoding does not depend on how a Module spells ids and defaults;
* locations survive a round trip with debug info;
* ``tileirdisasm`` (NVIDIA's reader, with the dialect's verifier) accepts a
  sample of the encodings;
* arbitrary bytes, and single-byte mutations and truncations of valid files,
  decode or raise DecodeError, never anything else.
"""

from __future__ import annotations

import os

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from module_strategies import carries_ptr_attr, modules
from support.tools import needs_tools
from tileir.encode import canonicalize, decode, encode, required_version
from tileir.errors import DecodeError, EncodeError
from tileir.ir.dialect import VERSIONS
from tileir.ir.module import DIFile, Subprogram, walk
from tileir.real import tileiras
from tileir.verify.checker import verify

_SLOW_DRAWS = settings(
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None
)


@pytest.mark.slow
@_SLOW_DRAWS
@given(modules())
def test_round_trip_gives_the_canonical_module_in_every_version_that_holds_it(m):
    verify(m)  # the draws are well-formed (a tensor view keeps its base's ptr_attr, ...)
    need = required_version(m)
    if carries_ptr_attr(m):  # no version before 13.4 can write a ptr_attr
        assert need >= (13, 4)
    canon = canonicalize(m)
    assert canonicalize(canon) == canon
    for v in VERSIONS:
        if v < need:
            with pytest.raises(EncodeError):
                encode(m, v)
            continue
        data = encode(m, v)
        assert data[8:10] == bytes(v)
        back = decode(data)
        assert back == canon
        assert encode(back, v) == data  # decoding loses nothing the writer wrote


@_SLOW_DRAWS
@given(modules())
def test_encoding_ignores_id_spelling_and_default_attributes(m):
    assert encode(m) == encode(canonicalize(m))
    assert encode(m) == encode(m, required_version(m))


@_SLOW_DRAWS
@given(modules())
def test_locations_survive_a_round_trip_with_debug_info(m):
    back = decode(encode(m, debug_info=True))
    for ours, theirs in zip(m.functions, back.functions):
        ops, read = list(walk(ours.body)), list(walk(theirs.body))
        anchor = ours.loc or next((o.loc for o in ops if o.loc is not None), None)
        own = None
        if anchor is not None:  # the subprogram the encoder makes for the function
            file = DIFile(os.path.basename(anchor.file), os.path.dirname(anchor.file))
            own = Subprogram(file, anchor.line, ours.name, ours.name, file, anchor.line)
        assert [_placed(o.loc, own) for o in ops] == [o.loc for o in read]
        assert theirs.loc == _placed(anchor, own)


def _placed(loc, own):
    """``loc`` as it reads back: one that names no scope lies in the function's own
    subprogram, and so do its callers'; every scope and call site comes back as written."""
    if loc is None:
        return None
    scope = loc.scope or own
    return attrs.evolve(loc, scope=scope, caller=_placed(loc.caller, own))


@needs_tools
@settings(
    max_examples=10,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    deadline=None,
)
@given(modules())
def test_tileirdisasm_accepts_what_we_write(m):
    text = tileiras.disassemble(encode(m))
    for fn in m.functions:
        assert f"entry @{fn.name}(" in text


def _decodes_or_refuses(data: bytes) -> None:
    try:
        decode(data)
    except DecodeError as e:
        assert "offset" in str(e)


@given(st.binary(max_size=200))
def test_random_bytes_decode_or_raise_decode_error(data):
    _decodes_or_refuses(data)


@given(st.sampled_from(VERSIONS), st.binary(max_size=200))
def test_random_bytes_after_a_valid_header_decode_or_raise_decode_error(v, tail):
    _decodes_or_refuses(b"\x7fTileIR\x00" + bytes(v) + b"\x00\x00" + tail)


@_SLOW_DRAWS
@given(modules(max_functions=1, max_ops=4), st.data())
def test_mutated_and_truncated_encodings_decode_or_raise_decode_error(m, data):
    good = encode(m, debug_info=data.draw(st.booleans()))
    at = data.draw(st.integers(0, len(good) - 1))
    byte = data.draw(st.integers(0, 255))
    _decodes_or_refuses(good[:at] + bytes([byte]) + good[at + 1 :])
    cut = data.draw(st.integers(0, len(good) - 1))
    with pytest.raises(DecodeError, match="offset"):
        decode(good[:cut])
