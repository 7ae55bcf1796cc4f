"""Composition over whole kernels: combinators that build a kernel from a pure function,
and pure transforms from kernels to kernels (nothing is mutated; each records the kernel's
body again, so its refusals and checks are trace's).

* :func:`elementwise`, :func:`rowwise`: a kernel from a function of tiles;
* :func:`fuse`: two kernels as one, the first's Out feeding the second's In, no buffer
  between;
* :func:`specialize`: Scalars and DYN_DIM extents fixed when recorded;
* :func:`retile`: the same body recorded with other tiles.

Transforms compose (``retile(fuse(a, b), ...)``) and are functions of values: equal inputs
give equal kernels (equal Programs, equal bytes).
"""

from tileir.compose.combinators import elementwise, rowwise
from tileir.compose.fuse import fuse
from tileir.compose.transforms import retile, specialize

__all__ = ["elementwise", "rowwise", "fuse", "specialize", "retile"]
