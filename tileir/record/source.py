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
  classified afresh on every call, exactly as before), and the set of those that are
  tileir's own (the frames the search walks past);
* per code object, keyed by ``id(code)``: its column table (one entry per
  instruction, from ``co_positions``) and the Locs already made in it, by
  instruction (a Loc is an immutable value: one serves every op made there; the
  line is the line table's for that instruction, a fact of the code), its Subprogram
  when it is a helper, and its Locs as called from each call site; the entry holds
  the code object itself, so its id cannot be reused by another object while the
  entry exists.

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

__all__ = ["user_loc", "code_loc", "CALLER"]

# the tileir package: this file is tileir/record/source.py
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_KERNELS_DIR = os.path.join(_PACKAGE_DIR, "kernels") + os.sep
_TESTING_DIR = os.path.join(_PACKAGE_DIR, "testing") + os.sep

#: ``user_loc(CALLER)``, asked by a function of tileir's: the search starts at that function's
#: caller, since its own frame is tileir's (the answer is ``user_loc()``'s, the frame made and
#: looked at for nothing skipped: most ops ask, once each)
CALLER = 2

#: absolute co_filename -> True when frames of that file are the user's code
_IS_USER: dict[str, bool] = memo_table("record.source: user files")
#: the absolute co_filenames that are not user code (tileir's own): a dict as a set, whose
#: ``in`` is the whole test for most frames the search walks past
_LIBRARY_FILES: dict[str, bool] = memo_table("record.source: library files")
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
        if not user:
            _LIBRARY_FILES[co_filename] = True
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
    """The location ``frame`` is at now (memoised by code object and instruction: the line
    ``f_lineno`` answers is the line table's line of the instruction ``f_lasti``)."""
    code = frame.f_code
    _code, columns, locs = _code_entry(code)
    lasti = frame.f_lasti
    loc = locs.get(lasti)
    if loc is None:
        column = 1
        if lasti >= 0 and lasti // 2 < len(columns):
            column = columns[lasti // 2]
        loc = locs[lasti] = Loc(code.co_filename, frame.f_lineno, column, code.co_name)
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
    # runs for almost every recorded tile: the frame search and the memo's read are inline
    frame: FrameType = sys._getframe(skip)
    library = _LIBRARY_FILES
    try:
        while True:
            # tileir's own frames, most of those walked past: one dict look each
            while frame.f_code.co_filename in library:
                frame = frame.f_back  # type: ignore[assignment]
            user = _IS_USER.get(frame.f_code.co_filename)
            if user or (user is None and _classify(frame.f_code.co_filename)):
                break
            frame = frame.f_back  # type: ignore[assignment]
    except AttributeError:  # the outermost frame's f_back, None: no user frame at all
        return None
    outer = frame.f_back
    if outer is None or outer.f_code.co_filename in library or not _is_user(outer):
        # the common case, a kernel body's own line (_frame_loc's memo)
        code = frame.f_code
        entry = _COLUMNS.get(id(code))
        if entry is not None and entry[0] is code:
            found = entry[2].get(frame.f_lasti)
            if found is not None:
                return found
        return _frame_loc(frame)
    chain = [frame]
    while outer is not None and _is_user(outer):
        chain.append(outer)
        outer = outer.f_back
    loc = _frame_loc(chain[-1])  # the body: in the entry's own subprogram
    for inner in reversed(chain[:-1]):
        loc = _called(_frame_loc(inner), inner.f_code, loc)
    return loc


def _is_user(frame: FrameType) -> bool:
    """True when ``frame`` runs user code."""
    filename = frame.f_code.co_filename
    user = _IS_USER.get(filename)
    if user is None:
        user = _classify(filename)
    return user
