"""The evidence a reviewer reads beside one review item (DOMAIN §5): retrieval history, lift,
who retrieved it, duplicate candidates. The echo-chamber, outdated and duplicate signals are
scored in reviews.signals.

Each selector costs one query (two for lift) whatever the volume of events, tasks or
neighbours: they aggregate in SQL over index ranges (RetrievalDay by reflection and day, the
retrieval natural key, InjectionOutcomeDay by reflection and day, TaskOutcomeDay by department
and day).
The window-bound ones also come for many reflections of one cycle at once (`…_by_reflection`,
the same queries with every id): what reviews.services.evidence prepares a cycle from.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.db.models import Count, F, Q
from django.db.models.functions import TruncWeek

from reflections.lift import DEFAULT_MIN_TASKS, Lift, week_weighted_lift
from reflections.models import (
    Neighbour,
    Outcome,
    Reflection,
    RetrievalDay,
    RetrievalEvent,
    State,
    TaskInjection,
)
from reflections.selectors.tasks import department_weeks, injected_weeks
from reflections.similarity import (
    DiffSegment,
    Spans,
    diff_spans,
    diff_words,
    segments_of,
    text_digest,
)
from reviews.models import ReviewCycle, ReviewItem
from reviews.selectors.signal_facts import TWIN_FIELDS


def _week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())  # ISO weeks start on Monday


def _window_days(cycle: ReviewCycle) -> tuple[date, date]:
    """The UTC days [first, last) that overlap the cycle's window [start, end)."""
    start = cycle.window_start.astimezone(UTC)
    end = cycle.window_end.astimezone(UTC)
    last = end.date() if end.time() == datetime.min.time() else end.date() + timedelta(days=1)
    return start.date(), last


# ------------------------------------------------------------------ retrieval series


@dataclass(frozen=True)
class WeekCount:
    week: date  # the Monday
    retrievals: int


@dataclass(frozen=True)
class RetrievalSeries:
    weeks: list[WeekCount]  # every ISO week touching the window, zeros included
    total: int
    cross_agent: int  # of total, retrieved by an agent other than the author


def retrieval_series(item: ReviewItem) -> RetrievalSeries:
    """Weekly retrievals of the item's reflection in the cycle window, from the daily rollup."""
    return series_by_reflection(item.cycle, [item.reflection_id])[item.reflection_id]


def series_by_reflection(cycle: ReviewCycle, reflection_ids) -> dict[int, RetrievalSeries]:
    """retrieval_series of each of `reflection_ids` in the cycle window (one query)."""
    ids = list(reflection_ids)
    first, last = _window_days(cycle)
    days = RetrievalDay.objects.filter(
        reflection_id__in=ids, day__gte=first, day__lt=last
    ).values_list("reflection_id", "day", "retrievals", "cross_agent")
    by_week: dict[int, Counter[date]] = defaultdict(Counter)
    totals: Counter[int] = Counter()
    crosses: Counter[int] = Counter()
    for pk, day, retrievals, cross_agent in days:
        by_week[pk][_week_start(day)] += retrievals
        totals[pk] += retrievals
        crosses[pk] += cross_agent
    mondays = []
    week = _week_start(first)
    while week < last:
        mondays.append(week)
        week += timedelta(days=7)
    return {
        pk: RetrievalSeries(
            weeks=[WeekCount(w, by_week[pk][w]) for w in mondays],
            total=totals[pk],
            cross_agent=crosses[pk],
        )
        for pk in ids
    }


# ------------------------------------------------------------------ lift


def injection_lift(item: ReviewItem, *, min_tasks: int = DEFAULT_MIN_TASKS) -> Lift:
    """Success rate of the tasks the reflection was injected into, finished in the window,
    against the department's success rate weighted by the ISO weeks those tasks fall in.

    The department's rate is computed per ISO week (Monday start, UTC; the department's
    tasks finished in the window, injected ones included) and averaged with each week
    weighted by how many injected tasks finished that week. Success rates climb as the
    memory learns (DOMAIN §7), so comparing with the department's whole-window rate would
    credit a reflection injected mostly late in the quarter with the curve's rise; with the
    weighting, the baseline is what the department achieved at the same times.
    """
    return lifts_by_reflection(item.cycle, [item.reflection_id], min_tasks=min_tasks)[
        item.reflection_id
    ]


