"""Operand groups and attributes of every body op, as the dialect declares them.

One line an op: its operand groups in declaration order (``name`` one value,
``name*`` any number, ``name?`` zero or one) and its attributes in declaration
order with their kind and default.  The Module stores operands flat; an op
whose groups are not all single records how many values each group took in
``Op.segments`` (as MLIR's ``operandSegmentSizes`` does).

Attribute kinds and the Python values a Module holds for them:

=================  ==========================================================
``enum:E``         a spelling from ``dialect.ENUMS[E]`` (``"nearest_even"``)
``unit``           ``bool`` (present or not)
``bool``           ``bool`` (always written)
``int``            ``int``
``i32[]``          ``tuple[int, ...]``
``bool[]``         ``tuple[bool, ...]``
``str``            ``str``
``dense``          :class:`tileir.ir.module.Dense` (element bytes, MLIR layout)
``scalars``        ``tuple`` of :class:`tileir.ir.module.Scalar` (reduce / scan identities)
``predicate``      :class:`~tileir.ir.module.DivBy`, :class:`~tileir.ir.module.SameElements`
                   or :class:`~tileir.ir.module.Bounded`
``hints``          :class:`tileir.ir.module.Hints`
=================  ==========================================================

An optional attribute (no default, may be absent) has default ``None``; an
attribute equal to its default may be left out of ``Op.attrs``: use
:func:`attr_of` to read one.

>>> SIGNATURES["load_view_tko"].operands
(('view', '1'), ('index', '*'), ('token', '?'))
>>> SIGNATURES["addf"].attrs[0]
('rounding', 'enum:rounding', 'nearest_even')
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

import attrs

from tileir.ir.dialect import BODY_OPS

__all__ = ["Signature", "SIGNATURES", "attr_defaults", "attr_of", "operand_groups"]

_NO_DEFAULT = object()


@attrs.frozen
class Signature:
    operands: tuple[tuple[str, str], ...]
    attrs: tuple[tuple[str, str, Any], ...]
    regions: int = 0

    @property
    def has_segments(self) -> bool:
        """True when the operands need ``Op.segments`` to be split into groups."""
        return any(kind != "1" for _, kind in self.operands)


def _parse_default(kind: str, text: str | None) -> Any:
    if text is None:
        return {"unit": False, "bool[]": (), "i32[]": ()}.get(kind.split(":")[0], None)
    if kind == "int":
        return int(text)
    if kind == "bool":
        return text == "true"
    return text


def _sig(operands: str, attributes: str = "", regions: int = 0) -> Signature:
    groups = []
    for word in operands.split():
        kind = word[-1] if word[-1] in "*?" else "1"
        groups.append((word.rstrip("*?"), kind))
    attr_list = []
    for word in attributes.split():
        name, rest = word.split(":", 1)
        kind, _, default = rest.partition("=")
        attr_list.append((name, kind, _parse_default(kind, default or None)))
    return Signature(tuple(groups), tuple(attr_list), regions)


_F_ARITH = "rounding:enum:rounding=nearest_even flush_to_zero:unit"
_OVF = "overflow:enum:overflow=none"
_SGN = "signedness:enum:signedness=signed"
_MEM_VIEW = (
    "memory_ordering:enum:memory_ordering=weak memory_scope:enum:memory_scope "
    "optimization_hints:hints inbounds:bool[]"
)
_MEM_PTR = (
    "memory_ordering:enum:memory_ordering=weak memory_scope:enum:memory_scope "
    "optimization_hints:hints"
)

SIGNATURES: dict[str, Signature] = {
    # memory and views
    "make_tensor_view": _sig("base shape* strides*"),
    "make_partition_view": _sig("tensor_view"),
    "make_strided_view": _sig("tensor_view"),
    "make_gather_scatter_view": _sig("tensor_view"),
    "get_tensor_shape": _sig("view"),
    "get_index_space_shape": _sig("view"),
    "load_view_tko": _sig("view index* token?", _MEM_VIEW),
    "store_view_tko": _sig("tile view index* token?", _MEM_VIEW),
    "load_ptr_tko": _sig("pointers mask? padding? token?", _MEM_PTR),
    "store_ptr_tko": _sig("pointers value mask? token?", _MEM_PTR),
    "offset": _sig("pointers offsets"),
    "alloca": _sig("", "num_elem:int alignment:int global_:unit"),
    # float arithmetic
    "addf": _sig("lhs rhs", _F_ARITH),
    "subf": _sig("lhs rhs", _F_ARITH),
    "mulf": _sig("lhs rhs", _F_ARITH),
    "divf": _sig("lhs rhs", _F_ARITH),
    "fma": _sig("lhs rhs acc", _F_ARITH),
    "remf": _sig("lhs rhs"),
    "negf": _sig("source"),
    "absf": _sig("source"),
    "maxf": _sig("lhs rhs", "propagate_nan:unit flush_to_zero:unit"),
    "minf": _sig("lhs rhs", "propagate_nan:unit flush_to_zero:unit"),
    "mmaf": _sig("lhs rhs acc", "fast_acc:unit"),
    "mmaf_scaled": _sig("lhs rhs acc lhs_scale rhs_scale"),
    # integer arithmetic
    "addi": _sig("lhs rhs", _OVF),
    "subi": _sig("lhs rhs", _OVF),
    "muli": _sig("lhs rhs", _OVF),
    "shli": _sig("lhs rhs", _OVF),
    "shri": _sig("lhs rhs", _SGN),
    "divi": _sig("lhs rhs", _SGN + " rounding:enum:rounding=zero"),
    "remi": _sig("lhs rhs", _SGN),
    "mulhii": _sig("lhs rhs"),
    "maxi": _sig("lhs rhs", _SGN),
    "mini": _sig("lhs rhs", _SGN),
    "negi": _sig("source", _OVF),
    "absi": _sig("source"),
    "andi": _sig("lhs rhs"),
    "ori": _sig("lhs rhs"),
    "xori": _sig("lhs rhs"),
    "mmai": _sig(
        "lhs rhs acc",
        "signedness_lhs:enum:signedness=signed signedness_rhs:enum:signedness=signed",
    ),
    # math
    "exp": _sig("source", "rounding:enum:rounding=full"),
    "exp2": _sig("source", "flush_to_zero:unit"),
    "log": _sig("source"),
    "log2": _sig("source"),
    "sqrt": _sig("source", _F_ARITH),
    "rsqrt": _sig("source", "flush_to_zero:unit"),
    "sin": _sig("source"),
    "cos": _sig("source"),
    "tan": _sig("source"),
    "sinh": _sig("source"),
    "cosh": _sig("source"),
    "tanh": _sig("source", "rounding:enum:rounding=full"),
    "atan2": _sig("lhs rhs"),
    "fpowf": _sig("source exponent"),
    "fpowi": _sig("source exponent"),
    "ceil": _sig("source"),
    "floor": _sig("source"),
    # comparison, select, conversion
    "cmpf": _sig(
        "lhs rhs",
        "comparison_predicate:enum:comparison_predicate "
        "comparison_ordering:enum:comparison_ordering=ordered",
    ),
    "cmpi": _sig("lhs rhs", "comparison_predicate:enum:comparison_predicate " + _SGN),
    "select": _sig("cond if_true if_false"),
    "ftof": _sig("source", "rounding:enum:rounding=nearest_even"),
    "ftoi": _sig("source", _SGN + " rounding:enum:rounding=nearest_int_to_zero saturating:unit"),
    "itof": _sig("source", _SGN + " rounding:enum:rounding=nearest_even"),
    "exti": _sig("source", _SGN),
    "trunci": _sig("source", _OVF),
    "bitcast": _sig("source"),
    "int_to_ptr": _sig("source"),
    "ptr_to_int": _sig("source"),
    "ptr_to_ptr": _sig("source"),
    "pack": _sig("source"),
    "unpack": _sig("source"),
    # reductions and scans: one region of 2N scalar block args, ending in yield
    "reduce": _sig("operands*", "dim:int identities:scalars", regions=1),
    "scan": _sig("operands*", "dim:int reverse:bool=false identities:scalars", regions=1),
    # shapes and construction
    "constant": _sig("", "value:dense"),
    "iota": _sig(""),
    "broadcast": _sig("source"),
    "reshape": _sig("source"),
    "permute": _sig("source", "permutation:i32[]"),
    "cat": _sig("lhs rhs", "dim:int"),
    "extract": _sig("source indices*"),
    "insert": _sig("source destination indices*"),
    # control flow
    "for": _sig("lower upper step init*", "unsigned_cmp:unit", regions=1),
    "loop": _sig("init*", regions=1),
    "if": _sig("condition", regions=2),
    "continue": _sig("values*"),
    "break": _sig("values*"),
    "yield": _sig("values*"),
    "return": _sig("values*"),
    "assert": _sig("condition", "message:str"),
    # atomics
    "atomic_rmw_tko": _sig(
        "pointers arg mask? token?",
        "memory_ordering:enum:memory_ordering "
        "memory_scope:enum:memory_scope mode:enum:atomic_mode",
    ),
    "atomic_cas_tko": _sig(
        "pointers cmp val mask? token?",
        "memory_ordering:enum:memory_ordering memory_scope:enum:memory_scope",
    ),
    "atomic_red_view_tko": _sig(
        "view index* value token?",
        "memory_ordering:enum:memory_ordering"
        "=relaxed memory_scope:enum:memory_scope mode:enum:atomic_mode inbounds:bool[]",
    ),
    # multimem (13.5): every replica of a multicast buffer through one partition view
    "multimem_load_reduce_view_tko": _sig(
        "view index* token?",
        "memory_ordering:enum:memory_ordering=weak memory_scope:enum:memory_scope "
        "reduction:enum:multimem_reduction_kind=add inbounds:bool[]",
    ),
    "multimem_reduce_view_tko": _sig(
        "view value index* token?",
        "memory_ordering:enum:memory_ordering=relaxed memory_scope:enum:memory_scope "
        "reduction:enum:multimem_reduction_kind=add inbounds:bool[]",
    ),
    "multimem_store_view_tko": _sig(
        "view value index* token?",
        "memory_ordering:enum:memory_ordering=weak memory_scope:enum:memory_scope inbounds:bool[]",
    ),
    # misc
    "assume": _sig("value", "predicate:predicate"),
    "print_tko": _sig("args* token?", "format:str"),
    "make_token": _sig(""),
    "join_tokens": _sig("tokens*"),
    "get_tile_block_id": _sig(""),
    "get_num_tile_blocks": _sig(""),
    "get_global": _sig("", "name:str"),
    "gdc_wait_tko": _sig("token?"),
    "gdc_launch_dependents_tko": _sig("token?"),
    "memory_fence_alias_tko": _sig("token"),
}

assert set(SIGNATURES) == set(BODY_OPS), set(BODY_OPS) ^ set(SIGNATURES)

_ATTR_DEFAULTS = {
    name: MappingProxyType({a: d for a, _k, d in sig.attrs}) for name, sig in SIGNATURES.items()
}
_NO_DEFAULTS: Mapping[str, Any] = MappingProxyType({})


def attr_defaults(name: str) -> Mapping[str, Any]:
    """``{attribute: its declared default}`` of op ``name`` (read-only; empty for a name that
    is not a body op), for the code that drops attributes equal to their defaults."""
    return _ATTR_DEFAULTS.get(name, _NO_DEFAULTS)


def attr_of(op, name: str) -> Any:
    """The value of attribute ``name`` of ``op``, its declared default when left out."""
    if name in op.attrs:
        return op.attrs[name]
    for attr_name, _kind, default in SIGNATURES[op.name].attrs:
        if attr_name == name:
            return default
    raise KeyError(f"op `{op.name}` has no attribute {name!r}")


def operand_groups(op) -> dict[str, tuple]:
    """``op``'s operands split into its declared groups, by group name.

    A single group maps to a 1-tuple, an absent optional one to ``()``.
    """
    groups, n_variable = _GROUPS[op.name]
    operands = op.operands
    counts = op.segments
    if counts is None:
        if n_variable > 1:
            raise ValueError(f"op `{op.name}` needs segments to split its operands")
        rest = len(operands) - (len(groups) - n_variable)  # what the variable group takes
        counts = [1 if kind == "1" else rest for _name, kind in groups]
    out, at = {}, 0
    for (name, _kind), n in zip(groups, counts):
        out[name] = tuple(operands[at : at + n])
        at += n
    return out


# op name -> (operand groups, how many of them are variable): derived once from SIGNATURES
_GROUPS = {
    name: (sig.operands, sum(1 for _, k in sig.operands if k != "1"))
    for name, sig in SIGNATURES.items()
}
