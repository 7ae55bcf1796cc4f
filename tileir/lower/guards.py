"""The checked lowering: no pointer-path access leaves its buffer, on either device.

Why this design.  A tensor view carries its buffer's shape, so the GPU itself
keeps a view access inside the buffer (padding, or ``inbounds`` promises the
launch checks back).  A pointer-path access (``load_ptr_tko``, ``store_ptr_tko``,
``atomic_rmw_tko``, ``atomic_cas_tko``) carries only addresses: the GPU would
write wherever a lane points, and the host cannot know runtime offsets before
the launch.  So the check goes where the offsets are known, into the kernel:

* every buffer parameter the pointer path reaches (the *guarded* parameters,
  :func:`guarded_params`) gets its element count as an extra ``tile<i64>`` entry
  parameter, after the DYN_DIM extents (:mod:`tileir.record.convention`); the
  host fills it from the allocation itself, never from a field a user set;
* before each pointer-path access the lowering emits the lanes' check and the
  dialect's ``assert`` (docs/dialect.md, ``assert``): a lane whose mask holds
  must address a whole element inside one of the buffers its pointers are built
  from (the parameters, globals and scratch buffers the pointer expression
  starts at; with ``offsets`` on a parameter, ``0 <= offset < count``).  An
  offending lane traps with a message naming the kernel, the op, the buffer and
  the user's source line; the fake device runs the same module, so its verdict
  is the same ``assert`` (an InterpretError naming the op and the line);
* a constant offset tile on a parameter that is negative is refused while
  tracing, and one past the buffer is refused at launch
  (:func:`static_reach`, checked by :func:`tileir.host.launch.check_launch`);
* a pointer expression that starts at nothing the lowering can bound (an
  ``int_to_ptr`` of a number, a pointer carried through a loop) is refused while
  tracing, with the way out named: ``trace(..., checked=False)``, which emits no
  guard and no count parameters, for users who prove their bounds themselves.

Why a trap rather than clamping or masking the lane: a silent fix would hide the
bug and give the two devices different answers; the trap stops the launch on a
GPU exactly where the fake device stops, and names the same op and line.
"""

from __future__ import annotations

import functools
from pathlib import PurePath
from typing import TYPE_CHECKING, Iterator, Optional, Sequence, Union

import numpy as np

from tileir.errors import LoweringError
from tileir.ir.attrmap import AttrMap
from tileir.ir.memo import memo_table, remember
from tileir.ir.module import EMPTY_ATTRS, Loc, clean_attrs, freeze_attrs
from tileir.ir.numerics import dense_array, dense_of
from tileir.record.program import (
    Atomic,
    AtomicCas,
    LoadPtr,
    Program,
    StorePtr,
    walk_instructions,
)
from tileir.record.tile import Tile, drop_defaults, make_tile, widen_pair
from tileir.types import I1, I64, Format, PointerType, TileType, canonical_tile_type

if TYPE_CHECKING:
    from tileir.lower.walk import Walk
else:
    Walk = object

__all__ = [
    "PointerInstr",
    "GuardedAccess",
    "guarded_params",
    "static_reach",
    "pointer_accesses",
    "OP_NAMES",
]

#: the pointer-path instructions the guards check
PointerInstr = Union[LoadPtr, StorePtr, Atomic, AtomicCas]
PointerAccess = (LoadPtr, StorePtr, Atomic, AtomicCas)

#: the dialect op each pointer-path instruction lowers to (named in the guard's message)
OP_NAMES = {
    LoadPtr: "load_ptr_tko",
    StorePtr: "store_ptr_tko",
    Atomic: "atomic_rmw_tko",
    AtomicCas: "atomic_cas_tko",
}


def pointer_accesses(program: Program) -> Iterator[PointerInstr]:
    """Every pointer-path load, store and atomic of ``program``, nested bodies included."""
    return (ins for ins in walk_instructions(program.body) if isinstance(ins, PointerAccess))


