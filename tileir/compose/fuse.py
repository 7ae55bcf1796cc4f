"""``fuse``: two kernels as one, the first's Out feeding an In of the second directly.

The fused body runs the first body, keeps the tile it stores to its Out instead of storing
it, and answers the second body's ``load_cell`` of the fed In with that tile: one kernel,
one grid, and no buffer between the two.  Lanes past a ragged extent are given the fed In's
padding, as a load would read them, and keep their valid lanes, so the second body sees what
it would have read.

>>> import numpy as np
>>> from tileir import F32, In, Out, cells
>>> from tileir.compose import elementwise
>>> from tileir.fake import FakeDevice
>>> g = cells([1000], [128])
>>> add = elementwise("add", lambda x, y: x + y, In(F32, g), In(F32, g), Out(F32, g))
>>> sq = elementwise("sq", lambda z: z * z, In(F32, g), Out(F32, g))
>>> k = fuse(add, sq)
>>> [m.role for m in k.markers], [type(i).__name__ for i in k.program.body]
(['In', 'In', 'Out'], ['Load', 'Load', 'Store'])
>>> xs = np.arange(1000, dtype=np.float32)
>>> float(FakeDevice(mode="interpret").run(k, xs, xs, np.zeros(1000, np.float32))[2][-1])
3992004.0
"""

from __future__ import annotations

import math
from typing import Any, Optional

import attrs

from tileir.compose.bodies import (
    Body,
    check_generator_of,
    markers_text,
    param_names,
    recipe_of,
    stand_in_uses,
)
from tileir.errors import RecordingError
from tileir.kernel import Kernel, Recipe, lower_program, record
from tileir.ops import valid, where
from tileir.ops.lanes import cell_lanes
from tileir.ops.memory import cell_index
from tileir.record.builder import Emit
from tileir.record.dropped import check_generator
from tileir.record.markers import Cells, In, Marker, Out, Param
from tileir.record.program import Load, Store
from tileir.record.tile import Tile, constant

__all__ = ["fuse"]

#: the stand-in parameters of the fused body: the first's Out and the second's fed In.  They
#: are no parameter of the entry; a use of either besides the one store and the loads
#: answered here is found in the recorded Program and refused.
_SINK, _SOURCE = -1, -2

_PAD_VALUES = {
    "zero": 0.0,
    "neg_zero": -0.0,
    "nan": math.nan,
    "pos_inf": math.inf,
    "neg_inf": -math.inf,
}


def _same_cells(a: Optional[Cells], b: Optional[Cells]) -> bool:
    if a is None or b is None:
        return False
    return (a.extent, a.tile, a.along) == (b.extent, b.tile, b.along)


def _cells(m: Marker) -> Cells:
    """An In's or an Out's cells (both markers require them)."""
    c = m.cells
    assert c is not None, m  # In and Out refuse to be made without cells
    return c


def fuse(first: Kernel, second: Kernel, into: int = 0, name: Optional[str] = None) -> Kernel:
    """One kernel that runs ``first`` and then ``second``, the first's (one) Out feeding the
    second's In number ``into`` (counting the second's Ins) with no buffer between.  Its
    parameters are the first's other parameters, then the second's; its name is
    ``first_second`` unless ``name`` is given.

    Refused, naming both kernels and their cells, when the Out's and the In's cells or formats
    disagree, when the first writes its Out other than by one ``store_cell`` at the top of its
    body, reads it back through the pointer path, or the second reads the In other than by
    ``load_cell`` at the top of its body.
    """
    r1, r2 = recipe_of(first, "fuse"), recipe_of(second, "fuse")
    fused_name = name or f"{r1.name}_{r2.name}"
    names1 = param_names(r1.body, len(r1.markers), r1.name)
    names2 = param_names(r2.body, len(r2.markers), r2.name)
    outs = [i for i, m in enumerate(r1.markers) if isinstance(m, Out)]
    if len(outs) != 1:
        raise _refusal(
            fused_name,
            f"the first kernel {r1.name!r} has {len(outs)} Outs ({markers_text(names1, r1.markers)}); "
            f"fuse feeds one Out into the second",
        )
    o = outs[0]
    ins = [i for i, m in enumerate(r2.markers) if isinstance(m, In)]
    if isinstance(into, bool) or not isinstance(into, int) or not 0 <= into < len(ins):
        raise _refusal(
            fused_name,
            f"into={into!r}: the second kernel {r2.name!r} has {len(ins)} In(s) "
            f"({markers_text(names2, r2.markers)})",
        )
    s = ins[into]
    out_m, in_m = r1.markers[o], r2.markers[s]
    if out_m.format != in_m.format or not _same_cells(out_m.cells, in_m.cells):
        raise _refusal(
            fused_name,
            f"the Out {names1[o]!r} of {r1.name!r} is {out_m!r} and the In {names2[s]!r} of "
            f"{r2.name!r} is {in_m!r}: their formats and cells (extent, tile, along) must agree",
        )
    markers = tuple(m for i, m in enumerate(r1.markers) if i != o) + tuple(
        m for i, m in enumerate(r2.markers) if i != s
    )
    names = _unique(
        [n for i, n in enumerate(names1) if i != o] + [n for i, n in enumerate(names2) if i != s]
    )
    # the parameter whose cells the intermediate follows (so retile and specialize of the
    # fused kernel move the intermediate with it): the first with the same cells
    follow = next(
        (
            j
            for j, m in enumerate(markers)
            if m.cells is not None and _same_cells(m.cells, out_m.cells)
        ),
        None,
    )
    if follow is None and _cells(out_m).dynamic:
        raise _refusal(
            fused_name,
            f"the cells {out_m.cells!r} between {r1.name!r} and {r2.name!r} have a DYN_DIM "
            f"extent and no parameter of the fused kernel has the same cells to take it from",
        )
    if r1.hints is not None and r2.hints is not None and r1.hints != r2.hints:
        raise _refusal(
            fused_name,
            f"{r1.name!r} has the hints {r1.hints!r} and {r2.name!r} {r2.hints!r}; fuse kernels "
            f"whose hints agree",
        )
    plan = _Plan(r1, r2, o, s, len(r1.markers) - 1, follow, out_m, in_m, fused_name)
    code = getattr(r2.body, "__code__", None) or getattr(r1.body, "__code__")
    body = Body(plan.run, names, code, fused_name, ("fuse", r1, r2, into))
    hints = r1.hints if r1.hints is not None else r2.hints
    checked = r1.checked or r2.checked
    program = record(fused_name, body, *markers, hints=hints, checked=checked)
    use = stand_in_uses(program, [_SINK, _SOURCE])
    if use is not None:
        raise _refusal(
            fused_name,
            f"the Out {names1[o]!r} of {r1.name!r} ({out_m!r}) is used other than by one "
            f"store_cell at the top of its body, or the In {names2[s]!r} of {r2.name!r} "
            f"({in_m!r}) other than by load_cell at the top of its body ({use}): read back "
            f"through the pointer path, or inside a loop or branch, it needs a real buffer",
        )
    return lower_program(program, Recipe(fused_name, body, markers, hints, checked))


