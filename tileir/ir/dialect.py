"""The ``cuda_tile`` dialect's op and enum tables, as facts (docs/dialect.md §1-§2).

This module names things; it does not say how to render, encode or interpret
them.  Each interpretation keeps its own rule table keyed by these op names,
built by :func:`tileir.ir.rule_table.rule_table`, and a test checks that every
body op appears in each.  The op traits (terminators, loops, memory ops ...)
are defined here once and read by every stage.

>>> OPS["addf"].opcode, OPS["addf"].since
(2, (13, 1))
>>> len(BODY_OPS)
105
"""

from __future__ import annotations

import attrs

__all__ = [
    "OpInfo",
    "OPS",
    "BODY_OPS",
    "STRUCTURAL_OPS",
    "VERSIONS",
    "ENUMS",
    "op_by_opcode",
    "version_text",
    "parse_version",
    "TERMINATORS",
    "LOOP_OPS",
    "REGION_OPS",
    "CONTROL_OPS",
    "POINTER_MEMORY_OPS",
    "VIEW_MEMORY_OPS",
    "MULTIMEM_OPS",
    "MEMORY_OPS",
    "EFFECT_OPS",
]

#: Bytecode versions tileir reads and writes, oldest first (``tileiras`` 13.5.37 reads all
#: five; 13.4.92 reads 13.1 to 13.4: docs/bytecode.md §3.2).
VERSIONS: tuple[tuple[int, int], ...] = ((13, 1), (13, 2), (13, 3), (13, 4), (13, 5))


def version_text(v: tuple[int, int]) -> str:
    return f"{v[0]}.{v[1]}"


def parse_version(text: str) -> tuple[int, int]:
    """``"13.3"`` -> ``(13, 3)``; a clear error for anything tileiras does not accept."""
    try:
        major, minor = (int(p) for p in str(text).split("."))
    except ValueError:
        raise ValueError(f"bytecode version {text!r} is not of the form 13.N") from None
    if (major, minor) not in VERSIONS:
        known = ", ".join(map(version_text, VERSIONS))
        raise ValueError(f"bytecode version {text} is not one tileir writes ({known})")
    return (major, minor)


@attrs.frozen
class OpInfo:
    """One op of the dialect: its mnemonic, bytecode opcode and first version."""

    name: str
    opcode: int
    since: tuple[int, int]
    group: str


def _ops(group: str, since: tuple[int, int], *pairs: tuple[str, int]) -> list[OpInfo]:
    return [OpInfo(name, opcode, since, group) for name, opcode in pairs]


V1, V2, V3, V4, V5 = VERSIONS

