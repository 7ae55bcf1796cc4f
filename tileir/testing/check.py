"""``check_kernel``: a property-based test of a user's kernel against a numpy reference.

Hypothesis draws shapes the markers allow and inputs for them; each example
records the kernel, runs it (on the fake device's interpreter unless another
device is given) and compares every buffer with what the reference says the
launch leaves there.  A failure is an ordinary Hypothesis failure, shrunk to a
small example: the exception names the drawn shapes, the markers, the grid,
the first differing element with its block and both values, and summarises
the inputs.

>>> import numpy as np
>>> from tileir import F32, In, Out, cells, load_cell, store_cell
>>> def double(x, out):
...     t = yield load_cell(x)
...     yield store_cell(out, t + t)
>>> def reference(args):
...     x, out = args
...     return [x, x * 2]
>>> check_kernel(double, lambda n: (In(F32, cells([n], [128])), Out(F32, cells([n], [128]))),
...              reference, max_examples=10)
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Mapping, Optional, Sequence, Union

import numpy as np
from hypothesis import HealthCheck, given, reject
from hypothesis import settings as Settings
from hypothesis import strategies as st

from tileir.errors import MismatchError, RecordingError, TileIRError
from tileir.fake import FakeDevice
from tileir.fake.compare import default_tolerance, first_difference
from tileir.host.device import Device
from tileir.host.tolerance import Tolerance
from tileir.kernel import trace
from tileir.record.markers import Marker
from tileir.testing.report import describe_difference, describe_inputs
from tileir.testing.strategies import inputs_for
from tileir.testing.values import ValuesFor, values_for

__all__ = ["check_kernel", "KernelMismatch", "KernelNotRecorded", "KernelRunFailed"]

Reference = Callable[[list], Sequence]
MarkersArg = Union[Sequence[Marker], Callable[..., Optional[Sequence[Marker]]]]


class KernelMismatch(MismatchError, AssertionError):
    """The kernel and its reference disagree on a drawn example (the message says where)."""


class KernelNotRecorded(RecordingError, AssertionError):
    """The kernel could not be recorded for shapes the test drew and did not call invalid."""


class KernelRunFailed(TileIRError, AssertionError):
    """The launch was refused or the device failed on a drawn example (the cause is kept as
    ``__cause__``)."""


def _arity(fn: Callable) -> int:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 1
    return (
        sum(
            1
            for p in params
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
        )
        or 1
    )


def _default_shapes(markers: Callable) -> st.SearchStrategy:
    n = _arity(markers)
    extent = st.integers(1, 1024)
    return extent if n == 1 else st.tuples(*([extent] * n))


def _markers_of(markers: MarkersArg, drawn: Any) -> Optional[tuple]:
    if not callable(markers):
        return tuple(markers)
    made = markers(*drawn) if isinstance(drawn, tuple) else markers(drawn)
    return None if made is None else tuple(made)


def _tolerance_for(fmt, tolerance) -> Optional[Tolerance]:
    if not fmt.is_float:
        return None
    if tolerance is None:
        return default_tolerance(fmt)
    if isinstance(tolerance, Mapping):
        return tolerance.get(fmt.name, default_tolerance(fmt))
    return tolerance


def _fake_device():

    return FakeDevice(mode="interpret")


class _Check:
    """One check_kernel call's fixed parts; ``run(data)`` is one Hypothesis example."""

    def __init__(
        self,
        body,
        markers,
        reference,
        name,
        shapes,
        valid,
        tolerance,
        values,
        lengths,
        grid,
        device,
    ):
        self.body, self.markers, self.reference = body, markers, reference
        self.name, self.shapes, self.valid = name, shapes, valid
        self.tolerance, self.values, self.lengths = tolerance, values, lengths
        self.grid, self.device = grid, device
        self.with_shapes = _arity(reference) >= 2

    def context(self, drawn, ms) -> str:
        shapes = "" if drawn is None else f" for shapes {drawn!r}"
        return f"{shapes}\n  markers: {', '.join(repr(m) for m in ms)}"

    def record(self, drawn, ms):
        __tracebackhide__ = True  # pytest shows the user's test, not this module
        try:
            return trace(self.name, self.body, *ms)
        except RecordingError as err:
            raise KernelNotRecorded(
                f"the kernel could not be recorded{self.context(drawn, ms)}\n  refusal: "
                f"{err}\n  (if these shapes are not meant to work, leave them out with "
                f"valid=... or draw only shapes that are)",
                kernel=self.name,
                op=err.op,
            ) from err

    def launch(self, kernel, args, drawn, ms) -> list:
        __tracebackhide__ = True
        try:
            return self.device.run(
                kernel,
                *[a.copy() if isinstance(a, np.ndarray) else a for a in args],
                grid=self.grid,
            )
        except TileIRError as err:
            raise KernelRunFailed(
                f"the launch failed{self.context(drawn, ms)}\n  {type(err).__name__}: {err}\n"
                f"  inputs:\n{describe_inputs(kernel, args)}",
                kernel=self.name,
                op=err.op,
                kind=err.kind,
            ) from err

    def run(self, data) -> None:
        __tracebackhide__ = True
        drawn = None
        if callable(self.markers):
            drawn = data.draw(self.shapes, label="shapes")
            if self.valid is not None and not self.valid(drawn):
                reject()
        ms = _markers_of(self.markers, drawn)
        if ms is None:
            reject()
        kernel = self.record(drawn, ms)
        args = data.draw(
            inputs_for(kernel, values=self.values, lengths=self.lengths), label="inputs"
        )
        got = self.launch(kernel, args, drawn, ms)
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        expected = list(
            self.reference(copies, drawn) if self.with_shapes else self.reference(copies)
        )
        if len(expected) != len(args):
            raise KernelRunFailed(
                f"the reference returned {len(expected)} value(s) for {len(args)} argument(s)",
                kernel=self.name,
                op="reference",
            )
        grid = tuple(self.grid) if self.grid is not None else tuple(kernel.grid or (1,))
        for p, g, e in zip(kernel.params, got, expected):
            if p.role == "Scalar":
                continue
            dtype = p.format.numpy_dtype
            e = np.asarray(e).reshape(-1).astype(dtype)
            tol = _tolerance_for(p.format, self.tolerance)
            diff = first_difference(np.asarray(g).reshape(-1), e, tol)
            if diff is not None:
                line = describe_difference(kernel, p.index, diff, grid, tol, e.size)
                raise KernelMismatch(
                    f"the kernel disagrees with its reference{self.context(drawn, ms)}\n"
                    f"  grid: {list(grid)}\n  {line}\n"
                    f"  inputs:\n{describe_inputs(kernel, args)}",
                    kernel=self.name,
                    op="compare",
                    kind="check.mismatch",
                )


