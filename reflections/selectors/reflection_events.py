"""What happened to one reflection, as its page shows it: counts over every retrieval, its
newest retrievals and injections a page at a time, read from the rollups' days and index
ranges of the reflection so that the page's work does not grow with the event tables."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

from django.db.models import Count, Max, OuterRef, Subquery

from reflections import access
from reflections.models import (
    Reflection,
    RetrievalDay,
    TaskInjection,
    TaskRun,
)
from reflections.policies import boundaries
from reflections.selectors.injection_audit import weekly_injections
from reflexion_site import keyset
from reflexion_site.keyset import Key

# The reflection page shows this many of each, newest first; older ones a page at a time.
RETRIEVAL_PAGE = 50
INJECTION_PAGE = 25
RETRIEVAL_KEYS = (Key("retrieved_at"), Key("id"))
INJECTION_KEYS = (Key("finished_at"), Key("id"))


def event_figures(reflection: Reflection, author_id: int | None, as_of: date) -> tuple:
    days = _retrieval_days(reflection)
    counts = retrieval_figures(reflection, author_id, as_of, days=days)
    retrievals = retrieval_page(reflection, author_id, days=days)
    injections = injection_page(reflection.pk)
    return counts, retrievals, injections, weekly_injections(reflection)  # outcomes per week


def older_events(*, user, pk: int, kind: str, after: str | None) -> tuple[Reflection, keyset.Page]:
    """A page of one reflection's "retrievals" or "injections" after the cursor `after`, for
    whoever may see the reflection (404 hides the rest; keyset.BadCursor for a cursor that is
    not one of this order's)."""
    reflection = access.get_reflection_for_user(
        user, pk, queryset=Reflection.objects.select_related("department")
    )
    if kind == "retrievals":
        return reflection, retrieval_page(reflection, reflection.agent_id, after=after)
    return reflection, injection_page(reflection.pk, after=after)


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


def retrieval_page(
    reflection: Reflection,
    author_id: int | None,
    *,
    after: str | None = None,
    size: int = RETRIEVAL_PAGE,
    days=None,
) -> keyset.Page:
    """A page of the reflection's retrievals, newest first, each with its task's outcome: the
    newest `size`, or the `size` before the cursor `after` (keyset.BadCursor if it is not
    one of this order's). Every page is a range of the natural key's (reflection,
    retrieved_at) index. The first is read from the day the rollup says its rows begin, so
    that only the partitions (months) from then on are searched; should that read come short
    (a rollup behind its events), from the beginning: any retrieval before that day is older
    than every one read."""
    task_outcome = TaskRun.objects.filter(task_id=OuterRef("task_id")).values("outcome")[:1]
    newest = reflection.retrievals.select_related("agent").annotate(
        task_outcome=Subquery(task_outcome)
    )
    page = None
    if after is None:
        days = _retrieval_days(reflection) if days is None else days
        # One more than the page, so that the page knows whether older ones follow.
        seen, since = newest_begin(((day, n) for day, n, _ in days), size + 1)
        if since is not None and seen > size:
            start = datetime.combine(since, datetime.min.time(), tzinfo=UTC)
            page = keyset.page(newest.filter(retrieved_at__gte=start), RETRIEVAL_KEYS, size=size)
            page = None if page.is_last else page
    if page is None:
        page = keyset.page(newest, RETRIEVAL_KEYS, size=size, after=after)
    for event in page.rows:
        event.is_cross_agent = author_id is not None and event.agent_id != author_id
    return page


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


def injection_page(
    reflection_id: int, *, after: str | None = None, size: int = INJECTION_PAGE
) -> keyset.Page:
    """A page of the tasks the reflection was injected into, the last finished first: the
    newest `size`, or the `size` before the cursor `after`. One range of the (reflection,
    finished_at, id) index, whatever the number of its tasks (each injection carries its
    run's finished_at)."""
    injections = TaskInjection.objects.filter(reflection_id=reflection_id).select_related(
        "task_run__agent"
    )
    return keyset.page(injections, INJECTION_KEYS, size=size, after=after)
