"""Element formats and the types of the ``cuda_tile`` dialect.

Every type is a frozen attrs value: equal types compare and hash equal, and a
type prints itself in the syntax ``tileirdisasm`` 13.4.92 uses (``str(t)``).

>>> F32
Format('f32')
>>> str(TileType((64, 32), F16))
'tile<64x32xf16>'
>>> str(TileType((), PointerType(F64)))
'tile<ptr<f64>>'
>>> str(TensorViewType(F64, (256,), (1,)))
'tensor_view<256xf64, strides=[1]>'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional, SupportsIndex, Union

import attrs
import numpy as np
import numpy.typing as npt

import tileir.formats as host_formats

__all__ = [
    "Format",
    "FORMATS",
    "I1",
    "I4",
    "I8",
    "I16",
    "I32",
    "I64",
    "F16",
    "BF16",
    "F32",
    "TF32",
    "F64",
    "F8E4M3FN",
    "F8E5M2",
    "F8E8M0FNU",
    "F4E2M1FN",
    "FNV8E5M3FNU",
    "format_named",
    "PointerType",
    "TileType",
    "TensorViewType",
    "PartitionViewType",
    "StridedViewType",
    "GatherScatterViewType",
    "TokenType",
    "TOKEN",
    "FunctionType",
    "Type",
    "ElementType",
    "DYNAMIC",
    "PADDING_VALUES",
    "PTR_ATTRS",
    "PTR_ATTR_SINCE",
    "MAX_TILE_ELEMENTS",
    "format_of_dtype",
    "FREE_AXIS",
    "DYN_DIM",
]

# -- the markers' sentinels (tileir.record.markers re-exports them); here so that the pure
# rules of tileir.shape_rules can read them without importing the recorder


class _Sentinel:
    __slots__ = ("_name",)

    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return self._name

    def __reduce__(self) -> str:
        return self._name


#: ``along`` entry: this dimension of a cell follows no grid axis; the kernel picks it (load_at).
FREE_AXIS = _Sentinel("FREE_AXIS")
#: ``extent`` entry: the length is given at launch (a ``tile<i32>`` entry parameter).
DYN_DIM = _Sentinel("DYN_DIM")


#: A dynamic (``?``) dimension or stride of a tensor view.
DYNAMIC: None = None

#: The dialect's padding values, in their enum order.
PADDING_VALUES = ("zero", "neg_zero", "nan", "pos_inf", "neg_inf")

#: The values of the pointer attribute (``ptr_attr``), in their enum order (docs/dialect.md
#: §2.2): ``none`` (13.4), ``unicast`` and ``multicast`` (13.5; tileiras 13.4.92 refuses codes
#: 1 and 2, 13.5.37 refuses them in a file older than 13.5); a pointer or tensor view
#: without the attribute is a different type.
PTR_ATTRS = ("none", "unicast", "multicast")
#: The first bytecode version of each ptr_attr value.
PTR_ATTR_SINCE = {"none": (13, 4), "unicast": (13, 5), "multicast": (13, 5)}

#: The most elements one tile may hold (CT:Verif).
MAX_TILE_ELEMENTS = 1 << 24


@attrs.frozen(repr=False)
class Format:
    """A numeric element format, by its dialect name (``f32``, ``bf16``, ``i8`` ...)."""

    name: str

    def __attrs_post_init__(self) -> None:
        if self.name not in _FORMAT_FACTS:
            known = ", ".join(_FORMAT_FACTS)
            raise ValueError(f"unknown element format {self.name!r}; the dialect has {known}")

    def __repr__(self) -> str:
        return f"Format({self.name!r})"

    def __str__(self) -> str:
        return self.name

    @property
    def bits(self) -> int:
        """Storage width in bits (tf32 counts its 19 significant bits as 32 in memory)."""
        return _FORMAT_FACTS[self.name][1]

    @property
    def is_float(self) -> bool:
        return _FORMAT_FACTS[self.name][0] == "float"

    @property
    def is_int(self) -> bool:
        return _FORMAT_FACTS[self.name][0] == "int"

    @property
    def since(self) -> tuple[int, int]:
        """The first bytecode version that has this format."""
        return _FORMAT_FACTS[self.name][2]

    @property
    def itemsize(self) -> int:
        """Bytes one element takes in a host buffer (sub-byte formats take one byte)."""
        return max(1, self.bits // 8)

    @property
    def numpy_dtype(self) -> np.dtype:
        """The numpy (or ml_dtypes) dtype a host buffer of this format uses."""
        return host_formats.numpy_dtype(self)


# name -> (kind, bits, since)
_FORMAT_FACTS: dict[str, tuple[str, int, tuple[int, int]]] = {
    "i1": ("int", 1, (13, 1)),
    "i4": ("int", 4, (13, 3)),
    "i8": ("int", 8, (13, 1)),
    "i16": ("int", 16, (13, 1)),
    "i32": ("int", 32, (13, 1)),
    "i64": ("int", 64, (13, 1)),
    "f16": ("float", 16, (13, 1)),
    "bf16": ("float", 16, (13, 1)),
    "f32": ("float", 32, (13, 1)),
    "tf32": ("float", 32, (13, 1)),
    "f64": ("float", 64, (13, 1)),
    "f8E4M3FN": ("float", 8, (13, 1)),
    "f8E5M2": ("float", 8, (13, 1)),
    "f8E8M0FNU": ("float", 8, (13, 2)),
    "f4E2M1FN": ("float", 4, (13, 3)),
    "fnv8E5M3FNU": ("float", 8, (13, 4)),
}

I1, I4, I8, I16, I32, I64 = (Format(n) for n in ("i1", "i4", "i8", "i16", "i32", "i64"))
F16, BF16, F32, TF32, F64 = (Format(n) for n in ("f16", "bf16", "f32", "tf32", "f64"))
F8E4M3FN, F8E5M2, F8E8M0FNU = Format("f8E4M3FN"), Format("f8E5M2"), Format("f8E8M0FNU")
F4E2M1FN, FNV8E5M3FNU = Format("f4E2M1FN"), Format("fnv8E5M3FNU")

#: Every element format, in a stable order.
FORMATS: tuple[Format, ...] = tuple(Format(n) for n in _FORMAT_FACTS)


def format_named(name: str) -> Format:
    """The format spelled ``name`` (``"f32"``, ``"bf16"`` ...), the one shared object of
    :data:`FORMATS` (no Format made per call); a clear error otherwise."""
    found = _FORMATS_BY_NAME.get(name) if type(name) is str else None
    return found if found is not None else Format(name)


_FORMATS_BY_NAME = {f.name: f for f in FORMATS}


def _check_ptr_attr(instance: object, attribute: object, value: Optional[str]) -> None:
    if value is not None and value not in PTR_ATTRS:
        raise ValueError(f"ptr_attr must be None or one of {PTR_ATTRS}, got {value!r}")


@attrs.frozen(repr=False)
class PointerType:
    """``ptr<T>``: a global-memory address of a ``T`` element.

    ``attr`` is 13.4's pointer attribute (``None``: absent; ``"none"`` prints
    ``ptr<f32, <none>>`` and needs bytecode 13.4).

    >>> str(PointerType(F32, "none"))
    'ptr<f32, <none>>'
    """

    pointee: Format
    attr: Optional[str] = attrs.field(default=None, validator=_check_ptr_attr)

    def __str__(self) -> str:
        if self.attr is not None:
            return f"ptr<{self.pointee}, <{self.attr}>>"
        return f"ptr<{self.pointee}>"

    __repr__ = __str__


ElementType = Union[Format, PointerType]


def _shape_text(shape: tuple[Optional[int], ...]) -> str:
    return "x".join("?" if d is None else str(d) for d in shape)


def _tuple_of_ints(value: Iterable[Any]) -> tuple[Any, ...]:
    # hot (every type made): a tuple or list without None converts in C
    if (type(value) is tuple or type(value) is list) and None not in value:
        return tuple(map(int, value))
    return tuple(None if v is None else int(v) for v in value)


if TYPE_CHECKING:
    # the converter of the shape fields, as the checker sees it: static dimensions (tiles),
    # or dimensions that may be dynamic (``None``: tensor views)
    def _static_dims(value: Iterable[SupportsIndex]) -> tuple[int, ...]: ...
    def _dims(value: Iterable[Optional[SupportsIndex]]) -> tuple[Optional[int], ...]: ...
    def _types(value: Iterable[Type]) -> tuple[Type, ...]: ...
else:
    _static_dims = _dims = _tuple_of_ints
    _types = tuple


@attrs.frozen(repr=False, cache_hash=True)
class TileType:
    """``tile<SHAPExT>``: a tile of ``element`` with a static ``shape`` (``()`` is rank 0)."""

    shape: tuple[int, ...] = attrs.field(converter=_static_dims)
    element: ElementType

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def with_shape(self, shape: Iterable[int]) -> "TileType":
        # (shared_tile_type, inline: the recorder asks for most of its types here)
        if type(shape) is tuple:
            for d in shape:
                if type(d) is not int:
                    break
            else:
                return canonical_tile_type(shape, self.element)
        return TileType(tuple(shape), self.element)

    def with_element(self, element: ElementType) -> "TileType":
        return canonical_tile_type(self.shape, element)  # this type's shape is canonical

    def __str__(self) -> str:
        if not self.shape:
            return f"tile<{self.element}>"
        return f"tile<{_shape_text(self.shape)}x{self.element}>"

    __repr__ = __str__


# the slots of a TileType, set directly by canonical_tile_type (frozen attrs classes refuse
# plain assignment; a slot's descriptor does not ask)
_new_object = object.__new__
_set_shape = TileType.shape.__set__  # type: ignore[attr-defined]
_set_element = TileType.element.__set__  # type: ignore[union-attr]
_set_tile_type_hash = TileType._attrs_cached_hash.__set__  # type: ignore[attr-defined]


def _tile_type_hash(self: TileType) -> int:
    """A tile type's hash, computed on first use and kept in its slot as a plain int (in place
    of attrs' cached hash, which reads the slot twice per call and wraps the value in an int
    subclass; a tile's hash asks for its type's, for every tile the lowering emits).  attrs'
    pickled state leaves the slot out."""
    h = self._attrs_cached_hash  # type: ignore[attr-defined]
    if h is None:
        h = hash((self.shape, self.element))
        _set_tile_type_hash(self, h)
    return h


TileType.__hash__ = _tile_type_hash  # type: ignore[method-assign,assignment]


def _all_ints(shape: tuple) -> bool:
    for d in shape:
        if type(d) is not int:
            return False
    return True


def canonical_tile_type(shape: tuple[int, ...], element: ElementType) -> TileType:
    """``TileType(shape, element)`` for a ``shape`` that is already what the constructor would
    make of it (a tuple of plain ints: another type's shape, a checked cell): the recorder's
    hot path, which makes a type for almost every tile, skips the conversion.  The object is
    the constructor's, field for field."""
    key = (shape, id(element))
    t = TILE_TYPES.get(key)
    if t is not None and t.element is element:
        return t
    t = _new_object(TileType)
    _set_shape(t, shape)
    _set_element(t, element)
    _set_tile_type_hash(t, None)
    if len(TILE_TYPES) >= _MAX_TILE_TYPES:
        TILE_TYPES.clear()
    TILE_TYPES[key] = t
    return t


#: (shape, id(element)) -> the TileType canonical_tile_type made for them: a memo keyed by the
#: element's identity (the entry's type holds the element, so the id names no other object
#: meanwhile), so the recorder's tiles of one shape share one type object, which the encoder's
#: type table then finds by identity.  Registered with the other memos by tileir.ir.module
#: (this module sits below the memo registry).
TILE_TYPES: dict[tuple[tuple[int, ...], int], TileType] = {}
_MAX_TILE_TYPES = 4096


def shared_tile_type(shape: Iterable[int], element: ElementType) -> TileType:
    """``TileType(shape, element)``: the shared object :func:`canonical_tile_type` keeps when
    ``shape`` is a tuple of plain ints (the encoder then finds a type it met before by
    identity), else a new one."""
    if type(shape) is tuple and _all_ints(shape):
        return canonical_tile_type(shape, element)
    return TileType(tuple(shape), element)


def canonical_pointer_type(pointee: Format, attr: Optional[str] = None) -> PointerType:
    """``PointerType(pointee, attr)``, one shared object per pointee object and attribute
    (as :func:`canonical_tile_type` shares tile types): a buffer's pointer type is asked
    for at every recording of its kernel."""
    key = (id(pointee), attr)
    t = POINTER_TYPES.get(key)
    if t is not None and t.pointee is pointee:
        return t
    t = PointerType(pointee, attr)  # (its validator checks attr)
    if len(POINTER_TYPES) >= _MAX_TILE_TYPES:
        POINTER_TYPES.clear()
    POINTER_TYPES[key] = t
    return t


#: (id(pointee), attr) -> the PointerType canonical_pointer_type made for them (keyed by the
#: pointee's identity, which the entry's type holds); registered as TILE_TYPES is
POINTER_TYPES: dict[tuple[int, Optional[str]], PointerType] = {}


@attrs.frozen(repr=False, cache_hash=True)
class TensorViewType:
    """``tensor_view<SHAPExT, strides=[...]>``; ``None`` marks a dynamic (``?``) entry.

    ``ptr_attr`` is the pointer attribute of the base pointer it was made from (13.4; the
    dialect's verifier wants the two equal).

    >>> str(TensorViewType(F32, (None, 64), (64, 1), ptr_attr="none"))
    'tensor_view<?x64xf32, strides=[64,1], #cuda_tile.ptr_attr<none>>'
    """

    element: Format
    shape: tuple[Optional[int], ...] = attrs.field(converter=_dims)
    strides: tuple[Optional[int], ...] = attrs.field(converter=_dims)
    ptr_attr: Optional[str] = attrs.field(default=None, validator=_check_ptr_attr)

    @property
    def rank(self) -> int:
        return len(self.shape)

    def __str__(self) -> str:
        strides = ",".join("?" if s is None else str(s) for s in self.strides)
        attr = f", #cuda_tile.ptr_attr<{self.ptr_attr}>" if self.ptr_attr is not None else ""
        if self.shape:
            return (
                f"tensor_view<{_shape_text(self.shape)}x{self.element}, strides=[{strides}]{attr}>"
            )
        return f"tensor_view<{self.element}{attr}>"

    __repr__ = __str__


def _dim_map_text(dim_map: tuple[int, ...]) -> str:
    if dim_map == tuple(range(len(dim_map))):
        return ""
    return f", dim_map=[{', '.join(map(str, dim_map))}]"


class _TileView:
    """What the views a tile is loaded from share: a tile shape and an optional padding."""

    __slots__ = ()

    if TYPE_CHECKING:  # the fields each view declares
        tile_shape: tuple[int, ...]
        padding: Optional[str]

    @property
    def rank(self) -> int:
        return len(self.tile_shape)

    def _padding_text(self) -> str:
        return f", padding_value = {self.padding}" if self.padding is not None else ""


@attrs.frozen(repr=False, cache_hash=True)
class PartitionViewType(_TileView):
    """``partition_view<tile=(...), [padding_value = P,] tensor_view<...>[, dim_map=[...]]>``.

    ``dim_map[i]`` is the tensor dimension that tile dimension ``i`` walks along.
    ``padding`` is the value lanes past the extent read (``None``: unspecified).
    """

    tile_shape: tuple[int, ...] = attrs.field(converter=_static_dims)
    tensor_view: TensorViewType
    dim_map: tuple[int, ...] = attrs.field(converter=_static_dims)
    padding: Optional[str] = None

    def __str__(self) -> str:
        pad = self._padding_text()
        return (
            f"partition_view<tile=({_shape_text(self.tile_shape)}){pad}, {self.tensor_view}"
            f"{_dim_map_text(self.dim_map)}>"
        )

    __repr__ = __str__


@attrs.frozen(repr=False, cache_hash=True)
class StridedViewType(_TileView):
    """``strided_view<tile=(...), traversal_strides=[...], [padding,] tensor_view<...>[, dim_map]>``."""

    tile_shape: tuple[int, ...] = attrs.field(converter=_static_dims)
    traversal_strides: tuple[int, ...] = attrs.field(converter=_static_dims)
    tensor_view: TensorViewType
    dim_map: tuple[int, ...] = attrs.field(converter=_static_dims)
    padding: Optional[str] = None

    def __str__(self) -> str:
        pad = self._padding_text()
        strides = ",".join(map(str, self.traversal_strides))  # tileirdisasm: `[2,1]`
        return (
            f"strided_view<tile=({_shape_text(self.tile_shape)}), traversal_strides=[{strides}]"
            f"{pad}, {self.tensor_view}{_dim_map_text(self.dim_map)}>"
        )

    __repr__ = __str__


@attrs.frozen(repr=False, cache_hash=True)
class GatherScatterViewType(_TileView):
    """``gather_scatter_view<tile=(...), [padding,] tensor_view<...>, sparse_dim=D>``."""

    tile_shape: tuple[int, ...] = attrs.field(converter=_static_dims)
    tensor_view: TensorViewType
    sparse_dim: int
    padding: Optional[str] = None

    def __str__(self) -> str:
        pad = self._padding_text()
        return (
            f"gather_scatter_view<tile=({_shape_text(self.tile_shape)}){pad}, {self.tensor_view}"
            f", sparse_dim={self.sparse_dim}>"
        )

    __repr__ = __str__


@attrs.frozen(repr=False)
class TokenType:
    """``token``: orders memory operations."""

    def __str__(self) -> str:
        return "token"

    __repr__ = __str__


TOKEN = TokenType()


@attrs.frozen(repr=False)
class FunctionType:
    """A function signature (entries take inputs and return nothing)."""

    inputs: tuple[Type, ...] = attrs.field(converter=_types)
    results: tuple[Type, ...] = attrs.field(converter=_types, default=())

    def __str__(self) -> str:
        return f"({', '.join(map(str, self.inputs))}) -> ({', '.join(map(str, self.results))})"

    __repr__ = __str__


ViewType = Union[TensorViewType, PartitionViewType, StridedViewType, GatherScatterViewType]
Type = Union[
    Format,
    PointerType,
    TileType,
    TensorViewType,
    PartitionViewType,
    StridedViewType,
    GatherScatterViewType,
    TokenType,
    FunctionType,
]


def format_of_dtype(dtype: npt.DTypeLike) -> Format:
    """The format a numpy array of ``dtype`` is taken to hold (float32 -> f32).

    >>> format_of_dtype("float32")
    Format('f32')
    """
    return Format(host_formats.format_name_of_dtype(dtype))
