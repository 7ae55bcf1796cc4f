"""Effects made and thrown away: a call of an effect maker whose result is discarded.

``store_cell(out, x)`` written without ``yield`` makes an effect and drops it, so the
kernel would be recorded without its store.  Nothing global can see that (an effect
registers nowhere), so the recorder reads the body's code instead: when it drives a
generator, it looks in the generator's bytecode for a call statement -- a call whose
result is popped at once (``CALL`` then ``POP_TOP``) -- whose callee is a name (``f`` or
``mod.f``) that resolves, in the function's globals, closure or builtins, to

* a function marked as returning an effect (the ops' :data:`~tileir.record.effect.EFFECT_MAKER`),
  or ``continue_`` / ``break_`` (their exit must be returned);
* a generator function (a helper with effects, to be called with ``yield from``); the
  helper's own code is read in turn.

The check is sound (it refuses only a call it resolved) and not complete: a callee it
cannot resolve statically (a local variable, a call inside a conditional expression) is
let through; such an effect used as a value is still refused where it is used.

The only state is a memo of the code objects already found clean (a fact of the code,
which never changes), kept as ``source`` keeps its column tables.
"""

from __future__ import annotations

import builtins
import dis
import inspect
from types import CodeType, FunctionType, GeneratorType
from typing import Any, Optional

from tileir.errors import RecordingError
from tileir.ir.memo import memo_table, remember
from tileir.record.effect import EFFECT_MAKER

__all__ = ["check_generator", "check_function"]

#: id(code) -> code, for the code objects read and found clean (the code is held, so its
#: id is not reused while the entry lives)
_CLEAN: dict[int, CodeType] = memo_table("record.dropped: clean code objects")
_MAX_CODES = 4096

_CALLS = frozenset({"CALL", "CALL_KW", "CALL_FUNCTION", "CALL_FUNCTION_KW", "CALL_METHOD"})
_CALL_PARTS = frozenset({"PRECALL", "KW_NAMES", "CACHE"})
_NAME_LOADS = frozenset({"LOAD_GLOBAL", "LOAD_NAME", "LOAD_DEREF", "LOAD_CLASSDEREF"})
_ATTR_LOADS = frozenset({"LOAD_ATTR", "LOAD_METHOD"})


def check_generator(gen: GeneratorType) -> None:
    """Refuse ``gen``'s code (and its helpers') if it drops an effect (see the module)."""
    frame = gen.gi_frame
    if frame is None or _CLEAN.get(id(gen.gi_code)) is gen.gi_code:
        return
    namespace = dict(builtins.__dict__)
    namespace.update(frame.f_globals)
    _check_code(gen.gi_code, namespace, frame.f_locals, 0)


def check_function(fn: object) -> None:
    """Refuse a plain function's code (a loop body or a branch that is not a generator) if
    it drops an effect; a generator function is read when it is driven."""
    if isinstance(fn, FunctionType) and not inspect.isgeneratorfunction(fn):
        if _CLEAN.get(id(fn.__code__)) is fn.__code__:
            return
        namespace = dict(builtins.__dict__)
        namespace.update(fn.__globals__)
        _check_code(fn.__code__, namespace, _closure_of(fn), 0)


def _check_code(code: CodeType, namespace: dict, closure: dict, depth: int) -> None:
    entry = _CLEAN.get(id(code))
    if entry is code or depth > 8:
        return
    instrs = [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
    for at, ins in enumerate(instrs):
        if ins.opname not in _CALLS:
            continue
        callee = _callee(instrs, at, namespace, closure)
        if callee is None:
            continue
        discarded = at + 1 < len(instrs) and instrs[at + 1].opname == "POP_TOP"
        if discarded:
            _refuse_dropped(callee, code, ins)
        if isinstance(callee, FunctionType) and inspect.isgeneratorfunction(callee):
            inner = dict(builtins.__dict__)
            inner.update(callee.__globals__)
            _check_code(callee.__code__, inner, _closure_of(callee), depth + 1)
    remember(_CLEAN, id(code), code, _MAX_CODES)


def _closure_of(fn: FunctionType) -> dict:
    cells = fn.__closure__ or ()
    out = {}
    for name, cell in zip(fn.__code__.co_freevars, cells):
        try:
            out[name] = cell.cell_contents
        except ValueError:  # an empty cell: the name is not bound yet
            pass
    return out


def _refuse_dropped(callee: Any, code: CodeType, ins: dis.Instruction) -> None:
    name = getattr(callee, "__name__", "?")
    positions = getattr(ins, "positions", None)  # Python 3.11 on; starts_line before
    line = (positions.lineno if positions else None) or ins.starts_line or code.co_firstlineno
    where = f"{code.co_filename}:{line}"
    if getattr(callee, EFFECT_MAKER, False):
        if name in ("continue_", "break_"):
            message = (
                f"`{name}(...)` makes a loop exit and this line throws it away; "
                f"`return {name}(...)` from the loop body or the if_ branch"
            )
        else:
            message = (
                f"`{name}(...)` makes an effect and this line throws it away, so it would "
                f"never happen; write `yield {name}(...)` (or `x = yield {name}(...)`)"
            )
        raise RecordingError(message, op=name, where=where)
    if isinstance(callee, FunctionType) and inspect.isgeneratorfunction(callee):
        raise RecordingError(
            f"`{name}(...)` is a helper that has effects (a generator function); called "
            f"without `yield from` it does nothing: write `yield from {name}(...)`",
            op=name,
            where=where,
        )


def _callee(instrs: list, at: int, namespace: dict, closure: dict) -> Optional[Any]:
    """The object a call at ``instrs[at]`` calls, when its callee is a plain name or a
    dotted name and no jump lies inside the call; None when that cannot be known."""
    consumed = 1  # the call leaves one result
    start = at
    while start > 0 and instrs[start - 1].opname in _CALL_PARTS:
        start -= 1
    for ins in instrs[start : at + 1]:
        consumed -= _effect(ins)
    depth = 0
    i = start - 1
    while i >= 0:
        ins = instrs[i]
        if ins.is_jump_target or "JUMP" in ins.opname or ins.opname in ("YIELD_VALUE", "SEND"):
            return None
        depth += _effect(ins)
        if depth >= consumed:
            break
        i -= 1
    if i < 0 or depth != consumed:
        return None
    if instrs[i].opname == "PUSH_NULL":
        i += 1
    head = instrs[i]
    if head.opname not in _NAME_LOADS or not isinstance(head.argval, str):
        return None
    name = head.argval
    table = closure if head.opname in ("LOAD_DEREF", "LOAD_CLASSDEREF") else namespace
    if name not in table:
        return None
    obj = table[name]
    j = i + 1
    while j < len(instrs) and instrs[j].opname in _ATTR_LOADS:
        obj = getattr(obj, str(instrs[j].argval), None)
        if obj is None:
            return None
        j += 1
    # the callee expression must end where the arguments begin
    return obj if _arguments_only(instrs[j:start]) else None


def _arguments_only(args: list) -> bool:
    """True when ``args`` (what lies between the callee expression and the call) only push
    the arguments: their running stack depth never falls below where it started, so none of
    them consumes the resolved name (as ``f(x).g(y)`` would, whose callee is ``g``)."""
    depth = 0
    for ins in args:
        depth += _effect(ins)
        if depth < 0:
            return False
    return True


def _effect(ins: dis.Instruction) -> int:
    try:
        if ins.opcode >= dis.HAVE_ARGUMENT:
            return dis.stack_effect(ins.opcode, ins.arg, jump=False)
        return dis.stack_effect(ins.opcode)
    except ValueError:
        return 0
