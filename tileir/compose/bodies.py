"""Bodies the combinators and transforms make, and what they share: a body is a callable
that keeps the names of its parameters and the source location of the code it runs (so a
transformed kernel points at the user's lines, and equal inputs record equal Programs)."""

from __future__ import annotations

import inspect
from types import CodeType, GeneratorType
from typing import Any, Callable, Iterator, Optional, Sequence

from tileir.errors import RecordingError
from tileir.kernel import Kernel, Recipe
from tileir.record.markers import Marker
from tileir.record.program import Program, walk_instructions
from tileir.record.tile import Tile

__all__ = ["Body", "param_names", "recipe_of", "stand_in_uses", "check_generator_of"]


class Body:
    """A kernel body made by tileir.compose: ``run(*params)`` makes the generator; ``names``
    are the parameters' names (as a user's body has them in its signature); ``code`` is the
    user code it stands for (its location becomes the Program's)."""

    def __init__(
        self,
        run: Callable[..., Any],
        names: Sequence[str],
        code: CodeType,
        name: str,
        parts: tuple[Any, ...] = (),
    ) -> None:
        self._run = run
        self.names = tuple(names)
        self.__code__ = code
        self.__name__ = name
        #: what this body was made from (for the transforms that take it apart)
        self.parts = parts

    def __call__(self, *params: Any) -> Any:
        return self._run(*params)

    def __repr__(self) -> str:
        return f"<tileir.compose body {self.__name__}({', '.join(self.names)})>"


def param_names(body: Callable[..., Any], count: int, kernel: str) -> tuple[str, ...]:
    """The names of ``body``'s ``count`` parameters: a compose body's own, else the body's
    signature; a body taking ``*args`` names them ``p0``, ``p1`` ..."""
    names = getattr(body, "names", None)
    if isinstance(names, tuple) and len(names) == count:
        return names
    try:
        sig = inspect.signature(body)
    except (TypeError, ValueError):
        return tuple(f"p{i}" for i in range(count))
    plain = [
        p.name
        for p in sig.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if len(plain) >= count:
        return tuple(plain[:count])
    return tuple(plain) + tuple(f"p{i}" for i in range(len(plain), count))


def recipe_of(kernel: object, op: str) -> Recipe:
    """The recipe a transform records ``kernel`` again from, or a refusal."""
    if not isinstance(kernel, Kernel):
        raise RecordingError(f"{op} takes a Kernel, got {type(kernel).__name__} {kernel!r}", op=op)
    if kernel.recipe is None:
        raise RecordingError(
            f"kernel {kernel.name!r} was not recorded by trace (it has no body and markers to "
            f"record again), so {op} cannot transform it",
            kernel=kernel.name,
            op=op,
        )
    return kernel.recipe


def by_name(
    recipe: Recipe, given: dict[str, Any], op: str
) -> tuple[tuple[str, ...], dict[int, Any]]:
    """The body's parameter names, and ``given`` keyed by parameter position; a name the body
    does not have is refused with the names it has."""
    names = param_names(recipe.body, len(recipe.markers), recipe.name)
    out: dict[int, Any] = {}
    for key, value in given.items():
        if key not in names:
            raise RecordingError(
                f"{op}: kernel {recipe.name!r} has no parameter {key!r}; its parameters are "
                f"{', '.join(f'{n}: {m!r}' for n, m in zip(names, recipe.markers))}",
                kernel=recipe.name,
                op=op,
            )
        out[names.index(key)] = value
    return names, out


def _tiles_of(value: Any) -> Iterator[Tile]:
    if isinstance(value, Tile):
        yield value
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _tiles_of(v)


def _tile_refs(t: Tile, seen: set[int]) -> Iterator[int]:
    stack = [t]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        for key in ("index", "param"):
            v = (
                x.attrs.get(key)
                if x.op in ("param", "ptr_param", "get_tensor_shape", "get_index_space_shape")
                else None
            )
            if isinstance(v, int) and not isinstance(v, bool):
                yield v
        stack.extend(x.args)


def stand_in_uses(program: Program, ids: Sequence[int]) -> Optional[str]:
    """The first instruction of ``program`` that touches one of the stand-in parameter ids
    ``ids`` (negative indices that are no parameter of the entry), described, or None."""
    wanted = set(ids)
    seen: set[int] = set()
    for ins in walk_instructions(program.body):
        for name in getattr(type(ins), "__attrs_attrs__", ()):
            value = getattr(ins, name.name)
            if name.name == "param" and isinstance(value, int) and value in wanted:
                return f"{type(ins).__name__} at {ins.loc}"
            for t in _tiles_of(value):
                for ref in _tile_refs(t, seen):
                    if ref in wanted:
                        return f"{type(ins).__name__} at {getattr(ins, 'loc', None)}"
    return None


def check_generator_of(produced: Any, name: str, what: str) -> GeneratorType:
    """``produced`` (a body's result) as a generator, or the refusal trace gives a body that
    is not a generator function."""
    if not isinstance(produced, GeneratorType):
        raise RecordingError(
            f"{what} is not a generator function (it returned {produced!r}); a kernel body "
            f"yields its effects",
            kernel=name,
            op="trace",
        )
    return produced


def markers_text(names: Sequence[str], markers: Sequence[Marker]) -> str:
    return ", ".join(f"{n}: {m!r}" for n, m in zip(names, markers))
