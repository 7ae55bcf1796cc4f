"""The recorder: the seed chapter's refusals, recording as a pure function, no global state."""

import threading

import pytest

from tileir import (
    BF16,
    F16,
    F32,
    F64,
    FREE_AXIS,
    In,
    Out,
    RecordingError,
    Shared,
    block_id,
    broadcast,
    cells,
    constant,
    exp,
    for_range,
    if_,
    load_at,
    load_cell,
    mma,
    reduce_max,
    reduce_sum,
    store,
    store_cell,
    trace,
    zeros,
)
from tileir.ir.module import walk
from tileir.kernels.chapter import row_softmax, transpose, vadd

G = cells([256], [128])


def _refusal(body, *markers, name="k"):
    markers = markers or (In(F64, G), Out(F64, G))
    with pytest.raises(RecordingError) as info:
        trace(name, body, *markers)
    return info.value


def adds_one(x, out):
    t = yield load_cell(x)
    yield store_cell(out, t + 1.0)


def writes_its_input(x, out):
    t = yield load_cell(x)
    yield store_cell(x, t)


def adds_two_shapes(x, out):
    t = yield load_cell(x)
    yield store_cell(out, t + broadcast(constant(1.0, F64), [64]))


def stores_by_pointer(x, out):
    t = yield load_cell(x)
    yield store(out, block_id(0) * 128, t)


def row_softmax_dropped(x, out):
    s = yield load_cell(x)
    p = exp(s - reduce_max(s))  # no keepdims: a [32] against [32, 64]
    yield store_cell(out, p / reduce_sum(p, keepdims=True))


def test_a_rank0_constant_widens():
    k = trace("k", adds_one, In(F64, G), Out(F64, G))
    assert [op.name for op in walk(k.function.body)].count("addf") == 1


def test_nothing_writes_an_in():
    err = _refusal(writes_its_input)
    assert str(err).startswith(
        "tileir: kernel `k`: `store_cell`: parameter 0 is an In, and nothing writes an In (at "
    )
    assert "test_record.py" in err.where


def test_shapes_that_do_not_widen_are_refused():
    err = _refusal(adds_two_shapes)
    assert (
        "kernel `k`: `addf`: lhs is tile<128xf64> and rhs is tile<64xf64>, which do not broadcast"
        in str(err)
    )
    assert err.op == "addf" and "test_record.py" in err.where


def test_an_out_is_written_through_its_cells_alone():
    err = _refusal(stores_by_pointer)
    assert (
        "`store`: parameter 1 is an Out, which is written through its cells alone "
        "(store_cell, store_sub); a parameter written any other way is a Shared"
    ) in str(err)


def test_keepdims_dropped_is_refused_at_the_subtraction():
    g = cells([256, 64], [32, 64])
    trace("row_softmax", row_softmax, In(F64, g), Out(F64, g))
    err = _refusal(row_softmax_dropped, In(F64, g), Out(F64, g), name="row_softmax")
    assert (
        "kernel `row_softmax`: `subf`: lhs is tile<32x64xf64> and rhs is tile<32xf64>, which do not broadcast"
        in str(err)
    )


def test_cells_that_disagree_with_the_grid_are_refused_before_the_body_runs():
    ran = []

    def body(x, out):
        ran.append(True)
        yield from transpose(x, out)

    x = In(F64, cells([128, 64], [32, 32]))
    err = _refusal(body, x, Out(F64, cells([64, 128], [32, 32])), name="transpose")
    assert str(err).startswith(
        "tileir: kernel `transpose`: argument 0 (In) has 4 cell(s) in dimension 0, which follows "
        "grid axis 0, and the grid has 2 block(s) there"
    )
    assert not ran
    trace("transpose", transpose, x, Shared(F64))


def _mm(a, b, c):
    ta = yield load_at(a, [0])
    tb = yield load_at(b, [0])
    yield store_cell(c, mma(ta, tb, zeros(c)))


