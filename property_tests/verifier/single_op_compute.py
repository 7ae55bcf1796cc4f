"""Families of ``test_verify_vs_tileirdisasm`` for tile arithmetic: element-wise ops,
comparisons, conversions (pointer casts too), shape ops, ``mma*`` and ``assume``."""

from __future__ import annotations

from hypothesis import strategies as st

from single_op_source import CONVERSIONS, DIMS, F_OPS, I_OPS, Src, T
from tileir.ir.module import Bounded, DivBy, SameElements
from tileir.ir.numerics import dense_of
from tileir.ir.signatures import SIGNATURES
from tileir.types import (
    F4E2M1FN,
    F8E4M3FN,
    F8E5M2,
    F8E8M0FNU,
    F16,
    F32,
    FNV8E5M3FNU,
    I1,
    I4,
    I8,
    I16,
    I32,
    I64,
    Format,
    PointerType,
)

__all__ = ["elementwise", "compare", "convert", "shape", "mma", "assume"]


def elementwise(s: Src) -> None:
    """A float or integer element-wise op (``fpowi`` too) on tiles of one shape."""
    name = s.draw(st.sampled_from(F_OPS + I_OPS + ["fpowi"]))
    float_op = name in F_OPS or name == "fpowi"
    t = T(s.shape(), s.fmt((F16, F32, s.fmt())) if float_op else s.fmt((I8, I32, s.fmt())))
    n = len(SIGNATURES[name].operands)
    types = [s.twist(t) for _ in range(n)]
    if name == "fpowi":
        types[1] = s.twist(t.with_element(s.fmt((I32, I8, s.fmt()))))
    s.op(name, [s.tile(u) for u in types], [s.twist(t)], **s.attrs(name))


def compare(s: Src) -> None:
    """``cmpf``, ``cmpi`` or ``select``."""
    name = s.draw(st.sampled_from(["cmpf", "cmpi", "select"]))
    t = T(s.shape(), s.fmt())
    if name == "select":
        cond = s.tile(s.twist(t.with_element(I1)))
        s.op("select", [cond, s.tile(s.twist(t)), s.tile(s.twist(t))], [s.twist(t)])
        return
    s.op(
        name,
        [s.tile(s.twist(t)), s.tile(s.twist(t))],
        [s.twist(t.with_element(I1))],
        **s.attrs(name, comparison_predicate="less_than", signedness="signed"),
    )


