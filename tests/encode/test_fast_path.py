"""The op writer's fast path (``opwrite.write_ops``) against its checking path (``_write_op``).

``write_ops`` writes the usual op itself and sends any other to ``_write_op``, whose checks
name faults; both must give the same bytes.  Emptying ``plans.FAST`` sends every op down
the checking path, so each module here is encoded both ways and compared byte for byte:
every sample family in every version that holds it, and every bundled kernel.
"""

from __future__ import annotations

import attrs
import pytest

from support.samples import family_versions
from tileir.encode import encode, opwrite, plans
from tileir.errors import EncodeError
from tileir.ir.dialect import VERSIONS
from tileir.ir.memo import clear_memos
from tileir.ir.module import Block, Dense, Function, Module, Op, Value, freeze_attrs
from tileir.kernels import registry
from tileir.types import F32, I1, PointerType, TileType, TokenType

CASES = list(family_versions())


def _checking_path_only(monkeypatch) -> None:
    # (the plain ops' layouts are made from FAST's records: a warm memo of them would keep
    # the fast path, so it starts empty too)
    for v in VERSIONS:
        monkeypatch.setitem(plans.FAST, v, {})
        monkeypatch.setitem(opwrite._LAYOUTS, v, {})


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
    # ops with regions too (for, reduce, scan, loop, if): their blocks after their operands
    for name in ("flash_attn", "cumsum_cols_f32", "collatz_steps", "if_sign_f32"):
        encode(registry.get(name).build().module, "13.4", debug_info=True)
    assert checked == []


@pytest.mark.parametrize("bad", [F32, PointerType(F32)], ids=["format", "pointer"])
def test_a_usual_op_whose_result_is_no_value_is_refused_as_the_checking_path_refuses_it(bad):
    x = Value(0, TileType((), F32))
    add = Op("addf", (x, x), (Value(1, bad),))
    module = Module((Function("k", (x,), Block((), (add, Op("return")))),))
    with pytest.raises(
        EncodeError, match=r"value %1 has type .*; values are tiles, views or tokens"
    ):
        encode(module, "13.4")


def test_plain_ops_are_written_by_their_layouts(monkeypatch):
    # (a layout memo that stayed empty would pass the byte comparisons above too)
    layouts: dict = {}
    monkeypatch.setitem(opwrite._LAYOUTS, (13, 4), layouts)
    encode(registry.get("vadd").build().module, "13.4", debug_info=True)
    made = {key[0] for key, layout in layouts.items() if layout}
    assert {"make_token", "get_tile_block_id", "addf", "return"} <= made


def test_ops_whose_attributes_need_no_pool_are_written_by_layouts_of_their_maps(monkeypatch):
    layouts: dict = {}
    monkeypatch.setitem(opwrite._LAYOUTS, (13, 4), layouts)
    module = registry.get("histogram").build().module
    fast = encode(module, "13.4", debug_info=True)
    by_map = {key[0]: layout for key, layout in layouts.items() if len(key) == 4}
    # enums, predicates: their bytes are in the layout, keyed by the op's (shared) map
    assert {"assume", "cmpi"} <= {n for n, x in by_map.items() if x}
    assert by_map["constant"] is False  # a dense value: an index into the Constant table
    assert by_map["assert"] is False  # its message: an index into the String table
    assert encode(module, "13.4", debug_info=True) == fast  # (the layouts taken)
    _checking_path_only(monkeypatch)
    assert encode(module, "13.4", debug_info=True) == fast


def _fault(module: Module, version: str) -> str:
    with pytest.raises(EncodeError) as e:
        encode(module, version)
    return str(e.value)


@pytest.mark.parametrize(
    "op",
    [
        Op("addf", (Value(0, TileType((), F32)),) * 2, ()),  # a result short
        Op("addf", (Value(0, TileType((), F32)),) * 3, (Value(1, TileType((), F32)),)),
        Op("addf", (Value(5, TileType((), F32)),) * 2, (Value(1, TileType((), F32)),)),
        Op("addf", (Value(0, TileType((), F32)),) * 2, (Value(0, TileType((), F32)),)),
        Op("no_such_op", (), ()),
        # a grouped op (no "*" group) short of its pointer operand: no layout takes it
        Op("load_ptr_tko", (), (Value(1, TileType((), F32)), Value(2, TokenType()))),
    ],
    ids=["results", "operands", "undefined", "defined-twice", "unknown", "groups"],
)
def test_a_plain_op_at_fault_is_refused_as_the_checking_path_refuses_it(op, monkeypatch):
    x = Value(0, TileType((), F32))
    module = Module((Function("k", (x,), Block((), (op, Op("return")))),))
    for _ in range(2):  # its layout made, then found in the memo
        fast = _fault(module, "13.4")
    with monkeypatch.context() as patched:
        _checking_path_only(patched)
        assert _fault(module, "13.4") == fast


