"""The one checker of the Module level: is this a module ``tileiras`` would accept?

:func:`verify` walks every function with a scope chain and checks, in order:

* the entry: rank-0 tile parameters with ids ``0 .. P-1``, a body ending in ``return``;
* scoping: every operand is defined earlier in its block or an enclosing one (or
  is a parameter or block argument in scope) with the type it was defined with,
  and no id is defined twice along a scope chain;
* each op against its signature (tileir/ir/signatures.py): known name, operand
  counts and ``segments``, attribute names, kinds and enum spellings, required
  attributes present, region count;
* types: tile (and view tile) dimensions positive powers of two, at most 2^24
  elements, an even count for f4E2M1FN; no ``ptr<i4>``; tensor views with
  positive static sizes and strides; strided views with positive traversal strides;
* terminators: ``for`` -> ``continue``, ``loop`` -> ``continue``/``break`` (also
  inside ``if``s nested in it), ``if`` / ``reduce`` / ``scan`` -> ``yield``, the
  body -> ``return``, each with the types its parent expects; an early ``return``
  may also end an ``if`` or ``loop`` region when only ``if``s and ``loop``s stand
  between it and the entry;
* the op's own type rules, from :data:`VERIFY_RULES` (one rule per body op).

Rules were checked against the verifier ``tileirdisasm`` 13.4.92 runs on the
bytecode it reads (tests/verify/test_verify.py; property_tests/verifier/test_verify_vs_tileirdisasm.py
draws random modules and asserts both accept exactly the same ones).  Errors are
:class:`tileir.errors.VerifyError` naming the function, the op, its index in the
function (pre-order, as the bytecode numbers ops) and its source location.

>>> from tileir.ir.module import Module, Function, Block, Op, Value
>>> from tileir.types import TileType, F32
>>> x = Value(0, TileType((4,), F32))
>>> verify(Module((Function("k", (x,), Block((), (Op("return"),))),)))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tileir.errors.VerifyError: tileir: kernel `k`: `entry`: parameter %0 is tile<4xf32>; an entry ...
"""

from __future__ import annotations

from typing import NoReturn, Optional, Protocol

from tileir.errors import VerifyError
from tileir.ir.dialect import BODY_OPS, EFFECT_OPS, ENUMS
from tileir.ir.module import (
    Block,
    Bounded,
    Dense,
    DivBy,
    Function,
    Hints,
    Module,
    Op,
    SameElements,
    ScalarAttr,
    Value,
)
from tileir.ir.signatures import SIGNATURES
from tileir.types import (
    MAX_TILE_ELEMENTS,
    Format,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
)
from tileir.verify.rules import TERMINATORS, VERIFY_RULES

__all__ = ["verify", "VERIFY_RULES"]


# attributes without a default that an op may leave out
_OPTIONAL = {
    ("load_view_tko", "memory_scope"),
    ("store_view_tko", "memory_scope"),
    ("load_ptr_tko", "memory_scope"),
    ("store_ptr_tko", "memory_scope"),
    ("load_view_tko", "optimization_hints"),
    ("store_view_tko", "optimization_hints"),
    ("load_ptr_tko", "optimization_hints"),
    ("store_ptr_tko", "optimization_hints"),
    ("multimem_load_reduce_view_tko", "memory_scope"),
    ("multimem_store_view_tko", "memory_scope"),
}


class Fails(Protocol):
    """What the type checks need of a :class:`Check`: how to fail."""

    def fail(self, message: str) -> NoReturn: ...


class Check:
    """What a rule sees: the op, where it is, and how to fail."""

    def __init__(self, module: Module, fn: Function):
        self.module = module
        self.fn = fn
        self.op: Optional[Op] = None
        self.index = -1
        self.parents: list[Op] = []  # enclosing ops, innermost last

    def fail(self, message: str, op: Optional[Op] = None) -> NoReturn:
        op = op or self.op
        where = str(op.loc) if op is not None and op.loc is not None else None
        prefix = f"op #{self.index}: " if op is not None else ""
        raise VerifyError(
            prefix + message,
            kernel=self.fn.name,
            op=op.name if op is not None else "entry",
            where=where,
        )


