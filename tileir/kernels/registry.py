"""The registry of bundled kernels: each with its host reference, inputs and tolerance.

A :class:`KernelSpec` says how to record a kernel (``build``), how to make
inputs for it (``inputs``), what the launch must produce (``reference``) and how
close the device must come (``tolerance``: ``None`` means bit-exact).  The
command line, the gates and the tests read this one table.

A reference takes the argument list of a launch (numpy arrays for buffers,
numbers for Scalars, in parameter order) and returns the argument list after
it; the fake device's interpreter answers in the same shape, so the two are
compared buffer by buffer.
"""

from __future__ import annotations

import difflib
from typing import Callable, Iterable, Optional, Sequence

import attrs
import numpy as np

from tileir.host.tolerance import Tolerance
from tileir.real.toolchains import PINNED, archs_needing

__all__ = ["ArchSet", "KernelSpec", "Tolerance", "register", "get", "names", "specs", "REGISTRY"]


class ArchSet(tuple):
    """The architectures a kernel assembles for with the pinned ``tileiras``, remembering
    the formats (and pointer kinds) that decided them, so that the set under another
    release can be worked out (:meth:`under`): the releases disagree (fp8 on sm_89 only
    with 13.5.37; tileir.real.toolchains).

    >>> fp8 = ArchSet.of(["f8E4M3FN"])
    >>> "sm_89" in fp8, "sm_89" in fp8.under("13.4.92")
    (True, False)
    """

    needs: tuple[str, ...]

    @classmethod
    def of(cls, needs: Iterable[str]) -> Optional["ArchSet"]:
        """The set for ``needs``; None when none of them limits the architectures."""
        needs = tuple(dict.fromkeys(needs))
        archs = archs_needing(needs, PINNED)
        if archs is None:
            return None
        made = cls(archs)
        made.needs = needs
        return made

    def under(self, release: str) -> tuple[str, ...]:
        """The architectures with ``tileiras`` ``release`` (``"13.4.92"``)."""
        archs = archs_needing(self.needs, release)
        return tuple(self) if archs is None else archs

    def __reduce__(self):  # a tuple subclass pickles by value; keep what decided it
        return (ArchSet.of, (self.needs,))


def _archs(value) -> Optional[tuple]:
    if value is None or isinstance(value, ArchSet):
        return value
    return tuple(value)


@attrs.frozen
class KernelSpec:
    """A bundled kernel.

    ``inputs(rng)`` answers ``(args, grid)``: the launch's arguments (fresh
    numpy arrays and numbers) and its grid (``None`` when the cells give it).
    """

    name: str
    build: Callable = attrs.field(eq=False)
    reference: Callable = attrs.field(eq=False)
    inputs: Callable = attrs.field(eq=False)
    tolerance: Optional[Tolerance] = None
    family: str = "chapter"
    doc: str = ""
    #: The architectures the pinned ``tileiras`` (13.5.37) assembles this kernel for, when
    #: that is not every one: None = all of them.  Some formats exist only on some chips (fp8
    #: from sm_89, f4E2M1FN and f8E8M0FNU from sm_100, fnv8E5M3FNU only on sm_107: found by
    #: experiment, see tileir/kernels/common.py); a kernel using one says so here, and gate 1
    #: assembles it for these (see :meth:`asm_archs`).  An :class:`ArchSet` (what
    #: ``archs_for`` gives) also answers for another release (:meth:`archs_on`).
    archs: Optional[tuple] = attrs.field(default=None, converter=_archs)
    #: How many simulated GPUs the fake device runs the kernel on
    #: (``FakeDevice(devices=...)``): a multicast buffer's inputs hold that many replicas.
    devices: int = 1

    def kernel(self):
        """The recorded kernel (recorded anew each call: recording is pure)."""
        return self.build().with_reference(self.reference, self.tolerance)

    def archs_on(self, release: str = PINNED) -> Optional[tuple]:
        """The architectures ``tileiras`` ``release`` assembles this kernel for (None: all)."""
        if isinstance(self.archs, ArchSet):
            return self.archs.under(release)
        return self.archs

    def asm_archs(self, requested: Sequence[str], release: str = PINNED) -> tuple:
        """The architectures gate 1 assembles this kernel for with ``release``, given the
        ones asked for.

        Every requested architecture the kernel allows; when it allows none of them (a
        format only one chip has), the ones it allows, so that every kernel is assembled
        somewhere.
        """
        allowed = self.archs_on(release)
        if allowed is None:
            return tuple(requested)
        chosen = tuple(a for a in requested if a in allowed)
        return chosen or allowed


