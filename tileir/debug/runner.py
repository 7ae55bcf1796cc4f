"""The debugger's launch driver: the fake device's own launch, named as the debugger uses it.

The debugger needs two things of a launch that :func:`tileir.fake.interpreter.interpret`
keeps out of the way: blocks run one at a time in a chosen order (``order=``, so
that schedules can be compared, see ``races``), and a fault returned as data (the
op whose rule refused, its block and frame of values, and the launch's memory, so
an address can be placed against the buffers; see ``bounds``).  The interpreter
provides both (:func:`tileir.fake.interpreter.execute`); this module only gives them
the debugger's names.
"""

from __future__ import annotations

from tileir.fake.interpreter import (
    BlockLike,
    Execution,
    Fault,
    GridLike,
    block3,
    execute,
    grid3,
    linear_blocks,
)

__all__ = ["Fault", "Run", "run", "grid3", "block3", "linear_blocks", "BlockLike", "GridLike"]

#: A finished or stopped launch: ``outputs``, ``memory``, ``error`` and ``fault``.
Run = Execution

#: ``run(module, entry, args, grid, *, observer=None, order=None, stream=None,
#: max_chunk_bytes=...) -> Run``; a fault of the kernel comes back in ``Run.error`` /
#: ``Run.fault`` instead of being raised.
run = execute
