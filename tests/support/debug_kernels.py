"""Which bundled kernels the debugger's per-kernel tests walk.

The chapter's kernels all, and a fixed sample of each other family in registration order:
every 12th kernel, and no more than 8 from one family (a big family, such as the
conversions with a kernel for every format pair, gives 8 spread evenly over it), so the
debugger meets every family without re-running the whole library, which the gates already
do.  Kernels that add floats atomically are flagged: their sums round differently when
blocks run in another order, which is no race.
"""

from tileir.ir.module import walk
from tileir.kernels.registry import specs

_ALL = specs()
_STRIDE, _MOST = 12, 8


def _sample() -> list:
    families: dict = {}
    for s in _ALL:
        if s.family != "chapter":
            families.setdefault(s.family, []).append(s.name)
    chosen = []
    for group in families.values():
        step = max(_STRIDE, -(-len(group) // _MOST))
        chosen += group[::step]
    return chosen


#: Names of the kernels the per-kernel debugger tests run over.
DEBUG_KERNELS = [s.name for s in _ALL if s.family == "chapter"] + _sample()
#: The chapter's kernels: real work written to be free of NaN sources and padding leaks.
CHAPTER = [s.name for s in _ALL if s.family == "chapter"]


def adds_floats_atomically(kernel) -> bool:
    """True when the kernel's result depends on the order blocks add floats in."""
    for op in walk(kernel.function.body):
        if op.name in ("atomic_rmw_tko", "atomic_red_view_tko") and op.attrs.get("mode") == "addf":
            return True
    return False
