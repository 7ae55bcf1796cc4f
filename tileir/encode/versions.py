"""Which bytecode version a Module needs, and why.

Every op, type, attribute value and attribute presence a Module uses has a
first version (the op tables in ``dialect`` and ``optable``, the formats'
``since``).  The lowest version that holds all of them is what ``encode``
picks; asking for a lower one raises an EncodeError that names the first
thing missing.

>>> from tileir.ir.module import Function, Block, Module, Op, Value
>>> from tileir.types import TileType, F32
>>> x = Value(0, TileType((), F32))
>>> body = Block((), (Op("atan2", (x, x), (Value(1, x.type),)), Op("return")))
>>> m = Module((Function("k", (x,), body),))
>>> required_version(m)
(13, 2)
>>> version_needs(m)
[('op `atan2` in function `k`', (13, 2))]
"""

from __future__ import annotations

from typing import Iterator, Optional

import attrs

from tileir.encode.optable import ENUM_VALUE_SINCE, OP_CODECS, OpCodec, is_default
from tileir.encode.typecodec import type_since
from tileir.errors import EncodeError
from tileir.ir.dialect import version_text
from tileir.ir.memo import memo_table, remember
from tileir.ir.module import Block, Function, Module, Op, ScalarAttr
from tileir.ir.signatures import operand_groups
from tileir.types import (
    FORMATS,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
)

__all__ = [
    "Need",
    "needs",
    "version_needs",
    "required_version",
    "version_bound",
    "op_ceiling",
    "module_level_need",
    "check_version",
]

V1, V3 = (13, 1), (13, 3)


@attrs.frozen
class Need:
    """One thing a Module uses that needs bytecode ``version`` or later."""

    what: str
    version: tuple[int, int]
    kernel: Optional[str] = None
    op: Optional[str] = None
    where: Optional[str] = None

    def text(self) -> str:
        out = self.what
        if self.kernel is not None:
            out += f" in function `{self.kernel}`"
        if self.where:
            out += f" (at {self.where})"
        return out


def _type_parts(t) -> Iterator:
    yield t
    if isinstance(t, TileType):
        yield from _type_parts(t.element)
    elif isinstance(t, PointerType):
        yield t.pointee
    elif isinstance(t, TensorViewType):
        yield t.element
    elif isinstance(t, (PartitionViewType, StridedViewType, GatherScatterViewType)):
        yield from _type_parts(t.tensor_view)


def _new_parts(t) -> tuple:
    """``(part, since)`` of each part of type ``t`` newer than 13.1 (memoized per type)."""
    found = _NEW_PARTS.get(t)
    if found is None:
        found = tuple((part, since) for part in _type_parts(t) if (since := type_since(part)) > V1)
        remember(_NEW_PARTS, t, found)
    return found


# type -> _new_parts(type): a memo keyed by immutable, structurally compared type values
# (equal types have equal parts), so an entry never goes stale
_NEW_PARTS: dict = memo_table("encode.versions: newer type parts")


def _type_needs(t, context: str, **where) -> Iterator[Need]:
    for part, since in _new_parts(t):
        yield Need(f"type {part} ({context})", since, **where)


def _used_ids(block: Block) -> set[int]:
    used: set[int] = set()
    for op in block.ops:
        used.update(v.id for v in op.operands)
        for region in op.regions:
            used |= _used_ids(region)
    return used


