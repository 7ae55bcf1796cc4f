"""docs/debugging.md, "Running another producer's bytecode", runs as it is written.

Its Python blocks run in order in one folder (the first, cuTile's export script, as a file:
cuTile reads a kernel's source), and each ``$ tileir ...`` line of its transcripts is run
with :func:`tileir.cli.main.main` there and must print what the page shows (a ``...`` line
stands for the lines the page leaves out).
"""

from __future__ import annotations

import contextlib
import io
import re
import runpy
import shlex
from pathlib import Path

import pytest

pytest.importorskip("cuda.tile")

from tileir.cli.main import main  # noqa: E402

PAGE = Path(__file__).resolve().parents[2] / "docs" / "debugging.md"
TITLE = "## Running another producer's bytecode"


def _section() -> str:
    text = PAGE.read_text()
    start = text.index(TITLE)
    end = text.find("\n## ", start + 1)
    return text[start : None if end < 0 else end]


def _transcripts(section: str) -> list[tuple[str, list[str]]]:
    """(command, expected lines) for every ``$ `` line of the section's plain blocks."""
    out: list[tuple[str, list[str]]] = []
    fence = None  # the language of the block the line is in (None: outside blocks)
    for line in section.splitlines():
        if line.startswith("```"):
            fence = None if fence is not None else line[3:]
            continue
        if fence != "":
            continue
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


def _matches(got: list[str], want: list[str]) -> bool:
    if "..." not in want:
        return got == want
    cut = want.index("...")
    head, tail = want[:cut], want[cut + 1 :]
    return got[: len(head)] == head and (not tail or got[-len(tail) :] == tail)


def test_the_sections_python_and_transcripts_run_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    section = _section()
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) >= 4 and blocks[0].startswith("# export_rowscale.py")
    (tmp_path / "export_rowscale.py").write_text(blocks[0])
    runpy.run_path(str(tmp_path / "export_rowscale.py"))
    assert (tmp_path / "rowscale.tilebc").stat().st_size > 0
    namespace: dict = {"__name__": "docs_example"}
    for block in blocks[1:]:
        exec(compile(block, str(PAGE), "exec"), namespace)
    assert namespace["NUMBERS_FIRST"].name == "numbers_first"

    transcripts = _transcripts(section)
    assert len(transcripts) >= 7
    for command, want in transcripts:
        words = shlex.split(command)
        if words[0] == "python":  # the page's one shell step: save the inputs
            exec(words[2], {})
            continue
        assert words[0] == "tileir", command
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(words[1:])
        got = (out.getvalue() + err.getvalue()).splitlines()
        assert _matches(got, want), f"$ {command}\ngot:\n" + "\n".join(got)
        assert rc == (1 if err.getvalue() else 0), command
