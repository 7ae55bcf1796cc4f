"""The interpreter's rule table covers every body op, and the op cases execute every one."""

from __future__ import annotations

import pytest

import support.interp_cases_memory  # noqa: F401  (registers its cases)
import support.interp_cases_values  # noqa: F401
from support.interp_cases import CASES
from tileir.fake.interpreter import interpret
from tileir.fake.rules import CONTROL, CONTROL_OPS, NUMPY_RULES
from tileir.ir.dialect import BODY_OPS
from tileir.ir.rule_table import rule_table


def test_table_covers_every_body_op():
    assert set(NUMPY_RULES) == set(BODY_OPS)
    assert len(BODY_OPS) == 105


def test_control_flow_is_marked_and_everything_else_has_a_rule():
    for name in BODY_OPS:
        rule = NUMPY_RULES[name]
        assert callable(rule)
        assert (rule is CONTROL) == (name in CONTROL_OPS), name


def test_a_second_rule_for_an_op_is_refused():
    # the table's constructor is the one every interpretation uses
    with pytest.raises(ValueError, match="NUMPY_RULES: op `addf` is defined twice"):
        rule_table("NUMPY_RULES", {"addf": CONTROL}, {"addf": CONTROL})
    with pytest.raises(ValueError, match="not a body op"):
        rule_table("NUMPY_RULES", {"entry": CONTROL})
    with pytest.raises(TypeError, match="read-only"):
        NUMPY_RULES["addf"] = CONTROL  # type: ignore[index]


def test_the_cases_name_every_op():
    declared = set()
    for ops, _fn in CASES.values():
        declared.update(ops)
    assert declared == set(BODY_OPS), sorted(set(BODY_OPS) - declared)


class _Record:
    def __init__(self, inner):
        self.inner = inner
        self.seen = set()

    def after_op(self, op, results, block_ids):
        self.seen.add(op.name)
        if self.inner is not None:
            self.inner.after_op(op, results, block_ids)

    def on_memory(self, *args):
        if self.inner is not None:
            self.inner.on_memory(*args)


def test_every_op_is_executed_by_some_case():
    seen = set()

    def run(module, entry, args, grid, observer=None, **kw):
        rec = _Record(observer)
        try:
            return interpret(module, entry, args, grid, observer=rec, verify=False, **kw)
        finally:
            seen.update(rec.seen)

    for _ops, fn in CASES.values():
        fn(run)
    assert set(BODY_OPS) <= seen, sorted(set(BODY_OPS) - seen)
