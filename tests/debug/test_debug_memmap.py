"""Memory maps: which block read and wrote each element, padded lanes, untouched elements
and the findings, for 1-D and 2-D buffers of any size; drawn in the explain page and
checked in headless chromium (console clean, colours at known elements of a race)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import numpy as np
import pytest

from support.png import read_png
from tileir import (
    F32,
    F64,
    In,
    Out,
    Shared,
    block_id,
    cells,
    load_cell,
    store,
    store_cell,
    trace,
)
from tileir.debug import explain_html, find_padding_leaks, memory_maps, write_explain
from tileir.debug.memmap import MAX_COLS, MAX_ROWS
from tileir.debug.memmap_svg import BLOCK_COLOURS, STATE_COLOURS, light, map_svg
from tileir.kernels.registry import get

DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs")


def _scatter(x, out):
    t = yield load_cell(x)
    yield store(out, block_id(0) * 2, t)  # planted race: tiles of 4 placed 2 apart


def _race_kernel():
    return trace("scatter", _scatter, In(F64, cells([16], [4])), Shared(F64))


RACE_ARGS = [np.arange(16.0), np.zeros(16)]


def test_a_race_map_names_each_elements_writer_and_the_conflicts():
    x_map, out_map = memory_maps(_race_kernel(), RACE_ARGS, grid=(4,))
    assert out_map.shape == (1, 16) and out_map.bin == (1, 1)
    # block b writes elements 2b .. 2b+3: 0, 1 are block 0's alone, 8, 9 block 3's alone
    assert [out_map.state_at(e) for e in (0, 1, 2, 7, 8, 9, 10, 15)] == [
        "written",
        "written",
        "race",
        "race",
        "written",
        "written",
        "untouched",
        "untouched",
    ]
    r, c = out_map.position_of(9)
    assert out_map.block(int(out_map.writer[r, c])) == (3, 0, 0)
    assert all(x_map.state_at(e) == "read" for e in range(16))
    r, c = x_map.position_of(5)
    assert x_map.block(int(x_map.reader[r, c])) == (1, 0, 0)


def test_a_2d_map_keeps_rows_and_columns_and_shows_the_padded_lanes():
    def copy(x, out):
        yield store_cell(out, (yield load_cell(x)))

    k = trace("copy2d", copy, In(F32, cells([6, 5], [4, 4])), Out(F32, cells([6, 5], [4, 4])))
    xs = np.arange(30, dtype=np.float32)
    _, out_map = memory_maps(k, [xs, np.zeros(30, np.float32)])
    assert out_map.shape == (8, 8)  # two cells of 4 along each axis
    assert out_map.element[1, 2] == 1 * 5 + 2 and out_map.state_at(7) == "written"
    # lanes past the extent of the edge cells: padded, and no element of the buffer
    assert out_map.element[6, 0] == -1 and out_map.state[6, 0] == 1  # "padded"
    assert out_map.element[0, 5] == -1 and out_map.state[0, 5] == 1
    r, c = out_map.position_of(29)  # the last element (5, 4) is block (1, 1)'s
    assert (r, c) == (5, 4) and out_map.block(int(out_map.writer[r, c])) == (1, 1, 0)


def test_a_large_buffer_is_aggregated_and_a_finding_in_a_bin_still_shows():
    n = 1 << 16

    def spread(x, out):
        t = yield load_cell(x)
        # blocks from 100 on start 4 early, from 200 on 8 early: two races of 4 elements
        yield store(out, block_id(0) * 256 - block_id(0) // 100 * 4, t)

    k = trace("spread", spread, In(F32, cells([n], [256])), Shared(F32))
    _, m = memory_maps(k, [np.zeros(n, np.float32), np.zeros(n, np.float32)], grid=(n // 256,))
    assert m.shape[0] <= MAX_ROWS and m.shape[1] <= MAX_COLS and m.bin != (1, 1)
    fr, per = m.bin
    assert fr == 1 and per == -(-n // (MAX_ROWS * MAX_COLS))  # bins of consecutive elements
    # a bin shows its most telling state: the last one (8 untouched) is written
    assert {int(s) for s in m.state[m.element >= 0]} == {3, 7}
    raced = sorted(int(e) for e in m.element[m.state == 7])
    # exactly the bins holding elements 25596..25599 and 51192..51195
    conflicts = list(range(25596, 25600)) + list(range(51192, 51196))
    assert [e // per for e in raced] == sorted({e // per for e in conflicts})
    assert set(raced) <= set(conflicts)  # each bin shows its first conflicting element
    # drawn as runs: one bar per run of alike squares, the race bins on their own
    svg = map_svg(m)
    assert svg.count("<rect") < 12 * m.shape[0]
    assert svg.count(f'fill="{STATE_COLOURS["race"]}"') == 2
    assert "<title>elements 0 to " in svg


def test_the_command_line_draws_the_maps_unless_told_not_to(tmp_path, capsys):
    from tileir.cli.main import main

    out = tmp_path / "softmax.html"
    assert main(["explain", "softmax", "-o", str(out)]) == 0
    assert "2 memory map(s)" in capsys.readouterr().out
    assert out.read_text(encoding="utf-8").count('<svg class="memmap"') == 2
    assert main(["explain", "softmax", "-o", str(out), "--no-maps"]) == 0
    assert "memory map" not in capsys.readouterr().out
    assert '<svg class="memmap"' not in out.read_text(encoding="utf-8")


def test_uninitialized_out_of_bounds_and_padding_leak_elements_are_marked():
    def acc(x, out):
        old = yield load_cell(out)
        yield store_cell(out, old + (yield load_cell(x)))

    g = cells([8], [4])
    k = trace("acc", acc, In(F32, g), Out(F32, g))
    _, m = memory_maps(k, [np.ones(8, np.float32), np.zeros(8, np.float32)])
    assert all(m.state_at(e) == "uninitialized" for e in range(8))

    def shifted(x, out):
        yield store(out, block_id(0) * 4 + 3, (yield load_cell(x)))  # off by 3

    k = trace("shifted", shifted, In(F64, cells([16], [4])), Shared(F64))
    _, m = memory_maps(k, RACE_ARGS, grid=(4,))
    # block 3 writes elements 15..18: the three past the end are drawn after it
    assert [m.state_at(e) for e in (16, 17, 18)] == ["out-of-bounds"] * 3
    assert m.position_of(18) == (0, 18) and m.position_of(19) is None
    # the launch stopped at that store (all four blocks run it as one batch): no write
    assert m.state_at(3) == "untouched"

    def softmax(x, out):
        from tileir import exp, reduce_max, reduce_sum

        t = yield load_cell(x)
        e = exp(t - reduce_max(t))
        yield store_cell(out, e / reduce_sum(e))

    sm = trace("softmax_zero", softmax, In(F64, cells([3], [4])), Out(F64, cells([3], [4])))
    args = [np.array([0.5, -1.0, 2.0]), np.zeros(3)]
    x_map, out_map = memory_maps(sm, args, findings=find_padding_leaks(sm, args))
    assert [out_map.state_at(e) for e in range(3)] == ["padding-leak"] * 3
    assert x_map.state[0, 3] == 1 and x_map.element[0, 3] == -1  # the padded lane read


def test_the_page_draws_one_svg_per_buffer_and_stays_self_contained():
    maps = memory_maps(_race_kernel(), RACE_ARGS, grid=(4,))
    page = explain_html(_race_kernel(), maps=maps)
    assert page.count('<svg class="memmap"') == 2
    assert f'fill="{STATE_COLOURS["race"]}"' in page and f'fill="{BLOCK_COLOURS[3]}"' in page
    assert "element 2; written by (0, 0, 0) +1; race" in page
    assert not re.search(r"https?://(?!www\.w3\.org)|<link\b|\bsrc\s*=|@import|url\(", page)


# ----------------------------------------------------------------------------- browser

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--enable-logging=stderr",
    "--v=0",
]
WINDOW = "--window-size=1400,900"


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip(
        "chromium not installed: `apt-get install -y chromium` (the CI script installs it) "
        "to run the browser check of the memory map"
    )


def _browse(page: str, tmp_path, *what: str) -> subprocess.CompletedProcess:
    profile = tmp_path / f"profile-{len(what)}-{abs(hash(what))}"
    cmd = [_chromium(), *FLAGS, WINDOW, f"--user-data-dir={profile}", *what, f"file://{page}"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def _console_errors(stderr: str) -> list:
    return [
        line
        for line in stderr.splitlines()
        if ":CONSOLE" in line and re.search(r"Uncaught|Error|error", line)
    ]


def _box(dom: str, index: int) -> tuple[int, int, int, int]:
    tag = re.search(rf'<svg class="memmap" id="map{index}"[^>]*>', dom).group(0)
    return tuple(int(v) for v in re.search(r'data-box="([0-9,]+)"', tag).group(1).split(","))


def _rgb(colour: str) -> tuple:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def screenshot_race_page(tmp_path) -> tuple[str, str, str]:
    """The race kernel's page in chromium: its DOM after the script ran, the browser's log
    and the path of a 1400 px screenshot."""
    maps = memory_maps(_race_kernel(), RACE_ARGS, grid=(4,))
    page = write_explain(_race_kernel(), str(tmp_path / "race.html"), maps=maps)
    dom = _browse(page, tmp_path, "--dump-dom")
    shot = tmp_path / "race.png"
    _browse(page, tmp_path, f"--screenshot={shot}")
    return dom.stdout, dom.stderr, str(shot)


def test_browser_shows_the_race_in_its_colours_at_known_elements(tmp_path):
    dom, log, shot = screenshot_race_page(tmp_path)
    assert _console_errors(log) == []
    body = re.search(r"<body[^>]*>", dom).group(0)
    assert 'data-ready="1"' in body and "data-errors" not in body
    pixels = read_png(shot)
    maps = memory_maps(_race_kernel(), RACE_ARGS, grid=(4,))

    def colour_at(index: int, element: int) -> tuple:
        left, top, _, _ = _box(dom, index)
        cell = int(re.search(rf'id="map{index}"[^>]*data-cell="(\d+)"', dom).group(1))
        r, c = maps[index].position_of(element)
        x, y = left + c * cell + cell // 2 - 1, top + r * cell + cell // 2 - 1
        return tuple(int(v) for v in pixels[y, x, :3])

    assert colour_at(1, 0) == _rgb(BLOCK_COLOURS[0])  # block 0 alone
    assert colour_at(1, 2) == _rgb(STATE_COLOURS["race"])  # blocks 0 and 1
    assert colour_at(1, 7) == _rgb(STATE_COLOURS["race"])  # blocks 2 and 3
    assert colour_at(1, 9) == _rgb(BLOCK_COLOURS[3])  # block 3 alone
    assert colour_at(1, 12) == _rgb(STATE_COLOURS["untouched"])
    assert colour_at(0, 5) == _rgb(light(BLOCK_COLOURS[1]))  # read by block 1
    if os.environ.get("TILEIR_WRITE_DOCS"):  # the picture in docs/debugging.md
        shutil.copyfile(shot, os.path.join(DOCS, "memory_map.png"))


def test_browser_lines_wrap_instead_of_scrolling_at_laptop_width(tmp_path):
    spec = get("flash_attn")
    k = spec.kernel()
    args, grid = spec.inputs(np.random.default_rng(0))
    from tileir.debug import trace_kernel

    t = trace_kernel(k, args, grid, blocks=[(0,)])
    page = write_explain(k, str(tmp_path / "flash.html"), t, maps=memory_maps(k, args, grid))
    done = _browse(page + "#expand=all", tmp_path, "--dump-dom")
    assert _console_errors(done.stderr) == []
    body = re.search(r"<body[^>]*>", done.stdout).group(0)
    assert 'data-ready="1"' in body and 'data-overflowing="0"' in body
    assert done.stdout.count('<svg class="memmap"') == 4
    # a traced page shows the main op's values on collapsed lines too
    closed = _browse(page, tmp_path, "--dump-dom").stdout
    assert closed.count('<div class="val">→ ') >= 10
