"""A new user's first hour (issue 14): no effect is lost, a tile refuses Python's protocols
with what to write instead, and numpy's habits (``@``, ``.T``, ``**``, ``.astype``,
``.sum()``, reductions over several or all dimensions) work on tiles."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import (
    BF16,
    F16,
    F32,
    F64,
    I8,
    I32,
    In,
    Out,
    RecordingError,
    break_,
    cells,
    for_range,
    full,
    if_,
    load_cell,
    loop,
    reduce_max,
    reduce_sum,
    store_cell,
    trace,
)
from tileir.fake import FakeDevice

G = cells([256], [128])
HERE = "test_first_hour.py"


def _refusal(body, *markers, name="k"):
    with pytest.raises(RecordingError) as info:
        trace(name, body, *(markers or (In(F32, G), Out(F32, G))))
    return info.value


def _line_of(fn, text):
    """The line of ``fn``'s source holding ``text``."""
    import inspect

    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


# ----------------------------------------------------------------------------- 1. no lost effect


def test_a_store_without_yield_is_refused_at_its_line():
    def body(x, out):
        t = yield load_cell(x)
        store_cell(out, t)

    err = _refusal(body)
    assert "`store_cell(...)` makes an effect and this line throws it away" in str(err)
    assert "write `yield store_cell(...)`" in str(err)
    assert err.kernel == "k" and err.op == "store_cell"
    assert err.where.endswith(f"{HERE}:{_line_of(body, 'store_cell(out, t)')}")


def test_a_dotted_effect_call_without_yield_is_refused():
    def body(x, out):
        t = yield tileir.load_cell(x)
        yield tileir.store_cell(out, t)
        tileir.store_cell(out, t + 1.0)

    err = _refusal(body)
    assert "`store_cell(...)` makes an effect and this line throws it away" in str(err)
    assert err.where.endswith(f"{HERE}:{_line_of(body, 't + 1.0')}")


def test_a_dropped_effect_inside_a_loop_body_and_a_helper_is_refused():
    def in_loop(x, out):
        t = yield load_cell(x)

        def trip(i):
            store_cell(out, t)

        yield for_range(0, 2, trip)
        yield store_cell(out, t)

    err = _refusal(in_loop)
    assert "`store_cell(...)` makes an effect" in str(err)
    assert err.where.endswith(f"{HERE}:{_line_of(in_loop, 'store_cell(out, t)')}")

    def helper(out, t):
        yield store_cell(out, t)
        store_cell(out, t * 2.0)

    def with_helper(x, out):
        t = yield load_cell(x)
        yield from helper(out, t)

    err = _refusal(with_helper)
    assert err.where.endswith(f"{HERE}:{_line_of(helper, 't * 2.0')}")


def test_a_dropped_loop_exit_says_return_it():
    def body(x, out):
        t = yield load_cell(x)

        def trip(acc):
            break_(acc)
            return break_(acc)

        r = yield loop(trip, t)
        yield store_cell(out, r)

    err = _refusal(body)
    assert "`break_(...)` makes a loop exit and this line throws it away" in str(err)
    assert "`return break_(...)`" in str(err)


def test_a_helper_with_effects_called_without_yield_from_is_refused():
    def helper(x):
        t = yield load_cell(x)
        return t

    def dropped(x, out):
        t = yield load_cell(x)
        helper(x)
        yield store_cell(out, t)

    err = _refusal(dropped)
    assert "`helper(...)` is a helper that has effects (a generator function)" in str(err)
    assert "write `yield from helper(...)`" in str(err)
    assert err.where.endswith(f"{HERE}:{_line_of(dropped, 'helper(x)')}")

    def used_as_tile(x, out):
        yield store_cell(out, helper(x))

    err = _refusal(used_as_tile)
    assert "this is a call of `helper`, a helper that has effects (a generator)" in str(err)
    assert "`x = yield from helper(...)`" in str(err)
    assert err.where.endswith(f"{HERE}:{_line_of(used_as_tile, 'helper(x)')}")

    def in_arithmetic(x, out):
        t = yield load_cell(x)
        yield store_cell(out, t + helper(x))

    err = _refusal(in_arithmetic)
    assert err.op == "addf" or err.op == "add"
    assert "a helper that has effects (a generator)" in str(err) and "generator'" not in str(err)

    def yielded(x, out):
        t = yield helper(x)
        yield store_cell(out, t)

    err = _refusal(yielded)
    assert "the body yielded a call of `helper`" in str(err) and "yield from" in str(err)


