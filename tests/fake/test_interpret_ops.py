"""Every op's numpy rule, exercised by at least one case (the cases live in interp_cases*)."""

from __future__ import annotations

import functools

import pytest

import support.interp_cases_memory  # noqa: F401  (registers its cases)
import support.interp_cases_values  # noqa: F401
from support.interp_cases import CASES
from tileir.fake.interpreter import interpret


@pytest.mark.parametrize("name", sorted(CASES))
def test_op_case(name):
    _ops, fn = CASES[name]
    fn(functools.partial(interpret, verify=False))  # cases of odd shapes, on purpose
