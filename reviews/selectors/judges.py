"""A judge measured against people (machine pre-tags): Cohen's κ between the judge's suggested
verdict and the reviewers' final verdict on the same review items, the confusion matrix, and
the judge's accuracy by confidence band — at what confidence can it be trusted?"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import OuterRef, Subquery

from reflections.services.batches import quote_value
from reflexion_site.kappa import cohen_kappa
from reviews.models import Judgement, ReviewCycle, ReviewItem, Verdict

VERDICTS = [Verdict.KEEP, Verdict.ECHO_CHAMBER, Verdict.OUTDATED, Verdict.DUPLICATE]
# Confidence bands, [low, high); the last one includes 1.
BANDS = [(0.0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 1.0)]


def nominal_kappa(judge: list[str], people: list[str]) -> float | None:
    """Cohen's unweighted κ over the four verdicts; None when undefined (no pairs, or both
    sides gave a single verdict throughout)."""
    return cohen_kappa(judge, people, labels=[v.value for v in VERDICTS])


@dataclass(frozen=True)
class Band:
    low: float
    high: float
    items: int
    agreed: int

    @property
    def label(self) -> str:
        closing = "]" if self.high >= 1 else ")"
        return f"[{self.low:.1f}, {self.high:.1f}{closing}"

    @property
    def accuracy(self) -> float | None:
        return self.agreed / self.items if self.items else None


@dataclass
class JudgeAgreement:
    judge: str
    cycle_id: int | None
    pairs: list[tuple[str, str, float]] = field(default_factory=list)  # judge, people, conf

    @property
    def items(self) -> int:
        return len(self.pairs)

    @property
    def kappa(self) -> float | None:
        return nominal_kappa([j for j, _, _ in self.pairs], [p for _, p, _ in self.pairs])

    @property
    def accuracy(self) -> float | None:
        return sum(j == p for j, p, _ in self.pairs) / self.items if self.items else None

    def matrix(self) -> list[list[int]]:
        """Rows: the judge's verdict; columns: the people's, both in VERDICTS order."""
        index = {v.value: i for i, v in enumerate(VERDICTS)}
        cells = [[0] * len(VERDICTS) for _ in VERDICTS]
        for j, p, _ in self.pairs:
            cells[index[j]][index[p]] += 1
        return cells

    def bands(self) -> list[Band]:
        found = []
        for low, high in BANDS:
            inside = [
                (j, p) for j, p, c in self.pairs if low <= c < high or (high >= 1 and c == high)
            ]
            found.append(Band(low, high, len(inside), sum(j == p for j, p in inside)))
        return found

    def as_dict(self) -> dict:
        return {
            "judge": self.judge,
            "cycle": self.cycle_id,
            "items": self.items,
            "kappa": self.kappa,
            "accuracy": self.accuracy,
            "labels": [v.value for v in VERDICTS],
            "confusion_matrix": {
                "rows": "judge",
                "columns": "people",
                "cells": self.matrix(),
            },
            "bands": [
                {
                    "band": b.label,
                    "low": b.low,
                    "high": b.high,
                    "items": b.items,
                    "agreed": b.agreed,
                    "accuracy": b.accuracy,
                }
                for b in self.bands()
            ],
        }


def judges() -> list[str]:
    return list(Judgement.objects.order_by("judge").values_list("judge", flat=True).distinct())


def judge_agreement(*, judge: str, cycle_id: int | None = None, cycles=None) -> JudgeAgreement:
    """Every review item with a final verdict whose reflection the judge tagged: one pair.
    `cycles`, when given, limits the items to those cycles (the pages pass what a person may
    see)."""
    tagged = Judgement.objects.filter(judge=judge, reflection_id=OuterRef("reflection_id"))
    items = ReviewItem.objects.exclude(verdict="").annotate(
        judged=Subquery(tagged.values("verdict")[:1]),
        confidence=Subquery(tagged.values("confidence")[:1]),
    )
    if cycle_id is not None:
        items = items.filter(cycle_id=cycle_id)
    if cycles is not None:
        items = items.filter(cycle__in=cycles)
    rows = items.filter(judged__isnull=False).order_by("cycle_id", "rank")
    result = JudgeAgreement(judge=judge, cycle_id=cycle_id)
    result.pairs = [(r.judged, r.verdict, r.confidence) for r in rows]
    return result


def suggestions_for(reflection_id: int) -> list[Judgement]:
    """What the judges suggest for one reflection (the queue shows it, never pre-selects it)."""
    return list(
        Judgement.objects.filter(reflection_id=reflection_id)
        .select_related("duplicate_of")
        .order_by("-confidence", "judge")
    )


def _share(value: float | None) -> str:
    return "undefined" if value is None else f"{100 * value:.0f} %"


def judge_lines(result: JudgeAgreement) -> list[str]:
    """The plain-text report `manage.py agreement --judge` prints."""
    scope = f"cycle {result.cycle_id}" if result.cycle_id is not None else "every cycle"
    kappa = "undefined" if result.kappa is None else f"{result.kappa:.3f}"
    lines = [
        f"Judge {result.judge} against reviewers' final verdicts, {scope}: {result.items} items",
        f"Cohen's κ (nominal, 4 verdicts) = {kappa}; accuracy {_share(result.accuracy)}",
        "",
        "Confusion matrix (rows: judge, columns: people)",
    ]
    labels = [v.value for v in VERDICTS]
    width = max(len(v) for v in labels)
    lines.append("  " + " " * width + "  " + "  ".join(v.rjust(width) for v in labels))
    for label, row in zip(labels, result.matrix(), strict=True):
        lines.append("  " + label.ljust(width) + "  " + "  ".join(str(n).rjust(width) for n in row))
    lines += ["", "Accuracy by confidence band"]
    for band in result.bands():
        lines.append(
            f"  {band.label:<12} {band.items:>5} items  {band.agreed:>5} agreed  "
            f"{_share(band.accuracy)}"
        )
    return lines


class JudgeReport:
    def __init__(self, result: JudgeAgreement):
        self.result = result

    def as_dict(self) -> dict:
        return self.result.as_dict()

    def lines(self) -> list[str]:
        return judge_lines(self.result)


def judge_report(*, judge: str, cycle_id: int | None = None) -> JudgeReport:
    """Raises LookupError naming what is unknown (the judge, the cycle)."""
    if not Judgement.objects.filter(judge=judge).exists():
        raise LookupError(f"no judgements by {quote_value(judge)}")
    if cycle_id is not None and not ReviewCycle.objects.filter(pk=cycle_id).exists():
        raise LookupError(f"no review cycle {cycle_id}")
    return JudgeReport(judge_agreement(judge=judge, cycle_id=cycle_id))