def _addresses_in(t: Tile) -> list[Tile]:
    """The pointer tiles whose ``ptr_to_int`` the integer expression ``t`` uses."""
    out: list[Tile] = []
    seen: set[int] = set()
    stack = [t]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if x.op == "ptr_to_int":
            out.extend(a for a in x.args if isinstance(a, Tile))
            continue
        stack.extend(a for a in x.args if isinstance(a, Tile))
    return out


def _leaves(t: Tile) -> list[Tile]:
    """The pointer-typed tiles with no pointer operand that ``t`` is built from (parameters'
    addresses, globals, scratch buffers, or pointers made of numbers).  An ``int_to_ptr``
    of arithmetic on ``ptr_to_int`` addresses is built from those addresses' pointers."""
    out: list[Tile] = []
    seen: set[int] = set()
    stack = [t]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if not isinstance(x.format, PointerType):
            continue
        sources = [a for a in x.args if isinstance(a, Tile) and isinstance(a.format, PointerType)]
        if x.op == "int_to_ptr":
            sources = [a for a in x.args if isinstance(a, Tile) for a in _addresses_in(a)]
        if not sources:
            out.append(x)
        stack.extend(sources)
    return out


def guarded_params(program: Program) -> tuple[int, ...]:
    """The buffer parameters whose element count the checked entry takes (in order): every
    one a pointer-path access addresses; none when the program is unchecked."""
    if not program.checked:
        return ()
    found: set[int] = set()
    for ins in walk_instructions(program.body):
        # (pointer_accesses' filter, inlined: every checked lowering asks, and its generator
        # is one more code object to fetch when the caches are cold)
        if not isinstance(ins, PointerAccess):
            continue
        base = ins.param
        if isinstance(base, int):
            found.add(base)
            continue
        for leaf in _leaves(base):
            if leaf.op == "ptr_param":
                found.add(int(leaf.attrs["index"]))
    # (sorted only when there is an order to make: most kernels guard one buffer or none, and
    # the sort is C code no other step of a recording runs)
    return tuple(sorted(found)) if len(found) > 1 else tuple(found)


def _constant_offsets(offsets: Optional[Tile]) -> Optional[np.ndarray]:
    if offsets is None or offsets.op != "constant":
        return None
    return np.asarray(dense_array(offsets.attrs["value"]), dtype=object).reshape(-1)


def static_reach(program: Program) -> tuple[tuple[int, int, str], ...]:
    """``(parameter, elements needed, where)`` of every checked, unmasked access at constant
    offsets of a parameter: the launch refuses a buffer shorter than that."""
    if not program.checked:
        return ()
    out = []
    for ins in pointer_accesses(program):
        base = ins.param
        values = _constant_offsets(ins.offsets)
        # (under a mask a lane may never run: its guard decides at run time)
        if isinstance(base, int) and ins.mask is None and values is not None and values.size:
            where = f"{OP_NAMES[type(ins)]} at {ins.loc}" if ins.loc else OP_NAMES[type(ins)]
            out.append((base, int(max(values)) + 1, where))
    return tuple(out)


def _i64(n: int) -> Tile:
    """The rank-0 i64 constant ``n`` (no location), made once per value: every guard uses a
    few of the same small ones."""
    found = _I64_CONSTANTS.get(n)
    if found is None:
        ttype = canonical_tile_type((), I64)
        found = remember(
            _I64_CONSTANTS, n, Tile("constant", (), {"value": dense_of(ttype, n)}, ttype), 1024
        )
    return found


_I64_CONSTANTS: dict[int, Tile] = memo_table("lower.guards: i64 constants")


def _count_param(position: int) -> Tile:
    """The rank-0 i64 entry parameter at ``position`` (a buffer's element count; no
    location), made once per position."""
    found = _COUNTS.get(position)
    if found is None:
        count = Tile("param", (), {"index": position}, canonical_tile_type((), I64))
        found = remember(_COUNTS, position, count, 1024)
    return found


_COUNTS: dict[int, Tile] = memo_table("lower.guards: count parameters")


