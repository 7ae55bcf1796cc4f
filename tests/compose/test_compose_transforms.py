"""tileir.compose: the combinators build ordinary kernels, and fuse / specialize / retile are
pure transforms with the refusals the issue names."""

import numpy as np
import pytest

from support.tools import needs_tools
from tileir import (
    DYN_DIM,
    F16,
    F32,
    I32,
    In,
    Kernel,
    Out,
    RecordingError,
    Scalar,
    cells,
    exp,
    extract,
    for_range,
    load,
    load_cell,
    scalar,
    store_cell,
    store_sub,
    trace,
)
from tileir.compose import elementwise, fuse, retile, rowwise, specialize
from tileir.fake import FakeDevice
from tileir.kernels.gates import gate_asm, gate_fake, gate_text, write_golden
from tileir.kernels.registry import KernelSpec
from tileir.lib import layer_norm, softmax
from tileir.record.program import Load, Store, walk_instructions

DEV = FakeDevice(mode="interpret")
G = cells([1000], [128])


def _add():
    return elementwise("add", lambda x, y: x + y, In(F32, G), In(F32, G), Out(F32, G))


def _square():
    return elementwise("square", lambda z: z * z, In(F32, G), Out(F32, G))


def _xs(n=1000, seed=0):
    return np.random.default_rng(seed).uniform(-2, 2, n).astype(np.float32)


def _count(kernel, cls):
    return sum(isinstance(i, cls) for i in walk_instructions(kernel.program.body))


# ----------------------------------------------------------------------------- combinators


def test_elementwise_builds_an_ordinary_kernel():
    k = _add()
    assert [p.role for p in k.params] == ["In", "In", "Out"]
    assert k.grid == (8,)
    x, y = _xs(), _xs(seed=1)
    _, _, out = DEV.run(k, x, y, np.zeros(1000, np.float32))
    assert np.array_equal(out, x + y)


def test_elementwise_takes_scalars_and_several_outs():
    k = elementwise(
        "two", lambda x, a: (x * a, x + a), In(F32, G), Scalar(F32), Out(F32, G), Out(F32, G)
    )
    x = _xs()
    _, _, o1, o2 = DEV.run(k, x, 3.0, np.zeros(1000, np.float32), np.zeros(1000, np.float32))
    assert np.array_equal(o1, x * np.float32(3)) and np.array_equal(o2, x + np.float32(3))


def test_elementwise_refuses_outs_before_ins_and_a_wrong_result_count():
    with pytest.raises(RecordingError, match="Ins .* first, then one or more Outs"):
        elementwise("bad", lambda x: x, Out(F32, G), In(F32, G))
    with pytest.raises(RecordingError, match=r"returned 2 value\(s\) for 1 Out"):
        elementwise("bad", lambda x: (x, x), In(F32, G), Out(F32, G))


def test_rowwise_reduces_rows_to_a_column():
    g = cells([16, 100], [8, 128], pad="nan")
    k = rowwise(
        "row_max_minus_mean",
        lambda t: softmax(t).max(dim=1),  # [8] per cell: stored into [8, 1]
        In(F32, g),
        Out(F32, cells([16, 1], [8, 1])),
    )
    x = _xs(1600)
    _, out = DEV.run(k, x, np.zeros(16, np.float32))
    r = x.reshape(16, 100).astype(np.float64)
    e = np.exp(r - r.max(1, keepdims=True))
    assert np.allclose(out, (e / e.sum(1, keepdims=True)).max(1), rtol=1e-5)


def test_rowwise_refuses_rows_split_across_cells():
    with pytest.raises(
        RecordingError, match="every row in one cell.*rows of 300 into cells of 128"
    ):
        rowwise(
            "split",
            softmax,
            In(F32, cells([8, 300], [8, 128])),
            Out(F32, cells([8, 300], [8, 128])),
        )


# ----------------------------------------------------------------------------- fuse


