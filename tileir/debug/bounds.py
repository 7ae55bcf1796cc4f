"""``find_out_of_bounds``: pointer-path accesses outside their buffer, as findings.

The fake device maps every buffer at its own address with unmapped gaps
between them, so a load, store or atomic through pointers that leaves its
buffer lands nowhere and the interpreter refuses it (``InterpretError``).  The
finder runs the launch with the debug driver, which keeps the refusing op, its
block and the values it ran on, and turns the refusal into a :class:`Finding`:
the op, the source line, the block, the element (counted from the base of the
buffer the pointer was made from, so ``1030`` of a 1024-element buffer) and
the address, with every lane of the batch that was out of bounds counted.

Near misses, found without a fault: an access that lands inside a buffer other
than the one its pointer was made from (``other-buffer``: pointer arithmetic
that ran from one argument into another).  A refusal that is not about bounds
(a ``for`` with a negative step, say) is reported with ``kind`` ``fault``.
"""

from __future__ import annotations

import io
import re
from typing import Any, Optional, Sequence

import numpy as np

from tileir.debug.findings import Finding
from tileir.debug.launching import Target, prepare
from tileir.debug.optext import op_texts
from tileir.debug.runner import run
from tileir.fake.values import widen
from tileir.formats import numpy_dtype
from tileir.ir.dialect import POINTER_MEMORY_OPS, VIEW_MEMORY_OPS
from tileir.ir.module import Function, Op, Value, walk
from tileir.ir.signatures import operand_groups

__all__ = ["find_out_of_bounds", "pointer_origin"]

_PASS = frozenset({"offset", "broadcast", "reshape", "assume", "permute", "extract", "ptr_to_ptr"})


def pointer_origin(fn: Function, value: Value) -> Optional[int]:
    """The parameter index a pointer value was made from (through offset, broadcast,
    reshape, assume, permute, extract, ptr_to_ptr and loop-carried values), or None."""
    params = {p.id: i for i, p in enumerate(fn.params)}
    defs: dict[int, Op] = {}
    carried: dict[int, Value] = {}
    for op in walk(fn.body):
        for r in op.results:
            defs.setdefault(r.id, op)
        if op.name == "for":
            for a, init in zip(op.regions[0].args[1:], op.operands[3:]):
                carried.setdefault(a.id, init)
        elif op.name == "loop":
            for a, init in zip(op.regions[0].args, op.operands):
                carried.setdefault(a.id, init)
    v = value
    for _ in range(10000):
        if v.id in params:
            return params[v.id]
        if v.id in carried:
            v = carried[v.id]
            continue
        maker = defs.get(v.id)
        if maker is None or maker.name not in _PASS or not maker.operands:
            return None
        v = maker.operands[0]
    return None


class _Log:
    def __init__(self) -> None:
        self.events: list = []
        self.print_stream = io.StringIO()  # the kernel's prints are not the finder's output

    def on_memory(self, op, kind, buffer, elements, block_ids, mask) -> None:
        if op.name in POINTER_MEMORY_OPS:
            self.events.append(
                (op, kind, buffer, np.array(elements), np.array(block_ids), np.array(mask))
            )


def _name(params, key, seg=None) -> str:
    size = f", {seg.backing.size} element(s)" if seg is not None else ""
    if isinstance(key, (int, np.integer)) and 0 <= key < len(params):
        return f"argument {int(key)} ({params[int(key)].role}{size})"
    if isinstance(key, (int, np.integer)):
        return f"argument {int(key)} ({size.lstrip(', ')})" if size else f"argument {int(key)}"
    return f"buffer {key}"


def _segment(memory, key):
    return next((s for s in memory.segments if s.key == key), None)


def _nearest(memory, addr: int):
    below = [s for s in memory.segments if s.base <= addr]
    return max(below, key=lambda s: s.base) if below else None


