"""Addresses, scratch memory, module globals, raw bytes, shape queries and access hints.

* ``ptr_*``: a parameter's base address moved with ``offset``, cast to another pointee
  (``ptr_to_ptr``), or turned into an i64 address and back (``ptr_to_int`` / ``int_to_ptr``).
* ``scratch_*``: a per-block buffer (``alloca``, 13.3) written and read back reversed; one in
  global memory (alloca's ``global``).
* ``lut_*``: module-level arrays (``global`` / ``get_global``): a constant lookup table, a
  private one, and a writable (non-constant) one that is only read.
* ``pack_*`` / ``unpack_*``: a tile's raw bytes (13.3).
* ``dyn_*``: DYN_DIM extents given at launch, read in the kernel with ``extent``
  (``get_tensor_shape``), ``cells_along`` (``get_index_space_shape``) and ``num_blocks``.
* ``hints_*`` / ``inbounds_*`` / ``ordered_*``: the same copies with load / store hints,
  entry hints per target, in-bounds promises, and acquire / release ordering.
"""

from __future__ import annotations

import numpy as np

from tileir import (
    DYN_DIM,
    F16,
    F32,
    I8,
    I32,
    I64,
    In,
    Out,
    Shared,
    address,
    block_id,
    cells,
    cells_along,
    extent,
    global_array,
    global_constant,
    int_to_ptr,
    iota,
    load,
    load_cell,
    num_blocks,
    offset,
    pack,
    ptr_to_int,
    ptr_to_ptr,
    scratch,
    store,
    store_cell,
    trace,
    unpack,
)
from tileir.kernels.common import make, uniform
from tileir.ops.views import global_pointer
from tileir.types import Format

N, T = 1024, 128


def _copy_like(
    name: str, body, ins, out, ref, gens, doc: str, grid=None, hints=None, family: str = "memory"
) -> None:
    """Register a kernel over N elements in cells of T: ``ins`` are In formats (or whole
    markers), ``out`` the Out's format (or marker); ``ref(*inputs)`` answers the Out's values
    and ``gens[i](rng)`` makes argument ``i``."""

    def build():
        g = cells([N], [T])
        markers = [In(m, g) if isinstance(m, Format) else m for m in ins]
        return trace(
            name, body, *markers, Out(out, g) if isinstance(out, Format) else out, hints=hints
        )

    n_in = len(ins)

    def reference(args):
        result = list(args)
        result[n_in] = ref(*args[:n_in]).astype(args[n_in].dtype)
        return result

    def inputs(rng):
        arrays = [g(rng) for g in gens]
        return arrays, grid

    make(name, build, reference, inputs, None, family, doc)


# ----------------------------------------------------------------------------- addresses


def _ptr_kernels() -> None:
    def moved(x, out):
        p = offset(address(x), block_id(0) * T + iota(T))  # a tile of T pointers
        yield store_cell(out, (yield load(p)) * 3.0)

    _copy_like(
        "ptr_offset_f32",
        moved,
        [F32],
        F32,
        lambda x: x * np.float32(3),
        [lambda r: uniform()(r, N, np.float32), lambda r: np.zeros(N, np.float32)],
        "reads its cell through a tile of pointers: the base address plus offsets",
    )

    def recast(x, out):
        p = ptr_to_ptr(offset(address(x), block_id(0) * T + iota(T)), I32)
        yield store_cell(out, (yield load(p)))

    _copy_like(
        "ptr_cast_f32_i32",
        recast,
        [F32],
        I32,
        lambda x: x.view(np.int32),
        [lambda r: uniform()(r, N, np.float32), lambda r: np.zeros(N, np.int32)],
        "the bits of f32 values read through pointers cast to ptr<i32> (ptr_to_ptr)",
    )

    def via_int(x, out):
        base = ptr_to_int(address(x))  # i64 byte address
        at = base + (block_id(0) * T + iota(T)).to(I64) * 2  # f16: two bytes each
        yield store_cell(out, (yield load(int_to_ptr(at, F16))))

    _copy_like(
        "ptr_int_roundtrip_f16",
        via_int,
        [F16],
        F16,
        lambda x: x,
        [lambda r: uniform()(r, N, np.float16), lambda r: np.zeros(N, np.float16)],
        "a copy through i64 addresses: ptr_to_int, byte arithmetic, int_to_ptr",
    )


