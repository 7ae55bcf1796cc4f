"""The memo registry (``tileir.ir.memo``): every memo the recording, lowering and encoding
fill is registered, ``clear_memos`` empties them, and a kernel recorded with every memo cold
gives the same Program, Module, text and bytes as one recorded with them warm."""

from __future__ import annotations

import pytest

from tileir.ir.memo import clear_memos, memo_sizes, memo_table, register_memo
from tileir.kernels import registry

CHAPTER = ("vadd", "vadd_tail", "softmax", "matmul", "row_softmax", "transpose", "histogram")


def _outputs(name: str):
    kernel = registry.get(name).build()
    return (
        kernel.program,
        kernel.module,
        kernel.text(),
        kernel.bytecode("13.4", debug_info=True),
        kernel.bytecode(),
    )


def test_recording_fills_registered_memos_and_clear_empties_them():
    clear_memos()
    assert not any(memo_sizes().values())
    _outputs("flash_attn")
    filled = {name for name, n in memo_sizes().items() if n}
    # one table per stage at least: the recorder's, the IR's and the encoder's
    for prefix in ("record.source", "ir.module", "encode.typecodec", "encode.versions"):
        assert any(name.startswith(prefix) for name in filled), prefix
    clear_memos()
    assert not any(memo_sizes().values())


@pytest.mark.parametrize("name", CHAPTER + ("flash_attn",))
def test_cold_and_warm_memos_give_the_same_kernel(name):
    clear_memos()
    cold = _outputs(name)
    for other in CHAPTER:  # warm every memo with the other kernels' values too
        _outputs(other)
    warm = _outputs(name)
    assert cold[0] == warm[0] and cold[1] == warm[1]
    assert cold[2:] == warm[2:]


def test_a_table_registered_again_under_its_name_replaces_the_old_one():
    first = memo_table("test: replaced")
    first["a"] = first["b"] = 0
    second = register_memo("test: replaced", {"k": 1})
    assert memo_sizes()["test: replaced"] == 1  # the new table's size, not the old one's
    clear_memos()
    assert second == {}
