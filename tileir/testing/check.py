"""``check_kernel``: a property-based test of a user's kernel against a numpy reference.

Hypothesis draws the problem's sizes, your factory records the kernel for them
(so shapes, tiles, grids and Shared buffers follow the draw), inputs are drawn
for that kernel, and each example runs it (on the fake device's interpreter
unless another device is given) and compares every buffer with what the
reference says the launch leaves there.  A failure is one tileir error for the
shrunk example: it names the drawn sizes, the markers, the grid, the first
differing element with its block and both values, what the debugger's finders
see in that launch, and the line of your test.

>>> import numpy as np
>>> from tileir import F32, In, Out, cells, load_cell, store_cell, trace
>>> def double(x, out):
...     t = yield load_cell(x)
...     yield store_cell(out, t + t)
>>> def make(n):
...     g = cells([n], [128])
...     return trace("double", double, In(F32, g), Out(F32, g))
>>> def reference(args):
...     x, out = args
...     return [x, x * 2]
>>> check_kernel(make, reference, max_examples=10)
"""

from __future__ import annotations

import contextlib
import inspect
import os
import shutil
import sys
import tempfile
from typing import Any, Callable, Iterator, Mapping, Optional, Sequence, Union

import numpy as np
from hypothesis import HealthCheck, Phase, given, reject
from hypothesis import configuration as hypothesis_configuration
from hypothesis import settings as Settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException, Unsatisfiable

from tileir.errors import MismatchError, RecordingError, TileIRError
from tileir.fake import FakeDevice
from tileir.fake.compare import check_tolerance, first_difference
from tileir.host.device import Device
from tileir.host.tolerance import PER_FORMAT, Tolerance
from tileir.kernel import Kernel
from tileir.testing.diagnose import fault_causes, mismatch_causes
from tileir.testing.report import describe_difference, describe_inputs
from tileir.testing.strategies import inputs_for
from tileir.testing.values import ValuesFor, values_for

__all__ = [
    "check_kernel",
    "CheckArgumentError",
    "KernelMismatch",
    "KernelNotRecorded",
    "KernelRunFailed",
]

Reference = Callable[..., Sequence]
Factory = Callable[..., Optional[Kernel]]
GridArg = Union[None, int, Sequence[int], Callable[..., Union[int, Sequence[int]]]]
LengthsArg = Union[None, Mapping[int, int], Callable[..., Mapping[int, int]]]

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the tileir package
_HYPOTHESIS = os.path.dirname(os.path.abspath(sys.modules["hypothesis"].__file__ or ""))


class _Failure:
    """What a failed example keeps for the final report: ``(kernel, flat args, grid)``."""

    example: Optional[tuple] = None
    #: a Shared buffer is the one that differs (a race is a likely cause)
    shared_differs: bool = False


class KernelMismatch(_Failure, MismatchError, AssertionError):
    """The kernel and its reference disagree on a drawn example (the message says where,
    and what the finders see there)."""


class KernelNotRecorded(RecordingError, AssertionError):
    """The kernel could not be recorded for sizes the test drew and did not call invalid."""


class KernelRunFailed(_Failure, TileIRError, AssertionError):
    """The launch was refused, the device failed, or the reference failed on a drawn
    example (the cause is kept as ``__cause__``)."""


class CheckArgumentError(TileIRError, TypeError):
    """check_kernel was given an argument it cannot use (the message names it and its
    value)."""


def _is_library_file(path: str) -> bool:
    p = os.path.abspath(path)
    return p.startswith(_HERE + os.sep) or p.startswith(_HYPOTHESIS + os.sep)


def _where(filename: str, line: int) -> str:
    return f"{os.path.basename(filename)}:{line}"


def _caller() -> Optional[str]:
    """``file.py:12`` of the first frame outside tileir and hypothesis (the user's test)."""
    frame = sys._getframe(1)
    while frame is not None:
        if not _is_library_file(frame.f_code.co_filename):
            return _where(frame.f_code.co_filename, frame.f_lineno)
        frame = frame.f_back  # type: ignore[assignment]
    return None


