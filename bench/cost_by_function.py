"""Where one cold record + lower + encode's cache misses fall, Python function by function.

``cost_model.py`` counts a whole call; this splits one call of one kernel (after a full
collection, as ``record_encode.py`` times it) into segments at every Python call and return
and every call of a C function, and prints the simulated L2 misses of each segment summed by
the Python function running in it (``C:name@caller`` for a C function's own segment): which
function's first run in a call brings its code and data back from memory.  It is how the
thirteenth session found C routines a recording ran for one use only (``str.startswith`` for an
attribute's kind, ``frozenset.issuperset``, the star-and-keyword call of ``record``).

How: a profile function (``sys.setprofile``) asks callgrind, through its client requests, to
dump its counters at every event, with collection off while the profile function itself runs;
a small C helper (``gcc``, and valgrind's ``callgrind.h``) makes the requests.  Read it with
its distortions in mind:

* under a profile function CPython 3.11 runs every instruction in its generic form (no
  specialization), so each attribute or global load looks its name up in a dict: the data
  misses (``dr``) of functions with many such loads are overstated, and the total is about a
  fifth above ``cost_model.py``'s; the instruction misses (``i``) of a C routine that one
  function alone reaches are the reliable reading;
* the first function of a call to use a common C routine (a dict insertion, an int's
  arithmetic) pays its instruction misses, whoever it is: move that use and another function
  pays them (``cost_model.py`` says whether a change saved anything);
* the C functions the profiling itself runs (line tables, ctypes) are left out of every sum.

    python bench/cost_by_function.py KERNEL [--tree TREE] [--top 50] [--within LABEL]

``KERNEL`` is a chapter kernel or ``copy`` (``record_encode.py``'s fixed cost); ``--within``
lists the C functions inside the segments of the labels that contain LABEL.  Needs valgrind and
gcc (Debian: ``apt-get install valgrind gcc``); about a minute per kernel.  A script, never a
timed test (tests/bench/test_bench_smoke.py checks its parsing).
"""

from __future__ import annotations

import argparse
import collections
import gc
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator

if __package__ in (None, ""):  # run as a script from a checkout: find bench/
    sys.path.append(str(Path(__file__).resolve().parents[1]))

#: the events of a callgrind run with the cache simulator, in its output's order
EVENTS = ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw")
#: C functions the profiling itself runs (CPython's line tables for the profile events,
#: ctypes' calls of the helper): left out of every sum
PROFILER_OWN = (
    "_PyCode_CreateLineArray",
    "advance",
    "call_trace",
    "_PyCode_InitAddressRange",
    "PyCode_Addr2Line",
    "_PyLineTable",
    "profile_trampoline",
    "PyFrame_GetLineNumber",
    "retreat",
    "ffi_",
    "_ctypes",
    "PyCFuncPtr",
    "_call_function_pointer",
    "ConvParam",
    "GetResult",
    "PyCData",
    "CDataType",
    "cg_dump",
    "cg_toggle",
)
_HELPER_C = """#include <valgrind/callgrind.h>
void cg_dump(const char *s) { CALLGRIND_DUMP_STATS_AT(s); }
void cg_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
"""


def _label(code) -> str:
    name = code.co_filename.replace("<attrs generated methods ", "<")
    root = str(Path(__file__).resolve().parents[1]) + os.sep
    return name.replace(root, "") + ":" + code.co_name


def worker(kernel: str, helper: str) -> int:
    """One warm-up, a full collection, then one call of ``kernel`` segmented for callgrind."""
    import ctypes

    from bench import record_encode

    record_encode.cutile_twins()  # (its heap too, as the judge's process has it)
    lib = ctypes.CDLL(helper)
    dump, toggle = lib.cg_dump, lib.cg_toggle
    dump.argtypes = [ctypes.c_char_p]
    call = record_encode.tileir_path(kernel, "13.4", True)
    for _ in range(12):  # (past CPython 3.11's specializing, on a function's 8th call)
        call()
    target = call.__code__
    owner = [b""]
    active: list = [None]

    def profile(frame, event, arg):
        if active[0] is None:  # waiting for the timed call to start
            if event == "call" and frame.f_code is target:
                active[0] = frame
                owner[0] = _label(frame.f_code).encode()
                toggle()  # collection on
            return
        toggle()  # off while this runs
        dump(owner[0])
        if event == "return" and frame is active[0]:
            sys.setprofile(None)
            return  # (collection stays off)
        if event == "call":
            owner[0] = _label(frame.f_code).encode()
        elif event == "return":
            back = frame.f_back
            owner[0] = _label(back.f_code).encode() if back is not None else b"<top>"
        elif event == "c_call":
            what = getattr(arg, "__qualname__", str(arg))
            owner[0] = f"C:{what}@{_label(frame.f_code)}".encode()
        else:  # c_return, c_exception: back in the caller
            owner[0] = _label(frame.f_code).encode()
        toggle()

    gc.disable()
    gc.collect()
    sys.setprofile(profile)
    call()
    sys.setprofile(None)
    return 0


