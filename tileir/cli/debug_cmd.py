"""``tileir trace NAME`` and ``tileir explain NAME -o page.html``: the debugger's commands.

``NAME`` is a registered kernel (``tileir list``) or ``FILE.py:ATTR`` /
``package.module:ATTR`` naming a :class:`~tileir.kernels.registry.KernelSpec`
(a kernel you are debugging need not be registered).  Inputs are the spec's
random inputs (``--seed``).  ``NAME`` may also be a Tile IR bytecode file from any
producer, with its launch given as ``tileir run`` takes it (``--grid``, ``--entry``,
``--convention``, ``ARG...``: :mod:`tileir.cli.launch_args`).

``trace`` prints every op the chosen blocks ran (``--block 3,0``, repeatable;
``--all`` for every block; block 0 by default), each with its source line, its
Tile IR and its values (long tiles summarised).  ``--find`` runs finders on the
same launch: ``nonfinite``, ``padding``, ``races``, ``bounds``, ``untouched``,
``uninitialized`` or ``all``; the command then exits with status 1 when any finder
found something.

``explain`` writes one self-contained HTML page pairing each source line with
the ops it recorded, below a memory map per buffer of the launch on the spec's
inputs (``--no-maps`` leaves them out); ``--trace`` (or ``--block``) adds each op's
values.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys

import attrs
import numpy as np

from tileir.cli.launch_args import add_launch_arguments, is_bytecode_name, load_launch

__all__ = ["add_arguments", "run"]

_FINDERS = ("nonfinite", "padding", "races", "bounds", "untouched", "uninitialized")


def _block(text: str) -> tuple:
    try:
        parts = tuple(int(p) for p in text.replace(" ", "").split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a block is X[,Y[,Z]] (integers), got {text!r}")
    if not 1 <= len(parts) <= 3:
        raise argparse.ArgumentTypeError(f"a block has 1 to 3 coordinates, got {text!r}")
    return parts


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "name",
        help="a registered kernel, FILE.py:ATTR / module:ATTR naming a KernelSpec, or a "
        "Tile IR bytecode file (then --grid and its ARGs)",
    )
    add_launch_arguments(parser)
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    parser.add_argument(
        "--block",
        type=_block,
        action="append",
        default=None,
        metavar="X[,Y[,Z]]",
        help="a block to trace (repeatable)",
    )
    if command == "trace":
        parser.add_argument("--all", action="store_true", help="trace every block")
        parser.add_argument(
            "--limit", type=int, default=None, help="at most this many steps per block"
        )
        parser.add_argument(
            "--width", type=int, default=110, help="cut Tile IR text at this many characters"
        )
        parser.add_argument(
            "--combiners",
            action="store_true",
            help="also show the ops inside reduce / scan combiners",
        )
        parser.add_argument(
            "--find",
            action="append",
            default=None,
            choices=_FINDERS + ("all",),
            help="also run a finder on the launch (repeatable)",
        )
    else:
        parser.add_argument("-o", "--output", required=True, help="the HTML file to write")
        parser.add_argument(
            "--trace",
            action="store_true",
            help="show each op's values in the traced block (block 0 unless --block)",
        )
        parser.add_argument(
            "--no-maps",
            action="store_true",
            help="leave out the memory maps (which block read and wrote each element)",
        )


def resolve(name: str):
    """The KernelSpec ``name`` means: ``FILE.py:ATTR``, ``module:ATTR`` or a registered
    kernel."""
    # lazy: start-up cost, a command loads only the stages it runs
    from tileir.kernels.registry import KernelSpec, get

    if ":" not in name:
        return get(name)
    where, attr = name.rsplit(":", 1)
    if where.endswith(".py") or os.sep in where:
        path = os.path.abspath(where)
        if not os.path.exists(path):
            raise ValueError(f"no file {where!r}")
        mod_name = "_tileir_debug_" + os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(mod_name, path)
        if spec is None or spec.loader is None:
            raise ValueError(f"{where!r} cannot be loaded as a Python module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[mod_name] = module
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    found = getattr(module, attr, None)
    if not isinstance(found, KernelSpec):
        raise ValueError(f"{name}: {attr!r} is {type(found).__name__}, not a KernelSpec")
    return found


@attrs.frozen(eq=False)
class _Decoded:
    """A decoded entry in the shape the explain page reads a kernel: its name, module and
    function (no recorded program: the page places ops by their locations alone)."""

    name: str
    module: object
    program: object = None

    @property
    def function(self):
        return self.module.function(self.name)


def _launch(args):
    """(target, what the page reads, inputs, grid): a Kernel for a kernel name, the decoded
    Module (its chosen entry alone) and the entry's flat arguments for a bytecode file."""
    if is_bytecode_name(args.name):
        launch = load_launch(args.name, args.args, args.grid, args.entry, args.convention)
        return launch.module, _Decoded(launch.entry, launch.module), launch.entry_args, launch.grid
    if args.args or args.grid or args.entry:
        raise ValueError(
            f"`{args.name}` is a kernel: it makes its own inputs (--seed), and ARG, --grid "
            f"and --entry are for a bytecode file"
        )
    spec = resolve(args.name)
    kernel = spec.kernel()
    inputs, grid = spec.inputs(np.random.default_rng(args.seed))
    return kernel, kernel, inputs, grid


