"""The Type table: our types as tagged entries, per bytecode version, and back.

Each entry is a varint tag and a payload; entries refer to other entries by
index.  The writer interns dependencies first; the reader is lazy (as NVIDIA's
is) so a table's order is free, and it refuses cycles and dangling indices.

>>> from tileir.types import TileType, F32
>>> t = TypeTable((13, 4))
>>> t.index(TileType((4,), F32))
1
>>> [e.hex() for e in t.entries]
['07', '0d00010400000000000000']
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, TypeVar, overload

from tileir.encode.wire import Sink, Source, leb128
from tileir.errors import EncodeError
from tileir.ir.dialect import VERSIONS, version_text
from tileir.ir.memo import memo_table, register_memo, remember
from tileir.types import (
    FORMATS,
    PADDING_VALUES,
    PTR_ATTR_SINCE,
    PTR_ATTRS,
    TOKEN,
    Format,
    FunctionType,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
    TokenType,
    Type,
)

__all__ = ["TypeTable", "TypeReader", "FORMAT_TAG", "type_since"]

_T = TypeVar("_T")
_U = TypeVar("_U")

#: element format name -> type tag
FORMAT_TAG: dict[str, int] = {
    "i1": 0,
    "i8": 1,
    "i16": 2,
    "i32": 3,
    "i64": 4,
    "f16": 5,
    "bf16": 6,
    "f32": 7,
    "tf32": 8,
    "f64": 9,
    "f8E4M3FN": 10,
    "f8E5M2": 11,
    "f8E8M0FNU": 18,
    "f4E2M1FN": 19,
    "i4": 22,
    "fnv8E5M3FNU": 130,
}
_FORMAT_BY_TAG = {tag: f for f in FORMATS for name, tag in FORMAT_TAG.items() if f.name == name}
_PTR, _TILE, _TVIEW, _PVIEW, _FUNC, _TOKEN, _GSVIEW, _SVIEW = 12, 13, 14, 15, 16, 17, 20, 21

#: The dynamic (``?``) entry of a tensor view's shape or strides.
_DYNAMIC = -(1 << 63)
_V2, _V3, _V4 = (13, 2), (13, 3), (13, 4)


def type_since(t: Type) -> tuple[int, int]:
    """The first bytecode version that can hold type ``t`` itself (not its parts)."""
    if isinstance(t, Format):
        return t.since
    if isinstance(t, (GatherScatterViewType, StridedViewType)):
        return _V3
    if isinstance(t, PointerType) and t.attr is not None:
        return PTR_ATTR_SINCE[t.attr]
    if isinstance(t, TensorViewType) and t.ptr_attr is not None:
        return PTR_ATTR_SINCE[t.ptr_attr]
    return (13, 1)


def _padding_code(padding) -> int:
    return PADDING_VALUES.index(padding)


# version -> {a type's value (see TypeTable.index) -> the bytes of its entry}: memos of a pure
# function of immutable values (the parts in a value are entry indices, and an entry refers to
# its parts by index only)
_ENTRIES: dict[tuple[int, int], dict] = {
    v: memo_table(f"encode.typecodec: type entries of {version_text(v)}") for v in VERSIONS
}


# version -> {id(type object) -> (the object, its one part or None, the entry's bytes: for a
# type without parts the bytes, else {the part's index: the bytes})}: the entries of the type
# objects earlier files held, found by identity (the shared canonical types come back file
# after file); a memo of a pure function of immutable values (the object itself is kept, so
# its id names no other meanwhile)
_OBJECT_ENTRIES: dict[tuple[int, int], dict] = {
    v: memo_table(f"encode.typecodec: type objects' entries of {version_text(v)}")
    for v in VERSIONS
}
_PART_INDICES = 16  # the most part indices kept per type object


class _Trails:
    """The first uses of type objects by earlier files, as trails: a file's Type table is
    a pure function of the type objects it is asked for, in order (a type object asked
    for again finds its index at once), and a kernel recorded again asks for the same
    shared objects in the same order.  So each first use is kept as a step from the node
    the file stood at, keyed by the object's id: the index it got, the file's entries and
    ``by_id`` as they stood after it (copies), the next node, the objects it added, and the
    step before it.  A later file on the same trail replays a step by taking those two as
    its own (four stores: nothing is copied or grown on the way, where adding each step's
    entries made new memory to write after every collection), and copies them when it
    leaves the trail, before it adds to them; from there it goes the usual way.

    A memo of a pure function of immutable values: each step holds the objects it added and
    the step before it, so an id in its ``by_id`` names no other object meanwhile.  Bounded:
    at ``_MAX_STEPS`` steps, or ``_MAX_HELD`` ``by_id`` entries over all the steps' copies,
    every trail starts afresh."""

    __slots__ = ("roots", "steps", "held")

    def __init__(self) -> None:
        self.roots: dict[tuple[int, int], dict] = {v: {} for v in VERSIONS}
        self.steps = 0
        self.held = 0  # the by_id entries of every step's copy

    def clear(self) -> None:
        for root in self.roots.values():
            root.clear()
        self.steps = 0
        self.held = 0

    def __len__(self) -> int:
        return self.steps

    def step(
        self, node: dict, key: object, found: int, table: "TypeTable", n_kept: int, held: tuple
    ) -> dict:
        """Keep at ``node`` where ``table`` stands after answering ``found`` under ``key``
        (the objects it kept from ``n_kept`` on are this step's; ``held``: objects the key
        names besides those); the next node."""
        if self.steps >= _MAX_STEPS or self.held >= _MAX_HELD:
            self.clear()
        child: dict = {}
        step = (
            found,
            list(table.entries),
            dict(table.by_id),
            child,
            (*table._kept[n_kept:], *held),
            table._at,
        )
        node[key] = step
        table._at = step
        self.steps += 1
        self.held += len(step[2])
        return child


_MAX_STEPS = 1 << 14
_MAX_HELD = 1 << 17
_TRAILS = register_memo("encode.typecodec: first-use trails", _Trails())


class TypeTable:
    """Interns types for one file of ``version``: ``index(t)`` is its entry number."""

    __slots__ = (
        "version", "entries", "_ids", "_values", "by_id", "_kept", "_memo", "_objects", "_trail",
        "_at",
    )  # fmt: skip

    def __init__(self, version: tuple[int, int]) -> None:
        self.version = version
        self.entries: list[bytes] = []
        self._ids: dict[bytes, int] = {}
        #: a type's value (see ``index``) -> its index
        self._values: dict[object, int] = {}
        #: id(type object) -> its index, for every type object asked for so far (most
        #: values come as many equal objects); ``_kept`` holds each of those this file
        #: interned itself for its lifetime (``_at`` the ones it replayed), so no id here can
        #: name another object
        self.by_id: dict[int, int] = {}
        self._kept: list[object] = []
        memo = _ENTRIES.get(version)
        self._memo: dict = memo if memo is not None else {}
        objects = _OBJECT_ENTRIES.get(version)
        self._objects: dict = objects if objects is not None else {}
        #: where this file stands on the trails of earlier files (see _Trails): the node of
        #: the first uses so far, or None once it has left them
        self._trail: Optional[dict] = _TRAILS.roots.get(version)
        #: the last step this file replayed or kept (it holds the steps before it, and so
        #: the objects whose ids their ``by_id`` copies hold); a replay's ``entries`` and
        #: ``by_id`` are that step's own, read only until ``_own`` copies them
        self._at: Optional[tuple] = None

    def index(self, type_: Type) -> int:
        by_id = self.by_id
        found = by_id.get(id(type_))
        if found is not None:
            return found
        node = self._trail
        if node is not None:
            step = node.get(id(type_))
            if step is None:
                return self._record(type_, node, id(type_))
            # an earlier file asked for this object at this point (the step holds the
            # object, so an equal id names the same object)
            return self._replay(step)
        return self._first_use(type_)

    def _replay(self, step: tuple) -> int:
        """Stand where an earlier file stood after ``step``: its entries and ``by_id`` (read
        only, until ``_own``); the index it answered."""
        self.entries, self.by_id, self._trail = step[1], step[2], step[3]
        self._at = step
        return step[0]

    def _own(self) -> None:
        """Copy the entries and ``by_id`` a replay shared, before this file adds to them."""
        at = self._at
        if at is not None and self.by_id is at[2]:
            self.entries = list(self.entries)
            self.by_id = dict(self.by_id)

    def _record(self, type_: Type, node: dict, key: object) -> int:
        """``index`` of a type this file asks for first at a trail's ``node`` that no earlier
        file asked for there: found the usual way, and what that did kept as a new step."""
        self._trail = None  # (the parts it interns on the way take the usual way too)
        self._own()
        self._sync()
        n_kept = len(self._kept)
        found = self._first_use(type_)
        self._trail = _TRAILS.step(node, key, found, self, n_kept, ())
        return found

    def _sync(self) -> None:
        """Make ``_ids`` whole again after steps that added entries without it (each such
        entry was new, so it is its own index)."""
        ids, entries = self._ids, self.entries
        for i in range(len(ids), len(entries)):
            ids[entries[i]] = i

    def _first_use(self, type_: Type) -> int:
        """``index`` of a type object this file has not asked for, by the memos."""
        by_id = self.by_id
        # an object an earlier file held: its entry by its part's index (no value to build)
        known = self._objects.get(id(type_))
        if known is not None and known[0] is type_:
            part, entry = known[1], known[2]
            if part is not None:
                i = by_id.get(id(part))
                entry = entry.get(self.index(part) if i is None else i)
            if entry is not None:
                found = self._ids.get(entry)
                if found is None:
                    found = self._ids[entry] = len(self.entries)
                    self.entries.append(entry)
                by_id[id(type_)] = found
                self._kept.append(type_)
                return found
        return self._intern(type_)

    def _intern(self, type_: Type) -> int:
        """``index`` of a type object this file has not asked for, found by its value."""
        t: Any = type_  # (its class is told apart by identity below, which mypy cannot follow)
        # The type's value: for the common classes a tuple of its fields with its parts by
        # their indices (it hashes and compares in C, where a type's own hash and equality
        # are Python calls), else the type itself.  Parts are interned first.
        cls = type(t)
        key: object
        # (a part's index: self.index, whose first probe is by_id; this code runs once per
        # type object and file)
        part = None  # the one part the entry refers to, for _OBJECT_ENTRIES
        if cls is TileType:
            part = t.element
            key = (_TILE, self.index(part), t.shape)
        elif cls is Format:
            key = t.name
        elif cls is PointerType:
            part = t.pointee
            key = (_PTR, self.index(part), t.attr)
        elif cls is TensorViewType:
            part = t.element
            key = (_TVIEW, self.index(part), t.shape, t.strides, t.ptr_attr)
        elif cls is PartitionViewType:
            part = t.tensor_view
            key = (_PVIEW, self.index(part), t.tile_shape, t.dim_map, t.padding)
        elif cls is TokenType:
            key = _TOKEN
        else:  # (its entry may hold its parts' indices: the memo below cannot hold it)
            key = t
        found = self._values.get(key)
        if found is None:
            # the entry's bytes: a memo of a pure function of the value (and the version: a
            # value written once at this version passed the version check)
            entry = self._memo.get(key) if key is not t else None
            if entry is None:
                if type_since(t) > self.version:
                    raise EncodeError(
                        f"type {t} needs bytecode {version_text(type_since(t))}, "
                        f"the file is {version_text(self.version)}"
                    )
                s = Sink()
                self._payload(t, s)
                entry = bytes(s.buf)
                if key is not t:
                    remember(self._memo, key, entry)
            found = self._ids.get(entry)
            if found is None:
                found = self._ids[entry] = len(self.entries)
                self.entries.append(entry)
            self._values[key] = found
        self.by_id[id(t)] = found
        self._kept.append(t)
        if key is not t:
            self._remember_object(t, part, found)
        return found

    def _remember_object(self, t: Type, part: Optional[Type], found: int) -> None:
        """Keep the entry of ``t`` (at index ``found``) for ``index`` to find by identity in
        a later file (by its part's index in that file, where it has a part)."""
        entry = self.entries[found]  # (an equal value's entry: the same bytes)
        if part is None:
            remember(self._objects, id(t), (t, None, entry))
            return
        at = self.by_id[id(part)]
        known = self._objects.get(id(t))
        if known is not None and known[0] is t and known[1] is part:
            if len(known[2]) < _PART_INDICES:
                known[2][at] = entry
        else:
            remember(self._objects, id(t), (t, part, {at: entry}))

    def function(self, inputs: Sequence[Type], results: Sequence[Type] = ()) -> int:
        """The index of the function type ``inputs -> results``, as ``index`` gives it for
        the equal FunctionType (which need not be built: an entry's signature is asked for
        once per file)."""
        node, key = self._trail, None
        if node is not None:  # (a step keyed by its types' ids, and holding them)
            key = (_FUNC, *map(id, inputs), -1, *map(id, results))
            step = node.get(key)
            if step is not None:
                return self._replay(step)
            self._trail = None
        self._own()
        self._sync()
        n_kept = len(self._kept)
        fields = [_FUNC, len(inputs)]
        for x in inputs:
            fields.append(self.index(x))
        fields.append(len(results))
        for x in results:
            fields.append(self.index(x))
        entry = leb128(fields)
        found = self._ids.get(entry)
        if found is None:
            found = self._ids[entry] = len(self.entries)
            self.entries.append(entry)
        if node is not None:
            held = (*inputs, *results)
            self._trail = _TRAILS.step(node, key, found, self, n_kept, held)
        return found

    def _payload(self, t, s: Sink) -> None:
        v = self.version
        if isinstance(t, TileType):  # the most common type first
            element = self.index(t.element)
            s.buf.append(_TILE)
            s.varint(element)
            s.ints(t.shape, 8)
        elif isinstance(t, Format):
            s.varint(FORMAT_TAG[t.name])
        elif isinstance(t, TokenType):
            s.varint(_TOKEN)
        elif isinstance(t, PointerType):
            pointee = self.index(t.pointee)
            s.varint(_PTR)
            if v >= _V4:  # 13.4: a flags varint, bit 0 = a ptr_attr follows the pointee
                s.varint(int(t.attr is not None))
            s.varint(pointee)
            if t.attr is not None:
                s.varint(PTR_ATTRS.index(t.attr))
        elif isinstance(t, TensorViewType):
            element = self.index(t.element)
            s.varint(_TVIEW)
            if v >= _V4:  # as for pointers: bit 0 = a trailing ptr_attr
                s.varint(int(t.ptr_attr is not None))
            s.varint(element)
            s.ints([_DYNAMIC if d is None else d for d in t.shape], 8)
            s.ints([_DYNAMIC if d is None else d for d in t.strides], 8)
            if t.ptr_attr is not None:
                s.varint(PTR_ATTRS.index(t.ptr_attr))
        elif isinstance(t, PartitionViewType):
            tv = self.index(t.tensor_view)
            s.varint(_PVIEW)
            if v >= _V3:
                s.varint(int(t.padding is not None))
            s.ints(t.tile_shape, 4)
            s.varint(tv)
            s.ints(t.dim_map, 4)
            if v < _V3:
                s.varint(int(t.padding is not None))
            if t.padding is not None:
                s.varint(_padding_code(t.padding))
        elif isinstance(t, GatherScatterViewType):
            tv = self.index(t.tensor_view)
            s.varint(_GSVIEW)
            s.varint(int(t.padding is not None))
            s.ints(t.tile_shape, 4)
            s.varint(tv)
            s.varint(t.sparse_dim)
            if t.padding is not None:
                s.varint(_padding_code(t.padding))
        elif isinstance(t, StridedViewType):
            tv = self.index(t.tensor_view)
            s.varint(_SVIEW)
            s.varint(int(t.padding is not None))
            s.ints(t.tile_shape, 4)
            s.ints(t.traversal_strides, 4)
            s.varint(tv)
            s.ints(t.dim_map, 4)
            if t.padding is not None:
                s.varint(_padding_code(t.padding))
        elif isinstance(t, FunctionType):
            ins = [self.index(x) for x in t.inputs]
            outs = [self.index(x) for x in t.results]
            s.varint(_FUNC)
            s.varint(len(ins))
            for i in ins:
                s.varint(i)
            s.varint(len(outs))
            for i in outs:
                s.varint(i)
        else:
            raise EncodeError(f"{t!r} is not a type the bytecode can hold")


class TypeReader:
    """Decodes entries of a Type section lazily; ``get(i)`` is entry ``i`` as our type."""

    def __init__(
        self, data: bytes, offsets: list[int], base: int, version: tuple[int, int]
    ) -> None:
        self.data = data
        self.offsets = offsets
        self.base = base
        self.version = version
        self._cache: dict[int, Type] = {}
        self._busy: set[int] = set()

    def __len__(self) -> int:
        return len(self.offsets)

    @overload
    def read(self, src: Source, want: type[_T], what: str = "type") -> _T: ...

    @overload
    def read(
        self, src: Source, want: tuple[type[_T], type[_U]], what: str = "type"
    ) -> _T | _U: ...

    @overload
    def read(self, src: Source, want: None = None, what: str = "type") -> Type: ...

    @overload
    def read(
        self, src: Source, want: type | tuple[type, ...] | None = None, what: str = "type"
    ) -> Any: ...

    def read(
        self, src: Source, want: type | tuple[type, ...] | None = None, what: str = "type"
    ) -> Any:
        """Read a type index from ``src``; check the type is one of ``want`` (classes)."""
        at = src.offset
        i = src.varint()
        if i >= len(self.offsets):
            src.fail(f"{what} index {i} out of range (the Type table has {len(self.offsets)})", at)
        t = self.get(i, src, at)
        if want is not None and not isinstance(t, want):
            src.fail(f"{what} index {i} is {t}, not a {_names(want)}", at)
        return t

    def get(self, i: int, src: Source, at: int) -> Type:
        if i in self._cache:
            return self._cache[i]
        if i in self._busy:
            src.fail(f"type {i} refers to itself", at)
        start = self.offsets[i]
        end = self.offsets[i + 1] if i + 1 < len(self.offsets) else len(self.data)
        if not 0 <= start <= end <= len(self.data):
            src.fail(f"type {i} has a bad extent [{start}, {end})", at)
        self._busy.add(i)
        try:
            entry = Source(self.data[start:end], self.base + start, "Type section")
            t = self._decode(entry)
            if entry.remaining():
                entry.fail(f"type {i} has {entry.remaining()} stray bytes")
        finally:
            self._busy.discard(i)
        self._cache[i] = t
        return t

    def _padding(self, r: Source, present: int):
        if present not in (0, 1):
            r.fail(f"padding presence flag {present} is not 0 or 1")
        if not present:
            return None
        at = r.offset
        code = r.varint()
        if code >= len(PADDING_VALUES):
            r.fail(f"padding value {code} is not one of {len(PADDING_VALUES)}", at)
        return PADDING_VALUES[code]

    def _ptr_flags(self, r: Source) -> bool:
        """Read 13.4's flags varint of a pointer or tensor view: is a ptr_attr present?"""
        if self.version < _V4:
            return False
        at = r.offset
        flags = r.varint()
        if flags & ~1:
            r.fail(f"pointer type flags {flags:#x} set bits other than bit 0 (ptr_attr)", at)
        return bool(flags)

    def _ptr_attr(self, r: Source, present: bool):
        if not present:
            return None
        at = r.offset
        code = r.varint()
        if code >= len(PTR_ATTRS):
            r.fail(
                f"ptr_attr value {code} is not one of the {len(PTR_ATTRS)} 13.5 defines "
                f"({', '.join(PTR_ATTRS)})",
                at,
            )
        value = PTR_ATTRS[code]
        self._since(r, PTR_ATTR_SINCE[value], f"ptr_attr value {code} ({value})", at)
        return value

    def _decode(self, r: Source) -> Type:
        at = r.offset
        tag = r.varint()
        if tag in _FORMAT_BY_TAG:
            fmt = _FORMAT_BY_TAG[tag]
            self._since(r, fmt.since, str(fmt), at)
            return fmt
        if tag == _TOKEN:
            return TOKEN
        if tag == _PTR:
            present = self._ptr_flags(r)
            pointee = self.read(r, Format, "pointee type")
            return PointerType(pointee, self._ptr_attr(r, present))
        if tag == _TILE:
            element = self.read(r, (Format, PointerType), "tile element type")
            return TileType(r.ints(8), element)
        if tag == _TVIEW:
            present = self._ptr_flags(r)
            element = self.read(r, Format, "tensor_view element type")
            shape = tuple(None if d == _DYNAMIC else d for d in r.ints(8))
            strides = tuple(None if d == _DYNAMIC else d for d in r.ints(8))
            if len(shape) != len(strides):
                r.fail(f"tensor_view has {len(shape)} dims but {len(strides)} strides")
            return TensorViewType(element, shape, strides, self._ptr_attr(r, present))
        if tag == _PVIEW:
            # 13.3 moved the padding's presence from a trailing flag to a leading bitfield
            unified = self.version >= _V3
            flags = r.varint() & 1 if unified else 0
            tile_shape = r.ints(4)
            tv = self.read(r, TensorViewType, "tensor_view type")
            dim_map = r.ints(4)
            padded = flags if unified else r.varint()
            return PartitionViewType(tile_shape, tv, dim_map, self._padding(r, padded))
        if tag == _GSVIEW:
            self._since(r, _V3, "gather_scatter_view", at)
            flags = r.varint()
            tile_shape = r.ints(4)
            tv = self.read(r, TensorViewType, "tensor_view type")
            sparse = r.varint()
            return GatherScatterViewType(tile_shape, tv, sparse, self._padding(r, flags & 1))
        if tag == _SVIEW:
            self._since(r, _V3, "strided_view", at)
            flags = r.varint()
            tile_shape = r.ints(4)
            strides = r.ints(4)
            tv = self.read(r, TensorViewType, "tensor_view type")
            dim_map = r.ints(4)
            return StridedViewType(tile_shape, strides, tv, dim_map, self._padding(r, flags & 1))
        if tag == _FUNC:
            ins = tuple(self.read(r, None, "parameter type") for _ in range(r.count()))
            outs = tuple(self.read(r, None, "result type") for _ in range(r.count()))
            return FunctionType(ins, outs)
        r.fail(f"unknown type tag {tag}", at)

    def _since(self, r: Source, since, what: str, at: int) -> None:
        if since > self.version:
            r.fail(
                f"type {what} needs bytecode {version_text(since)}, the file is "
                f"{version_text(self.version)}",
                at,
            )


def _names(want) -> str:
    if isinstance(want, tuple):
        return " or ".join(w.__name__ for w in want)
    return want.__name__
