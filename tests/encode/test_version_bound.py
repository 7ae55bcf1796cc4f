"""``version_bound``: the quick walk ``check_version`` trusts before it builds any Need.

The bound must never fall below what ``needs`` finds (else a version too low would be let
through unrefused), and ``check_version`` must refuse exactly the versions below the module's
required version, as the full walk does, on every hand-built family and every bundled kernel.
"""

from __future__ import annotations

import pytest

from support.samples import family_versions
from tileir.encode import encode, required_version
from tileir.encode.versions import check_version, version_bound
from tileir.errors import EncodeError
from tileir.ir.dialect import VERSIONS
from tileir.kernels import registry

FAMILY_CASES = list(family_versions())


def _refused(module, version) -> bool:
    try:
        check_version(module, version)
    except EncodeError:
        return True
    return False


def _assert_bound_is_sound(module):
    need = required_version(module)
    assert version_bound(module) >= need
    for v in VERSIONS:
        assert _refused(module, v) == (v < need), (v, need)


@pytest.mark.parametrize(
    "family,version,module",
    FAMILY_CASES,
    ids=[f"{f}-{v[0]}.{v[1]}" for f, v, _ in FAMILY_CASES],
)
def test_bound_covers_every_need_of_a_family(family, version, module):
    _assert_bound_is_sound(module)


def test_bound_covers_every_need_of_the_bundled_kernels():
    needs_seen = set()
    for spec in registry.specs():
        module = spec.build().module
        _assert_bound_is_sound(module)
        needs_seen.add(required_version(module))
    assert len(needs_seen) > 1  # the kernels span versions, so the refusals were exercised


def test_a_module_below_its_bound_is_still_written():
    # the bound may exceed the true need: a version between them must still encode
    loose = [m for _, _, m in FAMILY_CASES if required_version(m) < version_bound(m)]
    assert loose  # the families hold such modules (attributes newer than their op, left out)
    for module in loose:
        need = required_version(module)
        assert encode(module, need)[8:10] == bytes(need)


def _message(fn) -> str:
    try:
        fn()
    except EncodeError as e:
        return str(e)
    return ""


@pytest.mark.parametrize(
    "family,version,module",
    FAMILY_CASES,
    ids=[f"{f}-{v[0]}.{v[1]}" for f, v, _ in FAMILY_CASES],
)
def test_encode_refuses_a_version_below_the_need_as_check_version_does(family, version, module):
    # encode checks the version inside its one walk (the writer notes ops that may need more,
    # the type table checks each type); a refusal must read exactly as check_version's
    need = required_version(module)
    for v in VERSIONS:
        refusal = _message(lambda: encode(module, v, debug_info=True))
        if v < need:
            assert refusal and refusal == _message(lambda: check_version(module, v)), v
        else:
            assert refusal == "", (v, refusal)
