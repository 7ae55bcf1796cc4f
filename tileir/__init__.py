"""tileir: write, test and debug NVIDIA Tile IR kernels from Python.

A kernel is a generator function over tiles.  ``trace`` records it once into an
immutable Program, lowers it to a Module of ``cuda_tile`` ops, which renders as
text, encodes as the bytecode ``tileiras`` assembles, runs on the fake device
(a numpy interpreter of the Module) and launches on a GPU.

>>> from tileir import trace, In, Out, cells, load_cell, store_cell, F32
>>> def vadd(a, b, out):
...     x = yield load_cell(a)
...     y = yield load_cell(b)
...     yield store_cell(out, x + y)
>>> g = cells([1000], [128])
>>> kernel = trace("vadd", vadd, In(F32, g), In(F32, g), Out(F32, g))
>>> kernel.grid
(8,)
"""

# ``import tileir`` must answer at once (a command line, a notebook's first cell): the names
# below are imported from their modules on first use, as SciPy's lazy_loader does.  The list
# of names and their modules is tileir/__init__.pyi, which type checkers also read.

import ast as _ast
import importlib as _importlib
from pathlib import Path as _Path


def _exports() -> dict:
    """name -> the module it comes from, read from the package's stub."""
    stub = _Path(__file__).with_name("__init__.pyi").read_text()
    table = {}
    for node in _ast.parse(stub).body:
        if isinstance(node, _ast.ImportFrom) and node.module:
            for alias in node.names:
                table[alias.asname or alias.name] = node.module
    return table


_EXPORTS = _exports()
__all__ = list(_EXPORTS)
__version__ = "0.1.0"


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(_importlib.import_module(module), name)
    elif not name.startswith("__"):
        try:  # a subpackage: ``tileir.fake`` after a bare ``import tileir``
            value = _importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError:
            raise AttributeError(f"module 'tileir' has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module 'tileir' has no attribute {name!r}")
    globals()[name] = value  # the next access is an ordinary attribute
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))
