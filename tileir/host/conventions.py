"""Calling conventions: how a producer's entry takes numpy arrays and numbers.

An entry function of Tile IR takes only rank-0 tiles: pointers, integers, floats.  How a
producer spreads an array over them is its own choice, so running another producer's
bytecode needs that choice written down.  A :class:`Convention` is that choice as a value:
``bind(entry, args)`` turns the caller's arguments (numpy arrays of any shape and strides,
numbers) into the entry's flat argument list, and remembers how to hand each array back in
its own shape after the launch.  :data:`CONVENTIONS` is the table of the known ones:

* ``raw``: one pointer per array, its elements in C order; one parameter per number;
* ``cutile``: as NVIDIA cuTile Python's entries take an array (docs/launch.md §4.6): its
  pointer, then its shape (one ``i32`` each; ``i64`` for an entry exported with int64
  indices), then its strides in elements (the same); numbers as they are.  Any numpy strides are taken
  (transposed and sliced views included); the kernel sees a buffer spanning the view;
* ``tileir``: tileir's own convention for a recorded kernel
  (:data:`tileir.record.convention.SUMMARY`): the markers' parameters, then the
  ``DYN_DIM`` extents and element counts the launch derives.  It needs the recorded
  :class:`~tileir.Kernel`, whose markers say what the extra parameters are.

A producer of another convention is added with :func:`register_convention` (or by
passing a :class:`Convention` itself wherever a name is taken):

>>> import numpy as np
>>> from tileir.ir.module import Value
>>> from tileir.types import F32, I32, PointerType, TileType
>>> params = (Value(0, TileType((), PointerType(F32))), Value(1, TileType((), I32)))
>>> b = CONVENTIONS["raw"].bind(params, [np.ones((2, 3), np.float32), 7])
>>> [type(v).__name__ for v in b.values], b.values[0].shape, b.arrays[0].shape
(['ndarray', 'int'], (6,), (2, 3))
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Sequence, Union

import attrs
import numpy as np

from tileir.errors import LaunchError
from tileir.formats import numpy_dtype
from tileir.types import I32, I64, Format, PointerType, TileType

__all__ = [
    "ArrayBinding",
    "Binding",
    "Convention",
    "CONVENTIONS",
    "register_convention",
    "convention_of",
    "is_array",
]

#: the types cuTile gives an array's shape and strides (its index dtype: int32 by default,
#: int64 when asked; docs/launch.md §4.6), with the largest value each holds
_INDEX_TYPES = {TileType((), I32): (1 << 31) - 1, TileType((), I64): (1 << 63) - 1}
#: The largest buffer a strided view may make the cutile convention build (the fake device's
#: default bound on a launch's memory, tileir.fake.limits): strides may spread a few elements
#: over far more memory than the view holds.
MAX_SPAN_BYTES = 1 << 32


def is_array(value: Any) -> bool:
    """True for an argument that is an array (a numpy array of rank 1 or more)."""
    return isinstance(value, np.ndarray) and value.ndim >= 1


@attrs.frozen(eq=False)
class ArrayBinding:
    """One array argument as the entry sees it: argument ``index`` of the call, whose
    buffer is entry parameter ``param``; ``shape`` is the caller's; ``offsets`` (``None``
    for C order) are the flat buffer elements that hold the array's elements, in C order
    of the array; ``format`` is the element format of the entry's pointer."""

    index: int
    param: int
    shape: tuple[int, ...]
    offsets: Optional[np.ndarray] = None
    #: the element format the entry's pointer parameter points at
    format: Optional[Format] = None

    def read(self, flat: np.ndarray) -> np.ndarray:
        """The array after the launch, in its own shape, from the entry's flat buffer."""
        flat = np.asarray(flat).reshape(-1)
        if self.offsets is None:
            return flat.reshape(self.shape).copy()
        return flat[self.offsets].reshape(self.shape)


@attrs.frozen(eq=False)
class Binding:
    """A call bound to an entry: ``values`` are the entry's arguments in parameter order
    (1-D arrays for pointers, numbers for the rest); ``arrays`` says where each of the
    caller's arrays went; ``grid`` is the grid the convention derived (the ``tileir``
    convention reads it off the kernel's cells), ``None`` when the caller must give it."""

    values: list[Any]
    arrays: tuple[ArrayBinding, ...]
    grid: Optional[tuple[int, ...]] = None


@attrs.frozen
class Convention:
    """A named calling convention.  ``bind(params, args, kernel=None)`` answers the
    :class:`Binding` of ``args`` to an entry with parameters ``params`` (the entry's
    ``Value`` list), or raises :class:`~tileir.errors.LaunchError` naming the argument;
    ``kernel`` is the recorded Kernel when there is one and ``grid`` the launch's (the
    ``tileir`` convention needs both).  ``binder(params, args, kernel, grid)`` does the
    work."""

    name: str
    summary: str
    binder: Callable[..., Binding] = attrs.field(eq=False, repr=False)

    def bind(
        self, params: Sequence[Any], args: Sequence[Any], kernel: Any = None, grid: Any = None
    ) -> Binding:
        return self.binder(params, list(args), kernel, grid)