def parse_part(text: str) -> tuple[str, dict[str, list[int]]]:
    """One dump part of a callgrind output: its label (the client request's) and the self
    cost of each C function in it, per event of :data:`EVENTS` (calls' inclusive lines are
    skipped; compressed names ``(n) name`` resolved)."""
    found = re.search(r"^desc: Trigger: Client Request: (.*)$", text, re.M)
    label = found.group(1) if found else ""
    names: dict[str, str] = {}
    costs: dict[str, list[int]] = collections.defaultdict(lambda: [0] * len(EVENTS))
    fn, skip = "", False
    for line in text.splitlines():
        if line.startswith(("fn=", "cfn=")):
            m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
            if m is None:
                name = line.split("=", 1)[1]
            else:
                if m.group(2):
                    names[m.group(1)] = m.group(2)
                name = names.get(m.group(1), m.group(1))
            if line.startswith("fn="):
                fn = name
            continue
        if line.startswith("calls="):
            skip = True  # the next cost line is the call's inclusive cost
            continue
        if line[:1].isdigit() or line[:1] in ("+", "-", "*"):
            if skip:
                skip = False
                continue
            row = costs[fn]
            for i, v in enumerate(line.split()[1:]):
                row[i] += int(v)
    return label, costs


def _parts(folder: str) -> Iterator[tuple[str, dict[str, list[int]]]]:
    for path in sorted(glob.glob(os.path.join(folder, "cg.out*"))):
        with open(path, errors="replace") as f:
            yield parse_part(f.read())


def misses(row: list[int]) -> int:
    """L2 misses of a cost row: instruction, data read and data write."""
    return row[6] + row[7] + row[8]


def by_label(parts) -> dict[str, list[int]]:
    """Each label's summed cost, less the profiler's own C functions."""
    total: dict[str, list[int]] = collections.defaultdict(lambda: [0] * len(EVENTS))
    for label, costs in parts:
        row = total[label]
        for fn, cost in costs.items():
            if fn.startswith(PROFILER_OWN):
                continue
            for i, v in enumerate(cost):
                row[i] += v
    return total


def report(total: dict[str, list[int]], top: int) -> str:
    every = sum(misses(r) for r in total.values()) or 1
    sums = [sum(r[i] for r in total.values()) for i in (6, 7, 8)]
    lines = [f"L2 misses {every} (i {sums[0]}, dr {sums[1]}, dw {sums[2]}) in {len(total)} labels"]
    for label, row in sorted(total.items(), key=lambda kv: -misses(kv[1]))[:top]:
        lines.append(
            f"{misses(row):6d} {100 * misses(row) / every:5.1f}%  i {row[6]:4d}  dr {row[7]:4d}"
            f"  dw {row[8]:4d}  {label}"
        )
    return "\n".join(lines)


def within(parts, wanted: str, top: int) -> str:
    """The C functions inside the segments whose label holds ``wanted``."""
    costs: dict[str, list[int]] = collections.defaultdict(lambda: [0] * len(EVENTS))
    for label, part in parts:
        if wanted in label:
            for fn, cost in part.items():
                for i, v in enumerate(cost):
                    costs[fn][i] += v
    rows = sorted(costs.items(), key=lambda kv: -misses(kv[1]))[:top]
    return "\n".join(f"i {r[6]:4d}  dr {r[7]:4d}  dw {r[8]:4d}  {fn}" for fn, r in rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kernel")
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--top", type=int, default=50)
    parser.add_argument("--within", default=None)
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.kernel, args.worker)
    for tool in ("valgrind", "gcc"):
        if shutil.which(tool) is None:
            print(f"{tool} is not on PATH (Debian: apt-get install {tool})", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory() as tmp:
        source, helper = os.path.join(tmp, "cg.c"), os.path.join(tmp, "libcg.so")
        Path(source).write_text(_HELPER_C)
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", helper, source], check=True)
        env = dict(os.environ, PYTHONPATH=args.tree, PYTHONHASHSEED="0")
        command = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
            "--collect-atstart=no", "--cache-sim=yes", "--LL=1048576,16,64",
            sys.executable, str(Path(__file__).resolve()), args.kernel, "--worker", helper,
        ]  # fmt: skip
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            print(done.stderr[-2000:], file=sys.stderr)
            return done.returncode
        parts = list(_parts(tmp))
    print(f"{args.kernel}, one call after a full collection (tree {args.tree})")
    print(report(by_label(parts), args.top))
    if args.within:
        print(f"\nC functions inside {args.within!r}:")
        print(within(parts, args.within, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