def _pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _check_tile_shape(c: Fails, t: TileType, what: str, kind: str = "tile") -> None:
    bad = [d for d in t.shape if not _pow2(d)]
    if bad:
        c.fail(
            f"{what} is {t}: every {kind} dimension must be a positive power of two, not {bad[0]}"
        )
    if t.size > MAX_TILE_ELEMENTS:
        c.fail(
            f"{what} is {t}: {t.size} elements, more than the {MAX_TILE_ELEMENTS} a tile may hold"
        )
    if getattr(t.element, "name", None) == "f4E2M1FN" and t.size % 2:
        c.fail(f"{what} is {t}: f4E2M1FN tiles need an even number of elements")


def _check_tensor_view(c: Fails, t: TensorViewType, what: str) -> None:
    # static sizes and strides must be positive (tileirdisasm: "dimensions must have strictly
    # positive constant sizes / strides"); a stride of 0 is refused too
    for entries, name in ((t.shape, "size"), (t.strides, "stride")):
        bad = [e for e in entries if e is not None and e <= 0]
        if bad:
            c.fail(f"{what} is {t}: a static {name} must be positive, not {bad[0]}")
    if t.element.name == "i4":
        c.fail(f"{what} is {t}: tensor views do not hold i4")


def check_tile_type(c: Fails, t: object, what: str) -> None:
    """Tile, pointer and view types the dialect allows (CT:Verif, probed with tileirdisasm)."""
    if isinstance(t, TileType):
        _check_tile_shape(c, t, what)
        if isinstance(t.element, PointerType) and t.element.pointee.name == "i4":
            c.fail(f"{what} is {t}: there are no pointers to i4")
    elif isinstance(t, TensorViewType):
        _check_tensor_view(c, t, what)
    elif isinstance(t, (PartitionViewType, StridedViewType, GatherScatterViewType)):
        # the view's tile obeys the rules of tiles (powers of two, size, even f4 count)
        _check_tile_shape(c, TileType(t.tile_shape, t.tensor_view.element), what, "view tile")
        _check_tensor_view(c, t.tensor_view, what)
        if isinstance(t, StridedViewType) and any(s <= 0 for s in t.traversal_strides):
            c.fail(f"{what} is {t}: traversal strides must be positive")


# ----------------------------------------------------------------------------- attributes


def _kind_ok(kind: str, value) -> bool:
    base, _, enum = kind.partition(":")
    if base == "enum":
        return isinstance(value, str) and value in ENUMS[enum]
    if base in ("unit", "bool"):
        return isinstance(value, bool)
    if base == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if base == "i32[]":
        return isinstance(value, tuple) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        )
    if base == "bool[]":
        return isinstance(value, tuple) and all(isinstance(v, bool) for v in value)
    if base == "str":
        return isinstance(value, str)
    if base == "dense":
        return isinstance(value, Dense)
    if base == "scalars":
        return isinstance(value, tuple) and all(isinstance(v, ScalarAttr) for v in value)
    if base == "predicate":
        return isinstance(value, (DivBy, SameElements, Bounded))
    if base == "hints":
        return isinstance(value, Hints) and all(
            isinstance(k, str) and isinstance(v, (int, bool))
            for _a, items in value.by_arch
            for k, v in items
        )
    raise AssertionError(kind)


def _check_attrs(c: Check, op: Op) -> None:
    declared = {name: (kind, default) for name, kind, default in SIGNATURES[op.name].attrs}
    for name, value in op.attrs.items():
        if name not in declared:
            known = ", ".join(declared) or "none"
            c.fail(f"unknown attribute {name!r} (`{op.name}` has: {known})")
        kind, default = declared[name]
        if value is None and default is None and (op.name, name) in _OPTIONAL:
            continue
        if not _kind_ok(kind, value):
            if kind.startswith("enum:"):
                spellings = ", ".join(ENUMS[kind[5:]])
                c.fail(f"attribute {name} = {value!r} is not one of {spellings}")
            c.fail(f"attribute {name} = {value!r} is not of kind {kind}")
    for name, (kind, default) in declared.items():
        if default is None and (op.name, name) not in _OPTIONAL and name not in op.attrs:
            c.fail(f"required attribute {name!r} ({kind}) is missing")


