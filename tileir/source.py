"""Where in the user's source an operation was written.

Every recorded operation keeps the file, line and column of the user's code
that made it, so refusals, the interpreter, the debugger and the bytecode's
debug section can point back at it.  "The user's code" is the first frame
outside the tileir package itself; the bundled kernels under
``tileir/kernels`` count as user code.
"""

from __future__ import annotations

import itertools
import os
import sys
from typing import Optional

from tileir.module import Loc

__all__ = ["user_loc"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_KERNELS_DIR = os.path.join(_PACKAGE_DIR, "kernels") + os.sep
_TESTING_DIR = os.path.join(_PACKAGE_DIR, "testing") + os.sep


def _is_library(filename: str) -> bool:
    if not filename.startswith(_PACKAGE_DIR):
        return filename.startswith("<frozen") or "/attr/_make.py" in filename
    return not filename.startswith(_KERNELS_DIR)


def user_loc(skip: int = 1) -> Optional[Loc]:
    """The location of the innermost frame that is not tileir's own code."""
    frame = sys._getframe(skip)
    while frame is not None:
        filename = os.path.abspath(frame.f_code.co_filename)
        if not _is_library(filename) and not filename.startswith(_TESTING_DIR):
            column = 1
            positions = getattr(frame.f_code, "co_positions", None)
            if positions is not None and frame.f_lasti >= 0:
                pos = next(itertools.islice(positions(), frame.f_lasti // 2, None), None)
                if pos is not None and pos[2] is not None:
                    column = pos[2] + 1
            return Loc(frame.f_code.co_filename, frame.f_lineno, column, frame.f_code.co_name)
        frame = frame.f_back
    return None
