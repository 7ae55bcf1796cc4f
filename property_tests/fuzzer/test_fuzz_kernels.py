"""The kernel fuzzer: random well-typed kernels through the whole pipeline.

Each drawn kernel (``fuzz_kernels``) must record, render, pass ``verify``, survive a
bytecode round trip, and run on the fake device to exactly what a direct numpy
evaluation of its tree says (``fuzz_oracle``; within bounds where the dialect leaves
rounding to the implementation).  A sample also goes through ``tileirdisasm`` and
``tileiras`` (sm_90).  A failure is shrunk by Hypothesis and the minimal example is
written to ``property_tests/fuzzer/regressions/``; every file there is replayed by
``test_saved_regression_cases_replay`` (a case marked ``known_bug`` is expected to fail;
``fuzz_known`` can keep the space it trips out of the draws while it does).

The drawn space includes narrow formats (tf32, f8E4M3FN, f8E5M2), scans, mma, DYN_DIM
extents and the pointer path (Shared buffers: pointer loads, stores, atomics); besides
the kernels drawn from the whole space, a focused run per newer kind makes sure each
is drawn (``fuzz_params.FOCUSES``).  Hypothesis events count the kinds: run with
``--hypothesis-show-statistics`` to see how many kernels of each ran.

``TILEIR_FUZZ_STATS=<file>`` appends one JSON line per kernel that passed (the test,
its kinds, whether it was assembled), for counting them after a run.

Profiles: the ``ci`` profile (the default; fixed seed) runs 500 kernels and assembles
25, plus 80 kernels (4 assembled) per newer kind; the long run is one command away::

    TILEIR_HYPOTHESIS_PROFILE=nightly python -m pytest property_tests/fuzzer/test_fuzz_kernels.py
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from fuzz_checks import REGRESSIONS, check_description, launch_args, load_case, save_case
from fuzz_kernels import EXCLUDED, FOCUSES, kernel_descriptions, kinds_of
from support.tools import needs_tools
from tileir.real import tileiras

PROFILE = os.environ.get("TILEIR_HYPOTHESIS_PROFILE", "ci")
#: Kernels per run: 500 under ci (the brief's floor), the profile's count (or more) nightly.
FUZZ_EXAMPLES = 500 if PROFILE == "ci" else max(2000, settings.default.max_examples)
#: Kernels assembled per run with tileiras (about half a second each).
TOOL_EXAMPLES = 25 if PROFILE == "ci" else 200
#: Kernels per newer kind (focused draws), and how many of them are assembled.
FOCUS_EXAMPLES = 80 if PROFILE == "ci" else 400
FOCUS_TOOL_EXAMPLES = 4 if PROFILE == "ci" else 30

_RELAXED = dict(
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)


def _checked(desc: dict, args: list, *, tools: bool) -> None:
    try:
        outcome = check_description(desc, args, tools=tools)
    except BaseException as err:
        save_case(desc, args, err, tools=tools)
        raise
    share = outcome.compared / max(1, outcome.total)
    event(
        "written elements pinned by the oracle: "
        + ("all" if share == 1 else "none" if share == 0 else "some")
    )
    kinds = sorted(kinds_of(desc))
    for kind in kinds:
        event(f"kind: {kind}")
    stats = os.environ.get("TILEIR_FUZZ_STATS")
    if stats:
        with open(stats, "a") as f:
            f.write(
                json.dumps(
                    {
                        "test": os.environ.get("PYTEST_CURRENT_TEST", "?").split(" ")[0],
                        "kinds": kinds,
                        "tools": tools,
                    }
                )
                + "\n"
            )


@pytest.mark.slow
@settings(max_examples=FUZZ_EXAMPLES, **_RELAXED)
@given(kernel_descriptions(), st.data())
def test_fuzzed_kernels_record_verify_round_trip_and_agree_with_the_oracle(desc, data):
    args = data.draw(launch_args(desc), label="inputs")
    _checked(desc, args, tools=False)


@needs_tools
@settings(max_examples=TOOL_EXAMPLES, **_RELAXED)
@given(kernel_descriptions(), st.data())
def test_a_sample_of_fuzzed_kernels_disassembles_and_assembles(desc, data):
    args = data.draw(launch_args(desc), label="inputs")
    _checked(desc, args, tools=True)


@pytest.mark.slow
@pytest.mark.parametrize("focus", FOCUSES)
def test_each_newer_kind_records_verifies_and_agrees_with_the_oracle(focus):
    @settings(max_examples=FOCUS_EXAMPLES, **_RELAXED)
    @given(kernel_descriptions(focus=focus), st.data())
    def check(desc, data):
        assert focus in kinds_of(desc), f"a {focus} draw without {focus}: {desc}"
        args = data.draw(launch_args(desc), label="inputs")
        _checked(desc, args, tools=False)

    check()


@needs_tools
@pytest.mark.parametrize("focus", FOCUSES)
def test_a_sample_of_each_newer_kind_disassembles_and_assembles(focus):
    @settings(max_examples=FOCUS_TOOL_EXAMPLES, **_RELAXED)
    @given(kernel_descriptions(focus=focus), st.data())
    def check(desc, data):
        args = data.draw(launch_args(desc), label="inputs")
        _checked(desc, args, tools=True)

    check()


def _cases() -> list:
    out = []
    for path in sorted(REGRESSIONS.glob("*.json")):
        case = json.loads(path.read_text())
        marks = (pytest.mark.tools,) if case.get("checks") == "tools" else ()
        if case.get("known_bug"):
            marks += (pytest.mark.xfail(reason=case["known_bug"], strict=True),)
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
