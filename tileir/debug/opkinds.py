"""How each body op moves data, as the debugger's analyses need to know it.

One entry per body op of the dialect (all 102; tests/debug/test_debug_finders.py
checks the table covers :data:`tileir.ir.dialect.BODY_OPS`).  The kinds:

``elementwise``  result lane i depends on operand lane i only (operands have the
                 result's shape; pointers arithmetic and ``assume`` included)
``select``       elementwise, but the condition picks one of two operands
``broadcast`` ``reshape`` ``permute`` ``cat`` ``extract`` ``insert``
                 move lanes without computing: each has its exact lane map
``reinterpret``  ``pack`` / ``unpack``: change the element size, so the shape
``reduce`` ``scan``  combine lanes along ``dim``
``mma`` ``mma_scaled``  matrix products (lane (i, j) depends on row i and column j)
``source``       make values from nothing the kernel computed: constants, ids,
                 views, tokens, shapes
``load`` ``store`` ``atomic``  memory
``effect``       side effects without data results (assert, print, fences)
``control``      ``for`` / ``loop`` / ``if``: results come from their regions
``terminator``   ``continue`` / ``break`` / ``yield`` / ``return``
"""

from __future__ import annotations

__all__ = ["OP_KINDS", "kind_of", "PLUMBING"]

_GROUPS = {
    "elementwise": (
        "absf absi addf addi andi atan2 bitcast ceil cmpf cmpi cos cosh divf divi exp exp2 "
        "exti floor fma fpowf fpowi ftof ftoi itof log log2 maxf maxi minf mini mulf mulhii "
        "muli negf negi ori remf remi rsqrt shli shri sin sinh sqrt subf subi tan tanh trunci "
        "xori int_to_ptr ptr_to_int ptr_to_ptr offset assume"
    ),
    "select": "select",
    "broadcast": "broadcast",
    "reshape": "reshape",
    "permute": "permute",
    "cat": "cat",
    "extract": "extract",
    "insert": "insert",
    "reinterpret": "pack unpack",
    "reduce": "reduce",
    "scan": "scan",
    "mma": "mmaf mmai",
    "mma_scaled": "mmaf_scaled",
    "source": (
        "constant iota get_tile_block_id get_num_tile_blocks make_token join_tokens get_global "
        "alloca get_tensor_shape get_index_space_shape make_tensor_view make_partition_view "
        "make_strided_view make_gather_scatter_view"
    ),
    "load": "load_view_tko load_ptr_tko multimem_load_reduce_view_tko",
    "store": "store_view_tko store_ptr_tko multimem_store_view_tko",
    "atomic": "atomic_rmw_tko atomic_cas_tko atomic_red_view_tko multimem_reduce_view_tko",
    "effect": "assert print_tko memory_fence_alias_tko gdc_wait_tko gdc_launch_dependents_tko",
    "control": "for loop if",
    "terminator": "continue break yield return",
}

#: op name -> kind (see the module docstring).
OP_KINDS: dict[str, str] = {}
for _kind, _names in _GROUPS.items():
    for _name in _names.split():
        if _name in OP_KINDS:
            raise ValueError(f"op `{_name}` has two kinds")
        OP_KINDS[_name] = _kind

#: Ops the lowering adds to address memory or shape operands: never the "main" op of a call.
PLUMBING = frozenset(
    "assume make_tensor_view make_partition_view make_strided_view make_gather_scatter_view "
    "get_tile_block_id get_num_tile_blocks make_token join_tokens constant broadcast reshape "
    "offset get_global continue yield break return".split()
)


def kind_of(name: str) -> str:
    """The kind of op ``name`` (``unknown`` for a name outside the dialect)."""
    return OP_KINDS.get(name, "unknown")
