"""The quarterly review's top-N: a department's most retrieved reflections in a window (DOMAIN
§5), read off the daily rollup (top_retrieved) and, as its definition, off the raw events
(top_retrieved_from_events; a test holds the two equal)."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count, Max, Sum

from reflections.models import Department, RetrievalDay, RetrievalEvent, State


def top_retrieved_from_events(*, department: Department, start: datetime, end: datetime, size: int):
    """The definition, read straight off the raw events: top reflections by retrievals in
    [start, end), not deprecated or quarantined, ties to the more recently retrieved, then the
    lower id. Exact for any window; scans every event of the department in it."""
    return list(
        RetrievalEvent.objects.filter(
            reflection__department=department,
            retrieved_at__gte=start,
            retrieved_at__lt=end,
        )
        .exclude(reflection__state__in=[State.DEPRECATED, State.QUARANTINED])
        .values("reflection_id")
        .annotate(n=Count("id"), last=Max("retrieved_at"))
        .order_by("-n", "-last", "reflection_id")[:size]
    )


def _midnight(moment: datetime) -> bool:
    return (moment.hour, moment.minute, moment.second, moment.microsecond) == (0, 0, 0, 0)


def top_retrieved(*, department: Department, start: datetime, end: datetime, size: int):
    """The same ranking as top_retrieved_from_events, read off the daily rollup when the window
    is whole UTC days (review windows always are): counts come from the rollup's days, and only
    the reflections whose place depends on the exact time of their last retrieval (equal count,
    same last day) have that time looked up in the events, through the (reflection, time) index.
    """
    if not (_midnight(start) and _midnight(end)):
        return top_retrieved_from_events(department=department, start=start, end=end, size=size)
    counted = list(
        RetrievalDay.objects.filter(
            department=department, day__gte=start.date(), day__lt=end.date()
        )
        .exclude(reflection__state__in=[State.DEPRECATED, State.QUARANTINED])
        .values("reflection_id")
        .annotate(n=Sum("retrievals"), last_day=Max("day"))
        .filter(n__gt=0)
        .order_by("-n", "-last_day", "reflection_id")
    )
    if len(counted) > size:
        # Whoever shares the boundary's count and last day may swap places with it.
        edge = counted[size - 1]
        cut = next(
            (i for i in range(size, len(counted))
             if (counted[i]["n"], counted[i]["last_day"]) != (edge["n"], edge["last_day"])),
            len(counted),
        )  # fmt: skip
        counted = counted[:cut]
    last = dict(
        RetrievalEvent.objects.filter(
            reflection_id__in=[row["reflection_id"] for row in counted],
            retrieved_at__gte=start,
            retrieved_at__lt=end,
        )
        .values("reflection_id")
        .annotate(last=Max("retrieved_at"))
        .values_list("reflection_id", "last")
    )
    rows = [
        {"reflection_id": row["reflection_id"], "n": row["n"], "last": last[row["reflection_id"]]}
        for row in counted
    ]
    rows.sort(key=lambda r: (-r["n"], -r["last"].timestamp(), r["reflection_id"]))
    return rows[:size]
