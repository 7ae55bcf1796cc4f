"""The encoder's replay memos give the bytes the cold path gives.

Two memos let a file do again what an earlier file did instead of working it out: the Type
table's first-use trails (``typecodec._Trails``: a file's types are a pure function of the
type objects it asks for, in order) and the Debug section's rows (``debuginfo._ROWS``: a
function's row is a pure function of its Loc objects and where the tables stand).  Each
test here encodes warm, after other files filled the memos, and compares with the file
encoded with every memo cleared; and checks that the memos are in fact replayed.
"""

from __future__ import annotations

import random

import attrs
import pytest

from support.samples import family_versions
from tileir.encode import debuginfo, encode, typecodec
from tileir.ir.dialect import VERSIONS, version_text
from tileir.ir.memo import clear_memos
from tileir.ir.module import Module
from tileir.kernels import registry

CASES = list(family_versions())
CHAPTER = ("vadd", "vadd_tail", "softmax", "matmul", "row_softmax", "transpose", "histogram")


def _cold(module: Module, version) -> bytes:
    clear_memos()
    return encode(module, version, debug_info=True)


@pytest.mark.parametrize("family, version, module", CASES, ids=[f"{f}-{v}" for f, v, _ in CASES])
def test_every_family_encoded_again_gives_its_cold_bytes(family, version, module):
    cold = _cold(module, version)
    assert encode(module, version, debug_info=True) == cold  # (this one replays)
    assert encode(module, version, debug_info=True) == cold


def test_every_bundled_kernel_at_every_version_gives_its_cold_bytes_warm():
    # the kernels recorded afresh each time (as a user's process does), in a shuffled
    # order, so that trails are shared, left and taken up again at every point
    def bytes_of(name: str, v: str):
        try:
            return registry.get(name).build().bytecode(v, debug_info=True)
        except Exception as e:  # (a kernel a version cannot hold: the same refusal warm)
            return f"{type(e).__name__}: {e}"

    runs = [(n, version_text(v)) for n in registry.names() for v in VERSIONS]
    cold = {}
    for name, v in runs:
        clear_memos()
        cold[name, v] = bytes_of(name, v)
    random.Random(19).shuffle(runs)
    differ = [(n, v) for n, v in runs if bytes_of(n, v) != cold[n, v]]
    assert differ == []


def _spy(monkeypatch) -> list:
    """Record each call of the two slow paths the memos stand in for."""
    slow: list = []
    first_use, function = typecodec.TypeTable._first_use, debuginfo.DebugWriter._function

    def spied_first_use(self, t):
        slow.append(("type", t))
        return first_use(self, t)

    def spied_function(self, *args):
        slow.append(("row", args[0]))
        return function(self, *args)

    monkeypatch.setattr(typecodec.TypeTable, "_first_use", spied_first_use)
    monkeypatch.setattr(debuginfo.DebugWriter, "_function", spied_function)
    return slow


@pytest.mark.parametrize("name", CHAPTER + ("flash_attn",))
def test_a_kernel_recorded_again_replays_its_types_and_its_row(name, monkeypatch):
    clear_memos()
    cold = registry.get(name).build().bytecode("13.4", debug_info=True)
    slow = _spy(monkeypatch)
    steps, rows = typecodec._TRAILS.steps, len(debuginfo._ROWS)
    assert registry.get(name).build().bytecode("13.4", debug_info=True) == cold
    assert slow == []  # every type and the row came from the memos
    assert (typecodec._TRAILS.steps, len(debuginfo._ROWS)) == (steps, rows)  # none added


