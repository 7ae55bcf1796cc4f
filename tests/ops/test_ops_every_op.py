"""Every body op of Tile IR 13.4, recorded through the public API.

For each kernel of tests/support/every_op_cases*.py: the Module verifies, renders, survives a
bytecode round trip at its lowest version, ``tileirdisasm`` reads it, and the fake
device's interpreter agrees with the kernel's numpy reference.  Together the kernels hold
every op of ``tileir.ir.dialect.BODY_OPS`` and every enum value the dialect allows on them.
A slower test assembles them with ``tileiras`` for sm_90 and sm_100.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from support.every_op_cases import CASES as PURE_CASES
from support.every_op_cases_mem import CASES as MEM_CASES
from support.every_op_cases_shape import CASES as SHAPE_CASES
from support.tools import needs_tools
from tileir.encode import decode, encode, required_version
from tileir.fake.interpreter import interpret
from tileir.ir.dialect import BODY_OPS, ENUMS
from tileir.ir.module import Module, walk
from tileir.ir.signatures import SIGNATURES, attr_of
from tileir.real import tileiras
from tileir.text.render import render
from tileir.types import (
    FORMATS,
    Format,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
)
from tileir.verify.checker import verify

CASES = PURE_CASES + SHAPE_CASES + MEM_CASES
BY_NAME = {c.name: c for c in CASES}


def _kernel(name: str):
    return _KERNELS.setdefault(name, BY_NAME[name].build())


_KERNELS: dict = {}


def _ops(module: Module) -> set:
    return {op.name for f in module.functions for op in walk(f.body)}


def test_case_names_are_unique():
    assert len(BY_NAME) == len(CASES)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_kernel_verifies_renders_and_round_trips(name):
    k = _kernel(name)
    verify(k.module)
    text = render(k.module)
    assert f"entry @{name}(" in text and text.rstrip().endswith("}")
    version = required_version(k.module)
    assert decode(encode(k.module, version)) == k.module


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_interpreter_agrees_with_the_numpy_reference(name):
    case = BY_NAME[name]
    k = _kernel(name)
    args, grid = case.inputs(np.random.default_rng(7))
    stream = io.StringIO()
    counts = [np.asarray(args[i]).size for i in k.guarded]  # the checked entry's last params
    got = interpret(
        k.module,
        name,
        [a.copy() if isinstance(a, np.ndarray) else a for a in args] + counts,
        grid,
        stream=stream,
    )[: len(args)]
    want = case.reference([a.copy() if isinstance(a, np.ndarray) else a for a in args])
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (i, g.dtype, w.dtype, g.shape, w.shape)
        if case.tolerance is not None and w.dtype.kind == "f":
            rtol, atol = case.tolerance
            np.testing.assert_allclose(
                g.astype(np.float64),
                w.astype(np.float64),
                rtol=rtol,
                atol=atol,
                equal_nan=True,
                err_msg=f"argument {i}",
            )
        else:
            _assert_same(g, w, i)
    if case.printed is not None:
        assert stream.getvalue() == case.printed(args)


def _assert_same(g: np.ndarray, w: np.ndarray, i: int) -> None:
    """Bit for bit (floats: the sign of zero counts, any NaN equals any NaN)."""
    if g.ndim == 0:
        assert g == w or (g != g and w != w), f"argument {i}: {g} vs {w}"
        return
    if w.dtype.kind == "f" or w.dtype.name in ("bfloat16", "float8_e4m3fn"):
        nan = np.isnan(g.astype(np.float64)), np.isnan(w.astype(np.float64))
        bits = g.view(f"u{g.dtype.itemsize}") == w.view(f"u{w.dtype.itemsize}")
        ok = (nan[0] == nan[1]) & (nan[0] | bits)
    else:
        ok = g == w
    bad = np.nonzero(~ok)[0]
    assert bad.size == 0, f"argument {i}: differs at {bad[:6]}: {g[bad[:6]]} vs {w[bad[:6]]}"


def test_the_kernels_hold_every_body_op():
    seen = set()
    for name in BY_NAME:
        seen |= _ops(_kernel(name).module)
    assert seen == set(BODY_OPS), sorted(set(BODY_OPS) ^ seen)


def _enum_values(module: Module) -> set:
    """(enum, value) of every enum attribute (defaults included), padding and visibility."""
    out = set()
    for f in module.functions:
        for op in walk(f.body):
            for name, kind, _default in SIGNATURES[op.name].attrs:
                value = attr_of(op, name)
                if kind.startswith("enum:") and value is not None:
                    out.add((kind[5:], value))
            for v in (*op.results, *op.operands):
                if (
                    isinstance(v.type, (PartitionViewType, StridedViewType, GatherScatterViewType))
                    and v.type.padding is not None
                ):
                    out.add(("padding_value", v.type.padding))
    out |= {("symbol_visibility", g.visibility) for g in module.globals}
    return out


def test_every_enum_value_is_reachable_through_the_api():
    seen = set()
    for name in BY_NAME:
        seen |= _enum_values(_kernel(name).module)
    wanted = {(enum, value) for enum, values in ENUMS.items() for value in values}
    assert wanted - seen == set()


def test_every_unit_attribute_and_hint_is_reachable():
    units, hints, entry = set(), set(), set()
    for name in BY_NAME:
        m = _kernel(name).module
        for f in m.functions:
            if f.hints is not None:
                entry |= {key for _arch, items in f.hints.by_arch for key, _v in items}
            for op in walk(f.body):
                for attr, kind, _d in SIGNATURES[op.name].attrs:
                    value = attr_of(op, attr)
                    if kind == "unit" and value:
                        units.add((op.name, attr))
                    if kind == "hints" and value is not None:
                        hints |= {key for _arch, items in value.by_arch for key, _v in items}
                    if kind == "bool[]" and any(value):
                        units.add((op.name, attr))
                    if kind == "bool" and value:
                        units.add((op.name, attr))
        units |= {("global", "constant") for g in m.globals if g.constant}
        units |= {("global", "mutable") for g in m.globals if not g.constant}
    declared = {
        (op, a)
        for op, sig in SIGNATURES.items()
        for a, k, _d in sig.attrs
        if k in ("unit", "bool[]", "bool")
    }
    assert declared - units == set()
    assert ("global", "constant") in units and ("global", "mutable") in units
    assert hints == {"allow_tma", "latency"}
    assert entry == {"num_cta_in_cga", "num_worker_warps_per_cta", "occupancy"}


def _types_of(module: Module) -> set:
    """Every type a module's values have, with the element types and views inside them."""
    out = set()

    def add(t):
        out.add(type(t).__name__)
        if isinstance(t, TileType):
            add(t.element)
        elif isinstance(t, PointerType):
            add(t.pointee)
        elif isinstance(t, Format):
            out.add(t.name)
        elif hasattr(t, "tensor_view"):
            add(t.tensor_view)
        elif isinstance(t, TensorViewType):
            add(t.element)

    for f in module.functions:
        add(f.type)
        for v in f.params:
            add(v.type)
        for op in walk(f.body):
            for v in (*op.operands, *op.results, *(a for r in op.regions for a in r.args)):
                add(v.type)
    return out


