"""The explain page: generated, self-contained, and working in a real headless browser."""

from __future__ import annotations

import html
import inspect
import os
import re
import shutil
import subprocess

import numpy as np
import pytest

from tileir.debug import explain_html, source_map, trace_kernel, write_explain
from tileir.encode import encode
from tileir.ir.module import walk
from tileir.kernels import chapter
from tileir.kernels.registry import get

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
]


def _flash():
    spec = get("flash_attn")
    return spec, spec.kernel()


def _line_no(text: str) -> int:
    lines, first = inspect.getsourcelines(chapter.flash_attn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def test_source_map_pairs_lines_with_their_ops():
    _, k = _flash()
    sm = source_map(k)
    assert sm.op_count == len(list(walk(k.function.body)))
    assert sm.byte_size == len(encode(k.module))
    lines = {ln.number: ln for sec in sm.sections for ln in sec.lines}
    body, first = inspect.getsourcelines(chapter.flash_attn)
    assert set(range(first, first + len(body))) <= set(lines)  # every body line is shown
    s_line = lines[_line_no("s = mma(tq, tk.transpose(), 0.0) * scalar(scale)")]
    assert [c.label for c in s_line.calls] == ["transpose", "mma", "scalar", "mul"]
    assert s_line.main.op.name == "mulf"
    red = lines[_line_no("m_new = maximum(m, reduce_max(s, keepdims=True))")]
    assert [c.label for c in red.calls] == ["reduce_max", "maximum"]
    assert [r.op.name for r in red.calls[0].rows if r.main] == ["reduce"]
    load = lines[_line_no("tq = yield load_cell(q)")]
    assert load.main.op.name == "load_view_tko"
    assert [r.op.name for r in load.calls[0].rows] == [
        "assume",
        "make_tensor_view",
        "make_partition_view",
        "load_view_tko",
    ]
    assert not sm.unplaced
    placed = sum(ln.op_count for ln in lines.values())
    assert placed == sm.op_count


def test_page_is_self_contained_and_complete(tmp_path):
    spec, k = _flash()
    args, grid = spec.inputs(np.random.default_rng(0))
    t = trace_kernel(k, args, grid, blocks=[(1, 0)])
    path = write_explain(k, str(tmp_path / "page.html"), t)
    page = open(path, encoding="utf-8").read()
    assert not re.search(r"https?://|<link\b|\bsrc\s*=|@import|url\(", page)
    assert page.count("<script") == 2  # the data and the inline script
    sm = source_map(k)
    assert (
        f"{sm.call_count} calls · {sm.op_count} ops · {sm.ir_line_count} lines of Tile IR"
        f" · {len(encode(k.module))} bytes · values of block (1, 0, 0)"
    ) in page
    body, first = inspect.getsourcelines(chapter.flash_attn)
    for line in body:
        assert html.escape(line.rstrip("\n")) in page
    assert '"v": ["[32x32] min' in page  # trace values travel in the data block
    plain = explain_html(k)
    assert "values of block" not in plain and '"v":' not in plain


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name) or (
            f"/usr/bin/{name}" if os.path.exists(f"/usr/bin/{name}") else None
        )
        if found:
            return found
    return None


