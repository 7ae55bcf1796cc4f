"""numpy rules of the float ops: arithmetic, math, comparison, mma.

Numerics (CT:Ops): ``f32`` / ``f64`` compute natively in numpy; ``f16`` and
``bf16`` compute in ``f32`` and round once into their format (exact for
+ - * / sqrt, and the dialect's own "emulated in f32" for math functions).  The
directed rounding modes and ``fma`` go through :mod:`tileir.fake.rounding`.
``approx`` / ``full`` are approximations on the device (within 2 ulp): the
interpreter gives the correctly rounded result, which they allow.
``flush_to_zero`` (f32 only) flushes subnormal inputs and results to zero of the
same sign.  ``maxf`` / ``minf`` follow IEEE 754-2019 maximumNumber / minimumNumber
(NaN only when both are NaN) unless ``propagate_nan`` asks for maximum / minimum;
``+0 > -0`` in both.

``mmaf`` multiplies in ``f32`` (``f64`` for f64): every product of two inputs of
at most 12 significant bits is exact there, so ``f16`` / ``bf16`` / ``tf32`` (inputs
rounded to tf32 first) / fp8 products are exact and are summed in ``f32``, then
``acc`` is added; an ``f16`` accumulator receives that ``f32`` result rounded once.
The device's summation order (and for ``f16`` accumulators its intermediate
precision) is unspecified; numpy's BLAS order is one valid order.  Operands loaded
as a ``values.TileGrid`` (tiles that repeat along a grid axis) multiply as that grid,
with the same per-tile products; a K loop's accumulator that nothing else reads is added
into in place, over a matmul's grid in C's own layout (``rules.products``).
"""

from __future__ import annotations

import numpy as np

from tileir.fake.rounding import arith, to_format
from tileir.fake.rules.products import (
    batch_product,
    grid_operands,
    lane_operands,
    multiply_add,
)
from tileir.fake.values import TileGrid, plain, value_dtype
from tileir.ir.numerics import scalar_value, tf32_round
from tileir.ir.signatures import attr_of

__all__ = ["NUMPY_FLOAT_RULES", "FOLDS"]

_TINY32 = np.float32(2.0**-126)


def _fmt(op):
    return op.results[0].type.element


def _compute(fmt, fn, *args):
    """``fn`` on float arrays of ``fmt``: natively for f32 / f64, else in f32 then rounded."""
    if fmt.name in ("f32", "f64"):
        return fn(*args)
    out = fn(*(np.asarray(a).astype(np.float32) for a in args))
    if fmt.name == "f16":
        return out.astype(np.float16)
    return to_format(out, fmt) if fmt.name == "tf32" else out.astype(value_dtype(fmt))


def _ftz(x: np.ndarray) -> np.ndarray:
    return np.where((np.abs(x) < _TINY32) & (x != 0), np.copysign(np.float32(0), x), x)


def _rounded(opname, fn):
    """An IEEE arithmetic op with ``rounding`` and ``flush_to_zero`` attributes."""

    def rule(ctx, op, args):
        fmt = _fmt(op)
        mode = attr_of(op, "rounding")
        ftz = bool(attr_of(op, "flush_to_zero")) and fmt.name == "f32"
        if ftz:
            args = [_ftz(a) for a in args]
        if opname == "fma" or mode not in ("nearest_even", "approx", "full"):
            try:
                out = arith(
                    opname,
                    list(args),
                    fmt,
                    mode if mode in ("zero", "negative_inf", "positive_inf") else "nearest_even",
                )
            except NotImplementedError as e:
                raise ctx.error(op, f"rounding<{mode}> is not emulated for {fmt}: {e}") from None
        else:
            out = _compute(fmt, fn, *args)
        return [_ftz(out) if ftz else out]

    return rule


def _unary(fn):
    def rule(ctx, op, args):
        return [_compute(_fmt(op), fn, args[0])]

    return rule


def _binary(fn):
    def rule(ctx, op, args):
        return [_compute(_fmt(op), fn, args[0], args[1])]

    return rule


