"""The op writer's fast path (``opwrite.write_ops``) against its checking path (``_write_op``).

``write_ops`` writes the usual op itself and sends any other to ``_write_op``, whose checks
name faults; both must give the same bytes.  Emptying ``plans.FAST`` sends every op down
the checking path, so each module here is encoded both ways and compared byte for byte:
every sample family in every version that holds it, and every bundled kernel.
"""

from __future__ import annotations

import pytest

from support.samples import family_versions
from tileir.encode import encode, opwrite, plans
from tileir.errors import EncodeError
from tileir.ir.dialect import VERSIONS
from tileir.ir.module import Block, Function, Module, Op, Value
from tileir.kernels import registry
from tileir.types import F32, PointerType, TileType

CASES = list(family_versions())


def _checking_path_only(monkeypatch) -> None:
    for v in VERSIONS:
        monkeypatch.setitem(plans.FAST, v, {})


@pytest.mark.parametrize("family, version, module", CASES, ids=[f"{f}-{v}" for f, v, _ in CASES])
def test_every_family_gives_the_same_bytes_down_either_path(family, version, module, monkeypatch):
    fast = encode(module, version, debug_info=True)
    _checking_path_only(monkeypatch)
    assert encode(module, version, debug_info=True) == fast


@pytest.mark.parametrize("name", sorted(registry.names()))
def test_every_bundled_kernel_gives_the_same_bytes_down_either_path(name, monkeypatch):
    module = registry.get(name).build().module
    fast = {v: encode(module, v, debug_info=True) for v in (None, "13.5")}
    _checking_path_only(monkeypatch)
    assert {v: encode(module, v, debug_info=True) for v in fast} == fast


def test_the_fast_path_takes_the_usual_ops(monkeypatch):
    # (a fast path that sent every op to the checking path would pass the tests above)
    checked = []
    write_op = opwrite._write_op
    monkeypatch.setattr(
        opwrite,
        "_write_op",
        lambda s, op, scope: (checked.append(op.name), write_op(s, op, scope)),
    )
    encode(registry.get("vadd").build().module, "13.4", debug_info=True)
    assert checked == []
    encode(registry.get("flash_attn").build().module, "13.4", debug_info=True)
    assert sorted(set(checked)) == ["for", "reduce"]  # ops with regions take the checking path


@pytest.mark.parametrize("bad", [F32, PointerType(F32)], ids=["format", "pointer"])
def test_a_usual_op_whose_result_is_no_value_is_refused_as_the_checking_path_refuses_it(bad):
    x = Value(0, TileType((), F32))
    add = Op("addf", (x, x), (Value(1, bad),))
    module = Module((Function("k", (x,), Block((), (add, Op("return")))),))
    with pytest.raises(
        EncodeError, match=r"value %1 has type .*; values are tiles, views or tokens"
    ):
        encode(module, "13.4")