@pytest.mark.parametrize(
    "use",
    [
        lambda e: e + 1.0,
        lambda e: 2.0 * e,
        lambda e: e.shape,
        lambda e: e.to(F16),
        lambda e: tileir.exp(e),
        lambda e: full((128,), 1.0, F32) + e,
    ],
    ids=["effect+number", "number*effect", "shape", "to", "exp", "tile+effect"],
)
def test_an_effect_used_as_a_tile_says_yield_it(use):
    def body(x, out):
        t = load_cell(x)  # the yield is forgotten
        yield store_cell(out, use(t))

    err = _refusal(body)
    assert (
        "this is an effect (load_view_tko, whose yield answers a tile<128xf32>), not a tile"
    ) in str(err)
    assert "write `x = yield load_cell(a)`" in str(err)
    assert "Emit" not in str(err) and "numerics" not in str(err)
    assert err.kernel == "k" and HERE in err.where


@pytest.mark.parametrize(
    "make, what",
    [
        (lambda x, out: store_cell(out, full((128,), 1.0, F32)), "store_view_tko"),
        (lambda x, out: for_range(0, 4, lambda i: None), "for"),
    ],
    ids=["store", "for_range"],
)
def test_an_effect_without_a_value_used_as_a_tile_says_yield_it(make, what):
    # an effect whose yield answers nothing: the hint names it without a type (the tile
    # names are properties on Effect, and the hint must not read its own refusing one)
    def body(x, out):
        e = make(x, out)
        yield store_cell(out, full((128,), 1.0, F32) + e.shape[0])

    err = _refusal(body)
    assert f"this is an effect ({what}), not a tile" in str(err)
    assert "whose yield answers" not in str(err)
    assert err.kernel == "k" and HERE in err.where


def test_an_effect_answers_its_own_fields_and_refuses_only_tile_names():
    seen = []

    def body(x, out):
        seen.append(load_cell(x))  # an Emit, looked at before it is yielded
        t = yield seen[0]
        yield store_cell(out, t)

    trace("k", body, In(F32, G), Out(F32, G))
    effect = seen[0]
    assert str(effect.type) == "tile<128xf32>" and effect.op == "load_view_tko"
    with pytest.raises(AttributeError):
        effect.not_a_field  # noqa: B018 - the read is the test
    with pytest.raises(RecordingError, match="this is an effect"):
        effect.reshape  # noqa: B018
    # no __getattr__ on Effect: it would send every read of an Emit's fields (the recorder
    # reads them on every yield) down CPython's unspecialised attribute path
    assert all("__getattr__" not in vars(k) for k in type(effect).__mro__)


def test_a_body_that_is_not_a_generator_is_refused():
    def body(x, out):
        store_cell(out, 1.0)

    err = _refusal(body)
    assert "the body `body` is not a generator function (it returned None)" in str(err)
    assert "`yield store_cell(out, x)`" in str(err)
    assert err.kernel == "k" and err.where.endswith(f"{HERE}:{_line_of(body, 'def body')}")


def test_an_out_nothing_writes_is_refused_unless_it_may_stay_unwritten():
    def body(x, out, spare):
        t = yield load_cell(x)
        yield store_cell(out, t)

    err = _refusal(body, In(F32, G), Out(F32, G), Out(F32, G))
    assert "nothing writes parameter 2 (Out), Out(f32, cells([256], [128]))" in str(err)
    assert "Out(..., unwritten_ok=True)" in str(err)
    k = trace("k", body, In(F32, G), Out(F32, G), Out(F32, G, unwritten_ok=True))
    assert k.params[2].marker.unwritten_ok
    assert "unwritten_ok=True" in repr(k.params[2].marker)