def test_fuse_has_one_store_no_intermediate_buffer_and_equals_both_in_turn():
    a, b = _add(), _square()
    k = fuse(a, b)
    assert [p.role for p in k.params] == ["In", "In", "Out"]  # no buffer between
    assert _count(k, Store) == 1 and _count(k, Load) == 2
    x, y = _xs(), _xs(seed=1)
    _, _, mid = DEV.run(a, x, y, np.zeros(1000, np.float32))
    _, want = DEV.run(b, mid, np.zeros(1000, np.float32))
    _, _, got = DEV.run(k, x, y, np.zeros(1000, np.float32))
    assert np.array_equal(got, want)


def test_fuse_feeds_the_named_in_and_keeps_the_seconds_other_parameters():
    a = _square()
    b = elementwise("sub", lambda p, q: p - q, In(F32, G), In(F32, G), Out(F32, G))
    k = fuse(a, b, into=1)  # square(x) is q: p - x*x
    assert [p.role for p in k.params] == ["In", "In", "Out"]
    x, p = _xs(), _xs(seed=2)
    _, _, got = DEV.run(k, x, p, np.zeros(1000, np.float32))
    assert np.array_equal(got, p - x * x)


def test_fuse_gives_the_fed_in_its_padding_as_a_load_would():
    # the second relies on neg_inf padding: exp gives 0 past the extent
    g = cells([4, 100], [4, 128])
    a = rowwise("shift", lambda t: t * 2.0, In(F32, g), Out(F32, g))

    def naive_softmax(t):
        e = exp(t - t.max(dim=1, keepdims=True))
        return e / e.sum(dim=1, keepdims=True)

    b = rowwise(
        "naive", naive_softmax, In(F32, cells([4, 100], [4, 128], pad="neg_inf")), Out(F32, g)
    )
    k = fuse(a, b)
    x = _xs(400)
    _, got = DEV.run(k, x, np.zeros(400, np.float32))
    r = x.reshape(4, 100).astype(np.float64) * 2
    e = np.exp(r - r.max(1, keepdims=True))
    assert np.allclose(got.reshape(4, 100), e / e.sum(1, keepdims=True), rtol=1e-5)


def test_fuse_refuses_cells_or_formats_that_disagree_naming_both_kernels():
    other = elementwise(
        "half", lambda z: z * 0.5, In(F32, cells([1000], [256])), Out(F32, cells([1000], [256]))
    )
    with pytest.raises(RecordingError) as err:
        fuse(_add(), other)
    msg = str(err.value)
    assert "'add'" in msg and "'half'" in msg
    assert "cells([1000], [128])" in msg and "cells([1000], [256])" in msg
    f16 = elementwise("h", lambda z: z, In(F16, G), Out(F16, G))
    with pytest.raises(RecordingError, match=r"Out\(f32.*In\(f16"):
        fuse(_add(), f16)


def test_fuse_refuses_an_out_read_back_through_the_pointer_path():
    def reads_back(x, out):
        t = yield load_cell(x)
        yield store_cell(out, t)
        again = yield load(out, 0, [128])  # the pointer path: needs the real buffer
        del again

    a = trace("reads_back", reads_back, In(F32, G), Out(F32, G))
    with pytest.raises(RecordingError, match="'reads_back'.*pointer path"):
        fuse(a, _square())


def test_fuse_refuses_an_out_written_in_pieces_or_inside_a_loop():
    def pieces(x, out):
        t = yield load_cell(x)
        yield store_sub(out, extract(t, [0], [64]), [0])
        yield store_sub(out, extract(t, [1], [64]), [1])

    a = trace("pieces", pieces, In(F32, G), Out(F32, G))
    with pytest.raises(RecordingError, match="'pieces' writes a piece of its Out"):
        fuse(a, _square())

    def in_a_loop(x, out):
        t = yield load_cell(x)

        def trip(k, acc):
            yield store_cell(out, acc)
            return acc + t

        total = yield for_range(0, 2, trip, init=t)
        del total

    b = trace("in_a_loop", in_a_loop, In(F32, G), Out(F32, G))
    with pytest.raises(RecordingError, match="'in_a_loop' writes its Out .* other than by one"):
        fuse(b, _square())