#: name -> KernelSpec, in registration order.
REGISTRY: dict[str, KernelSpec] = {}


def register(spec: KernelSpec) -> KernelSpec:
    """Add ``spec``; a second kernel of the same name is refused (no silent override)."""
    if spec.name in REGISTRY:
        raise ValueError(f"a kernel named {spec.name!r} is registered already")
    REGISTRY[spec.name] = spec
    _REGISTERED_BY[spec.name] = _importing_module()
    return spec


#: name -> the module whose import registered it (a bundled one, or a user's)
_REGISTERED_BY: dict[str, str] = {}


def _importing_module() -> str:
    """The innermost caller that is a bundled module, else the direct caller of register:
    families register through shared helpers, and the index wants the family."""
    import sys
    import types

    frame: Optional[types.FrameType] = sys._getframe(2)
    assert frame is not None  # register's caller
    direct = frame.f_globals.get("__name__", "?")
    while frame is not None:
        module = frame.f_globals.get("__name__")
        if module in BUNDLED_MODULES:
            return module
        frame = frame.f_back
    return direct


#: The modules whose import registers the bundled kernels (the golden library; the families
#: are described in each module's docstring, and ``tileir coverage`` shows what they cover).
BUNDLED_MODULES = (
    "tileir.kernels.chapter",
    "tileir.kernels.elementwise",
    "tileir.kernels.unary",
    "tileir.kernels.activations",
    "tileir.kernels.mathext",
    "tileir.kernels.reductions",
    "tileir.kernels.scans",
    "tileir.kernels.norms",
    "tileir.kernels.matmuls",
    "tileir.kernels.scaled",
    "tileir.kernels.attention",
    "tileir.kernels.conversions",
    "tileir.kernels.memory",
    "tileir.kernels.pieces",
    "tileir.kernels.pointers",
    "tileir.kernels.control",
    "tileir.kernels.atomics",
    "tileir.kernels.multimem",
)


def _load_bundled() -> None:
    import importlib

    for module in BUNDLED_MODULES:
        importlib.import_module(module)


def _load_module_of(name: str) -> None:
    """Import the one bundled module that registers ``name``, by the index (all of them when
    the index does not know it): looking one kernel up must not import 884."""
    import importlib

    from tileir.kernels.index import MODULE_OF  # lazy: the index is only needed here

    module = MODULE_OF.get(name)
    if module is not None:
        importlib.import_module(module)
    if name not in REGISTRY:
        _load_bundled()


def get(name: str) -> KernelSpec:
    """The spec registered under ``name``; a clear error naming a few close names otherwise."""
    if name not in REGISTRY:
        _load_module_of(name)
    if name not in REGISTRY:
        # a few close names, not the whole library (`tileir list` prints every one)
        close = difflib.get_close_matches(name, REGISTRY, n=4, cutoff=0.6)
        hint = f"did you mean {', '.join(close)}?" if close else "`tileir list` names them all"
        raise KeyError(f"no kernel named {name!r} is registered ({hint})")
    return REGISTRY[name]


def index_entries() -> dict:
    """module -> the names it registers, in registration order, from a full load: what
    :mod:`tileir.kernels.index` must hold (``python -m tileir.kernels.index`` rewrites it)."""
    _load_bundled()
    by_module: dict = {m: [] for m in BUNDLED_MODULES}
    for name in REGISTRY:
        by_module[_REGISTERED_BY[name]].append(name)
    return by_module


def names() -> list:
    _load_bundled()
    return list(REGISTRY)


def specs() -> list:
    _load_bundled()
    return list(REGISTRY.values())


def random_values(rng: np.random.Generator, n, dtype, low=-4.0, high=4.0) -> np.ndarray:
    """Random values of a numpy dtype (floats uniform in [low, high), ints in a small range)."""
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        return rng.integers(int(low), int(high), size=n).astype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, size=n).astype(bool)
    return rng.uniform(low, high, size=n).astype(np.float64).astype(dt)
