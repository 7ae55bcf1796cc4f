"""What the recorder refuses in the ops of every_op (each refusal names the op, the operands
and the user's line), and its attribute rules checked against the Module checker's."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from tileir import (
    BF16,
    F8E4M3FN,
    F8E8M0FNU,
    F16,
    F32,
    F64,
    FREE_AXIS,
    I4,
    I8,
    I32,
    I64,
    In,
    LoweringError,
    Out,
    RecordingError,
    Shared,
    add,
    address,
    assume_bounded,
    assume_div_by,
    assume_same_elements,
    atomic,
    atomic_cell,
    bitcast,
    block_id,
    break_,
    cells,
    continue_,
    convert,
    div,
    exp,
    extent,
    extract,
    fma,
    for_range,
    full,
    gather,
    global_constant,
    if_,
    insert,
    int_to_ptr,
    iota,
    load,
    load_cell,
    load_window,
    loop,
    maximum,
    mma,
    mma_scaled,
    mul,
    neg,
    pack,
    permute,
    ptr_to_int,
    reduce,
    scan,
    scratch,
    sqrt,
    store,
    store_cell,
    sub,
    tanh,
    together,
    trace,
    unpack,
)
from tileir.errors import VerifyError
from tileir.ir.attr_rules import FLOAT_ROUNDINGS, ftof_compiles, ftof_roundings
from tileir.ir.dialect import ENUMS
from tileir.ir.module import Block, Function, Module, Op, Value
from tileir.ir.numerics import dense_of
from tileir.types import FORMATS, TileType
from tileir.verify.checker import verify

G = cells([64], [16])


def _refused(body, *markers, hints=None) -> RecordingError:
    markers = markers or (In(F32, G), Shared(F32))
    with pytest.raises(RecordingError) as info:
        trace("k", body, *markers, hints=hints)
    err = info.value
    assert err.kernel == "k"
    return err


def _pure(expr):
    """A body that loads a cell of f32 and stores what ``expr(x)`` makes."""

    def body(a, out):
        x = yield load_cell(a)
        yield store(out, 0, expr(x))

    return body


# (what, body, op the refusal names, words it says)
PURE = [
    ("overflow on floats", lambda x: add(x, x, overflow="no_wrap"), "addf", "takes no overflow"),
    (
        "rounding on integers",
        lambda x: add(convert(x, I32), 1, rounding="zero"),
        "addi",
        "takes no rounding",
    ),
    (
        "ftz off f32",
        lambda x: add(convert(x, F64), 1.0, flush_to_zero=True),
        "addf",
        "flush_to_zero is for f32 tiles only",
    ),
    (
        "approx off f32",
        lambda x: div(convert(x, F16), 2.0, rounding="approx"),
        "divf",
        "'approx' of `divf` is for f32",
    ),
    ("exp rounding", lambda x: exp(x, rounding="zero"), "exp", "not one of full, approx"),
    ("sqrt of ints", lambda x: sqrt(convert(x, I32)), "sqrt", "takes a float tile"),
    (
        "negi nuw",
        lambda x: neg(convert(x, I32), overflow="no_unsigned_wrap"),
        "negi",
        "overflow of `negi`",
    ),
    (
        "unsigned floor division",
        lambda x: div(convert(x, I32), 2, rounding="negative_inf", signed=False),
        "divi",
        "needs signed division",
    ),
    (
        "divi nearest",
        lambda x: div(convert(x, I32), 2, rounding="nearest_even"),
        "divi",
        "not one of zero, negative_inf, positive_inf",
    ),
    ("unsigned maxf", lambda x: maximum(x, x, signed=False), "maxf", "takes no signed=False"),
    (
        "fp8 arithmetic",
        lambda x: convert(x, F8E4M3FN) + convert(x, F8E4M3FN),
        "addf",
        "convert it with .to(F32)",
    ),
    (
        "e8m0 without rounding",
        lambda x: convert(x, F8E8M0FNU),
        "ftof",
        "needs a rounding: zero or positive_inf",
    ),
    (
        "fp8 directed",
        lambda x: convert(x, F8E4M3FN, rounding="zero"),
        "ftof",
        "not one of nearest_even",
    ),
    ("ftoi rounding", lambda x: convert(x, I32, rounding="zero"), "ftoi", "toward zero"),
    (
        "saturating itof",
        lambda x: convert(convert(x, I32), F16, saturating=True),
        "itof",
        "saturating is for float -> integer",
    ),
    (
        "rounding trunci",
        lambda x: convert(convert(x, I32), I8, rounding="zero"),
        "trunci",
        "take no rounding",
    ),
    ("ftoi to i4", lambda x: convert(x, I4), "ftoi", "does not make i4"),
    (
        "itof to e8m0",
        lambda x: convert(convert(x, I32), F8E8M0FNU, rounding="zero"),
        "itof",
        "does not make f8E8M0FNU",
    ),
    ("bitcast widths", lambda x: bitcast(x, F16), "bitcast", "the widths differ"),
    ("pack 8-bit", lambda x: pack(convert(x, I8)), "pack", "not 8 bits wide"),
    ("pack rank 2", lambda x: pack(x.reshape((4, 4))), "pack", "rank-1"),
    ("unpack non-i8", lambda x: unpack(x, F16), "unpack", "rank-1 i8 tile"),
    ("int_to_ptr of i32", lambda x: int_to_ptr(convert(x, I32), F32), "int_to_ptr", "i64 tiles"),
    ("ptr_to_int of numbers", lambda x: ptr_to_int(x), "ptr_to_int", "tile of pointers"),
    (
        "int_to_ptr ptr_attr",
        lambda x: int_to_ptr(convert(x, I64), F32, ptr_attr="restrict"),
        "int_to_ptr",
        "ptr_attr must be None or one of ('none', 'unicast', 'multicast')",
    ),
    (
        "fast_acc on ints",
        lambda x: mma(full((16, 16), 1, I8), full((16, 16), 1, I8), 0, fast_acc=True),
        "mmai",
        "fast_acc is for float",
    ),
    (
        "signed on floats",
        lambda x: mma(full((16, 16), 1.0, F16), full((16, 16), 1.0, F16), 0.0, signed=False),
        "mmaf",
        "signed is for i8",
    ),
    (
        "scaled blocks",
        lambda x: mma_scaled(
            full((16, 64), 1.0, F8E4M3FN),
            full((64, 16), 1.0, F8E4M3FN),
            0.0,
            full((16, 4), 1.0, F8E8M0FNU),
            full((4, 16), 1.0, F8E8M0FNU),
        ),
        "mmaf_scaled",
        "blocks of 16 along K",
    ),
    (
        "scaled pair",
        lambda x: mma_scaled(
            full((16, 64), 1.0, F8E4M3FN),
            full((64, 16), 1.0, F8E4M3FN),
            0.0,
            full((16, 2), 1.0, F8E4M3FN),
            full((2, 16), 1.0, F8E4M3FN),
        ),
        "mmaf_scaled",
        "share one format",
    ),
    (
        "identities",
        lambda x: reduce((x, x), lambda a, b: (a[0], b[1]), 0.0),
        "reduce",
        "1 identities for 2 operands",
    ),
    (
        "combiner type",
        lambda x: reduce(x, lambda a, b: convert(a, I32), 0.0),
        "reduce",
        "result 0 is tile<i32>",
    ),
    (
        "combiner count",
        lambda x: scan(x, lambda a, b: (a, b), 0.0),
        "scan",
        "returns 2 value(s) for 1 operand",
    ),
    ("scan dim", lambda x: scan(x, lambda a, b: a + b, 0.0, dim=2), "scan", "outside a rank-1"),
    ("extract block", lambda x: extract(x, [0], (3,)), "extract", "powers of two"),
    (
        "extract tiling",
        lambda x: extract(x.reshape((4, 4)), [0], (4,)),
        "extract",
        "does not tile",
    ),
    ("insert format", lambda x: insert(x, convert(x, F16), [0]), "insert", "does not tile"),
    ("permute rank 1", lambda x: permute(x, (0,)), "permute", "not a permutation"),
    ("div_by floats", lambda x: assume_div_by(x, 16), "assume", "integer or pointer tiles"),
    ("div_by 3", lambda x: assume_div_by(iota(16), 3), "assume", "power of two"),
    (
        "div_by every",
        lambda x: assume_div_by(iota(16), 4, every=2),
        "assume",
        "`every` and `along` go together",
    ),
    ("bounded floats", lambda x: assume_bounded(x, 0, 1), "assume", "integer tiles"),
    (
        "bounded range",
        lambda x: assume_bounded(convert(x, I8), 0, 300),
        "assume",
        "lies in [-128, 127]",
    ),
    (
        "same_elements floats",
        lambda x: assume_same_elements(x, (2,)),
        "assume",
        "integer or pointer tiles",
    ),
]


@pytest.mark.parametrize("what, expr, op, words", PURE, ids=[p[0] for p in PURE])
def test_pure_ops_refuse(what, expr, op, words):
    err = _refused(_pure(expr))
    assert err.op == op, str(err)
    assert words in err.message, str(err)
    assert err.where and "test_ops_refusals.py" in err.where


def _effect(make):
    def body(a, out):
        x = yield load_cell(a)
        yield make(a, out, x)

    return body


_LUT = global_constant("refusal_lut", np.arange(4, dtype=np.float32))

EFFECTS = [
    (
        "allow_tma on pointers",
        lambda a, o, x: load(a, 0, (16,), allow_tma=True),
        "load_ptr_tko",
        "a hint for view loads and stores (cells), not for the pointer path",
    ),
    (
        "inbounds on pointers",
        lambda a, o, x: load(a, 0, (16,), inbounds=True),
        "load_ptr_tko",
        "inbounds=True: a promise of view accesses (cells), not of the pointer path",
    ),
    (
        "acquire store",
        lambda a, o, x: store(o, 0, x, ordering="acquire"),
        "store_ptr_tko",
        "memory ordering of a store",
    ),
    (
        "weak with scope",
        lambda a, o, x: load_cell(a, scope="device"),
        "load_cell",
        "a weak load takes no memory scope",
    ),
    ("latency 0", lambda a, o, x: load_cell(a, latency=0), "load_cell", "from 1 (low) to 10"),
    (
        "addf on ints",
        lambda a, o, x: atomic("addf", o, iota(16), convert(x, I32)),
        "atomic_rmw_tko",
        "mode 'addf' adds floats",
    ),
    (
        "weak atomic",
        lambda a, o, x: atomic("add", o, iota(16), x, ordering="weak"),
        "atomic_rmw_tko",
        "memory ordering of `atomic_rmw_tko`",
    ),
    (
        "write an In by address",
        lambda a, o, x: store(address(a), 0, x),
        "store",
        "nothing writes an In",
    ),
    ("write a constant global", lambda a, o, x: store(_LUT, 0, x), "store", "constant global"),
    ("scratch of nothing", lambda a, o, x: scratch(F32, 0), "alloca", "positive int"),
    ("scratch alignment", lambda a, o, x: scratch(F32, 4, alignment=3), "alloca", "power of two"),
    (
        "together of tiles",
        lambda a, o, x: together(load_cell(a), x),
        "join_tokens",
        "takes effects",
    ),
    ("cells of a cell-less Shared", lambda a, o, x: load_cell(o), "load_cell", "has no cells"),
    (
        "window rank",
        lambda a, o, x: load_window(a, [0], (4, 4), (2, 2)),
        "make_strided_view",
        "needs 1 sizes",
    ),
    ("gather rank 1", lambda a, o, x: gather(a, [iota(4)]), "gather", "rank 2 or more"),
    (
        "extent dim",
        lambda a, o, x: store(o, extent(a, 1), x),
        "get_tensor_shape",
        "outside the rank-1 tensor",
    ),
]


@pytest.mark.parametrize("what, make, op, words", EFFECTS, ids=[e[0] for e in EFFECTS])
def test_effects_refuse(what, make, op, words):
    markers = (In(F32, G), Shared(I32 if what == "addf on ints" else F32))
    err = _refused(_effect(make), *markers)
    assert err.op == op, str(err)
    assert words in err.message, str(err)


def test_a_partial_inbounds_promise_on_a_load_is_refused():
    g = cells([64, 16], [16, 16])

    def body(a, out):
        x = yield load_cell(a, inbounds=[True, False])
        yield store_cell(out, x)

    err = _refused(body, In(F32, g), Out(F32, g))
    assert err.op == "load_cell" and "promises every index or none" in err.message


def test_atomic_cells_refuse_exchange_and_outs():
    def xchg(a, t):
        x = yield load_cell(a)
        yield atomic_cell("xchg", t, x, [0])

    err = _refused(xchg, In(F32, G), Shared(F32, cells([16], [16], along=[FREE_AXIS])))
    assert err.op == "atomic_red_view_tko" and "mode of `atomic_red_view_tko`" in err.message

    def into_out(a, out):
        x = yield load_cell(a)
        yield atomic_cell("addf", out, x)

    err = _refused(into_out, In(F32, G), Out(F32, G))
    assert "is an Out, which is written through its cells alone" in err.message


def test_loops_refuse_exits_that_do_not_fit():
    def never(a, out):
        yield loop(lambda i: continue_(i + 1), full((), 0, I32))

    assert "never breaks" in _refused(never).message

    def break_in_for(a, out):
        yield for_range(0, 4, lambda k, acc: break_(acc), init=full((), 0, I32))

    err = _refused(break_in_for)
    assert err.op == "break" and "for_range has none" in err.message

    def wrong_carry(a, out):
        def trip(i):
            yield if_(i > 3, lambda: break_(i))
            return continue_(convert(i, F32))

        yield loop(trip, full((), 0, I32))

    assert (
        "continue_ passes (tile<f32>) and the loop carries (tile<i32>)"
        in _refused(wrong_carry).message
    )

    def outside(a, out):
        yield if_(block_id(0) > 1, lambda: break_())

    assert "outside a loop body" in _refused(outside).message

    def disagree(a, out):
        def trip(i):
            yield if_(i > 3, lambda: break_(i))
            return break_(convert(i, F32))

        yield loop(trip, full((), 0, I32))

    assert "they must agree" in _refused(disagree).message

    def yielded(a, out):
        def trip(i):
            yield break_(i)

        yield loop(trip, full((), 0, I32))

    assert "`return` it from the loop body" in _refused(yielded).message


def test_a_combiner_argument_used_outside_its_reduce_is_refused():
    leaked = []

    def body(a, out):
        x = yield load_cell(a)
        reduce(x, lambda acc, v: leaked.append(v) or acc + v, 0.0)
        yield store(out, 0, leaked[0])

    with pytest.raises(LoweringError) as info:
        trace("k", body, In(F32, G), Shared(F32))
    assert "combiner's argument" in str(info.value)


@pytest.mark.parametrize(
    "hints, words",
    [
        ({"warps": 4}, "not one of num_cta_in_cga"),
        ({"num_cta_in_cga": 3}, "a power of two up to 16"),
        ({"occupancy": 40}, "from 1 to 32"),
        ({"sm_90": {"occupancy": 2}, "occupancy": 2}, "mix architecture keys"),
    ],
)
def test_entry_hints_refuse(hints, words):
    err = _refused(_pure(lambda x: x), hints=hints)
    assert err.op == "entry" and words in err.message


# ----------------------------------------------------------------------------- agreement


def _verdict_of_verify(ops) -> bool:
    fn = Function("k", (), Block((), (*ops, Op("return"))))
    try:
        verify(Module((fn,)))
        return True
    except VerifyError:
        return False


def _const(fmt, vid=0):
    t = TileType((2,), fmt)
    return Op("constant", (), (Value(vid, t),), {"value": dense_of(t, 1.0)})


def _recorder_accepts(make) -> bool:
    try:
        make()
        return True
    except RecordingError:
        return False


FLOATS = [f for f in FORMATS if f.is_float]
ROUNDINGS = (None,) + ENUMS["rounding"]


def test_ftof_roundings_agree_with_the_checker():
    for src, dst in itertools.permutations(FLOATS, 2):
        for r in ROUNDINGS:
            ours = _recorder_accepts(lambda: convert(full((2,), 1.0, src), dst, rounding=r))
            c = _const(src)
            y = Value(1, TileType((2,), dst))
            attrs = {} if r is None else {"rounding": r}
            theirs = _verdict_of_verify([c, Op("ftof", c.results, (y,), attrs)])
            # beyond the checker, the recorder refuses what tileiras cannot compile
            compiles = r is None or ftof_compiles(src, dst, r)
            assert ours == (theirs and compiles), (str(src), str(dst), r, ours)
        assert ftof_roundings(src, dst)


@pytest.mark.parametrize("op", sorted(FLOAT_ROUNDINGS))
def test_float_roundings_and_ftz_agree_with_the_checker(op):
    make = {
        "addf": add,
        "subf": sub,
        "mulf": mul,
        "divf": div,
        "fma": lambda a, b, **k: fma(a, b, b, **k),
        "sqrt": lambda a, b, **k: sqrt(a, **k),
        "exp": lambda a, b, **k: exp(a, **k),
        "tanh": lambda a, b, **k: tanh(a, **k),
    }[op]
    arity = {"fma": 3, "sqrt": 1, "exp": 1, "tanh": 1}.get(op, 2)
    for fmt in (F16, BF16, F32, F64):
        for r, ftz in itertools.product(ROUNDINGS, (False, True)):
            kw = {"rounding": r}
            if op not in ("exp", "tanh"):
                kw["flush_to_zero"] = ftz
            elif ftz:
                continue
            ours = _recorder_accepts(
                lambda: make(full((2,), 1.0, fmt), full((2,), 1.0, fmt), **kw)
            )
            c = _const(fmt)
            attrs = {k: v for k, v in kw.items() if v not in (None, False)}
            y = Value(1, c.results[0].type)
            theirs = _verdict_of_verify([c, Op(op, c.results * arity, (y,), attrs)])
            assert ours == theirs, (op, str(fmt), r, ftz, ours)


@pytest.mark.parametrize(
    "make, words",
    [
        (
            lambda: In(F32, G, ptr_attr="restrict"),
            "ptr_attr must be one of ('none', 'unicast', 'multicast')",
        ),
        (
            lambda: Shared(F32, ptr_attr=1),
            "ptr_attr must be one of ('none', 'unicast', 'multicast')",
        ),
        (lambda: __import__("tileir").Scalar(F32, ptr_attr="none"), "a value has no pointer"),
    ],
)
def test_markers_refuse_a_ptr_attr_they_cannot_carry(make, words):
    with pytest.raises(TypeError, match=re.escape(words)):
        make()


def test_ptr_to_ptr_keeps_adds_or_drops_the_ptr_attr():
    from tileir import ptr_to_ptr
    from tileir.types import PointerType

    seen = {}

    def body(a, out):
        p = address(a)
        seen["same"] = ptr_to_ptr(p, I32).format
        seen["dropped"] = ptr_to_ptr(p, I32, ptr_attr=None).format
        yield store_cell(out, (yield load_cell(a)))

    trace("k", body, In(F32, G, ptr_attr="none"), Out(F32, G))
    assert seen == {"same": PointerType(I32, "none"), "dropped": PointerType(I32)}


def test_scratch_and_global_addresses_take_a_ptr_attr_and_refuse_others():
    from tileir.ops.views import global_pointer
    from tileir.types import PointerType

    table = global_constant("t4", np.arange(4, dtype=np.float32))

    def body(a, out):
        p = yield scratch(F32, 16, ptr_attr="none")
        assert p.format == PointerType(F32, "none")
        assert global_pointer(table, ptr_attr="none").format == PointerType(F32, "none")
        yield scratch(F32, 16, ptr_attr="classified")

    err = _refused(body)
    assert (
        err.op == "alloca"
        and "ptr_attr must be None or one of ('none', 'unicast', 'multicast')" in err.message
    )
    assert err.where and "test_ops_refusals.py" in err.where


def _first_hour_cases():
    """The refusals a new user meets first (issue 14): (what, body, markers)."""

    def no_yield(a, out):
        x = yield load_cell(a)
        store(out, 0, x)

    def effect_as_tile(a, out):
        x = load_cell(a)
        yield store(out, 0, x + 1.0)

    def mixed(a, out):
        x = yield load_cell(a)
        yield store(out, 0, convert(x, F16) + x)

    return [
        ("no yield", no_yield),
        ("effect as tile", effect_as_tile),
        ("mixed formats", mixed),
    ]


_VALUES = re.compile(r"tile<|\d|'|@|`\w+\(|\w=\w")


def _body_lines(fn) -> range:
    import inspect

    lines, first = inspect.getsourcelines(fn)
    return range(first, first + len(lines))


WORDED = (
    [(w, _pure(e), e) for w, e, _op, _words in PURE]
    + [(w, _effect(m), m) for w, m, _op, _words in EFFECTS]
    + [(w, b, b) for w, b in _first_hour_cases()]
)


@pytest.mark.parametrize("what, body, source", WORDED, ids=[w[0] for w in WORDED])
def test_every_refusal_names_the_kernel_the_op_the_values_and_the_line(what, body, source):
    shared = Shared(I32 if what == "addf on ints" else F32)
    err = _refused(body, In(F32, G), shared)
    text = str(err)
    assert err.kernel == "k" and "kernel `k`" in text
    assert err.op and f"`{err.op}`" in text
    assert _VALUES.search(err.message), f"{what}: names no value: {text}"
    # the user's line: inside the case's own source (a lambda of the table, or the body)
    assert err.where and err.where.rsplit(":", 1)[0].endswith("test_ops_refusals.py"), text
    assert int(err.where.rsplit(":", 1)[1]) in _body_lines(source), text
    assert f"(at {err.where})" in text