_ALL = [
    *_ops(
        "memory",
        V1,
        ("make_tensor_view", 0x43),
        ("make_partition_view", 0x42),
        ("get_tensor_shape", 0x2F),
        ("get_index_space_shape", 0x2D),
        ("load_view_tko", 0x3E),
        ("store_view_tko", 0x66),
        ("load_ptr_tko", 0x3D),
        ("store_ptr_tko", 0x65),
        ("offset", 0x51),
    ),
    *_ops(
        "memory",
        V3,
        ("make_strided_view", 0x74),
        ("make_gather_scatter_view", 0x73),
        ("alloca", 0x71),
    ),
    *_ops(
        "float",
        V1,
        ("addf", 0x02),
        ("subf", 0x67),
        ("mulf", 0x4C),
        ("divf", 0x14),
        ("fma", 0x28),
        ("remf", 0x59),
        ("negf", 0x4F),
        ("absf", 0x00),
        ("maxf", 0x45),
        ("minf", 0x47),
        ("mmaf", 0x49),
    ),
    *_ops("float", V3, ("mmaf_scaled", 0x72)),
    *_ops(
        "int",
        V1,
        ("addi", 0x03),
        ("subi", 0x68),
        ("muli", 0x4E),
        ("shli", 0x60),
        ("shri", 0x61),
        ("divi", 0x15),
        ("remi", 0x5A),
        ("mulhii", 0x4D),
        ("maxi", 0x46),
        ("mini", 0x48),
        ("negi", 0x50),
        ("absi", 0x01),
        ("andi", 0x04),
        ("ori", 0x52),
        ("xori", 0x6C),
        ("mmai", 0x4A),
    ),
    *_ops(
        "math",
        V1,
        ("exp", 0x17),
        ("exp2", 0x18),
        ("log", 0x3F),
        ("log2", 0x40),
        ("sqrt", 0x64),
        ("rsqrt", 0x5D),
        ("sin", 0x62),
        ("cos", 0x12),
        ("tan", 0x69),
        ("sinh", 0x63),
        ("cosh", 0x13),
        ("tanh", 0x6A),
        ("fpowf", 0x54),
        ("ceil", 0x0D),
        ("floor", 0x27),
    ),
    *_ops("math", V2, ("atan2", 0x6E)),
    *_ops("math", V4, ("fpowi", 0x79)),
    *_ops(
        "convert",
        V1,
        ("cmpf", 0x0E),
        ("cmpi", 0x0F),
        ("select", 0x5F),
        ("ftof", 0x2A),
        ("ftoi", 0x2B),
        ("itof", 0x3B),
        ("exti", 0x25),
        ("trunci", 0x6B),
        ("bitcast", 0x09),
        ("int_to_ptr", 0x33),
        ("ptr_to_int", 0x56),
        ("ptr_to_ptr", 0x57),
    ),
    *_ops("convert", V3, ("pack", 0x6F), ("unpack", 0x70)),
    *_ops("reduce", V1, ("reduce", 0x58), ("scan", 0x5E)),
    *_ops(
        "shape",
        V1,
        ("constant", 0x10),
        ("iota", 0x3A),
        ("broadcast", 0x0B),
        ("reshape", 0x5B),
        ("permute", 0x53),
        ("cat", 0x0C),
        ("extract", 0x26),
    ),
    *_ops("shape", V4, ("insert", 0x76)),
    *_ops(
        "control",
        V1,
        ("for", 0x29),
        ("loop", 0x41),
        ("if", 0x32),
        ("continue", 0x11),
        ("break", 0x0A),
        ("yield", 0x6D),
        ("return", 0x5C),
        ("assert", 0x05),
    ),
    *_ops("atomic", V1, ("atomic_rmw_tko", 0x08), ("atomic_cas_tko", 0x07)),
    *_ops("atomic", V3, ("atomic_red_view_tko", 0x75)),
    *_ops(
        "misc",
        V1,
        ("assume", 0x06),
        ("print_tko", 0x55),
        ("make_token", 0x44),
        ("join_tokens", 0x3C),
        ("get_tile_block_id", 0x30),
        ("get_num_tile_blocks", 0x2E),
        ("get_global", 0x2C),
    ),
    *_ops(
        "misc",
        V4,
        ("gdc_wait_tko", 0x78),
        ("gdc_launch_dependents_tko", 0x77),
        ("memory_fence_alias_tko", 0x7A),
    ),
    *_ops(
        "multimem",
        V5,
        ("multimem_load_reduce_view_tko", 0x7B),
        ("multimem_reduce_view_tko", 0x7C),
        ("multimem_store_view_tko", 0x7D),
    ),
    *_ops("structure", V1, ("global", 0x31), ("entry", 0x16), ("module", 0x4B)),
]

#: Every op of Tile IR 13.5, by mnemonic.
OPS: dict[str, OpInfo] = {op.name: op for op in _ALL}
#: Ops that never appear as an instruction in a function body.
STRUCTURAL_OPS: frozenset[str] = frozenset({"global", "entry", "module"})
#: The 105 ops a function body may hold.
BODY_OPS: tuple[str, ...] = tuple(name for name in OPS if name not in STRUCTURAL_OPS)

