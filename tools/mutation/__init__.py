"""A small mutation-testing harness: plant one bug at a time, run the tests that guard it.

``python -m tools.mutation --area interpreter`` (or ``--module tileir/fake/rounding.py``)
makes every single-point mutant of the modules (:mod:`.mutants`), runs each module's
guarding tests against each mutant in parallel scratch copies of the repository with a
time limit (:mod:`.runner`), and prints a kill table per module and area and every
surviving mutant's diff (:mod:`.report`).  :mod:`.targets` says which tests guard which
module and which area a module belongs to.
"""
