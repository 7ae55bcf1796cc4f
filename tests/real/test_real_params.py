"""tileir.real.params: the parameter block we pack equals the one tileiras's cubin declares.

The key CPU-side check of the launch ABI: for entries with pointer, integer and
float parameters in many orders, our offsets and sizes equal the cubin's
EIATTR_KPARAM_INFO table and our total equals EIATTR_CBANK_PARAM_SIZE, on
every architecture the gates assemble for.
"""

from __future__ import annotations

import ctypes
import random
import struct

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_real_cubin import entry_bytecode, ptr, scalar

from support.tools import needs_tools
from tileir.errors import LaunchError
from tileir.real import tileiras
from tileir.real.cubin import EIATTR, kernel_info
from tileir.real.params import check_against_cubin, kernel_args, layout, pack, param_size
from tileir.types import (
    BF16,
    F4E2M1FN,
    F8E4M3FN,
    F8E5M2,
    F8E8M0FNU,
    F16,
    F32,
    F64,
    FNV8E5M3FNU,
    I1,
    I4,
    I8,
    I16,
    I32,
    I64,
    TF32,
    PointerType,
    TileType,
)

# Every element format that can be a rank-0 entry parameter, plus pointers to a few.
SCALARS = [
    scalar(f)
    for f in (
        I1,
        I4,
        I8,
        I16,
        I32,
        I64,
        F16,
        BF16,
        F32,
        TF32,
        F64,
        F8E4M3FN,
        F8E5M2,
        F8E8M0FNU,
        FNV8E5M3FNU,
    )
]
POINTERS = [ptr(f) for f in (F32, F16, I8, F64, BF16)] + [
    TileType((), PointerType(f, "none")) for f in (F32, I8)
]  # 13.4's ptr_attr
KINDS = SCALARS + POINTERS


def _entries(seed: int, count: int):
    rng = random.Random(seed)
    fixed = [
        ("vadd", (ptr(F32), scalar(I32), scalar(I32)) * 3),  # TILEIR_FACTS section 6
        ("mixed", (ptr(F32), scalar(I32), scalar(F64), scalar(F16), scalar(I8), ptr(I8))),
        ("bytes_then_wide", (scalar(I8), scalar(I1), scalar(F64), scalar(I16), ptr(F16))),
        ("tail_byte", (ptr(F64), scalar(I8))),  # total is not rounded up
        ("none", ()),
    ]
    random_ones = [
        (f"r{i}", tuple(rng.choice(KINDS) for _ in range(rng.randint(1, 12))))
        for i in range(count)
    ]
    return fixed + random_ones


ENTRIES = _entries(seed=20240613, count=24)


@needs_tools
@pytest.mark.parametrize("arch", tileiras.ARCHITECTURES)
def test_layout_equals_the_cubins_parameter_table(arch):
    cubin = tileiras.assemble(entry_bytecode(ENTRIES), arch)
    for name, types in ENTRIES:
        info = kernel_info(cubin, name)
        lay = layout(types, kernel=name)
        assert [(s.index, s.offset, s.size) for s in lay.slots] == [
            (p.ordinal, p.offset, p.size) for p in info.params
        ], (arch, name, types)
        assert lay.size == (info.param_size or 0), (arch, name, types)
        check_against_cubin(lay, info)  # the launch-time guard agrees


@needs_tools
def test_the_guard_refuses_a_layout_the_cubin_does_not_have():
    cubin = tileiras.assemble(entry_bytecode([("k", (ptr(F32), scalar(I32)))]), "sm_90")
    wrong = layout((scalar(I32), ptr(F32)))
    with pytest.raises(LaunchError) as err:
        check_against_cubin(wrong, kernel_info(cubin, "k"))
    assert err.value.kind == "launch.abi" and "kernel `k`" in str(err.value)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(KINDS), max_size=16))
def test_offsets_follow_c_struct_rules(types):
    # numpy's aligned structured dtype lays fields out as a C compiler would.
    lay = layout(types)
    fields = [
        (f"f{i}", f"u{param_size(t)}" if param_size(t) > 1 else "u1") for i, t in enumerate(types)
    ]
    if not types:
        assert lay.size == 0 and lay.slots == ()
        return
    struct_type = np.dtype(fields, align=True)
    assert [s.offset for s in lay.slots] == [struct_type.fields[f][1] for f, _ in fields]
    assert lay.size == lay.slots[-1].offset + lay.slots[-1].size <= struct_type.itemsize


def test_pack_bytes():
    types = (ptr(F32), scalar(I32), scalar(F16), scalar(I8), scalar(F64), scalar(I1))
    block = pack(layout(types), (0xDEADBEEF00, -2, 1.5, 0xFF, -0.25, True))
    assert block == (
        struct.pack("<Q", 0xDEADBEEF00)
        + struct.pack("<i", -2)
        + np.float16(1.5).tobytes()
        + b"\xff"
        + b"\0"
        + struct.pack("<d", -0.25)
        + b"\x01"
    )


