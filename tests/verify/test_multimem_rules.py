"""The checker's multimem rules (13.5), case by case against tileirdisasm 13.5.37, and the
recorder's refusals of the same things (tileir.ir.attr_rules.check_multimem)."""

from __future__ import annotations

import pytest

from support.multimem_cases import MATRIX, OTHER_MEMORY_OPS, multimem_module, other_op_module
from support.tools import needs_tools
from tileir.encode import encode
from tileir.errors import ToolError, VerifyError
from tileir.verify import verify


def _ours(module) -> bool:
    try:
        verify(module)
    except VerifyError:
        return False
    return True


def _ids():
    return [f"{op}-{fmt}-{'-'.join(f'{k}={v}' for k, v in kw.items())}" for op, fmt, kw in MATRIX]


@needs_tools
@pytest.mark.parametrize("op,fmt,kw", MATRIX, ids=_ids())
def test_the_checker_agrees_with_tileirdisasm_13_5(op, fmt, kw):
    from tileir.real import tileiras

    if not tileiras.tool_version("tileirdisasm").startswith("13.5"):
        pytest.skip("needs tileirdisasm 13.5 (TILEIR_TOOLS_DIR)")
    module = multimem_module(op, fmt, **kw)
    try:
        tileiras.disassemble(encode(module, (13, 5)))
        theirs = True
    except ToolError:
        theirs = False
    assert _ours(module) == theirs


@pytest.mark.parametrize(
    "op,fmt,kw,words",
    [
        ("lr", "i16", {}, "takes elements of f16, bf16, f32, f64, i32, i64"),
        ("st", "f16", {"tile": (1,)}, "multiple of 4 bytes"),
        ("lr", "f32", {"reduction": "min"}, "on floats takes f16 or bf16"),
        ("rd", "f16", {"reduction": "max", "ordering": "relaxed", "scope": "sys"}, "only adds"),
        ("lr", "i32", {"reduction": "umin", "ordering": "relaxed"}, "needs a memory scope"),
        ("st", "i32", {"scope": "device"}, "takes no memory scope"),
        ("lr", "f32", {"ptr_attr": "unicast"}, "expected a multicast pointer, but got unicast"),
        ("lr", "f16", {"tile": (4,), "strides": (2,)}, "exactly one element stride"),
        ("lr", "f32", {"inbounds": (True, False)}, "inbounds size \\(2\\)"),
    ],
)
def test_the_checker_names_what_it_refuses(op, fmt, kw, words):
    from tileir.types import Format

    with pytest.raises(VerifyError, match=words):
        verify(multimem_module(op, Format(fmt), **kw))


@pytest.mark.parametrize("ptr_attr", ["multicast", "unicast"])
@pytest.mark.parametrize("op", OTHER_MEMORY_OPS)
def test_other_memory_ops_refuse_a_multicast_pointer_and_take_a_unicast_one(op, ptr_attr):
    module = other_op_module(op, ptr_attr)
    if ptr_attr == "multicast":
        with pytest.raises(VerifyError, match="multicast (ptr_attr|pointer) is not allowed"):
            verify(module)
    else:
        verify(module)


@needs_tools
@pytest.mark.parametrize("ptr_attr", ["multicast", "unicast"])
@pytest.mark.parametrize("op", OTHER_MEMORY_OPS)
def test_other_memory_ops_agree_with_tileirdisasm_13_5(op, ptr_attr):
    from tileir.real import tileiras

    if not tileiras.tool_version("tileirdisasm").startswith("13.5"):
        pytest.skip("needs tileirdisasm 13.5 (TILEIR_TOOLS_DIR)")
    module = other_op_module(op, ptr_attr)
    try:
        tileiras.disassemble(encode(module, (13, 5)))
        theirs = True
    except ToolError:
        theirs = False
    assert _ours(module) == theirs == (ptr_attr == "unicast")