def _op_needs(op: Op, fn: Function, used: set[int]) -> Iterator[Need]:
    where = dict(kernel=fn.name, op=op.name, where=str(op.loc) if op.loc else None)
    codec = OP_CODECS.get(op.name)
    if codec is None:
        return  # the writer names an unknown op
    if codec.since > V1:
        yield Need(f"op `{op.name}`", codec.since, **where)
    attrs = op.attrs
    for name, kind, default, _optional, since in codec.attrs:
        value = attrs[name] if attrs and name in attrs else default
        if since > codec.since and not is_default(kind, value, default):
            yield Need(f"attribute {name} = {value!r} of `{op.name}`", since, **where)
        if isinstance(value, str) and (kind[5:], value) in ENUM_VALUE_SINCE:
            yield Need(
                f"{kind[5:]} value {value} of `{op.name}`",
                ENUM_VALUE_SINCE[(kind[5:], value)],
                **where,
            )
        if kind == "scalars" and isinstance(value, tuple):
            for x in value:
                if isinstance(x, ScalarAttr):
                    yield from _type_needs(x.format, f"{name} of `{op.name}`", **where)
    if codec.operand_since:
        try:
            groups = operand_groups(op)
        except ValueError:
            groups = {}  # the writer names the bad split
        for name, since in codec.operand_since:
            if groups.get(name):
                yield Need(f"operand {name} of `{op.name}`", since, **where)
    if codec.last_result_since is not None and op.results and op.results[-1].id in used:
        yield Need(
            f"result %{op.results[-1].id} of `{op.name}` (used later)",
            codec.last_result_since,
            **where,
        )
    for r in op.results:
        yield from _type_needs(r.type, f"result %{r.id} of `{op.name}`", **where)
    for block in op.regions:
        for arg in block.args:
            yield from _type_needs(arg.type, f"block argument %{arg.id} of `{op.name}`", **where)
        for inner in block.ops:
            yield from _op_needs(inner, fn, used)


def needs(module: Module) -> list[Need]:
    """Everything in ``module`` newer than 13.1, in module order."""
    out: list[Need] = []
    if module.producer is not None:
        out.append(Need("the producer string", V3))
    for g in module.globals:
        if g.constant:
            out.append(Need(f"global @{g.name} marked constant", V3))
        if g.visibility != "public":
            out.append(Need(f"global @{g.name} with {g.visibility} visibility", V3))
        out.extend(_type_needs(g.value.type, f"global @{g.name}"))
    for fn in module.functions:
        for p in fn.params:
            out.extend(_type_needs(p.type, f"parameter %{p.id}", kernel=fn.name))
        used = _used_ids(fn.body)
        for op in fn.body.ops:
            out.extend(_op_needs(op, fn, used))
    return out


def version_needs(module: Module) -> list[tuple[str, tuple[int, int]]]:
    """Why ``module`` needs more than 13.1: ``(what, version)`` for each thing, in order."""
    return [(n.text(), n.version) for n in needs(module)]


def required_version(module: Module) -> tuple[int, int]:
    """The lowest bytecode version that holds every op, type and attribute ``module`` uses."""
    return max((n.version for n in needs(module)), default=V1)


def _latest_need() -> tuple[int, int]:
    """The newest version any Need can name: the newest of every table ``needs`` reads
    (``type_since`` answers a format's ``since``, 13.3 for the newer views, 13.4 for a
    ptr_attr, or 13.1)."""
    codecs = OP_CODECS.values()
    return max(
        [
            V3,
            *(f.since for f in FORMATS),
            *(c.since for c in codecs),
            *(a[4] for c in codecs for a in c.attrs),
            *(since for c in codecs for _, since in c.operand_since),
            *(c.last_result_since for c in codecs if c.last_result_since is not None),
            *ENUM_VALUE_SINCE.values(),
        ]
    )


#: Every Need's version is at most this: a file of this version (13.4) holds any module, so
#: ``check_version`` need not walk the module for it.
LATEST_NEED = _latest_need()


# -- a quick upper bound ---------------------------------------------------------------------
#
# ``needs`` builds a Need (with its text and location) for everything newer than 13.1, which
# the encoder would pay on every file; ``version_bound`` walks the same module with nothing but
# table lookups and answers a version no Need can exceed.  Only when that bound passes the
# version asked for does ``check_version`` run ``needs`` (to name what is missing, or to find
# that nothing is: the bound may be higher than the module's true need).


