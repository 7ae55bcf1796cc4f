"""Draw a :class:`~tileir.debug.memmap.BufferMap` as inline SVG for the explain page.

One square per drawn position (an element, a padded lane, or a bin of several when
the map is aggregated), coloured by what happened there: the writing block's colour
(one of :data:`BLOCK_COLOURS`, repeating past ten blocks), a light tint of the
reading block's for elements only read, and a colour of its own for each finding
and state in :data:`STATE_COLOURS`.  Each square's ``<title>`` says the element, its
first writer and reader and the state, so hovering tells the rest; past
:data:`RUNS_PAST` squares, a run of alike squares in a row is one bar with one tooltip.  A legend lists
the states and blocks the map shows.  Nothing is fetched: plain SVG in the page.
"""

from __future__ import annotations

import html
from typing import Optional

from tileir.debug.memmap import STATES, BufferMap

__all__ = [
    "BLOCK_COLOURS",
    "STATE_COLOURS",
    "SHARED_READ",
    "map_svg",
    "light",
    "square_colour",
]

#: colours of blocks by linear block id (modulo ten); none is a finding's colour
BLOCK_COLOURS = (
    "#1f77b4",
    "#2ca02c",
    "#17becf",
    "#8c564b",
    "#bcbd22",
    "#393b79",
    "#637939",
    "#7f7f7f",
    "#0b6e4f",
    "#5b8def",
)

#: colours of the states that are not a block's (``read`` / ``written`` are the block's)
STATE_COLOURS = {
    "untouched": "#eceff2",
    "padded": "#f3d98b",
    "atomic": "#6a3d9a",
    "padding-leak": "#ff7f0e",
    "uninitialized": "#ff00ff",
    "race": "#d62728",
    "out-of-bounds": "#111111",
}

_WORDS = {
    "untouched": "untouched",
    "padded": "padded lane",
    "read": "read only",
    "written": "written",
    "atomic": "atomics from several blocks",
    "padding-leak": "reached by padding",
    "uninitialized": "read before written",
    "race": "race",
    "out-of-bounds": "past the buffer's end",
}

#: widest and tallest a map is drawn, in CSS pixels (squares are 6 to 16 px)
_WIDTH = 640
_HEIGHT = 320


def light(colour: str, amount: float = 0.6) -> str:
    """``colour`` mixed with white (``amount`` of white): a read-only element's tint.

    >>> light("#000000", 0.5)
    '#808080'
    """
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(c + (255 - c) * amount) for c in rgb]
    return "#" + "".join(f"{c:02x}" for c in mixed)


#: an element several blocks read (and none wrote): no one block's colour
SHARED_READ = "#c4ccd6"


def square_colour(state: str, writer: int, reader: int, readers: int = 1) -> str:
    """The colour of a position in ``state`` with its first writer / reader block and the
    number of blocks that read it."""
    if state == "written" and writer >= 0:
        return BLOCK_COLOURS[writer % len(BLOCK_COLOURS)]
    if state == "read" and readers > 1:
        return SHARED_READ
    if state == "read" and reader >= 0:
        return light(BLOCK_COLOURS[reader % len(BLOCK_COLOURS)])
    return STATE_COLOURS.get(state, STATE_COLOURS["untouched"])


def _title(m: BufferMap, r: int, c: int) -> tuple[str, str]:
    """What a square's tooltip says: where it is, and what happened there."""
    state = STATES[int(m.state[r, c])]
    e = int(m.element[r, c])
    if e < 0:
        return "", _WORDS[state]
    fr, fc = m.bin
    if (fr, fc) == (1, 1):
        where = f"element {e}"
    elif fr == 1:
        where = f"element {e} (a bin of {fc} elements)"
    else:
        where = f"element {e} (a bin of {fr}x{fc} rows x columns)"
    parts = []
    if e < m.size:
        w, rd = int(m.writer[r, c]), int(m.reader[r, c])
        if w >= 0:
            more = int(m.writers[e]) - 1
            parts.append(f"written by {m.block(w)}" + (f" +{more}" if more > 0 else ""))
        if rd >= 0:
            more = int(m.readers[e]) - 1
            parts.append(f"read by {m.block(rd)}" + (f" +{more}" if more > 0 else ""))
    if state not in ("read", "written"):
        parts.append(_WORDS[state])
    return where, "; ".join(parts)


