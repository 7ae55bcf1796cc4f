"""Differential test: :func:`tileir.verify.checker.verify` against the verifier ``tileirdisasm`` runs.

``tileirdisasm`` 13.4.92 runs the dialect's verifier on every module it reads,
so it is an oracle for "would tileiras accept this module?".  Each example draws
a module around one target op of random types and attributes (operands come from
constants and rank-0 parameters), often twisted on purpose (a result or operand
of another element format or shape, an attribute value drawn from its whole
kind, a pointer or tensor view whose 13.4 ptr_attr disagrees with where it came
from), and asserts that ``verify`` accepts it exactly when the tool does.  The
families live in ``single_op_compute``, ``single_op_regions`` and
``single_op_memory``; ``single_op_source`` holds what they share.

One example costs a subprocess (a few ms), so the CI profile's 60 examples keep
it short; ``TILEIR_HYPOTHESIS_PROFILE=nightly`` draws 2,000.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import single_op_compute as compute
import single_op_memory as memory
import single_op_regions as regions
from single_op_source import Src
from support.tools import TOOLS
from tileir.encode import encode
from tileir.errors import ToolError, VerifyError
from tileir.ir.module import Module
from tileir.real.tileiras import disassemble
from tileir.verify.checker import verify

pytestmark = TOOLS

FAMILIES = (
    memory.module_level,
    compute.elementwise,
    compute.compare,
    compute.convert,
    compute.shape,
    compute.mma,
    regions.reduce,
    compute.assume,
    memory.pointers,
    memory.views,
    regions.control,
    memory.misc,
)


@st.composite
def single_op_modules(draw) -> Module:
    """A module around one target op of random, now and then twisted, types and attributes."""
    s = Src(draw)
    draw(st.sampled_from(FAMILIES))(s)
    return Module((s.b.finish(),), globals=s.globals)


def _verdicts(module: Module) -> tuple[bool, bool | None, str]:
    try:
        verify(module)
        ours, why = True, ""
    except VerifyError as e:
        ours, why = False, str(e)
    try:
        data = encode(module)
    except Exception as e:  # noqa: BLE001 - a module the bytecode cannot express at all
        return ours, None, f"{why} | encode: {e}"
    try:
        disassemble(data)
        return ours, True, why
    except ToolError as e:
        return ours, False, f"{why} | tool: {e}"


@given(single_op_modules())
def test_verify_accepts_exactly_what_tileirdisasm_accepts(module):
    ours, theirs, why = _verdicts(module)
    if theirs is None:  # the encoder refuses it: the checker must refuse it too
        assert not ours, f"verify accepts a module encode cannot write: {why}"
        return
    assert ours == theirs, (
        f"verify {'accepts' if ours else 'refuses'}, tileirdisasm "
        f"{'accepts' if theirs else 'refuses'}: {why}"
    )