def test_an_out_written_only_inside_a_branch_counts_as_written():
    def body(x, out):
        t = yield load_cell(x)

        def then():
            yield store_cell(out, t)

        yield if_(reduce_max(t, None) > 0.0, then)

    trace("k", body, In(F32, G), Out(F32, G))


def test_the_dropped_check_does_not_refuse_pure_calls_or_unresolved_names():
    def body(x, out):
        t = yield load_cell(x)
        print  # noqa: B018 - a name, not a call
        len([1, 2])  # a builtin's result thrown away: not an effect
        local = store_cell
        yield local(out, t)

    trace("k", body, In(F32, G), Out(F32, G))


# ----------------------------------------------------------------------------- protocols


def _in_kernel(use):
    def body(x, out):
        t = yield load_cell(x)
        use(t)
        yield store_cell(out, t)

    return _refusal(body)


@pytest.mark.parametrize(
    "use, op, words",
    [
        (lambda t: range(t), "int()", "loop with `yield for_range(start, stop, body)`"),
        (lambda t: int(t), "int()", "was used as a Python int"),
        (lambda t: float(t), "float()", "was used as a Python float"),
        (lambda t: len(t), "len()", "has no Python length; use .shape"),
        (lambda t: list(t), "iter()", "cannot be iterated in Python"),
        (lambda t: t[0], "[]", "take a sub-tile with extract("),
        (lambda t: np.exp(t), "numpy.exp", "numpy's `exp` cannot run on a tile<128xf32>"),
        (lambda t: np.add(t, np.zeros(3)), "numpy.add", "write `a + b`"),
        (lambda t: np.asarray(t), "numpy", "is not a numpy array"),
    ],
    ids=["range", "int", "float", "len", "iter", "index", "ufunc", "numpy-scalar", "asarray"],
)
def test_python_protocols_on_a_tile_say_what_to_write(use, op, words):
    err = _in_kernel(use)
    assert err.op == op and words in str(err)
    assert err.kernel == "k" and HERE in err.where


def test_range_of_a_scalar_parameter_points_at_for_range():
    from tileir import Scalar, scalar

    def body(x, n, out):
        t = yield load_cell(x)
        for _ in range(scalar(n)):
            t = t + t
        yield store_cell(out, t)

    err = _refusal(body, In(F32, G), Scalar(I32), Out(F32, G))
    assert "a tile<i32> was used as a Python int (range(), a list index ...)" in str(err)
    assert "`yield for_range(start, stop, body)`" in str(err)
    assert err.where.endswith(f"{HERE}:{_line_of(body, 'range(scalar(n))')}")


# ----------------------------------------------------------------------------- numpy habits


def test_a_numpy_number_beside_a_tile_is_a_python_number():
    x = full((4, 8), 2.0, F32)
    assert np.float32(2) * x == 2.0 * x and np.float64(1.5) + x == 1.5 + x
    assert x - np.int64(1) == x - 1 and np.float32(2) ** x == 2.0**x


def test_numpy_habits_on_tiles():
    x = full((4, 8), 2.0, F32)
    assert x.T.type == full((8, 4), 0.0, F32).type
    assert full((8,), 1.0, F32).T.type.shape == (8,)
    assert full((2, 4, 8), 1.0, F32).T.shape == (8, 4, 2)
    assert (x**2).op == "fpowf" and (2.0**x).op == "fpowf"
    assert x.astype(F16) == x.to(F16)
    assert x.sum().type.shape == () and x.sum() == reduce_sum(x, None)
    assert x.max(dim=0).shape == (8,) and x.min(dim=1, keepdims=True).shape == (4, 1)
    assert x.prod((0, 1), keepdims=True).shape == (1, 1)


