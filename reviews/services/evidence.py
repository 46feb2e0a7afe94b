"""Prepared evidence (issue 14): an item's window-bound evidence computed for the whole cycle
when it opens and stored with the item (reviews.models.PreparedEvidence), so a queue step
reads one row instead of scoring the item again.

What is stored can only change when events inside the (past) window are imported late or
the neighbours are recomputed: it is stamped with the WINDOWS data version (reflections.caching;
imports and recounts move it with EVENTS, verdicts and releases do not) and a digest of the code
that computed it. A stale or
missing row is recomputed for that item, stored and used: never wrong, only slower. Stored too,
so that a queue step computes nothing: the duplicate guard's window figures (retrievals and lift)
for the item and each neighbour it shows, and each neighbour's word diff against the item (used
only for the very texts it was made of). Live facts stay live: the item's and its neighbours'
current state, the duplicate signal (it reads them), the verdict, the discussion.
"""

from __future__ import annotations

import hashlib
import inspect
from dataclasses import asdict, dataclass, field
from datetime import date
from functools import cache

from django.utils import timezone

from reflections import lift as lift_module
from reflections import tool_names as tool_names_module
from reflections.caching import WINDOWS, data_version
from reflections.lift import Lift
from reflections.similarity import backends as backends_module
from reflections.similarity import text as text_module
from reviews import signals as signals_module
from reviews.models import PreparedEvidence, ReviewCycle, ReviewItem
from reviews.selectors import evidence as evidence_module
from reviews.selectors import originals as originals_module
from reviews.selectors import restatements as restatements_module
from reviews.selectors import signal_facts as facts_module
from reviews.selectors.evidence import (
    ItemEvidence,
    PreparedDiff,
    RetrievalSeries,
    Retriever,
    Retrievers,
    WeekCount,
    lifts_by_reflection,
    neighbour_candidates,
    prepared_diffs,
    retrievers_by_reflection,
    series_by_reflection,
)
from reviews.selectors.originals import Figures, window_figures
from reviews.signals import ItemSignals, cycle_context, duplicate_signal, item_signals
from reviews.signals import base as base_module
from reviews.signals import echo as echo_module
from reviews.signals import outdated as outdated_module
from reviews.signals.base import Signal

# The code whose output is stored: a deploy that changes any of it makes old rows stale.
COMPUTED_BY = (
    evidence_module,
    facts_module,
    signals_module,
    base_module,
    echo_module,
    outdated_module,
    lift_module,
    originals_module,
    restatements_module,
    text_module,
    backends_module,
    tool_names_module,
)


@cache
def code_version() -> str:
    digest = hashlib.sha256()
    for module in COMPUTED_BY:
        digest.update(inspect.getsource(module).encode())
    return digest.hexdigest()[:12]


def evidence_version() -> str:
    """What a stored row must carry to be used: the past windows' data version (moved by every
    change to what happened, not by a release) and the code's."""
    return f"{data_version(WINDOWS)}/{code_version()}"


@dataclass(frozen=True)
class WindowEvidence:
    """What cannot change once the window is past (short of a late import)."""

    series: RetrievalSeries
    lift: Lift
    retrievers: Retrievers
    echo: Signal
    outdated: Signal
    # What the duplicate guard and the neighbour panel read, prepared with the rest: window
    # figures of the item and each neighbour shown, by reflection id; diffs by neighbour id.
    facts: Figures = field(default_factory=dict)
    diffs: dict[int, PreparedDiff] = field(default_factory=dict)


# ------------------------------------------------------------------ computing


def compute_window_evidence(cycle: ReviewCycle, items: list[ReviewItem]) -> dict[int, dict]:
    """Each item's window evidence, as stored (JSON), by item id. The panels, the guard's
    figures and the diffs take seven queries for all the items together; the echo and outdated
    signals' facts are still read item by item (about eight queries each), with the
    department's tool history read once."""
    if not items:
        return {}
    ids = [item.reflection_id for item in items]
    series = series_by_reflection(cycle, ids)
    lifts = lifts_by_reflection(cycle, ids)
    who = retrievers_by_reflection(cycle, {i.reflection_id: i.reflection.agent_id for i in items})
    context = cycle_context(cycle)
    diffs = prepared_diffs([item.reflection for item in items])
    shown = {
        item.reflection_id: [item.reflection_id, *diffs.get(item.reflection_id, ())]
        for item in items
    }
    figures = window_figures(cycle, sorted({pk for pks in shown.values() for pk in pks}))
    found = {}
    for item in items:
        scored = item_signals(item, context=context)
        found[item.pk] = encode(
            WindowEvidence(
                series=series[item.reflection_id],
                lift=lifts[item.reflection_id],
                retrievers=who[item.reflection_id],
                echo=scored.echo,
                outdated=scored.outdated,
                facts={pk: figures[pk] for pk in shown[item.reflection_id]},
                diffs=diffs.get(item.reflection_id, {}),
            )
        )
    return found