def op_ceiling(codec: OpCodec) -> tuple[int, int]:
    """The newest version anything an op of ``codec`` can need, its types aside: the op, its
    attributes and their enum values, its operand groups, its last result."""
    enum_kinds = {kind[5:] for _, kind, *_ in codec.attrs if kind.startswith("enum:")}
    return max(
        [
            V1,
            codec.since,
            *(a[4] for a in codec.attrs),
            *(since for _, since in codec.operand_since),
            *([codec.last_result_since] if codec.last_result_since is not None else []),
            *(since for (kind, _), since in ENUM_VALUE_SINCE.items() if kind in enum_kinds),
        ]
    )


# op name -> (its ceiling, the names of its "scalars" attributes, whose formats are types)
_CEILINGS = {
    name: (op_ceiling(c), tuple(a[0] for a in c.attrs if a[1] == "scalars"))
    for name, c in OP_CODECS.items()
}


def _type_bound(t) -> tuple[int, int]:
    """The newest ``since`` of type ``t``'s parts (13.1 when none is newer)."""
    parts = _new_parts(t)
    return max(since for _, since in parts) if parts else V1


def _block_bound(block: Block, seen: set[int]) -> tuple[int, int]:
    """The bound of ``block``'s ops and arguments; ``seen``: the ids of the type objects
    bounded already in this walk (the module keeps them alive; most values share a few)."""
    top = V1
    for arg in block.args:
        top = max(top, _type_bound(arg.type))
    for op in block.ops:
        found = _CEILINGS.get(op.name)
        if found is None:
            return LATEST_NEED  # an unknown op: let ``needs`` (and the writer) see it
        ceiling, scalar_attrs = found
        top = max(top, ceiling)
        for name in scalar_attrs:
            value = op.attrs.get(name)
            if isinstance(value, tuple):
                for x in value:
                    if isinstance(x, ScalarAttr):
                        top = max(top, _type_bound(x.format))
        for r in op.results:
            t = r.type
            if id(t) not in seen:
                seen.add(id(t))
                top = max(top, _type_bound(t))
        for region in op.regions:
            top = max(top, _block_bound(region, seen))
    return top


def module_level_need(module: Module) -> tuple[int, int]:
    """What ``module`` needs outside its functions' types and ops: 13.3 for a producer string
    or a global marked constant or not public (their types aside), else 13.1."""
    if module.producer is not None or any(
        g.constant or g.visibility != "public" for g in module.globals
    ):
        return V3
    return V1


def version_bound(module: Module) -> tuple[int, int]:
    """A version at least :func:`required_version` (``module``), found by table lookups
    alone (no Need is built): a file of this version or later surely holds ``module``.

    >>> from tileir.ir.module import Function, Block, Module, Op, Value
    >>> from tileir.types import TileType, F32
    >>> x = Value(0, TileType((), F32))
    >>> body = Block((), (Op("atan2", (x, x), (Value(1, x.type),)), Op("return")))
    >>> version_bound(Module((Function("k", (x,), body),)))
    (13, 2)
    """
    top = module_level_need(module)
    for g in module.globals:
        top = max(top, _type_bound(g.value.type))
    for fn in module.functions:
        for p in fn.params:
            top = max(top, _type_bound(p.type))
        top = max(top, _block_bound(fn.body, set()))
    return top


def check_version(module: Module, version: tuple[int, int]) -> None:
    """Raise an EncodeError naming the first thing ``module`` uses that ``version`` lacks."""
    if version >= LATEST_NEED:
        return  # nothing can need more (see LATEST_NEED)
    if version >= version_bound(module):
        return  # nothing in this module needs more (the bound is never below a Need)
    missing = [n for n in needs(module) if n.version > version]
    if not missing:
        return
    first = missing[0]
    more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
    raise EncodeError(
        f"{first.what} needs bytecode {version_text(first.version)} or later, but "
        f"{version_text(version)} was asked for{more}; the module needs "
        f"{version_text(max(n.version for n in missing))}",
        kernel=first.kernel,
        op=first.op,
        where=first.where,
    )
