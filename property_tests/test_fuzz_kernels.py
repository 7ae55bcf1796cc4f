"""The kernel fuzzer: random well-typed kernels through the whole pipeline.

Each drawn kernel (``fuzz_kernels``) must record, render, pass ``verify``, survive a
bytecode round trip, and run on the fake device to exactly what a direct numpy
evaluation of its tree says (``fuzz_oracle``; within bounds where the dialect leaves
rounding to the implementation).  A sample also goes through ``tileirdisasm`` and
``tileiras`` (sm_90).  A failure is shrunk by Hypothesis and the minimal example is
written to ``property_tests/regressions/``; every file there is replayed by
``test_saved_regression_cases_replay``.

Profiles: the ``ci`` profile (the default; fixed seed) runs 500 kernels and assembles
25; the long run is one command away::

    TILEIR_HYPOTHESIS_PROFILE=nightly python -m pytest property_tests/test_fuzz_kernels.py
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

from fuzz_checks import REGRESSIONS, check_description, launch_args, load_case, save_case
from fuzz_kernels import EXCLUDED, kernel_descriptions
from tileir.real import tileiras

PROFILE = os.environ.get("TILEIR_HYPOTHESIS_PROFILE", "ci")
#: Kernels per run: 500 under ci (the brief's floor), the profile's count (or more) nightly.
FUZZ_EXAMPLES = 500 if PROFILE == "ci" else max(2000, settings.default.max_examples)
#: Kernels assembled per run with tileiras (about half a second each).
TOOL_EXAMPLES = 25 if PROFILE == "ci" else 200

_RELAXED = dict(deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


def _checked(desc: dict, args: list, *, tools: bool) -> None:
    try:
        outcome = check_description(desc, args, tools=tools)
    except BaseException as err:
        save_case(desc, args, err, tools=tools)
        raise
    share = outcome.compared / max(1, outcome.total)
    event("Out elements pinned by the oracle: " + (
        "all" if share == 1 else "none" if share == 0 else "some"))


@settings(max_examples=FUZZ_EXAMPLES, **_RELAXED)
@given(kernel_descriptions(), st.data())
def test_fuzzed_kernels_record_verify_round_trip_and_agree_with_the_oracle(desc, data):
    args = data.draw(launch_args(desc), label="inputs")
    _checked(desc, args, tools=False)


@pytest.mark.skipif(not tileiras.available(), reason="tileiras / tileirdisasm are not "
                    "installed (pip install 'nvidia-cuda-tileiras==13.4.92')")
@settings(max_examples=TOOL_EXAMPLES, **_RELAXED)
@given(kernel_descriptions(), st.data())
def test_a_sample_of_fuzzed_kernels_disassembles_and_assembles(desc, data):
    args = data.draw(launch_args(desc), label="inputs")
    _checked(desc, args, tools=True)


def _cases() -> list:
    out = []
    for path in sorted(REGRESSIONS.glob("*.json")):
        case = json.loads(path.read_text())
        marks = ()
        if case.get("known_bug"):
            marks = (pytest.mark.xfail(reason=case["known_bug"], strict=True),)
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


@pytest.mark.parametrize("path", _cases())
def test_saved_regression_cases_replay(path):
    desc, args, case = load_case(path)
    tools = case.get("checks") == "tools"
    if tools and not tileiras.available():
        pytest.skip("the case needs tileiras / tileirdisasm, which are not installed")
    check_description(desc, args, tools=tools)


def test_the_excluded_space_is_documented():
    # what the fuzzer leaves out is said, with the reason, where the report can quote it
    assert EXCLUDED and all(len(why) > 20 for why in EXCLUDED.values())
