"""Which modules carry the semantics, by area, and which tests guard each.

Tests are the fast ones that exercise the module (no tileiras, nothing marked slow),
so one mutant costs seconds; the golden gate 0 runs for the stages whose output it pins.
"""

from __future__ import annotations

__all__ = ["AREAS", "TESTS", "QUICK", "area_of", "tests_for"]

#: area -> the modules whose mutants count for it
AREAS: dict[str, tuple[str, ...]] = {
    "lowering": (
        "tileir/lower/lowering.py",
        "tileir/lower/addressing.py",
        "tileir/lower/memory.py",
    ),
    "text": (
        "tileir/text/render.py",
        "tileir/text/rules.py",
        "tileir/text/memory.py",
        "tileir/text/attr_text.py",
        "tileir/text/float_text.py",
    ),
    "codecs": (
        "tileir/encode/wire.py",
        "tileir/encode/writer.py",
        "tileir/encode/reader.py",
        "tileir/encode/opwrite.py",
        "tileir/encode/opread.py",
        "tileir/encode/attrcodec.py",
        "tileir/encode/typecodec.py",
    ),
    "interpreter": (
        "tileir/fake/rounding.py",
        "tileir/fake/rules/floats.py",
        "tileir/fake/rules/ints.py",
        "tileir/fake/rules/convert.py",
        "tileir/fake/rules/shape.py",
        "tileir/fake/rules/misc.py",
        "tileir/fake/rules/memory.py",
    ),
    "launch checks": ("tileir/host/launch.py", "tileir/host/widths.py"),
    "parameter packing": ("tileir/real/params.py",),
    "checker": (
        "tileir/verify/checker.py",
        "tileir/verify/rules.py",
        "tileir/verify/shapes.py",
        "tileir/verify/memory.py",
        "tileir/verify/views.py",
    ),
    "finders": (
        "tileir/debug/races.py",
        "tileir/debug/bounds.py",
        "tileir/debug/padding.py",
        "tileir/debug/nonfinite.py",
    ),
}


#: a pytest run of the fast tests at these paths
def _pytest(*paths: str) -> tuple[str, ...]:
    return ("pytest", "-q", "-x", "-p", "no:cacheprovider", "-m", "not tools and not slow", *paths)


#: gate 0: every bundled kernel recorded, rendered and encoded against its pinned files
_GOLDEN = ("tileir", "golden")

#: area -> the commands (argv after ``python -m``) run against each of its mutants, in order;
#: the mutant is killed by the first that fails
TESTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "lowering": (
        _pytest("tests/lower", "tests/record", "tests/ops", "tests/fake/test_interpret.py"),
        _GOLDEN,
    ),
    "text": (_pytest("tests/text"), _GOLDEN),
    "codecs": (_pytest("tests/encode"), _GOLDEN),
    "interpreter": (_pytest("tests/fake"),),
    "launch checks": (
        _pytest("tests/host", "tests/fake/test_fake_device.py", "tests/real/test_real_device.py"),
    ),
    "parameter packing": (
        _pytest(
            "tests/real/test_real_params.py",
            "tests/real/test_real_device.py",
            "tests/real/test_real_driver.py",
        ),
    ),
    "checker": (_pytest("tests/verify"),),
    "finders": (_pytest("tests/debug"),),
}


