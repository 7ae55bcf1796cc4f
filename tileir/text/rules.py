"""One rendering rule per body op: the op's text after ``results =``, as ``tileirdisasm`` prints it.

Every rule takes the printer (which names values: ``p.use(v)``, ``p.define(v)``)
and the op, reads attributes through the signature table (``attr_of``: absent
means default) and returns the op's text.  Region ops print their regions
through ``p.region``.  The spellings, spacing included (``addf %a, %b  : T``
has two spaces where the default rounding is omitted), were pinned one by one
against ``tileirdisasm`` 13.4.92 on bytecode written with cuTile's writer; see
tests/text/test_render.py.
"""

from __future__ import annotations

from tileir.ir.rule_table import rule_table
from tileir.ir.signatures import SIGNATURES, attr_of, operand_groups
from tileir.text.attr_text import dense_text, predicate_text, scalar_text, string_text, symbol_text
from tileir.text.common import flag, ops, t, types
from tileir.text.memory import MEMORY_RENDER_RULES

__all__ = ["RENDER_RULES"]


def _default(op, name):
    for attr_name, _kind, default in SIGNATURES[op.name].attrs:
        if attr_name == name:
            return default
    raise KeyError(name)


def _changed(op, name) -> bool:
    return attr_of(op, name) != _default(op, name)


def _round(op) -> str:
    # the op's default rounding is left out, its place kept (hence `%a, %b  : T`)
    return f"rounding<{attr_of(op, 'rounding')}>" if _changed(op, "rounding") else ""


def _overflow(op) -> str:
    return f" overflow<{attr_of(op, 'overflow')}>" if _changed(op, "overflow") else ""


# ----------------------------------------------------------------------------- families


def _plain(p, op):  # `negf %x : T`, `andi %a, %b : T`
    return f"{op.name} {ops(p, op.operands)} : {t(op.results[0])}"


def _convert(p, op):  # `bitcast %x : S -> T`
    return f"{op.name} {p.use(op.operands[0])} : {t(op.operands[0])} -> {t(op.results[0])}"


def _float_arith(p, op):  # addf subf mulf divf fma sqrt
    return (
        f"{op.name} {ops(p, op.operands)} {_round(op)}{flag(op, 'flush_to_zero')} "
        f": {t(op.results[0])}"
    )


def _rounding_only(p, op):  # exp tanh
    return f"{op.name} {p.use(op.operands[0])} {_round(op)} : {t(op.results[0])}"


def _ftz_only(p, op):  # exp2 rsqrt
    return f"{op.name} {p.use(op.operands[0])}{flag(op, 'flush_to_zero')} : {t(op.results[0])}"


def _minmax_f(p, op):
    return (
        f"{op.name} {ops(p, op.operands)}{flag(op, 'flush_to_zero')}"
        f"{flag(op, 'propagate_nan')} : {t(op.results[0])}"
    )


def _overflow_op(p, op):  # addi subi muli shli negi
    return f"{op.name} {ops(p, op.operands)}{_overflow(op)} : {t(op.results[0])}"


def _signed_op(p, op):  # shri remi maxi mini
    return f"{op.name} {ops(p, op.operands)} {attr_of(op, 'signedness')} : {t(op.results[0])}"


def _divi(p, op):
    rnd = f" rounding<{attr_of(op, 'rounding')}>" if _changed(op, "rounding") else ""
    return f"divi {ops(p, op.operands)} {attr_of(op, 'signedness')}{rnd} : {t(op.results[0])}"


def _cmpf(p, op):
    return (
        f"cmpf {attr_of(op, 'comparison_predicate')} {attr_of(op, 'comparison_ordering')} "
        f"{ops(p, op.operands)} : {t(op.operands[0])} -> {t(op.results[0])}"
    )


def _cmpi(p, op):
    return (
        f"cmpi {attr_of(op, 'comparison_predicate')} {ops(p, op.operands)}, "
        f"{attr_of(op, 'signedness')} : {t(op.operands[0])} -> {t(op.results[0])}"
    )


def _select(p, op):
    return f"select {ops(p, op.operands)} : {t(op.operands[0])}, {t(op.results[0])}"


def _ftof(p, op):
    x = op.operands[0]
    return f"ftof {p.use(x)} {_round(op)} : {t(x)} -> {t(op.results[0])}"


def _ftoi(p, op):
    x = op.operands[0]
    return (
        f"ftoi {p.use(x)} {attr_of(op, 'signedness')} {_round(op)}"
        f"{flag(op, 'saturating')} : {t(x)} -> {t(op.results[0])}"
    )