def convert(s: Src) -> None:
    """A conversion (``ftof`` .. ``bitcast``, pointer casts with or without a ptr_attr
    on either side) or ``pack`` / ``unpack``."""
    name = s.draw(st.sampled_from(CONVERSIONS + ["pack", "unpack"]))
    shape = s.shape()
    src, dst = s.fmt(), s.fmt()
    # a cast's pointers may carry a ptr_attr or not, whatever the other side has
    if name == "int_to_ptr":
        src, dst = s.fmt((I64, I64, s.fmt())), s.pointer()
    elif name == "ptr_to_int":
        src, dst = s.pointer(), s.fmt((I64, I64, s.fmt()))
    elif name == "ptr_to_ptr":
        src, dst = s.pointer(), s.pointer()
    elif name in ("pack", "unpack"):
        n = s.draw(st.sampled_from(DIMS))
        raw = T((n,), src)
        # the bytes the raw tile holds (tf32 takes 32 bits), now and then twice as many
        nbytes = max(1, n * src.bits // 8) * s.draw(st.sampled_from([1, 1, 1, 2]))
        packed = s.twist(T((nbytes,), I8))
        a, b = (raw, packed) if name == "pack" else (packed, raw)
        s.op(name, [s.tile(a)], [b])
        return
    s.op(name, [s.tile(T(shape, src))], [s.twist(T(shape, dst))], **s.attrs(name))


def shape(s: Src) -> None:
    """A shape op, ``iota`` or ``constant``."""
    name = s.draw(
        st.sampled_from("broadcast reshape permute cat extract insert iota constant".split())
    )
    fmt = s.fmt()
    shape = s.shape()
    if name == "iota":
        n = s.draw(st.sampled_from((1, 2, 4, 256, 512)))
        s.op("iota", [], [s.twist(T((n,), s.fmt((I1, I8, I16, I32, s.fmt()))))])
    elif name == "constant":
        t = T(shape, fmt)
        if fmt != I4:
            s.op("constant", [], [s.twist(t, 0.1)], value=dense_of(t, 1 if fmt.is_int else 1.0))
    elif name == "broadcast":
        src = T(tuple(1 if s.draw(st.booleans()) else d for d in shape), fmt)
        s.op("broadcast", [s.tile(s.twist(src))], [s.twist(T(shape, fmt))])
    elif name == "reshape":
        s.op("reshape", [s.tile(T(shape, fmt))], [s.twist(T(s.shape(), fmt))])
    elif name == "permute":
        perm = tuple(s.draw(st.permutations(range(len(shape)))))
        if s.draw(st.integers(0, 9)) == 0:
            perm = perm[:-1] + (0,) if perm else (0,)
        out = T(tuple(shape[i] for i in perm if 0 <= i < len(shape)), fmt)
        s.op("permute", [s.tile(T(shape, fmt))], [s.twist(out)], permutation=perm)
    elif name == "cat":
        dim = s.draw(st.integers(-1, max(0, len(shape))))
        out = T(tuple(2 * d if i == dim else d for i, d in enumerate(shape)), fmt)
        s.op(
            "cat", [s.tile(T(shape, fmt)), s.tile(s.twist(T(shape, fmt)))], [s.twist(out)], dim=dim
        )
    else:
        big = T(shape, fmt)
        small = T(tuple(max(1, d // s.draw(st.sampled_from([1, 2]))) for d in shape), fmt)
        small = s.twist(small)
        index = T((), s.fmt((I32, I32, I8, I64)))
        idx = [s.tile(index) for _ in range(len(shape) + s.draw(st.sampled_from([0, 0, 0, 1])))]
        if name == "extract":
            s.op("extract", [s.tile(big)] + idx, [small])
        else:
            s.op("insert", [s.tile(small), s.tile(big)] + idx, [s.twist(big)])


def mma(s: Src) -> None:
    """``mmaf``, ``mmai`` or ``mmaf_scaled`` with drawn sizes, maybe batched."""
    name = s.draw(st.sampled_from(["mmaf", "mmai", "mmaf_scaled"]))
    m, n, k = (s.draw(st.sampled_from((8, 16, 32, 64))) for _ in range(3))
    batch = s.draw(st.sampled_from([(), (), (2,)]))
    if name == "mmai":
        a, acc = I8, I32
    elif name == "mmaf":
        a, acc = s.fmt((F16, F32, F8E4M3FN, s.fmt())), s.fmt((F16, F32, s.fmt()))
    else:
        a, acc = s.fmt((F8E4M3FN, F8E5M2, F4E2M1FN)), F32
    ops = [T(batch + (m, k), a), s.twist(T(batch + (k, n), a)), s.twist(T(batch + (m, n), acc))]
    if name == "mmaf_scaled":
        scale = s.fmt((F8E8M0FNU, F8E4M3FN, FNV8E5M3FNU))
        block = s.draw(st.sampled_from((8, 16, 32, 64)))
        ks = max(1, k // block)
        ops += [T(batch + (m, ks), scale), s.twist(T(batch + (ks, n), scale))]
    attrs = s.attrs(name) if name != "mmaf_scaled" else {}
    s.op(name, [s.tile(t) for t in ops], [s.twist(ops[2])], **attrs)


def assume(s: Src) -> None:
    """``assume`` of a div_by, same_elements or bounded predicate (bounds at the edges
    of the value's range and past them)."""
    kind = s.draw(st.sampled_from(["div_by", "same_elements", "bounded"]))
    elem = s.draw(st.sampled_from([s.fmt(), I32, PointerType(F32, s.ptr_attr())]))
    t = T(s.shape(), elem)
    value = s.tile(t)
    if kind == "div_by":
        every = s.draw(st.sampled_from([None, None, -1, 0, 1, 2, 3, 4, 8, 16]))
        along = None if every is None else s.draw(st.integers(-1, 3))
        pred = DivBy(s.draw(st.sampled_from([1, 2, 3, 16, 1 << 62, 1 << 63])), every, along)
    elif kind == "same_elements":
        pred = SameElements(
            tuple(
                s.draw(
                    st.lists(
                        st.integers(-1, 9),
                        min_size=t.rank,
                        max_size=t.rank + s.draw(st.integers(0, 1)),
                    )
                )
            )
        )
    else:
        bits = elem.bits if isinstance(elem, Format) else 64
        edge = st.sampled_from(
            [
                0,
                1,
                -1,
                (1 << (bits - 1)) - 1,
                -(1 << (bits - 1)),
                1 << (bits - 1),
                -(1 << (bits - 1)) - 1,
                100,
            ]
        )
        pred = Bounded(s.draw(st.none() | edge), s.draw(st.none() | edge))
    s.op("assume", [value], [s.twist(t, 0.05)], predicate=pred)
