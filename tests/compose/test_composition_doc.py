"""docs/composition.md's python blocks run, in order, in one namespace: its examples are
tests (each block asserts what it shows)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def test_composition_page_blocks_run():
    blocks = BLOCK.findall((ROOT / "docs/composition.md").read_text())
    assert len(blocks) >= 8
    namespace: dict = {"__name__": "composition_doc"}
    for i, block in enumerate(blocks):
        exec(compile(block, f"docs/composition.md block {i}", "exec"), namespace)
    # the worked example built an attention kernel from tileir.lib
    assert namespace["attn"].name == "attention"
    assert namespace["wider"].grid == (2,)
