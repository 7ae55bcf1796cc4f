"""A Module as ``cuda_tile`` text, in the syntax ``tileirdisasm`` prints.

:func:`tileir.text.render.render` is the entry point; one rule per body op lives in
:mod:`.rules` (and :mod:`.memory`), attribute and float spellings in :mod:`.attr_text` and
:mod:`.float_text`, debug locations in :mod:`.locations`; :mod:`.compare` compares two
texts with SSA names aside.  (Nothing is re-exported here: ``render`` is both a module and
its function, and the gates' tests swap the module's function.)
"""
