"""The marks of tests that run NVIDIA's ``tileiras`` or ``tileirdisasm``.

``@needs_tools`` marks a test ``tools`` (deselect the tier with ``-m "not tools"``) and
skips it, with the reason, where the tools are not installed; ``pytestmark = TOOLS`` does
the same for a whole module.

The second toolchain: tileir pins tileiras 13.5.37 and CI also checks the sampled gate 1
against 13.4.92, installed beside it (``.ci/run``: ``pip install --target
.ci-tools/tileiras-13.4.92 nvidia-cuda-tileiras==13.4.92``).  ``$TILEIR_TOOLS_DIR_13_4``
names that install's ``bin`` folder (``.ci-tools/tileiras-13.4.92/nvidia/cu13/bin``);
``@needs_second_toolchain`` skips a test, saying so, where it is unset, and
:func:`second_tools_dir` fails the test (never skips it) where it is set but holds no
13.4 tileiras: CI sets it, so CI cannot quietly lose the check.
"""

from __future__ import annotations

import os
from typing import Optional

import pytest

from tileir.real.tileiras import available, tool_version
from tileir.real.toolchains import SECOND

__all__ = [
    "TOOLS",
    "SECOND_TOOLS",
    "SECOND_ENV",
    "needs_tools",
    "needs_second_toolchain",
    "second_tools_dir",
]

_SKIP = pytest.mark.skipif(
    not available(),
    reason="tileiras / tileirdisasm are not installed (pip install nvidia-cuda-tileiras==13.5.37)",
)

#: For ``pytestmark``: the ``tools`` marker and the skip where the tools are absent.
TOOLS = [pytest.mark.tools, _SKIP]

#: The variable naming the bin folder of the 13.4 toolchain.
SECOND_ENV = "TILEIR_TOOLS_DIR_13_4"


def _second_dir() -> Optional[str]:
    return os.environ.get(SECOND_ENV) or None


def needs_tools(test):
    """Decorate a test (function or class) that runs tileiras or tileirdisasm."""
    return pytest.mark.tools(_SKIP(test))


_SKIP_SECOND = pytest.mark.skipif(
    _second_dir() is None,
    reason=(
        f"${SECOND_ENV} is not set: it names the bin folder of tileiras {SECOND} "
        f"(pip install --target DIR nvidia-cuda-tileiras=={SECOND}; then "
        f"{SECOND_ENV}=DIR/nvidia/cu13/bin); .ci/run sets it"
    ),
)

#: For ``pytest.param(marks=...)``: the ``tools`` marker and the skip where it is unset.
SECOND_TOOLS = [pytest.mark.tools, _SKIP_SECOND]


def needs_second_toolchain(test):
    """Decorate a test that runs the 13.4 tileiras (``$TILEIR_TOOLS_DIR_13_4``)."""
    return pytest.mark.tools(_SKIP_SECOND(test))


def second_tools_dir() -> str:
    """The 13.4 toolchain's bin folder; the test fails when it is set but wrong."""
    where = _second_dir()
    assert where is not None, f"${SECOND_ENV} is not set"
    assert available(where), f"${SECOND_ENV}={where} holds no tileiras and tileirdisasm"
    release = tool_version("tileiras", where)
    assert release.split(".")[:2] == SECOND.split(".")[:2], (
        f"${SECOND_ENV}={where} holds tileiras {release}, not {SECOND}"
    )
    return where
