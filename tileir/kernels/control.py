"""Control flow: loops with early exit, branches, nested and strided loops, asserts, prints,
and the token chain (joined accesses, fences, grid dependencies).

* ``loop_first_hit_*``: scan a vector chunk by chunk (an open ``loop``) and ``break`` at
  the first chunk holding a value at or above a threshold (-1 when none does).
* ``newton_sqrt_f64``: Newton's iteration for square roots until every lane has converged
  (a ``loop`` whose exit is data dependent), capped at 64 trips.
* ``collatz_steps``: the Collatz step count of a number per block (integer ``loop``).
* ``if_*``: branches on a rank-0 condition, with results or with stores in each branch.
* ``for_*``: nested loops, a loop with step 2, a loop bound read from a Scalar, an
  unsigned loop comparison.
* ``assert_sqrt``, ``print_sums``, ``together_add``, ``fence_roundtrip``, ``gdc_scale``.
"""

from __future__ import annotations

import numpy as np

from tileir import (
    F32,
    F64,
    FREE_AXIS,
    I32,
    In,
    Out,
    Scalar,
    Shared,
    alias_fence,
    assert_,
    block_id,
    break_,
    cells,
    continue_,
    equal,
    for_range,
    grid_dependency_wait,
    if_,
    launch_dependents,
    load,
    load_at,
    load_cell,
    loop,
    print_,
    reduce_max,
    reduce_sum,
    scalar,
    sqrt,
    store,
    store_cell,
    together,
    trace,
    where,
    zeros,
)
from tileir.host.tolerance import Tolerance
from tileir.kernels.common import make, tol, uniform

CH_N, CH_T = 4096, 256
CHUNKS = CH_N // CH_T


def _first_hit(fmt) -> None:
    name = f"loop_first_hit_{fmt}"

    def body(x, thr, out):
        th = scalar(thr)

        def trip(k):
            yield if_(k >= CHUNKS, lambda: break_(k * 0 - 1))
            t = yield load_at(x, [k])
            yield if_(reduce_max(t) >= th, lambda: break_(k))
            return continue_(k + 1)

        found = yield loop(trip, (0,))
        yield store_cell(out, found.reshape([1]))

    def build():
        return trace(
            name,
            body,
            In(fmt, cells([CH_N], [CH_T], along=[FREE_AXIS])),
            Scalar(fmt),
            Out(I32, cells([1], [1])),
        )

    def reference(args):
        x, thr, out = args
        hits = np.flatnonzero(x.reshape(CHUNKS, CH_T).max(axis=1) >= thr)
        return [x, thr, np.array([hits[0] if hits.size else -1], np.int32)]

    def inputs(rng):
        x = rng.uniform(0, 1000, CH_N) if fmt.is_float else rng.integers(0, 1000, CH_N)
        x = x.astype(fmt.numpy_dtype)
        thr = float(np.sort(x)[-2]) if fmt.is_float else int(np.sort(x)[-2])
        return [x, thr, np.zeros(1, np.int32)], None

    make(
        name,
        build,
        reference,
        inputs,
        None,
        "control",
        f"the first chunk of 256 {fmt} values holding one at or above a threshold: an open "
        f"loop that breaks early (-1 when none does)",
    )


def _newton() -> None:
    name = "newton_sqrt_f64"

    def body(x, out):
        a = yield load_cell(x)

        def trip(k, y):
            nxt = 0.5 * (y + a / y)
            done = (reduce_max(abs(nxt - y)) <= 1e-15 * reduce_max(nxt)) | (k >= 64)
            yield if_(done, lambda: break_(nxt))
            return continue_(k + 1, nxt)

        root = yield loop(trip, (0, a * 0.5 + 0.5))
        yield store_cell(out, root)

    def build():
        g = cells([1024], [256])
        return trace(name, body, In(F64, g), Out(F64, g))

    make(
        name,
        build,
        lambda a: [a[0], np.sqrt(a[0])],
        lambda r: ([uniform(0.01, 100)(r, 1024, np.float64), np.zeros(1024)], None),
        tol(F64, 16),
        "control",
        "square roots by Newton's iteration until the block's lanes stop moving (a loop "
        "with a data-dependent break)",
    )