def _check_operands(c: Check, op: Op) -> None:
    groups = SIGNATURES[op.name].operands
    open_groups = [name for name, kind in groups if kind != "1"]
    if op.segments is None:
        if len(open_groups) > 1:
            c.fail(
                f"needs `segments` to split its {len(op.operands)} operands into "
                f"{', '.join(name for name, _ in groups)}"
            )
        fixed = len(groups) - len(open_groups)
        if len(op.operands) < fixed or (not open_groups and len(op.operands) != fixed):
            c.fail(
                f"takes {'at least ' if open_groups else ''}{fixed} operands "
                f"({', '.join(n for n, _ in groups)}), got {len(op.operands)}"
            )
        counts = [1 if kind == "1" else len(op.operands) - fixed for _, kind in groups]
    else:
        counts = list(op.segments)
        if len(counts) != len(groups):
            c.fail(
                f"segments {tuple(counts)} do not match its {len(groups)} operand groups "
                f"({', '.join(name for name, _ in groups)})"
            )
        if sum(counts) != len(op.operands):
            c.fail(
                f"segments {tuple(counts)} add up to {sum(counts)}, but it has "
                f"{len(op.operands)} operands"
            )
    for (name, kind), n in zip(groups, counts):
        if (kind == "1" and n != 1) or (kind == "?" and n > 1) or n < 0:
            want = {"1": "exactly one", "?": "at most one", "*": "any number of"}[kind]
            c.fail(f"operand group `{name}` takes {want} value, got {n}")
    if len(op.regions) != SIGNATURES[op.name].regions:
        c.fail(
            f"has {len(op.regions)} regions, the dialect gives it {SIGNATURES[op.name].regions}"
        )


# ----------------------------------------------------------------------------- scopes


class _Scopes:
    def __init__(self, c: Check):
        self.c = c
        self.chain: list[dict[int, Value]] = [{}]

    def define(self, v: Value, what: str) -> None:
        if not isinstance(v, Value):
            self.c.fail(f"{what} {v!r} is not a Value")
        for scope in self.chain:
            if v.id in scope:
                self.c.fail(
                    f"{what} %{v.id} ({v.type}) is already defined in this scope "
                    f"(as {scope[v.id].type})"
                )
        check_tile_type(self.c, v.type, f"{what} %{v.id}")
        self.chain[-1][v.id] = v

    def use(self, v: Value, position: int) -> None:
        for scope in reversed(self.chain):
            if v.id in scope:
                if scope[v.id].type != v.type:
                    self.c.fail(
                        f"operand {position} is %{v.id} as {v.type}, but %{v.id} was "
                        f"defined as {scope[v.id].type}"
                    )
                return
        self.c.fail(
            f"operand {position} (%{v.id}: {v.type}) is not defined before this op "
            "in its block or an enclosing one"
        )


def _walk_block(c: Check, scopes: _Scopes, block: Block, parent: Optional[Op]) -> None:
    if not block.ops:
        where = f"a region of `{parent.name}`" if parent else "the function body"
        c.fail(f"{where} is empty; it must end in a terminator")
    for position, op in enumerate(block.ops):
        c.index += 1
        c.op = op
        if op.name not in BODY_OPS:
            c.fail(f"`{op.name}` is not a body op of the cuda_tile dialect")
        last = position == len(block.ops) - 1
        if op.name in TERMINATORS and not last:
            c.fail(f"`{op.name}` ends a block; {len(block.ops) - position - 1} op(s) follow it")
        if last:
            _check_terminator(c, op, parent)
        if op.name in EFFECT_OPS and any(p.name in ("reduce", "scan") for p in c.parents):
            c.fail(f"`{op.name}` is not memory-effect-free; a reduce or scan body may not hold it")
        for i, v in enumerate(op.operands):
            scopes.use(v, i)
        _check_operands(c, op)
        _check_attrs(c, op)
        VERIFY_RULES[op.name](c, op)
        if op.regions:
            index = c.index
            c.parents.append(op)
            for region in op.regions:
                scopes.chain.append({})
                # block arguments are checked as the op itself; nested ops keep their numbers
                here, c.op, c.index = c.index, op, index
                for arg in region.args:
                    scopes.define(arg, f"block argument of `{op.name}`")
                c.index = here
                _walk_block(c, scopes, region, op)
                scopes.chain.pop()
            c.parents.pop()
            saved, c.op, c.index = c.index, op, index
            for v in op.results:
                scopes.define(v, "result")
            c.index = saved
            continue
        for v in op.results:
            scopes.define(v, "result")