#: the guard's constant attribute maps (made once: a dict given to a Tile is frozen again on
#: every call)
_SIGNED = freeze_attrs({"signedness": "signed"})


@functools.cache
def _true() -> Tile:
    """The rank-0 i1 ``true`` a lane's mask is negated with, made on first use (a dense
    constant's bits come from tileir.ir.numerics, which loads ml_dtypes: `tileir render`
    should not pay for that at import)."""
    return Tile("constant", (), {"value": dense_of(TileType((), I1), 1)}, TileType((), I1))


def _to_i64(t: Tile) -> Tile:
    fmt = t.format
    assert isinstance(fmt, Format) and fmt.is_int  # offsets are integers (the recorder's)
    if fmt == I64:
        return t
    return make_tile("exti", (t,), _SIGNED, t.type.with_element(I64), t.loc)


def _address(p: Tile) -> Tile:
    return make_tile("ptr_to_int", (p,), EMPTY_ATTRS, p.type.with_element(I64), p.loc)


def _pair(op: str, a: Tile, b: Tile) -> tuple[Tile, Tile]:
    """``widen_pair(op, a, b)``: the two as they are when their shapes agree, and ``b``'s
    widening memoized when ``b`` is a leaf without a location (the guard's own constants and
    counts: then the widened tile is a function of ``b``'s value and the shape alone)."""
    if a.type.shape == b.type.shape:
        return a, b
    if b.args or b.loc is not None:
        return widen_pair(op, a, b)
    key = (b, a.type.shape)
    wide = _WIDENED.get(key)
    if wide is None:
        wa, wide = widen_pair(op, a, b)
        if wa is not a:  # (b the wider: not a guard's case, and not memoized)
            return wa, wide
        remember(_WIDENED, key, wide, 1024)
    return a, wide


#: (a leaf tile without a location, a shape) -> the leaf widened to that shape, as
#: widen_pair widens it
_WIDENED: dict[tuple[Tile, tuple[int, ...]], Tile] = memo_table(
    "lower.guards: a constant widened to a shape"
)


def _cmp_attrs(pred: str) -> AttrMap:
    """The attributes of a signed ``cmpi`` by ``pred``, as a tile keeps them (made once per
    predicate)."""
    found = _CMP_ATTRS.get(pred)
    if found is None:
        attrs = drop_defaults("cmpi", {"comparison_predicate": pred, "signedness": "signed"})
        found = remember(_CMP_ATTRS, pred, freeze_attrs(attrs), 64)
    return found


_CMP_ATTRS: dict[str, AttrMap] = memo_table("lower.guards: a signed comparison's attributes")


def _cmp(pred: str, a: Tile, b: Tile) -> Tile:
    a, b = _pair("cmpi", a, b)
    return make_tile("cmpi", (a, b), _cmp_attrs(pred), a.type.with_element(I1), a.loc)


def _and(a: Tile, b: Tile) -> Tile:
    a, b = _pair("andi", a, b)
    return make_tile("andi", (a, b), EMPTY_ATTRS, a.type, a.loc)


def _or(a: Tile, b: Tile) -> Tile:
    a, b = _pair("ori", a, b)
    return make_tile("ori", (a, b), EMPTY_ATTRS, a.type, a.loc)


def _not(a: Tile) -> Tile:
    a, t = _pair("xori", a, _true())
    return make_tile("xori", (a, t), EMPTY_ATTRS, a.type, a.loc)


def _within(addr: Tile, base: Tile, nbytes: Tile, esize: int) -> Tile:
    """Lanes of ``addr`` (i64 byte addresses) holding a whole element in the ``nbytes`` bytes
    from ``base``'s address: ``0 <= addr - base <= nbytes - esize``."""
    d = make_tile("subi", _pair("subi", addr, _address(base)), EMPTY_ATTRS, addr.type, addr.loc)
    last = make_tile("subi", (nbytes, _i64(esize)), EMPTY_ATTRS, nbytes.type, addr.loc)
    return _and(_cmp("greater_than_or_equal", d, _i64(0)), _cmp("less_than_or_equal", d, last))


