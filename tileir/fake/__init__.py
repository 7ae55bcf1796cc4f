"""The fake device: a numpy interpreter of the lowered Module, beside host references."""

from tileir.fake.bytecode import run_bytecode
from tileir.fake.device import MODES, FakeDevice
from tileir.fake.interpreter import interpret
from tileir.fake.references import References

__all__ = ["FakeDevice", "References", "MODES", "interpret", "run_bytecode"]
