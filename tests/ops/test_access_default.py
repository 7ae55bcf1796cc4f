"""A load or store given no access options takes ``WEAK_ACCESS`` without calling ``access``:
the two agree for every op that does so."""

from __future__ import annotations

import pytest

from tileir.ops.memory import WEAK_ACCESS, access

# (kind, op, access's keywords) of every op whose recorder takes WEAK_ACCESS when given no
# options (tileir/ops/memory.py, tileir/ops/views.py)
SHORTCUTS = [
    ("load", "load_cell", {"n_index": 2}),
    ("store", "store_cell", {"n_index": 2}),
    ("store", "store_sub", {"n_index": 2}),
    ("load", "load_ptr_tko", {"pointer": True}),
    ("store", "store_ptr_tko", {"pointer": True}),
    ("load", "load_window", {"n_index": 1}),
    ("load", "gather", {"n_index": 1}),
    ("store", "scatter", {"n_index": 1}),
]


@pytest.mark.parametrize("kind, op, keywords", SHORTCUTS, ids=[s[1] for s in SHORTCUTS])
def test_no_options_is_the_weak_access(kind, op, keywords):
    assert access(kind, op, **keywords) is WEAK_ACCESS
    # (and an option makes another: the shortcut is only for none)
    assert access(kind, op, ordering="relaxed", **keywords) is not WEAK_ACCESS
