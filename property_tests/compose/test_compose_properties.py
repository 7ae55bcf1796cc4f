"""Hypothesis keeps the composition honest: for random element-wise and row-wise functions
drawn from the ops, ``fuse(a, b)`` on the fake device equals running ``a`` then ``b``;
``retile`` gives the same results for any tile (ragged ones included); ``specialize`` equals
passing the value; the library's functions equal numpy on random ragged shapes under every
padding; fused and retiled kernels pass gates 0 to 2."""

import inspect
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.tools import needs_tools
from tileir import (
    F32,
    In,
    Out,
    Scalar,
    absolute,
    cells,
    exp,
    maximum,
    minimum,
    sin,
    tanh,
)
from tileir.compose import elementwise, fuse, retile, rowwise, specialize
from tileir.fake import FakeDevice
from tileir.kernels.gates import gate_asm, gate_fake, gate_text, write_golden
from tileir.kernels.registry import KernelSpec
from tileir.lib import gelu, layer_norm, log_softmax, mean, rms_norm, silu, softmax, var
from tileir.types import PADDING_VALUES

DEV = FakeDevice(mode="interpret")
#: these run two or three kernels an example: a quarter of the profile's examples (at least 8)
HEAVY = settings(max_examples=max(8, settings.default.max_examples // 4))

# ----------------------------------------------------------------------------- drawn functions

#: name -> (tile function, numpy function in float32 arithmetic)
UNARY = {
    "neg": (lambda t: -t, lambda x: -x),
    "abs": (absolute, np.abs),
    "tanh": (tanh, np.tanh),
    "sin": (sin, np.sin),
    "half": (lambda t: t * 0.5, lambda x: x * np.float32(0.5)),
    "square": (lambda t: t * t, lambda x: x * x),
    "exp_small": (lambda t: exp(t * 0.125), lambda x: np.exp(x * np.float32(0.125))),
}
BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "max": maximum,
    "min": minimum,
}


@st.composite
def ew_functions(draw, n_in):
    """A random function of ``n_in`` tiles: a few unary and binary steps over the inputs and
    the results so far; the last step is the result."""
    steps = []
    pool = n_in
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            steps.append(
                ("u", draw(st.sampled_from(sorted(UNARY))), draw(st.integers(0, pool - 1)))
            )
        else:
            steps.append(
                (
                    "b",
                    draw(st.sampled_from(sorted(BINARY))),
                    draw(st.integers(0, pool - 1)),
                    draw(st.integers(0, pool - 1)),
                )
            )
        pool += 1

    def fn(*tiles):
        vals = list(tiles)
        for s in steps:
            if s[0] == "u":
                vals.append(UNARY[s[1]][0](vals[s[2]]))
            else:
                vals.append(BINARY[s[1]](vals[s[2]], vals[s[3]]))
        return vals[-1]

    fn.__name__ = "drawn_" + "_".join(s[1] for s in steps)
    return fn


#: row functions from tileir.lib: name -> (tile function, numpy function of float64 rows)
ROWS = {
    "softmax": (softmax, lambda x: _np_softmax(x)),
    "log_softmax": (log_softmax, lambda x: np.log(_np_softmax(x))),
    "layer_norm": (
        layer_norm,
        lambda x: (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5),
    ),
    "rms_norm": (rms_norm, lambda x: x / np.sqrt((x * x).mean(1, keepdims=True) + 1e-6)),
    "center": (lambda t: t - mean(t, keepdims=True), lambda x: x - x.mean(1, keepdims=True)),
    "var": (lambda t: t * 0.0 + var(t, keepdims=True), lambda x: x * 0 + x.var(1, keepdims=True)),
    "gelu": (
        gelu,
        lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
    ),
    "silu": (silu, lambda x: x / (1 + np.exp(-x))),
}


def _np_softmax(x):
    e = np.exp(x - x.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


pow2 = st.sampled_from([16, 32, 64, 128, 256])
pads = st.sampled_from(PADDING_VALUES)


def _inputs(n, k, seed):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-2, 2, n).astype(np.float32) for _ in range(k)]


def _zeros(n):
    return np.zeros(n, np.float32)


def _same(a, b):
    np.testing.assert_array_equal(a, b)  # bit for bit (NaN equal to NaN)


# ----------------------------------------------------------------------------- fuse


