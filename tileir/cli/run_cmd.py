"""``tileir run NAME [--mode ...] [--seed N]``: a registered kernel on the fake device."""

from __future__ import annotations

import argparse

import numpy as np

from tileir.fake import MODES, FakeDevice
from tileir.kernels.registry import get


def add_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="a registered kernel (see `tileir list`)")
    parser.add_argument(
        "--mode",
        choices=MODES,
        default="both",
        help="interpret the kernel, call its reference, or both and compare",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs")


def run(command: str, args: argparse.Namespace) -> int:
    spec = get(args.name)
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
