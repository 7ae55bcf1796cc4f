"""What the kernel fuzzer checks on one drawn kernel, its inputs, and its regression files.

:func:`check_description` records a description's kernel and checks, in order:
it records; its text renders; ``tileir.verify.verify`` passes; its bytecode
decodes back to the same Module (and renders the same text); the fake device's
result equals the oracle's (``fuzz_oracle``) wherever the oracle pins it down;
the Ins are left as they were; and, with ``tools=True``, ``tileirdisasm`` prints
the same text (SSA names aside) and ``tileiras`` assembles it for sm_90.

A failing check raises :class:`FuzzFailure` whose message holds the description
as JSON, the kernel's text and the first differing element.  :func:`save_case`
writes a failing example to ``regressions/`` (the test keeps only the last,
shrunk one of a run) and :func:`load_case` reads one back for the replay test.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path
from typing import Optional

import numpy as np
from hypothesis import strategies as st

from fuzz_build import build
from fuzz_kernels import INTS
from fuzz_numerics import dtype_of, is_float, max_finite
from fuzz_oracle import compare_out, evaluate, grid_of
from tileir import trace
from tileir.encode import canonicalize, decode
from tileir.fake import FakeDevice
from tileir.lower.render import render
from tileir.lower.textcompare import normalize_ssa
from tileir.verify import verify

__all__ = ["FuzzFailure", "check_description", "launch_args", "save_case", "load_case",
           "REGRESSIONS", "Outcome"]

REGRESSIONS = Path(__file__).parent / "regressions"
ARCH = "sm_90"
_NAME = "fuzzed"


class FuzzFailure(AssertionError):
    """A drawn kernel failed one of the fuzzer's checks."""


class Outcome:
    """What one check saw (for statistics): lanes compared, lanes left open."""

    def __init__(self, compared: int, total: int):
        self.compared, self.total = compared, total


# ----------------------------------------------------------------------------- inputs


def _specials(fmt: str) -> list:
    if is_float(fmt):
        tiny = {"f16": 2.0 ** -24, "bf16": 2.0 ** -133, "f32": 2.0 ** -149, "f64": 5e-324}[fmt]
        return [math.nan, math.inf, -math.inf, -0.0, max_finite(fmt), -tiny, 1.0]
    bits = int(fmt[1:])
    return [-(1 << (bits - 1)), (1 << (bits - 1)) - 1, 0, -1]