def _ptr_attr_kernels() -> None:
    # 13.4's pointer attribute: markers give it to the parameters' pointers and their tensor
    # views; the pointer casts can add, keep or drop it
    def scaled(x, out):
        yield store_cell(out, (yield load_cell(x)) * 2.0)

    g = cells([N], [T])
    _copy_like(
        "ptr_attr_cells_f32",
        scaled,
        [In(F32, g, ptr_attr="none")],
        Out(F32, g, ptr_attr="none"),
        lambda x: x * np.float32(2),
        [lambda r: uniform()(r, N, np.float32), lambda r: np.zeros(N, np.float32)],
        "a cell copy, doubled, whose buffers' pointers and tensor views carry "
        "ptr_attr<none> (13.4)",
    )

    def cast(x, out):
        at = ptr_to_int(offset(address(x), block_id(0) * T + iota(T)))
        bits = ptr_to_ptr(int_to_ptr(at, F32, ptr_attr="none"), I32)  # keeps <none>
        plain = ptr_to_ptr(bits, I32, ptr_attr=None)  # drops it
        yield store_cell(out, (yield load(plain)))

    _copy_like(
        "ptr_attr_casts_f32_i32",
        cast,
        [In(F32, g, ptr_attr="none")],
        I32,
        lambda x: x.view(np.int32),
        [lambda r: uniform()(r, N, np.float32), lambda r: np.zeros(N, np.int32)],
        "f32 bits read through pointers made with int_to_ptr (ptr_attr<none>), cast "
        "to ptr<i32> keeping the attribute, then without it",
    )

    table = global_constant("lut16_attr", _LUT)

    def looked_up(x, out):
        # a lookup through the global's address and a reversal through scratch, both
        # addresses carrying ptr_attr<none>
        i = yield load_cell(x)
        v = yield load(global_pointer(table, ptr_attr="none"), offsets=i & 15)
        buf = yield scratch(F32, T, ptr_attr="none")
        yield store(buf, 0, v)
        yield store_cell(out, (yield load(buf, offsets=(T - 1) - iota(T))))

    _copy_like(
        "ptr_attr_lut_scratch_f32",
        looked_up,
        [I32],
        F32,
        lambda x: _LUT[x & 15].reshape(-1, T)[:, ::-1].reshape(-1),
        [lambda r: r.integers(0, 1000, N).astype(np.int32), lambda r: np.zeros(N, np.float32)],
        "a lookup through a global's address and a reversal through a scratch buffer, "
        "both addresses with ptr_attr<none> (get_global, alloca)",
    )


# ----------------------------------------------------------------------------- scratch


def _scratch_kernels() -> None:
    for in_global in (False, True):

        def body(x, out, in_global=in_global):
            t = yield load_cell(x)
            buf = yield scratch(F32, T, global_memory=in_global)
            yield store(buf, 0, t)
            yield store_cell(out, (yield load(buf, offsets=(T - 1) - iota(T))))

        where = "global memory" if in_global else "the block's scratch"
        _copy_like(
            f"scratch_reverse{'_global' if in_global else ''}",
            body,
            [F32],
            F32,
            lambda x: x.reshape(-1, T)[:, ::-1].reshape(-1),
            [lambda r: uniform()(r, N, np.float32), lambda r: np.zeros(N, np.float32)],
            f"each cell reversed through a buffer in {where} (alloca)",
        )


# ----------------------------------------------------------------------------- globals