def lifts_by_reflection(
    cycle: ReviewCycle, reflection_ids, *, min_tasks: int = DEFAULT_MIN_TASKS
) -> dict[int, Lift]:
    """injection_lift of each of `reflection_ids`, every one against the same department
    weeks (two queries whatever the number of reflections, each a few hundred day rows)."""
    ids = list(reflection_ids)
    # Summed from the daily injected-task rollup: cycle windows are UTC midnights
    # (review_window); any other bounds are answered from the injections themselves.
    injected = injected_weeks(ids, cycle.window_start, cycle.window_end)
    department = {}
    if injected:
        department = department_weeks(cycle.department_id, cycle.window_start, cycle.window_end)
    return {
        pk: week_weighted_lift(injected.get(pk, {}), department, min_tasks=min_tasks) for pk in ids
    }


def pooled_lift(reflection_ids, cycle, *, min_tasks: int = DEFAULT_MIN_TASKS) -> Lift:
    """injection_lift over the tasks any of `reflection_ids` was injected into, each task
    counted once (a lesson and its restatements are judged together)."""
    ids = list(reflection_ids)
    filters = {"reflection_id": ids[0]} if len(ids) == 1 else {"reflection_id__in": ids}
    distinct = len(ids) > 1
    injected = (
        TaskInjection.objects.filter(**filters)
        .filter(
            task_run__finished_at__gte=cycle.window_start,
            task_run__finished_at__lt=cycle.window_end,
        )
        .annotate(week=TruncWeek("task_run__finished_at", tzinfo=UTC))
        .values("week")
        .annotate(
            tasks=Count("task_run_id", distinct=distinct),
            successes=Count(
                "task_run_id",
                distinct=distinct,
                filter=Q(task_run__outcome=Outcome.SUCCESS),
            ),
        )
        .order_by()
    )
    injected_by_week = {_as_date(r["week"]): (r["tasks"], r["successes"]) for r in injected}
    department = {}
    if injected_by_week:
        # Summed from the daily task-outcome rollup: a quarter's day rows, not its task runs.
        department = department_weeks(cycle.department_id, cycle.window_start, cycle.window_end)
    return week_weighted_lift(injected_by_week, department, min_tasks=min_tasks)


def _as_date(value) -> date:
    return value.date() if isinstance(value, datetime) else value


# ------------------------------------------------------------------ retrievers


@dataclass(frozen=True)
class Retriever:
    agent_id: int
    agent: str
    department: str  # the retrieving agent's department slug, "" when unassigned
    retrievals: int
    is_author: bool


@dataclass(frozen=True)
class Retrievers:
    agents: list[Retriever]  # most retrievals first
    total: int
    cross_agent: int  # retrievals by agents other than the author
    cross_agent_share: float | None  # None without retrievals


def retrievers(item: ReviewItem) -> Retrievers:
    """Who retrieved the item's reflection in the window, per agent, and the cross-agent share
    (retriever ≠ author, DOMAIN §7). An unknown author makes every retrieval cross-agent."""
    authors = {item.reflection_id: item.reflection.agent_id}
    return retrievers_by_reflection(item.cycle, authors)[item.reflection_id]


def retrievers_by_reflection(cycle: ReviewCycle, authors: dict) -> dict[int, Retrievers]:
    """retrievers of each reflection of `authors` (reflection id → its author's agent id, or
    None), in the cycle window (one query)."""
    rows = (
        RetrievalEvent.objects.filter(
            reflection_id__in=list(authors),
            retrieved_at__gte=cycle.window_start,
            retrieved_at__lt=cycle.window_end,
        )
        .values("reflection_id", "agent_id", "agent__name", "agent__department__slug")
        .annotate(n=Count("id"))
        .order_by("-n", "agent__name")
    )
    agents: dict[int, list[Retriever]] = defaultdict(list)
    for r in rows:
        agents[r["reflection_id"]].append(
            Retriever(
                agent_id=r["agent_id"],
                agent=r["agent__name"],
                department=r["agent__department__slug"] or "",
                retrievals=r["n"],
                is_author=r["agent_id"] == authors[r["reflection_id"]],
            )
        )
    return {pk: _retrievers(agents[pk]) for pk in authors}


def _retrievers(agents: list[Retriever]) -> Retrievers:
    total = sum(a.retrievals for a in agents)
    cross = sum(a.retrievals for a in agents if not a.is_author)
    return Retrievers(
        agents=agents,
        total=total,
        cross_agent=cross,
        cross_agent_share=cross / total if total else None,
    )


# ------------------------------------------------------------------ neighbours


@dataclass(frozen=True)
class Candidate:
    """A stored neighbour, with both texts diffed word by word for side-by-side display."""

    reflection: Reflection
    similarity: float
    rank: int
    segments: list[DiffSegment]  # the neighbour's text, changed runs marked
    item_segments: list[DiffSegment]  # the reviewed reflection's text against it
    is_newer: bool  # created after the reviewed reflection


