"""``tileir encode``, ``tileir asm`` and ``tileir disasm``."""

from __future__ import annotations

import argparse
from pathlib import Path

from tileir.cli.files import read_input
from tileir.kernels.registry import get


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    if command == "disasm":
        parser.add_argument("file", help="a Tile IR bytecode file")
        parser.add_argument(
            "-g", "--debug-info", action="store_true", help="show the source location of each op"
        )
        return
    parser.add_argument("name", help="a registered kernel (see `tileir list`)")
    parser.add_argument("-o", "--output", required=True, help="the file to write")
    parser.add_argument(
        "--version",
        default=None,
        help="bytecode version 13.1 .. 13.5 (default: the lowest that holds the kernel)",
    )
    parser.add_argument(
        "-g",
        "--debug-info",
        action="store_true",
        help="carry each op's Python file and line in the debug section",
    )
    if command == "asm":
        parser.add_argument("--arch", default="sm_90", help="the GPU architecture (sm_90 ...)")


def run(command: str, args: argparse.Namespace) -> int:
    # lazy: start-up cost, a command loads only the stages it runs
    from tileir.encode import decode, encode

    if command == "disasm":
        # lazy: start-up cost, a command loads only the stages it runs
        from tileir.text.render import render

        data = read_input(args.file)  # a regular file of bounded size, nothing else
        print(render(decode(data), debug_info=args.debug_info), end="")
        return 0
    kernel = get(args.name).kernel()
    blob = encode(kernel.module, args.version, debug_info=args.debug_info)
    if command == "encode":
        Path(args.output).write_bytes(blob)
        print(f"wrote {len(blob)} bytes of Tile IR bytecode for `{kernel.name}` to {args.output}")
        return 0
    # lazy: start-up cost, a command loads only the stages it runs
    from tileir.real.tileiras import assemble

    cubin = assemble(blob, args.arch, lineinfo=args.debug_info, kernel=kernel.name)
    Path(args.output).write_bytes(cubin)
    print(f"wrote a {len(cubin)}-byte {args.arch} cubin for `{kernel.name}` to {args.output}")
    return 0