@HEAVY
@given(
    st.integers(1, 700),
    pow2,
    st.integers(1, 2),
    st.integers(1, 2),
    st.data(),
)
def test_fuse_equals_running_the_first_then_the_second(n, tile, n_a, n_b, data):
    g = cells([n], [tile])
    fa = data.draw(ew_functions(n_a))
    fb = data.draw(ew_functions(n_b))
    into = data.draw(st.integers(0, n_b - 1))
    a = elementwise("a", fa, *[In(F32, g)] * n_a, Out(F32, g))
    b = elementwise("b", fb, *[In(F32, g)] * n_b, Out(F32, g))
    k = fuse(a, b, into=into)
    xs = _inputs(n, n_a + n_b - 1, n)
    mid = DEV.run(a, *xs[:n_a], _zeros(n))[-1]
    others = xs[n_a:]
    b_args = others[:into] + [mid] + others[into:]
    want = DEV.run(b, *b_args, _zeros(n))[-1]
    got = DEV.run(k, *xs, _zeros(n))[-1]
    _same(got, want)


@HEAVY
@given(st.integers(1, 24), st.integers(1, 130), pads, st.sampled_from(sorted(ROWS)), st.data())
def test_fuse_of_row_wise_kernels_equals_both_in_turn(rows, cols, pad, row_fn, data):
    tile_r = data.draw(st.sampled_from([1, 2, 4, 8]))
    tile_c = 1 << max(0, (cols - 1).bit_length())
    g = cells([rows, cols], [tile_r, tile_c])
    fa = data.draw(ew_functions(1))
    a = rowwise("a", fa, In(F32, g), Out(F32, g))
    b = rowwise(
        "b", ROWS[row_fn][0], In(F32, cells([rows, cols], [tile_r, tile_c], pad=pad)), Out(F32, g)
    )
    k = fuse(a, b)
    (x,) = _inputs(rows * cols, 1, rows + cols)
    mid = DEV.run(a, x, _zeros(rows * cols))[-1]
    want = DEV.run(b, mid, _zeros(rows * cols))[-1]
    got = DEV.run(k, x, _zeros(rows * cols))[-1]
    _same(got, want)


# ----------------------------------------------------------------------------- retile