@pytest.mark.parametrize(
    "fmt, acc", [(F16, "f32"), (BF16, "f32"), (F32, "f32"), (F64, "f64"), (I8, "i32")]
)
def test_matmul_accumulates_in_the_widest_format_the_pair_allows(fmt, acc):
    a, b = full((16, 32), 1, fmt), full((32, 8), 1, fmt)
    product = a @ b
    assert product.shape == (16, 8) and product.format.name == acc
    assert product.args[2].op == "constant"


def test_matmul_refusals_list_the_pairs():
    with pytest.raises(RecordingError) as info:
        full((16, 32), 1, I32) @ full((32, 8), 1, I32)
    assert "i8 x i8 -> i32" in str(info.value) and "f16 x f16 -> f16 or f32" in str(info.value)
    with pytest.raises(RecordingError) as info:
        full((16, 32), 1, F16) @ full((32, 8), 1, F32)
    assert "the factors have formats f16 and f32" in str(info.value)


def test_reductions_over_several_or_all_dimensions():
    x = full((4, 8, 2), 1.0, F32)
    assert reduce_max(x, (0, 2)).shape == (8,)
    assert reduce_max(x, [-1, 0], keepdims=True).shape == (1, 8, 1)
    assert reduce_max(x, None).shape == ()
    assert reduce_sum(x, None, keepdims=True).shape == (1, 1, 1)
    # one dimension at a time, the highest first: the same as nesting the reductions
    assert reduce_sum(x, (0, 2)) == reduce_sum(reduce_sum(x, 2), 0)
    for bad, words in [
        ((0, 0), "dims [0, 0] name one dimension of tile<4x8x2xf32> twice"),
        ("a", "dim must be an int, a tuple of ints or None (all dimensions)"),
        ((0, 1.5), "dim must be an int (a dimension of tile<4x8x2xf32>), got 1.5"),
        ((0, 7), "dim 7 is outside a rank-3 tile"),
    ]:
        with pytest.raises(RecordingError) as info:
            reduce_max(x, bad)
        assert words in str(info.value)
        assert HERE in info.value.where


def test_a_reduction_over_all_dimensions_runs_on_the_fake_device():
    g = cells([4, 8], [4, 8])

    def body(x, out):
        t = yield load_cell(x)
        total = t.sum()  # all dimensions, as numpy's
        yield store_cell(out, t - total + t.max(dim=1, keepdims=True))

    k = trace("sums", body, In(F64, g), Out(F64, g))
    xs = np.arange(32, dtype=np.float64).reshape(4, 8)
    want = xs - xs.sum() + xs.max(axis=1, keepdims=True)
    _, out = FakeDevice(mode="interpret").run(k, xs, np.zeros(32))
    np.testing.assert_array_equal(out.reshape(4, 8), want)


@pytest.mark.parametrize(
    "lhs, rhs, words",
    [
        (F16, F32, "widen the lhs with .to(F32)"),
        (F32, F16, "widen the rhs with .to(F32)"),
        (F16, BF16, "convert both with .to(F32)"),
        (F64, F32, "widen the rhs with .to(F64)"),
    ],
)
def test_a_mixed_format_operation_suggests_the_widening(lhs, rhs, words):
    with pytest.raises(RecordingError) as info:
        full((8,), 1.0, lhs) + full((8,), 1.0, rhs)
    assert f"formats differ; {words}" in str(info.value)


def test_an_effect_returned_by_a_branch_or_loop_body_is_refused_at_its_line():
    def branch(x, out):
        t = yield load_cell(x)
        yield if_(reduce_max(t, None) > 0.0, lambda: store_cell(out, t))

    err = _refusal(branch)
    assert "the then branch's result is an effect (store_view_tko), returned instead of" in str(
        err
    )
    assert err.op == "if" and err.where.endswith(f"{HERE}:{_line_of(branch, 'lambda: store')}")

    def trips(x, out):
        t = yield load_cell(x)
        yield for_range(0, 2, lambda i: store_cell(out, t))

    err = _refusal(trips)
    assert "the loop body's result is an effect (store_view_tko)" in str(err)
