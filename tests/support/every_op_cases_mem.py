"""Memory, control, view and atomic kernels (see every_op_cases)."""

from __future__ import annotations

import numpy as np

from support.every_op_cases import G64, Case, N, _fill, _results, put
from tileir import (
    DYN_DIM,
    F32,
    FREE_AXIS,
    I32,
    I64,
    In,
    Out,
    Scalar,
    Shared,
    address,
    alias_fence,
    assert_,
    assume_bounded,
    assume_div_by,
    assume_same_elements,
    atomic,
    atomic_add,
    atomic_cas,
    atomic_cell,
    block_id,
    break_,
    broadcast,
    cells,
    cells_along,
    continue_,
    convert,
    equal,
    extent,
    extract,
    for_range,
    full,
    gather,
    global_array,
    global_constant,
    grid_dependency_wait,
    if_,
    int_to_ptr,
    iota,
    launch_dependents,
    load,
    load_at,
    load_cell,
    load_window,
    loop,
    num_blocks,
    offset,
    print_,
    ptr_to_int,
    ptr_to_ptr,
    reshape,
    scalar,
    scatter,
    scratch,
    store,
    store_cell,
    store_sub,
    together,
    trace,
)

__all__ = ["CASES"]

CASES: list[Case] = []
f32 = np.float32


# ----------------------------------------------------------------------------- control


def _control_flow() -> Case:
    def body(a, out, n_p):
        x = yield load_cell(a)
        n = scalar(n_p)

        def trip(i, acc):  # acc += a for every even i below n
            yield if_(i >= n, lambda: break_(acc))
            yield if_(equal(i & 1, 1), lambda: continue_(i + 1, acc))
            t = yield load_cell(a)
            return continue_(i + 1, acc + t)

        r = yield loop(trip, (full((), 0, I32), x))

        def step(k, acc):
            yield if_(equal(k, 2), lambda: continue_(acc * 2.0))
            return acc + 1.0

        r = yield for_range(0, 4, step, init=r, unsigned=True)
        r = yield if_(n > 3, lambda: r + 1.0, lambda: r - 1.0)
        r, c = yield if_(n > 10, lambda: (r, n), lambda: (r * 0.5, n + 1))
        yield assert_(equal(num_blocks(0), 4), "four blocks")
        yield print_("block %d of %d: c=%d\n", block_id(0), num_blocks(0), c)
        yield store_cell(out, r + convert(c, F32))

    def build():
        return trace(
            "control_flow", body, In(F32, G64), Out(F32, G64), Scalar(I32), hints={"occupancy": 2}
        )

    def inputs(rng):
        return [rng.integers(-9, 9, N).astype(np.float32), np.zeros(N, np.float32), 5], (4,)

    def reference(args):
        a, out, n = args
        r = a + sum(1 for i in range(n) if i % 2 == 0) * a
        for k in range(4):
            r = r * 2 if k == 2 else r + 1
        r = r + 1 if n > 3 else r - 1
        r, c = (r, n) if n > 10 else (r * f32(0.5), n + 1)
        return [a, (r + c).astype(np.float32), n]

    def printed(args):
        c = args[2] if args[2] > 10 else args[2] + 1
        return "".join(f"block {b} of 4: c={c}\n" for b in range(4))

    return Case("control_flow", build, inputs, reference, printed=printed)


CASES.append(_control_flow())


def _tokens() -> Case:
    def body(a, b, out1, out2):
        yield grid_dependency_wait()
        x, y = yield together(load_cell(a), load_cell(b))
        yield alias_fence()
        yield together(store_cell(out1, x + y), store_cell(out2, x - y))
        yield launch_dependents()

    def build():
        return trace(
            "tokens",
            body,
            In(F32, G64),
            In(F32, G64),
            Out(F32, G64),
            Out(F32, G64),
            hints={
                "sm_90": {"num_cta_in_cga": 2, "occupancy": 2},
                "sm_100": {"num_worker_warps_per_cta": 8},
            },
        )

    def inputs(rng):
        return [
            rng.uniform(-1, 1, N).astype(np.float32),
            rng.uniform(-1, 1, N).astype(np.float32),
            np.zeros(N, np.float32),
            np.zeros(N, np.float32),
        ], (4,)

    def reference(args):
        a, b, _o1, _o2 = args
        return [a, b, a + b, a - b]

    return Case("tokens", build, inputs, reference)