# -- op traits: facts about groups of ops, defined here once and read by every stage ---------

#: The ops that end a block (and leave it: a region's yield, a loop's continue / break, the
#: function's return).
TERMINATORS: frozenset[str] = frozenset({"continue", "break", "yield", "return"})
#: The loops, whose regions run again (``continue``) or end (``break``).
LOOP_OPS: frozenset[str] = frozenset({"for", "loop"})
#: Ops that hold regions: the loops, ``if``, and the reductions' combiners.
REGION_OPS: frozenset[str] = frozenset({"for", "loop", "if", "reduce", "scan"})
#: Control flow: which blocks run which region (an interpreter steers these itself).
CONTROL_OPS: tuple[str, ...] = ("for", "loop", "if", "continue", "break", "yield", "return")
#: Memory accesses through a tile of pointers (the pointer path).
POINTER_MEMORY_OPS: frozenset[str] = frozenset(
    {"load_ptr_tko", "store_ptr_tko", "atomic_rmw_tko", "atomic_cas_tko"}
)
#: The 13.5 accesses of every replica of a multicast buffer through one partition view.
MULTIMEM_OPS: frozenset[str] = frozenset(
    {"multimem_load_reduce_view_tko", "multimem_reduce_view_tko", "multimem_store_view_tko"}
)
#: Memory accesses through a view of a tensor.
VIEW_MEMORY_OPS: frozenset[str] = (
    frozenset({"load_view_tko", "store_view_tko", "atomic_red_view_tko"}) | MULTIMEM_OPS
)
#: Every op that reads or writes a buffer.
MEMORY_OPS: frozenset[str] = POINTER_MEMORY_OPS | VIEW_MEMORY_OPS
#: Ops that are not free of memory effects, which a reduce / scan body may not hold (even
#: nested in an ``if``); ``assume``, ``for`` and ``loop`` count too (tileirdisasm: "only
#: memory-effect-free operations are allowed inside 'cuda_tile.reduce'").
EFFECT_OPS: frozenset[str] = MEMORY_OPS | frozenset(
    {
        "print_tko",
        "assert",
        "gdc_wait_tko",
        "gdc_launch_dependents_tko",
        "memory_fence_alias_tko",
        "alloca",
        "assume",
        "for",
        "loop",
    }
)

_BY_OPCODE = {op.opcode: op for op in _ALL}


def op_by_opcode(opcode: int) -> OpInfo | None:
    return _BY_OPCODE.get(opcode)


#: Enum attributes: name -> spellings in value order (value = index).
ENUMS: dict[str, tuple[str, ...]] = {
    "rounding": (
        "nearest_even",
        "zero",
        "negative_inf",
        "positive_inf",
        "approx",
        "full",
        "nearest_int_to_zero",
        "nearest_away",
    ),
    "overflow": ("none", "no_signed_wrap", "no_unsigned_wrap", "no_wrap"),
    "signedness": ("unsigned", "signed"),
    "comparison_predicate": (
        "equal",
        "not_equal",
        "less_than",
        "less_than_or_equal",
        "greater_than",
        "greater_than_or_equal",
    ),
    "comparison_ordering": ("unordered", "ordered"),
    "memory_ordering": ("weak", "relaxed", "acquire", "release", "acq_rel"),
    "memory_scope": ("tl_blk", "device", "sys"),
    "atomic_mode": ("and", "or", "xor", "add", "addf", "max", "min", "umax", "umin", "xchg"),
    "padding_value": ("zero", "neg_zero", "nan", "pos_inf", "neg_inf"),
    "symbol_visibility": ("public", "private"),
    # 13.5 (docs/dialect.md §2): the multimem ops' reduction; umin / umax compare the bits
    # as unsigned integers
    "multimem_reduction_kind": ("add", "min", "max", "and", "or", "xor", "umin", "umax"),
}

assert len(OPS) == 108 and len(BODY_OPS) == 105, (len(OPS), len(BODY_OPS))
