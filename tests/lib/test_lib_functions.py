"""Valid lanes and tileir.lib: the masks are recorded only when used, travel through
arithmetic, and make the library's reductions right over ragged cells whatever the padding."""

import math

import numpy as np
import pytest

from tileir import (
    BF16,
    DYN_DIM,
    F16,
    F32,
    F64,
    FREE_AXIS,
    In,
    Out,
    RecordingError,
    Scalar,
    cells,
    cells_along,
    exp,
    for_range,
    load_at,
    load_cell,
    reduce_sum,
    scalar,
    store_cell,
    trace,
    valid,
    where,
)
from tileir.fake import FakeDevice
from tileir.lib import (
    gelu,
    layer_norm,
    log_softmax,
    matmul_k,
    mean,
    online_softmax,
    reduce_rows,
    rms_norm,
    silu,
    softmax,
    var,
)
from tileir.ops.lanes import lanes_of
from tileir.types import PADDING_VALUES

DEV = FakeDevice(mode="interpret")


def _ops(kernel):
    """Every op name in the kernel's rendered text."""
    return kernel.text()


def test_a_whole_cell_records_no_mask_and_valid_is_a_constant():
    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, where(valid(t), t, 0.0))

    g = cells([4, 128], [4, 128])
    k = trace("whole", body, In(F32, g), Out(F32, g))
    assert "iota" not in _ops(k) and "cmpi" not in _ops(k)


def test_a_ragged_cell_knows_its_lanes_and_arithmetic_carries_them():
    seen = {}

    def body(x, out):
        t = yield load_cell(x)
        seen["t"] = lanes_of(t)
        seen["derived"] = lanes_of(exp(t * 2.0 + 1.0))
        seen["reduced"] = lanes_of(t.sum(dim=1, keepdims=True))
        seen["rows"] = lanes_of(t.sum(dim=0, keepdims=True))
        seen["T"] = lanes_of(t.T)
        seen["same"] = t.valid == valid(t) and (t * 3.0).valid == valid(t)
        yield store_cell(out, t)

    g = cells([6, 100], [8, 128])
    trace("ragged", body, In(F32, g), Out(F32, g))
    assert [b[0] for b in seen["t"]] == [0, 1]
    assert seen["derived"] == seen["t"]
    assert [b[0] for b in seen["reduced"]] == [0]  # the reduced dimension is dropped
    assert [b[0] for b in seen["rows"]] == [1]
    assert [b[0] for b in seen["T"]] == [1, 0]  # permuted with the dimensions
    assert seen["same"]


def test_tiles_from_two_reads_carry_the_intersection_of_their_lanes():
    def body(x, y, out):
        a = yield load_cell(x)  # 6 valid rows of 8
        b = yield load_cell(y)  # 100 valid columns of 128
        both = a + b
        assert sorted(d for d, _s, _l in lanes_of(both)) == [0, 1]
        total = reduce_sum(where(valid(both), both, 0.0), None).reshape([1, 1])
        yield store_cell(out, total)

    k = trace(
        "meet",
        body,
        In(F32, cells([6, 128], [8, 128], pad="nan")),
        In(F32, cells([8, 100], [8, 128], pad="nan")),
        Out(F32, cells([1, 1], [1, 1])),
    )
    xs = np.arange(6 * 128, dtype=np.float32) / 100
    ys = np.arange(8 * 100, dtype=np.float32) / 100
    _, _, out = DEV.run(k, xs, ys, np.zeros(1, np.float32))
    want = (xs.reshape(6, 128)[:, :100] + ys.reshape(8, 100)[:6]).sum()
    assert out[0] == pytest.approx(want, rel=1e-5)


def test_a_dyn_dim_extent_is_read_at_launch():
    # a DYN_DIM along FREE_AXIS takes its length from the buffer: 300 columns, ragged
    def body(x, out):
        total = yield from reduce_rows(x, steps=cells_along(x, 1))
        yield store_cell(out, total)

    g = cells([8, DYN_DIM], [8, 128], along=[0, FREE_AXIS], pad="nan")
    k = trace("dyn", body, In(F32, g), Out(F32, cells([8, 1], [8, 1])))
    assert "get_tensor_shape" in k.text()
    xs = np.arange(2400, dtype=np.float32) / 1000
    _, out = DEV.run(k, xs, np.zeros(8, np.float32))
    assert np.allclose(out, xs.reshape(8, 300).sum(1), rtol=1e-5)


