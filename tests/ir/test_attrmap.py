"""AttrMap, the immutable attribute map of Ops and Tiles (tileir/ir/attrmap.py)."""

from __future__ import annotations

import copy
import pickle

import attrs
import pyrsistent
import pytest

from tileir.ir.attrmap import AttrMap
from tileir.ir.module import EMPTY_ATTRS, Op, Value, freeze_attrs
from tileir.types import I32, TileType

MUTATORS = [
    ("__setitem__", ("k", 1)),
    ("__delitem__", ("dim",)),
    ("update", ({"k": 1},)),
    ("pop", ("dim",)),
    ("popitem", ()),
    ("clear", ()),
    ("setdefault", ("k", 1)),
    ("__ior__", ({"k": 1},)),
]


@pytest.mark.parametrize("method,args", MUTATORS, ids=[m for m, _ in MUTATORS])
def test_every_mutating_method_refuses_and_leaves_the_map_as_it_was(method, args):
    m = AttrMap({"dim": 0, "kind": "x"})
    with pytest.raises(TypeError, match="immutable"):
        getattr(m, method)(*args)
    assert m == {"dim": 0, "kind": "x"}


def test_set_and_discard_give_new_maps():
    m = AttrMap({"dim": 0})
    n = m.set("axis", 1)
    assert type(n) is AttrMap and n == {"dim": 0, "axis": 1}
    assert m == {"dim": 0}
    assert m.set("dim", 2) == {"dim": 2}
    assert n.discard("axis") == m and n.discard("nothing") is n


def test_equal_maps_hash_equal_and_the_hash_is_the_items_frozensets():
    a = AttrMap({"dim": 0, "kind": "x"})
    b = AttrMap({"kind": "x", "dim": 0})  # another insertion order
    assert a == b and hash(a) == hash(b) == hash(frozenset({("dim", 0), ("kind", "x")}))
    assert hash(a) == hash(a)  # the cached hash answers the same
    assert {a: 1}[b] == 1


def test_a_map_compares_with_dicts_and_pyrsistent_maps():
    m = AttrMap({"dim": 0})
    assert m == {"dim": 0} and {"dim": 0} == m
    assert m == pyrsistent.pmap({"dim": 0}) and pyrsistent.pmap({"dim": 0}) == m
    assert m != {"dim": 1}


def test_pickle_and_copy_rebuild_an_equal_map():
    m = AttrMap({"dim": 0, "kind": "x"})
    for other in (pickle.loads(pickle.dumps(m)), copy.copy(m), copy.deepcopy(m)):
        assert type(other) is AttrMap and other == m and hash(other) == hash(m)


def test_freeze_attrs_takes_dicts_mappings_pairs_and_none():
    want = {"dim": 0, "kind": "x"}
    for given in (want, pyrsistent.pmap(want), list(want.items()), AttrMap(want)):
        got = freeze_attrs(given)
        assert type(got) is AttrMap and got == want
    assert freeze_attrs(None) is EMPTY_ATTRS
    assert freeze_attrs({}) is EMPTY_ATTRS
    assert freeze_attrs(AttrMap()) is EMPTY_ATTRS  # every empty map is the one EMPTY_ATTRS


def test_equal_plain_dicts_share_one_map_but_one_and_true_do_not():
    assert freeze_attrs({"dim": 0}) is freeze_attrs({"dim": 0})
    one, true = freeze_attrs({"flag": 1}), freeze_attrs({"flag": True})
    assert one is not true and type(one["flag"]) is int and type(true["flag"]) is bool


def test_tuples_of_exact_ints_share_one_map_but_tuples_of_bools_do_not():
    perm = freeze_attrs({"permutation": (1, 0)})
    assert perm is freeze_attrs({"permutation": (1, 0)})
    flags = freeze_attrs({"permutation": (True, False)})
    assert flags == perm and flags is not perm
    assert [type(x) for x in flags["permutation"]] == [bool, bool]
    assert [type(x) for x in freeze_attrs({"permutation": (1, 0)})["permutation"]] == [int, int]
    mixed = freeze_attrs({"dims": (1, True)})
    assert mixed is not freeze_attrs({"dims": (1, True)})  # (not all exact ints: not shared)


def test_ops_hold_attr_maps_and_drop_defaults_as_before():
    v = Value(0, TileType((), I32))
    op = Op("addi", [v, v], [Value(1, TileType((), I32))], {"overflow": "none"})
    assert type(op.attrs) is AttrMap and op.attrs is EMPTY_ATTRS  # the default is dropped
    edited = attrs.evolve(op, attrs=op.attrs.set("overflow", "nsw"))
    assert edited.attrs == {"overflow": "nsw"} and edited != op
    assert hash(Op("addi", [v, v], [], {"overflow": "nsw"})) == hash(
        Op("addi", [v, v], [], pyrsistent.pmap({"overflow": "nsw"}))
    )
