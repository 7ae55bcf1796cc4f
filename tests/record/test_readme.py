"""README's python blocks run, in order, in one namespace (they are the user's first hour)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def test_readme_python_blocks_run():
    blocks = BLOCK.findall((ROOT / "README.md").read_text())
    assert len(blocks) >= 4
    namespace: dict = {"__name__": "readme"}
    for i, block in enumerate(blocks):
        exec(compile(block, f"README.md block {i}", "exec"), namespace)
    # the blocks' own asserts ran; their kernels are there to look at
    assert namespace["k"].name == "center"
    assert namespace["kernel"].grid == (8,)