_LUT = np.array([(-1.0) ** i * i * 0.5 for i in range(16)], dtype=np.float32)
_SQUARES = np.arange(64, dtype=np.int32) ** 2


def _global_kernels() -> None:
    table = global_constant("lut16", _LUT)

    def lut(x, out):
        i = yield load_cell(x)
        yield store_cell(out, (yield load(table, offsets=i & 15)))

    _copy_like(
        "lut_f32",
        lut,
        [I32],
        F32,
        lambda x: _LUT[x & 15],
        [lambda r: r.integers(0, 1000, N).astype(np.int32), lambda r: np.zeros(N, np.float32)],
        "a 16-entry lookup table in a module-level constant array (global, get_global)",
    )

    squares = global_constant("squares", _SQUARES, private=True)

    def sq(x, out):
        i = yield load_cell(x)
        yield store_cell(out, (yield load(global_pointer(squares), offsets=i & 63)) + i)

    _copy_like(
        "lut_private_i32",
        sq,
        [I32],
        I32,
        lambda x: _SQUARES[x & 63] + x,
        [lambda r: r.integers(0, 1000, N).astype(np.int32), lambda r: np.zeros(N, np.int32)],
        "i + (i mod 64)^2 from a private constant global read through its address",
    )

    weights = global_array("weights", np.linspace(-1, 1, 128).astype(np.float32))

    def scale(x, out):
        t = yield load_cell(x)
        w = yield load(weights, 0, [T])
        yield store_cell(out, t * w)

    _copy_like(
        "global_weights_f32",
        scale,
        [F32],
        F32,
        lambda x: (x.reshape(-1, T) * np.linspace(-1, 1, 128).astype(np.float32)).reshape(-1),
        [lambda r: uniform()(r, N, np.float32), lambda r: np.zeros(N, np.float32)],
        "each cell scaled by a 128-entry writable (non-constant) global, only read",
    )


# ----------------------------------------------------------------------------- raw bytes


