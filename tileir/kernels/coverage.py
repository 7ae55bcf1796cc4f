"""What the golden kernels cover of Tile IR 13.5: every opcode, type tag and attribute value.

The table is generated from the code, never written by hand: the rows come from the
dialect's facts (:mod:`tileir.ir.dialect`, :mod:`tileir.ir.signatures`, :mod:`tileir.types`),
and a row's evidence is the registered kernels whose recorded Module uses it, found by
walking each Module: its ops (with their regions), each op's attributes (read with
:func:`~tileir.ir.signatures.attr_of`, so an attribute left at its default counts as that
value), the types of every value, of the types inside types (a view's tensor view, a
tile's element, a pointer's pointee) and of constants and identities, the entry's
function type and hints, and the module's globals.

Rows:

* ``opcodes``: the 108 ops of 13.5: 105 body ops (the three multimem ops of 13.5
  included), and the three structural ones, which
  are covered as follows: ``module`` by every kernel (each recording is one module),
  ``entry`` by every kernel (each is one entry function), ``global`` by a kernel whose
  Module holds module-level arrays (``global_constant`` / ``global_array``).
* ``types``: the 24 type tags of the bytecode's type table (docs/dialect.md §2.1): the 16
  element formats, ``ptr``, ``tile``, ``tensor_view``, ``partition_view``,
  ``strided_view``, ``gather_scatter_view``, ``token`` and ``function``.
* ``attributes``: the attribute values a kernel can choose, counted as: each value of each
  enum of :data:`tileir.ir.dialect.ENUMS` (55, 13.5's multimem_reduction_kind included),
  each ``ptr_attr`` value of :data:`tileir.types.PTR_ATTRS` (``none``; 13.5's ``unicast``
  and ``multicast``), each
  UnitAttr (flush_to_zero, propagate_nan, fast_acc, unsigned_cmp, saturating, alloca's
  global, a global's constant), the two values of scan's ``reverse``, ``inbounds`` true,
  the assume predicates (div_by, div_by every/along, same_elements, bounded), each
  optimization-hint key (num_cta_in_cga, num_worker_warps_per_cta, occupancy on entries;
  allow_tma and latency on views; latency on pointer accesses) and the two kinds of hint
  target (``default`` and a named ``sm_XX``).

A row nothing can cover here carries a written reason (:data:`IMPOSSIBLE`); a row with
neither evidence nor a reason is a gap, and ``tests/kernels/test_coverage.py`` fails naming it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Optional

import attrs

from tileir.ir.dialect import ENUMS, OPS, STRUCTURAL_OPS
from tileir.ir.module import Bounded, Dense, DivBy, Hints, Module, SameElements, ScalarAttr, walk
from tileir.ir.signatures import SIGNATURES, attr_of
from tileir.kernels.registry import specs as registered
from tileir.types import (
    FORMATS,
    PTR_ATTRS,
    Format,
    FunctionType,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
    TokenType,
)

__all__ = [
    "Row",
    "rows",
    "uses",
    "coverage",
    "IMPOSSIBLE",
    "TYPE_TAGS",
    "ATTRIBUTE_VALUES",
    "STRUCTURAL",
    "totals",
]

#: The 24 type tags of the bytecode's type table, as the rows name them.
TYPE_TAGS: tuple = tuple(f.name for f in FORMATS) + (
    "ptr",
    "tile",
    "tensor_view",
    "partition_view",
    "strided_view",
    "gather_scatter_view",
    "token",
    "function",
)

_UNITS = (
    ("flush_to_zero", "flush_to_zero"),
    ("propagate_nan", "propagate_nan"),
    ("fast_acc", "fast_acc"),
    ("unsigned_cmp", "unsigned_cmp"),
    ("saturating", "saturating"),
    ("alloca.global", "global_"),
)
_HINT_KEYS = (
    "entry.num_cta_in_cga",
    "entry.num_worker_warps_per_cta",
    "entry.occupancy",
    "view.allow_tma",
    "view.latency",
    "pointer.latency",
)


def _attribute_values() -> tuple:
    out = [f"{enum}.{value}" for enum, values in ENUMS.items() for value in values]
    out += [f"ptr_attr.{value}" for value in PTR_ATTRS]
    out += [f"unit.{name}" for name, _ in _UNITS] + ["unit.global.constant"]
    out += ["scan.reverse.false", "scan.reverse.true", "inbounds.true"]
    out += ["assume.div_by", "assume.div_by_every_along", "assume.same_elements", "assume.bounded"]
    out += [f"hint.{key}" for key in _HINT_KEYS] + ["hint.target.default", "hint.target.sm"]
    return tuple(out)


#: Every attribute value a row is kept for (see the module docstring for how they count).
ATTRIBUTE_VALUES: tuple = _attribute_values()

#: Rows that cannot be covered here, with the reason (none today; kept so that a row a
#: future dialect adds and tileir cannot reach says why instead of failing blank).
IMPOSSIBLE: dict = {}


#: How each structural op (never an instruction in a body) is covered.
STRUCTURAL: dict = {
    "module": "every kernel: each recording is one module",
    "entry": "every kernel: each is one entry function of its module",
    "global": "kernels whose module holds module-level arrays (global_constant / global_array)",
}


@attrs.frozen
class Row:
    """One row of the table: its section, name, evidence (kernel names) and status."""

    section: str
    name: str
    evidence: tuple
    reason: Optional[str] = None

    @property
    def note(self) -> Optional[str]:
        """How a structural op is covered (None for other rows)."""
        return STRUCTURAL.get(self.name) if self.section == "opcodes" else None

    @property
    def status(self) -> str:
        if self.evidence:
            return "covered"
        return "impossible" if self.reason else "missing"


# ----------------------------------------------------------------------------- walking


def _types_within(t) -> Iterable:
    """``t`` and every type inside it (a tile's element, a pointer's pointee, a view's tensor
    view, a function's inputs and results)."""
    yield t
    if isinstance(t, PointerType):
        yield from _types_within(t.pointee)
    elif isinstance(t, (TileType, TensorViewType)):
        yield from _types_within(t.element)
    elif isinstance(t, (PartitionViewType, StridedViewType, GatherScatterViewType)):
        yield from _types_within(t.tensor_view)
    elif isinstance(t, FunctionType):
        for x in t.inputs + t.results:
            yield from _types_within(x)


_TAG_OF_KIND = {
    PointerType: "ptr",
    TileType: "tile",
    TensorViewType: "tensor_view",
    PartitionViewType: "partition_view",
    StridedViewType: "strided_view",
    GatherScatterViewType: "gather_scatter_view",
    TokenType: "token",
    FunctionType: "function",
}


def _type_uses(t, tags: set, attributes: set) -> None:
    """Add the tag of ``t`` and of every type inside it to ``tags``, and the attribute
    values those types carry (a view's padding, a pointer's or tensor view's ptr_attr) to
    ``attributes``."""
    for part in _types_within(t):
        tags.add(part.name if isinstance(part, Format) else _TAG_OF_KIND[type(part)])
        pad = getattr(part, "padding", None)
        if pad is not None:
            attributes.add(f"padding_value.{pad}")
        attr = part.attr if isinstance(part, PointerType) else getattr(part, "ptr_attr", None)
        if attr is not None:
            attributes.add(f"ptr_attr.{attr}")


def _hints(h: Optional[Hints], kind: str, out: set) -> None:
    if h is None:
        return
    for target, pairs in h.by_arch:
        out.add("hint.target.default" if target == "default" else "hint.target.sm")
        for key, _value in pairs:
            out.add(f"hint.{kind}.{key}")


_HINT_KIND = {
    "load_view_tko": "view",
    "store_view_tko": "view",
    "load_ptr_tko": "pointer",
    "store_ptr_tko": "pointer",
}


def _op_attributes(op, out: set) -> None:
    for name, kind, _default in SIGNATURES[op.name].attrs:
        value = attr_of(op, name)
        if value is None:
            continue
        if kind.startswith("enum:"):
            out.add(f"{kind[5:]}.{value}")
        elif kind == "unit" and value:
            unit = dict((attr, row) for row, attr in _UNITS).get(name)
            if unit is not None:
                out.add(f"unit.{unit}")
        elif kind == "bool" and op.name == "scan":
            out.add(f"scan.reverse.{'true' if value else 'false'}")
        elif kind == "bool[]" and any(value):
            out.add("inbounds.true")
        elif kind == "predicate":
            if isinstance(value, DivBy):
                out.add(
                    "assume.div_by_every_along" if value.every is not None else "assume.div_by"
                )
            elif isinstance(value, SameElements):
                out.add("assume.same_elements")
            elif isinstance(value, Bounded):
                out.add("assume.bounded")
        elif kind == "hints" and isinstance(value, Hints):
            _hints(value, _HINT_KIND.get(op.name, "view"), out)


def uses(module: Module) -> dict:
    """What ``module`` uses: ``{"opcodes": set, "types": set, "attributes": set}``."""
    ops: set[str] = {"module"}
    types: set[str] = set()
    attributes: set[str] = set()
    for g in module.globals:
        ops.add("global")
        _type_uses(g.value.type, types, attributes)
        attributes.add(f"symbol_visibility.{g.visibility}")
        if g.constant:
            attributes.add("unit.global.constant")
    for fn in module.functions:
        ops.add("entry")
        _type_uses(fn.type, types, attributes)
        _hints(fn.hints, "entry", attributes)
        for op in walk(fn.body):
            ops.add(op.name)
            _op_attributes(op, attributes)
            for v in op.results:
                _type_uses(v.type, types, attributes)
            for region in op.regions:
                for arg in region.args:
                    _type_uses(arg.type, types, attributes)
            for value in op.attrs.values():
                if isinstance(value, Dense):
                    _type_uses(value.type, types, attributes)
                elif isinstance(value, tuple) and value and isinstance(value[0], ScalarAttr):
                    for s in value:
                        _type_uses(s.format, types, attributes)
    return {"opcodes": ops, "types": types, "attributes": attributes}


# ----------------------------------------------------------------------------- the table


def rows(kernel_uses: dict) -> list:
    """The table's rows from ``{kernel name: uses(module)}``."""
    seen: dict = defaultdict(list)
    for kernel, used in kernel_uses.items():
        for section, names in used.items():
            for name in names:
                seen[(section, name)].append(kernel)
    out = []
    for section, names in (
        ("opcodes", tuple(OPS)),
        ("types", TYPE_TAGS),
        ("attributes", ATTRIBUTE_VALUES),
    ):
        for name in names:
            out.append(
                Row(
                    section,
                    name,
                    tuple(seen.get((section, name), ())),
                    IMPOSSIBLE.get((section, name)),
                )
            )
    return out


def coverage(specs: Optional[Iterable] = None) -> list:
    """The table for ``specs`` (the registered kernels by default): each kernel is
    recorded once and its Module walked."""
    if specs is None:
        specs = registered()
    return rows({spec.name: uses(spec.kernel().module) for spec in specs})


def totals(table: list) -> dict:
    """``{section: (covered, rows)}``, with the opcodes split into body and structural."""
    out = {}
    for section in ("opcodes", "types", "attributes"):
        mine = [r for r in table if r.section == section]
        out[section] = (sum(r.status == "covered" for r in mine), len(mine))
    body = [r for r in table if r.section == "opcodes" and r.name not in STRUCTURAL_OPS]
    out["body opcodes"] = (sum(r.status == "covered" for r in body), len(body))
    structural = [r for r in table if r.section == "opcodes" and r.name in STRUCTURAL_OPS]
    out["structural opcodes"] = (sum(r.status == "covered" for r in structural), len(structural))
    return out
