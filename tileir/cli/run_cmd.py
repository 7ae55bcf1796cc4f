"""``tileir run NAME [--mode ...] [--seed N]``: a registered kernel on the fake device, and
``tileir run FILE.tilebc --grid X[,Y[,Z]] [--entry NAME] [--convention raw|cutile] ARG...
[-o DIR]``: any producer's bytecode on the fake device (:mod:`tileir.cli.launch_args`).

For a bytecode file each written array argument gets one line, and with ``-o DIR`` it is
saved as ``DIR/arg<i>.npy`` in its own shape and dtype.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from tileir.cli.launch_args import add_launch_arguments, is_bytecode_name, load_launch
from tileir.fake import MODES, FakeDevice


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "name", help="a registered kernel (see `tileir list`), or a Tile IR bytecode file"
    )
    add_launch_arguments(parser)
    parser.add_argument(
        "-o",
        "--output",
        default=None,
        metavar="DIR",
        help="write DIR/arg<i>.npy per written array",
    )
    parser.add_argument(
        "--mode",
        choices=MODES,
        default="both",
        help="interpret the kernel, call its reference, or both and compare",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs")


def _first_values(a: np.ndarray) -> str:
    return np.array2string(np.asarray(a).reshape(-1)[:4], precision=6)


def _run_file(args: argparse.Namespace) -> int:
    # lazy: start-up cost, a command loads only the stages it runs
    from tileir.fake.bytecode import launch_bytecode

    if args.mode != "both":
        raise ValueError(
            "--mode is for a registered kernel: a bytecode file has no reference, and runs "
            "on the interpreter"
        )
    launch = load_launch(args.name, args.args, args.grid, args.entry, args.convention)
    run = launch_bytecode(launch.module, launch.values, launch.grid, convention=launch.convention)
    print(
        f"{run.entry}: grid {list(run.grid)}, convention {launch.convention}, "
        f"{len(run.written)} array(s) written"
    )
    if args.output:
        os.makedirs(args.output, exist_ok=True)
    for i in run.written:
        out = run.outputs[i]
        what = f"argument {i} ({run.formats[i]}{list(out.shape)})"
        if args.output:
            path = os.path.join(args.output, f"arg{i}.npy")
            np.save(path, out, allow_pickle=False)
            print(f"  {what}: written, saved to {path}")
        else:
            print(f"  {what}: written; first values {_first_values(out)}")
    return 0


def run(command: str, args: argparse.Namespace) -> int:
    if is_bytecode_name(args.name):
        return _run_file(args)
    # lazy: the registry imports every bundled kernel
    from tileir.kernels.registry import get

    spec = get(args.name)
    if args.args or args.grid or args.entry or args.output:
        raise ValueError(
            f"`{args.name}` is a registered kernel: it makes its own inputs (--seed), and "
            f"ARG, --grid, --entry and -o are for a bytecode file"
        )
    kernel = spec.kernel()
    inputs, grid = spec.inputs(np.random.default_rng(args.seed))
    dev = FakeDevice(mode=args.mode, devices=spec.devices)
    buffers = []
    for p, value in zip(kernel.params, inputs):
        if p.role == "Scalar":
            buffers.append(value)
            continue
        buf = dev.alloc(p.format, np.asarray(value).size)
        dev.copy_in(buf, np.asarray(value).astype(p.format.numpy_dtype))
        buffers.append(buf)
    report = dev.launch(kernel, *buffers, grid=grid)
    print(f"{kernel.name}: grid {list(report.grid)}, mode {report.mode}, seed {args.seed}")
    for p, buf in zip(kernel.params, buffers):
        if p.role in ("Out", "Shared"):
            out = dev.copy_out(buf)
            verdict = dict(report.verdicts).get(p.index, "written")
            print(
                f"  argument {p.index} ({p.role}, {p.format}[{out.size}]): {verdict}; "
                f"first values {np.array2string(out[:4], precision=6)}"
            )
    return 0
