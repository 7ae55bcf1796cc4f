"""Recording the 13.5 multimem operations: what they record and what they refuse (each
refusal names the kernel, the op, the values and the user's line)."""

from __future__ import annotations

import pytest

from tileir import (
    BF16,
    F16,
    F32,
    FREE_AXIS,
    I16,
    I32,
    In,
    Out,
    RecordingError,
    Shared,
    atomic_cell,
    cells,
    load,
    load_cell,
    load_reduce_cell,
    reduce_cell,
    store_cell,
    store_cell_all,
    trace,
)
from tileir.ir.module import walk

G = cells([256], [64])
ACC = cells([64], [64], along=[FREE_AXIS])


def _ops(kernel):
    return [op for op in walk(kernel.module.functions[0].body) if op.name.startswith("multimem")]


def test_the_three_ops_record_their_orderings_scopes_reductions_and_inbounds():
    def body(x, out, acc):
        t = yield load_reduce_cell(x, reduction="umax", ordering="acquire", scope="sys")
        yield store_cell_all(out, t, ordering="release", scope="tl_blk", inbounds=True)
        yield reduce_cell(acc, t, [0], reduction="xor", inbounds=[True])

    k = trace(
        "k",
        body,
        In(I32, G, ptr_attr="multicast"),
        Out(I32, G, ptr_attr="multicast"),
        Shared(I32, ACC, ptr_attr="multicast"),
    )
    lr, st, rd = _ops(k)
    assert (lr.name, dict(lr.attrs)) == (
        "multimem_load_reduce_view_tko",
        {"memory_ordering": "acquire", "memory_scope": "sys", "reduction": "umax"},
    )
    assert dict(st.attrs) == {
        "memory_ordering": "release",
        "memory_scope": "tl_blk",
        "inbounds": (True,),
    }
    assert dict(rd.attrs) == {"memory_scope": "device", "reduction": "xor", "inbounds": (True,)}
    assert "ptr<i32, <multicast>>" in k.text()


def _refused(body, *markers, words):
    with pytest.raises(RecordingError, match=words) as caught:
        trace("mm_kernel", body, *markers)
    text = str(caught.value)
    assert "mm_kernel" in text and "test_multimem_ops.py" in text, text
    return text


def test_a_view_that_is_not_multicast_is_refused():
    def body(x, out):
        yield store_cell(out, (yield load_reduce_cell(x)))

    text = _refused(
        body, In(F32, G, ptr_attr="unicast"), Out(F32, G), words="not a multicast buffer"
    )
    assert "multimem_load_reduce_view_tko" in text and "'unicast'" in text


@pytest.mark.parametrize(
    "fmt,tile,kw,words",
    [
        (I16, 64, {}, "takes elements of f16, bf16, f32, f64, i32, i64; these are i16"),
        (F16, 1, {}, "a f16 tile of 1 element\\(s\\) is 2 bytes"),
        (F32, 64, {"reduction": "min"}, "on floats takes f16 or bf16; the elements are f32"),
        (BF16, 64, {"reduction": "xor"}, "'xor' works on integers"),
        (I32, 64, {"scope": "device"}, "a weak .* takes no memory scope \\(got 'device'\\)"),
        (I32, 64, {"ordering": "relaxed"}, "a relaxed .* needs a memory scope"),
        (I32, 64, {"ordering": "release", "scope": "sys"}, "ordering .* 'release' is not one"),
        (I32, 64, {"reduction": "sum"}, "reduction .* 'sum' is not one of"),
    ],
)
def test_load_reduce_refuses_what_the_verifier_refuses(fmt, tile, kw, words):
    g = cells([256], [tile])

    def body(x, out):
        yield store_cell(out, (yield load_reduce_cell(x, **kw)))

    _refused(body, In(fmt, g, ptr_attr="multicast"), Out(fmt, g), words=words)


def test_a_float_reduce_only_adds_and_a_reduce_is_never_weak():
    def body(reduction, ordering):
        def kernel(x, acc):
            yield reduce_cell(
                acc, (yield load_cell(x)), [0], reduction=reduction, ordering=ordering
            )

        return kernel

    markers = (In(F16, cells([128], [64])), Shared(F16, ACC, ptr_attr="multicast"))
    _refused(body("max", "relaxed"), *markers, words="only adds")
    _refused(body("add", "weak"), *markers, words="'weak' is not one of relaxed, release")


def test_roles_and_inbounds_are_checked():
    def reduce_into_in(x, acc):
        yield reduce_cell(x, (yield load_cell(acc)))

    _refused(
        reduce_into_in,
        In(I32, G, ptr_attr="multicast"),
        Out(I32, G),
        words="parameter 0 is an In",
    )

    def bad_inbounds(x, out):
        yield store_cell_all(out, (yield load_cell(x)), inbounds=[True, False])

    _refused(
        bad_inbounds, In(F32, G), Out(F32, G, ptr_attr="multicast"), words="one bool per index"
    )


@pytest.mark.parametrize("how", ["load_cell", "store_cell", "load", "atomic_cell"])
def test_other_memory_ops_refuse_a_multicast_buffer(how):
    def body(x, out):
        if how == "load_cell":
            yield store_cell(out, (yield load_cell(x)))
        elif how == "store_cell":
            yield store_cell(x, (yield load_cell(out)))
        elif how == "load":
            yield store_cell(out, (yield load(x, 0, [64])))
        else:
            yield atomic_cell("add", x, (yield load_cell(out)), [0])

    x = (
        Shared(I32, ACC, ptr_attr="multicast")
        if how in ("atomic_cell", "load")
        else Out(I32, G, ptr_attr="multicast")
        if how == "store_cell"
        else In(I32, G, ptr_attr="multicast")
    )
    other = In(I32, G) if how == "store_cell" else Out(I32, G)
    _refused(body, x, other, words="is a multicast buffer, which only the multimem ops access")


def test_atomic_cell_takes_inbounds_from_13_5():
    def body(x, acc):
        yield atomic_cell("add", acc, (yield load_cell(x)), [0], inbounds=True)

    k = trace("k", body, In(I32, cells([128], [64])), Shared(I32, ACC))
    (red,) = [o for o in walk(k.module.functions[0].body) if o.name == "atomic_red_view_tko"]
    assert red.attrs["inbounds"] == (True,)
    assert "inbounds = [true] :" in k.text()
