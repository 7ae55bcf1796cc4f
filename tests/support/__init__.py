"""Helpers the tests share (not tests themselves): hand-built Modules, op cases, fakes, oracles.

Importable as ``support.<module>`` from every test folder and from property_tests/
(``pythonpath`` in pyproject.toml puts tests/ on the path).
"""
