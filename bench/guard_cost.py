"""What the checked lowering's pointer-path guards cost, per bundled kernel that has them.

For every registered kernel whose pointer path is guarded (``Kernel.guarded`` or a guard
``assert`` in its module), the same recording is lowered twice -- checked (the default)
and unchecked (``checked=False``) -- and the script prints the bytecode size (bytes, at
the kernel's own lowest version) and the op count of each, and the ratio.  No timing: the
figures are exact and the same on every machine.

    python bench/guard_cost.py              # every guarded bundled kernel, then the totals
    python bench/guard_cost.py --kernel histogram
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

import attrs

if __package__ in (None, ""):  # run as a script from the repository root
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tileir.encode import encode  # noqa: E402
from tileir.ir.module import Module, walk  # noqa: E402
from tileir.kernels.registry import get, names  # noqa: E402
from tileir.lower import lowering  # noqa: E402


def op_count(module: Module) -> int:
    """Every op of every function, nested regions included."""
    return sum(sum(1 for _ in walk(fn.body)) for fn in module.functions)


def measure(name: str) -> Optional[tuple[int, int, int, int]]:
    """``(checked bytes, unchecked bytes, checked ops, unchecked ops)`` of kernel ``name``,
    or None when its lowering has no guard."""
    kernel = get(name).kernel()
    checked = kernel.module
    has_guard = kernel.guarded or any(
        op.name == "assert" and "a lane addresses memory outside" in str(op.attrs.get("message"))
        for fn in checked.functions
        for op in walk(fn.body)
    )
    if not has_guard:
        return None
    unchecked = lowering.lower(attrs.evolve(kernel.program, checked=False))
    return (
        len(encode(checked)),
        len(encode(unchecked)),
        op_count(checked),
        op_count(unchecked),
    )


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernel", action="append", help="only this kernel (repeatable)")
    args = parser.parse_args(argv)
    rows = []
    for name in args.kernel or names():
        got = measure(name)
        if got is not None:
            rows.append((name, *got))
    print(f"{'kernel':32} {'bytes':>15} {'ratio':>6} {'ops':>11} {'ratio':>6}")
    for name, cb, ub, co, uo in rows:
        print(f"{name:32} {ub:>6} -> {cb:<6} {cb / ub:6.2f} {uo:>4} -> {co:<4} {co / uo:6.2f}")
    if rows:
        cb, ub, co, uo = (sum(r[i] for r in rows) for i in range(1, 5))
        print(
            f"{len(rows)} guarded kernel(s): {ub} -> {cb} bytes (+{cb - ub}, x{cb / ub:.2f}), "
            f"{uo} -> {co} ops (+{co - uo}, x{co / uo:.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
