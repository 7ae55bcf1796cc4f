"""`import tileir` and `tileir render NAME` leave the slow optional imports alone (issue #19's
start-up goal: ml_dtypes alone costs about half a second; bench/startup.py times it)."""

from __future__ import annotations

import subprocess
import sys

import pytest

_HEAVY = ("ml_dtypes", "hypothesis", "tileir.fake", "tileir.real")
#: what a render may load: the kernel registry reads the pinned toolchain's facts from
#: tileir.real.toolchains (cuda-python, which the real device needs, stays unloaded)
_CLI_OWN = ("tileir.real",)


def _loaded_after(code: str) -> list[str]:
    probe = f"{code}\nimport sys\nprint(','.join(m for m in {_HEAVY!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    last = out.strip().splitlines()[-1:] or [""]  # (an empty line when none is loaded)
    return [m for m in last[0].split(",") if m]


@pytest.mark.parametrize(
    "code",
    [
        "import tileir",
        # the CLI's render path: record, lower and render one bundled kernel
        "import io, contextlib\nfrom tileir.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    main(['render', 'vadd'])",
    ],
    ids=["import", "render"],
)
def test_start_up_paths_do_not_load_the_slow_optional_modules(code):
    allowed = _CLI_OWN if "render" in code else ()
    assert [m for m in _loaded_after(code) if m not in allowed] == []
