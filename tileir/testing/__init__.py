"""Property-based testing of your own kernels, without a GPU.

* :func:`check_kernel` draws sizes with Hypothesis, has your factory record the
  kernel for them (shapes, tiles, grid and Shared buffers follow the draw),
  draws inputs, runs it on the fake device's interpreter (or any device) and
  compares every buffer with your numpy reference (arrays in their declared
  shapes) within :class:`Tolerance` (a few ulps per format by default); a
  failure is one tileir error for the shrunk example naming the sizes, the
  first differing element, its block, both values, and what the debugger's
  finders see in that launch.
* Strategies to build your own properties: :func:`formats`,
  :func:`tile_shapes`, :func:`cells_for`, :func:`markers_for`,
  :func:`element_values`, :func:`buffers`, :func:`inputs_for`.
* :mod:`tileir.testing.plugin`: the ``tileir_device`` pytest fixture (the fake
  device always, the real one where a GPU is present, skipped with the reason
  otherwise).

>>> import numpy as np
>>> from tileir import F32, In, Out, cells, load_cell, store_cell, trace, where
>>> from tileir.testing import check_kernel
>>> def relu(x, out):
...     t = yield load_cell(x)
...     yield store_cell(out, where(t > 0.0, t, 0.0))
>>> def make(rows, cols):
...     g = cells([rows, cols], [16, 64])
...     return trace("relu", relu, In(F32, g), Out(F32, g))
>>> def reference(args):
...     x, out = args  # each of shape (rows, cols)
...     return [x, np.maximum(x, np.float32(0))]
>>> check_kernel(make, reference, max_examples=5)

See docs/testing.md for a walk through, and what a failure looks like.
"""

import importlib

# Names load on first use, so that importing the pytest plugin (a pytest11 entry point,
# loaded by every pytest run where tileir is installed) needs neither Hypothesis nor numpy
# work until a test asks for them.
_EXPORTS = {
    "check_kernel": "check",
    "CheckArgumentError": "check",
    "Tolerance": "tolerance",
    "KernelMismatch": "check",
    "KernelNotRecorded": "check",
    "KernelRunFailed": "check",
    "formats": "strategies",
    "float_formats": "strategies",
    "int_formats": "strategies",
    "tile_shapes": "strategies",
    "cells_for": "strategies",
    "markers_for": "strategies",
    "inputs_for": "strategies",
    "buffer_length": "strategies",
    "Args": "strategies",
    "FLOAT_FORMATS": "strategies",
    "INT_FORMATS": "strategies",
    "NARROW_FLOAT_FORMATS": "strategies",
    "NARROW_INT_FORMATS": "strategies",
    "element_values": "values",
    "buffers": "values",
    "values_for": "values",
    "as_pytest_plugins": "devices",
    "real_device_status": "devices",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tileir.testing' has no attribute {name!r}")
    home = "tileir.host" if module == "tolerance" else "tileir.testing"
    value = getattr(importlib.import_module(f"{home}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(_EXPORTS))
