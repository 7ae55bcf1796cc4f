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

from tileir._lazy import lazy_exports

# Names load on first use, so that importing the pytest plugin (a pytest11 entry point,
# loaded by every pytest run where tileir is installed) needs neither Hypothesis nor numpy
# work until a test asks for them.
_EXPORTS = {
    "check_kernel": "tileir.testing.check",
    "CheckArgumentError": "tileir.testing.check",
    "Tolerance": "tileir.host.tolerance",
    "KernelMismatch": "tileir.testing.check",
    "KernelNotRecorded": "tileir.testing.check",
    "KernelRunFailed": "tileir.testing.check",
    "formats": "tileir.testing.strategies",
    "float_formats": "tileir.testing.strategies",
    "int_formats": "tileir.testing.strategies",
    "tile_shapes": "tileir.testing.strategies",
    "cells_for": "tileir.testing.strategies",
    "markers_for": "tileir.testing.strategies",
    "inputs_for": "tileir.testing.strategies",
    "buffer_length": "tileir.testing.strategies",
    "Args": "tileir.testing.strategies",
    "FLOAT_FORMATS": "tileir.testing.strategies",
    "INT_FORMATS": "tileir.testing.strategies",
    "NARROW_FLOAT_FORMATS": "tileir.testing.strategies",
    "NARROW_INT_FORMATS": "tileir.testing.strategies",
    "element_values": "tileir.testing.values",
    "buffers": "tileir.testing.values",
    "values_for": "tileir.testing.values",
    "as_pytest_plugins": "tileir.testing.devices",
    "real_device_status": "tileir.testing.devices",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