def test_transforms_refuse_what_is_no_recorded_kernel():
    with pytest.raises(RecordingError, match="fuse takes a Kernel, got str"):
        fuse("add", _square())
    k = _add()
    bare = Kernel(k.program, k.module)  # as a decoded or hand-built kernel would be
    with pytest.raises(RecordingError, match="'add' was not recorded by trace .* retile"):
        retile(bare, x=[256])
    assert bare == k  # the recipe is outside equality


def test_fuse_refuses_an_into_past_the_seconds_ins():
    with pytest.raises(RecordingError, match=r"into=3: the second kernel 'square' has 1 In"):
        fuse(_add(), _square(), into=3)


def test_fuse_mutates_nothing_and_equal_inputs_give_equal_kernels():
    a, b = _add(), _square()
    before = (a.program, b.program, a.bytecode(), b.bytecode())
    k1, k2 = fuse(a, b), fuse(_add(), _square())
    assert (a.program, b.program, a.bytecode(), b.bytecode()) == before
    assert k1 == k2 and k1.program == k2.program and k1.bytecode() == k2.bytecode()
    assert k1.text() == k2.text()


# ----------------------------------------------------------------------------- specialize


def _scale():
    def scale(x, out, a):
        t = yield load_cell(x)
        yield store_cell(out, t * scalar(a))

    return trace("scale", scale, In(F32, G), Out(F32, G), Scalar(F32))


def test_specialize_makes_a_scalar_a_constant_with_one_parameter_fewer():
    k = _scale()
    s = specialize(k, a=1.5)
    assert len(s.params) == len(k.params) - 1
    entry = s.text().splitlines()[0]
    assert entry.startswith("entry @scale(") and "tile<f32>)" not in entry  # pointers only
    assert "tile<f32>)" in k.text().splitlines()[0]
    x = _xs()
    _, got = DEV.run(s, x, np.zeros(1000, np.float32))
    _, want, _ = DEV.run(k, x, np.zeros(1000, np.float32), 1.5)
    assert np.array_equal(got, want)


def test_specialize_fixes_a_dyn_dim_extent():
    def copy2(x, out):
        t = yield load_cell(x)
        yield store_cell(out, t + t)

    d = cells([DYN_DIM], [128])
    k = trace("copy2", copy2, In(F32, d), Out(F32, d))
    assert k.grid == (None,)
    s = specialize(k, x=[1024], out=[1024])
    assert s.grid == (8,)
    assert len(s.function.params) < len(k.function.params)  # no i32 extent parameter
    x = _xs(1024)
    assert np.array_equal(DEV.run(s, x, np.zeros(1024, np.float32))[1], x + x)


def test_specialize_refuses_what_it_cannot_fix():
    k = _scale()
    with pytest.raises(RecordingError, match="has no parameter 'b'; its parameters are x: In"):
        specialize(k, b=1.0)
    with pytest.raises(RecordingError, match="no DYN_DIM extent to fix"):
        specialize(k, x=[1000])
    with pytest.raises(RecordingError, match="takes a Python number, got 'two'"):
        specialize(k, a="two")
    ki = elementwise("shift", lambda x, n: x + n, In(I32, G), Scalar(I32), Out(I32, G))
    with pytest.raises(RecordingError, match="is i32, got the float 1.5"):
        specialize(ki, n=1.5)


# ----------------------------------------------------------------------------- retile


