"""The fake device checks each Module once before its first launch (issue 13, point 2)."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from support.module_builder import F32, FunctionBuilder, ptr, tile
from support.samples import vadd_module
from tileir.errors import VerifyError
from tileir.fake import admit as admit_mod
from tileir.fake.interpreter import execute, interpret


def _count_checks(monkeypatch) -> list:
    calls: list = []
    real = admit_mod.verify

    def spy(module):
        calls.append(module)
        real(module)

    monkeypatch.setattr(admit_mod, "verify", spy)
    return calls


def test_a_module_is_checked_once_however_often_it_runs(monkeypatch):
    calls = _count_checks(monkeypatch)
    m = vadd_module()
    fn = m.functions[0]
    args = [np.zeros(4096, np.float32) if "ptr" in str(p.type) else 1024 for p in fn.params]
    for _ in range(3):
        execute(m, fn.name, args, 1)
    assert calls == [m]
    execute(vadd_module(), fn.name, args, 1)  # an equal Module, but another object
    assert len(calls) == 2


def test_a_refused_module_stays_refused_without_a_second_check(monkeypatch):
    calls = _count_checks(monkeypatch)
    fb = FunctionBuilder("odd", [ptr(F32)])
    fb.const(np.zeros(3, np.float32), tile((3,), F32))  # not a power of two
    fb.ret()
    m = fb.module()
    for _ in range(2):
        with pytest.raises(VerifyError, match="positive power of two, not 3"):
            interpret(m, "odd", [np.zeros(1, np.float32)], 1)
    assert len(calls) == 1
    assert interpret(m, "odd", [np.zeros(1, np.float32)], 1, verify=False)[0].shape == (1,)


def test_a_checker_crash_on_a_malformed_module_is_a_verify_error(monkeypatch):
    def broken(module):
        raise AttributeError("'TileType' object has no attribute 'strides'")

    monkeypatch.setattr(admit_mod, "verify", broken)
    fb = FunctionBuilder("broken", [ptr(F32)])
    fb.ret()
    with pytest.raises(VerifyError, match="the checker cannot read it .AttributeError"):
        interpret(fb.module(), "broken", [np.zeros(1, np.float32)], 1)


def test_verdicts_go_with_their_modules():
    fb = FunctionBuilder("gone", [ptr(F32)])
    fb.ret()
    m = fb.module()
    interpret(m, "gone", [np.zeros(1, np.float32)], 1)
    key = id(m)
    assert key in admit_mod._VERDICTS
    del m
    gc.collect()
    assert key not in admit_mod._VERDICTS