def display_text(reflection: Reflection) -> str:
    """What the side-by-side view shows and diffs: title, then the rendered-from body."""
    return f"{reflection.title}\n\n{reflection.body}" if reflection.body else reflection.title


@dataclass(frozen=True)
class PreparedDiff:
    """A neighbour's diff against the item as prepared when the cycle opened: token ranges
    and a fingerprint of each text, so it is only used for the very texts it was made of."""

    item_digest: str
    neighbour_digest: str
    item_spans: Spans
    neighbour_spans: Spans

    @classmethod
    def of(cls, own: str, theirs: str) -> PreparedDiff:
        item_spans, neighbour_spans = diff_spans(own, theirs)
        return cls(text_digest(own), text_digest(theirs), item_spans, neighbour_spans)

    def segments(self, own: str, theirs: str) -> tuple[list, list] | None:
        """diff_words(own, theirs), or None when either text is not the one diffed."""
        if (text_digest(own), text_digest(theirs)) != (self.item_digest, self.neighbour_digest):
            return None
        return segments_of(own, self.item_spans), segments_of(theirs, self.neighbour_spans)


def _shown_neighbours(reflection_ids: list[int]):
    """The stored neighbours of these reflections that the queue shows (quarantined ones
    are never shown), most similar first."""
    return (
        Neighbour.objects.filter(reflection_id__in=reflection_ids)
        .exclude(neighbour_id=F("reflection_id"))
        .exclude(neighbour__state=State.QUARANTINED)
        .select_related("neighbour__agent")
        # What the queue shows of a neighbour and the duplicate signal reads (a Twin): not
        # its original text, sections and lists, whose loading (JSON) was most of a queue
        # step's reading of its neighbours.
        .only(
            "reflection_id",
            "similarity",
            "rank",
            *(f"neighbour__{name}" for name in TWIN_FIELDS),
            "neighbour__department",  # a cluster holds the cycle's department only
            "neighbour__agent__name",
        )
        .order_by("reflection_id", "rank", "neighbour_id")
    )


def neighbour_candidates(
    item: ReviewItem, prepared: Mapping[int, PreparedDiff] | None = None
) -> list[Candidate]:
    """The reflection's stored neighbours, most similar first, quarantined ones left out
    (their text is never shown), each diffed against the reflection: with the diff prepared
    for the neighbour when one is given for these texts, else now."""
    reflection = item.reflection
    if reflection.state == State.QUARANTINED:
        return []
    own = display_text(reflection)
    candidates = []
    for row in _shown_neighbours([reflection.pk]):
        theirs = display_text(row.neighbour)
        stored = prepared.get(row.neighbour_id) if prepared else None
        diffed = stored.segments(own, theirs) if stored else None
        item_segments, segments = diffed or diff_words(own, theirs)
        candidates.append(
            Candidate(
                reflection=row.neighbour,
                similarity=row.similarity,
                rank=row.rank,
                segments=segments,
                item_segments=item_segments,
                is_newer=row.neighbour.created_at > reflection.created_at,
            )
        )
    return candidates


def prepared_diffs(reflections: list[Reflection]) -> dict[int, dict[int, PreparedDiff]]:
    """Each reflection's shown neighbours diffed against it, by reflection and neighbour id
    (one query): what reviews.services.evidence stores with a cycle's items."""
    own = {r.pk: display_text(r) for r in reflections if r.state != State.QUARANTINED}
    diffs: dict[int, dict[int, PreparedDiff]] = {pk: {} for pk in own}
    for row in _shown_neighbours(list(own)):
        diffs[row.reflection_id][row.neighbour_id] = PreparedDiff.of(
            own[row.reflection_id], display_text(row.neighbour)
        )
    return diffs


# ------------------------------------------------------------------ everything at once


@dataclass(frozen=True)
class ItemEvidence:
    item: ReviewItem
    series: RetrievalSeries
    lift: Lift
    retrievers: Retrievers
    duplicates: list[Candidate]  # every stored, shown neighbour
    # The guard's window figures as prepared with the item (reviews.services.evidence), by
    # reflection id: None when read live.
    prepared_facts: dict[int, tuple[int, float | None]] | None = None


def item_evidence(
    item: ReviewItem,
    *,
    min_tasks: int = DEFAULT_MIN_TASKS,
) -> ItemEvidence:
    """The evidence panels beside one item, in a constant number of queries (six, plus two
    if the item's cycle and reflection were not select_related)."""
    candidates = neighbour_candidates(item)
    return ItemEvidence(
        item=item,
        series=retrieval_series(item),
        lift=injection_lift(item, min_tasks=min_tasks),
        retrievers=retrievers(item),
        duplicates=candidates,
    )