def _with_changed(change, kernel: str = "softmax", name: str = "reduce") -> Module:
    """``kernel``'s module with its first ``name`` op replaced by ``change(op)``."""
    module = registry.get(kernel).build().module
    fn = module.functions[0]
    ops = list(fn.body.ops)
    at = next(i for i, op in enumerate(ops) if op.name == name)
    ops[at] = change(ops[at])
    body = attrs.evolve(fn.body, ops=tuple(ops))
    return attrs.evolve(module, functions=(attrs.evolve(fn, body=body),))


def _region(op: Op, ops) -> Op:
    (block,) = op.regions
    return attrs.evolve(op, regions=(attrs.evolve(block, ops=tuple(ops)),))


@pytest.mark.parametrize(
    "change, says",
    [
        (lambda op: attrs.evolve(op, regions=()), "`reduce`: has 0 regions"),
        (lambda op: attrs.evolve(op, regions=op.regions * 2), "`reduce`: has 2 regions"),
        (lambda op: _region(op, op.regions[0].ops[:-1]), "`reduce`: a block must end in"),
        (
            lambda op: _region(
                op,
                (
                    Op("maxf", (Value(99, op.regions[0].args[0].type),) * 2, (Value(98, F32),)),
                    *op.regions[0].ops[1:],
                ),
            ),
            "`maxf`: operand %99 is not defined",  # (the innermost op is named)
        ),
    ],
    ids=["no-region", "two-regions", "no-terminator", "inner-undefined"],
)
def test_an_op_with_regions_at_fault_is_refused_as_the_checking_path_refuses_it(
    change, says, monkeypatch
):
    module = _with_changed(change)
    fast = _fault(module, "13.4")
    assert says in fast and "kernel `softmax`" in fast
    with monkeypatch.context() as patched:
        _checking_path_only(patched)
        assert _fault(module, "13.4") == fast


@pytest.mark.parametrize("n_regions", [0, 1, 3])
def test_an_if_without_its_two_regions_takes_no_layout(n_regions, monkeypatch):
    # an if has no attributes that need a pool, so a plain op of its name and counts could
    # take a layout: one without regions must be refused there, not written without them
    def change(op):
        return attrs.evolve(op, regions=(op.regions * 2)[:n_regions])

    module = _with_changed(change, "if_sign_f32", "if")
    fast = _fault(module, "13.4")
    assert f"`if`: has {n_regions} regions, the dialect gives it 2" in fast
    with monkeypatch.context() as patched:
        _checking_path_only(patched)
        assert _fault(module, "13.4") == fast


def _constant_module(t: TileType, data: bytes) -> Module:
    c = Op("constant", (), (Value(0, t),), {"value": Dense(t, data)})
    return Module((Function("k", (), Block((), (c, Op("return")))),))


@pytest.mark.parametrize(
    "t, good, bad",
    [
        (TileType((4,), F32), b"\0" * 16, b"\0" * 12),  # another length of the same type
        (TileType((16,), I1), b"\xff", b"\x01"),  # an i1 splat: its first byte matters too
    ],
    ids=["f32", "i1"],
)
def test_a_dense_constant_found_good_once_does_not_pass_a_bad_one(t, good, bad):
    # (opwrite._GOOD_DENSE keeps the types and lengths dense_fault found no fault with)
    clear_memos()
    cold = _fault(_constant_module(t, bad), "13.4")
    written = encode(_constant_module(t, good), "13.4")
    assert _fault(_constant_module(t, bad), "13.4") == cold
    assert encode(_constant_module(t, good), "13.4") == written


def test_segments_found_good_once_fit_only_the_operand_count_they_sum_to():
    # (OpPlan.sizes remembers good segments with their sum; sizes reads an op's operands and
    # segments only, so a stand-in serves)
    from types import SimpleNamespace

    plan = plans.PLANS["make_tensor_view"]
    clear_memos()
    seg = (1, 1, 1)
    for _ in range(2):  # found good, then remembered
        assert plan.sizes(SimpleNamespace(operands=(None,) * 3, segments=seg)) == seg
        assert plan.sizes(SimpleNamespace(operands=(None,) * 4, segments=seg)) is None
    assert plan.sizes(SimpleNamespace(operands=(None,) * 3, segments=(1, -1, 3))) is None


def test_a_reduce_whose_identities_are_not_scalars_is_refused_by_name():
    kernel = registry.get("softmax").build()
    fn = kernel.module.functions[0]
    ops = list(fn.body.ops)
    at = next(i for i, op in enumerate(ops) if op.name == "reduce")
    ops[at] = attrs.evolve(ops[at], attrs=freeze_attrs({"dim": 0, "identities": (1.0,)}))
    body = attrs.evolve(fn.body, ops=tuple(ops))
    module = attrs.evolve(kernel.module, functions=(attrs.evolve(fn, body=body),))
    with pytest.raises(EncodeError, match=r"`reduce`: identities must be Scalars, not \(1\.0,\)"):
        encode(module, "13.4")
