"""Review signals (issue 12): for each item, is it an echo chamber, outdated, a duplicate?

Each signal is a pure scoring function (echo.py, outdated.py, duplicate.py) over facts read
by reviews.selectors.echo_facts and signal_facts; `item_signals` wires them together for one
item and `cycle_signals` for a whole cycle (reading the department's tool history once).
"""

from __future__ import annotations

from dataclasses import dataclass

from reviews.models import ReviewCycle, ReviewItem, Verdict
from reviews.selectors.echo_facts import echo_facts
from reviews.selectors.evidence import Candidate
from reviews.selectors.signal_facts import (
    cluster_of_candidates,
    duplicate_cluster,
    outdated_facts,
    tool_history,
)
from reviews.signals.base import Signal
from reviews.signals.duplicate import CANDIDATE_SIMILARITY, score_duplicate
from reviews.signals.echo import (
    ECHO_SIMILARITY,
    RESTATED_WORDS,
    RESTATEMENT_FLOOR,
    score_echo,
)
from reviews.signals.outdated import score_outdated, successor_candidates

NAMES = ("echo", "outdated", "duplicate")
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


def item_signals(item: ReviewItem, *, history=None) -> ItemSignals:
    history = (
        history
        if history is not None
        else tool_history(item.reflection.department_id, item.cycle.window_end)
    )
    return ItemSignals(
        item=item,
        echo=score_echo(
            echo_facts(
                item,
                similarity=ECHO_SIMILARITY,
                restated=(RESTATEMENT_FLOOR, RESTATED_WORDS),
            )
        ),
        outdated=score_outdated(
            outdated_facts(item, history=history, successors=successor_candidates)
        ),
        duplicate=duplicate_signal(item),
    )


def duplicate_signal(item: ReviewItem, candidates: list[Candidate] | None = None) -> Signal:
    """The duplicate signal alone: it reads the neighbours' current states and retrieval
    counts, so the queue scores it live even when the rest is prepared. One query, none when
    the queue passes the neighbours it has read already (neighbour_candidates)."""
    if candidates is None:
        cluster = duplicate_cluster(item, similarity=CANDIDATE_SIMILARITY)
    else:
        cluster = cluster_of_candidates(item, candidates, similarity=CANDIDATE_SIMILARITY)
    return score_duplicate(cluster)


def cycle_signals(cycle: ReviewCycle) -> list[ItemSignals]:
    """Every item of the cycle, in rank order, with its three signals."""
    history = tool_history(cycle.department_id, cycle.window_end)
    items = cycle.items.select_related("reflection", "cycle").order_by("rank")
    return [item_signals(item, history=history) for item in items]