def _dump_dom(page: str, fragment: str, tmp_path) -> tuple[str, str]:
    exe = _chromium()
    if exe is None:
        pytest.skip(
            "chromium not installed: `apt-get install -y chromium` (the CI script "
            "installs it) to run the browser check of the explain page"
        )
    profile = tmp_path / f"profile-{abs(hash(fragment))}"
    cmd = [
        exe,
        *CHROMIUM_FLAGS,
        f"--user-data-dir={profile}",
        "--dump-dom",
        f"file://{page}#{fragment}",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, done.stderr


def _console_errors(stderr: str) -> list:
    return [
        line
        for line in stderr.splitlines()
        if ":CONSOLE" in line and re.search(r"Uncaught|Error|error", line)
    ]


def _body(dom: str) -> str:
    return re.search(r"<body[^>]*>", dom).group(0)


def _line_div(dom: str, number: int) -> str:
    start = dom.index(f'data-line="{number}"')
    start = dom.rindex("<div", 0, start)
    end = dom.find('<div class="ln', start + 10)
    return dom[start : end if end > 0 else len(dom)]


@pytest.fixture(scope="module")
def page_path(tmp_path_factory):
    spec, k = _flash()
    args, grid = spec.inputs(np.random.default_rng(0))
    t = trace_kernel(k, args, grid, blocks=[(1, 0)])
    return write_explain(k, str(tmp_path_factory.mktemp("explain") / "flash.html"), t)


def test_browser_loads_page_and_expands_a_line_from_the_fragment(page_path, tmp_path):
    n = _line_no("m_new = maximum(m, reduce_max(s, keepdims=True))")
    other = _line_no("tq = yield load_cell(q)")
    dom, err = _dump_dom(page_path, f"expand={n}", tmp_path)
    assert _console_errors(err) == []
    body = _body(dom)
    assert 'data-ready="1"' in body and "data-errors" not in body
    assert 'data-expanded="1"' in body
    opened = _line_div(dom, n)
    assert 'class="ln has-ops open"' in opened and 'aria-expanded="true"' in opened
    assert '<div class="label">reduce_max</div>' in opened
    assert '<div class="label">maximum</div>' in opened
    # reduce, its combiner's maxf and yield, reshape; then maxf, broadcast
    assert len(re.findall(r'class="row (?:main )?op"', opened)) == 6
    assert len(re.findall(r'class="row main op"', opened)) == 2
    assert "= reduce %" in opened and "= maxf %" in opened
    assert "→ run 1: [32] min" in opened and "→ run 2: [32] min" in opened
    closed = _line_div(dom, other)
    assert "open" not in closed.split(">")[0] and 'class="call"' not in closed
    assert "load_view_tko" in closed and '<span class="more">+3</span>' in closed


def test_browser_click_toggles_a_line(page_path, tmp_path):
    n = _line_no("s = mma(tq, tk.transpose(), 0.0) * scalar(scale)")
    dom, err = _dump_dom(page_path, f"click={n}", tmp_path)
    assert _console_errors(err) == [] and 'data-ready="1"' in _body(dom)
    opened = _line_div(dom, n)
    assert 'aria-expanded="true"' in opened
    assert [m for m in re.findall(r'<div class="label">([^<]*)</div>', opened)] == [
        "transpose",
        "mma",
        "scalar",
        "mul",
    ]
    dom, err = _dump_dom(page_path, f"click={n},{n}", tmp_path)
    assert 'data-expanded="0"' in _body(dom)
    again = _line_div(dom, n)
    assert 'aria-expanded="false"' in again and 'class="call"' not in again
    assert "mulf" in again  # collapsed back to its main op


def test_browser_expands_every_line(page_path, tmp_path):
    dom, err = _dump_dom(page_path, "expand=all", tmp_path)
    assert _console_errors(err) == []
    page = open(page_path, encoding="utf-8").read()
    with_ops = page.count('class="ln has-ops"')
    assert f'data-expanded="{with_ops}"' in _body(dom)
    _, k = _flash()
    for op in walk(k.function.body):  # every op's text is on the page once expanded
        if op.name not in ("continue", "yield") or op.operands:
            assert f" {op.name}" in dom or f">{op.name}" in dom


def test_cli_explain_writes_the_page(tmp_path, capsys):
    from tileir.cli.main import main

    out = tmp_path / "softmax.html"
    assert main(["explain", "softmax", "-o", str(out), "--trace"]) == 0
    said = capsys.readouterr().out
    k = get("softmax").kernel()
    assert f"{len(encode(k.module))} bytes" in said and str(out) in said
    page = out.read_text(encoding="utf-8")
    assert "values of block (0, 0, 0)" in page and "t = yield load_cell(x)" in page


def test_browser_check_skips_with_a_reason_without_chromium(monkeypatch, tmp_path):
    import sys

    monkeypatch.setattr(sys.modules[__name__], "_chromium", lambda: None)
    with pytest.raises(pytest.skip.Exception, match="chromium not installed"):
        _dump_dom(str(tmp_path / "none.html"), "expand=1", tmp_path)
