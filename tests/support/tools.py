"""The mark of a test that runs NVIDIA's ``tileiras`` or ``tileirdisasm``.

``@needs_tools`` marks a test ``tools`` (deselect the tier with ``-m "not tools"``) and
skips it, with the reason, where the tools are not installed; ``pytestmark = TOOLS`` does
the same for a whole module.
"""

from __future__ import annotations

import pytest

from tileir.real.tileiras import available

__all__ = ["TOOLS", "needs_tools"]

_SKIP = pytest.mark.skipif(
    not available(),
    reason="tileiras / tileirdisasm are not installed (pip install nvidia-cuda-tileiras==13.4.92)",
)

#: For ``pytestmark``: the ``tools`` marker and the skip where the tools are absent.
TOOLS = [pytest.mark.tools, _SKIP]


def needs_tools(test):
    """Decorate a test (function or class) that runs tileiras or tileirdisasm."""
    return pytest.mark.tools(_SKIP(test))