def _run_finders(names, kernel, inputs, grid, trace) -> int:
    # lazy: start-up cost, a command loads only the stages it runs
    from tileir import debug
    from tileir.errors import InterpretError

    chosen = _FINDERS if "all" in names else tuple(n for n in _FINDERS if n in names)
    total = 0
    for name in chosen:
        try:
            if name == "nonfinite":
                found = debug.find_nonfinite(trace)
            elif name == "padding":
                found = debug.find_padding_leaks(trace)
            elif name == "races":
                found = debug.find_races(kernel, inputs, grid)
            elif name == "untouched":
                found = debug.find_untouched(kernel, inputs, grid)
            elif name == "uninitialized":
                found = debug.find_uninitialized(kernel, inputs, grid)
            else:
                found = debug.find_out_of_bounds(kernel, inputs, grid)
        except InterpretError as err:  # races cannot be judged on a launch that faults
            print(f"{name}: the launch stopped, nothing to compare: {err}")
            total += 1
            continue
        print(debug.format_findings(found, name))
        total += len(found)
    return total


def _maps(kernel, inputs, grid) -> list:
    """The explain page's memory maps, with the padding leaks marked."""
    # lazy: start-up cost, a command loads only the stages it runs
    from tileir import debug
    from tileir.errors import InterpretError

    try:
        leaks = debug.find_padding_leaks(kernel, inputs, grid)
    except InterpretError:  # a launch that faults: the map places the fault itself
        leaks = []
    return debug.memory_maps(kernel, inputs, grid, findings=leaks)


def run(command: str, args: argparse.Namespace) -> int:
    # lazy: start-up cost, a command loads only the stages it runs
    from tileir import debug

    kernel, shown_kernel, inputs, grid = _launch(args)
    if command == "explain":
        trace = None
        if args.trace or args.block:
            trace = debug.trace_kernel(kernel, inputs, grid, blocks=args.block or [(0,)])
        maps = [] if args.no_maps else _maps(kernel, inputs, grid)
        path = debug.write_explain(shown_kernel, args.output, trace, maps=maps)
        sm = debug.source_map(shown_kernel)
        drawn = f", {len(maps)} memory map(s)" if maps else ""
        print(
            f"{shown_kernel.name}: wrote {path} ({sm.call_count} calls, {sm.op_count} ops, "
            f"{sm.ir_line_count} lines of Tile IR, {sm.byte_size} bytes{drawn})"
        )
        return 0
    blocks = None if args.all else (args.block or [(0,)])
    if args.find:
        # the finders need every block; the printout keeps to the chosen ones
        trace = debug.trace_kernel(kernel, inputs, grid, blocks=None, combiners=args.combiners)
    else:
        trace = debug.trace_kernel(kernel, inputs, grid, blocks=blocks, combiners=args.combiners)
    shown = [None] if blocks is None else blocks
    for b in shown:
        print(trace.summary(block=b, limit=args.limit, width=args.width))
    if not args.find:
        return 0
    return 1 if _run_finders(args.find, kernel, inputs, grid, trace) else 0
