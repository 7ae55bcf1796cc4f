"""Host references: what a launch of a kernel must produce, registered by kernel name.

A reference takes the launch's argument list (numpy arrays for buffers,
numbers for Scalars, in parameter order) and returns the list after the
launch.  A kernel may carry its own (:meth:`tileir.Kernel.with_reference`; the
bundled kernels of :mod:`tileir.kernels` all do); a device's table adds or
replaces references by kernel name without touching any global table.

>>> refs = References({"double": lambda args: [args[0], args[0] * 2]})
>>> "double" in refs, "vadd" in refs
(True, False)
"""

from __future__ import annotations

from typing import Callable, Mapping, Optional

import pyrsistent

__all__ = ["References"]

Reference = Callable[[list], list]


class References:
    """An immutable table of references by kernel name."""

    def __init__(self, extra: Optional[Mapping[str, Reference]] = None):
        self._table = pyrsistent.pmap(dict(extra or {}))

    def with_reference(self, name: str, reference: Reference) -> "References":
        """A new table with ``reference`` for ``name`` (this one is unchanged)."""
        out = References.__new__(References)
        out._table = self._table.set(name, reference)
        return out

    def __contains__(self, name: str) -> bool:
        return name in self._table

    def get(self, name: str) -> Optional[Reference]:
        return self._table.get(name)

    def names(self) -> list:
        return sorted(self._table)
