"""Gate 2 on a GPU: every golden kernel's cubin agrees with its reference; one ledger row a run.

For each kernel :func:`run_device_gate` records it, runs it on the card (its
bytecode assembled for the card's ``sm_XX``) on the random inputs its spec
makes, and compares every buffer after the launch with the spec's reference:
bit for bit first, then, for float buffers of a kernel that declares one,
within its tolerance.  A kernel is *bit-exact*, *within tolerance* or *failed*
(a difference beyond the tolerance, or an error on the way), and gets one
:class:`~tileir.kernels.gates.GateResult` line.

Then one row is appended to the ledger (``ledger/device.tsv`` at the checkout's
root unless told otherwise; a header line first when the file is new): the
card, its ``sm_XX``, the date (UTC), the CUDA version the driver supports, the
tileiras release that assembled the cubins, pass or fail, the three counts and
the source tree's commit (``+dirty`` with uncommitted changes;
``$TILEIR_SOURCE_COMMIT`` overrides it for a copy of the tree without git).

Without a GPU the device cannot be opened and the
:class:`~tileir.errors.DeviceUnavailableError` saying what is missing is raised
before any kernel runs (the command line prints it as one line).
"""

from __future__ import annotations

import datetime
import os
import subprocess
from pathlib import Path
from typing import Optional, Sequence, Union

import attrs
import numpy as np

from tileir.errors import TileIRError, ToolError
from tileir.fake.compare import first_difference
from tileir.host.launch import block_of_element
from tileir.kernels.gates import GateResult
from tileir.kernels.registry import KernelSpec
from tileir.real import prebuilt, tileiras
from tileir.real.device import RealDevice
from tileir.real.toolchains import PINNED, facts_for

__all__ = [
    "run_device_gate",
    "check_kernel",
    "LedgerRow",
    "LEDGER_COLUMNS",
    "ledger_path",
    "append_ledger",
    "source_commit",
    "EXACT",
    "WITHIN",
    "FAILED",
]

EXACT, WITHIN, FAILED, SKIPPED = "bit-exact", "within tolerance", "failed", "skipped"

#: The ledger's columns, in order (its header line).
LEDGER_COLUMNS = (
    "card",
    "arch",
    "date_utc",
    "cuda_driver",
    "tileiras",
    "result",
    "bit_exact",
    "within_tolerance",
    "failed",
    "commit",
    "skipped",
)

_ROOT = Path(__file__).resolve().parents[2]  # the checkout holding the tileir package
_COMMIT_ENV = "TILEIR_SOURCE_COMMIT"


@attrs.frozen
class LedgerRow:
    """One run of the device gate, as the ledger keeps it."""

    card: str
    arch: str
    date_utc: str
    cuda_driver: str
    tileiras: str
    result: str
    bit_exact: int
    within_tolerance: int
    failed: int
    commit: str
    skipped: int = 0  # kernels whose formats the card lacks

    def cells(self) -> list:
        # Tabs and newlines inside a value would break the table.
        return [" ".join(str(getattr(self, c)).split()) for c in LEDGER_COLUMNS]

    def line(self) -> str:
        return "\t".join(self.cells())


def ledger_path(ledger: Union[str, Path, None] = None) -> Path:
    """The ledger file: ``ledger`` when given, else ``ledger/device.tsv`` at the checkout."""
    return Path(ledger) if ledger is not None else _ROOT / "ledger" / "device.tsv"