#: module -> the test files nearest it, for the sampled run in CI (``--quick``): seconds
#: per mutant instead of the area's minute, so a sample fits a few minutes on two cores.
#: They are a subset of the area's tests, so a quick run's kill rate is a floor of the
#: full run's on the same mutants.
QUICK: dict[str, tuple[str, ...]] = {
    "tileir/lower/lowering.py": ("tests/lower",),
    "tileir/lower/addressing.py": ("tests/lower",),
    "tileir/lower/memory.py": ("tests/lower",),
    "tileir/text/render.py": ("tests/text/test_render.py",),
    "tileir/text/rules.py": ("tests/text/test_render.py",),
    "tileir/text/memory.py": ("tests/text/test_render.py",),
    "tileir/text/attr_text.py": ("tests/text",),
    "tileir/text/float_text.py": ("tests/text",),
    "tileir/encode/wire.py": ("tests/encode/test_wire.py", "tests/encode/test_decode_errors.py"),
    "tileir/encode/writer.py": (
        "tests/encode/test_encode.py",
        "tests/encode/test_decode_errors.py",
    ),
    "tileir/encode/reader.py": (
        "tests/encode/test_decode_errors.py",
        "tests/encode/test_encode.py",
    ),
    "tileir/encode/opwrite.py": ("tests/encode/test_encode.py", "tests/encode/test_fast_path.py"),
    "tileir/encode/opread.py": (
        "tests/encode/test_decode_errors.py",
        "tests/encode/test_encode.py",
    ),
    "tileir/encode/attrcodec.py": (
        "tests/encode/test_float_scalar_form.py",
        "tests/encode/test_wire.py",
        "tests/encode/test_encode.py",
    ),
    "tileir/encode/typecodec.py": (
        "tests/encode/test_encode.py",
        "tests/encode/test_decode_errors.py",
        "tests/encode/test_replay_memos.py",
    ),
    "tileir/fake/rounding.py": (
        "tests/fake/test_interpret_rounding.py",
        "tests/fake/test_conversion_tables.py",
    ),
    "tileir/fake/rules/floats.py": (
        "tests/fake/test_interpret_ops.py",
        "tests/fake/test_interpret_rounding.py",
        "tests/fake/test_interpret_ftz.py",
        "tests/fake/test_interpret_products.py",
        "tests/fake/test_interpret_fastpaths.py",  # FOLDS: a reduce's one-pass max / min
    ),
    "tileir/fake/rules/ints.py": ("tests/fake/test_interpret_ops.py",),
    "tileir/fake/rules/convert.py": (
        "tests/fake/test_conversion_tables.py",
        "tests/fake/test_interpret_ops.py",
    ),
    "tileir/fake/rules/shape.py": (
        "tests/fake/test_interpret_ops.py",
        "tests/fake/test_interpret_edges.py",
    ),
    "tileir/fake/rules/misc.py": (
        "tests/fake/test_interpret_ops.py",
        "tests/fake/test_interpret_reduce_direct.py",
        "tests/fake/test_fusion.py",
    ),
    "tileir/fake/rules/memory.py": (
        "tests/fake/test_interpret_ops.py",
        "tests/fake/test_interpret_edges.py",
        "tests/fake/test_fusion.py",
        "tests/fake/test_interpret_products.py",
    ),
    "tileir/host/launch.py": ("tests/host",),
    "tileir/host/widths.py": ("tests/host",),
    "tileir/real/params.py": ("tests/real/test_real_params.py",),
    "tileir/verify/checker.py": ("tests/verify/test_verify.py",),
    "tileir/verify/rules.py": ("tests/verify/test_verify.py",),
    "tileir/verify/shapes.py": ("tests/verify/test_verify.py",),
    "tileir/verify/memory.py": ("tests/verify/test_verify.py",),
    "tileir/verify/views.py": ("tests/verify/test_verify.py",),
    "tileir/debug/races.py": (
        "tests/debug/test_debug_races_exact.py",
        "tests/debug/test_debug_finders.py",
    ),
    "tileir/debug/bounds.py": ("tests/debug/test_debug_finders.py",),
    "tileir/debug/padding.py": ("tests/debug/test_debug_finders.py",),
    "tileir/debug/nonfinite.py": ("tests/debug/test_debug_finders.py",),
}


def area_of(module: str) -> str:
    """The area ``module`` (a repository path) belongs to."""
    for area, modules in AREAS.items():
        if module in modules:
            return area
    raise KeyError(f"{module} is in no area of tools.mutation.targets.AREAS")


def tests_for(module: str, quick: bool = False) -> tuple[tuple[str, ...], ...]:
    """The commands whose failure kills a mutant of ``module`` (``quick``: its nearest
    test files only, :data:`QUICK`)."""
    if quick:
        return (_pytest(*QUICK[module]),)
    return TESTS[area_of(module)]