def check_kernel(
    body: Callable,
    markers: MarkersArg,
    reference: Reference,
    *,
    name: Optional[str] = None,
    shapes: Optional[st.SearchStrategy] = None,
    valid: Optional[Callable[[Any], bool]] = None,
    tolerance: Union[None, Tolerance, Mapping[str, Tolerance]] = None,
    values: Optional[ValuesFor] = None,
    nan: bool = False,
    infinity: bool = False,
    subnormal: bool = False,
    lengths: Optional[Mapping[int, int]] = None,
    grid: Optional[Sequence[int]] = None,
    device: Optional[Device] = None,
    max_examples: Optional[int] = None,
    settings: Optional[Settings] = None,
) -> None:
    """Check ``body`` against ``reference`` on drawn shapes and inputs; raise on the first
    (shrunk) counterexample.

    ``markers`` is either the kernel's markers (fixed cells: only inputs are drawn) or a
    callable taking drawn shapes and returning the markers (``None`` to reject a draw).
    ``shapes`` draws its argument (a tuple is spread over its parameters; default: one
    extent from 1 to 1024 per parameter); ``valid(shapes)`` says which draws the kernel is
    meant for: any other recording refusal is a failure (:class:`KernelNotRecorded`).

    ``reference(args) -> args after`` takes the launch's arguments as the registry's
    references do (flat numpy arrays for buffers, numbers for Scalars, in parameter order,
    Out buffers with their drawn initial contents) and returns the list after the
    launch; a reference of two parameters also gets the drawn shapes (``reference(args,
    shapes)``, ``None`` for fixed markers).  Every buffer is compared: integers bit for bit,
    floats within ``tolerance`` (a :class:`~tileir.host.tolerance.Tolerance`, a ``{format name: Tolerance}`` map, or
    ``None`` for :func:`~tileir.fake.compare.default_tolerance`); a disagreement raises
    :class:`KernelMismatch`.

    Inputs: ``values`` picks a strategy per format (default
    :func:`~tileir.testing.values.values_for` with ``nan`` / ``infinity`` / ``subnormal``);
    ``lengths`` gives buffer lengths cells do not fix (Shared, DYN_DIM); ``grid`` is the
    launch grid when the cells do not make one.  ``device`` runs the launches (default: a
    ``FakeDevice(mode="interpret")``; the ``tileir_device`` fixture gives the fake and, where
    there is one, the real device).  ``max_examples`` (default: the active Hypothesis
    profile's) and ``settings`` tune the search; call this from a plain test function, not
    from inside another ``@given`` test.
    """
    if name is None:
        name = getattr(body, "__name__", "kernel")
        name = name if name.isidentifier() else "kernel"
    if callable(markers) and shapes is None:
        shapes = _default_shapes(markers)
    pick = (
        values
        if values is not None
        else values_for(nan=nan, infinity=infinity, subnormal=subnormal)
    )
    check = _Check(
        body,
        markers,
        reference,
        name,
        shapes,
        valid,
        tolerance,
        pick,
        lengths,
        grid,
        device if device is not None else _fake_device(),
    )
    base = (
        settings
        if settings is not None
        else Settings(
            deadline=None,
            database=None,
            suppress_health_check=[
                HealthCheck.too_slow,
                HealthCheck.data_too_large,
                HealthCheck.filter_too_much,
            ],
        )
    )
    if max_examples is not None:
        base = Settings(base, max_examples=max_examples)

    def run(data):
        __tracebackhide__ = True
        check.run(data)

    run.__name__ = run.__qualname__ = f"check_{name}"
    __tracebackhide__ = True
    base(given(st.data())(run))()
