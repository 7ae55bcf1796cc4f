"""What the golden kernel families share: tolerances by format, input makers, a spec helper.

The families (``elementwise``, ``reductions``, ``matmuls`` ...) generate their
kernels with loops over formats, shapes and dimensions; each generated kernel
is still one real kernel with its own name, its own numpy reference and its
own tolerance.  This module holds what they have in common and says which
architectures ``tileiras`` assembles which formats for (the sets per release are data in
:mod:`tileir.real.toolchains`; the table is the pinned 13.5.37's).

Architectures, found by experiment (``tileiras --gpu-name=sm_XX`` on a kernel
that only converts the format to f32 and back; every arch ``tileiras`` lists):

==================  ==========================================================
format              assembled for
==================  ==========================================================
f8E4M3FN, f8E5M2    sm_89, sm_90, sm_100, sm_103, sm_107, sm_110, sm_120, sm_121
                    (sm_80/86/87/88 say "unsupported type 'f8E4M3FN'", also for
                    a kernel that only converts; 13.4.92 refuses sm_89 too)
f8E8M0FNU           sm_100 and up (sm_90 refuses it)
f4E2M1FN            sm_100 and up (sm_90 refuses it)
fnv8E5M3FNU         sm_107 only (every other arch: "unsupported type")
i4, tf32, others    every arch
==================  ==========================================================

``mmaf_scaled`` follows its formats (sm_100 and up; with fnv8E5M3FNU scales sm_107);
fp8 ``mmaf`` works wherever fp8 tiles do (sm_89 on).  A kernel's ``archs`` is the set its
formats allow; gate 1 assembles it for the requested architectures in that set, or for
the set itself when none of the requested ones is in it (fnv8E5M3FNU: sm_107).
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import numpy as np

from tileir import In, Out, Scalar, cells, load_cell, scalar, store_cell, trace
from tileir.host.tolerance import Tolerance
from tileir.kernels.registry import ArchSet, KernelSpec, register
from tileir.real.toolchains import FACTS, PINNED
from tileir.types import Format

__all__ = [
    "ARCHS_FP8",
    "ARCHS_SM100",
    "ARCHS_FNV8",
    "archs_for",
    "ulp",
    "tol",
    "exact",
    "uniform",
    "ints",
    "positive",
    "make",
    "copy_out",
    "host",
    "fmt_tag",
    "ew_spec",
]

#: The architectures (of those tileiras knows) that assemble fp8 (e4m3 / e5m2) tiles, with the
#: pinned release (13.5.37 adds sm_89; tileir.real.toolchains keeps each release's sets).
ARCHS_FP8 = FACTS[PINNED].format_archs["f8E4M3FN"]
#: The architectures that assemble f8E8M0FNU and f4E2M1FN tiles.
ARCHS_SM100 = FACTS[PINNED].format_archs["f8E8M0FNU"]
#: fnv8E5M3FNU: only sm_107 assembles it (outside the gates' usual four).
ARCHS_FNV8 = FACTS[PINNED].format_archs["fnv8E5M3FNU"]


def archs_for(*formats: Format) -> Optional[ArchSet]:
    """The architectures a kernel touching ``formats`` assembles for with the pinned
    tileiras (None: all of them); the set remembers the formats, so gate 1 and the device
    gate can ask what another release allows (:meth:`ArchSet.under`)."""
    return ArchSet.of(f.name for f in formats)


#: One unit in the last place, relative, of each float format (2^-mantissa bits).
_ULP = {
    "f64": 2.0**-52,
    "f32": 2.0**-23,
    "tf32": 2.0**-10,
    "f16": 2.0**-10,
    "bf16": 2.0**-7,
    "f8E4M3FN": 2.0**-3,
    "f8E5M2": 2.0**-2,
    "f8E8M0FNU": 1.0,
    "f4E2M1FN": 0.5,
    "fnv8E5M3FNU": 2.0**-3,
}


def ulp(fmt: Format) -> float:
    return _ULP[fmt.name]


def tol(fmt: Format, ulps: float = 4, atol: Optional[float] = None) -> Tolerance:
    """A tolerance of ``ulps`` units in the last place of ``fmt`` (relative), with an absolute
    floor of the same size unless ``atol`` says otherwise (for results near zero)."""
    r = ulps * ulp(fmt)
    return Tolerance(rtol=r, atol=r if atol is None else atol)


#: Bit-exact: the device must produce the reference's bits.
exact: Optional[Tolerance] = None


# ----------------------------------------------------------------------------- inputs


def host(fmt: Format) -> np.dtype:
    return fmt.numpy_dtype


def uniform(lo: float = -4.0, hi: float = 4.0) -> Callable:
    """Values uniform in ``[lo, hi)``, rounded to the buffer's format."""

    def make(rng: np.random.Generator, n: int, dtype) -> np.ndarray:
        return rng.uniform(lo, hi, size=n).astype(np.float64).astype(dtype)

    return make


