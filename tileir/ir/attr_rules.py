"""Pure rules for the attribute values the recorder accepts on each op.

Every rule answers or raises :class:`~tileir.errors.RuleError` with the
reason in words; the kernel-facing ops add the op, the operands and the line.
The tables follow what the dialect's verifier (as ``tileirdisasm`` 13.4.92 runs
it) accepts; ``tests/ops/test_ops_every_op.py`` holds the recorder's verdict and
:func:`tileir.verify.checker.verify`'s side by side over every format pair and value.

>>> check_float_modifiers("addf", Format("f32"), "zero", True)
>>> check_float_modifiers("addf", Format("f64"), None, True)
Traceback (most recent call last):
...
tileir.errors.RuleError: flush_to_zero is for f32 tiles only; these are f64
>>> ftof_roundings(Format("f32"), Format("f8E8M0FNU"))
('zero', 'positive_inf')
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

from tileir.errors import RuleError
from tileir.ir.dialect import ENUMS
from tileir.ir.module import Hints
from tileir.types import Format

__all__ = [
    "IEEE",
    "FLOAT_ROUNDINGS",
    "ARITH_FORMATS",
    "check_choice",
    "check_arith_format",
    "check_float_modifiers",
    "check_overflow",
    "check_int_division",
    "ftof_roundings",
    "ftof_compiles",
    "is_power_of_two",
    "check_access",
    "check_atomic",
    "check_multimem",
    "MULTIMEM_FORMATS",
    "MULTIMEM_ORDERINGS",
    "ATOMIC_MODES",
    "HINT_ARCHS",
    "entry_hints",
]


def is_power_of_two(n: int) -> bool:
    """``n`` is 1, 2, 4, 8, ... (tile dimensions and alignments must be)."""
    return n > 0 and n & (n - 1) == 0


IEEE = ("nearest_even", "zero", "negative_inf", "positive_inf")

#: The roundings each float op takes (CT:Verif); the first is its default.
FLOAT_ROUNDINGS: dict[str, tuple[str, ...]] = {
    "addf": IEEE,
    "subf": IEEE,
    "mulf": IEEE,
    "fma": IEEE,
    "divf": IEEE + ("approx", "full"),
    "sqrt": IEEE + ("approx",),
    "exp": ("full", "approx"),
    "tanh": ("full", "approx"),
}

#: The element formats arithmetic computes on (narrower floats convert first).
ARITH_FORMATS = {"float": ("f16", "bf16", "f32", "f64"), "int": ("i1", "i8", "i16", "i32", "i64")}

ATOMIC_MODES = ENUMS["atomic_mode"]
# (the modes of an atomic other than atomic_rmw_tko: no exchange)
_MODES_BUT_XCHG = tuple(m for m in ATOMIC_MODES if m != "xchg")
_INT_MODES = ("and", "or", "xor", "add", "max", "min", "umax", "umin")


def check_choice(what: str, value, allowed: Sequence[str]) -> None:
    """``value`` is one of ``allowed`` (spellings), else a RuleError listing them."""
    if value not in allowed:
        raise RuleError(f"{what} {value!r} is not one of {', '.join(allowed)}")


def check_arith_format(op: str, fmt) -> None:
    """``op`` computes on ``fmt`` (f16 / bf16 / f32 / f64, or i1 ... i64)."""
    kind = "float" if getattr(fmt, "is_float", False) else "int"
    if not isinstance(fmt, Format) or fmt.name not in ARITH_FORMATS[kind]:
        hint = "; convert it with .to(F32) first" if kind == "float" else ""
        raise RuleError(
            f"`{op}` computes on {', '.join(ARITH_FORMATS[kind])} tiles, not {fmt}{hint}"
        )


def check_float_modifiers(op: str, fmt: Format, rounding: Optional[str], ftz: bool) -> None:
    """``rounding`` (None: the op's default) and ``flush_to_zero`` are legal on ``op``."""
    if rounding is not None:
        allowed = FLOAT_ROUNDINGS.get(op)
        if allowed is None:
            raise RuleError(f"`{op}` takes no rounding (got {rounding!r})")
        check_choice(f"rounding of `{op}`", rounding, allowed)
        # exp and tanh take `full` on every format; divf's `full` (like `approx`) is f32's alone
        if (rounding == "approx" or rounding == "full" and op == "divf") and fmt.name != "f32":
            raise RuleError(
                f"rounding {rounding!r} of `{op}` is for f32 tiles only; these are {fmt}"
            )
    if ftz and fmt.name != "f32":
        raise RuleError(f"flush_to_zero is for f32 tiles only; these are {fmt}")


def check_overflow(op: str, overflow: Optional[str]) -> None:
    """An ``overflow`` flag of an integer op (negi has no no_unsigned_wrap)."""
    if overflow is None:
        return
    allowed = ENUMS["overflow"]
    if op == "negi":
        allowed = tuple(a for a in allowed if a != "no_unsigned_wrap")
    check_choice(f"overflow of `{op}`", overflow, allowed)


def check_int_division(rounding: Optional[str], signed: bool) -> None:
    """divi rounds zero, negative_inf (signed only) or positive_inf."""
    if rounding is None:
        return
    check_choice("rounding of `divi`", rounding, ("zero", "negative_inf", "positive_inf"))
    if rounding == "negative_inf" and not signed:
        raise RuleError("rounding 'negative_inf' needs signed division (signed=True)")


# (min exponent, max exponent, precision) of each float format, as LLVM's fltSemantics
_RANGE = {
    "f16": (-14, 15, 11),
    "bf16": (-126, 127, 8),
    "f32": (-126, 127, 24),
    "tf32": (-126, 127, 11),
    "f64": (-1022, 1023, 53),
    "f8E4M3FN": (-6, 8, 4),
    "f8E5M2": (-14, 15, 3),
    "f8E8M0FNU": (-127, 127, 1),
    "f4E2M1FN": (0, 2, 2),
    "fnv8E5M3FNU": (-14, 16, 4),
}
_ALL_ROUNDINGS = IEEE + ("nearest_away",)


def ftof_roundings(src: Format, dst: Format) -> tuple[str, ...]:
    """The roundings ``ftof`` takes from ``src`` to ``dst`` (the first is the default; into
    f8E8M0FNU there is no nearest_even, so the caller must choose)."""
    if dst.name == "f8E8M0FNU":
        return ("zero", "positive_inf")
    if dst.name in ("f8E4M3FN", "f8E5M2", "f4E2M1FN", "fnv8E5M3FNU"):
        return ("nearest_even",)
    (lo, hi, p), (lo2, hi2, p2) = _RANGE[src.name], _RANGE[dst.name]
    if lo >= lo2 and hi <= hi2 and p <= p2:  # every value fits: any rounding is exact
        return _ALL_ROUNDINGS
    extra = {("f32", "tf32"): ("nearest_away",), ("f64", "f32"): ("negative_inf", "positive_inf")}
    return ("nearest_even", "zero") + extra.get((src.name, dst.name), ())


def ftof_compiles(src: Format, dst: Format, rounding: str) -> bool:
    """Whether tileiras compiles an ftof that its verifier takes (measured, see
    docs/conversions.md): rounding toward an infinity into tf32 (from f16, bf16, the fp8s,
    f4E2M1FN, fnv8E5M3FNU: exact conversions all), and toward an infinity or nearest_away
    into bf16 from f8E4M3FN, f8E5M2 or f4E2M1FN, 13.4.92 answers only "failed to compile
    Tile IR program", on every architecture, and 13.5.37 dies of SIGILL with no message.
    The recorder refuses those; the checker, which follows the dialect's verifier, does not."""
    if dst.name == "tf32":
        return rounding not in ("negative_inf", "positive_inf")
    if dst.name == "bf16" and src.name in ("f8E4M3FN", "f8E5M2", "f4E2M1FN"):
        return rounding not in ("negative_inf", "positive_inf", "nearest_away")
    return True


_ORDERINGS = {"load": ("weak", "relaxed", "acquire"), "store": ("weak", "relaxed", "release")}


def check_access(
    kind: str, ordering: str, scope: Optional[str], latency, allow_tma, pointer: bool
) -> None:
    """A load's or store's ordering, scope and hints (``pointer``: no allow_tma there)."""
    check_choice(f"memory ordering of a {kind}", ordering, _ORDERINGS[kind])
    if ordering == "weak" and scope is not None:
        raise RuleError(
            f"a weak {kind} takes no memory scope (got {scope!r}); give an ordering "
            f"such as {_ORDERINGS[kind][1]!r} with it"
        )
    if scope is not None:
        check_choice("memory scope", scope, ENUMS["memory_scope"])
    if latency is not None and (
        isinstance(latency, bool) or not isinstance(latency, int) or not 1 <= latency <= 10
    ):
        raise RuleError(f"latency {latency!r} is not a whole number from 1 (low) to 10 (high)")
    if allow_tma is not None:
        if pointer:
            raise RuleError(
                f"allow_tma={allow_tma!r}: a hint for view loads and stores (cells), not for "
                f"the pointer path"
            )
        if not isinstance(allow_tma, bool):
            raise RuleError(f"allow_tma {allow_tma!r} is not a bool")


_RMW_ORDERINGS = ("relaxed", "acquire", "release", "acq_rel")


def check_atomic(op: str, mode: Optional[str], fmt: Format, ordering: str, scope: str) -> None:
    """An atomic's mode against its element format, and its ordering and scope."""
    if op == "atomic_red_view_tko":
        check_choice("memory ordering of atomic_red_view_tko", ordering, ("relaxed",))
        check_choice("memory scope of atomic_red_view_tko", scope, ("tl_blk", "device"))
    else:  # (each refusal's words made only when it refuses: every atomic asks)
        if ordering not in _RMW_ORDERINGS:
            check_choice(f"memory ordering of `{op}`", ordering, _RMW_ORDERINGS)
        if scope not in ENUMS["memory_scope"]:
            check_choice(f"memory scope of `{op}`", scope, ENUMS["memory_scope"])
    if mode is None:
        return
    modes = ATOMIC_MODES if op == "atomic_rmw_tko" else _MODES_BUT_XCHG
    if mode not in modes:
        check_choice(f"mode of `{op}`", mode, modes)
    if mode == "addf" and not fmt.is_float:
        raise RuleError(f"mode 'addf' adds floats; the elements are {fmt} (use 'add')")
    if mode in _INT_MODES and not fmt.is_int:
        raise RuleError(
            f"mode {mode!r} works on integers; the elements are {fmt}"
            + (" (use 'addf')" if mode == "add" else "")
        )
    if (
        op == "atomic_red_view_tko"
        and mode in ("max", "min", "umax", "umin")
        and fmt.name not in ("i32", "i64")
    ):
        raise RuleError(
            f"mode {mode!r} of atomic_red_view_tko works on i32 and i64 only, the "
            f"elements are {fmt}"
        )


#: The element formats the multimem ops take (docs/dialect.md §1.13).
MULTIMEM_FORMATS = ("f16", "bf16", "f32", "f64", "i32", "i64")
#: The memory orderings each multimem op takes.
MULTIMEM_ORDERINGS = {
    "multimem_load_reduce_view_tko": ("weak", "relaxed", "acquire"),
    "multimem_reduce_view_tko": ("relaxed", "release"),
    "multimem_store_view_tko": ("weak", "relaxed", "release"),
}
_INT_REDUCTIONS = ("and", "or", "xor", "umin", "umax")


def check_multimem(
    op: str,
    fmt: Format,
    tile_elements: int,
    ordering: str,
    scope: Optional[str],
    reduction: Optional[str],
) -> None:
    """A multimem op's element format, tile size, ordering, scope and reduction, as the 13.5
    verifier takes them (docs/dialect.md §1.13): f16 / bf16 / f32 / f64 / i32 / i64 elements,
    a float tile of a multiple of 4 bytes, an ordering of the op's, a scope exactly when the
    ordering is not weak (``multimem_reduce_view_tko`` is never weak), and a reduction the
    format takes (and / or / xor / umin / umax on integers; min / max on floats only for a
    load-reduce of f16 or bf16; a float reduce only adds)."""
    if fmt.name not in MULTIMEM_FORMATS:
        raise RuleError(f"`{op}` takes elements of {', '.join(MULTIMEM_FORMATS)}; these are {fmt}")
    if fmt.is_float and tile_elements * fmt.bits % 32:
        raise RuleError(
            f"a {fmt} tile of {tile_elements} element(s) is {tile_elements * fmt.bits // 8} "
            f"bytes; `{op}` wants float tiles of a multiple of 4 bytes"
        )
    check_choice(f"memory ordering of `{op}`", ordering, MULTIMEM_ORDERINGS[op])
    if ordering == "weak" and scope is not None:
        raise RuleError(f"a weak `{op}` takes no memory scope (got {scope!r})")
    if ordering != "weak" and scope is None:
        raise RuleError(f"a {ordering} `{op}` needs a memory scope (tl_blk, device or sys)")
    if scope is not None:
        check_choice(f"memory scope of `{op}`", scope, ENUMS["memory_scope"])
    if reduction is None:
        return
    check_choice(f"reduction of `{op}`", reduction, ENUMS["multimem_reduction_kind"])
    if fmt.is_float and reduction in _INT_REDUCTIONS:
        raise RuleError(f"reduction {reduction!r} works on integers; the elements are {fmt}")
    if fmt.is_float and reduction in ("min", "max"):
        if op == "multimem_reduce_view_tko":
            raise RuleError(f"a float `{op}` only adds; reduction {reduction!r} is for integers")
        if fmt.name not in ("f16", "bf16"):
            raise RuleError(
                f"reduction {reduction!r} of `{op}` on floats takes f16 or bf16; the elements "
                f"are {fmt}"
            )


#: Architecture keys of optimization hints (``default`` applies to every target).
HINT_ARCHS = (
    "default",
    "sm_80",
    "sm_86",
    "sm_87",
    "sm_88",
    "sm_89",
    "sm_90",
    "sm_100",
    "sm_103",
    "sm_110",
    "sm_120",
    "sm_121",
)
_ENTRY_HINTS = {
    "num_cta_in_cga": lambda v: is_power_of_two(v) and v <= 16,
    "num_worker_warps_per_cta": lambda v: v in (4, 8),
    "occupancy": lambda v: 1 <= v <= 32,
}
_ENTRY_HINT_TEXT = {
    "num_cta_in_cga": "a power of two up to 16",
    "num_worker_warps_per_cta": "4 or 8",
    "occupancy": "from 1 to 32",
}


def _entry_items(arch: str, items: Mapping) -> tuple:
    out = []
    for key, value in items.items():
        if key not in _ENTRY_HINTS:
            raise RuleError(
                f"entry hint {key!r} (for {arch}) is not one of {', '.join(_ENTRY_HINTS)}"
            )
        if isinstance(value, bool) or not isinstance(value, int) or not _ENTRY_HINTS[key](value):
            raise RuleError(
                f"entry hint {key} = {value!r} (for {arch}) must be {_ENTRY_HINT_TEXT[key]}"
            )
        out.append((key, value))
    return tuple(out)


def entry_hints(spec: Optional[Mapping]) -> Optional[Hints]:
    """The entry's optimization hints from ``{"occupancy": 2, ...}`` (for every target) or
    ``{"sm_90": {...}, "sm_100": {...}}`` (per target)."""
    if spec is None:
        return None
    if not isinstance(spec, Mapping):
        raise RuleError(f"hints must be a dict such as {{'occupancy': 2}}, got {spec!r}")
    if spec and all(k in HINT_ARCHS for k in spec):
        by_arch = []
        for arch, items in spec.items():
            if not isinstance(items, Mapping):
                raise RuleError(f"hints for {arch} must be a dict, got {items!r}")
            by_arch.append((arch, _entry_items(arch, items)))
        return Hints(tuple(by_arch))
    if any(k in HINT_ARCHS for k in spec):
        raise RuleError(
            f"hints {dict(spec)!r} mix architecture keys and hint names; give "
            f"either {{'occupancy': 2}} or {{'sm_90': {{'occupancy': 2}}}}"
        )
    return Hints((("default", _entry_items("default", spec)),))
