"""The ``tileir`` command line (``python -m tileir`` or the ``tileir`` script)."""
