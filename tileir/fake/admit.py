"""Which Modules the interpreter runs: only those the checker passes (issue 13, point 2).

A decoded or hand-made Module may break rules the interpreter relies on (a view op whose
result is not a view, a value used before it is defined); run unchecked, it would fail
with an AttributeError deep inside a rule, or worse.  :func:`admit` runs
:func:`tileir.verify.verify` on a Module the first time it is launched and remembers the
verdict for that very object (by identity, for as long as it lives: Modules are immutable),
so a recorded kernel launched a thousand times is checked once.
"""

from __future__ import annotations

import functools
import weakref
from typing import Optional

from tileir.errors import TileIRError, VerifyError
from tileir.ir.module import Module
from tileir.verify import verify

__all__ = ["admit"]

# id(module) -> (a weak reference to it, the checker's refusal or None)
_VERDICTS: dict[int, tuple[weakref.ref, Optional[TileIRError]]] = {}


def _forget(key: int, ref: weakref.ref) -> None:
    got = _VERDICTS.get(key)
    if got is not None and got[0] is ref:
        del _VERDICTS[key]


def _verdict(module: Module) -> Optional[TileIRError]:
    try:
        verify(module)
    except TileIRError as e:
        return e
    except Exception as e:  # a module too broken for the checker to read
        name = next((f.name for f in getattr(module, "functions", ()) if hasattr(f, "name")), None)
        return VerifyError(
            f"the module is malformed: the checker cannot read it ({type(e).__name__}: {e})",
            kernel=name,
        )
    return None


def admit(module: Module) -> None:
    """Raise the checker's error if ``module`` breaks a rule of the dialect (cached).

    >>> from tileir.ir.module import Module
    >>> admit(Module(()))  # an empty module breaks nothing
    """
    key = id(module)
    got = _VERDICTS.get(key)
    if got is None or got[0]() is not module:
        ref: weakref.ref = weakref.ref(module, functools.partial(_forget, key))
        got = (ref, _verdict(module))
        _VERDICTS[key] = got
    if got[1] is not None:
        raise got[1].with_traceback(None)  # the cached error: no traceback grows on it