CASES.append(_tokens())


# ----------------------------------------------------------------------------- pointer path

_LUT = global_constant("every_op_lut", np.arange(16, dtype=np.float32) * 0.5, private=True)
_TABLE = global_array("every_op_table", np.zeros(64, dtype=np.float32))


def _pointer_path() -> Case:
    def body(a, out, flags):
        i = block_id(0)
        x = yield load(a, i * 16, (16,), ordering="relaxed", scope="tl_blk", latency=2)
        t = yield load(_LUT, offsets=iota(16), ordering="acquire", scope="sys")
        pad = yield load(a, i * 16, (16,), mask=iota(16) < 10, padding=-1.0)
        buf = yield scratch(F32, 16)
        yield store(buf, 0, x + t, ordering="release", scope="device")
        back = yield load(buf, 0, (16,))
        gbuf = yield scratch(I32, 16, global_memory=True, alignment=64)
        yield store(gbuf, 0, convert(x, I32), ordering="relaxed", scope="sys")
        ib = yield load(gbuf, 0, (16,))
        q = int_to_ptr(ptr_to_int(address(out)) + convert(i, I64) * 64, F32)
        yield store(q, 0, back + pad, latency=4)
        bits = yield load(ptr_to_ptr(address(a), I32), i * 16, (16,))
        yield store(offset(address(flags), iota(16) + i * 16), 0, bits ^ ib)
        yield store(_TABLE, i * 16, x * 2.0)
        again = yield load(_TABLE, i * 16, (16,))
        yield put(out, 1, again)

    def build():
        return trace("pointer_path", body, In(F32, G64), Shared(F32), Shared(I32))

    def inputs(rng):
        return [
            rng.uniform(-8, 8, N).astype(np.float32),
            _results(2, np.float32),
            _results(1, np.int32),
        ], (4,)

    def reference(args):
        a, out, flags = args
        lane = np.arange(N) % 16
        back = a + (lane * 0.5).astype(np.float32)
        pad = np.where(lane < 10, a, f32(-1))
        return [
            a,
            _fill(out, [back + pad, a * f32(2)]),
            _fill(flags, [a.view(np.int32) ^ np.trunc(a).astype(np.int32)]),
        ]

    return Case("pointer_path", build, inputs, reference)


CASES.append(_pointer_path())


def _atomics() -> Case:
    own_cells = cells([16], [16], along=[FREE_AXIS])

    def body(a, hist, words, olds, fsum, cellsum, cellmax):
        x = yield load_cell(a)  # i32 in 0..7
        i = block_id(0)
        yield atomic("add", hist, x, 1)
        yield atomic_add(hist, x + 8, 2, ordering="acquire", scope="tl_blk")
        own = iota(16) + i * 16
        old = yield atomic("xchg", words, own, x, ordering="release", scope="sys")
        yield atomic("and", words, own, 6, ordering="acq_rel")
        yield atomic("or", words, own, 8)
        yield atomic("xor", words, own, 1, scope="tl_blk")
        yield atomic("max", words, own, 3)
        yield atomic("min", words, own, 12)
        yield atomic("umax", words, own, old)
        yield atomic("umin", words, own, 100)
        first = yield atomic_cas(olds, N + i, 0, i + 1)
        second = yield atomic_cas(olds, N + i, 99, 5, ordering="acq_rel", scope="tl_blk")
        yield store(olds, own, old)
        yield store(olds, N + 4 + i, first * 10 + second)
        yield atomic_add(fsum, iota(16), convert(x, F32))
        yield atomic_cell("addf", cellsum, convert(x, F32), [0], scope="tl_blk")
        yield atomic_cell("max", cellmax, x * i, [0])
        yield atomic_cell("umin", cellmax, x + 100, [0])

    def build():
        return trace(
            "atomics",
            body,
            In(I32, G64),
            Shared(I32),
            Shared(I32),
            Shared(I32),
            Shared(F32),
            Shared(F32, own_cells),
            Shared(I32, own_cells),
        )

    def inputs(rng):
        x = rng.integers(0, 8, N).astype(np.int32)
        words = rng.integers(0, 50, N).astype(np.int32)
        return [
            x,
            np.zeros(16, np.int32),
            words,
            np.zeros(N + 8, np.int32),
            np.zeros(16, np.float32),
            np.zeros(16, np.float32),
            np.full(16, 5, np.int32),
        ], (4,)

    def reference(args):
        x, hist, words, olds, fsum, cellsum, cellmax = (np.array(v) for v in args)
        np.add.at(hist, x, 1)
        np.add.at(hist, x + 8, 2)
        old = words.copy()
        w = x.copy()
        w = ((w & 6) | 8) ^ 1
        w = np.minimum(np.maximum(w, 3), 12)
        w = np.maximum(w.view(np.uint32), old.view(np.uint32))
        w = np.minimum(w, np.uint32(100)).view(np.int32)
        olds[:N] = old
        olds[N : N + 4] = np.arange(4) + 1
        olds[N + 4 : N + 8] = 0 * 10 + (np.arange(4) + 1)
        fsum += x.reshape(4, 16).sum(0).astype(np.float32)
        cellsum += x.reshape(4, 16).sum(0).astype(np.float32)
        blocks = x.reshape(4, 16) * np.arange(4)[:, None]
        cellmax = np.maximum(cellmax, blocks.max(0)).astype(np.int32)
        cellmax = np.minimum(
            cellmax.view(np.uint32), (x.reshape(4, 16) + 100).view(np.uint32).min(0)
        ).view(np.int32)
        return [x, hist, w, olds, fsum, cellsum, cellmax]

    return Case("atomics", build, inputs, reference)