def _values(fmt: str, kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if is_float(fmt):
        if kind == "small":
            x = rng.integers(-8, 9, size=n) / 2.0
        elif kind == "uniform":
            x = rng.uniform(-10, 10, size=n)
        else:
            x = rng.choice([-1.0, 1.0], size=n) * 10.0 ** rng.uniform(-8, 8, size=n)
            x = np.clip(x, -max_finite(fmt), max_finite(fmt))
        return x.astype(dtype_of(fmt)) if fmt != "bf16" else \
            x.astype(np.float32).astype(dtype_of(fmt))
    bits = int(fmt[1:])
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if kind == "small":
        return rng.integers(-8, 9, size=n).astype(dtype_of(fmt))
    if kind == "uniform":
        return rng.integers(lo, hi, size=n, endpoint=True).astype(dtype_of(fmt))
    return (rng.choice([-1, 1], size=n) * (1 << rng.integers(0, bits - 1, size=n))
            ).astype(dtype_of(fmt))


@st.composite
def launch_args(draw, desc: dict) -> list:
    """Inputs for a description: per buffer a drawn kind of values (small halves, uniform,
    wide magnitudes), a drawn seed and up to three drawn special values at drawn places; a
    Scalar from a small drawn set.  Few draws per example, so many kernels run per second."""
    args = []
    for i, p in enumerate(desc["params"]):
        fmt = p["format"]
        if p["role"] == "Scalar":
            v = draw(st.sampled_from([0, 1, -1, 2, 3, -4] + _specials(fmt)),
                     label=f"scalar {i}")
            args.append(np.asarray(v).astype(dtype_of(fmt))[()] if is_float(fmt) else
                        np.asarray(int(v)).astype(dtype_of(fmt))[()])
            continue
        n = int(np.prod(p["extent"]))
        kind = draw(st.sampled_from(["small", "uniform", "wide"]), label=f"values {i}")
        seed = draw(st.integers(0, 2**32 - 1), label=f"seed {i}")
        x = _values(fmt, kind, n, np.random.default_rng(seed))
        for at, v in draw(st.lists(st.tuples(st.integers(0, n - 1),
                                             st.sampled_from(_specials(fmt))), max_size=3),
                          label=f"specials {i}"):
            x[at] = np.asarray(v).astype(np.float32 if fmt == "bf16" else dtype_of(fmt))
        args.append(x)
    return args


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
        raise _fail("tileirdisasm prints other text than render (SSA names aside)", desc, text,
                    "tileirdisasm:\n" + shown)
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
        raise _fail("decode(encode(m)) != m" + (" (but equals canonicalize(m))" if same_canon
                                                else ""), desc, text,
                    "decoded:\n" + render(back))
    if normalize_ssa(render(back)) != normalize_ssa(text):
        raise _fail("the decoded module renders other text", desc, text, render(back))
    try:
        got = FakeDevice(mode="interpret").run(kernel, *args)
    except Exception as err:
        raise _fail(f"the fake device failed: {type(err).__name__}: {err}", desc, text) from err
    for i, (p, a, g) in enumerate(zip(desc["params"], args, got)):
        if p["role"] == "In" and not np.array_equal(np.asarray(a).view(np.uint8),
                                                    np.asarray(g).view(np.uint8)):
            raise _fail(f"In parameter {i} was changed by the launch", desc, text)
    expected, err = evaluate(desc, args)
    bad, count, compared = compare_out(got[-1], expected, err)
    if bad is not None:
        out = desc["params"][-1]
        at = tuple(int(v) for v in np.unravel_index(bad, out["extent"]))
        block = [a // t for a, t in zip(at, out["tile"])]
        raise _fail(
            "the fake device disagrees with the oracle", desc, text,
            f"Out element {bad} = {at}, block {block} of grid {list(grid_of(desc))}: the "
            f"device gives {np.asarray(got[-1]).reshape(-1)[bad]!r}, the oracle "
            f"{expected[bad]!r} (bound {err[bad]!r}); {count} of {compared} compared "
            f"element(s) differ\ninputs: {json.dumps(_args_json(desc, args))}")
    if tools:
        _tools(desc, kernel, text)
    return Outcome(compared, int(expected.size))


# ----------------------------------------------------------------------------- regressions


def _args_json(desc: dict, args: list) -> list:
    out = []
    for p, a in zip(desc["params"], args):
        arr = np.asarray(a)
        if p["format"] in INTS or p["format"] == "i1":
            out.append([int(v) for v in arr.reshape(-1)] if arr.ndim else int(arr))
        else:
            vals = arr.astype(np.float64)
            out.append([float(v) for v in vals.reshape(-1)] if arr.ndim else float(vals))
    return out


def _args_from_json(desc: dict, raw: list) -> list:
    args = []
    for p, a in zip(desc["params"], raw):
        dt = dtype_of(p["format"])
        if p["role"] == "Scalar":
            args.append(np.asarray(a, dtype=np.float64 if is_float(p["format"]) else np.int64)
                        .astype(dt)[()])
        else:
            src = np.asarray(a, dtype=np.float64 if is_float(p["format"]) else np.int64)
            args.append(src.astype(np.float32).astype(dt) if p["format"] == "bf16"
                        else src.astype(dt))
    return args


_LAST_SAVED: list = []


def save_case(desc: dict, args: list, error: BaseException, *, tools: bool) -> Optional[Path]:
    """Write a failing example to ``regressions/case-<hash>.json`` and remove the one this
    process wrote before (Hypothesis replays the shrunk example last, so the file left is
    the minimal one).  ``TILEIR_FUZZ_SAVE=0`` turns saving off."""
    if os.environ.get("TILEIR_FUZZ_SAVE") == "0":
        return None
    case = {"description": desc, "args": _args_json(desc, args),
            "checks": "tools" if tools else "run",
            "error": str(error).splitlines()[0] if str(error) else type(error).__name__}
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
    return desc, _args_from_json(desc, case["args"]), case
