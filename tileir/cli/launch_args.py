"""A bytecode file and its launch on the command line, for ``run``, ``trace``, ``explain``.

``tileir run FILE.tilebc --grid X[,Y[,Z]] [--entry NAME] [--convention raw|cutile] ARG...``:
``FILE`` is a Tile IR bytecode file from any producer; each ``ARG`` is a ``.npy`` file (an
array argument) or a number (a scalar), spread over the entry by the calling convention
(:mod:`tileir.host.conventions`).  The same arguments serve ``trace`` and ``explain``, so
all three read them here.  A name is a bytecode file when it names an existing file or ends
in a bytecode suffix or holds a ``/``; anything else is a registered kernel (or a
``FILE.py:ATTR`` spec).
"""

from __future__ import annotations

import argparse
import os
from typing import Any, Optional, Sequence

import attrs
import numpy as np

from tileir.cli.files import read_input
from tileir.errors import LaunchError

__all__ = [
    "BytecodeLaunch",
    "BYTECODE_SUFFIXES",
    "add_launch_arguments",
    "is_bytecode_name",
    "parse_value",
    "load_launch",
]

#: file names taken for bytecode even when the file is missing (it is then refused)
BYTECODE_SUFFIXES = (".tilebc", ".tileirbc", ".bc", ".cutile")


def _grid(text: str) -> tuple:
    try:
        parts = tuple(int(p) for p in text.replace(" ", "").split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a grid is X[,Y[,Z]] (integers), got {text!r}")
    if not 1 <= len(parts) <= 3 or min(parts) < 1:
        raise argparse.ArgumentTypeError(f"a grid is 1 to 3 positive integers, got {text!r}")
    return parts


def add_launch_arguments(parser: argparse.ArgumentParser) -> None:
    """The options and ARGs of a bytecode file's launch (left unused for a kernel name)."""
    # lazy: the conventions' names are the table's keys
    from tileir.host.conventions import CONVENTIONS

    parser.add_argument(
        "args",
        nargs="*",
        metavar="ARG",
        help="for a bytecode file: a .npy file (an array argument) or a number (a scalar)",
    )
    parser.add_argument(
        "--grid", type=_grid, default=None, metavar="X[,Y[,Z]]", help="the launch's grid"
    )
    parser.add_argument(
        "--entry", default=None, help="the entry to run (may be left out for one entry)"
    )
    parser.add_argument(
        "--convention",
        default="raw",
        # tileir's own needs the recorded kernel's markers, which a file does not carry
        choices=tuple(n for n in CONVENTIONS if n != "tileir"),
        help="how arrays become entry parameters: raw (one pointer each, C order) or "
        "cutile (pointer, shape, strides in elements, as cuTile Python's entries)",
    )


def is_bytecode_name(name: str) -> bool:
    """True when ``name`` means a bytecode file rather than a kernel."""
    if name.endswith(BYTECODE_SUFFIXES):
        return True
    # a kernel's name has no ':' (that is a FILE.py:ATTR spec) and no '/' (that is a path)
    return ":" not in name and (os.sep in name or os.path.exists(name))


def parse_value(text: str, index: int) -> Any:
    """ARG ``text``: the array of a ``.npy`` file, or an int, or a float."""
    if text.endswith(".npy") or os.path.isfile(text):
        try:
            return np.load(text, allow_pickle=False)
        except FileNotFoundError:
            raise ValueError(f"argument {index}: no file {text!r}") from None
        except (OSError, ValueError) as err:
            raise ValueError(f"argument {index}: {text!r} is not a .npy array ({err})") from None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    raise ValueError(f"argument {index}: {text!r} is neither a .npy file nor a number")


@attrs.frozen(eq=False)
class BytecodeLaunch:
    """A bytecode file's launch as the command line gave it: the decoded ``module`` (only
    the chosen entry kept, so tools that take a bare Module run that one), the user's
    ``values`` (arrays and numbers), the ``binding`` of them to the entry, and the grid."""

    path: str
    module: Any
    entry: str
    values: list
    binding: Any
    grid: tuple
    convention: str

    @property
    def entry_args(self) -> list:
        """The entry's flat arguments (what the interpreter and the debuggers take)."""
        return list(self.binding.values)


def load_launch(
    path: str,
    texts: Sequence[str],
    grid: Optional[tuple],
    entry: Optional[str],
    convention: str,
) -> BytecodeLaunch:
    """Read, decode and bind a bytecode file's launch (one-line errors for a bad call)."""
    # lazy: start-up cost, a command loads only the stages it runs
    from tileir.encode import decode
    from tileir.fake.bytecode import entry_of
    from tileir.host.conventions import convention_of

    if not os.path.exists(path):
        raise ValueError(f"no file {path!r}")
    module = decode(read_input(path))  # a regular file of bounded size, nothing else
    fn = entry_of(module, entry)
    values = [parse_value(t, i) for i, t in enumerate(texts)]
    try:
        binding = convention_of(convention).bind(fn.params, values)
    except LaunchError as err:
        raise err.with_context(kernel=fn.name) from None
    if grid is None:
        raise LaunchError(
            "a launch of bytecode needs its grid: give --grid X[,Y[,Z]]",
            kernel=fn.name,
            op="run",
            kind="bytecode.grid",
        )
    only = attrs.evolve(module, functions=(fn,))
    return BytecodeLaunch(path, only, fn.name, values, binding, tuple(grid), convention)