def _unique(names: list[str]) -> tuple[str, ...]:
    out: list[str] = []
    for n in names:
        new, k = n, 2
        while new in out:
            new, k = f"{n}{k}", k + 1
        out.append(new)
    return tuple(out)


def _refusal(name: str, message: str) -> RecordingError:
    return RecordingError(f"fuse: {message}", kernel=name, op="fuse")


@attrs.frozen
class _Plan:
    """How the fused body calls the two bodies (a value: equal fusions record alike)."""

    first: Recipe
    second: Recipe
    out_pos: int
    in_pos: int
    n_first: int
    follow: Optional[int]
    out_marker: Marker
    in_marker: Marker
    name: str

    def run(self, *params: Param) -> Any:
        cells = _cells(self.out_marker)
        if self.follow is not None:
            now = params[self.follow].cells
            assert now is not None  # the parameter was picked for its cells
            cells = Cells(now.extent, now.tile, now.along, _cells(self.in_marker).pad)
        fmt = self.out_marker.format
        sink = Param(_SINK, Out(fmt, cells))
        args1 = list(params[: self.n_first])
        args1.insert(self.out_pos, sink)
        gen1 = check_generator_of(
            self.first.body(*args1), self.name, f"the body of {self.first.name!r}"
        )
        check_generator(gen1)
        stored: Optional[Tile] = None
        value: Any = None
        while True:
            try:
                effect = gen1.send(value)
            except StopIteration:
                break
            if _is(effect, Store, _SINK):
                if stored is not None:
                    raise _refusal(
                        self.name,
                        f"{self.first.name!r} stores its Out twice; fuse takes one store_cell",
                    )
                view = getattr(effect.template, "view", None)
                if not isinstance(view, Cells) or view.tile != cells.tile:
                    raise _refusal(
                        self.name,
                        f"{self.first.name!r} writes a piece of its Out ({view!r}, store_sub); "
                        f"fuse takes the whole cell, written by one store_cell",
                    )
                stored = effect.template.value
                value = None
                continue
            value = yield effect
        if stored is None:
            raise _refusal(
                self.name,
                f"{self.first.name!r} writes its Out {self.out_marker!r} other than by one "
                f"store_cell at the top of its body",
            )
        fed = self._as_read(stored, cells, params, sink)
        source = Param(_SOURCE, In(fmt, cells))
        args2 = list(params[self.n_first :])
        args2.insert(self.in_pos, source)
        gen2 = check_generator_of(
            self.second.body(*args2), self.name, f"the body of {self.second.name!r}"
        )
        check_generator(gen2)
        value = None
        while True:
            try:
                effect = gen2.send(value)
            except StopIteration:
                return None
            if _is(effect, Load, _SOURCE) and isinstance(
                getattr(effect.template, "view", None), Cells
            ):
                value = fed
                continue
            value = yield effect

    def _as_read(self, stored: Tile, cells: Cells, params: tuple, sink: Param) -> Tile:
        """The stored tile as a load of ``cells`` reads it: the padding past the extent, and
        the valid lanes a load knows."""
        lanes_param = params[self.follow] if self.follow is not None else sink
        index = cell_index(Param(lanes_param.index, In(sink.format, cells)), (), "load_cell")
        bounds = cell_lanes(lanes_param, cells, index)
        if not bounds:
            return stored
        carrier = attrs.evolve(stored, lanes=bounds)
        pad = _PAD_VALUES[cells.pad]
        fill = constant(0 if sink.format.is_int else pad, sink.format)
        return attrs.evolve(where(valid(carrier), carrier, fill), lanes=bounds)


def _is(effect: Any, cls: type, param: int) -> bool:
    return (
        isinstance(effect, Emit)
        and isinstance(effect.template, cls)
        and getattr(effect.template, "param", None) == param
    )
