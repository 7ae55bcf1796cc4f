"""``explain``: one self-contained HTML page pairing a kernel's source with its Tile IR.

Each line of the kernel's Python source (the body and every helper an op points
into) sits beside the Tile IR ops it recorded.  A line starts collapsed,
showing its main op (bold) and how many more it recorded; clicking it shows
every op of the line grouped by the call that made it, with the op's line
number in the rendered module, and, when the page is made from a trace, the
values each op produced in the traced block (one per run, for ops in loops).
The header gives the kernel's counts: calls, ops, lines of Tile IR and bytes of
bytecode (``len(encode(module))``).  Given memory maps of a launch
(:mod:`tileir.debug.memmap`), the page draws one per buffer above the source.
Long lines wrap inside their column; a traced page shows each line's main value.  The whole rendered module follows at the
end.  Style and script are inline; the page fetches nothing.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Optional, Sequence

from tileir.debug.memmap_svg import map_svg
from tileir.debug.page_assets import CSS, SCRIPT
from tileir.debug.sourcemap import SourceMap, source_map

if TYPE_CHECKING:
    from tileir.debug.memmap import BufferMap
    from tileir.debug.tracer import Block3, Trace
    from tileir.kernel import Kernel

__all__ = ["explain_html", "write_explain"]


def _row_data(r) -> dict:
    out = {"n": r.ir_line, "t": r.text, "main": bool(r.main)}
    if r.values:
        out["v"] = list(r.values)
    return out


def _main_row(r, more: int) -> str:
    n = str(r.ir_line) if r.ir_line else ""
    tail = f'<span class="more">+{more}</span>' if more > 0 else ""
    value = ""
    if r.values:  # a traced page shows the main op's value without a click
        extra = f"  (+{len(r.values) - 1} run(s))" if len(r.values) > 1 else ""
        value = f'<div class="val">→ {html.escape(r.values[0])}{extra}</div>'
    return (
        f'<div class="row main"><span class="irno">{n}</span>'
        f"<code>{html.escape(r.text)}</code>{tail}</div>{value}"
    )


def _script_json(data: dict) -> str:
    # `</` would end the script element early; JSON allows the escaped slash
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def explain_html(
    kernel: Kernel,
    trace: Optional[Trace] = None,
    block: Optional[Block3] = None,
    maps: Sequence[BufferMap] = (),
) -> str:
    """The page for ``kernel`` (a recorded Kernel); with a ``trace`` of it, each op also
    shows its values in ``block`` (default: the trace's first block); ``maps``
    (:func:`~tileir.debug.memmap.memory_maps` of a launch) are drawn above the source."""
    sm: SourceMap = source_map(kernel, trace, block)
    esc = html.escape
    data: dict = {"kernel": sm.kernel, "lines": {}}
    parts = []
    for si, sec in enumerate(sm.sections):
        where = sec.file.rsplit("/", 1)[-1]
        title = f"{sec.function}() in {where}" if sec.function else where
        if sec.called_from:  # a helper: where the kernel called it (the ops' call sites)
            title += " · called from " + ", ".join(
                f"{f.rsplit('/', 1)[-1]}:{n}" for f, n in sec.called_from
            )
        parts.append(f'<h2>{esc(title)}</h2><div class="code">')
        for ln in sec.lines:
            key = f"{si}:{ln.number}"
            src = (
                f'<div class="src"><span class="no">{ln.number}</span>'
                f"<code>{esc(ln.text)}</code></div>"
            )
            if ln.calls:
                data["lines"][key] = {
                    "count": ln.op_count,
                    "main": _row_data(ln.main),
                    "calls": [
                        {"label": c.label, "rows": [_row_data(r) for r in c.rows]}
                        for c in ln.calls
                    ],
                }
                parts.append(
                    f'<div class="ln has-ops" id="L{si}-{ln.number}" '
                    f'data-line="{ln.number}" data-key="{key}" aria-expanded="false">'
                    f'{src}<div class="ir">{_main_row(ln.main, ln.op_count - 1)}'
                    f"</div></div>"
                )
            else:
                parts.append(f'<div class="ln">{src}<div class="ir"></div></div>')
        parts.append("</div>")
    if sm.unplaced:
        parts.append('<h2>ops without a source line</h2><div class="code">')
        for r in sm.unplaced:
            parts.append(
                f'<div class="ln"><div class="src"></div><div class="ir">'
                f"{_main_row(r, 0)}</div></div>"
            )
        parts.append("</div>")
    traced = f" · values of block {sm.block}" if sm.block is not None else ""
    stats = (
        f"{sm.call_count} calls · {sm.op_count} ops · {sm.ir_line_count} lines of Tile IR"
        f" · {sm.byte_size} bytes{traced}"
    )
    numbered = "\n".join(f"{i + 1:>4}  {line}" for i, line in enumerate(sm.ir_text.splitlines()))
    return "".join(
        [
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
            f"<title>{esc(sm.kernel)}: source beside Tile IR</title>",
            f'<style>{CSS}</style></head><body data-ready="0">',
            f'<header><h1>{esc(sm.kernel)}</h1><div class="stats" id="stats">{esc(stats)}</div>',
            '<div class="hint">Each source line shows its main op; click a line for every op it '
            "recorded. Add #expand=LINE (or #expand=all) to the address to open lines.</div>"
            "</header><main>",
            _maps_section(maps),
            *parts,
            f"<details><summary>The whole module ({sm.ir_line_count} lines)</summary>"
            f"<pre>{esc(numbered)}</pre></details>",
            "</main>",
            f'<script type="application/json" id="tileir-data">{_script_json(data)}</script>',
            f"<script>{SCRIPT}</script></body></html>\n",
        ]
    )


def _maps_section(maps: Sequence[BufferMap]) -> str:
    if not maps:
        return ""
    grid = maps[0].grid
    head = (
        f"<h2>memory: which block touched each element (grid {list(grid)}); "
        "hover a square for its element</h2>"
    )
    return head + '<div class="maps">' + "".join(map_svg(m) for m in maps) + "</div>"


def write_explain(
    kernel: Kernel,
    path: str,
    trace: Optional[Trace] = None,
    block: Optional[Block3] = None,
    maps: Sequence[BufferMap] = (),
) -> str:
    """Write :func:`explain_html` to ``path``; answers the path."""
    text = explain_html(kernel, trace, block, maps)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path