def _byte_kernels() -> None:
    def to_bytes(x, out):
        t = yield load_cell(x)  # [128] f32
        yield store(out, block_id(0) * (4 * T), pack(t))

    def build_pack():
        return trace("pack_f32", to_bytes, In(F32, cells([N], [T])), Shared(I8))

    make(
        "pack_f32",
        build_pack,
        lambda a: [a[0], a[0].view(np.int8).copy()],
        lambda r: ([uniform()(r, N, np.float32), np.zeros(4 * N, np.int8)], (N // T,)),
        None,
        "memory",
        "each cell of f32 values as its raw little-endian bytes (pack)",
    )

    def from_bytes(x, out):
        raw = yield load_cell(x)  # [256] i8
        yield store_cell(out, unpack(raw, F16))

    _copy_like(
        "unpack_f16",
        from_bytes,
        [In(I8, cells([2 * N], [2 * T]))],
        F16,
        lambda x: x.view(np.float16),
        [
            lambda r: uniform()(r, N, np.float16).view(np.int8).copy(),
            lambda r: np.zeros(N, np.float16),
        ],
        "bytes read as f16 values, 256 bytes to 128 values a block (unpack)",
    )


# ----------------------------------------------------------------------------- dynamic extents


def _dyn_kernels() -> None:
    def mean_scale(x, out):
        t = yield load_cell(x)
        n = extent(x, 0).to(F32)
        yield store_cell(out, t / n)

    def build_mean():
        g = cells([DYN_DIM], [T])
        return trace("dyn_div_by_length", mean_scale, In(F32, g), Out(F32, g))

    # a DYN_DIM extent along the grid is whole cells: 8 blocks of 128 make 1024
    make(
        "dyn_div_by_length",
        build_mean,
        lambda a: [a[0], (a[0] / np.float32(a[0].size)).astype(np.float32)],
        lambda r: ([uniform()(r, 1024, np.float32), np.zeros(1024, np.float32)], (8,)),
        None,
        "memory",
        "x / len(x) with the length a DYN_DIM set by the launch's grid (get_tensor_shape)",
    )

    def counts(x, out):
        t = yield load_cell(x)
        yield store_cell(out, t * cells_along(x, 0) + num_blocks(0) * 1000 + block_id(0))

    def build_counts():
        g = cells([DYN_DIM], [T])
        return trace("dyn_cells_blocks", counts, In(I32, g), Out(I32, g))

    def counts_ref(a):
        x, out = a
        blocks = x.size // T
        return [x, (x * blocks + blocks * 1000 + np.arange(x.size) // T).astype(np.int32)]

    make(
        "dyn_cells_blocks",
        build_counts,
        counts_ref,
        lambda r: ([r.integers(-100, 100, 768).astype(np.int32), np.zeros(768, np.int32)], (6,)),
        None,
        "memory",
        "x * cells + 1000 * blocks + block id with a DYN_DIM extent (get_index_space_shape, "
        "get_num_tile_blocks)",
    )


# ----------------------------------------------------------------------------- hints, promises


def _access_kernels() -> None:
    gens = [lambda r: uniform()(r, N, np.float32), lambda r: np.zeros(N, np.float32)]

    def hinted(x, out):
        t = yield load_cell(x, latency=4, allow_tma=True)
        yield store_cell(out, t + 1.0, latency=2)

    _copy_like(
        "hints_view_f32",
        hinted,
        [F32],
        F32,
        lambda x: x + np.float32(1),
        gens,
        "x + 1 with load and store hints (latency, allow_tma) and entry hints for every target",
        hints={"num_cta_in_cga": 1, "occupancy": 2, "num_worker_warps_per_cta": 4},
    )

    def hinted_ptr(x, out):
        t = yield load(x, block_id(0) * T, [T], latency=3)
        yield store(out, block_id(0) * T, t * 2.0, latency=1)

    def build_ptr():
        return trace(
            "hints_ptr_f32",
            hinted_ptr,
            Shared(F32),
            Shared(F32),
            hints={"sm_90": {"occupancy": 2}, "sm_100": {"num_cta_in_cga": 2}},
        )

    make(
        "hints_ptr_f32",
        build_ptr,
        lambda a: [a[0], a[0] * np.float32(2)],
        lambda r: ([uniform()(r, N, np.float32), np.zeros(N, np.float32)], (N // T,)),
        None,
        "memory",
        "2x through the pointer path with latency hints, and entry hints "
        "for sm_90 and sm_100 only",
    )

    def promised(x, out):
        t = yield load_cell(x, inbounds=True)
        yield store_cell(out, t - 0.5, inbounds=True)

    _copy_like(
        "inbounds_f32",
        promised,
        [F32],
        F32,
        lambda x: x - np.float32(0.5),
        gens,
        "x - 0.5 with every access promised in bounds (inbounds, 13.4)",
    )

    def ordered(x, out):
        t = yield load_cell(x, ordering="acquire", scope="device")
        yield store_cell(out, -t, ordering="release", scope="sys")

    _copy_like(
        "ordered_f32",
        ordered,
        [F32],
        F32,
        lambda x: -x,
        gens,
        "-x with an acquire load (device scope) and a release store (system scope)",
    )

    def relaxed(x, out):
        t = yield load_cell(x, ordering="relaxed", scope="tl_blk")
        yield store_cell(out, t * t, ordering="relaxed", scope="tl_blk")

    _copy_like(
        "relaxed_block_f32",
        relaxed,
        [F32],
        F32,
        lambda x: x * x,
        gens,
        "x^2 with relaxed accesses scoped to the tile block",
    )


_ptr_kernels()
_ptr_attr_kernels()
_scratch_kernels()
_global_kernels()
_byte_kernels()
_dyn_kernels()
_access_kernels()