class GuardedAccess(Walk):
    """The guard before each pointer-path access (mixed into the lowering; see the module
    docstring).  ``count_index`` maps a guarded parameter to its count's entry position;
    ``scratch`` maps a scratch buffer's result id to its element count."""

    count_index: dict[int, int]
    scratch: dict[int, int]

    def _count(self, index: int) -> Tile:
        return _count_param(self.count_index[index])

    def _region(self, leaf: Tile, loc: Optional[Loc], op: str) -> tuple[Tile, Tile]:
        """A pointer leaf's buffer: its start (a rank-0 pointer tile) and size in bytes, in the
        leaf's own element format (an access may read it through ``ptr_to_ptr`` as another)."""
        own = leaf.format
        assert isinstance(own, PointerType)  # (a leaf is a pointer tile)
        if own.pointee.bits % 8:
            raise LoweringError(
                f"the checked lowering bounds whole bytes, and this access's pointers start at "
                f"a buffer of {own.pointee}; trace the kernel with checked=False if its bounds "
                f"are proven otherwise",
                op=op,
                where=str(loc) if loc else None,
            )
        size = own.pointee.bits // 8
        if leaf.op == "ptr_param":
            index = int(leaf.attrs["index"])
            count = self._count(index)
            return leaf, make_tile("muli", (count, _i64(size)), EMPTY_ATTRS, count.type, leaf.loc)
        if leaf.op == "get_global":
            n = int(np.asarray(dense_array(leaf.attrs["global"].value)).size)
            return leaf, _i64(n * size)
        if leaf.op == "var" and int(leaf.attrs["id"]) in self.scratch and leaf.rank == 0:
            return leaf, _i64(self.scratch[int(leaf.attrs["id"])] * size)
        raise LoweringError(
            f"the checked lowering cannot bound this access: its pointers start at a "
            f"`{leaf.op}` ({leaf.type}), not at a parameter, a global or a scratch buffer; "
            f"trace the kernel with checked=False if its bounds are proven otherwise",
            op=op,
            where=str(loc) if loc else None,
        )

    def guard(self, ins: PointerInstr) -> None:
        """Emit the bounds check and ``assert`` for pointer-path instruction ``ins``."""
        if not self.program.checked:
            return
        ok, attrs, ptrs = self._plan_guard(ins)
        loc = ins.loc
        if ptrs is not None:
            # the very pointers the access uses (one offset op, not two)
            self.bind(ptrs, self.pointers(ins.param, ins.offsets, loc))
        self.emit_exact("assert", (self.value(ok),), (), attrs, None, loc)

    def _plan_guard(self, ins: PointerInstr) -> _GuardPlan:
        """The guard of ``ins`` as tiles: the lanes that are inside (``ok``), the ``assert``'s
        attributes, and the tile of the pointers the access uses when the guard must bind
        them to the access's own (None for a parameter's offsets)."""
        op = OP_NAMES[type(ins)]
        loc = ins.loc
        base = ins.param
        offsets: Optional[Tile] = ins.offsets
        mask: Optional[Tile] = ins.mask
        params = self.program.params
        bound: Optional[Tile] = None
        if isinstance(base, int):
            assert offsets is not None  # a parameter is addressed through offsets
            values = _constant_offsets(offsets)
            if mask is None and values is not None and values.size and int(min(values)) < 0:
                raise LoweringError(
                    f"offset {int(min(values))} of argument {base} ({params[base].role}) is "
                    f"before the buffer's start",
                    op=op,
                    where=str(loc) if loc else None,
                )
            off = _to_i64(offsets)
            ok = _and(
                _cmp("greater_than_or_equal", off, _i64(0)),
                _cmp("less_than", off, self._count(base)),
            )
            # the assert's attributes by what names them: a kernel recorded again has the
            # same shared Loc, so its message is not made again
            key = (self.program.name, op, base, params[base].role, id(loc))
            known = _PARAM_GUARD_ATTRS.get(key)
            if known is None or known[0] is not loc:
                what = f"argument {base} ({params[base].role})"
                attrs = _guard_attrs(self.program.name, op, what, loc)
                known = remember(_PARAM_GUARD_ATTRS, key, (loc, attrs), 1024)
            attrs = known[1]
        else:
            ptrs = base
            if offsets is not None:
                p, o = _pair("offset", base, offsets)
                ptrs = bound = make_tile("offset", (p, o), EMPTY_ATTRS, p.type, loc)
            pointer = ptrs.format
            assert isinstance(pointer, PointerType)  # the recorder's pointer path
            pointee = pointer.pointee
            addr = _address(ptrs)
            found: Optional[Tile] = None
            names = []
            for leaf in sorted(_leaves(base), key=_leaf_order):
                start, nbytes = self._region(leaf, loc, op)
                inside = _within(addr, start, nbytes, max(1, pointee.bits // 8))
                found = inside if found is None else _or(found, inside)
                names.append(_leaf_name(leaf, params))
            assert found is not None  # a pointer tile has at least one pointer leaf
            ok = found
            attrs = _guard_attrs(self.program.name, op, " or ".join(names), loc)
        if mask is not None:
            ok = _or(ok, _not(mask))
        return ok, attrs, bound


def _guard_attrs(kernel: str, op: str, what: str, loc: Optional[Loc]) -> AttrMap:
    """The attributes of the ``assert`` of a guard of ``op`` in ``kernel`` at ``loc``, whose
    lanes address ``what``."""
    message = f"kernel `{kernel}`: `{op}`: a lane addresses memory outside {what}"
    if loc is not None:
        # the file's name, not its path: the module (and its pinned bytes) must not depend
        # on where the checkout lives; the op's own loc keeps the full path
        message += f" (at {_file_name(loc.file)}:{loc.line})"
    return _assert_attrs(message)


# (kernel, op, parameter, its role, id(loc)) -> (the loc, the assert attributes of the guard
# of that parameter's access): a memo of a pure function of those values (the entry keeps
# the Loc, so its id names no other meanwhile)
_PARAM_GUARD_ATTRS: dict[tuple, tuple] = memo_table("lower.guards: parameter guards' asserts")


def _assert_attrs(message: str) -> AttrMap:
    """The attributes of the ``assert`` of ``message``, as the op keeps them, made once per
    message (a kernel recorded again writes the same ones; one probe, not freeze_attrs' key
    and clean_attrs' probe)."""
    found = _ASSERT_ATTRS.get(message)
    if found is None:
        attrs = clean_attrs("assert", freeze_attrs({"message": message}))
        found = remember(_ASSERT_ATTRS, message, attrs, 1024)
    return found


_ASSERT_ATTRS: dict[str, AttrMap] = memo_table("lower.guards: a guard's assert attributes")


#: a guard as tiles: the lanes inside, the assert's attributes, the pointers to bind (or None)
_GuardPlan = tuple[Tile, AttrMap, Optional[Tile]]


def _file_name(path: str) -> str:
    """``PurePath(path).name``, made once per file (a PurePath costs microseconds, and every
    guard of a kernel names the same file)."""
    name = _FILE_NAMES.get(path)
    if name is None:
        name = remember(_FILE_NAMES, path, PurePath(path).name, 1024)
    return name


_FILE_NAMES: dict[str, str] = memo_table("lower.guards: a source file's name")


def _leaf_order(leaf: Tile) -> tuple:
    return (
        leaf.op,
        str(leaf.attrs.get("index", leaf.attrs.get("id", leaf.attrs.get("name", "")))),
    )


def _leaf_name(leaf: Tile, params: Sequence) -> str:
    if leaf.op == "ptr_param":
        index = int(leaf.attrs["index"])
        return f"argument {index} ({params[index].role})"
    if leaf.op == "get_global":
        return f"@{leaf.attrs['global'].name}"
    return "its scratch buffer"