#: past this many squares, runs of alike squares in a row are drawn as one bar (the page
#: stays small: one rect and one tooltip per run, not per square)
RUNS_PAST = 512


def _square(m: BufferMap, r: int, c: int) -> Optional[tuple[str, str, str, str]]:
    """(colour, where, what, legend key) of a square, None where nothing is drawn."""
    state = STATES[int(m.state[r, c])]
    e = int(m.element[r, c])
    if e == -1 and state == "untouched":
        return None  # nothing there: a padded lane of a cell nobody touched
    if e == -2:
        return None
    w, rd = int(m.writer[r, c]), int(m.reader[r, c])
    readers = int(m.readers[e]) if 0 <= e < m.size else 0
    where, what = _title(m, r, c)
    key = "shared-read" if state == "read" and readers > 1 else state
    return square_colour(state, w, rd, readers), where, what, key


def map_svg(m: BufferMap) -> str:
    """The map as one ``<figure>``: caption, SVG squares and legend."""
    rows, cols = m.shape
    cell = int(max(6, min(16, _WIDTH // max(cols, 1), _HEIGHT // max(rows, 1))))
    gap = 1 if cell >= 8 else 0
    width, height = cols * cell, rows * cell
    out = [
        f'<svg class="memmap" id="map{m.index}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" data-cell="{cell}" data-rows="{rows}" '
        f'data-cols="{cols}" role="img" aria-label="{html.escape(m.label)}">'
    ]
    seen_states: set = set()
    seen_blocks: set = set()
    runs = rows * cols > RUNS_PAST
    for r in range(rows):
        c = 0
        while c < cols:
            sq = _square(m, r, c)
            if sq is None:
                c += 1
                continue
            colour, where, what, key = sq
            end = c + 1
            while runs and end < cols:
                nxt = _square(m, r, end)
                if nxt is None or (nxt[0], nxt[2]) != (colour, what):
                    break
                end += 1
            seen_states.add(key)
            w, rd = int(m.writer[r, c]), int(m.reader[r, c])
            if key == "written":
                seen_blocks.add(w)
            elif key == "read":
                seen_blocks.add(rd)
            if end - c > 1:
                last = int(m.element[r, end - 1])
                where = f"elements {int(m.element[r, c])} to {last}" + (
                    f" ({end - c} bins)" if m.bin != (1, 1) else ""
                )
            tip = "; ".join(t for t in (where, what) if t)
            out.append(
                f'<rect x="{c * cell}" y="{r * cell}" width="{(end - c) * cell - gap}" '
                f'height="{cell - gap}" fill="{colour}"><title>'
                f"{html.escape(tip)}</title></rect>"
            )
            c = end
    out.append("</svg>")
    fr, fc = m.bin
    what = f"{m.size} element(s)"
    if fr == 1 and fc > 1:
        what += f", each square {fc} consecutive elements showing the most telling state"
    elif (fr, fc) != (1, 1):
        what += f", each square {fr}x{fc} rows x columns showing the most telling state"
    if m.note:
        what += f"; {m.note}"
    legend = []
    for s in STATES:
        if s in seen_states and s not in ("read", "written"):
            legend.append(_swatch(STATE_COLOURS[s], _WORDS[s]))
    blocks = sorted(seen_blocks)
    for b in blocks[: len(BLOCK_COLOURS)]:
        legend.append(_swatch(BLOCK_COLOURS[b % len(BLOCK_COLOURS)], f"block {m.block(b)}"))
    if len(blocks) > len(BLOCK_COLOURS):
        legend.append(f'<span class="key">colours repeat: {len(blocks)} blocks</span>')
    if "shared-read" in seen_states:
        legend.append(_swatch(SHARED_READ, "read by several blocks"))
    if "read" in seen_states:
        legend.append('<span class="key">light: read only</span>')
    return (
        f'<figure class="map"><figcaption><b>{html.escape(m.label)}</b> · '
        f"{html.escape(what)}</figcaption>{''.join(out)}"
        f'<div class="legend">{"".join(legend)}</div></figure>'
    )


def _swatch(colour: str, text: str) -> str:
    return f'<span class="key"><i style="background:{colour}"></i>{html.escape(text)}</span>'