def test_pack_narrow_formats():
    types = (scalar(BF16), scalar(F8E4M3FN), scalar(I4), scalar(FNV8E5M3FNU), scalar(TF32))
    block = pack(layout(types), (3.0, 0.5, -1, 0x7C, 2.0))
    assert block[0:2] == np.array(3.0, ml_dtypes.bfloat16).tobytes()
    assert block[2:3] == np.array(0.5, ml_dtypes.float8_e4m3fn).tobytes()
    assert block[3] == 0x0F and block[4] == 0x7C
    assert block[8:12] == struct.pack("<f", 2.0)


def test_pointer_from_an_object_with_device_pointer():
    class Buffer:
        device_pointer = 0x1234_5678_9ABC

    assert pack(layout((ptr(F32),)), (Buffer(),)) == struct.pack("<Q", 0x1234_5678_9ABC)


@pytest.mark.parametrize(
    "t, value, text",
    [
        (scalar(I8), 256, r"\[-128, 255\]"),
        (scalar(I32), 1.5, "needs an integer"),
        (scalar(I32), True, "needs an integer"),
        (scalar(I1), 2, r"\[0, 1\]"),
        (scalar(F16), 1e6, "overflows"),
        (scalar(F32), "1", "needs a real number"),
        (ptr(F32), -1, "does not fit 64 bits"),
        (ptr(F32), 1.0, "needs a device address"),
    ],
)
def test_bad_values_are_refused_with_the_argument_named(t, value, text):
    with pytest.raises(LaunchError, match=text) as err:
        pack(layout((scalar(I64), t)), (0, value), kernel="k")
    assert "argument 1" in str(err.value) and str(t) in str(err.value)
    assert err.value.kernel == "k"


def test_wrong_number_of_values():
    with pytest.raises(LaunchError, match="takes 2 arguments") as err:
        pack(layout((ptr(F32), scalar(I32))), (1,), kernel="vadd")
    assert err.value.kind == "launch.arity"


def test_non_scalar_and_f4_parameters_are_refused():
    with pytest.raises(LaunchError, match="rank-0 tile"):
        layout((TileType((4,), F32),))
    with pytest.raises(LaunchError, match="even number of elements"):
        layout((scalar(F4E2M1FN),))


def test_kernel_params_array_points_at_each_value():
    types = (ptr(F32), scalar(I32), scalar(F64))
    args = kernel_args(layout(types), (0xABC0, 7, 2.5))
    pointers = args.pointers
    assert [p - pointers[0] for p in pointers] == [0, 8, 16]
    assert ctypes.string_at(pointers[0], 8) == struct.pack("<Q", 0xABC0)
    assert ctypes.string_at(pointers[1], 4) == struct.pack("<i", 7)
    assert ctypes.string_at(pointers[2], 8) == struct.pack("<d", 2.5)
    array = (ctypes.c_void_p * 3).from_address(args.address)
    assert [a for a in array] == list(pointers)
    assert args.block == pack(layout(types), (0xABC0, 7, 2.5))


def test_kernel_params_of_a_parameterless_entry_is_null():
    assert kernel_args(layout(()), ()).address == 0


def _info(params, size, v2: bool):
    from tileir.real.cubin import Attribute, KernelInfo, ParamInfo

    table = EIATTR["EIATTR_KPARAM_INFO_V2" if v2 else "EIATTR_KPARAM_INFO"]
    return KernelInfo(
        name="k",
        arch="sm_90",
        params=tuple(ParamInfo(i, off, n) for i, (off, n) in enumerate(params)),
        param_size=size,
        reqntid=None,
        maxreg_count=None,
        cta_per_cluster=None,
        regcount=None,
        cuda_api_version=None,
        records=(Attribute(4, table, b""),),
    )


@pytest.mark.parametrize("v2", [False, True])
@pytest.mark.parametrize("extra", [-1, 0, 1, 8, 160])
def test_only_a_v2_table_may_declare_a_longer_block_than_its_parameters(v2, extra):
    # (ptr, ptr): tileir packs 16 bytes.  A plain EIATTR_KPARAM_INFO cubin must declare
    # exactly that; a V2 one (the driver's hooks fill the rest) at least that, never less
    lay = layout((ptr(F32), ptr(F32)))
    info = _info([(0, 8), (8, 8)], 16 + extra, v2)
    if extra == 0 or (v2 and extra > 0):
        check_against_cubin(lay, info)
        return
    with pytest.raises(LaunchError, match=rf"16 bytes, differs .* {16 + extra} bytes") as err:
        check_against_cubin(lay, info)
    assert err.value.kind == "launch.abi" and "kernel `k`" in str(err.value)


@pytest.mark.parametrize(
    ("address", "ok"),
    [(0, True), (1, True), ((1 << 64) - 1, True), (1 << 64, False), (-1, False), (2 << 64, False)],
)
def test_a_device_address_is_any_64_bit_value_and_nothing_past_it(address, ok):
    lay = layout((ptr(F32),))
    if ok:
        assert pack(lay, (address,)) == address.to_bytes(8, "little")
        return
    with pytest.raises(LaunchError, match="does not fit 64 bits"):
        pack(lay, (address,))
