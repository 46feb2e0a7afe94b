"""What happened to one reflection, as its page shows it: counts over every retrieval, its
newest retrievals and injections, read from the rollups' days and index ranges of the
reflection so that the page's work does not grow with the event tables (issue 14)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

from django.db.models import Count, Max, OuterRef, Subquery

from reflections.models import (
    InjectionOutcomeDay,
    Reflection,
    RetrievalDay,
    RetrievalEvent,
    TaskInjection,
    TaskRun,
)
from reflections.policies import boundaries
from reflections.selectors.injection_audit import weekly_injections

RETRIEVAL_HISTORY_LIMIT = 200
INJECTION_LIMIT = 100


def event_figures(reflection: Reflection, author_id: int | None, as_of: date) -> tuple:
    days = _retrieval_days(reflection)
    counts = retrieval_figures(reflection, author_id, as_of, days=days)
    recent = latest_retrievals(reflection, author_id, RETRIEVAL_HISTORY_LIMIT, days=days)
    injected = latest_injections(reflection.pk, INJECTION_LIMIT)
    return counts, recent, injected, weekly_injections(reflection)  # outcomes per week


def _retrieval_days(reflection: Reflection) -> list[tuple[date, int, int]]:
    """(day, retrievals, cross-agent) of each day the reflection was retrieved on."""
    return list(
        RetrievalDay.objects.filter(reflection_id=reflection.pk).values_list(
            "day", "retrievals", "cross_agent"
        )
    )


def newest_begin(days: Iterable[tuple[date, int]], limit: int) -> tuple[int, date | None]:
    """From (day, count) rows of a daily rollup: the day on which the newest `limit` begin,
    and how many there are from that day on (at least `limit`, unless there are fewer in all)."""
    seen, since = 0, None
    for day, n in sorted(days, reverse=True):
        if seen >= limit:
            break
        seen, since = seen + n, day
    return seen, since


def latest_retrievals(
    reflection: Reflection, author_id: int | None, limit: int, *, days=None
) -> list[RetrievalEvent]:
    """The reflection's `limit` newest retrievals, each with its task's outcome. Read from the
    day the rollup says the newest `limit` begin, so that only the partitions (months) from
    then on are searched; should that read find fewer (a rollup behind its events), from the
    beginning. Either way the answer is the newest `limit`: any retrieval before that day is
    older than every one read."""
    days = _retrieval_days(reflection) if days is None else days
    seen, since = newest_begin(((day, n) for day, n, _ in days), limit)
    task_outcome = TaskRun.objects.filter(task_id=OuterRef("task_id")).values("outcome")[:1]
    newest = (
        reflection.retrievals.select_related("agent")
        .annotate(task_outcome=Subquery(task_outcome))
        .order_by("-retrieved_at", "-id")
    )
    recent = []
    if since is not None and seen >= limit:
        start = datetime.combine(since, datetime.min.time(), tzinfo=UTC)
        recent = list(newest.filter(retrieved_at__gte=start)[:limit])
    if len(recent) < limit:
        recent = list(newest[:limit])
    for event in recent:
        event.is_cross_agent = author_id is not None and event.agent_id != author_id
    return recent


def retrieval_figures(
    reflection: Reflection, author_id: int | None, as_of: date, *, days=None
) -> dict:
    """What the reflection page counts over every retrieval of the reflection, and the decay
    policy's inputs for it at as_of (reflections.selectors.policy.window_stat_aggregates), read
    from its days in the retrieval rollup (a few hundred rows however often it was retrieved)
    rather than its events (~36,000 for the most retrieved at 10M events). Two reads stay on the
    events, each an index range of the reflection: the distinct tasks (the natural key's index
    holds the task, so nothing else is read) and the newest retrieval's time, on its day."""
    b = boundaries(as_of)
    window_day, idle_day, end_day = (
        b.promote_window_since.date(),
        b.idle_since.date(),
        b.end.date(),
    )
    days = _retrieval_days(reflection) if days is None else days
    counts = {
        "total": sum(n for _, n, _ in days),
        "policy_window": sum(n for day, n, _ in days if window_day <= day < end_day),
        "policy_idle": sum(n for day, n, _ in days if idle_day <= day < end_day),
        "policy_last": None,
        "distinct_tasks": reflection.retrievals.aggregate(n=Count("task_id", distinct=True))["n"],
    }
    if author_id is not None:
        counts["cross_agent"] = sum(cross for _, _, cross in days)
    last_day = max((day for day, n, _ in days if n and day < end_day), default=None)
    if last_day is not None:
        start = datetime.combine(last_day, datetime.min.time(), tzinfo=UTC)
        counts["policy_last"] = reflection.retrievals.filter(
            retrieved_at__gte=start, retrieved_at__lt=start + timedelta(days=1)
        ).aggregate(last=Max("retrieved_at"))["last"]
    return counts