def store(items: list[ReviewItem], data: dict[int, dict], version: str) -> None:
    now = timezone.now()
    PreparedEvidence.objects.bulk_create(
        [
            PreparedEvidence(item_id=item.pk, version=version, data=data[item.pk], computed_at=now)
            for item in items
        ],
        update_conflicts=True,
        unique_fields=["item"],
        update_fields=["version", "data", "computed_at"],
    )


def prepare_cycle(cycle: ReviewCycle, *, stale_only: bool = False) -> int:
    """Compute and store the evidence of every item of the cycle (or only of those without
    a current row); returns how many items were prepared."""
    # Read before computing: an import committing meanwhile leaves these rows stale.
    version = evidence_version()
    items = cycle.items.select_related("reflection", "cycle").order_by("rank")
    if stale_only:
        items = items.exclude(prepared__version=version)
    items = list(items)
    store(items, compute_window_evidence(cycle, items), version)
    return len(items)


# ------------------------------------------------------------------ reading


def window_evidence(item: ReviewItem) -> WindowEvidence:
    """The item's stored window evidence if it is current (two queries), else computed now,
    stored and returned."""
    version = evidence_version()
    data = (
        PreparedEvidence.objects.filter(item_id=item.pk, version=version)
        .values_list("data", flat=True)
        .first()
    )
    if data is None:
        data = compute_window_evidence(item.cycle, [item])[item.pk]
        store([item], {item.pk: data}, version)
    return decode(data)


def prepared_figures(cycle: ReviewCycle, reflection_ids: list[int]) -> Figures:
    """The duplicate guard's window figures stored with the current evidence of the cycle's
    items of these reflections (each item's own and those of the neighbours it shows), by
    reflection id, in one query reading only that part of each row. A reflection without a
    current row adds nothing: the guard reads its figures itself."""
    figures: Figures = {}
    rows = PreparedEvidence.objects.filter(
        item__cycle=cycle, item__reflection_id__in=reflection_ids, version=evidence_version()
    ).values_list("data__facts", flat=True)
    for facts in rows:
        figures.update((pk, (retrievals, lift)) for pk, retrievals, lift in facts or ())
    return figures


def queue_evidence(item: ReviewItem) -> tuple[ItemEvidence, ItemSignals]:
    """Everything the queue shows beside an item: the window evidence, the guard's figures
    and the neighbours' diffs as prepared; the neighbours' state and the duplicate signal
    live (one query for both)."""
    window = window_evidence(item)
    candidates = neighbour_candidates(item, window.diffs)
    evidence = ItemEvidence(
        item=item,
        series=window.series,
        lift=window.lift,
        retrievers=window.retrievers,
        duplicates=candidates,
        prepared_facts=window.facts,
    )
    signals = ItemSignals(
        item=item,
        echo=window.echo,
        outdated=window.outdated,
        duplicate=duplicate_signal(item, candidates),
    )
    return evidence, signals


# ------------------------------------------------------------------ JSON


def encode(evidence: WindowEvidence) -> dict:
    series = evidence.series
    return {
        "series": {
            "weeks": [[w.week.isoformat(), w.retrievals] for w in series.weeks],
            "total": series.total,
            "cross_agent": series.cross_agent,
        },
        "lift": asdict(evidence.lift),
        "retrievers": asdict(evidence.retrievers),
        "echo": asdict(evidence.echo),
        "outdated": asdict(evidence.outdated),
        "facts": [[pk, retrievals, lift] for pk, (retrievals, lift) in evidence.facts.items()],
        "diffs": [
            [pk, d.item_digest, d.neighbour_digest, d.item_spans, d.neighbour_spans]
            for pk, d in evidence.diffs.items()
        ],
    }


def decode(data: dict) -> WindowEvidence:
    series, who = data["series"], data["retrievers"]
    return WindowEvidence(
        series=RetrievalSeries(
            weeks=[WeekCount(date.fromisoformat(w), n) for w, n in series["weeks"]],
            total=series["total"],
            cross_agent=series["cross_agent"],
        ),
        lift=Lift(**data["lift"]),
        retrievers=Retrievers(
            agents=[Retriever(**a) for a in who["agents"]],
            total=who["total"],
            cross_agent=who["cross_agent"],
            cross_agent_share=who["cross_agent_share"],
        ),
        echo=Signal.from_dict(data["echo"]),
        outdated=Signal.from_dict(data["outdated"]),
        facts={pk: (retrievals, lift) for pk, retrievals, lift in data["facts"]},
        diffs={
            pk: PreparedDiff(
                item_digest,
                neighbour_digest,
                [tuple(span) for span in item_spans],
                [tuple(span) for span in neighbour_spans],
            )
            for pk, item_digest, neighbour_digest, item_spans, neighbour_spans in data["diffs"]
        },
    )
