"""The explain page's inline style and script (the page loads nothing from anywhere).

The script reads the per-line op data from the page's JSON block, expands a
line when its row is clicked (or pressed with Enter / Space), honours a URL
fragment ``#expand=12`` / ``#expand=12,14`` / ``#expand=all`` at load (and
``#click=12``, which sends line 12 a click event, to test that path), and
writes each memory map's place on the page into its ``data-box`` (for a test that
reads a screenshot's pixels) and how many lines overflow their column into
``data-overflowing``, when done marks ``<body data-ready="1">``; a script error is written to
``<body data-errors="...">`` so a headless browser test can read both from
the DOM.
"""

from __future__ import annotations

__all__ = ["CSS", "SCRIPT"]

CSS = """
:root { --ink: #1d232a; --mute: #6b7480; --line: #e3e6ea; --main: #0b4f8a; --hit: #f4f8fc;
        --val: #2f6b2f; --bg: #ffffff; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--ink);
       background: var(--bg); }
header { padding: 18px 24px 10px; border-bottom: 1px solid var(--line); }
header h1 { margin: 0 0 4px; font-size: 20px; }
header .stats { color: var(--mute); }
header .hint { color: var(--mute); font-size: 12px; margin-top: 6px; }
main { padding: 8px 24px 40px; }
h2 { font-size: 14px; font-weight: 600; margin: 18px 0 6px; color: var(--mute); }
code, pre { font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
/* long source and IR lines wrap inside their column (a hanging indent after the line
   number) instead of each carrying a scrollbar of its own */
.ln { display: grid; grid-template-columns: minmax(280px, 46%) minmax(0, 1fr);
      border-top: 1px solid #f2f3f5; }
.ln .src { display: flex; min-width: 0; padding: 1px 8px 1px 0; }
.ln .src code, .row code { flex: 1; min-width: 0; white-space: pre-wrap;
                           overflow-wrap: anywhere; }
.ln .no { flex: none; width: 3.2em; text-align: right; padding-right: 10px;
          color: var(--mute); user-select: none; }
.ln.has-ops { cursor: pointer; }
.ln.has-ops:hover, .ln.open { background: var(--hit); }
.ln .ir { min-width: 0; padding: 1px 0; }
.row { display: flex; min-width: 0; }
.row .irno { flex: none; width: 3em; text-align: right; padding-right: 8px;
             color: var(--mute); user-select: none; }
.row.main code { font-weight: 700; color: var(--main); }
.row .more { flex: none; color: var(--mute); font-size: 11px; margin-left: 8px; }
.call { margin: 2px 0 6px; }
.call .label { font-size: 11px; color: var(--mute); text-transform: none; margin-left: 3em; }
.val { white-space: pre-wrap; overflow-wrap: anywhere; color: var(--val); margin-left: 4.6em;
       font: 12px ui-monospace, monospace; }
details { margin-top: 24px; }
/* the whole module scrolls as one block */
details pre { background: #f7f8fa; padding: 10px; overflow-x: auto; }
.maps { display: flex; flex-wrap: wrap; gap: 18px 28px; margin: 6px 0 10px; }
figure.map { margin: 0; max-width: 100%; }
figure.map figcaption { font-size: 12px; color: var(--mute); margin-bottom: 4px; }
figure.map figcaption b { color: var(--ink); font-weight: 600; }
svg.memmap { display: block; background: #fff; }
.legend { font-size: 11px; color: var(--mute); margin-top: 4px; max-width: 640px; }
.legend .key { display: inline-block; margin-right: 10px; white-space: nowrap; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px;
            vertical-align: -1px; }
"""

SCRIPT = r"""
(function () {
  'use strict';
  var body = document.body;
  window.addEventListener('error', function (e) {
    body.setAttribute('data-errors', (body.getAttribute('data-errors') || '') + e.message + ';');
  });
  var data = JSON.parse(document.getElementById('tileir-data').textContent);

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function row(r) {
    var div = el('div', 'row' + (r.main ? ' main' : ''));
    div.appendChild(el('span', 'irno', r.n ? String(r.n) : ''));
    div.appendChild(el('code', null, r.t));
    return div;
  }

  // a collapsed line shows its main op's value (its first run's, and how many more)
  function value(r) {
    var extra = r.v.length > 1 ? '  (+' + (r.v.length - 1) + ' run(s))' : '';
    return el('div', 'val', '\u2192 ' + r.v[0] + extra);
  }

  function expand(line, open) {
    var key = line.getAttribute('data-key');
    var info = data.lines[key];
    if (!info) { return; }
    var ir = line.querySelector('.ir');
    if (open === undefined) { open = !line.classList.contains('open'); }
    ir.textContent = '';
    if (!open) {
      line.classList.remove('open');
      line.setAttribute('aria-expanded', 'false');
      ir.appendChild(row(info.main));
      var more = info.count - 1;
      if (more > 0) { ir.lastChild.appendChild(el('span', 'more', '+' + more)); }
      if (info.main.v && info.main.v.length) { ir.appendChild(value(info.main)); }
      return;
    }
    line.classList.add('open');
    line.setAttribute('aria-expanded', 'true');
    info.calls.forEach(function (call) {
      var box = el('div', 'call');
      box.appendChild(el('div', 'label', call.label));
      call.rows.forEach(function (r) {
        var div = row(r);
        div.classList.add('op');
        box.appendChild(div);
        (r.v || []).forEach(function (v, i) {
          var run = r.v.length > 1 ? 'run ' + (i + 1) + ': ' : '';
          box.appendChild(el('div', 'val', '\u2192 ' + run + v));
        });
      });
      ir.appendChild(box);
    });
  }

  var lines = Array.prototype.slice.call(document.querySelectorAll('.ln.has-ops'));
  lines.forEach(function (line) {
    line.setAttribute('tabindex', '0');
    line.setAttribute('role', 'button');
    line.addEventListener('click', function () { expand(line); });
    line.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); expand(line); }
    });
  });

  var m = /expand=([0-9,]+|all)/.exec(window.location.hash || '');
  if (m) {
    var want = m[1] === 'all' ? null : m[1].split(',');
    lines.forEach(function (line) {
      if (want === null || want.indexOf(line.getAttribute('data-line')) >= 0) {
        expand(line, true);
      }
    });
  }
  // #click=12 (or 12,12) clicks line 12 like a person would: a check of the click path
  var c = /click=([0-9,]+)/.exec(window.location.hash || '');
  if (c) {
    c[1].split(',').forEach(function (n) {
      lines.forEach(function (line) {
        if (line.getAttribute('data-line') === n) {
          line.dispatchEvent(new MouseEvent('click', {bubbles: true}));
        }
      });
    });
  }
  // where each memory map lies on the page (CSS pixels), for a test reading a screenshot
  Array.prototype.slice.call(document.querySelectorAll('svg.memmap')).forEach(function (svg) {
    var r = svg.getBoundingClientRect();
    svg.setAttribute('data-box', [Math.round(r.left + window.scrollX),
      Math.round(r.top + window.scrollY), Math.round(r.width), Math.round(r.height)].join(','));
  });
  // how many source / IR lines would need a scrollbar of their own (none: they wrap)
  var wide = Array.prototype.slice.call(document.querySelectorAll('.ln .src, .row, .val'))
    .filter(function (n) { return n.scrollWidth > n.clientWidth + 1; }).length;
  body.setAttribute('data-overflowing', String(wide));
  body.setAttribute('data-expanded', String(document.querySelectorAll('.ln.open').length));
  body.setAttribute('data-ready', '1');
})();
"""
