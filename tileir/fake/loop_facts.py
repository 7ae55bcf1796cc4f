"""Facts the interpreter works out once per loop op from the IR alone, kept while the op lives.

:func:`per_loop` wraps such a function of a loop op (its in-place accumulators,
``tileir.fake.donation``; its invariant ops, ``tileir.fake.invariants``) with a memo keyed by
the op itself: ops hash once (``cache_hash``), equal ops have equal SSA ids and so equal
answers, and a weak key lets a module's ops go when the module does.
"""

from __future__ import annotations

import functools
import weakref
from typing import Callable

from tileir.ir.module import Op

__all__ = ["per_loop"]


def per_loop(find: Callable[[Op], frozenset]) -> Callable[[Op], frozenset]:
    """``find`` remembered per loop op (an op that cannot be weakly referenced is worked out
    each time)."""
    cache: "weakref.WeakKeyDictionary[Op, frozenset]" = weakref.WeakKeyDictionary()

    @functools.wraps(find)
    def remembered(loop: Op) -> frozenset:
        try:
            return cache[loop]
        except KeyError:
            pass
        except TypeError:
            return find(loop)
        found = cache[loop] = find(loop)
        return found

    return remembered