def latest_injections(reflection_id: int, limit: int) -> list[TaskInjection]:
    """The reflection's `limit` injections whose tasks finished last, newest first.

    Joined and sorted in SQL, the planner either reads every injection's run or walks the
    runs by their end hoping to meet the reflection's: 0.1-6 s for a reflection injected
    into 30,000 tasks among 2.3M runs. Instead the rollup tells on which day the newest
    `limit` begin and how many injections finished from that day on; the reflection's own
    injections are then read by its index, newest run first, keys only, their runs' ends by
    primary key, until that many have been met: runs are stored roughly in the order they
    finished, so one to three batches at the large scale. The answer does not depend on that
    order: a late-imported old run is read later, and the reading goes on until every
    injection from that day on is in hand.
    Should the rollup disagree with the injections (its total is checked against the
    reflection's own injection counter), every injection is read instead."""
    days = list(
        InjectionOutcomeDay.objects.filter(reflection_id=reflection_id).values_list("day", "tasks")
    )
    total = sum(tasks for _, tasks in days)
    seen, since = newest_begin(days, limit)
    counted = Reflection.objects.filter(pk=reflection_id).values_list("injection_count", flat=True)
    trusted = since is not None and seen >= limit and total == counted.first()
    start = datetime.combine(since, datetime.min.time(), tzinfo=UTC) if trusted else None
    mine = (
        TaskInjection.objects.filter(reflection_id=reflection_id)
        .order_by("-task_run_id", "-id")
        .values_list("id", "task_run_id", "position")
    )
    # Keys only while searching: (finished_at, injection id, run id, position) of each read.
    recent: list[tuple] = []  # finished on or after `since`
    older: list[tuple] = []
    # Enough for every injection from `since` on, plus a margin for runs stored out of order.
    batch, last = (seen + limit if start is not None else 1000), None
    while True:
        rows = list((mine.filter(task_run_id__lt=last) if last is not None else mine)[:batch])
        if not rows:
            break
        ends = dict(
            TaskRun.objects.filter(pk__in={row[1] for row in rows}).values_list("id", "finished_at")
        )
        for pk, run, position in rows:
            key = (ends[run], pk, run, position)
            (recent if start is not None and ends[run] >= start else older).append(key)
        if start is not None and len(recent) >= seen:
            break
        # The next batch starts below this one's last run: a run holds one injection of a
        # reflection (the (task run, reflection) pair is unique).
        last, batch = rows[-1][1], batch * 2
    pool = recent if start is not None and len(recent) >= seen else recent + older
    newest = sorted(pool, reverse=True)[:limit]
    runs = TaskRun.objects.select_related("agent").in_bulk([key[2] for key in newest])
    fields = ["id", "task_run_id", "reflection_id", "position"]
    injections = []
    for _, pk, run, position in newest:
        injection = TaskInjection.from_db("default", fields, (pk, run, reflection_id, position))
        injection.task_run = runs[run]
        injections.append(injection)
    return injections