def test_every_type_is_reachable_through_the_api():
    seen = set()
    for name in BY_NAME:
        seen |= _types_of(_kernel(name).module)
    wanted = {f.name for f in FORMATS} | {
        "TileType",
        "PointerType",
        "TensorViewType",
        "PartitionViewType",
        "StridedViewType",
        "GatherScatterViewType",
        "TokenType",
        "FunctionType",
    }
    assert wanted - seen == set()


def _merged(names) -> Module:
    """One module holding the kernels ``names`` (their globals shared by name)."""
    functions, globals_ = [], {}
    for name in names:
        m = _kernel(name).module
        functions.extend(m.functions)
        for g in m.globals:
            assert globals_.setdefault(g.name, g) == g
    return Module(tuple(functions), tuple(globals_.values()))


@needs_tools
def test_tileirdisasm_reads_every_kernel_at_its_lowest_version():
    by_version: dict = {}
    for name in sorted(BY_NAME):
        by_version.setdefault(required_version(_kernel(name).module), []).append(name)
    for version, names in sorted(by_version.items()):
        text = tileiras.disassemble(encode(_merged(names), version))
        for name in names:
            assert f"entry @{name}(" in text, (version, name)


@needs_tools
@pytest.mark.parametrize("arch", ["sm_90", "sm_100", "sm_107"])
def test_tileiras_assembles_the_kernels(arch):
    """One tileiras call per architecture, all the kernels it takes in one module (f4 and
    f8E8M0FNU tiles need sm_100 or later; fnv8E5M3FNU needs sm_107)."""
    names = sorted(n for n, c in BY_NAME.items() if arch in c.archs)
    assert names
    cubin = tileiras.assemble(encode(_merged(names)), arch)
    for name in names:
        assert name.encode() in cubin, name
