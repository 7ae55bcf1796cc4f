"""Where in the user's source an operation was written.

Every recorded operation keeps the file, line and column of the user's code
that made it, so refusals, the interpreter, the debugger and the bytecode's
debug section can point back at it.  "The user's code" is the first frame
outside the tileir package itself; the bundled kernels under
``tileir/kernels`` count as user code, and ``tileir/testing`` does not.

``user_loc`` runs for almost every recorded tile, so it keeps two memo caches
(the only state of this module; both hold facts that never change for their key):

* whether a file is user code, keyed by the file's *absolute* name as the code
  object spells it (a relative name depends on the working directory, so it is
  classified afresh on every call, exactly as before);
* per code object, keyed by ``id(code)``: its column table (one entry per
  instruction, from ``co_positions``) and the Locs already made in it, by
  instruction and line (a Loc is an immutable value: one serves every op made
  there), its Subprogram when it is a helper, and its Locs as called from each call
  site; the entry holds the code object itself, so its id cannot be reused by
  another object while the entry exists.

A helper function the body calls (plainly or with ``yield from``) is seen as the user
frames between the innermost one and the first of tileir's own: an op recorded in a
helper gets the helper's own subprogram and, as its ``caller``, where the helper was
called from (docs/bytecode.md §3.8: a ``CallSite``), as cuTile writes its inlined helpers.
"""

from __future__ import annotations

import os
import sys
from types import FrameType
from typing import Optional

import attrs

from tileir.ir.memo import memo_table, remember
from tileir.ir.module import DIFile, Loc, Subprogram

__all__ = ["user_loc", "code_loc"]

# the tileir package: this file is tileir/record/source.py
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_KERNELS_DIR = os.path.join(_PACKAGE_DIR, "kernels") + os.sep
_TESTING_DIR = os.path.join(_PACKAGE_DIR, "testing") + os.sep

#: absolute co_filename -> True when frames of that file are the user's code
_IS_USER: dict[str, bool] = memo_table("record.source: user files")
#: id(code) -> (code, columns, locs): columns[i] is the 1-based column of instruction i;
#: locs maps (instruction, line) -> the Loc made there (Locs are immutable: one is shared)
_COLUMNS: dict[int, tuple] = memo_table("record.source: column tables")
#: the column tables kept at most (a process that compiles code without end stays bounded)
_MAX_CODES = 4096


def _is_library(filename: str) -> bool:
    if not filename.startswith(_PACKAGE_DIR):
        return filename.startswith("<frozen") or "/attr/_make.py" in filename
    return not filename.startswith(_KERNELS_DIR)


def _classify(co_filename: str) -> bool:
    """True when ``co_filename`` holds user code (memoized for absolute names)."""
    filename = os.path.abspath(co_filename)
    user = not _is_library(filename) and not filename.startswith(_TESTING_DIR)
    if os.path.isabs(co_filename):
        _IS_USER[co_filename] = user
    return user


def _code_entry(code) -> tuple:
    entry = _COLUMNS.get(id(code))
    if entry is not None and entry[0] is code:
        return entry
    positions = getattr(code, "co_positions", None)
    if positions is None:
        columns: tuple = ()
    else:
        columns = tuple(1 if p[2] is None else p[2] + 1 for p in positions())
    entry = remember(_COLUMNS, id(code), (code, columns, {}), _MAX_CODES)
    return entry


def _frame_loc(frame: FrameType) -> Loc:
    """The location ``frame`` is at now (memoised by code object, instruction and line)."""
    code = frame.f_code
    _code, columns, locs = _code_entry(code)
    key = (frame.f_lasti, frame.f_lineno)
    loc = locs.get(key)
    if loc is None:
        lasti = key[0]
        column = 1
        if lasti >= 0 and lasti // 2 < len(columns):
            column = columns[lasti // 2]
        loc = locs[key] = Loc(code.co_filename, key[1], column, code.co_name)
    return loc


def code_loc(code) -> Loc:
    """The location of function ``code`` itself: its first line, column 1 (memoised)."""
    memo = _code_entry(code)[2]
    found = memo.get("code")
    if found is None:
        found = memo["code"] = Loc(code.co_filename, code.co_firstlineno, 1, code.co_name)
    return found


def _subprogram(code) -> Subprogram:
    """The debug subprogram of a helper function: its file, its first line (a decorator's,
    when it has one, as Python numbers it), its name and a linkage name unique to it."""
    entry = _code_entry(code)
    found = entry[2].get("subprogram")
    if found is None:
        folder, base = os.path.split(code.co_filename)
        file = DIFile(base, folder)
        line = code.co_firstlineno
        qualname = getattr(code, "co_qualname", code.co_name)
        found = Subprogram(file, line, code.co_name, f"{qualname}@{base}:{line}", file, line)
        entry[2]["subprogram"] = found
    return found


def _called(loc: Loc, code, caller: Loc) -> Loc:
    """``loc``, in helper ``code``, called at ``caller`` (memoised per pair)."""
    memo = _code_entry(code)[2]
    key = ("called", loc, caller)
    found = memo.get(key)
    if found is None:
        found = memo[key] = attrs.evolve(loc, scope=_subprogram(code), caller=caller)
    return found


def user_loc(skip: int = 1) -> Optional[Loc]:
    """The location of the innermost frame that is not tileir's own code.

    When that frame is a helper function the kernel body called (the user frames right
    outside it, up to the first of tileir's own, are the calls that led there), the Loc
    lies in the helper's own :class:`~tileir.ir.module.Subprogram` and its ``caller`` is
    the call's location, so the debug section can say where a helper was called from;
    the body's own frame (the outermost of them) keeps the entry's scope (``None``).
    """
    frame: Optional[FrameType] = sys._getframe(skip)
    is_user = _IS_USER
    while frame is not None:
        code = frame.f_code
        user = is_user.get(code.co_filename)
        if user is None:
            user = _classify(code.co_filename)
        if user:
            break
        frame = frame.f_back
    if frame is None:
        return None
    outer = frame.f_back
    if outer is not None:
        user = is_user.get(outer.f_code.co_filename)
        if user is None:
            user = _classify(outer.f_code.co_filename)
    if outer is None or not user:
        # the common case, a kernel body's own line: _frame_loc's memo read here, inline
        # (the hot path makes one Python call where it made three)
        entry = _COLUMNS.get(id(code))
        if entry is not None and entry[0] is code:
            found = entry[2].get((frame.f_lasti, frame.f_lineno))
            if found is not None:
                return found
        return _frame_loc(frame)
    chain = [frame]
    while outer is not None:
        user = is_user.get(outer.f_code.co_filename)
        if user is None:
            user = _classify(outer.f_code.co_filename)
        if not user:
            break
        chain.append(outer)
        outer = outer.f_back
    loc = _frame_loc(chain[-1])  # the body: in the entry's own subprogram
    for inner in reversed(chain[:-1]):
        loc = _called(_frame_loc(inner), inner.f_code, loc)
    return loc