def _user_line_of(err: BaseException) -> Optional[str]:
    """The last traceback frame of ``err`` in the user's code (their factory, reference)."""
    found = None
    tb = err.__traceback__
    while tb is not None:
        if not _is_library_file(tb.tb_frame.f_code.co_filename):
            found = _where(tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return found


def _arity(fn: Callable) -> int:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 1
    return sum(
        1
        for p in params
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    )


def _default_sizes(factory: Callable) -> st.SearchStrategy:
    n = _arity(factory)
    extent = st.integers(1, 1024)
    return extent if n == 1 else st.tuples(*([extent] * n))


def _spread(fn: Callable, sizes: Any) -> Any:
    """``fn`` of the drawn sizes: a dict as keywords, a tuple as positionals, else one."""
    if isinstance(sizes, Mapping):
        return fn(**sizes)
    if isinstance(sizes, tuple):
        return fn(*sizes)
    return fn(sizes)


def _call_user(fn: Callable, sizes: Any, what: str) -> Any:
    """``fn`` of the sizes (grid=, lengths=, valid=); what it raises becomes a
    CheckArgumentError naming the argument, the sizes and the user's line."""
    try:
        return _spread(fn, sizes)
    except TileIRError:
        raise
    except Exception as err:
        at = _user_line_of(err)
        raise CheckArgumentError(
            f"{what}({_show_sizes(sizes)}) raised {type(err).__name__}: {err}"
            + (f" (at {at})" if at else ""),
            op="check_kernel",
        ) from err


def _show_sizes(sizes: Any) -> str:
    if isinstance(sizes, Mapping):
        return ", ".join(f"{k}={v!r}" for k, v in sizes.items())
    return repr(sizes)


def _grid_value(value: Any, what: str) -> tuple:
    """A launch grid as a tuple of 1 to 3 positive ints, or a CheckArgumentError."""
    items = [value] if isinstance(value, (int, np.integer)) else value
    try:
        grid = tuple(items)
    except TypeError:
        grid = ()
    if (
        not 1 <= len(grid) <= 3
        or not all(isinstance(g, (int, np.integer)) and not isinstance(g, bool) for g in grid)
        or not all(g >= 1 for g in grid)
    ):
        raise CheckArgumentError(
            f"{what} is {value!r}; a grid is a positive int or a sequence of 1 to 3 of them "
            "(blocks per axis)",
            op="check_kernel",
        )
    return tuple(int(g) for g in grid)


def _flat(a: Any) -> Any:
    return a.reshape(-1).copy() if isinstance(a, np.ndarray) else a


def _declared_shape(param, size: int) -> Optional[tuple]:
    """The N-D shape the reference sees a buffer in: its cells' extent, when the buffer
    holds exactly that many elements."""
    c = param.marker.cells
    if c is None or not all(isinstance(e, int) for e in c.extent):
        return None
    shape = tuple(int(e) for e in c.extent)
    return shape if int(np.prod(shape)) == size else None


def _shaped(kernel: Kernel, args: Sequence[Any]) -> list:
    out = []
    for p, a in zip(kernel.params, args):
        if isinstance(a, np.ndarray):
            shape = _declared_shape(p, a.size)
            a = a.reshape(shape).copy() if shape is not None else a.copy()
        out.append(a)
    return out


@contextlib.contextmanager
def _storage_outside_cwd(settings: Settings) -> Iterator[None]:
    """With the example database off, Hypothesis still caches what it reads from your
    modules under ``./.hypothesis``; point that at a temporary directory for the run,
    unless ``HYPOTHESIS_STORAGE_DIRECTORY`` or the home directory was chosen."""
    chosen = vars(hypothesis_configuration).get("__hypothesis_home_directory")
    if (
        settings.database is not None
        or os.getenv("HYPOTHESIS_STORAGE_DIRECTORY")
        or chosen is not None
    ):
        yield
        return
    home = tempfile.mkdtemp(prefix="tileir-hypothesis-")
    hypothesis_configuration.set_hypothesis_home_dir(home)
    try:
        yield
    finally:
        hypothesis_configuration.set_hypothesis_home_dir(None)
        shutil.rmtree(home, ignore_errors=True)


class _Check:
    """One check_kernel call's fixed parts; ``run(data)`` is one Hypothesis example."""

    def __init__(
        self, *, kernel, reference, sizes, valid, tolerance, values, lengths, grid, device
    ):
        self.kernel, self.reference, self.sizes = kernel, reference, sizes
        self.valid, self.tolerance, self.values = valid, tolerance, values
        self.lengths, self.grid, self.device = lengths, grid, device
        self.factory = not isinstance(kernel, Kernel)

    # -- the parts an example is made of

    def context(self, sizes, kernel: Optional[Kernel]) -> str:
        text = "" if not self.factory else f" for sizes {_show_sizes(sizes)}"
        if kernel is not None:
            text += f"\n  markers: {', '.join(repr(p.marker) for p in kernel.params)}"
        return text

    def record(self, sizes) -> Kernel:
        if not self.factory:
            return self.kernel
        try:
            made = _spread(self.kernel, sizes)
        except RecordingError as err:
            raise KernelNotRecorded(
                f"the kernel could not be recorded{self.context(sizes, None)}\n  refusal: "
                f"{err}\n  (if these sizes are not meant to work, leave them out with "
                f"valid=... or draw only sizes that are)",
                kernel=err.kernel,
                op=err.op,
            ) from err
        except TileIRError:
            raise
        except Exception as err:
            where = _user_line_of(err)
            raise KernelNotRecorded(
                f"the factory raised {type(err).__name__}: {err}{self.context(sizes, None)}"
                + (f" (at {where})" if where else ""),
                op="check_kernel",
            ) from err
        if made is None:
            reject()
        if not isinstance(made, Kernel):
            raise CheckArgumentError(
                f"the factory returned {type(made).__name__} {made!r:.80} for sizes "
                f"{_show_sizes(sizes)}; it must return a recorded kernel (trace(...)) or "
                "None to leave the sizes out",
                op="check_kernel",
            )
        return made

    def grid_for(self, sizes, kernel: Kernel) -> Optional[tuple]:
        if self.grid is None:
            return None
        if callable(self.grid):
            made = _call_user(self.grid, sizes, "grid")
            return _grid_value(made, f"grid({_show_sizes(sizes)})")
        return _grid_value(self.grid, "grid")

    def lengths_for(self, sizes) -> Optional[Mapping[int, int]]:
        if callable(self.lengths):
            made = _call_user(self.lengths, sizes, "lengths")
            if not isinstance(made, Mapping):
                raise CheckArgumentError(
                    f"lengths({_show_sizes(sizes)}) returned {made!r}; it must return a "
                    "{argument index: buffer length} mapping",
                    op="check_kernel",
                )
            return made
        return self.lengths

    def reference_of(self, kernel: Kernel) -> tuple[Callable, bool]:
        """The reference to call and whether it takes N-D arrays (a test's own does; a
        kernel's own takes the device's flat arrays, as the fake device calls it)."""
        if self.reference is not None:
            return self.reference, True
        if kernel.reference is None:
            raise CheckArgumentError(
                f"kernel `{kernel.name}` carries no reference: pass check_kernel a "
                "reference, or record the kernel with kernel.with_reference(fn)",
                op="check_kernel",
            )
        return kernel.reference, False

    def tolerance_for(self, fmt, kernel: Kernel, own_reference: bool) -> Optional[Tolerance]:
        if not fmt.is_float:
            return None
        if isinstance(self.tolerance, Tolerance):
            return self.tolerance
        if isinstance(self.tolerance, Mapping):
            return self.tolerance.get(fmt.name, check_tolerance(fmt))
        if own_reference and kernel.tolerance != PER_FORMAT:
            return kernel.tolerance  # what the kernel declares with its reference
        return check_tolerance(fmt)

    def launch(self, kernel, args, grid, sizes) -> list:
        try:
            return self.device.run(kernel, *[_flat(a) for a in args], grid=grid)
        except TileIRError as err:
            raise KernelRunFailed(
                f"the launch failed{self.context(sizes, kernel)}\n  {type(err).__name__}: "
                f"{err}\n  inputs:\n{describe_inputs(kernel, args)}",
                kernel=kernel.name,
                op=err.op,
                kind=err.kind,
            ) from err

    def expect(self, kernel, args, sizes) -> list:
        fn, shaped = self.reference_of(kernel)
        given_args = _shaped(kernel, args) if shaped else [_flat(a) for a in args]
        try:
            if shaped and _arity(fn) >= 2:
                expected = fn(given_args, sizes)
            else:
                expected = fn(given_args)
            expected = list(expected)
        except TileIRError:
            raise
        except Exception as err:
            where = _user_line_of(err)
            raise KernelRunFailed(
                f"the reference raised {type(err).__name__}: {err}{self.context(sizes, kernel)}"
                + (f" (at {where})" if where else ""),
                kernel=kernel.name,
                op="reference",
            ) from err
        if len(expected) != len(args):
            raise KernelRunFailed(
                f"the reference returned {len(expected)} value(s) for {len(args)} argument(s)",
                kernel=kernel.name,
                op="reference",
            )
        return expected

    # -- one example

    def run(self, data) -> None:
        __tracebackhide__ = True  # pytest shows the user's test, not this module
        sizes = None
        if self.factory:
            sizes = data.draw(self.sizes, label="sizes")
            if self.valid is not None and not _call_user(self.valid, sizes, "valid"):
                reject()
        kernel = self.record(sizes)
        grid = self.grid_for(sizes, kernel)
        args = data.draw(
            inputs_for(kernel, values=self.values, lengths=self.lengths_for(sizes)),
            label="inputs",
        )
        example = (kernel, [_flat(a) for a in args], grid)
        try:
            self.compare(kernel, args, grid, sizes)
        except (KernelMismatch, KernelRunFailed) as err:
            err.example = example
            raise

    def compare(self, kernel, args, grid, sizes) -> None:
        got = self.launch(kernel, args, grid, sizes)
        expected = self.expect(kernel, args, sizes)
        own = self.reference is None
        shown_grid = grid if grid is not None else tuple(kernel.grid or (1,))
        for p, g, e in zip(kernel.params, got, expected):
            if p.role == "Scalar":
                continue
            n = np.asarray(g).size
            e = np.asarray(e)
            if e.size != n:
                raise KernelRunFailed(
                    f"the reference returned {e.size} element(s) (shape {list(e.shape)}) for "
                    f"argument {p.index} ({p.role} {p.format}), whose buffer holds {n}"
                    f"{self.context(sizes, kernel)}",
                    kernel=kernel.name,
                    op="reference",
                )
            e = e.reshape(-1).astype(p.format.numpy_dtype)
            tol = self.tolerance_for(p.format, kernel, own)
            diff = first_difference(np.asarray(g).reshape(-1), e, tol, p.format)
            if diff is not None:
                line = describe_difference(kernel, p.index, diff, shown_grid, tol, e.size)
                err = KernelMismatch(
                    f"the kernel disagrees with its reference{self.context(sizes, kernel)}\n"
                    f"  grid: {list(shown_grid)}\n  {line}\n"
                    f"  inputs:\n{describe_inputs(kernel, args)}",
                    kernel=kernel.name,
                    op="compare",
                    kind="check.mismatch",
                )
                err.shared_differs = p.role == "Shared"
                raise err


def _check_arguments(kernel, reference, sizes, valid, tolerance, lengths, grid, device) -> None:
    """Refuse what check_kernel cannot use, before any example runs."""

    def refuse(what: str) -> None:
        raise CheckArgumentError(what, op="check_kernel")

    if isinstance(kernel, Kernel):
        if reference is None and kernel.reference is None:
            refuse(
                f"kernel `{kernel.name}` carries no reference: pass a reference, or record "
                "the kernel with kernel.with_reference(fn)"
            )
        if sizes is not None:
            refuse(f"sizes={sizes!r} is given for a recorded kernel; pass a factory of them")
    elif inspect.isgeneratorfunction(kernel):
        refuse(
            f"{getattr(kernel, '__name__', kernel)!r} is a kernel body; pass a recorded "
            "kernel (trace(name, body, *markers)) or a factory of the drawn sizes that "
            "returns one, e.g. lambda n: trace('k', body, In(F32, cells([n], [64])), ...)"
        )
    elif not callable(kernel):
        refuse(
            f"the kernel is {type(kernel).__name__} {kernel!r:.60}; pass a recorded kernel "
            "or a factory of the drawn sizes that returns one"
        )
    if reference is not None and not callable(reference):
        refuse(f"reference is {type(reference).__name__} {reference!r:.60}, not a function")
    if sizes is not None and not isinstance(sizes, st.SearchStrategy):
        refuse(
            f"sizes is {type(sizes).__name__} {sizes!r:.60}; it must be a Hypothesis "
            "strategy, e.g. st.integers(1, 512) or st.fixed_dictionaries({'n': ...})"
        )
    if valid is not None and not callable(valid):
        refuse(f"valid is {valid!r:.60}, not a function of the drawn sizes")
    if tolerance is not None and not isinstance(tolerance, (Tolerance, Mapping)):
        refuse(
            f"tolerance is {type(tolerance).__name__} {tolerance!r:.60}; give a Tolerance, "
            "a {format name: Tolerance} mapping, or None for the per-format default"
        )
    if lengths is not None and not (callable(lengths) or isinstance(lengths, Mapping)):
        refuse(
            f"lengths is {lengths!r:.60}; give an {{argument index: length}} mapping or a "
            "function of the drawn sizes returning one"
        )
    if grid is not None and not callable(grid):
        _grid_value(grid, "grid")
    if device is not None and not isinstance(device, Device):
        refuse(f"device is {type(device).__name__} {device!r:.60}, not a tileir Device")


def _single(err: BaseException) -> BaseException:
    """One error from what Hypothesis raised: the first tileir error of a group."""
    # (ExceptionGroup is a builtin from Python 3.11; Hypothesis raises the backport's on 3.10)
    while isinstance(getattr(err, "exceptions", None), tuple) and err.exceptions:  # type: ignore[attr-defined]
        group = err.exceptions  # type: ignore[attr-defined]
        err = next((e for e in group if isinstance(e, TileIRError)), group[0])
    return err


def _finished(err: TileIRError, where: Optional[str]) -> TileIRError:
    """The failure as check_kernel raises it: the finders' view of the example added, and
    the user's line."""
    extra = ""
    example = err.example if isinstance(err, _Failure) else None
    if example is not None:
        kernel, args, grid = example
        if isinstance(err, KernelMismatch):
            extra = "\n" + mismatch_causes(kernel, args, grid, err.shared_differs)
        elif isinstance(err, KernelRunFailed):
            causes = fault_causes(kernel, args, grid)
            extra = "\n" + causes if causes else ""
    out = type(err)(
        err.message + extra, kernel=err.kernel, op=err.op, where=err.where or where, kind=err.kind
    )
    out.__cause__ = err.__cause__
    notes = getattr(err, "__notes__", None)  # Hypothesis's "Falsifying example"
    if notes:
        setattr(out, "__notes__", list(notes))
    return out


def check_kernel(
    kernel: Union[Kernel, Factory],
    reference: Optional[Reference] = None,
    *,
    sizes: Optional[st.SearchStrategy] = None,
    valid: Optional[Callable[..., bool]] = None,
    grid: GridArg = None,
    lengths: LengthsArg = None,
    tolerance: Union[None, Tolerance, Mapping[str, Tolerance]] = None,
    values: Optional[ValuesFor] = None,
    nan: bool = False,
    infinity: bool = False,
    subnormal: bool = False,
    device: Optional[Device] = None,
    max_examples: Optional[int] = None,
    settings: Optional[Settings] = None,
) -> None:
    """Check a kernel against ``reference`` on drawn problems; raise one tileir error on
    the first (shrunk) counterexample.

    ``kernel`` is a recorded kernel (only inputs are drawn) or a **factory**: a function of
    the drawn ``sizes`` that records and returns the kernel (``None`` to leave a draw out),
    so its extents, tiles, cells, grid and Shared buffers follow the draw.  ``sizes`` is a
    Hypothesis strategy; a drawn dict is passed as keywords (``st.fixed_dictionaries``), a
    tuple as positionals, anything else as the one argument (default: one extent from 1 to
    1024 per parameter of the factory).  ``valid(sizes)`` says which draws the kernel is
    meant for: any other recording refusal is a failure (:class:`KernelNotRecorded`).

    ``reference(args) -> args after`` takes the launch's arguments in parameter order (each
    buffer a numpy array in its declared shape, the cells' extent; Shared and DYN_DIM
    buffers flat; numbers for Scalars; Outs with their drawn contents) and returns them as
    the launch leaves them (any shape of the same size); a reference of two parameters also
    gets the sizes (``reference(args, sizes)``).  Without ``reference`` the kernel's own
    (:meth:`~tileir.Kernel.with_reference`) is used, with the flat arrays a device gives it.

    Every buffer is compared: integers bit for bit, floats within ``tolerance`` (a
    :class:`~tileir.Tolerance` or a ``{format name: Tolerance}`` map; default: the kernel's
    own with its own reference, else :func:`~tileir.fake.compare.check_tolerance`, a few
    ulps of each format).  A disagreement raises :class:`KernelMismatch`, a refused launch
    or failing reference :class:`KernelRunFailed`; both add what the debugger's finders
    see in the failing launch (untouched elements, padding leaks, races, out-of-bounds
    accesses) and end with the line of your test.

    ``grid``: the launch grid when the cells do not make one (an int, a sequence, or a
    function of the sizes); ``lengths``: buffer lengths cells do not fix (Shared, DYN_DIM;
    a mapping or a function of the sizes).  ``values`` picks a strategy per format
    (default :func:`~tileir.testing.values.values_for` with ``nan`` / ``infinity`` /
    ``subnormal``).  ``device`` runs the launches (default ``FakeDevice(mode="interpret")``;
    the ``tileir_device`` fixture gives the fake and, where present, the real device).
    ``max_examples`` (default: the active Hypothesis profile's) and ``settings`` tune the
    search (default: no example database, and nothing written under ``./.hypothesis``).
    Call it from a plain test function, not from inside another ``@given`` test.
    """
    __tracebackhide__ = True
    where = _caller()
    try:
        _check_arguments(kernel, reference, sizes, valid, tolerance, lengths, grid, device)
    except CheckArgumentError as err:
        raise err.with_context(where=where) from None
    if not isinstance(kernel, Kernel) and sizes is None:
        sizes = _default_sizes(kernel)
    pick = (
        values
        if values is not None
        else values_for(nan=nan, infinity=infinity, subnormal=subnormal)
    )
    check = _Check(
        kernel=kernel,
        reference=reference,
        sizes=sizes,
        valid=valid,
        tolerance=tolerance,
        values=pick,
        lengths=lengths,
        grid=grid,
        device=device if device is not None else FakeDevice(mode="interpret"),
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
    # one failure, one error; and no "explain" phase, whose report lists lines of tileir
    base = Settings(
        base,
        report_multiple_bugs=False,
        phases=[p for p in base.phases if p is not Phase.explain],
    )
    if max_examples is not None:
        base = Settings(base, max_examples=max_examples)

    def run(data):
        __tracebackhide__ = True
        check.run(data)

    name = getattr(kernel, "name", None) or getattr(kernel, "__name__", "kernel")
    run.__name__ = run.__qualname__ = f"check_{name}" if str(name).isidentifier() else "check"
    try:
        with _storage_outside_cwd(base):
            base(given(st.data())(run))()
    except Exception as err:
        one = _single(err)  # a group (a flaky failure is one too): its tileir error
        if isinstance(one, TileIRError):
            raise _finished(one, where) from None
        if isinstance(err, Unsatisfiable):
            raise CheckArgumentError(
                "no drawn example could be run: every draw was left out (valid=, or the "
                f"factory returned None) ({err})",
                op="check_kernel",
                where=where,
            ) from None
        if isinstance(err, HypothesisException):
            raise KernelRunFailed(
                f"Hypothesis stopped the check: {type(err).__name__}: {err}",
                op="check_kernel",
                where=where,
            ) from err
        raise