def _pointer_fault(prep, fault, memory, texts, fn) -> Optional[Finding]:
    op, frame = fault.op, fault.frame
    g = operand_groups(op)
    try:
        ptrs = np.asarray(frame.get(g["pointers"][0].id))
        mask = np.asarray(frame.get(g["mask"][0].id)) if g.get("mask") else None
    except KeyError:
        return None
    b = frame.size
    ptrs = widen(ptrs, b) if ptrs.shape[0] != b else ptrs
    active = (
        np.ones(ptrs.shape, dtype=bool)
        if mask is None
        else np.broadcast_to(widen(mask, b) if mask.shape[0] != b else mask, ptrs.shape)
    )
    isz = numpy_dtype(op.operands[0].type.element.pointee).itemsize
    seg_ids, boff, room = memory.locate(ptrs)
    bad = active & ((seg_ids < 0) | (room < isz) | (boff % isz != 0))
    if not bad.any():
        return None
    at = np.unravel_index(int(np.argmax(bad)), bad.shape)
    lane, tile_lane = int(at[0]), tuple(int(i) for i in at[1:])
    block = tuple(int(v) for v in frame.block_ids[min(lane, b - 1)])
    addr = int(ptrs[at])
    origin = pointer_origin(fn, g["pointers"][0])
    seg = _segment(memory, _alias(prep, origin)) if origin is not None else _nearest(memory, addr)
    marks: tuple = ()
    if seg is not None:
        key = origin if origin is not None else seg.key
        marks = ((key, np.unique((ptrs[bad].astype(np.int64) - seg.base) // isz)),)
        element = (addr - seg.base) // isz
        size = seg.backing.size
        if element >= size:
            place = f"past its last element {size - 1}"
        elif element < 0:
            place = "before its first element"
        else:
            place = "not on an element boundary"
        whose = _name(prep.params, origin if origin is not None else seg.key, seg)
        where_text = f"element {element} of {whose}, {place}"
    else:
        element, where_text = None, "below every buffer"
    verb = {"load_ptr_tko": "reads", "store_ptr_tko": "writes"}.get(op.name, "updates")
    blocks = sorted(
        {
            tuple(int(v) for v in frame.block_ids[i])
            for i in np.nonzero(bad.reshape(b, -1).any(axis=1))[0]
        }
    )
    msg = (
        f"`{op.name}` {verb} {where_text} (address {addr:#x}, tile lane {tile_lane}); "
        f"{int(bad.sum())} lane(s) in {len(blocks)} block(s) of the batch are out of bounds"
    )
    return Finding(
        "out-of-bounds",
        "pointer",
        prep.entry,
        op,
        texts.of(op).text,
        op.loc,
        block,
        element,
        msg,
        count=int(bad.sum()),
        elements=marks,
    )


def _alias(prep, index: int):
    """The buffer key the driver gave argument ``index`` (an array passed twice is one)."""
    a = prep.args[index]
    return next((j for j, b in enumerate(prep.args[: index + 1]) if b is a), index)


def _other_buffers(prep, log, texts, fn) -> list:
    found: dict = {}
    for op, kind, buf, elems, ids, mask in log.events:
        if not mask.any():
            continue
        origin = pointer_origin(fn, operand_groups(op)["pointers"][0])
        if origin is None or _alias(prep, origin) == buf:
            continue
        at = np.unravel_index(int(np.argmax(mask)), mask.shape)
        block = tuple(int(v) for v in ids[at[0]])
        key = id(op)
        if key in found:
            found[key][1] += int(mask.sum())
            continue
        found[key] = [(op, block, int(elems[at]), buf, origin), int(mask.sum())]
    out = []
    for (op, block, element, buf, origin), n in found.values():
        msg = (
            f"the pointer is made from {_name(prep.params, origin)} but lands on element "
            f"{element} of {_name(prep.params, buf)}; {n} access(es)"
        )
        out.append(
            Finding(
                "out-of-bounds",
                "other-buffer",
                prep.entry,
                op,
                texts.of(op).text,
                op.loc,
                block,
                element,
                msg,
                count=n,
            )
        )
    return out


def find_out_of_bounds(
    kernel: Target, args: Sequence[Any], grid: Optional[Sequence[int]] = None
) -> list[Finding]:
    """Accesses outside their buffer in one launch of ``kernel`` on ``args``, as findings
    (never an InterpretError): the op the interpreter refused, with its block, element
    and address; and near misses that landed in another argument's buffer."""
    prep = prepare(kernel, args, grid)
    fn = prep.module.function(prep.entry)
    texts = op_texts(prep.module)
    log = _Log()
    result = run(prep.module, prep.entry, prep.args, prep.grid, devices=prep.devices, observer=log)
    out = _other_buffers(prep, log, texts, fn)
    if result.error is None:
        return out
    fault = result.fault
    if fault is None:
        raise result.error
    finding = None
    if fault.op.name in POINTER_MEMORY_OPS:
        finding = _pointer_fault(prep, fault, result.memory, texts, fn)
    if finding is None:
        op = fault.op
        about_bounds = fault.op.name in VIEW_MEMORY_OPS and re.search(
            r"outside the buffer|past the end of the buffer|not inside any buffer", fault.message
        )
        m = re.search(r"element (\d+) of buffer", fault.message)
        finding = Finding(
            "out-of-bounds" if about_bounds else "fault",
            "view" if about_bounds else "interpreter",
            prep.entry,
            op,
            texts.of(op).text,
            op.loc,
            fault.block,
            int(m.group(1)) if m else None,
            fault.message,
        )
    return out + [finding]
