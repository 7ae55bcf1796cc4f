"""Two transforms over recorded kernels: ``specialize`` fixes values, ``retile`` changes tiles.

Both record the kernel's body again (nothing is mutated), so every check of ``trace`` runs on
the result; parameters are named as the body names them.

>>> import numpy as np
>>> from tileir import F32, DYN_DIM, In, Out, Scalar, cells, load_cell, scalar, store_cell, trace
>>> from tileir.fake import FakeDevice
>>> def scale(x, out, a):
...     t = yield load_cell(x)
...     yield store_cell(out, t * scalar(a))
>>> g = cells([1000], [128])
>>> k = trace("scale", scale, In(F32, g), Out(F32, g), Scalar(F32))
>>> k3 = specialize(k, a=3.0)                  # one parameter fewer: a is the constant 3
>>> len(k3.params), retile(k3, x=[256], out=[256]).grid
(2, (4,))
>>> xs = np.arange(1000, dtype=np.float32)
>>> float(FakeDevice(mode="interpret").run(k3, xs, np.zeros(1000, np.float32))[1][-1])
2997.0
"""

from __future__ import annotations

from typing import Any, Sequence, Union

import attrs

from tileir.compose.bodies import Body, by_name, markers_text, recipe_of, stand_in_uses
from tileir.errors import RecordingError, TileIRError
from tileir.kernel import Kernel, Recipe, lower_program, record
from tileir.record.convention import trace_params
from tileir.record.markers import DYN_DIM, Cells, Marker, Param, Scalar
from tileir.shape_rules import RuleError, check_cells_agree, grid_of

__all__ = ["specialize", "retile"]

#: the first index of a fixed Scalar's stand-in: below every real parameter (and the
#: fuse stand-ins), so any use of it but ``scalar()`` is found in the recorded Program
_FIXED = -1000


def _with_cells(marker: Marker, c: Cells) -> Marker:
    return attrs.evolve(marker, cells=c)  # type: ignore[call-arg]  # In, Out and Shared have cells


def retile(kernel: Kernel, **tiles: Sequence[int]) -> Kernel:
    """``kernel``'s body recorded again with other tiles for the named parameters (their
    extents, ``along`` and padding unchanged).  Refused, naming the cells, when the new cells
    would disagree with each other or with the grid.

    >>> from tileir import F32, In, Out, cells, load_cell, store_cell, trace
    >>> def copy(x, out):
    ...     t = yield load_cell(x)
    ...     yield store_cell(out, t)
    >>> k = trace("copy", copy, In(F32, cells([1000], [128])), Out(F32, cells([1000], [128])))
    >>> retile(k, x=[512], out=[512]).grid
    (2,)
    """
    recipe = recipe_of(kernel, "retile")
    names, given = by_name(recipe, dict(tiles), "retile")
    markers = list(recipe.markers)
    for pos, tile in given.items():
        c = markers[pos].cells
        if c is None:
            raise RecordingError(
                f"retile: parameter {names[pos]!r} of kernel {recipe.name!r} is "
                f"{markers[pos]!r}, which has no cells to retile",
                kernel=recipe.name,
                op="retile",
            )
        try:
            new = Cells(c.extent, tuple(int(t) for t in tile), c.along, c.pad)
        except TileIRError as err:
            raise RecordingError(
                f"retile: parameter {names[pos]!r} of kernel {recipe.name!r}: {err.message}",
                kernel=recipe.name,
                op="retile",
            ) from None
        except TypeError:
            raise RecordingError(
                f"retile: the tile of {names[pos]!r} is a list of ints, got {tile!r}",
                kernel=recipe.name,
                op="retile",
            ) from None
        markers[pos] = _with_cells(markers[pos], new)
    _check_agree(recipe.name, names, markers, "retile")
    return _again(recipe, recipe.body, tuple(markers))


def _check_agree(name: str, names: Sequence[str], markers: Sequence[Marker], op: str) -> None:
    params = trace_params(*markers)
    try:
        check_cells_agree(params, grid_of(params))
    except RuleError as err:
        raise RecordingError(
            f"{op}: the cells of kernel {name!r} would disagree ({err}): "
            f"{markers_text(names, markers)}",
            kernel=name,
            op=op,
        ) from None