def _with_ftz(fn):
    def rule(ctx, op, args):
        fmt = _fmt(op)
        x = args[0]
        ftz = bool(attr_of(op, "flush_to_zero")) and fmt.name == "f32"
        if ftz:
            x = _ftz(x)
        out = _compute(fmt, fn, x)
        return [_ftz(out) if ftz else out]

    return rule


def _fold_extremum(is_max: bool):
    """``maxf`` / ``minf`` folded over the last axis at once, as a ``reduce`` whose combiner
    is that one op would fold it: max and min are associative, commutative and idempotent
    once +0 > -0 is kept, so any order, and any number of padding identities, give the
    pairwise tree's answer.  None (run the tree) under ``flush_to_zero``, for dtypes numpy
    does not reduce natively, and wherever the answer is NaN (its payload follows the
    tree's order)."""
    pick = (np.maximum, np.fmax) if is_max else (np.minimum, np.fmin)

    def fold(op, x: np.ndarray, ident):
        if attr_of(op, "flush_to_zero") or x.dtype.type not in _NATIVE_FLOATS:
            return None
        fn = pick[0] if attr_of(op, "propagate_nan") else pick[1]
        out = fn.reduce(x, axis=-1)
        if ident is not None:
            out = fn(out, ident)
        if np.isnan(out).any():
            return None
        zero = out == 0
        if zero.any():  # which zero: +0 wins a max where there is one, -0 a min
            won = _winning_zero(x, is_max).any(axis=-1)
            if ident is not None:
                won = won | _winning_zero(ident, is_max)
            plus, minus = np.zeros(1, out.dtype), np.full(1, -0.0, out.dtype)
            out = np.where(zero, np.where(won, *((plus, minus) if is_max else (minus, plus))), out)
        return out

    return fold


_NATIVE_FLOATS = (np.float16, np.float32, np.float64)


def _winning_zero(v: np.ndarray, is_max: bool) -> np.ndarray:
    return (v == 0) & (np.signbit(v) != is_max)  # +0 for a max, -0 for a min


def _sqrt(ctx, op, args):
    return _rounded("sqrt", np.sqrt)(ctx, op, args)


def _extremum(is_max: bool):
    def rule(ctx, op, args):
        fmt = _fmt(op)
        a, b = args
        ftz = bool(attr_of(op, "flush_to_zero")) and fmt.name == "f32"
        if ftz:
            a, b = _ftz(a), _ftz(b)
        if attr_of(op, "propagate_nan"):
            out = np.maximum(a, b) if is_max else np.minimum(a, b)
        else:
            out = np.fmax(a, b) if is_max else np.fmin(a, b)
        # the sign of zero: +0 is the larger, -0 the smaller
        both_zero = (a == 0) & (b == 0)
        if both_zero.any():
            pick_b = np.signbit(a) if is_max else ~np.signbit(a)
            out = np.where(both_zero, np.where(pick_b, b, a), out)
        return [_ftz(out) if ftz else out]

    return rule


def _cmpf(ctx, op, args):
    a, b = args
    pred = attr_of(op, "comparison_predicate")
    if a.dtype.itemsize < 4 or a.dtype.kind != "f":
        a, b = a.astype(np.float32), b.astype(np.float32)
    with np.errstate(invalid="ignore"):
        out = {
            "equal": np.equal,
            "not_equal": np.not_equal,
            "less_than": np.less,
            "less_than_or_equal": np.less_equal,
            "greater_than": np.greater,
            "greater_than_or_equal": np.greater_equal,
        }[pred](a, b)
    nan = np.isnan(a) | np.isnan(b)
    if attr_of(op, "comparison_ordering") == "ordered":
        out = out & ~nan
    else:
        out = out | nan
    return [out]


def _remf(ctx, op, args):
    return [_compute(_fmt(op), np.fmod, args[0], args[1])]