def test_an_mma_pair_outside_the_table_is_refused_with_the_table():
    a = In(BF16, cells([64, 64], [64, 32], along=[0, FREE_AXIS]))
    b = In(BF16, cells([64, 64], [32, 64], along=[FREE_AXIS, 1]))
    err = _refusal(_mm, a, b, Out(F16, cells([64, 64], [64, 64])))
    text = str(err)
    assert "`mmaf`: lhs tile<64x32xbf16>, rhs tile<32x64xbf16>, acc tile<64x64xf16>" in text
    assert "bf16 x bf16 into f16 is not a pair the dialect allows" in text
    for pair in (
        "f16 x f16 -> f16 or f32",
        "bf16 x bf16 -> f32",
        "tf32 x tf32 -> f32",
        "f64 x f64 -> f64",
        "f8E4M3FN x f8E4M3FN -> f16 or f32",
        "i8 x i8 -> i32",
    ):
        assert pair in text


def test_an_mma_k_mismatch_is_refused():
    a = In(BF16, cells([64, 64], [64, 32], along=[0, FREE_AXIS]))
    b = In(BF16, cells([64, 64], [16, 64], along=[FREE_AXIS, 1]))
    err = _refusal(_mm, a, b, Out(F32, cells([64, 64], [64, 64])))
    assert "k disagrees: lhs is 64x32 and rhs is 16x64" in str(err)


def test_a_tile_used_as_a_python_bool_is_refused():
    def body(x, out):
        t = yield load_cell(x)
        if reduce_max(t) > 0:
            yield store_cell(out, t)

    err = _refusal(body)
    assert "`cmpf`: a tile<i1> was used as a Python bool" in str(err)
    assert "if_(" in str(err)


def test_a_loop_carried_value_keeps_its_type():
    def body(x, out):
        t = yield load_cell(x)
        acc = yield for_range(0, 4, lambda k, a: a.to(F32), init=t)
        yield store_cell(out, acc)

    err = _refusal(body)
    assert "carried value 0 starts as tile<128xf64> and the body returns tile<128xf32>" in str(err)


def test_yielding_a_tile_is_refused():
    def body(x, out):
        t = yield load_cell(x)
        yield t + 1.0

    err = _refusal(body)
    assert "the body yielded a tile" in str(err)


def test_an_if_condition_is_a_rank0_i1():
    def body(x, out):
        t = yield load_cell(x)
        yield if_(t, lambda: None)

    assert "the condition must be a rank-0 i1 tile" in str(_refusal(body))


def test_recording_twice_gives_equal_programs_and_modules():
    g = cells([1000], [128])
    one = trace("vadd", vadd, In(F32, g), In(F32, g), Out(F32, g))
    two = trace("vadd", vadd, In(F32, g), In(F32, g), Out(F32, g))
    assert one.program == two.program and hash(one.program) == hash(two.program)
    assert one.module == two.module and hash(one.module) == hash(two.module)


def test_two_kernels_record_interleaved():
    """Two generators driven step by step in alternation: nothing is shared between them."""
    from tileir.record.builder import Builder, drive
    from tileir.record.markers import Param

    g = cells([256], [128])
    ps = tuple(Param(i, m) for i, m in enumerate((In(F32, g), In(F32, g), Out(F32, g))))
    gens = [vadd(*ps), vadd(*ps)]
    builders = [Builder("a", ps), Builder("b", ps)]
    values = [None, None]
    done = [False, False]
    while not all(done):
        for i in (0, 1):
            if done[i]:
                continue
            try:
                effect = gens[i].send(values[i])
            except StopIteration:
                done[i] = True
                continue
            builders[i], values[i] = effect.apply(builders[i])
    assert builders[0].instrs == builders[1].instrs
    _, ret = drive(Builder("c", ps), vadd(*ps))
    assert ret is None


def test_kernels_record_from_several_threads():
    g = cells([4096], [128])
    expected = trace("vadd", vadd, In(F32, g), In(F32, g), Out(F32, g)).module
    results, errors = [], []

    def work():
        try:
            for _ in range(20):
                results.append(trace("vadd", vadd, In(F32, g), In(F32, g), Out(F32, g)).module)
        except Exception as err:  # noqa: BLE001
            errors.append(err)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 80
    assert all(m == expected for m in results)


def test_trace_takes_any_number_of_parameters():
    g = cells([256], [128])

    def add_many(*params):
        *ins, out = params
        total = yield load_cell(ins[0])
        for p in ins[1:]:
            t = yield load_cell(p)
            total = total + t
        yield store_cell(out, total)

    k = trace("add7", add_many, *[In(F32, g)] * 7, Out(F32, g))
    assert len(k.function.params) == 8
    assert [op.name for op in walk(k.function.body)].count("addf") == 6
