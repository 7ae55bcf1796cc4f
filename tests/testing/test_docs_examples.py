"""The testing examples of README.md and docs/testing.md run as they are written: every
```python block of those sections is executed, then each ``test_*`` function it defines
is called (a ``tileir_device`` argument gets the fake device)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from tileir.fake import FakeDevice

ROOT = Path(__file__).resolve().parents[2]


def _blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def _readme_testing_section() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index("## Testing your kernels")
    return text[start : text.index("\n## ", start + 1)]


PAGES = {
    "README.md": _readme_testing_section,
    "docs/testing.md": lambda: (ROOT / "docs/testing.md").read_text(),
}


def _tests_of(page: str) -> list[tuple[str, object]]:
    namespace: dict = {"__name__": f"example_{page.replace('/', '_').replace('.', '_')}"}
    for block in _blocks(PAGES[page]()):
        exec(compile(block, page, "exec"), namespace)
    return [(k, v) for k, v in namespace.items() if k.startswith("test_") and callable(v)]


@pytest.mark.slow
@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_pages_testing_examples_run(page):
    tests = _tests_of(page)
    assert len(tests) >= 3, f"{page}: expected its examples to define tests"
    for name, fn in tests:
        kwargs = {}
        if "tileir_device" in inspect.signature(fn).parameters:
            kwargs["tileir_device"] = FakeDevice(mode="interpret")
        fn(**kwargs)