def _again(recipe: Recipe, body: Any, markers: tuple[Marker, ...]) -> Kernel:
    program = record(recipe.name, body, *markers, hints=recipe.hints, checked=recipe.checked)
    return lower_program(program, Recipe(recipe.name, body, markers, recipe.hints, recipe.checked))


Value = Union[int, float, bool, Sequence[Any]]


def specialize(kernel: Kernel, **values: Value) -> Kernel:
    """``kernel`` with the named Scalars fixed to constants and the named buffers' DYN_DIM
    extents fixed (give the whole extent, its fixed entries as they are): a new kernel with
    fewer parameters, whose results equal passing those values."""
    recipe = recipe_of(kernel, "specialize")
    names, given = by_name(recipe, dict(values), "specialize")
    markers = list(recipe.markers)
    fixed: dict[int, Any] = {}
    for pos, value in given.items():
        m = markers[pos]
        if isinstance(m, Scalar):
            fixed[pos] = _scalar_value(recipe.name, names[pos], m, value)
        else:
            markers[pos] = _with_cells(m, _fixed_extent(recipe.name, names[pos], m, value))
    kept = [i for i in range(len(markers)) if i not in fixed]
    new_markers = tuple(markers[i] for i in kept)
    body = recipe.body
    total = len(markers)

    def run(*params: Param) -> Any:
        full: list[Param] = []
        it = iter(params)
        for i in range(total):
            if i in fixed:
                full.append(Param(_FIXED - i, markers[i], value=fixed[i]))
            else:
                full.append(next(it))
        return body(*full)

    code = getattr(body, "__code__", run.__code__)
    wrapped = Body(
        run,
        tuple(names[i] for i in kept),
        code,
        getattr(body, "__name__", recipe.name),
        ("specialize", recipe, tuple(sorted(fixed.items()))),
    )
    _check_agree(recipe.name, wrapped.names, new_markers, "specialize")
    program = record(
        recipe.name, wrapped, *new_markers, hints=recipe.hints, checked=recipe.checked
    )
    use = stand_in_uses(program, [_FIXED - i for i in fixed])
    if use is not None:
        raise RecordingError(
            f"specialize: kernel {recipe.name!r} uses a fixed Scalar other than through "
            f"scalar() ({use}); only its value can become a constant",
            kernel=recipe.name,
            op="specialize",
        )
    return lower_program(
        program, Recipe(recipe.name, wrapped, new_markers, recipe.hints, recipe.checked)
    )


def _scalar_value(name: str, pname: str, m: Scalar, value: Any) -> Any:
    if getattr(value, "ndim", None) == 0 and hasattr(value, "item"):
        value = value.item()  # a numpy number: the Python number it holds
    if not isinstance(value, (bool, int, float)):
        raise RecordingError(
            f"specialize: Scalar {pname!r} ({m!r}) of kernel {name!r} takes a Python number, "
            f"got {value!r}",
            kernel=name,
            op="specialize",
        )
    if m.format.is_int and isinstance(value, float):
        raise RecordingError(
            f"specialize: Scalar {pname!r} of kernel {name!r} is {m.format}, got the float "
            f"{value!r}",
            kernel=name,
            op="specialize",
        )
    return value


def _fixed_extent(name: str, pname: str, m: Marker, value: Any) -> Cells:
    c = m.cells
    if c is None or not c.dynamic:
        raise RecordingError(
            f"specialize: parameter {pname!r} of kernel {name!r} is {m!r}, which has no "
            f"DYN_DIM extent to fix (specialize fixes Scalars and DYN_DIM extents)",
            kernel=name,
            op="specialize",
        )
    try:
        extent = tuple(value)
    except TypeError:
        extent = ()
    ok = len(extent) == c.rank and all(
        isinstance(e, int) and not isinstance(e, bool) and e > 0 and (old is DYN_DIM or old == e)
        for e, old in zip(extent, c.extent)
    )
    if not ok:
        raise RecordingError(
            f"specialize: parameter {pname!r} of kernel {name!r} has the extent "
            f"{list(c.extent)!r}; give the whole extent with every DYN_DIM a length and the "
            f"others as they are, got {value!r}",
            kernel=name,
            op="specialize",
        )
    return Cells(extent, c.tile, c.along, c.pad)
