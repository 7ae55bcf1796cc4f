"""Every body op of Tile IR 13.4 appears in every interpretation's rule table."""

import importlib

import pytest

from tileir.dialect import BODY_OPS, OPS
from tileir.signatures import SIGNATURES

TABLES = [
    ("tileir.signatures", "SIGNATURES"),      # operands and attributes
    ("tileir.encode.optable", "OP_CODECS"),    # bytecode, both directions
    ("tileir.lower.render", "RENDER_RULES"),   # text
    ("tileir.verify", "VERIFY_RULES"),         # the Module checker
    ("tileir.fake.rules", "NUMPY_RULES"),      # the fake device's interpreter (control flow apart)
]


@pytest.mark.parametrize("module,table", TABLES)
def test_every_body_op_is_in_every_table(module, table):
    rules = getattr(importlib.import_module(module), table)
    missing = sorted(set(BODY_OPS) - set(rules))
    extra = sorted(set(rules) - set(OPS))
    assert not missing, f"{module}.{table} lacks {missing}"
    assert not extra, f"{module}.{table} has ops the dialect does not: {extra}"


def test_the_dialect_has_102_body_ops():
    assert len(BODY_OPS) == 102 and len(OPS) == 105
    assert set(SIGNATURES) == set(BODY_OPS)