def test_a_file_that_leaves_a_trail_takes_the_usual_way_from_there(monkeypatch):
    clear_memos()
    for other in CHAPTER:  # trails of the other kernels' types, from the same root
        registry.get(other).build().bytecode("13.4", debug_info=True)
    slow = _spy(monkeypatch)
    module = registry.get("flash_attn").build().module
    warm = encode(module, "13.4", debug_info=True)
    assert any(kind == "type" for kind, _ in slow)  # (it did leave them)
    assert warm == _cold(module, "13.4")
    # what it added after leaving went into copies: the trails it replayed still give the
    # other kernels' own tables
    for other in CHAPTER:
        other_module = registry.get(other).build().module
        assert encode(other_module, "13.4", debug_info=True) == _cold(other_module, "13.4")


def test_the_trails_copies_stay_bounded_and_right_when_they_start_afresh(monkeypatch):
    monkeypatch.setattr(typecodec, "_MAX_HELD", 8)  # (a few steps' copies of by_id)
    step, over = typecodec._Trails.step, []

    def checked_step(self, node, key, found, table, n_kept, held):
        child = step(self, node, key, found, table, n_kept, held)
        # the count holds the copies kept since the trails last started afresh, and stays
        # under the bound by one copy at most (a step is kept, then the bound looked at)
        over.append(self.held - len(table.by_id) >= 8)
        return child

    monkeypatch.setattr(typecodec._Trails, "step", checked_step)
    clear_memos()
    modules = [registry.get(n).build().module for n in CHAPTER]
    cold = [_cold(m, "13.4") for m in modules]
    for _ in range(2):
        assert [encode(m, "13.4", debug_info=True) for m in modules] == cold
    assert len(over) > 10 and not any(over)


def test_the_trails_stay_bounded_and_right_when_they_start_afresh(monkeypatch):
    monkeypatch.setattr(typecodec, "_MAX_STEPS", 3)
    clear_memos()
    modules = [registry.get(n).build().module for n in CHAPTER]
    cold = [_cold(m, "13.4") for m in modules]
    for _ in range(2):
        assert [encode(m, "13.4", debug_info=True) for m in modules] == cold
        assert typecodec._TRAILS.steps <= 3


def test_memos_cleared_in_the_middle_of_a_file_do_not_change_it(monkeypatch):
    module = registry.get("flash_attn").build().module
    cold = _cold(module, "13.4")
    encode(module, "13.4", debug_info=True)  # (trails and rows now warm)
    intern = typecodec.TypeTable._intern

    def clearing_intern(self, t):  # every memo emptied while the file is being written
        clear_memos()
        return intern(self, t)

    monkeypatch.setattr(typecodec.TypeTable, "_intern", clearing_intern)
    other = registry.get("softmax").build().module  # (leaves flash_attn's trail at once)
    encode(other, "13.4", debug_info=True)
    monkeypatch.undo()
    assert encode(module, "13.4", debug_info=True) == cold


def test_a_row_found_in_the_memo_then_a_new_one_in_the_same_file():
    # two entries: the first one's row (and its types) replayed, the second one's made the
    # usual way on tables the replay filled
    a = registry.get("vadd").build().module.functions[0]
    b = registry.get("softmax").build().module.functions[0]
    c = registry.get("matmul").build().module.functions[0]
    ab = Module((a, attrs.evolve(b, name="second")))
    ac = Module((a, attrs.evolve(c, name="second")))
    cold = _cold(ac, "13.4")
    encode(ab, "13.4", debug_info=True)
    assert encode(ac, "13.4", debug_info=True) == cold


def test_a_file_off_the_trails_finds_the_type_objects_earlier_files_held(monkeypatch):
    # the trails gone, the object-entries memo (typecodec._OBJECT_ENTRIES) still answers a
    # shared type object by identity: no value is built for it again (and the bytes agree)
    clear_memos()
    module = registry.get("softmax").build().module
    cold = encode(module, "13.4", debug_info=True)
    typecodec._TRAILS.clear()
    interned = []
    intern = typecodec.TypeTable._intern
    monkeypatch.setattr(
        typecodec.TypeTable, "_intern", lambda self, t: (interned.append(t), intern(self, t))[1]
    )
    assert encode(module, "13.4", debug_info=True) == cold
    assert interned == []