def _collatz() -> None:
    name = "collatz_steps"

    def body(seeds, out):
        n0 = (yield load_cell(seeds)).reshape([])  # one number a block

        def trip(n, steps):
            yield if_(n <= 1, lambda: break_(steps))
            nxt = where(equal(n % 2, 0), n // 2, n * 3 + 1)
            return continue_(nxt, steps + 1)

        steps = yield loop(trip, (n0, 0))
        yield store_cell(out, steps.reshape([1]))

    def build():
        g = cells([32], [1])
        return trace(name, body, In(I32, g), Out(I32, g))

    def steps(n: int) -> int:
        s = 0
        while n > 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            s += 1
        return s

    make(
        name,
        build,
        lambda a: [a[0], np.array([steps(int(v)) for v in a[0]], np.int32)],
        lambda r: ([r.integers(1, 5000, 32).astype(np.int32), np.zeros(32, np.int32)], None),
        None,
        "control",
        "the Collatz step count of one i32 per block (an integer loop with "
        "an if/else picked by select and a break)",
    )


def _if_result() -> None:
    name = "if_sign_f32"

    def body(x, out):
        t = yield load_cell(x)
        y = yield if_(reduce_sum(t) > 0.0, lambda: t, lambda: -t)
        yield store_cell(out, y)

    def build():
        g = cells([1024], [64])
        return trace(name, body, In(F32, g), Out(F32, g))

    def reference(args):
        x, out = args
        rows = x.reshape(16, 64)
        s = rows.astype(np.float64).sum(axis=1, keepdims=True)
        return [x, np.where(s > 0, rows, -rows).reshape(-1)]

    make(
        name,
        build,
        reference,
        lambda r: ([uniform()(r, 1024, np.float32), np.zeros(1024, np.float32)], None),
        None,
        "control",
        "each block of 64 negated when its sum is not positive (if with results)",
    )


def _if_effects() -> None:
    name = "if_store_i32"

    def body(x, out):
        t = yield load_cell(x)

        def even():
            yield store_cell(out, t * 2)

        def odd():
            yield store_cell(out, t + 1)

        yield if_(equal(block_id(0) % 2, 0), even, odd)

    def build():
        g = cells([1024], [128])
        return trace(name, body, In(I32, g), Out(I32, g))

    def reference(args):
        x, out = args
        rows = x.reshape(8, 128)
        even = (np.arange(8) % 2 == 0)[:, None]
        return [x, np.where(even, rows * 2, rows + 1).reshape(-1).astype(np.int32)]

    make(
        name,
        build,
        reference,
        lambda r: (
            [r.integers(-1000, 1000, 1024).astype(np.int32), np.zeros(1024, np.int32)],
            None,
        ),
        None,
        "control",
        "even blocks store 2x, odd blocks x + 1 (a store in each branch)",
    )


NEST = 4


def _nested() -> None:
    name = "for_nested_tilesum"

    def body(x, out):
        def outer(i, acc):
            def inner(j, acc2):
                t = yield load_at(x, [i, j])
                return acc2 + t

            return (yield for_range(0, NEST, inner, init=acc))

        total = yield for_range(0, NEST, outer, init=zeros([64, 64], F32))
        yield store_cell(out, total)

    def build():
        return trace(
            name,
            body,
            In(F32, cells([256, 256], [64, 64], along=[FREE_AXIS, FREE_AXIS])),
            Out(F32, cells([64, 64], [64, 64])),
        )

    def reference(args):
        x, out = args
        tiles = x.astype(np.float64).reshape(NEST, 64, NEST, 64).sum(axis=(0, 2))
        return [x, tiles.reshape(-1).astype(np.float32)]

    make(
        name,
        build,
        reference,
        lambda r: ([uniform()(r, 256 * 256, np.float32), np.zeros(64 * 64, np.float32)], None),
        Tolerance(rtol=1e-6, atol=2e-5),
        "control",
        "the sum of the 16 64x64 tiles of a 256x256 matrix (two nested for loops)",
    )


def _strided_for() -> None:
    name = "for_step2_sum"

    def body(x, out):
        def trip(k, acc):
            return acc + (yield load_at(x, [k]))

        total = yield for_range(0, CHUNKS, trip, init=zeros([CH_T], F32), step=2)
        yield store_cell(out, total)

    def build():
        return trace(
            name,
            body,
            In(F32, cells([CH_N], [CH_T], along=[FREE_AXIS])),
            Out(F32, cells([CH_T], [CH_T])),
        )

    def reference(args):
        x, out = args
        return [x, x.astype(np.float64).reshape(CHUNKS, CH_T)[::2].sum(axis=0).astype(np.float32)]

    make(
        name,
        build,
        reference,
        lambda r: ([uniform()(r, CH_N, np.float32), np.zeros(CH_T, np.float32)], None),
        Tolerance(rtol=1e-6, atol=2e-5),
        "control",
        "the sum of the even-numbered chunks (a for loop with step 2)",
    )


def _dynamic_for(unsigned: bool) -> None:
    name = "for_scalar_bound" + ("_unsigned" if unsigned else "")

    def body(x, n, out):
        def trip(k, acc):
            return acc + (yield load_at(x, [k]))

        total = yield for_range(0, scalar(n), trip, init=zeros([CH_T], I32), unsigned=unsigned)
        yield store_cell(out, total)

    def build():
        return trace(
            name,
            body,
            In(I32, cells([CH_N], [CH_T], along=[FREE_AXIS])),
            Scalar(I32),
            Out(I32, cells([CH_T], [CH_T])),
        )

    def reference(args):
        x, n, out = args
        return [x, n, x.reshape(CHUNKS, CH_T)[:n].sum(axis=0).astype(np.int32)]

    how = " compared unsigned (for unsigned)" if unsigned else ""
    make(
        name,
        build,
        reference,
        lambda r: (
            [
                r.integers(-1000, 1000, CH_N).astype(np.int32),
                int(r.integers(3, CHUNKS)),
                np.zeros(CH_T, np.int32),
            ],
            None,
        ),
        None,
        "control",
        f"the sum of the first n chunks, n a Scalar: a for loop with a bound known at launch{how}",
    )


def _assert_sqrt() -> None:
    name = "assert_sqrt"

    def body(x, out):
        t = yield load_cell(x)
        yield assert_(t >= 0.0, "assert_sqrt: a negative input")
        yield store_cell(out, sqrt(t))

    def build():
        g = cells([1024], [256])
        return trace(name, body, In(F32, g), Out(F32, g))

    make(
        name,
        build,
        lambda a: [a[0], np.sqrt(a[0])],
        lambda r: ([uniform(0, 50)(r, 1024, np.float32), np.zeros(1024, np.float32)], None),
        None,
        "control",
        "square roots after asserting that every input is non-negative",
    )


def _print_sums() -> None:
    name = "print_sums"

    def body(x, out):
        t = yield load_cell(x)
        s = reduce_sum(t)
        yield print_("block %d: sum %d\n", block_id(0), s)
        yield store_cell(out, s.reshape([1]))

    def build():
        return trace(name, body, In(I32, cells([256], [64])), Out(I32, cells([4], [1])))

    make(
        name,
        build,
        lambda a: [a[0], a[0].reshape(4, 64).sum(axis=1).astype(np.int32)],
        lambda r: ([r.integers(-100, 100, 256).astype(np.int32), np.zeros(4, np.int32)], None),
        None,
        "control",
        "each block prints and stores the sum of its 64 i32 (print_tko)",
    )


def _together() -> None:
    name = "together_add"

    def body(a, b, out):
        x, y = yield together(load_cell(a), load_cell(b))
        yield store_cell(out, x * y + x)

    def build():
        g = cells([1024], [128])
        return trace(name, body, In(F32, g), In(F32, g), Out(F32, g))

    make(
        name,
        build,
        lambda a: [a[0], a[1], a[0] * a[1] + a[0]],
        lambda r: (
            [
                uniform()(r, 1024, np.float32),
                uniform()(r, 1024, np.float32),
                np.zeros(1024, np.float32),
            ],
            None,
        ),
        None,
        "control",
        "x*y + x with the two loads unordered and their tokens joined",
    )


def _fence() -> None:
    name = "fence_roundtrip"

    def body(x, buf, out):
        t = yield load_cell(x)
        at = block_id(0) * 128
        yield store(buf, at, t * 3.0)
        yield alias_fence()
        back = yield load(buf, at, [128])
        yield store_cell(out, back + 1.0)

    def build():
        g = cells([1024], [128])
        return trace(name, body, In(F32, g), Shared(F32), Out(F32, g))

    make(
        name,
        build,
        lambda a: [a[0], a[0] * np.float32(3), a[0] * np.float32(3) + np.float32(1)],
        lambda r: (
            [
                uniform()(r, 1024, np.float32),
                np.zeros(1024, np.float32),
                np.zeros(1024, np.float32),
            ],
            None,
        ),
        None,
        "control",
        "3x stored to a Shared buffer, fenced (memory_fence_alias_tko, 13.4), "
        "read back and 1 added",
    )


def _gdc() -> None:
    name = "gdc_scale"

    def body(x, out):
        yield grid_dependency_wait()
        t = yield load_cell(x)
        yield launch_dependents()
        yield store_cell(out, t * 0.5)

    def build():
        g = cells([1024], [128])
        return trace(name, body, In(F32, g), Out(F32, g))

    make(
        name,
        build,
        lambda a: [a[0], a[0] * np.float32(0.5)],
        lambda r: ([uniform()(r, 1024, np.float32), np.zeros(1024, np.float32)], None),
        None,
        "control",
        "x / 2 after waiting on the grid it depends on, letting its own "
        "dependents start (gdc_wait_tko, gdc_launch_dependents_tko, 13.4)",
    )


for _fmt in (F32, I32):
    _first_hit(_fmt)
_newton()
_collatz()
_if_result()
_if_effects()
_nested()
_strided_for()
_dynamic_for(False)
_dynamic_for(True)
_assert_sqrt()
_print_sums()
_together()
_fence()
_gdc()
