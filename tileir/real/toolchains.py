"""What each tested ``tileiras`` release assembles, as data keyed by the release.

tileir pins ``nvidia-cuda-tileiras`` 13.5.37 (:data:`PINNED`) and CI also checks the
sampled gate 1 against 13.4.92 (:data:`SECOND`), because users still have it.  The two
releases read the same bytecode versions up to 13.4 and print the same text for every
golden file, but they disagree on a few architecture facts, measured with both
(docs/launch.md §8):

* f8E4M3FN / f8E5M2 tiles assemble for sm_89 with 13.5.37 (13.4.92: sm_90 and up);
* unicast and multicast pointers (``ptr_attr`` 1 and 2, bytecode 13.5) exist only in
  13.5.37, and only for sm_100, sm_103 and sm_107;
* ``atomic_red_view_tko`` through a view with a padding value is accepted by 13.5.37
  (13.4.92: "views with padding_value are not supported for atomic reductions");
* the ftof conversions neither compiles (``ftof_compiles``) are refused differently: 13.4.92
  says "failed to compile Tile IR program", 13.5.37 dies of SIGILL.

A release that is not in :data:`FACTS` is looked up by its series (``13.5.x`` reads as
13.5.37): NVIDIA keeps such facts within a series, and an unknown series is refused with
the known ones named, never guessed.

>>> facts_for("13.4.92").format_archs["f8E4M3FN"][0]
'sm_90'
>>> facts_for("13.5.40").release
'13.5.37'
>>> archs_needing(("f8E4M3FN", "f8E8M0FNU"))
('sm_100', 'sm_103', 'sm_107', 'sm_110', 'sm_120', 'sm_121')
"""

from __future__ import annotations

from typing import Iterable, Mapping, Optional

import attrs

__all__ = ["ToolchainFacts", "FACTS", "PINNED", "SECOND", "facts_for", "archs_needing"]

#: The release the ``tileiras`` extra and the test extra pin (pyproject.toml).
PINNED = "13.5.37"
#: The older release CI checks too (the sampled gate 1, ``$TILEIR_TOOLS_DIR_13_4``).
SECOND = "13.4.92"

_FP8_FROM_SM90 = ("sm_90", "sm_100", "sm_103", "sm_107", "sm_110", "sm_120", "sm_121")
_SM100_UP = ("sm_100", "sm_103", "sm_107", "sm_110", "sm_120", "sm_121")
_MULTIMEM_ARCHS = ("sm_100", "sm_103", "sm_107")


@attrs.frozen
class ToolchainFacts:
    """What one ``tileiras`` release assembles.

    ``format_archs``: a format (or pointer kind, ``ptr:unicast``) -> the architectures that
    assemble it, for those not every architecture has; a name missing here limits nothing.
    ``absent``: features this release does not know at all (no architecture assembles them).
    """

    release: str
    bytecode_versions: tuple[str, ...]
    format_archs: Mapping[str, tuple[str, ...]]
    absent: frozenset[str] = frozenset()
    atomic_red_padded_view: bool = False
    #: what a refusal of an ftof the verifier takes but the release cannot compile says
    #: (tileir.ir.attr_rules.ftof_compiles lists those conversions)
    ftof_refusal: str = "failed to compile Tile IR program"


FACTS: dict[str, ToolchainFacts] = {
    "13.4.92": ToolchainFacts(
        release="13.4.92",
        bytecode_versions=("13.1", "13.2", "13.3", "13.4"),
        format_archs={
            "f8E4M3FN": _FP8_FROM_SM90,
            "f8E5M2": _FP8_FROM_SM90,
            "f8E8M0FNU": _SM100_UP,
            "f4E2M1FN": _SM100_UP,
            "fnv8E5M3FNU": ("sm_107",),
        },
        absent=frozenset({"ptr:unicast", "ptr:multicast"}),
        atomic_red_padded_view=False,
    ),
    "13.5.37": ToolchainFacts(
        release="13.5.37",
        bytecode_versions=("13.1", "13.2", "13.3", "13.4", "13.5"),
        format_archs={
            "f8E4M3FN": ("sm_89",) + _FP8_FROM_SM90,
            "f8E5M2": ("sm_89",) + _FP8_FROM_SM90,
            "f8E8M0FNU": _SM100_UP,
            "f4E2M1FN": _SM100_UP,
            "fnv8E5M3FNU": ("sm_107",),
            "ptr:unicast": _MULTIMEM_ARCHS,
            "ptr:multicast": _MULTIMEM_ARCHS,
        },
        atomic_red_padded_view=True,
        # [EXP] tileiras 13.5.37 dies of SIGILL on them, printing nothing
        ftof_refusal="(exit -4): no message",
    ),
}


def facts_for(release: str) -> ToolchainFacts:
    """The facts of ``release`` (``"13.5.37"``), or of the known release of its series."""
    if release in FACTS:
        return FACTS[release]
    series = release.split(".")[:2]
    for known, facts in FACTS.items():
        if known.split(".")[:2] == series:
            return facts
    raise ValueError(
        f"tileiras {release} is not a release tileir knows the architecture facts of "
        f"(known: {', '.join(FACTS)}); see docs/launch.md §8"
    )


def archs_needing(needs: Iterable[str], release: str = PINNED) -> Optional[tuple[str, ...]]:
    """The architectures that assemble everything in ``needs`` (format names, pointer kinds)
    with ``release``; None when nothing there limits them.  A feature the release lacks
    gives ``()``: no architecture."""
    facts = facts_for(release)
    allowed: Optional[tuple[str, ...]] = None
    for need in needs:
        if need in facts.absent:
            return ()
        archs = facts.format_archs.get(need)
        if archs is None:
            continue
        allowed = archs if allowed is None else tuple(a for a in allowed if a in archs)
    return allowed