def append_ledger(path: Path, row: LedgerRow) -> None:
    """Append ``row`` to the ledger at ``path`` (with the header line when the file is new)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    new = not path.exists() or path.stat().st_size == 0
    with path.open("a", encoding="utf-8") as f:
        if new:
            f.write("\t".join(LEDGER_COLUMNS) + "\n")
        f.write(row.line() + "\n")


def _git(root: Path, *args: str) -> Optional[str]:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def source_commit(root: Optional[Path] = None) -> str:
    """The short commit of the source tree, ``+dirty`` when it has uncommitted changes (the
    ledger folder aside: the gate writes it); ``$TILEIR_SOURCE_COMMIT`` when set; else
    ``unknown``."""
    explicit = os.environ.get(_COMMIT_ENV, "").strip()
    if explicit:
        return explicit
    root = root or _ROOT
    head = _git(root, "rev-parse", "--short", "HEAD")
    if not head:
        return "unknown"
    changes = _git(root, "status", "--porcelain", "--", ".", ":(exclude)ledger")
    return head.strip() + ("+dirty" if changes is None or changes.strip() else "")


def _grid_of(kernel, grid) -> tuple:
    return tuple(grid) if grid is not None else tuple(kernel.grid or (1,))


def check_kernel(device, spec: KernelSpec, seed: int = 0) -> tuple[str, GateResult]:
    """Run ``spec``'s kernel on ``device`` and compare every buffer with the reference: the
    outcome (EXACT, WITHIN or FAILED) and the kernel's gate line."""
    arch = device.arch
    try:
        kernel = spec.kernel()
        inputs, grid = spec.inputs(np.random.default_rng(seed))
        expected = spec.reference([a.copy() if isinstance(a, np.ndarray) else a for a in inputs])
        after = device.run(kernel, *inputs, grid=grid)
    except TileIRError as err:
        return FAILED, GateResult(spec.name, False, str(err).replace("\n", " / "))
    outcome, note = EXACT, ""
    for p, got, want in zip(kernel.params, after, expected):
        if p.role == "Scalar":
            continue
        got = np.asarray(got).reshape(-1)
        want = np.asarray(want).reshape(-1).astype(got.dtype)
        exact = first_difference(got, want, None)
        if exact is None:
            continue
        tol = spec.tolerance if p.format.is_float else None
        diff = exact if tol is None else first_difference(got, want, tol)
        if diff is not None:
            block = block_of_element(kernel, p.index, diff.index, _grid_of(kernel, grid))
            where = f"block {list(block)}" if block is not None else "no cell (Shared)"
            bound = "bit-exact" if tol is None else str(tol)
            return FAILED, GateResult(
                spec.name,
                False,
                (
                    f"argument {p.index} ({p.role}) differs from the reference at element "
                    f"{diff.index} ({where}) on {arch}: the GPU gives {diff.got!r} and the "
                    f"reference {diff.expected!r} ({bound}); {diff.count} element(s) differ"
                ),
            )
        outcome = WITHIN
        note = note or f"; argument {p.index} first differs at element {exact.index}"
    if outcome == EXACT:
        return EXACT, GateResult(spec.name, True, f"bit-exact with the reference on {arch}")
    return WITHIN, GateResult(
        spec.name, True, f"within {spec.tolerance} of the reference on {arch}{note}"
    )


def _tileiras(device) -> str:

    versions = sorted({prebuilt.tileiras_version(t) or t for t in device.toolchains})
    if versions:
        return ", ".join(versions)
    try:
        return tileiras.tool_version()
    except ToolError:
        return "unknown"


def _cuda_version(version: int) -> str:
    return f"{version // 1000}.{version % 1000 // 10}"


def _release() -> str:
    """The tileiras release whose architecture facts decide what runs here: the installed
    one when tileir knows its facts, else the pinned one (prebuilt cubins, no tileiras)."""
    try:
        release = tileiras.tool_version()
        facts_for(release)
    except (ToolError, ValueError):
        return PINNED
    return release


def _skip(spec: KernelSpec, arch: str, release: str = PINNED):
    """A kernel whose formats this card lacks with ``release`` (``spec.archs_on``) is not
    run, and says so."""
    archs = spec.archs_on(release)
    if archs is None or arch in archs:
        return None
    return SKIPPED, GateResult(
        spec.name,
        True,
        f"not run: its formats need {' or '.join(archs)} with tileiras {release}, "
        f"the card is {arch}",
    )


def run_device_gate(
    specs: Sequence[KernelSpec],
    ledger: Union[str, Path, None] = None,
    *,
    device=None,
    seed: int = 0,
) -> list:
    """Run gate 2 on a GPU over ``specs``: a GateResult per kernel, and one ledger row.

    ``device`` is a :class:`~tileir.real.RealDevice` (default: GPU #0, closed at the
    end); ``ledger`` the file to append (default :func:`ledger_path`).  Raises
    DeviceUnavailableError, before running anything, when there is no GPU.
    """
    own = device is None
    device = RealDevice() if own else device
    try:
        device.open()
        # The card's facts before any kernel: a failed kernel can break the context.
        card, arch, driver = device.card_name, device.arch, device.driver_version
        release = _release()
        outcomes = [
            _skip(spec, arch, release) or check_kernel(device, spec, seed) for spec in specs
        ]
        counts = {
            k: sum(1 for o, _ in outcomes if o == k) for k in (EXACT, WITHIN, FAILED, SKIPPED)
        }
        row = LedgerRow(
            card=card,
            arch=arch,
            date_utc=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            cuda_driver=_cuda_version(driver),
            tileiras=_tileiras(device),
            result="pass" if outcomes and not counts[FAILED] else "fail",
            bit_exact=counts[EXACT],
            within_tolerance=counts[WITHIN],
            failed=counts[FAILED],
            commit=source_commit(),
            skipped=counts[SKIPPED],
        )
        append_ledger(ledger_path(ledger), row)
        return [result for _, result in outcomes]
    finally:
        if own:
            try:
                device.close()
            except TileIRError:
                pass  # a context broken by a failed kernel: its error is in the results
