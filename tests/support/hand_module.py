"""Write tileir Modules by hand, op by op: the tests' name for the library's builder.

``FnBuilder`` hands out fresh value ids (parameters first), so a test names
types and attributes and nothing else:

>>> from tileir.types import TileType, F32
>>> b = FnBuilder("k", [TileType((), F32)])
>>> x, = b.params
>>> y = b.op("addf", [x, x], [x.type])
>>> f = b.finish()
>>> [op.name for op in f.body.ops]
['addf', 'return']
"""

from support.build import FunctionBuilder as FnBuilder

__all__ = ["FnBuilder"]
