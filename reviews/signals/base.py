"""What every review signal returns: a score in [0, 1] made of weighted parts, flagged at its
signal's cut, and why.

A signal's score is the weighted mean of its parts' values, each in [0, 1]. A part whose
evidence is missing (no confidence logged, too few unfed tasks to compare, no newer
reflections to read) has no value: it carries no weight, the other parts decide, and the
reasons say so. So that thin evidence cannot reach a flag on its own, the mean is divided by
at least MIN_KNOWN of the whole weight: with less than that known the score shrinks in
proportion. The flag is `score ≥ cut`, one cut per signal (reviews.signals.CUTS).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

# The share of a signal's weight whose evidence must be known for its score to reach the
# weighted mean of the known parts; below it, the score is scaled down (see weighted()).
MIN_KNOWN = 0.6


@dataclass(frozen=True)
class Part:
    """One piece of a signal's evidence: its value in [0, 1], or None when it is missing."""

    name: str
    weight: float
    value: float | None

    @property
    def known(self) -> bool:
        return self.value is not None


def weighted(parts: Sequence[Part]) -> float:
    """Σ weight·value over the known parts ÷ max(their weight, MIN_KNOWN * all the weight)."""
    total = sum(p.weight for p in parts)
    known = sum(p.weight for p in parts if p.known)
    if not known:
        return 0.0
    return sum(p.weight * p.value for p in parts if p.known) / max(known, MIN_KNOWN * total)


def missing_note(parts: Sequence[Part]) -> str | None:
    """The reason that names the parts without evidence, or None when none is missing."""
    missing = [p.name for p in parts if not p.known]
    if not missing:
        return None
    return f"no evidence for {', '.join(missing)}: carries no weight, the other parts decide"


@dataclass(frozen=True)
class Signal:
    name: str  # "echo", "outdated" or "duplicate"
    score: float  # 0 = no evidence, 1 = every part of the mechanism is there
    flagged: bool  # score ≥ cut
    reasons: list[str] = field(default_factory=list)
    keep: str | None = None  # duplicate only: the source path to keep
    cut: float = 0.0
    parts: list[Part] = field(default_factory=list)

    @classmethod
    def scored(
        cls,
        name: str,
        score: float,
        cut: float,
        reasons: list[str],
        parts: Sequence[Part] = (),
        *,
        keep: str | None = None,
    ) -> Signal:
        score = round(clamp(score), 3)
        return cls(name, score, score >= cut, reasons, keep, cut, list(parts))

    @classmethod
    def from_dict(cls, data: dict) -> Signal:
        """A signal as as_dict() or dataclasses.asdict() wrote it (prepared evidence)."""
        return cls(
            name=data["name"],
            score=data["score"],
            flagged=data["flagged"],
            reasons=list(data.get("reasons", [])),
            keep=data.get("keep"),
            cut=data.get("cut", 0.0),
            parts=[Part(**p) for p in data.get("parts", [])],
        )

    def as_dict(self) -> dict:
        data = {
            "score": round(self.score, 3),
            "flagged": self.flagged,
            "cut": self.cut,
            "reasons": self.reasons,
            "parts": [asdict(p) for p in self.parts],
        }
        if self.name == "duplicate":
            data["keep"] = self.keep
        return data


@dataclass(frozen=True)
class RealReading:
    """A signal's flags on real agents' memory that nobody here wrote, against what
    independent readers marked there (corpora/real-runs; docs/signals.md has the runs and
    the command). Nothing is planted in it: the readers' labels are the truth."""

    memory: str  # whose memory, in a few words
    flagged: int
    right: int  # flagged, and both readers marked it
    marked: int  # what both readers marked, among the items scored
    why: str  # what the misses and wrong flags have in common

    def sentence(self) -> str:
        did = f"it flagged {_items(self.flagged)}"
        if self.flagged:
            did += f", {self.right} rightly"
        return (
            f"On {self.memory}, where two independent readers marked {_items(self.marked)}, {did}, "
            f"and found {self.right} of the {self.marked}; {self.why}."
        )


@dataclass(frozen=True)
class HeldOut:
    """How a signal's flag did on corpora written by other people, pooled (docs/signals.md
    has each run and its command): what the cycle page tells a reviewer about how far to
    trust a flag, and the lack of one."""

    corpora: int
    right: int  # flagged and planted
    wrong: int  # flagged, not planted
    missed: int  # planted, not flagged
    real: RealReading | None = None  # its flags on real memory, against readers' labels
    # The lowest AUC of its score among those corpora: how well the score orders the planted
    # items above the rest, whatever the cut (None: not worth saying).
    ranks_from: float | None = None

    @property
    def precision(self) -> float | None:
        flagged = self.right + self.wrong
        return self.right / flagged if flagged else None

    @property
    def recall(self) -> float | None:
        planted = self.right + self.missed
        return self.right / planted if planted else None

    def sentence(self) -> str:
        """One sentence a reviewer reads under the signal's distribution."""
        flagged, planted = self.right + self.wrong, self.right + self.missed
        every = "" if flagged == 1 else "all "
        if not flagged:
            did = "it flagged nothing"
        elif self.right == 0:
            did = f"it flagged {_items(flagged)}, {every}wrongly"
        elif self.wrong == 0:
            did = f"it flagged {_items(flagged)}, {every}rightly"
        else:
            did = f"it flagged {_items(flagged)}, {self.right} rightly ({share(self.precision)})"
        found = f"found {self.right} of the {planted} planted"
        if self.recall is not None:
            found += f" ({share(self.recall)})"
        text = (
            f"On {self.corpora} corpora written by other people, with no weight or cut fitted "
            f"on them, {did}, and {found}."
        )
        if self.recall is not None and self.recall < 0.5:
            text += " A missing flag says little here: read the item's neighbours yourself."
        elif self.ranks_from is not None and self.recall is not None and self.recall < 0.8:
            text += (
                " Its score orders them better than its cut finds them (on each corpus a planted "
                f"item scored above one not planted {self.ranks_from * 100:.0f} times in 100 or "
                "more): sort the queue by this score and read the items just under the cut."
            )
        if self.real is not None:
            text += f" {self.real.sentence()}"
        return text


def _items(n: int) -> str:
    return f"{n} item{'s' if n != 1 else ''}"


def clamp(value: float) -> float:
    return max(0.0, min(1.0, value))


def pct(value: float) -> str:
    """A lift or a gap in points: "+12 pts"."""
    return f"{value * 100:+.0f} pts"


def share(value: float) -> str:
    """A share 0..1 as the product writes one: "19 %" (reflexion_site/templatetags/formats.py)."""
    return f"{value * 100:.0f} %"
