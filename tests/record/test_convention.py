"""The calling convention is defined once (tileir.record.convention) and read everywhere."""

from pathlib import Path

from tileir import DYN_DIM, F32, I32, In, Out, Scalar, Shared, cells, load_cell, store_cell, trace
from tileir.record.convention import SUMMARY, dyn_extents, entry_param_types, trace_params

ROOT = Path(__file__).resolve().parents[2]


def test_readme_and_docs_quote_the_convention_as_the_code_defines_it():
    for page in ("README.md", "docs/launch.md"):
        assert SUMMARY in (ROOT / page).read_text(), f"{page} does not quote convention.SUMMARY"


def _copy(x, n, out):
    t = yield load_cell(x)
    yield store_cell(out, t)


def test_the_lowered_entry_takes_the_conventions_parameters():
    g = cells([DYN_DIM, 64], [16, 64])
    k = trace("conv", _copy, In(F32, g), Scalar(I32), Out(F32, g))
    assert dyn_extents(k.params) == ((0, 0), (2, 0))
    entry = k.module.function("conv")
    assert tuple(entry.type.inputs) == entry_param_types(k.params)
    assert [str(t) for t in entry.type.inputs] == [
        "tile<ptr<f32>>",
        "tile<i32>",
        "tile<ptr<f32>>",
        "tile<i32>",
        "tile<i32>",
    ]


def test_a_shared_buffer_is_a_pointer_and_fixed_extents_add_nothing():
    params = trace_params(Shared(F32, cells([8], [8])), Out(F32, cells([8], [8])))
    assert dyn_extents(params) == ()
    assert [str(t) for t in entry_param_types(params)] == ["tile<ptr<f32>>", "tile<ptr<f32>>"]
