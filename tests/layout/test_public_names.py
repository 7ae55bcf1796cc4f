"""``import tileir`` loads nothing until a name is used; every public name still resolves."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import tileir

STUB = Path(tileir.__file__).with_name("__init__.pyi")


def _stub_all() -> list:
    for node in ast.parse(STUB.read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "__all__":
            return list(ast.literal_eval(node.value))
    raise AssertionError("tileir/__init__.pyi has no __all__")


def test_the_stubs_all_is_exactly_the_names_it_imports():
    assert sorted(_stub_all()) == sorted(tileir.__all__)


def test_every_public_name_resolves_to_the_object_of_its_module():
    import importlib

    for name, module in tileir._EXPORTS.items():
        assert getattr(tileir, name) is getattr(importlib.import_module(module), name), name


def test_a_bare_import_loads_no_stage_and_not_numpy():
    probe = (
        "import sys, tileir\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('tileir.') "
        "or m == 'numpy')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == []


def test_subpackages_and_functions_do_not_shadow_each_other():
    import tileir.fake  # noqa: F401  (a subpackage imported beside the public names)

    assert callable(tileir.broadcast) and tileir.broadcast.__module__.startswith("tileir.ops")
    assert tileir.fake.__name__ == "tileir.fake"
    try:
        tileir.no_such_name  # noqa: B018
    except AttributeError as err:
        assert "no_such_name" in str(err)
    else:
        raise AssertionError("an unknown attribute must raise AttributeError")