def test_retile_records_the_same_body_with_other_tiles():
    k = _add()
    r = retile(k, x=[256], y=[256], out=[256])
    assert r.grid == (4,) and k.grid == (8,)
    x, y = _xs(), _xs(seed=1)
    assert np.array_equal(
        DEV.run(r, x, y, np.zeros(1000, np.float32))[2],
        DEV.run(k, x, y, np.zeros(1000, np.float32))[2],
    )


def test_retile_refuses_cells_that_would_disagree_naming_them():
    with pytest.raises(RecordingError) as err:
        retile(_add(), out=[256])
    msg = str(err.value)
    assert "would disagree" in msg and "out: Out(f32, cells([1000], [256]))" in msg
    assert "x: In(f32, cells([1000], [128]))" in msg
    with pytest.raises(RecordingError, match="powers of two"):
        retile(_add(), x=[100], y=[100], out=[100])


def test_specialize_and_retile_of_equal_kernels_are_equal_and_mutate_nothing():
    k = _scale()
    before = (k.program, k.bytecode(), k.markers)
    s1, s2 = specialize(k, a=0.5), specialize(_scale(), a=0.5)
    assert s1.program == s2.program and s1.bytecode() == s2.bytecode()
    r1, r2 = retile(k, x=[64], out=[64]), retile(_scale(), x=[64], out=[64])
    assert r1 == r2 and r1.bytecode() == r2.bytecode()
    assert (k.program, k.bytecode(), k.markers) == before
    assert specialize(k, a=0.25).program != s1.program  # the value is in the Program


def test_transforms_compose():
    k = retile(fuse(_add(), _square()), x=[512], y=[512], out=[512])
    assert k.grid == (2,)
    x, y = _xs(), _xs(seed=1)
    _, _, got = DEV.run(k, x, y, np.zeros(1000, np.float32))
    assert np.array_equal(got, (x + y) * (x + y))
    s = specialize(
        fuse(
            _square(), elementwise("sc", lambda z, a: z * a, In(F32, G), Scalar(F32), Out(F32, G))
        ),
        a=2.0,
    )
    assert [p.role for p in s.params] == ["In", "Out"]
    assert np.array_equal(DEV.run(s, x, np.zeros(1000, np.float32))[1], x * x * np.float32(2))


def test_a_rowwise_layer_norm_retiled_over_ragged_rows():
    g = cells([24, 100], [8, 128], pad="neg_inf")
    k = rowwise("ln", layer_norm, In(F32, g), Out(F32, cells([24, 100], [8, 128])))
    r = retile(k, t=[4, 128], out=[4, 128])
    assert (k.grid, r.grid) == ((3, 1), (6, 1))
    x = _xs(2400)
    a = DEV.run(k, x, np.zeros(2400, np.float32))[1]
    b = DEV.run(r, x, np.zeros(2400, np.float32))[1]
    assert np.allclose(a, b, rtol=1e-6)


# ----------------------------------------------------------------------------- gates 0 to 2


def _spec(kernel, reference):
    return KernelSpec(
        kernel.name,
        lambda: kernel,
        reference,
        lambda rng: ([_xs(), _xs(seed=1), np.zeros(1000, np.float32)], None),
        None,
        "compose",
    )


def _fused_specs():
    fused = fuse(_add(), _square())
    retiled = retile(fused, x=[256], y=[256], out=[256])
    ref = lambda args: [args[0], args[1], (args[0] + args[1]) ** 2]  # noqa: E731
    return [_spec(fused, ref), _spec(retiled, ref)]


def test_fused_and_retiled_kernels_pass_gate_2():
    for spec in _fused_specs():
        result = gate_fake(spec)
        assert result.ok, result.line()


@needs_tools
def test_fused_and_retiled_kernels_pass_gates_0_and_1(tmp_path):
    specs = _fused_specs()
    for i, spec in enumerate(specs):
        root = tmp_path / str(i)
        write_golden([spec], root)
        text = gate_text(spec, root)
        assert text.ok, text.line()
        asm = gate_asm(spec, ("sm_90",), root)
        assert asm.ok, asm.line()