CASES.append(_atomics())


# ----------------------------------------------------------------------------- views


def _views() -> Case:
    tall = cells([DYN_DIM, 8], [4, 8])
    grid = cells([16, 8], [4, 8])
    whole = cells([4, 8], [4, 8], along=[FREE_AXIS, FREE_AXIS])

    def body(a, out, pieces, tot):
        rows = extent(a, 0)
        code = rows * 100 + cells_along(a, 0) * 10 + extent(a, 1)
        w = yield load_window(a, [block_id(0), 0], (4, 8), (2, 8), latency=3, inbounds=True)
        picked = iota(4) * 4 + block_id(0)
        g = yield gather(a, [picked, (0, 8)], allow_tma=False, ordering="acquire")
        c = yield load_cell(a, inbounds=True, allow_tma=True, latency=1)
        m = w + g + c + convert(code, F32)
        yield scatter(out, [picked, (0, 8)], m, inbounds=[True, True])
        yield atomic_cell("addf", tot, m, [0, 0], scope="device")
        yield store_sub(pieces, extract(c, [0, 0], (2, 8)), [0, 0])
        yield store_sub(pieces, extract(c, [1, 0], (2, 8)) * 2.0, [1, 0], inbounds=True)
        again = yield load_at(pieces, [])
        yield store(out, 0, again * 0.0, mask=again < -1e30)  # reads `pieces`, writes nothing

    def build():
        return trace(
            "views", body, In(F32, tall), Shared(F32, grid), Out(F32, grid), Shared(F32, whole)
        )

    def inputs(rng):
        return [
            rng.integers(-9, 9, 128).astype(np.float32),
            np.zeros(128, np.float32),
            np.zeros(128, np.float32),
            np.zeros(32, np.float32),
            16,
        ], (4,)

    def reference(args):
        a, out, pieces, tot, n = (np.array(v) if isinstance(v, np.ndarray) else v for v in args)
        a2, o2, p2 = a.reshape(16, 8), out.reshape(16, 8), pieces.reshape(16, 8)
        t2 = tot.reshape(4, 8)
        for b in range(4):
            rows = np.arange(4) * 4 + b
            m = (
                a2[2 * b : 2 * b + 4]
                + a2[rows]
                + a2[4 * b : 4 * b + 4]
                + f32(n * 100 + 4 * 10 + 8)
            )
            o2[rows] = m
            t2 += m
            p2[4 * b : 4 * b + 2] = a2[4 * b : 4 * b + 2]
            p2[4 * b + 2 : 4 * b + 4] = a2[4 * b + 2 : 4 * b + 4] * 2
        return [a, out, pieces, tot, n]

    return Case("views", build, inputs, reference)


CASES.append(_views())


