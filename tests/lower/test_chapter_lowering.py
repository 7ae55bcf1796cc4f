"""The chapter's kernels lower to the ops the seed shows."""

from tileir.ir.module import walk
from tileir.kernels.registry import get
from tileir.types import PartitionViewType


def _ops(name):
    return list(walk(get(name).kernel().function.body))


def test_matmul_has_one_for_with_one_mmaf_and_carries_the_token():
    ops = _ops("matmul")
    fors = [op for op in ops if op.name == "for"]
    assert len(fors) == 1 and sum(op.name == "mmaf" for op in ops) == 1
    region = fors[0].regions[0]
    assert [str(a.type) for a in region.args] == ["tile<i32>", "tile<64x64xf64>", "token"]
    assert region.ops[-1].name == "continue"


def test_softmax_reads_with_neg_inf_padding():
    views = [op.result.type for op in _ops("softmax") if op.name == "make_partition_view"]
    assert isinstance(views[0], PartitionViewType) and views[0].padding == "neg_inf"
    assert views[1].padding == "zero"


def test_memory_ops_are_ordered_by_one_token_chain():
    ops = _ops("vadd")
    token = ops[0].result
    for op in ops:
        if op.name in ("load_view_tko", "store_view_tko"):
            assert op.operands[-1] == token
            token = op.results[-1]


def test_every_op_records_the_user_source_line():
    for op in _ops("row_softmax"):
        assert op.loc is not None and op.loc.file.endswith("chapter.py"), op
