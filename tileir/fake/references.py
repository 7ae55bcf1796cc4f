"""Host references: what a launch of a kernel must produce, registered by kernel name.

A reference takes the launch's argument list (numpy arrays for buffers,
numbers for Scalars, in parameter order) and returns the list after the
launch.  The bundled kernels' references come from
:mod:`tileir.kernels.registry`; a device or a single launch can add or replace
references without touching any global table.

>>> refs = References({"double": lambda args: [args[0], args[0] * 2]})
>>> "double" in refs, "vadd" in refs
(True, True)
"""

from __future__ import annotations

from typing import Callable, Mapping, Optional

import pyrsistent

__all__ = ["References", "bundled"]

Reference = Callable[[list], list]


def bundled() -> dict:
    """The bundled kernels' references, by name."""
    from tileir.kernels.registry import specs

    return {spec.name: spec.reference for spec in specs()}


class References:
    """An immutable table of references: the bundled ones, then ``extra`` over them."""

    def __init__(self, extra: Optional[Mapping[str, Reference]] = None, *,
                 include_bundled: bool = True):
        base = bundled() if include_bundled else {}
        base.update(dict(extra or {}))
        self._table = pyrsistent.pmap(base)

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