def _np(name, x):
    x = x.astype(np.float64)
    if name == "softmax":
        e = np.exp(x - x.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)
    if name == "log_softmax":
        s = x - x.max(1, keepdims=True)
        return s - np.log(np.exp(s).sum(1, keepdims=True))
    if name == "layer_norm":
        return (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5)
    if name == "rms_norm":
        return x / np.sqrt((x * x).mean(1, keepdims=True) + 1e-6)
    if name == "mean":
        return np.broadcast_to(x.mean(1, keepdims=True), x.shape)
    if name == "var":
        return np.broadcast_to(x.var(1, keepdims=True), x.shape)
    raise AssertionError(name)


LIB = {
    "softmax": softmax,
    "log_softmax": log_softmax,
    "layer_norm": layer_norm,
    "rms_norm": rms_norm,
    "mean": lambda t: t - t + mean(t, keepdims=True),
    "var": lambda t: t - t + var(t, keepdims=True),
}


@pytest.mark.parametrize("pad", PADDING_VALUES)
@pytest.mark.parametrize("name", sorted(LIB))
def test_library_rows_of_100_in_cells_of_128_are_right_whatever_the_padding(name, pad):
    fn = LIB[name]

    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, fn(t))

    k = trace(
        name,
        body,
        In(F32, cells([16, 100], [8, 128], pad=pad)),
        Out(F32, cells([16, 100], [8, 128])),
    )
    xs = np.random.default_rng(2).uniform(-3, 3, 1600).astype(np.float32)
    _, out = DEV.run(k, xs, np.zeros(1600, np.float32))
    assert np.allclose(out.reshape(16, 100), _np(name, xs.reshape(16, 100)), rtol=1e-4, atol=1e-5)


def test_bf16_in_f32_math_narrowed_once():
    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, softmax(t))

    g = cells([8, 100], [8, 128])
    k = trace("sm_bf16", body, In(BF16, g), Out(BF16, g))
    text = k.text()
    assert text.count("ftof") == 2  # widened once, narrowed once
    assert "exp %" in text and "f32" in text
    xs = np.random.default_rng(3).uniform(-3, 3, 800).astype(BF16.numpy_dtype)
    _, out = DEV.run(k, xs, np.zeros(800, BF16.numpy_dtype))
    want = _np("softmax", xs.astype(np.float64).reshape(8, 100))
    assert np.allclose(out.astype(np.float64).reshape(8, 100), want, atol=1e-2)


def test_acc_names_the_compute_format():
    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, gelu(t, acc=F64))

    g = cells([64], [64])
    k = trace("gelu_f64", body, In(F32, g), Out(F32, g))
    assert "f64" in k.text()


def test_layer_norm_and_rms_norm_take_weights():
    def body(x, gw, bw, out1, out2):
        t = yield load_cell(x)
        g = yield load_at(gw, [0])
        b = yield load_at(bw, [0])
        yield store_cell(out1, layer_norm(t, g, b))
        yield store_cell(out2, rms_norm(t, g))

    w = cells([1, 100], [1, 128], along=[FREE_AXIS, 1])
    g = cells([8, 100], [8, 128], pad="pos_inf")
    k = trace(
        "norms",
        body,
        In(F16, g),
        In(F16, w),
        In(F16, w),
        Out(F16, cells([8, 100], [8, 128])),
        Out(F16, cells([8, 100], [8, 128])),
    )
    rng = np.random.default_rng(4)
    xs = rng.uniform(-2, 2, 800).astype(np.float16)
    gs = rng.uniform(0.5, 1.5, 100).astype(np.float16)
    bs = rng.uniform(-1, 1, 100).astype(np.float16)
    zeros = np.zeros(800, np.float16)
    *_, o1, o2 = DEV.run(k, xs, gs, bs, zeros, zeros)
    x = xs.astype(np.float64).reshape(8, 100)
    ln = _np("layer_norm", x) * gs.astype(np.float64) + bs.astype(np.float64)
    rms = _np("rms_norm", x) * gs.astype(np.float64)
    assert np.allclose(o1.astype(np.float64).reshape(8, 100), ln, atol=1e-2)
    assert np.allclose(o2.astype(np.float64).reshape(8, 100), rms, atol=1e-2)


def test_gelu_and_silu_match_numpy():
    def body(x, out1, out2):
        t = yield load_cell(x)
        yield store_cell(out1, gelu(t))
        yield store_cell(out2, silu(t))

    g = cells([300], [128])
    k = trace("acts", body, In(F64, g), Out(F64, g), Out(F64, g))
    xs = np.linspace(-5, 5, 300)
    _, o1, o2 = DEV.run(k, xs, np.zeros(300), np.zeros(300))
    c = math.sqrt(2 / math.pi)
    assert np.allclose(o1, 0.5 * xs * (1 + np.tanh(c * (xs + 0.044715 * xs**3))), rtol=1e-12)
    assert np.allclose(o2, xs / (1 + np.exp(-xs)), rtol=1e-12)