@HEAVY
@given(st.integers(1, 700), pow2, pow2, st.integers(1, 3), st.data())
def test_retile_gives_the_same_results_for_any_tile(n, tile, other, n_in, data):
    g = cells([n], [tile])
    fn = data.draw(ew_functions(n_in))
    k = elementwise("k", fn, *[In(F32, g)] * n_in, Out(F32, g))
    names = [f"p{i}" for i in range(n_in)]
    # the drawn function takes *tiles: the combinator names its Ins p0, p1 ... and its Out out
    r = retile(k, **{name: [other] for name in names}, out=[other])
    assert r.grid == (-(-n // other),)
    xs = _inputs(n, n_in, n + other)
    _same(DEV.run(r, *xs, _zeros(n))[-1], DEV.run(k, *xs, _zeros(n))[-1])


@HEAVY
@given(st.integers(1, 24), st.integers(1, 130), pads, st.sampled_from(sorted(ROWS)), st.data())
def test_retile_of_a_row_wise_kernel_keeps_its_results(rows, cols, pad, row_fn, data):
    tile_c = 1 << max(0, (cols - 1).bit_length())
    tr1, tr2 = (
        data.draw(st.sampled_from([1, 2, 4, 8])),
        data.draw(st.sampled_from([1, 2, 4, 8, 16])),
    )
    wide = data.draw(st.sampled_from([tile_c, 2 * tile_c]))
    k = rowwise(
        "k",
        ROWS[row_fn][0],
        In(F32, cells([rows, cols], [tr1, tile_c], pad=pad)),
        Out(F32, cells([rows, cols], [tr1, tile_c])),
    )
    r = retile(k, **{_first_name(ROWS[row_fn][0]): [tr2, wide]}, out=[tr2, wide])
    (x,) = _inputs(rows * cols, 1, rows * cols)
    a = DEV.run(k, x, _zeros(rows * cols))[-1]
    b = DEV.run(r, x, _zeros(rows * cols))[-1]
    assert np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True)


def _first_name(fn):
    return next(iter(inspect.signature(fn).parameters))


# ----------------------------------------------------------------------------- specialize


@HEAVY
@given(st.integers(1, 700), pow2, st.floats(-4, 4, width=32), st.data())
def test_specialize_equals_passing_the_value(n, tile, value, data):
    g = cells([n], [tile])
    fn = data.draw(ew_functions(2))
    k = elementwise("k", fn, In(F32, g), Scalar(F32), Out(F32, g))
    s = specialize(k, p1=value)
    assert len(s.params) == 2
    (x,) = _inputs(n, 1, n)
    _same(DEV.run(s, x, _zeros(n))[-1], DEV.run(k, x, value, _zeros(n))[-1])


# ----------------------------------------------------------------------------- the library


@given(st.integers(1, 24), st.integers(1, 200), pads, st.sampled_from(sorted(ROWS)), st.data())
def test_library_functions_equal_numpy_on_ragged_rows_under_every_padding(
    rows, cols, pad, name, data
):
    tile_c = 1 << max(0, (cols - 1).bit_length())
    tile_c *= data.draw(st.sampled_from([1, 2]))
    tile_r = data.draw(st.sampled_from([1, 2, 4, 8]))
    fn, np_fn = ROWS[name]
    k = rowwise(
        name,
        fn,
        In(F32, cells([rows, cols], [tile_r, tile_c], pad=pad)),
        Out(F32, cells([rows, cols], [tile_r, tile_c])),
    )
    (x,) = _inputs(rows * cols, 1, rows * 1000 + cols)
    got = DEV.run(k, x, _zeros(rows * cols))[-1].reshape(rows, cols)
    want = np_fn(x.astype(np.float64).reshape(rows, cols))
    assert np.allclose(got, want, rtol=1e-4, atol=1e-4), (name, pad, rows, cols)


# ----------------------------------------------------------------------------- gates 0 to 2


def _spec(kernel, n, n_in, reference):
    return KernelSpec(
        kernel.name,
        lambda: kernel,
        reference,
        lambda rng: (
            [rng.uniform(-2, 2, n).astype(np.float32) for _ in range(n_in)] + [_zeros(n)],
            None,
        ),
        None,
        "compose",
    )


@st.composite
def fused_cases(draw):
    n = draw(st.integers(1, 700))
    tile = draw(pow2)
    other = draw(pow2)
    ua = draw(st.sampled_from(sorted(UNARY)))
    ub = draw(st.sampled_from(sorted(UNARY)))
    bop = draw(st.sampled_from(sorted(BINARY)))
    return n, tile, other, ua, ub, bop


_NP_BINARY = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "max": np.maximum,
    "min": np.minimum,
}


def _fused_and_retiled(case):
    n, tile, other, ua, ub, bop = case
    g = cells([n], [tile])
    ta, na = UNARY[ua]
    tb, nb = UNARY[ub]
    a = elementwise("a", lambda x, y: ta(BINARY[bop](x, y)), In(F32, g), In(F32, g), Out(F32, g))
    b = elementwise("b", tb, In(F32, g), Out(F32, g))
    fused = fuse(a, b, name="fused")
    retiled = retile(fused, x=[other], y=[other], out=[other])

    def ref(args):
        x, y = args[0], args[1]
        return [x, y, nb(na(_NP_BINARY[bop](x, y))).astype(np.float32)]

    return [_spec(fused, n, 2, ref), _spec(retiled, n, 2, ref)]


@HEAVY
@given(fused_cases())
def test_fused_and_retiled_kernels_pass_gate_2(case):
    for spec in _fused_and_retiled(case):
        result = gate_fake(spec)  # bit-exact: the reference does the same float32 operations
        assert result.ok, result.line()


@pytest.fixture(scope="module")
def golden_root(tmp_path_factory):
    return tmp_path_factory.mktemp("compose_golden")


@needs_tools
@settings(max_examples=max(3, settings.default.max_examples // 20))
@given(fused_cases())
def test_fused_and_retiled_kernels_pass_gates_0_and_1(golden_root, case):
    for i, spec in enumerate(_fused_and_retiled(case)):
        root = golden_root / f"{abs(hash(case))}_{i}"
        write_golden([spec], root)
        text = gate_text(spec, root)
        assert text.ok, text.line()
        asm = gate_asm(spec, ("sm_90",), root)
        assert asm.ok, asm.line()
