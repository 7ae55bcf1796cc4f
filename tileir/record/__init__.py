"""The recorder: a kernel body, driven once, becomes an immutable Program.

* :mod:`.markers` -- In / Out / Shared / Scalar and ``cells``: what each parameter is;
* :mod:`.convention` -- the calling convention of a recorded entry, defined once;
* :mod:`.source` -- where in the user's source an operation was written;
* :mod:`.tile` -- Tiles: frozen values of pure tile expressions;
* :mod:`.program` -- the recorded instructions and the Program;
* :mod:`.builder` -- the immutable Builder that ``yield`` threads through a body.

``tileir.trace`` (:mod:`tileir.kernel`) records with these, then lowers.
"""
