"""``python -m tileir.kernels.prebuild --arch sm_90 --out DIR``: the bundled kernels as a
folder of prebuilt cubins (:mod:`tileir.real.prebuilt`), for GPU machines without tileiras."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Optional, Sequence

from tileir.errors import ToolError
from tileir.kernels.registry import get, specs
from tileir.real.prebuilt import ENV, prebuild

__all__ = ["main"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m tileir.kernels.prebuild --arch sm_90 --out DIR [--kernel NAME ...]``."""
    parser = argparse.ArgumentParser(
        prog="python -m tileir.kernels.prebuild",
        description=f"assemble the bundled kernels into a folder of prebuilt cubins (for ${ENV})",
    )
    parser.add_argument("--arch", action="append", required=True, help="sm_XX (may repeat)")
    parser.add_argument("--out", required=True, help="the folder to write")
    parser.add_argument("--kernel", action="append", default=None, help="only this kernel")
    args = parser.parse_args(argv)
    chosen = [get(n) for n in args.kernel] if args.kernel else specs()
    try:
        for arch in args.arch:
            files = prebuild([s.kernel() for s in chosen], arch, Path(args.out))
            print(f"{arch}: {len(files) - 1} cubin(s) in {args.out}")
    except ToolError as err:
        print(str(err))
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover - the command line
    raise SystemExit(main())
