"""A recorded Program lowered to a Module of ``cuda_tile`` ops (a pure function).

:func:`tileir.lower.lowering.lower` is the entry point, with one rule per recorded
instruction (:data:`~tileir.lower.lowering.LOWER_RULES`); :mod:`.addressing` makes the
views and pointers, :mod:`.memory` the memory instructions' ops.
"""
