"""Dispatch of ``tileir COMMAND ...`` to the module that implements the command.

Each command lives in its own module under ``tileir.cli`` and provides
``add_arguments(parser)`` and ``run(args) -> int``; modules are imported only
when their command runs, so a missing optional dependency of one command never
breaks another.  Every :class:`tileir.errors.TileIRError` becomes one clear
line on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Optional, Sequence

from tileir.errors import TileIRError

#: command -> (module under tileir.cli, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "list": ("tileir.cli.kernels_cmd", "list the registered kernels, one a line"),
    "render": ("tileir.cli.kernels_cmd", "print a kernel's cuda_tile text"),
    "main": (
        "tileir.cli.kernels_cmd",
        "record, render, encode and run every bundled kernel on the fake device",
    ),
    "encode": ("tileir.cli.bytecode_cmd", "write a kernel's bytecode"),
    "disasm": ("tileir.cli.bytecode_cmd", "print bytecode as text with tileir's decoder"),
    "asm": ("tileir.cli.bytecode_cmd", "assemble a kernel into a cubin with tileiras"),
    "golden": ("tileir.cli.golden_cmd", "check or update the pinned golden text and bytecode"),
    "gates": ("tileir.cli.gates_cmd", "run a gate (text, asm, fake, device) over the goldens"),
    "run": (
        "tileir.cli.run_cmd",
        "run a kernel, or any producer's bytecode file, on the fake device",
    ),
    "coverage": ("tileir.cli.coverage_cmd", "show which ops, types and attributes are covered"),
    "trace": ("tileir.cli.debug_cmd", "trace a kernel's ops on the fake device"),
    "explain": ("tileir.cli.debug_cmd", "write a page pairing source lines with Tile IR"),
}


def _chosen(argv: Sequence[str]) -> Optional[str]:
    """The command ``argv`` names: its first word that is not an option."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def _parser(chosen: Optional[str]) -> argparse.ArgumentParser:
    """The parser: every command with its help line, and the arguments of ``chosen`` only,
    so that a command imports its own module and no other (start-up time is the import)."""
    parser = argparse.ArgumentParser(
        prog="tileir", description="Record, render, encode, assemble and run Tile IR kernels."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        sp.set_defaults(_module=module_name)
        if name != chosen:
            continue
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue  # the command says what is missing when it is run
        module.add_arguments(name, sp)
    return parser


def _is_value(text: str) -> bool:
    """An ARG that argparse set aside: a file name or a number, not an option."""
    if not text.startswith("-"):
        return True
    try:
        float(text)
        return True
    except ValueError:
        return False


def _parse(parser: argparse.ArgumentParser, argv: Optional[Sequence[str]]) -> argparse.Namespace:
    # argparse gives a positional list its values only before the first option; a launch's
    # ARGs come after its options too (`run FILE --grid 4 a.npy b.npy`), so the values it
    # leaves over are the command's ARGs when the command takes them
    args, extra = parser.parse_known_args(argv)
    if extra:
        if not isinstance(getattr(args, "args", None), list) or not all(map(_is_value, extra)):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.args = args.args + extra
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = _parser(_chosen(words))
    args = _parse(parser, words)
    if not args.command:
        parser.print_help()
        return 2
    try:
        module = importlib.import_module(args._module)
        return int(module.run(args.command, args) or 0)
    except TileIRError as err:
        print(str(err), file=sys.stderr)
        return 1
    except (KeyError, ValueError, OSError) as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        print(f"tileir {args.command}: {message}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
