"""Review signals (issue 12): for each item, is it an echo chamber, outdated, a duplicate?

Each signal is a pure scoring function (echo.py, outdated.py, duplicate.py) over facts read
by reviews.selectors.echo_facts and signal_facts; `item_signals` wires them together for one
item and `cycle_signals` for a whole cycle (reading the department's tool history and its
authors' lessons once: CycleContext).
"""

from __future__ import annotations

from dataclasses import dataclass

from reflections.similarity.backends import Calibration, configured_backend
from reviews.models import ReviewCycle, ReviewItem, Verdict
from reviews.selectors.echo_facts import echo_facts
from reviews.selectors.evidence import Candidate
from reviews.selectors.restatements import LessonCache
from reviews.selectors.signal_facts import (
    ToolHistory,
    cluster_of_candidates,
    duplicate_cluster,
    outdated_facts,
    tool_history,
)
from reviews.signals import duplicate, echo, outdated
from reviews.signals.base import Signal
from reviews.signals.duplicate import score_duplicate
from reviews.signals.echo import RESTATED_WORDS, score_echo
from reviews.signals.outdated import score_outdated, successor_candidates

NAMES = ("echo", "outdated", "duplicate")
# Each signal flags at score ≥ its cut (documented with its weights in its module).
CUTS = {"echo": echo.CUT, "outdated": outdated.CUT, "duplicate": duplicate.CUT}
# How each flag did on memory written by other people (reviews.signals.base.HeldOut).
HELD_OUT = {"echo": echo.HELD_OUT, "outdated": outdated.HELD_OUT, "duplicate": duplicate.HELD_OUT}
VERDICT_FOR = {
    "echo": Verdict.ECHO_CHAMBER,
    "outdated": Verdict.OUTDATED,
    "duplicate": Verdict.DUPLICATE,
}


@dataclass(frozen=True)
class Suggestion:
    verdict: str  # a Verdict value
    confidence: float  # 0-1
    why: str

    @property
    def label(self) -> str:
        return Verdict(self.verdict).label


@dataclass(frozen=True)
class ItemSignals:
    item: ReviewItem
    echo: Signal
    outdated: Signal
    duplicate: Signal

    @property
    def all(self) -> list[Signal]:
        return [self.echo, self.outdated, self.duplicate]

    @property
    def fired(self) -> list[Signal]:
        return [s for s in self.all if s.flagged]

    @property
    def suggestion(self) -> Suggestion:
        """The verdict the signals point to, never pre-selected: the strongest flagged signal,
        or keep with the confidence that nothing fired."""
        if self.fired:
            top = max(self.fired, key=lambda s: s.score)
            return Suggestion(VERDICT_FOR[top.name], top.score, top.reasons[0])
        strongest = max(s.score for s in self.all)
        return Suggestion(Verdict.KEEP, round(1 - strongest, 3), "no signal fired")

    def as_dict(self) -> dict:
        data = {"rank": self.item.rank, "source_path": self.item.reflection.shown_path}
        for signal in self.all:
            data[signal.name] = signal.as_dict()
        return data


def calibration() -> Calibration:
    """What the configured similarity backend's cosines mean (the stored neighbours and
    vectors were made by it: compute_neighbours after changing it)."""
    return configured_backend().calibration


@dataclass(frozen=True)
class CycleContext:
    """What every item of one cycle shares: the department's tool history as of the window's
    end, and its authors' lessons (read once, on first use)."""

    history: ToolHistory
    lessons: LessonCache


def cycle_context(cycle: ReviewCycle) -> CycleContext:
    return CycleContext(tool_history(cycle.department_id, cycle.window_end), LessonCache())


def item_signals(item: ReviewItem, *, context: CycleContext | None = None) -> ItemSignals:
    context = context or cycle_context(item.cycle)
    scale = calibration()
    return ItemSignals(
        item=item,
        echo=score_echo(
            echo_facts(
                item,
                similarity=scale.restated,
                restated=(scale.alike_from, RESTATED_WORDS),
                cache=context.lessons,
            )
        ),
        outdated=score_outdated(
            outdated_facts(item, history=context.history, successors=successor_candidates)
        ),
        duplicate=duplicate_signal(item),
    )


def duplicate_signal(item: ReviewItem, candidates: list[Candidate] | None = None) -> Signal:
    """The duplicate signal alone: it reads the neighbours' current states and retrieval
    counts, so the queue scores it live even when the rest is prepared. One query, none when
    the queue passes the neighbours it has read already (neighbour_candidates)."""
    scale = calibration()
    if candidates is None:
        cluster = duplicate_cluster(item, similarity=scale.alike_from)
    else:
        cluster = cluster_of_candidates(item, candidates, similarity=scale.alike_from)
    return score_duplicate(cluster, scale)


def cycle_signals(cycle: ReviewCycle) -> list[ItemSignals]:
    """Every item of the cycle, in rank order, with its three signals."""
    context = cycle_context(cycle)
    items = cycle.items.select_related("reflection", "cycle").order_by("rank")
    return [item_signals(item, context=context) for item in items]
