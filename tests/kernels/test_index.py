"""The registry's index: one lookup imports one bundled module, and the index is current."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tileir.kernels import index, index_gen
from tileir.kernels.registry import BUNDLED_MODULES, get

ROOT = Path(__file__).resolve().parents[2]


def test_the_index_is_what_a_full_load_registers():
    want = index_gen.source()
    have = Path(index.__file__).read_text()
    assert have == want, "tileir/kernels/index.py is stale: run python -m tileir.kernels.index_gen"


def test_every_module_of_the_index_is_bundled_and_no_name_is_listed_twice():
    assert set(index.NAMES_BY_MODULE) == set(BUNDLED_MODULES)
    listed = [n for names in index.NAMES_BY_MODULE.values() for n in names]
    assert len(listed) == len(set(listed)) == len(index.MODULE_OF)


@pytest.mark.parametrize("name", ["vadd", "rmsnorm_f32", "cas_i64"])
def test_looking_up_one_kernel_imports_only_its_module(name):
    probe = (
        "import sys\n"
        "from tileir.kernels.registry import get, BUNDLED_MODULES\n"
        f"spec = get({name!r})\n"
        "print(' '.join(m for m in BUNDLED_MODULES if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    loaded = done.stdout.split()
    assert index.MODULE_OF[name] in loaded
    assert len(loaded) < len(BUNDLED_MODULES) // 2, loaded


def test_an_unknown_name_lists_a_few_close_names_not_all_of_them():
    with pytest.raises(KeyError) as caught:
        get("rmsnorm_f3")
    message = caught.value.args[0]
    assert "rmsnorm_f32" in message and message.count(",") <= 5
    with pytest.raises(KeyError, match="no kernel named 'zzz'"):
        get("zzz")