def _check_terminator(c: Check, op: Op, parent: Optional[Op]) -> None:
    # `return` may also end an `if` or `loop` region (an early exit); its own rule checks
    # that nothing but `if`s and `loop`s stand between it and the entry
    wanted = {
        None: ("return",),
        "for": ("continue",),
        "loop": ("continue", "break", "return"),
        "if": ("yield", "continue", "break", "return"),
        "reduce": ("yield",),
        "scan": ("yield",),
    }
    allowed = wanted[parent.name if parent else None]
    if op.name not in allowed:
        where = f"a region of `{parent.name}`" if parent else "the function body"
        c.fail(f"{where} must end in {' or '.join(f'`{a}`' for a in allowed)}, not `{op.name}`")


def _check_hints(hints, fail) -> None:
    # tileiras 13.4.92 ignores unknown keys and out-of-range values; only the shape is checked
    if not isinstance(hints, Hints):
        fail(f"optimization hints {hints!r} are not a Hints value")
    for arch, items in hints.by_arch:
        if not isinstance(arch, str) or not arch:
            fail(f"optimization hints: {arch!r} is not an architecture key")
        for key, value in items:
            if not isinstance(key, str) or not isinstance(value, (int, bool)):
                fail(
                    f"optimization hints: {arch} = {{{key} = {value!r}}} is not a key with an "
                    "integer or boolean value"
                )


class _GlobalCheck:
    """What :func:`check_tile_type` needs of a Check, for a global: failing names it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, message: str) -> NoReturn:
        raise VerifyError(f"global @{self.name}: {message}", op="global")


def _verify_globals(module: Module) -> None:
    names = set()
    for g in module.globals:
        check = _GlobalCheck(g.name)
        fail = check.fail
        if g.name in names:
            fail("defined twice")
        names.add(g.name)
        if not isinstance(g.value, Dense) or g.value.type.rank != 1:
            fail(f"its value must be a rank-1 dense tile, got {getattr(g.value, 'type', g.value)}")
        if not isinstance(g.value.type.element, Format):
            fail(f"its value holds {g.value.type.element}, not numbers")
        check_tile_type(check, g.value.type, "its value")
        if g.visibility not in ENUMS["symbol_visibility"]:
            fail(f"visibility {g.visibility!r} is not public or private")
        if not isinstance(g.alignment, int) or g.alignment < 0:
            fail(f"alignment {g.alignment!r} is not a byte count")


def verify(module: Module) -> None:
    """Raise :class:`tileir.errors.VerifyError` at the first rule ``module`` breaks."""
    _verify_globals(module)
    names = set()
    for fn in module.functions:
        if fn.name in names:
            raise VerifyError(f"two entries are named {fn.name!r}", kernel=fn.name)
        names.add(fn.name)
        _verify_function(module, fn)


def _verify_function(module: Module, fn: Function) -> None:
    c = Check(module, fn)
    if fn.hints is not None:
        _check_hints(fn.hints, c.fail)
    scopes = _Scopes(c)
    for i, p in enumerate(fn.params):
        if p.id != i:
            c.fail(f"parameter {i} has id %{p.id}; parameters are %0 .. %{len(fn.params) - 1}")
        if not isinstance(p.type, TileType) or p.type.rank != 0:
            c.fail(f"parameter %{p.id} is {p.type}; an entry takes rank-0 tiles only")
        scopes.define(p, "parameter")
    _walk_block(c, scopes, fn.body, None)
