"""Conversions, shapes, reductions and scans, and the tensor-core products (see every_op_cases)."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from support.every_op_cases import G64, Case, N, _fill, _results, _unary_case, put
from tileir import (
    BF16,
    F4E2M1FN,
    F8E4M3FN,
    F8E5M2,
    F8E8M0FNU,
    F16,
    F32,
    F64,
    FNV8E5M3FNU,
    I4,
    I8,
    I16,
    I32,
    I64,
    TF32,
    In,
    Out,
    Shared,
    argmax,
    argmin,
    bitcast,
    broadcast,
    cat,
    cells,
    convert,
    cumprod,
    cumsum,
    extract,
    full,
    insert,
    iota,
    load_cell,
    maximum,
    minimum,
    mma,
    mma_scaled,
    pack,
    permute,
    reduce,
    reduce_max,
    reduce_min,
    reduce_prod,
    reduce_sum,
    reshape,
    scan,
    store_cell,
    trace,
    unpack,
    where,
)
from tileir.ir.numerics import scalar_value

__all__ = ["CASES"]

CASES: list[Case] = []
f32 = np.float32


# ----------------------------------------------------------------------------- conversions


def _trunc_bits(x: np.ndarray, keep_low: int) -> np.ndarray:
    bits = x.view(np.uint32) & np.uint32((0xFFFFFFFF << keep_low) & 0xFFFFFFFF)
    return bits.view(np.float32)


def _nearest_away_tf32(x: np.ndarray) -> np.ndarray:
    return ((x.view(np.uint32) + np.uint32(0x1000)) & np.uint32(0xFFFFE000)).view(np.float32)


def _f16_zero(x: np.ndarray) -> np.ndarray:
    r = x.astype(np.float16)
    fix = np.abs(r.astype(np.float64)) > np.abs(x.astype(np.float64))
    return np.where(fix, np.nextafter(r, np.float16(0)), r)


def _f32_down(x: np.ndarray) -> np.ndarray:
    r = x.astype(np.float32)
    return np.where(r.astype(np.float64) > x, np.nextafter(r, f32(-np.inf)), r)


CASES.append(
    _unary_case(
        "convert_floats",
        (F32, F32),
        [
            lambda x: convert(x, F16).to(F32),
            lambda x: convert(x, F16, rounding="zero").to(F32),
            lambda x: convert(x, BF16, rounding="zero").to(F32),
            lambda x: convert(x, BF16).to(F32),
            lambda x: convert(x, TF32, rounding="nearest_away").to(F32),
            lambda x: convert(x, TF32).to(F32),
            lambda x: convert(x, F8E4M3FN).to(F32),
            lambda x: convert(x, F8E5M2).to(F32),
            lambda x: convert(convert(x, F64) * 3.0, F32, rounding="negative_inf"),
            lambda x: convert(convert(x, F64) / 3.0, F32, rounding="positive_inf"),
            lambda x: convert(convert(x, F16), BF16, rounding="zero").to(F32),
        ],
        lambda rng: rng.uniform(-4, 4, N).astype(np.float32),
        [
            lambda x: x.astype(np.float16).astype(f32),
            lambda x: _f16_zero(x).astype(f32),
            lambda x: _trunc_bits(x, 16),
            lambda x: x.astype(ml_dtypes.bfloat16).astype(f32),
            _nearest_away_tf32,
            lambda x: _tf32_even(x),
            lambda x: x.astype(ml_dtypes.float8_e4m3fn).astype(f32),
            lambda x: x.astype(ml_dtypes.float8_e5m2).astype(f32),
            lambda x: _f32_down(x.astype(np.float64) * 3.0),
            lambda x: _f32_up(x.astype(np.float64) / 3.0),
            lambda x: _bf16_zero(x.astype(np.float16)).astype(f32),
        ],
    )
)


def _tf32_even(x: np.ndarray) -> np.ndarray:
    from tileir.ir.numerics import tf32_round

    return tf32_round(x)


def _bf16_zero(h: np.ndarray) -> np.ndarray:
    return _trunc_bits(h.astype(np.float32), 16)  # f16 -> f32 is exact


def _f32_up(x: np.ndarray) -> np.ndarray:
    r = x.astype(np.float32)
    return np.where(r.astype(np.float64) < x, np.nextafter(r, f32(np.inf)), r)


_FP4 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6], dtype=np.float32)


def _e8m0(x: np.ndarray, up: bool) -> np.ndarray:
    m, e = np.frexp(x.astype(np.float64))  # x = m * 2**e, 0.5 <= m < 1
    exact = m == 0.5
    e = np.where(exact, e - 1, e if up else e - 1)
    return np.ldexp(1.0, e).astype(f32)


# tileiras 13.4.92 takes f4E2M1FN and f8E8M0FNU tiles from sm_100 on, fnv8E5M3FNU on sm_107 only
CASES.append(
    _unary_case(
        "convert_fp4_e8m0",
        (F32, F32),
        [
            lambda x: convert(x, F4E2M1FN).to(F32),
            lambda x: convert(-x, F4E2M1FN).to(F32),
            lambda x: convert(x + 0.25, F8E8M0FNU, rounding="positive_inf").to(F32),
            lambda x: convert(x + 0.25, F8E8M0FNU, rounding="zero").to(F32),
        ],
        lambda rng: rng.choice(_FP4, N).astype(np.float32),
        [
            lambda x: x,
            lambda x: -x,
            lambda x: _e8m0(x + f32(0.25), True),
            lambda x: _e8m0(x + f32(0.25), False),
        ],
        archs=("sm_100",),
    )
)

_FNV8 = np.array([scalar_value(FNV8E5M3FNU, b) for b in range(256)])
_FNV8_EXACT = _FNV8[np.isfinite(_FNV8) & (_FNV8 > 0) & (_FNV8 < 1000)].astype(np.float32)

CASES.append(
    _unary_case(
        "convert_fnv8",
        (F32, F32),
        [
            lambda x: convert(x, FNV8E5M3FNU).to(F32),
            lambda x: convert(convert(x, F16), FNV8E5M3FNU).to(F64).to(F32),
        ],
        lambda rng: rng.choice(_FNV8_EXACT, N).astype(np.float32),
        [lambda x: x, lambda x: x],
        archs=("sm_107",),
    )
)


def _convert_ints() -> Case:
    def body(a, b, out, bits):
        x = yield load_cell(a)
        i = yield load_cell(b)
        yield put(out, 0, convert(i, F32) + convert(i, F32, signed=False) * 0.0)
        yield put(out, 1, convert(convert(x * 1e9, I32, saturating=True), F32))
        yield put(out, 2, convert(convert(x, I32, signed=False), F32, signed=False))
        yield put(
            out,
            3,
            convert(
                convert(convert(i & 63, I8, overflow="no_signed_wrap"), I64, signed=False), F32
            ),
        )
        yield put(out, 4, convert(convert(convert(i, I16), I64), F32))
        yield put(out, 5, bitcast(bitcast(x, I32) ^ -(1 << 31), F32))
        yield put(out, 6, convert(bitcast(convert(x, F16), I16), F32))
        yield put(out, 7, unpack(pack(x * 2.0), F32))
        nibbles = unpack(pack(convert(i, I16)), I4)  # 64 signed nibbles
        wide = convert(reshape(nibbles, (16, 4)), I32)  # exti from i4
        low = convert(convert(wide, I4, overflow="none"), I32, signed=False)
        yield put(bits, 0, reduce_sum(wide * 16 + low, dim=1))
        yield put(bits, 1, bitcast(unpack(pack(convert(x, BF16)), F16), I16).to(I32))

    def build():
        return trace("convert_ints", body, In(F32, G64), In(I32, G64), Shared(F32), Shared(I32))

    def inputs(rng):
        x = rng.uniform(0, 3, N).astype(np.float32)
        i = rng.integers(-(2**20), 2**20, N).astype(np.int32)
        return [x, i, _results(8, np.float32), _results(2, np.int32)], (4,)

    def reference(args):
        x, i, out, bits = args
        i8 = (i & 63).astype(np.int64)
        flip = (x.view(np.uint32) ^ np.uint32(1 << 31)).view(f32)
        i16 = i.astype(np.int16)
        lanes = np.zeros(N, dtype=np.int64)
        for blk in range(4):
            raw = i16[16 * blk : 16 * blk + 16].view(np.uint8)
            n = np.stack([raw & 15, raw >> 4], axis=-1).reshape(-1).astype(np.int64)
            s = np.where(n >= 8, n - 16, n)
            lanes[16 * blk : 16 * blk + 16] = (s * 16 + (s & 15)).reshape(16, 4).sum(1)
        bf = x.astype(ml_dtypes.bfloat16).view(np.int16).astype(np.int32)
        return [
            x,
            i,
            _fill(
                out,
                [
                    i.astype(f32),
                    np.clip(np.trunc((x * f32(1e9)).astype(np.float64)), -(2**31), 2**31 - 1)
                    .astype(np.int64)
                    .astype(f32),
                    np.trunc(x).astype(f32),
                    i8.astype(f32),
                    i16.astype(f32),
                    flip,
                    x.astype(np.float16).view(np.int16).astype(f32),
                    x * f32(2),
                ],
            ),
            _fill(bits, [lanes.astype(np.int32), bf]),
        ]

    return Case("convert_ints", build, inputs, reference)


CASES.append(_convert_ints())


# ----------------------------------------------------------------------------- shapes


def _shapes() -> Case:
    def body(a, out):
        x = yield load_cell(a)  # 16
        m = reshape(x, (4, 4))
        t = permute(cat(m, m * 2.0, dim=0), (1, 0))  # 4 x 8
        e = extract(t, [0, 1], (4, 4))  # columns 4..7
        ins = insert(t, e + 100.0, [0, 0])
        lane = convert(broadcast(reshape(iota(4, I16), (4, 1)), (4, 2)), F32)
        wide = cat(lane, lane, dim=1)  # 4 x 4
        yield put(out, 0, reshape(extract(ins, [0, 0], (4, 4)) + wide, (16,)))
        yield put(out, 1, reshape(extract(ins, [0, 1], (4, 4)), (16,)))
        yield put(out, 2, reshape(m.transpose(), (16,)) + convert(iota(16, I64), F32))

    def build():
        return trace("shapes", body, In(F32, G64), Shared(F32))

    def inputs(rng):
        return [rng.uniform(-1, 1, N).astype(np.float32), _results(3, np.float32)], (4,)

    def reference(args):
        x, out = args
        r0, r1, r2 = [], [], []
        for blk in range(4):
            m = x[16 * blk : 16 * blk + 16].reshape(4, 4)
            t = np.concatenate([m, m * f32(2)], 0).T
            lane = np.repeat(np.arange(4, dtype=f32)[:, None], 4, axis=1)
            r0.append((t[:, 4:] + f32(100) + lane).reshape(-1))
            r1.append(t[:, 4:].reshape(-1))
            r2.append(m.T.reshape(-1) + np.arange(16, dtype=f32))
        return [x, _fill(out, [np.concatenate(r0), np.concatenate(r1), np.concatenate(r2)])]

    return Case("shapes", build, inputs, reference)


CASES.append(_shapes())


# ----------------------------------------------------------------------------- reductions


def _reductions() -> Case:
    g = cells([16, 16], [4, 16])

    def body(a, b, out, idx):
        x = yield load_cell(a)  # 4 x 16 f32
        i = yield load_cell(b)  # 4 x 16 i32
        lo, hi = reduce(
            (x, x),
            lambda acc, v: (minimum(acc[0], v[0]), maximum(acc[1], v[1])),
            (float("inf"), -float("inf")),
            dim=1,
            keepdims=True,
        )
        rows = reduce_max(x, keepdims=True) - reduce_min(x, keepdims=True) + lo - hi
        cols = broadcast(reduce_sum(x, dim=0, keepdims=True), (4, 16))
        run = cumsum(x, dim=1) + cumsum(x, dim=1, reverse=True) + cols
        prod = scan(x, lambda acc, v: acc * v, 1.0, dim=1, reverse=True)
        best = scan(
            (x, i),
            lambda acc, v: (
                where(v[0] > acc[0], v[0], acc[0]),
                where(v[0] > acc[0], v[1], acc[1]),
            ),
            (-float("inf"), -1),
            dim=1,
        )[1]
        yield store_cell(out, run + rows + prod * 0.0 + cumprod(x * 0.0 + 1.0, dim=1))
        ints = (
            argmax(x) * 100
            + argmin(x, dim=1)
            + reduce_sum(i, dim=1)
            + reduce_max(i) * 0
            + reduce_prod(i * 0 + 2, dim=1)
            + reduce_min(i)
        )
        yield store_cell(idx, reshape(broadcast(reshape(ints, (4, 1)), (4, 16)) + best, (4, 16)))

    def build():
        return trace("reductions", body, In(F32, g), In(I32, g), Out(F32, g), Out(I32, g))

    def inputs(rng):
        x = rng.integers(-8, 8, 256).astype(np.float32)  # small integers: exact sums
        i = rng.integers(-50, 50, 256).astype(np.int32)
        return [x, i, np.zeros(256, np.float32), np.zeros(256, np.int32)], (4,)

    def reference(args):
        x, i, out, idx = args
        out, idx = out.copy(), idx.copy()
        for blk in range(4):
            xs = x.reshape(16, 16)[4 * blk : 4 * blk + 4]
            ii = i.reshape(16, 16)[4 * blk : 4 * blk + 4].astype(np.int64)
            rows = (
                xs.max(1, keepdims=True)
                - xs.min(1, keepdims=True)
                + xs.min(1, keepdims=True)
                - xs.max(1, keepdims=True)
            )
            run = np.cumsum(xs, 1) + np.cumsum(xs[:, ::-1], 1)[:, ::-1] + xs.sum(0, keepdims=True)
            res = run + rows + np.ones_like(xs)
            out.reshape(16, 16)[4 * blk : 4 * blk + 4] = res
            best = np.zeros_like(ii)
            for r in range(4):
                v, w = -np.inf, -1
                for c in range(16):
                    if xs[r, c] > v:
                        v, w = xs[r, c], ii[r, c]
                    best[r, c] = w
            ints = xs.argmax(1) * 100 + xs.argmin(1) + ii.sum(1) + 2**16 + ii.min(1)
            idx.reshape(16, 16)[4 * blk : 4 * blk + 4] = (ints[:, None] + best).astype(np.int32)
        return [x, i, out, idx]

    return Case("reductions", build, inputs, reference)


CASES.append(_reductions())


# ----------------------------------------------------------------------------- mma


def _mma() -> Case:
    m, n = cells([16, 32], [16, 32]), cells([32, 16], [32, 16])
    o = cells([16, 16], [16, 16])

    def body(a, b, c, d, ia, ib, ic, e):
        x = yield load_cell(a)  # 16 x 32 f16
        y = yield load_cell(b)  # 32 x 16 f16
        r = mma(x, y, 0.0, fast_acc=True)
        r = mma(convert(x, BF16), convert(y, BF16), r)
        r = mma(convert(convert(x, F32), TF32), convert(convert(y, F32), TF32), r)
        r = mma(convert(x, F32), convert(y, F32), r)
        r = mma(convert(x, F8E4M3FN), convert(y, F8E4M3FN), r)
        h = mma(convert(x, F8E5M2), convert(y, F8E5M2), full((16, 16), 1.0, F16))
        h = mma(x, y, h)
        yield store_cell(c, r + convert(h, F32))
        xd = yield load_cell(d)
        yield store_cell(e, mma(xd, permute(xd, (1, 0)), full((16, 16), 0.5, F64)))
        xi = yield load_cell(ia)
        yi = yield load_cell(ib)
        ri = mma(xi, yi, full((16, 16), 0, I32))
        ri = mma(xi, yi, ri, signed=(False, True))
        ri = mma(xi, yi, ri, signed=False)
        yield store_cell(ic, mma(xi, yi, ri, signed=(True, False)))

    def build():
        return trace(
            "mma_products",
            body,
            In(F16, m),
            In(F16, n),
            Out(F32, o),
            In(F64, m),
            In(I8, m),
            In(I8, n),
            Out(I32, o),
            Out(F64, o),
        )

    def inputs(rng):
        a = rng.integers(-3, 4, 512).astype(np.float16)
        b = rng.integers(-3, 4, 512).astype(np.float16)
        d = rng.integers(-3, 4, 512).astype(np.float64)
        ia = rng.integers(-100, 100, 512).astype(np.int8)
        ib = rng.integers(-100, 100, 512).astype(np.int8)
        return [
            a,
            b,
            np.zeros(256, np.float32),
            d,
            ia,
            ib,
            np.zeros(256, np.int32),
            np.zeros(256, np.float64),
        ], (1,)

    def reference(args):
        a, b, c, d, ia, ib, ic, e = args
        p = a.reshape(16, 32).astype(np.float64) @ b.reshape(32, 16).astype(np.float64)
        r = 5 * p + (p + 1 + p)
        dd = d.reshape(16, 32)
        sa, sb = ia.reshape(16, 32).astype(np.int64), ib.reshape(32, 16).astype(np.int64)
        ua, ub = sa & 0xFF, sb & 0xFF
        ri = sa @ sb + ua @ sb + ua @ ub + sa @ ub
        return [
            a,
            b,
            r.astype(np.float32).reshape(-1),
            d,
            ia,
            ib,
            ri.astype(np.int32).reshape(-1),
            (dd @ dd.T + 0.5).reshape(-1),
        ]

    return Case("mma_products", build, inputs, reference)


CASES.append(_mma())


def _mma_scaled() -> Case:
    m, n = cells([16, 64], [16, 64]), cells([64, 16], [64, 16])
    o = cells([16, 16], [16, 16])

    def body(a, b, c):
        x = yield load_cell(a)
        y = yield load_cell(b)
        sa = convert(full((16, 2), 2.0, F32), F8E8M0FNU, rounding="zero")
        sb = convert(full((2, 16), 0.25, F32), F8E8M0FNU, rounding="positive_inf")
        r = mma_scaled(convert(x, F8E4M3FN), convert(y, F8E4M3FN), 1.0, sa, sb)
        sa4 = convert(full((16, 4), 2.0, F32), F8E4M3FN)  # blocks of 16 along K
        sb4 = convert(full((4, 16), 0.25, F32), F8E4M3FN)
        r = mma_scaled(convert(x, F4E2M1FN), convert(y, F4E2M1FN), r, sa4, sb4)
        r = mma_scaled(convert(x, F8E5M2), convert(y, F8E5M2), r, sa, sb)
        r = mma_scaled(convert(x, F4E2M1FN), convert(y, F4E2M1FN), r, sa, sb)
        yield store_cell(c, r)

    def build():
        return trace("mma_scaled", body, In(F32, m), In(F32, n), Out(F32, o))

    def inputs(rng):
        a = rng.choice(_SMALL, 1024).astype(np.float32)
        b = rng.choice(_SMALL, 1024).astype(np.float32)
        return [a, b, np.zeros(256, np.float32)], (1,)

    def reference(args):
        a, b, c = args
        p = a.reshape(16, 64).astype(np.float64) @ b.reshape(64, 16).astype(np.float64)
        return [a, b, (1 + 4 * 0.5 * p).astype(np.float32).reshape(-1)]

    return Case("mma_scaled", build, inputs, reference, archs=("sm_100",))


_SMALL = np.array([-2, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3], dtype=np.float32)

CASES.append(_mma_scaled())


def _mma_scaled_fnv8() -> Case:
    """f4E2M1FN factors with fnv8E5M3FNU scales (tileiras 13.4.92: sm_107 only)."""
    m, n = cells([16, 64], [16, 64]), cells([64, 16], [64, 16])

    def body(a, b, c):
        x = yield load_cell(a)
        y = yield load_cell(b)
        sa = convert(full((16, 4), 4.0, F32), FNV8E5M3FNU)
        sb = convert(full((4, 16), 0.125, F32), FNV8E5M3FNU)
        yield store_cell(c, mma_scaled(convert(x, F4E2M1FN), convert(y, F4E2M1FN), -1.0, sa, sb))

    def build():
        return trace(
            "mma_scaled_fnv8", body, In(F32, m), In(F32, n), Out(F32, cells([16, 16], [16, 16]))
        )

    def inputs(rng):
        return [
            rng.choice(_SMALL, 1024).astype(np.float32),
            rng.choice(_SMALL, 1024).astype(np.float32),
            np.zeros(256, np.float32),
        ], (1,)

    def reference(args):
        a, b, c = args
        p = a.reshape(16, 64).astype(np.float64) @ b.reshape(64, 16).astype(np.float64)
        return [a, b, (p * 0.5 - 1).astype(np.float32).reshape(-1)]

    return Case("mma_scaled_fnv8", build, inputs, reference, archs=("sm_107",))


CASES.append(_mma_scaled_fnv8())