def _fpowi(ctx, op, args):
    fmt = _fmt(op)
    base, e = args
    out = np.power(base.astype(np.float64), e.astype(np.float64))
    return [to_format(out, fmt)]


def _as_f32(x: np.ndarray, fmt) -> np.ndarray:
    if fmt.name == "fnv8E5M3FNU":
        table = np.array([scalar_value(fmt, b) for b in range(256)], dtype=np.float32)
        return table[x]
    out = np.asarray(x).astype(np.float32, copy=False)
    return tf32_round(out) if fmt.name == "tf32" else out


def _grid_matmul(a, b, convert) -> np.ndarray:
    """``np.matmul(convert(a), convert(b))`` per lane, ``(b, m, n)``, a fresh array.

    ``a`` / ``b`` may be ``TileGrid`` s: then the lanes multiply as their ``(rows, cols)``
    grid and numpy broadcasts the tiles a grid repeats, so each distinct tile is copied
    and converted once, not once per lane (the products are the same ones)."""
    grids = [v for v in (a, b) if type(v) is TileGrid]
    if not grids:
        ca, cb = convert(a), convert(b)
        merged = batch_product(ca, cb)  # one GEMM for every lane, where that keeps the bits
        return np.matmul(ca, cb) if merged is None else merged
    rows, cols = grids[0].view.shape[:2]
    shaped = grid_operands(a, b, (rows, cols), convert)
    if shaped is None:
        return np.matmul(convert(plain(a)), convert(plain(b)))
    prod = np.matmul(*shaped)
    if prod.shape[:2] != (rows, cols):  # both operands repeat along the same axis
        prod = np.broadcast_to(prod, (rows, cols) + prod.shape[2:])
    return prod.reshape((rows * cols,) + prod.shape[2:])


def _unit_rows(x):
    """``x`` with each tile's rows unit-stride (copied C-contiguous where they are not).

    Which BLAS kernel numpy's matmul calls depends on its operands' layout (a transposed
    view runs as a ``T`` GEMM, a row-major one as ``N``), and OpenBLAS's small-matrix
    kernels for the two sum a dot product in different orders (on this machine's AVX-512
    build, 16x64x16 tiles differ in the last bits).  An operand's layout is an accident
    of how the value was made (a ``permute`` op by op is a transposed view; fused, its
    strip is written row-major), so it must not choose the bits: every product runs on
    row-major tiles."""
    view = x.view if type(x) is TileGrid else x
    if view.ndim < 2 or view.strides[-1] == view.itemsize or view.shape[-1] == 1:
        return x
    if type(x) is not TileGrid and view.ndim == 3 and view.strides[0] == 0 and view.shape[0]:
        # one tile every lane shares (a loop's key tile, transposed): that tile copied once,
        # as a batch of one (a value every lane shares, as the products take it), so the
        # product still sees one B (rules.products.batch_product multiplies every lane in
        # one GEMM then) and no lane's copy is made
        return np.ascontiguousarray(view[:1])
    return np.ascontiguousarray(plain(x))


def _mmaf(ctx, op, args):
    a, b, c = args
    a, b = _unit_rows(a), _unit_rows(b)
    in_fmt = op.operands[0].type.element
    acc_fmt = op.operands[2].type.element
    wide = np.dtype(np.float64 if in_fmt.name == "f64" else np.float32)
    if value_dtype(acc_fmt) == wide:  # the sum is the result: add a chunk at a time
        convert = _same if in_fmt.name == "f64" else (lambda x: _as_f32(x, in_fmt))
        out = _accumulate(ctx, op, a, b, c, convert)
        if out is not None:
            return [out]
    c = plain(c)  # an accumulator that is a TileGrid (a load, an mmaf's) as its plain tiles
    if in_fmt.name == "f64":
        return [_grid_matmul(a, b, lambda x: x) + c]
    prod = _grid_matmul(a, b, lambda x: _as_f32(x, in_fmt))
    c32 = c.astype(np.float32, copy=False)
    if prod.shape[0] >= c32.shape[0]:
        np.add(prod, c32, out=prod)  # prod is a fresh array: add in place
    else:
        prod = prod + c32
    return [prod.astype(value_dtype(acc_fmt), copy=False)]


