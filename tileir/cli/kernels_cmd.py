"""``tileir list``, ``tileir render NAME`` and ``tileir main`` (README's main job)."""

from __future__ import annotations

import argparse
import time

import numpy as np

from tileir.kernels.registry import get, names, specs


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    if command == "render":
        parser.add_argument("name", help="a registered kernel (see `tileir list`)")
        parser.add_argument(
            "--wrap",
            action="store_true",
            help="wrap in `cuda_tile.module @kernels { ... }` (MLIR form)",
        )
        parser.add_argument(
            "-g",
            "--debug-info",
            action="store_true",
            help="annotate ops with their Python source lines",
        )
    elif command == "main":
        parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
        parser.add_argument("--text", action="store_true", help="print every kernel's full text")


def run(command: str, args: argparse.Namespace) -> int:
    if command == "list":
        for spec in specs():
            print(f"{spec.name}\t{spec.family}\t{spec.doc}")
        return 0
    if command == "render":
        kernel = get(args.name).kernel()
        print(kernel.text(wrap=args.wrap, debug_info=args.debug_info), end="")
        return 0
    return _main_job(args)


def _main_job(args: argparse.Namespace) -> int:
    """Record, render, encode and run every bundled kernel on the fake device."""
    # lazy: start-up cost, a command loads only the stages it runs
    from tileir.encode import decode, encode
    from tileir.fake import FakeDevice
    from tileir.text.render import render

    failures = 0
    rng = np.random.default_rng(args.seed)
    chapter = [s for s in specs() if s.family == "chapter"]
    for spec in chapter:
        t0 = time.perf_counter()
        kernel = spec.kernel()
        text = render(kernel.module)
        blob = encode(kernel.module)
        same = decode(blob) == kernel.module
        if args.text:
            print(text, end="")
        inputs, grid = spec.inputs(rng)
        try:
            dev = FakeDevice(mode="both", devices=spec.devices)
            dev.run(kernel, *inputs, grid=grid)
            verdict = "interpreter agrees with the reference"
        except Exception as err:  # noqa: BLE001 - the job reports every kernel, then fails
            failures += 1
            verdict = f"FAILED: {err}"
        ms = (time.perf_counter() - t0) * 1000
        print(
            f"{spec.name:<12} {len(text.splitlines()):>3} lines of text, {len(blob):>5} bytes of "
            f"bytecode (decodes {'equal' if same else 'DIFFERENT'}), grid "
            f"{list(kernel.grid) if kernel.grid else list(grid)}: {verdict} [{ms:.0f} ms]"
        )
        failures += 0 if same else 1
    total = len(names())
    print(
        f"{len(chapter) - failures} of {len(chapter)} chapter kernels recorded, rendered, encoded "
        f"and ran on the fake device ({total} kernels registered; `tileir list` shows them)"
    )
    return 1 if failures else 0
