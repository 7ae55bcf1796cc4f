"""Only tileir's errors escape the public API (issue 14, point 2): each public function is
called with valid arguments but one, which gets a wrong type or value; whatever it raises is
a TileIRError that names an op and the value."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import (
    F16,
    F32,
    I32,
    In,
    Out,
    TileIRError,
    cells,
    full,
)
from tileir.errors import UsageError
from tileir.fake import FakeDevice
from tileir.record.convention import trace_params

G = cells([256], [128])
P_IN, P_OUT = trace_params(In(F32, G), Out(F32, G))
VEC = full((8,), 1.0, F32)
MAT = full((8, 8), 1.0, F32)
IDX = full((8,), 1, I32)
CELL = full((128,), 1.0, F32)


class Opaque:
    """A value no function takes."""

    def __repr__(self) -> str:
        return "<Opaque>"


BAD = [Opaque(), "x", 2.5, (1, "a"), [VEC]]

#: public function -> valid positional arguments (each replaced, one at a time, by BAD values)
CALLS = {
    "full": ((8,), 1.0, F32),
    "zeros": ((8,), F32),
    "constant": (1.0, F32, (8,)),
    "broadcast": (full((1,), 1.0, F32), (8,)),
    "reshape": (VEC, (2, 4)),
    "permute": (MAT, (1, 0)),
    "transpose": (MAT,),
    "cat": (VEC, VEC),
    "extract": (VEC, (0,), (4,)),
    "reduce_max": (MAT, 0),
    "reduce_min": (MAT, 0),
    "reduce_sum": (MAT, 0),
    "reduce_prod": (MAT, 0),
    "argmax": (MAT, 0),
    "cumsum": (VEC, 0),
    "add": (VEC, VEC),
    "sub": (VEC, VEC),
    "mul": (VEC, VEC),
    "maximum": (VEC, VEC),
    "exp": (VEC,),
    "sqrt": (VEC,),
    "pow": (VEC, VEC),
    "convert": (VEC, F16),
    "bitcast": (VEC, I32),
    "where": (VEC > 0.0, VEC, VEC),
    "iota": (8,),
    "block_id": (0,),
    "num_blocks": (0,),
    "mma": (MAT, MAT, 0.0),
    "matmul": (MAT, MAT),
    "load_cell": (P_IN,),
    "store_cell": (P_OUT, CELL),
    "extent": (P_IN, 0),
    "address": (P_IN,),
    "cells": ([256], [128]),
    "retile": (P_IN, [256], [64]),
    "trace": ("k", lambda a: (yield from ()), In(F32, G)),
}


def _function(name):
    return getattr(tileir, name, None) or getattr(tileir.ops, name)


def _names_the_value(text: str, bad: object) -> bool:
    if repr(bad) in text or str(bad) in text or type(bad).__name__ in text:
        return True
    if isinstance(bad, float) and ("tile<f32>" in text or "tile<i32>" in text):
        return True  # a number is a rank-0 tile operand (a weak type): named by its type
    parts = bad if isinstance(bad, (tuple, list)) else ()
    return any(repr(p) in text or str(getattr(p, "type", "")) in text for p in parts)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_wrong_argument_gets_a_tileir_error_that_names_it(name):
    fn, args = _function(name), CALLS[name]
    result = fn(*args)  # the valid call works
    assert result is not None
    refused = 0
    for at in range(len(args)):
        for bad in BAD:
            call = list(args)
            call[at] = bad
            try:
                fn(*call)
            except TileIRError as err:
                refused += 1
                assert err.op is not None or err.kernel is not None, (name, at, bad, str(err))
                assert _names_the_value(str(err), bad), (name, at, bad, str(err))
            except Exception as err:  # pragma: no cover - the failure this test exists for
                pytest.fail(f"{name}(argument {at}={bad!r}) raised {type(err).__name__}: {err}")
    assert refused >= len(args), f"{name}: only {refused} refusals"


@pytest.mark.parametrize(
    "grid, words",
    [
        (lambda n: n, "grid=<function"),
        ("x", "holds 'x' on axis 0"),
        (0, "has 0 block(s) on axis 0"),
        ((2, 1, 1, 1), "a grid has 1 to 3 dimensions"),
    ],
    ids=["function", "string", "zero", "four-axes"],
)
def test_a_launch_grid_is_an_int_or_a_sequence(grid, words):
    from tileir import load_cell, store_cell, trace

    def double(x, out):
        t = yield load_cell(x)
        yield store_cell(out, t + t)

    g = cells([100], [64])
    k = trace("double", double, In(F32, g), Out(F32, g))
    dev = FakeDevice(mode="interpret")
    a, o = dev.alloc(F32, 100), dev.alloc(F32, 100)
    dev.copy_in(a, np.arange(100, dtype=np.float32))
    report = dev.launch(k, a, o, grid=2)  # an int is a 1-D grid
    assert report.grid == (2, 1, 1) and float(dev.copy_out(o)[99]) == 198.0
    with pytest.raises(tileir.LaunchError) as info:
        dev.launch(k, a, o, grid=grid)
    assert words in str(info.value) and info.value.kernel == "double"
    assert info.value.op == "launch"


def test_device_arguments_are_checked():
    dev = FakeDevice(mode="interpret")
    for call, words in [
        (lambda: dev.alloc("f32", 4), "alloc takes a tileir Format such as F32, got 'f32'"),
        (lambda: dev.alloc(F32, -1), "length -1 is negative"),
        (lambda: dev.alloc(F32, 2.5), "length must be a whole number, got 2.5"),
        (lambda: FakeDevice(mode="fast"), "mode 'fast' is not one of interpret, reference"),
    ]:
        with pytest.raises(UsageError) as info:
            call()
        assert words in str(info.value)
    # a UsageError is also what Python's own argument errors are
    assert issubclass(UsageError, TypeError) and issubclass(UsageError, ValueError)


def test_marker_errors_are_tileir_errors():
    for call, words in [
        (lambda: In("f32", G), "format must be a tileir Format such as F32, got 'f32'"),
        (lambda: Out(F32), "Out(f32, ...) needs cells(extent, tile)"),
        (
            lambda: cells(256, [128]),
            "`cells`: extent is a list with one entry per dimension, got 256",
        ),
        (lambda: cells([256], [2.5]), "tile [2.5] must hold whole numbers"),
    ]:
        with pytest.raises(UsageError) as info:
            call()
        assert words in str(info.value)