# ----------------------------------------------------------------------------- helpers


def _fail(message: str, kind: str = "convention.args") -> LaunchError:
    return LaunchError(message, op="bind", kind=kind)


def _pointee(params: Sequence[Any], at: int, index: int, convention: str) -> Format:
    """The element format of entry parameter ``at``, which must be a pointer."""
    if at >= len(params):
        raise _fail(
            f"argument {index} (an array) needs parameter {at} under the {convention} "
            f"convention, but the entry takes {len(params)} parameter(s)"
        )
    t = params[at].type
    if not (isinstance(t, TileType) and t.rank == 0 and isinstance(t.element, PointerType)):
        raise _fail(
            f"argument {index} is an array, but entry parameter {at} is {t}, not a pointer "
            f"(the {convention} convention)"
        )
    return t.element.pointee


def _checked_dtype(arr: np.ndarray, fmt, index: int) -> None:
    want = numpy_dtype(fmt)
    if arr.dtype != want:
        raise _fail(
            f"argument {index} holds {arr.dtype}, but its parameter points at {fmt} "
            f"({want}): convert it first (array.astype(np.{want}))",
            "convention.dtype",
        )


def _number(params: Sequence[Any], at: int, value: Any, index: int, convention: str) -> Any:
    if at >= len(params):
        raise _fail(
            f"argument {index} ({value!r}) has no parameter: the entry takes "
            f"{len(params)} parameter(s) under the {convention} convention"
        )
    t = params[at].type
    if isinstance(t, TileType) and isinstance(t.element, PointerType):
        raise _fail(
            f"argument {index} is the number {value!r}, but entry parameter {at} is {t}: "
            f"give an array (a .npy file on the command line)"
        )
    if isinstance(value, np.ndarray):  # a rank-0 array: its number
        return value.item()
    return value


def _check_count(params: Sequence[Any], used: int, convention: str, n_args: int) -> None:
    if used != len(params):
        raise _fail(
            f"the entry takes {len(params)} parameter(s); the {n_args} argument(s) given "
            f"fill {used} under the {convention} convention"
        )


# ----------------------------------------------------------------------------- raw


def _bind_raw(params: Sequence[Any], args: list, kernel: Any, grid: Any) -> Binding:
    values: list[Any] = []
    arrays: list[ArrayBinding] = []
    flats: dict[int, np.ndarray] = {}  # an array passed twice is one buffer, as on a GPU
    for i, a in enumerate(args):
        at = len(values)
        if is_array(a):
            fmt = _pointee(params, at, i, "raw")
            _checked_dtype(a, fmt, i)
            values.append(flats.setdefault(id(a), np.ascontiguousarray(a).reshape(-1)))
            arrays.append(ArrayBinding(i, at, tuple(a.shape), None, fmt))
        else:
            values.append(_number(params, at, a, i, "raw"))
    _check_count(params, len(values), "raw", len(args))
    return Binding(values, tuple(arrays))


RAW = Convention(
    "raw",
    "one pointer per array (its elements in C order), one parameter per number",
    _bind_raw,
)

# ----------------------------------------------------------------------------- cutile