def test_an_integer_tile_is_refused_with_the_op_and_type():
    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, softmax(t))

    from tileir import I32

    g = cells([64], [64])
    with pytest.raises(RecordingError, match=r"softmax takes a float tile, got tile<64xi32>"):
        trace("bad", body, In(I32, g), Out(I32, g))


def _attention(fmt, seq, head, bq, bk, pad):
    """softmax(Q K^T * scale) V from tileir.lib, keys and queries ragged when seq says so."""

    def body(q, k, v, o, scale):
        tq = yield load_cell(q)

        def step(j, *state):
            tk = yield load_at(k, [j])
            tv = yield load_at(v, [j])
            s = (tq @ tk.T) * scalar(scale)
            return online_softmax.step(state, s, tv)

        state = online_softmax.init([bq, head], F32)
        state = yield for_range(0, -(-seq // bk), step, init=state)
        yield store_cell(o, online_softmax.finish(state).to(fmt))

    qo = cells([seq, head], [bq, head], pad=pad)
    kv = cells([seq, head], [bk, head], along=[FREE_AXIS, 1], pad=pad)
    return trace(
        "attn",
        body,
        In(fmt, qo),
        In(fmt, kv),
        In(fmt, kv),
        Out(fmt, cells([seq, head], [bq, head])),
        Scalar(F32),
    )


@pytest.mark.parametrize("pad", ["zero", "nan", "pos_inf"])
def test_attention_from_the_library_over_ragged_keys(pad):
    seq, head = 100, 16
    k = _attention(F16, seq, head, 32, 32, pad)
    rng = np.random.default_rng(5)
    q, kk, v = (rng.uniform(-1, 1, seq * head).astype(np.float16) for _ in range(3))
    scale = 0.25
    *_, o, _ = DEV.run(k, q, kk, v, np.zeros(seq * head, np.float16), scale)
    Q, K, V = (a.astype(np.float64).reshape(seq, head) for a in (q, kk, v))
    s = Q @ K.T * scale
    p = np.exp(s - s.max(1, keepdims=True))
    want = (p / p.sum(1, keepdims=True)) @ V
    assert np.allclose(o.astype(np.float64).reshape(seq, head), want, atol=5e-3)


def test_online_softmax_refuses_a_state_it_did_not_make():
    def body(x, out):
        t = yield load_cell(x)
        yield store_cell(out, online_softmax.step((t, t), t, t))

    g = cells([16, 16], [16, 16])
    with pytest.raises(RecordingError, match="the state is the tuple"):
        trace("bad_state", body, In(F32, g), Out(F32, g))


def test_reduce_rows_sums_ragged_rows_across_cells():
    def body(x, out):
        total = yield from reduce_rows(x, steps=3)
        yield store_cell(out, total)

    k = trace(
        "rowsum",
        body,
        In(F32, cells([8, 300], [8, 128], along=[0, FREE_AXIS], pad="nan")),
        Out(F32, cells([8, 1], [8, 1])),
    )
    xs = np.arange(2400, dtype=np.float32) / 1000
    _, out = DEV.run(k, xs, np.zeros(8, np.float32))
    assert np.allclose(out, xs.reshape(8, 300).sum(1), rtol=1e-5)


def test_matmul_k_is_the_k_loop():
    def body(a, b, c):
        acc = yield from matmul_k(a, b, c, steps=4, acc=F32)
        yield store_cell(c, acc)

    k = trace(
        "mm",
        body,
        In(F16, cells([32, 64], [32, 16], along=[0, FREE_AXIS])),
        In(F16, cells([64, 32], [16, 32], along=[FREE_AXIS, 1])),
        Out(F32, cells([32, 32], [32, 32])),
    )
    rng = np.random.default_rng(6)
    a = rng.uniform(-1, 1, 2048).astype(np.float16)
    b = rng.uniform(-1, 1, 2048).astype(np.float16)
    _, _, c = DEV.run(k, a, b, np.zeros(1024, np.float32))
    want = a.astype(np.float64).reshape(32, 64) @ b.astype(np.float64).reshape(64, 32)
    assert np.allclose(c.reshape(32, 32), want, atol=1e-2)