def _padding() -> Case:
    pads = ("zero", "neg_zero", "nan", "pos_inf", "neg_inf")
    short = [cells([10], [16], pad=p) for p in pads]

    def body(*params):
        ins, out = params[:-1], params[-1]
        for k, p in enumerate(ins):
            t = yield load_cell(p)
            yield store(out, 16 * k, t)

    def build():
        return trace("padding", body, *(In(F32, c) for c in short), Shared(F32))

    def inputs(rng):
        return [
            *(rng.uniform(1, 2, 10).astype(np.float32) for _ in pads),
            np.zeros(80, np.float32),
        ], (1,)

    def reference(args):
        values = (0.0, -0.0, np.nan, np.inf, -np.inf)
        out = np.concatenate(
            [np.concatenate([a, np.full(6, v, np.float32)]) for a, v in zip(args[:-1], values)]
        )
        return [*args[:-1], out]

    return Case("padding", build, inputs, reference)


CASES.append(_padding())


def _assume() -> Case:
    def body(a, out, n_p):
        n = assume_bounded(scalar(n_p), 0, 1000)
        i = assume_div_by(block_id(0) * 16, 16)
        base = assume_div_by(address(a), 16)
        same = assume_same_elements(broadcast(reshape(i, (1,)), (16,)), (16,))
        lanes = assume_div_by(iota(16) * 4, 4, every=4, along=0)
        x = yield load(base, offsets=same + lanes // 4)
        u = assume_bounded(convert(n, I64), None, 2**40)
        yield store_cell(out, x + convert(u, F32))

    def build():
        return trace("assume", body, In(F32, G64), Out(F32, G64), Scalar(I32))

    def inputs(rng):
        return [rng.uniform(-1, 1, N).astype(np.float32), np.zeros(N, np.float32), 7], (4,)

    def reference(args):
        a, _out, n = args
        return [a, a + f32(n), n]

    return Case("assume", build, inputs, reference)


CASES.append(_assume())


# ----------------------------------------------------------------------------- multimem (13.5)


def _multimem() -> Case:
    """Every multimem op and reduction kind, and atomic_cell's inbounds, on one replica (the
    interpreter's default of one device; tests/fake/test_multimem_fake.py runs several)."""
    from tileir import load_reduce_cell, reduce_cell, store_cell_all

    own = cells([16], [16], along=[FREE_AXIS])
    kinds = ("add", "min", "max", "and", "or", "xor", "umin", "umax")

    def body(x, out, acc, plain):
        t = yield load_reduce_cell(x, inbounds=True)
        for kind in kinds[1:]:
            t = t ^ (yield load_reduce_cell(x, reduction=kind, ordering="acquire", scope="sys"))
        yield store_cell_all(out, t, ordering="release", scope="device", inbounds=True)
        for i, kind in enumerate(kinds):
            order = ("relaxed", "release")[i % 2]
            yield reduce_cell(acc, t + i, [0], reduction=kind, ordering=order, inbounds=i == 0)
        yield atomic_cell("add", plain, t, [0], inbounds=True)

    def build():
        return trace(
            "multimem",
            body,
            In(I32, G64, ptr_attr="multicast"),
            Out(I32, G64, ptr_attr="multicast"),
            Shared(I32, own, ptr_attr="multicast"),
            Shared(I32, own, ptr_attr="unicast"),
        )

    def inputs(rng):
        return [
            rng.integers(-1000, 1000, N).astype(np.int32),
            np.zeros(N, np.int32),
            rng.integers(-1000, 1000, 16).astype(np.int32),
            np.zeros(16, np.int32),
        ], (4,)

    def reference(args):
        x, out, acc, plain = (np.array(v) for v in args)
        t = x.copy()  # one replica: every load-reduce reads x itself
        for _ in kinds[1:]:
            t = t ^ x
        out = t.copy()
        rows = t.reshape(4, 16)
        for i, kind in enumerate(kinds):
            for row in rows:
                v = row + i
                if kind == "add":
                    acc = acc + v
                elif kind in ("min", "max"):
                    acc = np.minimum(acc, v) if kind == "min" else np.maximum(acc, v)
                elif kind in ("umin", "umax"):
                    u, w = acc.view(np.uint32), v.view(np.uint32)
                    acc = (np.minimum(u, w) if kind == "umin" else np.maximum(u, w)).view(np.int32)
                else:
                    acc = {"and": acc & v, "or": acc | v, "xor": acc ^ v}[kind]
        plain = plain + rows.sum(axis=0, dtype=np.int32)
        return [x, out, acc.astype(np.int32), plain.astype(np.int32)]

    return Case("multimem", build, inputs, reference, archs=("sm_100", "sm_103", "sm_107"))


CASES.append(_multimem())
