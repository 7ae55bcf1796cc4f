"""What the kernel fuzzer checks on one drawn kernel, and its regression files.

:func:`check_description` records a description's kernel and checks, in order:
it records; its text renders; ``tileir.verify.checker.verify`` passes; its bytecode
decodes back to the same Module (and renders the same text); the fake device's
result (launched with the grid given when an Out extent is DYN_DIM) equals the
oracle's (``fuzz_oracle``) wherever the oracle pins it down, in the Out and in every
Shared the kernel writes; the Ins and read-only Shared buffers are left as they were;
and, with ``tools=True``, ``tileirdisasm`` prints the same text (SSA names aside) and
``tileiras`` assembles it for sm_90.

A failing check raises :class:`FuzzFailure` whose message holds the description
as JSON, the kernel's text and the first differing element.  :func:`save_case`
writes a failing example to ``regressions/`` (the test keeps only the last,
shrunk one of a run) and :func:`load_case` reads one back for the replay test.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Optional

import numpy as np

from fuzz_build import build
from fuzz_inputs import args_from_json, args_json, launch_args
from fuzz_oracle import compare_out, evaluate, grid_of
from fuzz_params import has_dyn
from tileir import trace
from tileir.encode import canonicalize, decode
from tileir.fake import FakeDevice
from tileir.text.compare import normalize_ssa
from tileir.text.render import render
from tileir.verify.checker import verify

__all__ = [
    "FuzzFailure",
    "check_description",
    "launch_args",
    "save_case",
    "load_case",
    "REGRESSIONS",
    "Outcome",
]

REGRESSIONS = Path(__file__).parent / "regressions"
ARCH = "sm_90"
_NAME = "fuzzed"


class FuzzFailure(AssertionError):
    """A drawn kernel failed one of the fuzzer's checks."""


class Outcome:
    """What one check saw (for statistics): lanes compared, lanes left open."""

    def __init__(self, compared: int, total: int):
        self.compared, self.total = compared, total


# ----------------------------------------------------------------------------- checks


def _fail(what: str, desc: dict, text: Optional[str] = None, extra: str = "") -> FuzzFailure:
    parts = [f"fuzzed kernel: {what}", f"description: {json.dumps(desc)}"]
    if extra:
        parts.append(extra)
    if text:
        parts.append("kernel text:\n" + text)
    return FuzzFailure("\n".join(parts))


def _tools(desc: dict, kernel, text: str) -> None:
    from tileir.real import tileiras

    data = kernel.bytecode()
    shown = tileiras.disassemble(data, kernel=_NAME)
    if normalize_ssa(shown.strip()) != normalize_ssa(text.strip()):
        raise _fail(
            "tileirdisasm prints other text than render (SSA names aside)",
            desc,
            text,
            "tileirdisasm:\n" + shown,
        )
    try:
        tileiras.assemble(data, ARCH, kernel=_NAME)
    except Exception as err:  # ToolError: the assembler refused what verify accepted
        raise _fail(f"tileiras refused it for {ARCH}: {err}", desc, text) from err


def check_description(desc: dict, args: list, *, tools: bool = False) -> Outcome:
    """Run every check on one description and its launch arguments (see the module doc)."""
    body, markers = build(desc)
    try:
        kernel = trace(_NAME, body, *markers)
    except Exception as err:
        raise _fail(f"recording refused a well-typed kernel: {err}", desc) from err
    text = kernel.text()
    if f"entry @{_NAME}" not in text:
        raise _fail("the rendered text has no entry", desc, text)
    try:
        verify(kernel.module)
    except Exception as err:
        raise _fail(f"verify refused the lowered module: {err}", desc, text) from err
    back = decode(kernel.bytecode())
    if back != kernel.module:
        same_canon = back == canonicalize(kernel.module)
        raise _fail(
            "decode(encode(m)) != m" + (" (but equals canonicalize(m))" if same_canon else ""),
            desc,
            text,
            "decoded:\n" + render(back),
        )
    if normalize_ssa(render(back)) != normalize_ssa(text):
        raise _fail("the decoded module renders other text", desc, text, render(back))
    grid = list(grid_of(desc)) if has_dyn(desc["params"]) else None
    try:
        got = FakeDevice(mode="interpret").run(kernel, *args, grid=grid)
    except Exception as err:
        raise _fail(f"the fake device failed: {type(err).__name__}: {err}", desc, text) from err
    for i, (p, a, g) in enumerate(zip(desc["params"], args, got)):
        kept = p["role"] == "In" or p["role"] == "Shared" and p["use"] == "read"
        if kept and not np.array_equal(np.asarray(a).view(np.uint8), np.asarray(g).view(np.uint8)):
            raise _fail(f"{p['role']} parameter {i} was changed by the launch", desc, text)
    compared = total = 0
    for i, (expected, err) in sorted(evaluate(desc, args).items()):
        bad, count, seen = compare_out(got[i], expected, err)
        compared, total = compared + seen, total + int(expected.size)
        if bad is not None:
            raise _fail(
                "the fake device disagrees with the oracle",
                desc,
                text,
                _where(desc, i, bad) + f": the device gives "
                f"{np.asarray(got[i]).reshape(-1)[bad]!r}, the oracle "
                f"{expected[bad]!r} (bound {err[bad]!r}); {count} of {seen} compared "
                f"element(s) differ\ninputs: {json.dumps(args_json(desc, args))}",
            )
    if tools:
        _tools(desc, kernel, text)
    return Outcome(compared, total)


def _where(desc: dict, i: int, bad: int) -> str:
    """Which element differs: the Out's by coordinates and block, a Shared's by index."""
    p = desc["params"][i]
    if p["role"] != "Out":
        return f"{p['role']} parameter {i} element {bad}"
    at = tuple(int(v) for v in np.unravel_index(bad, p["extent"]))
    block = [a // t for a, t in zip(at, p["tile"])]
    return f"Out element {bad} = {at}, block {block} of grid {list(grid_of(desc))}"


# ----------------------------------------------------------------------------- regressions


_LAST_SAVED: list = []


def save_case(desc: dict, args: list, error: BaseException, *, tools: bool) -> Optional[Path]:
    """Write a failing example to ``regressions/case-<hash>.json`` and remove the one this
    process wrote before (Hypothesis replays the shrunk example last, so the file left is
    the minimal one).  ``TILEIR_FUZZ_SAVE=0`` turns saving off."""
    if os.environ.get("TILEIR_FUZZ_SAVE") == "0":
        return None
    case = {
        "description": desc,
        "args": args_json(desc, args),
        "checks": "tools" if tools else "run",
        "error": str(error).splitlines()[0] if str(error) else type(error).__name__,
    }
    text = json.dumps(case, indent=1, sort_keys=True)
    path = REGRESSIONS / f"case-{hashlib.sha256(text.encode()).hexdigest()[:12]}.json"
    REGRESSIONS.mkdir(exist_ok=True)
    while _LAST_SAVED:
        old = _LAST_SAVED.pop()
        if old != path and old.exists():
            old.unlink()
    path.write_text(text + "\n")
    _LAST_SAVED.append(path)
    return path


def load_case(path: Path) -> tuple[dict, list, dict]:
    """``(description, args, the whole case)`` of a saved regression file."""
    case = json.loads(Path(path).read_text())
    desc = case["description"]
    return desc, args_from_json(desc, case["args"]), case
