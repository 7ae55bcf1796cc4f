"""The fake device: a numpy interpreter of the lowered Module, beside host references."""

from tileir.fake.device import MODES, FakeDevice
from tileir.fake.references import References

__all__ = ["FakeDevice", "References", "MODES", "interpret"]


def interpret(module, entry, args, grid, **options):
    """Evaluate entry ``entry`` of ``module`` over ``grid``; see :mod:`tileir.fake.interpret`."""
    from tileir.fake.interpret import interpret as _interpret

    return _interpret(module, entry, args, grid, **options)
