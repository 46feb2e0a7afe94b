"""The cycle's item list with its signals and lift, for filtering and sorting (issue 12).

Scoring a whole cycle reads every item's facts (about ten queries an item), so the scores are
cached per cycle for an hour: the list can be filtered and re-sorted freely after the first
look. A re-import or new neighbours show up when the hour is over.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from django.core.cache import cache

from reviews.models import ReviewCycle, ReviewItem
from reviews.selectors.evidence import injection_lift
from reviews.signals import CUTS, HELD_OUT, NAMES, cycle_context, item_signals
from reviews.signals.base import HeldOut

CACHE_SECONDS = 3600
SORTS = {
    "rank": "rank",
    "lift": "lift (worst first)",
    "echo": "echo score",
    "outdated": "outdated score",
    "duplicate": "duplicate score",
}
SIGNAL_FILTERS = {"any": "any signal", "none": "no signal", **{n: n for n in NAMES}}


@dataclass(frozen=True)
class Score:
    value: float
    flagged: bool


@dataclass(frozen=True)
class Row:
    item: ReviewItem
    scores: dict[str, float]
    flagged: list[str]  # names of the signals that fire
    lift: float | None

    @property
    def ordered_scores(self) -> list[Score]:
        """The signals' scores in NAMES order, each with whether it reaches its cut."""
        return [Score(self.scores[name], name in self.flagged) for name in NAMES]


def _scored(cycle: ReviewCycle) -> dict[int, dict]:
    key = f"review-signals:{cycle.pk}:{cycle.window_end.isoformat()}"
    found = cache.get(key)
    if found is not None:
        return found
    context = cycle_context(cycle)
    found = {}
    for item in cycle.items.select_related("reflection", "cycle"):
        signals = item_signals(item, context=context)
        found[item.pk] = {
            "scores": {s.name: s.score for s in signals.all},
            "flagged": [s.name for s in signals.fired],
            "lift": injection_lift(item).lift,
        }
    cache.set(key, found, CACHE_SECONDS)
    return found


def signal_rows(
    cycle: ReviewCycle, items, *, signal: str = "", verdict: str = "", sort: str = "rank"
) -> list[Row]:
    """`items` (already limited to what the user may see) with their signals, filtered by
    signal (a name, "any" or "none") and verdict (a verdict, or "open"), sorted."""
    scored = _scored(cycle)
    rows = []
    for item in items:
        data = scored.get(
            item.pk, {"scores": dict.fromkeys(NAMES, 0.0), "flagged": [], "lift": None}
        )
        rows.append(Row(item, data["scores"], data["flagged"], data["lift"]))
    if signal == "any":
        rows = [r for r in rows if r.flagged]
    elif signal == "none":
        rows = [r for r in rows if not r.flagged]
    elif signal in NAMES:
        rows = [r for r in rows if signal in r.flagged]
    if verdict == "open":
        rows = [r for r in rows if not r.item.verdict]
    elif verdict:
        rows = [r for r in rows if r.item.verdict == verdict]
    if sort == "lift":  # worst first, unknown last
        rows.sort(key=lambda r: (r.lift is None, r.lift if r.lift is not None else 0, r.item.rank))
    elif sort in NAMES:
        rows.sort(key=lambda r: (-r.scores[sort], r.item.rank))
    return rows


@dataclass(frozen=True)
class Distribution:
    """One signal's scores over the items a user sees, and the cut that flags them."""

    name: str
    cut: float
    scores: list[float]
    spec: dict  # Vega-Lite (reviews.charts.score_distribution)
    held_out: HeldOut | None = None  # how the flag did on other authors' memory

    @property
    def flagged(self) -> int:
        return sum(1 for s in self.scores if s >= self.cut)

    @property
    def median(self) -> float | None:
        return statistics.median(self.scores) if self.scores else None

    @property
    def highest(self) -> float | None:
        return max(self.scores) if self.scores else None

    @property
    def bins(self) -> list[tuple[float, float, int, int]]:
        from reviews.charts import histogram

        return histogram(self.scores, self.cut)


def score_distributions(cycle: ReviewCycle, items) -> list[Distribution]:
    """Each signal's score distribution over `items` (those the user may see)."""
    from reviews.charts import score_distribution

    scored = _scored(cycle)
    rows = [scored[item.pk]["scores"] for item in items if item.pk in scored]
    found = []
    for name in NAMES:
        scores = [row[name] for row in rows]
        found.append(
            Distribution(
                name,
                CUTS[name],
                scores,
                score_distribution(name, scores, CUTS[name]),
                HELD_OUT[name],
            )
        )
    return found


def scores_by_rank(cycle: ReviewCycle, name: str) -> dict[int, float]:
    """rank → the item's score on one signal, for ordering a queue by it."""
    scored = _scored(cycle)
    return {
        rank: scored[pk]["scores"][name]
        for pk, rank in cycle.items.values_list("pk", "rank")
        if pk in scored
    }