def _itof(p, op):
    x = op.operands[0]
    return (
        f"itof {p.use(x)} {attr_of(op, 'signedness')} {_round(op)} : {t(x)} -> {t(op.results[0])}"
    )


def _exti(p, op):
    x = op.operands[0]
    return f"exti {p.use(x)} {attr_of(op, 'signedness')} : {t(x)} -> {t(op.results[0])}"


def _trunci(p, op):
    x = op.operands[0]
    return f"trunci {p.use(x)}{_overflow(op)} : {t(x)} -> {t(op.results[0])}"


def _operand_types(p, op):  # `fpowi %a, %b : A, B`, `mmaf %a, %b, %c : A, B, C`
    return f"{op.name} {ops(p, op.operands)} : {types(op.operands)}"


def _mmaf(p, op):
    return f"mmaf {ops(p, op.operands)}{flag(op, 'fast_acc')} : {types(op.operands)}"


def _mmai(p, op):
    return (
        f"mmai {ops(p, op.operands)} {attr_of(op, 'signedness_lhs')} "
        f"{attr_of(op, 'signedness_rhs')} : {types(op.operands)}"
    )


def _offset(p, op):
    return f"offset {ops(p, op.operands)} : {types(op.operands)} -> {t(op.results[0])}"


# ----------------------------------------------------------------------------- shapes, misc


def _constant(p, op):
    return f"constant {dense_text(attr_of(op, 'value'))} : {t(op.results[0])}"


def _no_operands(p, op):  # iota, make_token, get_tile_block_id, get_num_tile_blocks
    return f"{op.name} : {t(op.results[0])}"


def _permute(p, op):
    perm = ", ".join(str(i) for i in attr_of(op, "permutation"))
    x = op.operands[0]
    return f"permute {p.use(x)} [{perm}] : {t(x)} -> {t(op.results[0])}"


def _cat(p, op):
    return (
        f"cat {ops(p, op.operands)} dim = {attr_of(op, 'dim')} : {types(op.operands)} "
        f"-> {t(op.results[0])}"
    )


def _extract(p, op):
    g = operand_groups(op)
    src = g["source"][0]
    return f"extract {p.use(src)}[{ops(p, g['indices'])}] : {t(src)} -> {t(op.results[0])}"


def _insert(p, op):
    g = operand_groups(op)
    src, dst = g["source"][0], g["destination"][0]
    return f"insert {p.use(src)}, {p.use(dst)}[{ops(p, g['indices'])}] : {t(src)}, {t(dst)}"


def _assume(p, op):
    v = op.operands[0]
    return f"assume {predicate_text(attr_of(op, 'predicate'))}, {p.use(v)} : {t(v)}"


def _print(p, op):
    g = operand_groups(op)
    args = g["args"]
    text = f"print_tko {string_text(attr_of(op, 'format'))}"
    text += "".join(f", {p.use(a)}" for a in args)
    text += "".join(f" token={p.use(t)}" for t in g["token"])
    if args:
        text += f" : {types(args)}"
    if op.results:
        text += f" -> {types(op.results)}"
    return text


def _token_in(p, op):  # gdc_wait_tko / gdc_launch_dependents_tko
    token = "".join(f" token = {p.use(t)}" for t in op.operands)
    return f"{op.name}{token} -> {t(op.results[0])}"


def _fence(p, op):
    return f"memory_fence_alias_tko {p.use(op.operands[0])}"


def _join(p, op):
    return f"join_tokens {ops(p, op.operands)} : {t(op.results[0])}"


def _get_global(p, op):
    return f"get_global {symbol_text(attr_of(op, 'name'))} : {t(op.results[0])}"


def _assert(p, op):
    c = op.operands[0]
    return f"assert {p.use(c)}, {string_text(attr_of(op, 'message'))} : {t(c)}"


def _terminator(p, op):
    if not op.operands:
        return op.name
    return f"{op.name} {ops(p, op.operands)} : {types(op.operands)}"


# ----------------------------------------------------------------------------- regions


def _for(p, op):
    g = operand_groups(op)
    body = op.regions[0]
    iv, iters = body.args[0], body.args[1:]
    lb, ub, step = g["lower"][0], g["upper"][0], g["step"][0]
    text = (
        f"for{flag(op, 'unsigned_cmp', 'unsigned')} {p.define(iv)} in ({p.use(lb)} to "
        f"{p.use(ub)}, step {p.use(step)}) : {t(iv)}"
    )
    if g["init"]:
        pairs = ", ".join(f"{p.define(a)} = {p.use(x)}" for a, x in zip(iters, g["init"]))
        text += f" iter_values({pairs}) -> ({types(op.results)})"
    return text + " {\n" + p.region(body, op) + p.indent + "}"