def _strided_buffer(arr: np.ndarray, index: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """A flat buffer spanning ``arr`` (its elements placed at their strides in elements),
    the offset of each element in C order, and the strides in elements."""
    item = arr.dtype.itemsize
    strides = []
    for d, s in enumerate(arr.strides):
        if s < 0 or s % item:
            raise _fail(
                f"argument {index} has stride {s} bytes along dimension {d}: the cutile "
                f"convention takes non-negative strides of whole elements "
                f"(np.ascontiguousarray(a) makes one)",
                "convention.strides",
            )
        strides.append(s // item)
    if arr.size == 0:
        return np.zeros(0, arr.dtype), np.zeros(0, np.int64), strides
    span = 1 + sum((n - 1) * s for n, s in zip(arr.shape, strides))
    if span * item > MAX_SPAN_BYTES:
        raise _fail(
            f"argument {index} (shape {list(arr.shape)}, strides {strides} in elements) spans "
            f"{span * item} bytes, more than the {MAX_SPAN_BYTES} a launch may take",
            "convention.strides",
        )
    grids = np.indices(arr.shape, dtype=np.int64).reshape(arr.ndim, -1)
    offsets = (np.asarray(strides, np.int64)[:, None] * grids).sum(axis=0)
    flat = np.zeros(span, arr.dtype)
    flat[offsets] = arr.reshape(-1)
    return flat, offsets, strides


def _rank_hint(params: Sequence[Any], at: int, last: ArrayBinding, now: Any) -> None:
    """Refuse, naming the array before, when the entry holds more i32 values after that
    array's strides where ``now``, an array, wants its pointer: the array before has fewer
    dimensions than the entry takes there."""
    if is_array(now) and params[at].type in _INDEX_TYPES:
        raise _fail(
            f"argument {last.index} has {len(last.shape)} dimension(s), but the entry "
            f"holds more shape and stride values after its pointer (parameter {at} is "
            f"tile<i32> where argument {last.index + 1}'s pointer would go): the entry "
            f"takes an array of another rank there",
            "convention.rank",
        )


def _bind_cutile(params: Sequence[Any], args: list, kernel: Any, grid: Any) -> Binding:
    values: list[Any] = []
    arrays: list[ArrayBinding] = []
    spread: dict[int, tuple] = {}  # an array passed twice is one buffer, as on a GPU
    for i, a in enumerate(args):
        at = len(values)
        if arrays and arrays[-1].index == i - 1 and at < len(params):
            _rank_hint(params, at, arrays[-1], a)
        if not is_array(a):
            values.append(_number(params, at, a, i, "cutile"))
            continue
        fmt = _pointee(params, at, i, "cutile")
        _checked_dtype(a, fmt, i)
        if id(a) not in spread:
            spread[id(a)] = _strided_buffer(a, i)
        flat, offsets, strides = spread[id(a)]
        extra = list(a.shape) + strides
        for k, v in enumerate(extra):
            p = at + 1 + k
            what = "shape" if k < a.ndim else "stride"
            t = params[p].type if p < len(params) else None
            if t not in _INDEX_TYPES:
                raise _fail(
                    f"argument {i} has {a.ndim} dimension(s), so the cutile "
                    f"convention needs parameter {p} to be its {what} (tile<i32>, or "
                    f"tile<i64> for int64 indices), but the entry has "
                    f"{'nothing' if t is None else t} there: the entry takes an array of "
                    f"another rank",
                    "convention.rank",
                )
            if v > _INDEX_TYPES[t]:
                raise _fail(
                    f"argument {i}'s {what} {v} does not fit its parameter {t}", "convention.rank"
                )
        values.append(flat)
        values.extend(int(v) for v in extra)
        arrays.append(ArrayBinding(i, at, tuple(a.shape), offsets, fmt))
    _check_count(params, len(values), "cutile", len(args))
    return Binding(values, tuple(arrays))


CUTILE = Convention(
    "cutile",
    "cuTile Python's: per array its pointer, its shape (i32 each), its strides in "
    "elements (i32 each); numbers as they are",
    _bind_cutile,
)

# ----------------------------------------------------------------------------- tileir


def _bind_tileir(params: Sequence[Any], args: list, kernel: Any, grid: Any) -> Binding:
    # lazy: host.launch is the devices' launch check; only this convention needs it
    from tileir.host.launch import ArgInfo, check_launch, entry_values

    if kernel is None or not hasattr(kernel, "params"):
        raise _fail(
            "the tileir convention needs the recorded Kernel (its markers say what the "
            "extra parameters are): pass the Kernel, or use convention='raw'"
        )
    if len(args) != len(kernel.params):
        raise _fail(
            f"kernel `{kernel.name}` takes {len(kernel.params)} argument(s), got {len(args)}"
        )
    flat: list[Any] = []
    arrays: list[ArrayBinding] = []
    infos = []
    for i, (p, a) in enumerate(zip(kernel.params, args)):
        if p.role == "Scalar":
            flat.append(a)
            infos.append(ArgInfo(value=a, is_buffer=False))
            continue
        if not is_array(a):
            raise _fail(f"argument {i} ({p.role}) of `{kernel.name}` must be an array, got {a!r}")
        _checked_dtype(a, p.format, i)
        buf = np.ascontiguousarray(a).reshape(-1)
        flat.append(buf)
        start = buf.__array_interface__["data"][0]
        infos.append(ArgInfo(p.format, buf.size, (start, start + max(1, buf.nbytes))))
        arrays.append(ArrayBinding(i, i, tuple(a.shape), None, p.format))
    plan = check_launch(kernel, infos, grid)
    return Binding(list(entry_values(kernel, plan, flat)), tuple(arrays), tuple(plan.grid))


TILEIR = Convention(
    "tileir",
    "tileir's own for a recorded kernel: the markers' parameters, then the DYN_DIM "
    "extents and element counts the launch derives",
    _bind_tileir,
)

# ----------------------------------------------------------------------------- the table

#: name -> Convention: the conventions a name may choose (add one: register_convention).
CONVENTIONS: dict[str, Convention] = {c.name: c for c in (RAW, CUTILE, TILEIR)}


def register_convention(convention: Convention) -> Convention:
    """Add ``convention`` to :data:`CONVENTIONS` (a second one of a name is refused)."""
    if convention.name in CONVENTIONS:
        raise ValueError(f"a convention named {convention.name!r} is registered already")
    CONVENTIONS[convention.name] = convention
    return convention


def convention_of(
    convention: Union[str, Convention], table: Optional[Mapping[str, Convention]] = None
) -> Convention:
    """The Convention ``convention`` names (a Convention is its own answer)."""
    if isinstance(convention, Convention):
        return convention
    known = CONVENTIONS if table is None else table
    if convention not in known:
        raise LaunchError(
            f"no calling convention named {convention!r} (known: {', '.join(known)})",
            op="bind",
            kind="convention.unknown",
        )
    return known[convention]
