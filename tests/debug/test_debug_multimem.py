"""The debugger runs a multimem kernel on as many replicas as its buffers hold, as the fake
device does: every finder sees every replica's accesses."""

from __future__ import annotations

import numpy as np
import pytest

from tileir import debug
from tileir.debug.launching import prepare
from tileir.kernels.registry import specs

MULTIMEM = [s for s in specs() if s.family == "multimem" and s.devices > 1]


@pytest.mark.parametrize("spec", MULTIMEM[:6] + MULTIMEM[-3:], ids=lambda s: s.name)
def test_a_multimem_launch_is_prepared_on_its_replicas_and_the_finders_are_silent(spec):
    kernel = spec.kernel()
    args, grid = spec.inputs(np.random.default_rng(0))
    assert spec.devices > 1 and prepare(kernel, args, grid).devices == spec.devices
    assert debug.find_untouched(kernel, args, grid) == []
    assert debug.find_races(kernel, args, grid) == []


def test_a_kernel_without_multicast_buffers_is_one_device():
    spec = next(s for s in specs() if s.name == "vadd")
    args, grid = spec.inputs(np.random.default_rng(0))
    assert prepare(spec.kernel(), args, grid).devices == 1