def _loop(p, op):
    body = op.regions[0]
    text = "loop"
    if op.operands:
        pairs = ", ".join(f"{p.define(a)} = {p.use(x)}" for a, x in zip(body.args, op.operands))
        text += f" iter_values({pairs}) : {types(op.operands)}"
        if op.results:
            text += f" -> {types(op.results)}"
    elif op.results:
        text += f" : {types(op.results)}"
    return text + " {\n" + p.region(body, op) + p.indent + "}"


def _if(p, op):
    then, other = op.regions
    text = f"if {p.use(op.operands[0])}"
    if op.results:
        text += f" -> ({types(op.results)})"
    return (
        text
        + " {\n"
        + p.region(then, op)
        + p.indent
        + "} else {\n"
        + p.region(other, op)
        + p.indent
        + "}"
    )


def _identities(op) -> str:
    return ", ".join(scalar_text(s) for s in attr_of(op, "identities"))


def _reduce_like(p, op, head):
    body = op.regions[0]
    # the line ends in a space; the block's arguments follow on their own line
    text = (
        f"{op.name} {ops(p, op.operands)} {head}identities=[{_identities(op)}] : "
        f"{types(op.operands)} -> {types(op.results)} \n"
    )
    args = ", ".join(f"{p.define(a)}: {t(a)}" for a in body.args)
    return text + f"{p.indent}({args}) {{\n" + p.region(body, op) + p.indent + "}"


def _reduce(p, op):
    return _reduce_like(p, op, f"dim={attr_of(op, 'dim')} ")


def _scan(p, op):
    reverse = "true" if attr_of(op, "reverse") else "false"
    return _reduce_like(p, op, f"dim={attr_of(op, 'dim')} reverse={reverse} ")


_F = {
    "plain": (
        "remf negf absf log log2 sin cos tan sinh cosh ceil floor atan2 fpowf absi "
        "andi ori xori mulhii"
    ),
    "convert": ("bitcast int_to_ptr ptr_to_int ptr_to_ptr pack unpack reshape broadcast"),
    "float_arith": "addf subf mulf divf fma sqrt",
    "rounding_only": "exp tanh",
    "ftz_only": "exp2 rsqrt",
    "minmax_f": "maxf minf",
    "overflow": "addi subi muli shli negi",
    "signed": "shri remi maxi mini",
    "operand_types": "fpowi mmaf_scaled",
    "no_operands": "iota make_token get_tile_block_id get_num_tile_blocks",
    "token_in": "gdc_wait_tko gdc_launch_dependents_tko",
    "terminator": "continue break yield return",
}
_FAMILY_RULE = {
    "plain": _plain,
    "convert": _convert,
    "float_arith": _float_arith,
    "rounding_only": _rounding_only,
    "ftz_only": _ftz_only,
    "minmax_f": _minmax_f,
    "overflow": _overflow_op,
    "signed": _signed_op,
    "operand_types": _operand_types,
    "no_operands": _no_operands,
    "token_in": _token_in,
    "terminator": _terminator,
}

#: op name -> rule(printer, op) -> the op's text after ``results = ``.
RENDER_RULES = rule_table(
    "RENDER_RULES",
    ((name, _FAMILY_RULE[family]) for family, names in _F.items() for name in names.split()),
    {
        "divi": _divi,
        "cmpf": _cmpf,
        "cmpi": _cmpi,
        "select": _select,
        "ftof": _ftof,
        "ftoi": _ftoi,
        "itof": _itof,
        "exti": _exti,
        "trunci": _trunci,
        "mmaf": _mmaf,
        "mmai": _mmai,
        "offset": _offset,
        "constant": _constant,
        "permute": _permute,
        "cat": _cat,
        "extract": _extract,
        "insert": _insert,
        "assume": _assume,
        "print_tko": _print,
        "memory_fence_alias_tko": _fence,
        "join_tokens": _join,
        "get_global": _get_global,
        "assert": _assert,
        "for": _for,
        "loop": _loop,
        "if": _if,
        "reduce": _reduce,
        "scan": _scan,
    },
    MEMORY_RENDER_RULES,
)