def _same(x):
    return x


def _accumulate(ctx, op, a, b, c, convert):
    """``a @ b + c`` per lane through :func:`products.multiply_add`, into ``c`` itself when
    the frame donates it (a loop's accumulator read by nothing else); None where the lanes
    do not line up (the plain path answers, or says what is wrong)."""
    donated = ctx.frame is not None and ctx.frame.owns(op.operands[2].id, c)
    if not donated and type(a) is not TileGrid and type(b) is not TileGrid:
        return None  # plain lanes into a fresh result: one matmul and one add do it
    if type(c) is TileGrid and not (donated and c.base is not None):
        c = c.array()  # only a TileGrid mmaf made (and owns) is written through its view
    shaped = lane_operands(a, b, c, convert)
    if shaped is None:
        return None
    sa, sb, lanes, uncopied = shaped
    if type(c) is TileGrid:
        into = c.view.shape[:2] == lanes and c.view.flags.writeable
    else:
        into = (
            donated
            and c.shape[0] == lanes[0] * lanes[1]
            and c.flags.c_contiguous
            and c.flags.writeable
        )
    if type(c) is TileGrid and not into:
        c = c.array()
    return multiply_add(sa, sb, lanes, c, into, uncopied)


def _mmaf_scaled(ctx, op, args):
    a, b, c, sa, sb = args
    in_fmt = op.operands[0].type.element
    sc_fmt = op.operands[3].type.element
    k = a.shape[-1]
    va = k // sa.shape[-1]
    vb = k // sb.shape[-2]
    a32 = _as_f32(a, in_fmt) * np.repeat(_as_f32(sa, sc_fmt), va, axis=-1)
    b32 = _as_f32(b, in_fmt) * np.repeat(_as_f32(sb, sc_fmt), vb, axis=-2)
    # the scaled operands keep the inputs' layout (numpy's order K): rows made unit-stride
    # after the scaling, as for mmaf
    product = np.matmul(_unit_rows(a32), _unit_rows(b32))
    return [(product + c).astype(np.float32, copy=False)]


def _rsqrt(x):
    return np.float32(1) / np.sqrt(x) if x.dtype == np.float32 else 1.0 / np.sqrt(x)


#: ops a ``reduce`` combiner may be folded with in one numpy pass when it is that op alone:
#: ``fold(op, x, identity or None) -> folded last axis, or None`` (then the tree runs)
FOLDS = {"maxf": _fold_extremum(True), "minf": _fold_extremum(False)}

NUMPY_FLOAT_RULES = {
    "addf": _rounded("add", np.add),
    "subf": _rounded("sub", np.subtract),
    "mulf": _rounded("mul", np.multiply),
    "divf": _rounded("div", np.divide),
    "fma": _rounded("fma", None),
    "sqrt": _sqrt,
    "remf": _remf,
    "negf": _unary(np.negative),
    "absf": _unary(np.abs),
    "maxf": _extremum(True),
    "minf": _extremum(False),
    "exp": _unary(np.exp),
    "exp2": _with_ftz(np.exp2),
    "log": _unary(np.log),
    "log2": _unary(np.log2),
    "rsqrt": _with_ftz(_rsqrt),
    "sin": _unary(np.sin),
    "cos": _unary(np.cos),
    "tan": _unary(np.tan),
    "sinh": _unary(np.sinh),
    "cosh": _unary(np.cosh),
    "tanh": _unary(np.tanh),
    "atan2": _binary(np.arctan2),
    "fpowf": _binary(np.power),
    "fpowi": _fpowi,
    "ceil": _unary(np.ceil),
    "floor": _unary(np.floor),
    "cmpf": _cmpf,
    "mmaf": _mmaf,
    "mmaf_scaled": _mmaf_scaled,
}
