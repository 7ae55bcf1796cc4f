"""Every interpretation of the ops has one complete rule table, built by one constructor."""

import importlib
import inspect

import pytest

from tileir.ir.dialect import BODY_OPS, OPS
from tileir.ir.rule_table import RuleTable, rule_table
from tileir.ir.signatures import SIGNATURES
from tileir.record import program

#: (module, table): every interpretation of the ops, each keyed by what it interprets
TABLES = [
    ("tileir.encode.optable", "OP_CODECS"),  # bytecode, both directions
    ("tileir.text.rules", "RENDER_RULES"),  # text
    ("tileir.verify.rules", "VERIFY_RULES"),  # the Module checker
    ("tileir.fake.rules", "NUMPY_RULES"),  # the fake device's interpreter
    ("tileir.debug.taint", "TAINT_RULES"),  # the padding finder's taint
    ("tileir.debug.nonfinite", "NONFINITE_RULES"),  # the NaN finder
    ("tileir.lower.lowering", "LOWER_RULES"),  # Program -> Module, by instruction class
]


@pytest.mark.parametrize("module,table", TABLES)
def test_every_table_is_a_rule_table_that_covers_its_whole_domain(module, table):
    rules = getattr(importlib.import_module(module), table)
    assert isinstance(rules, RuleTable), f"{module}.{table} is not built by rule_table"
    assert rules.name == table
    assert rules.missing() == [], f"{module}.{table} lacks {rules.missing()}"
    assert set(rules) == set(rules.domain)


@pytest.mark.parametrize("module,table", [t for t in TABLES if t[1] != "LOWER_RULES"])
def test_the_op_tables_are_keyed_by_every_body_op(module, table):
    rules = getattr(importlib.import_module(module), table)
    assert set(rules) == set(BODY_OPS)


def test_the_lowering_has_a_rule_for_every_instruction_a_body_records():
    from tileir.lower.lowering import LOWER_RULES

    recorded = {
        cls
        for _name, cls in inspect.getmembers(program, inspect.isclass)
        if cls.__module__ == program.__name__
        and cls.__name__ in program.__all__
        and hasattr(cls, "__attrs_attrs__")
    }
    # Access, Window and Sparse describe an instruction's view; Program holds the body
    instructions = recorded - {program.Access, program.Window, program.Sparse, program.Program}
    assert instructions == set(program.INSTRUCTIONS)
    assert set(LOWER_RULES) == instructions


def test_the_dialect_has_105_body_ops():
    assert len(BODY_OPS) == 105 and len(OPS) == 108
    assert set(SIGNATURES) == set(BODY_OPS)


def test_the_constructor_refuses_a_repeat_an_unknown_key_and_a_change():
    with pytest.raises(ValueError, match="T: op `addf` is defined twice"):
        rule_table("T", {"addf": 1}, {"addf": 2})
    with pytest.raises(ValueError, match="T: op `addf` is defined twice"):
        rule_table("T", [("addf", 1), ("addf", 2)])
    with pytest.raises(ValueError, match="`entry` is not a body op of the dialect"):
        rule_table("T", {"entry": 1})
    with pytest.raises(ValueError, match="`Program` is not a recorded instruction class"):
        rule_table(
            "T",
            {program.Program: 1},
            domain=program.INSTRUCTIONS,
            what="recorded instruction class",
        )
    table = rule_table("T", {"addf": 1})
    assert table.missing() == [op for op in BODY_OPS if op != "addf"]
    for change in (
        lambda: table.__setitem__("addi", 2),
        lambda: table.update(addi=2),
        lambda: table.pop("addf"),
        table.clear,
    ):
        with pytest.raises(TypeError, match="read-only"):
            change()
    assert dict(table) == {"addf": 1}