def positive(lo: float = 0.25, hi: float = 8.0) -> Callable:
    return uniform(lo, hi)


def ints(lo: int = -100, hi: int = 100) -> Callable:
    """Integers in ``[lo, hi)``."""

    def make(rng: np.random.Generator, n: int, dtype) -> np.ndarray:
        return rng.integers(lo, hi, size=n).astype(dtype)

    return make


def fmt_tag(fmt: Format) -> str:
    """A format's name as it goes into a kernel name (``f8E4M3FN`` -> ``e4m3``)."""
    return {
        "f8E4M3FN": "e4m3",
        "f8E5M2": "e5m2",
        "f8E8M0FNU": "e8m0",
        "f4E2M1FN": "e2m1",
        "fnv8E5M3FNU": "e5m3",
    }.get(fmt.name, fmt.name)


# ----------------------------------------------------------------------------- specs


def copy_out(args: Sequence, index: int, values, count: Optional[int] = None) -> list:
    """``args`` with buffer ``index`` replaced by a copy whose first ``count`` elements (all,
    by default) are ``values`` in the buffer's dtype."""
    out = list(args)
    buf = np.array(args[index], copy=True)
    flat = np.asarray(values).reshape(-1)
    n = flat.size if count is None else count
    buf[:n] = flat[:n].astype(buf.dtype)
    out[index] = buf
    return out


def make(
    name: str,
    build: Callable,
    reference: Callable,
    inputs: Callable,
    tolerance: Optional[Tolerance],
    family: str,
    doc: str,
    archs: Optional[Sequence[str]] = None,
    devices: int = 1,
) -> KernelSpec:
    """Register one kernel and return its spec."""
    return register(
        KernelSpec(
            name,
            build,
            reference,
            inputs,
            tolerance,
            family,
            doc,
            archs,
            devices,
        )
    )


# ----------------------------------------------------------------------------- element-wise


def _ew_body(fn: Callable, n_in: int):
    """A body that loads its cell of each In, applies ``fn`` (with the Scalars' values after
    the tiles) and stores the result in its cell of the Out."""

    def body(*params):
        tiles = []
        for p in params[:n_in]:
            t = yield load_cell(p)
            tiles.append(t)
        values = [scalar(p) for p in params[n_in + 1 :]]
        yield store_cell(params[n_in], fn(*tiles, *values))

    body.__name__ = getattr(fn, "__name__", "elementwise")
    return body


def ew_spec(
    name: str,
    fn: Callable,
    ins: Sequence[Format],
    out: Format,
    ref: Callable,
    gens: Sequence[Callable],
    *,
    n: int = 1000,
    tile: int = 128,
    scalars: Sequence[tuple] = (),
    tolerance: Optional[Tolerance] = None,
    family: str = "elementwise",
    doc: str = "",
    archs=None,
) -> KernelSpec:
    """Register a 1-D element-wise kernel over ``n`` elements in cells of ``tile``.

    Parameters: one In per format of ``ins``, then the Out (``out``), then one Scalar per
    ``(format, make_value(rng))`` of ``scalars``.  ``ref(*inputs, *scalar_values)`` answers
    the ``n`` output values (numpy); ``gens[i](rng, n, dtype)`` makes input ``i``.
    """
    ins = tuple(ins)
    n_in = len(ins)
    body = _ew_body(fn, n_in)

    def build():
        g = cells([n], [tile])
        markers = [In(f, g) for f in ins] + [Out(out, g)] + [Scalar(f) for f, _ in scalars]
        return trace(name, body, *markers)

    def reference(args):
        arrays = [np.asarray(a)[:n] for a in args[:n_in]]
        values = list(args[n_in + 1 :])
        return copy_out(args, n_in, ref(*arrays, *values), n)

    def inputs(rng):
        arrays = [g(rng, n, f.numpy_dtype) for g, f in zip(gens, ins)]
        values = [make_value(rng) for _, make_value in scalars]
        return arrays + [np.zeros(n, out.numpy_dtype)] + values, None

    if archs is None:
        archs = archs_for(*ins, out)
    return make(name, build, reference, inputs, tolerance, family, doc, archs)
