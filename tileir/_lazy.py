"""Names a package exports, imported from their modules on first use (PEP 562).

``tileir.host`` and ``tileir.testing`` answer ``import`` at once and load a name's module
only when the name is first read, as SciPy's lazy_loader does; this is the one
``__getattr__`` / ``__dir__`` pair they share.  (``tileir`` itself keeps its own few lines:
a bare ``import tileir`` loads no submodule at all, this one included.)
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: Mapping[str, str], namespace: dict
) -> tuple[Callable[[str], Any], Callable[[], list]]:
    """A module ``__getattr__`` and ``__dir__`` for ``package`` whose names ``exports`` maps
    to the modules that define them; a name once read is stored in ``namespace`` (the
    package's ``globals()``), so the next read is an ordinary attribute.

    >>> getattr_, dir_ = lazy_exports("pkg", {"sqrt": "math"}, space := {})
    >>> getattr_("sqrt")(4.0), "sqrt" in space, dir_()
    (2.0, True, ['sqrt'])
    >>> getattr_("cbrt")
    Traceback (most recent call last):
    ...
    AttributeError: module 'pkg' has no attribute 'cbrt'
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
