"""Writes of the quarterly review (DOMAIN §5): opening a cycle, assigning, verdicts, undo,
closing. Each is one transaction; every verdict and undo leaves an audit row."""

from __future__ import annotations

from datetime import date, datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Sum
from django.utils import timezone

from reflections.access import REVIEWER, user_roles
from reflections.models import (
    Department,
    Reflection,
    RetrievalDay,
    RetrievalEvent,
    State,
)
from reviews.models import Decision, ReviewCycle, ReviewItem, Verdict
from reviews.policies import (
    CYCLE_SIZE,
    WINDOW_DAYS,
    assign_round_robin,
    effort_seconds,
    review_window,
)


class ReviewError(ValueError):
    """A request the review rules refuse; the message is meant for the person who made it."""


class Conflict(ReviewError):
    """Someone else changed the item since this person loaded it; nothing was overwritten."""


def _check_reviewers(department: Department, reviewers) -> list:
    """Reviewers must hold the reviewer role and belong to the department they audit."""
    problems = []
    for person in reviewers:
        if REVIEWER not in user_roles(person):
            problems.append(f"{person.get_username()} is not a reviewer")
        elif not person.departments.filter(pk=department.pk).exists():
            problems.append(f"{person.get_username()} is not a member of {department.name}")
    if problems:
        raise ReviewError("; ".join(problems))
    return list(reviewers)


def resolve_reviewers(usernames: list[str]) -> list:
    User = get_user_model()
    found = {u.get_username(): u for u in User.objects.filter(username__in=usernames)}
    missing = [name for name in usernames if name not in found]
    if missing:
        raise ReviewError(f"no such user: {', '.join(missing)}")
    return [found[name] for name in usernames]


def snapshot_rows_from_events(*, department: Department, start: datetime, end: datetime, size: int):
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


def snapshot_rows(*, department: Department, start: datetime, end: datetime, size: int):
    """The same ranking as snapshot_rows_from_events, read off the daily rollup when the window
    is whole UTC days (review windows always are): counts come from the rollup's days, and only
    the reflections whose place depends on the exact time of their last retrieval (equal count,
    same last day) have that time looked up in the events, through the (reflection, time) index.
    """
    if not (_midnight(start) and _midnight(end)):
        return snapshot_rows_from_events(department=department, start=start, end=end, size=size)
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


@transaction.atomic
def open_cycle(
    *,
    department: Department,
    quarter: str,
    reviewers,
    user=None,
    starts_on: date | None = None,
    window_days: int = WINDOW_DAYS,
    size: int = CYCLE_SIZE,
) -> ReviewCycle:
    """Snapshot the department's top `size` reflections for the quarter and deal them out."""
    window = review_window(quarter, starts_on=starts_on, days=window_days)
    quarter = quarter.strip().upper()
    reviewers = _check_reviewers(department, reviewers)
    if ReviewCycle.objects.filter(department=department, quarter=quarter).exists():
        raise ReviewError(f"{department.name} already has a review cycle for {quarter}")
    rows = snapshot_rows(department=department, start=window.start, end=window.end, size=size)
    if not rows:
        raise ReviewError(
            f"{department.name} has no retrieved reflections between "
            f"{window.start:%Y-%m-%d} and {window.end:%Y-%m-%d}: nothing to review"
        )
    try:
        with transaction.atomic():
            cycle = ReviewCycle.objects.create(
                department=department,
                quarter=quarter,
                window_start=window.start,
                window_end=window.end,
                size=size,
                opened_at=timezone.now(),
                opened_by=user,
            )
    except IntegrityError:  # opened by someone else a moment ago
        raise ReviewError(f"{department.name} already has a review cycle for {quarter}") from None
    cycle.reviewers.set(reviewers)
    assignment = assign_round_robin(range(1, len(rows) + 1), reviewers)
    ReviewItem.objects.bulk_create(
        ReviewItem(
            cycle=cycle,
            rank=rank,
            reflection_id=row["reflection_id"],
            retrievals=row["n"],
            last_retrieved_at=row["last"],
            reviewer=assignment[rank],
        )
        for rank, row in enumerate(rows, start=1)
    )
    return cycle


def _lock_item(item_id: int) -> ReviewItem:
    return (
        ReviewItem.objects.select_for_update(of=("self",)).select_related("cycle").get(pk=item_id)
    )


def _check_can_act(item: ReviewItem, user, version: int) -> None:
    if not item.cycle.is_open:
        raise ReviewError("this review cycle is closed; its verdicts can no longer change")
    if item.reviewer_id != user.pk:
        raise ReviewError("this item is assigned to another reviewer")
    if item.version != version:
        raise Conflict(
            f"#{item.rank} changed while you were reading it: {_last_change(item)}. "
            "Nothing was overwritten; reload to see where it stands."
        )


def _last_change(item: ReviewItem) -> str:
    last = item.decisions.select_related("actor").order_by("-at", "-id").first()
    if last is None:
        return "it was updated"
    who, when = last.actor.get_username(), f"{last.at:%H:%M:%S} UTC"
    if last.action == Decision.Action.VERDICT:
        return f"{who} recorded {Verdict(last.verdict).label.lower()} at {when}"
    if last.action == Decision.Action.UNDO:
        return f"{who} undid the verdict at {when}"
    return f"{who} reassigned it at {when}"


def _check_original(item: ReviewItem, reflection: Reflection, duplicate_of: int | None):
    if duplicate_of is None:
        raise ReviewError("a duplicate verdict must name the reflection it duplicates")
    if duplicate_of == reflection.pk:
        raise ReviewError("a reflection cannot duplicate itself")
    original = Reflection.objects.filter(pk=duplicate_of).first()
    if original is None or original.department_id != item.cycle.department_id:
        raise ReviewError("the original must be a reflection of the same department")
    if original.state in (State.DEPRECATED, State.QUARANTINED):
        raise ReviewError(
            f"the original {original.source_path} is {original.state}; name one that is kept"
        )
    return original


@transaction.atomic
def decide(
    *,
    item_id: int,
    user,
    verdict: str,
    version: int,
    duplicate_of: int | None = None,
    note: str = "",
    shown_at: datetime | None = None,
) -> ReviewItem:
    """Record a verdict. Non-keep deprecates at once; keep leaves (or puts back) the state the
    reflection had before the review. A stale `version` is a Conflict, never an overwrite."""
    if verdict not in Verdict.values:
        raise ReviewError(f"unknown verdict {verdict!r}")
    item = _lock_item(item_id)
    _check_can_act(item, user, version)
    reflection = Reflection.objects.select_for_update().get(pk=item.reflection_id)
    if reflection.state == State.QUARANTINED:
        raise ReviewError("this reflection was quarantined after the snapshot; an admin handles it")
    original = None
    if verdict == Verdict.DUPLICATE:
        original = _check_original(item, reflection, duplicate_of)
    now = timezone.now()
    if not item.verdict:
        # The first verdict remembers what the review found, so undo can put it back.
        item.state_before, item.reason_before = reflection.state, reflection.deprecated_reason
    from_state = reflection.state
    note = note.strip()
    why = f"review {item.cycle.quarter}: {Verdict(verdict).label.lower()}"
    if original is not None:
        why += f" of {original.source_path}"
    if note:
        why += f" — {note}"
    if verdict == Verdict.KEEP:
        reflection.change_state(
            item.state_before, by=user, why=why, deprecated_reason=item.reason_before
        )
    else:
        reflection.change_state(State.DEPRECATED, by=user, why=why, deprecated_reason=verdict)
    spent = effort_seconds(shown_at, now)
    item.verdict, item.duplicate_of, item.note = verdict, original, note
    item.decided_at, item.decided_by = now, user
    item.version += 1
    item.seconds_spent += spent
    item.save()
    Decision.objects.create(
        item=item,
        action=Decision.Action.VERDICT,
        verdict=verdict,
        duplicate_of=original,
        note=note,
        from_state=from_state,
        to_state=reflection.state,
        seconds_spent=spent,
        actor=user,
        at=now,
    )
    return item


@transaction.atomic
def undo(*, item_id: int, user, version: int) -> ReviewItem:
    """Take the verdict back: the reflection returns to exactly the state it had before."""
    item = _lock_item(item_id)
    _check_can_act(item, user, version)
    if not item.verdict:
        raise ReviewError(f"#{item.rank} has no verdict to undo")
    reflection = Reflection.objects.select_for_update().get(pk=item.reflection_id)
    if reflection.state == State.QUARANTINED:
        raise ReviewError("this reflection was quarantined since; an admin handles it")
    from_state = reflection.state
    reflection.change_state(
        item.state_before,
        by=user,
        why=f"review {item.cycle.quarter}: undo {item.get_verdict_display().lower()}",
        deprecated_reason=item.reason_before,
    )
    now = timezone.now()
    Decision.objects.create(
        item=item,
        action=Decision.Action.UNDO,
        verdict=item.verdict,
        duplicate_of_id=item.duplicate_of_id,
        note=item.note,
        from_state=from_state,
        to_state=reflection.state,
        actor=user,
        at=now,
    )
    item.verdict, item.duplicate_of, item.note = "", None, ""
    item.decided_at, item.decided_by = now, user
    item.version += 1
    item.save()
    return item


@transaction.atomic
def reassign(*, cycle: ReviewCycle, ranks: list[int], to_reviewer, user) -> int:
    """A manager moves items to another reviewer; decided items keep their verdicts."""
    if not cycle.is_open:
        raise ReviewError("this review cycle is closed")
    _check_reviewers(cycle.department, [to_reviewer])
    items = list(
        ReviewItem.objects.select_for_update()
        .filter(cycle=cycle, rank__in=ranks)
        .exclude(reviewer=to_reviewer)
    )
    missing = set(ranks) - set(
        ReviewItem.objects.filter(cycle=cycle, rank__in=ranks).values_list("rank", flat=True)
    )
    if missing:
        raise ReviewError(f"no items ranked {', '.join(map(str, sorted(missing)))} in this cycle")
    now = timezone.now()
    for item in items:
        Decision.objects.create(
            item=item,
            action=Decision.Action.REASSIGN,
            from_reviewer_id=item.reviewer_id,
            to_reviewer=to_reviewer,
            actor=user,
            at=now,
        )
        item.reviewer = to_reviewer
        item.version += 1
    ReviewItem.objects.bulk_update(items, ["reviewer", "version"])
    cycle.reviewers.add(to_reviewer)
    return len(items)


@transaction.atomic
def close_cycle(*, cycle: ReviewCycle, user, allow_incomplete: bool = False) -> ReviewCycle:
    cycle = ReviewCycle.objects.select_for_update().get(pk=cycle.pk)
    if not cycle.is_open:
        raise ReviewError(f"{cycle} was already closed on {cycle.closed_at:%Y-%m-%d}")
    left = cycle.items.filter(verdict="").count()
    if left and not allow_incomplete:
        raise ReviewError(
            f"{left} item{'s' if left != 1 else ''} still without a verdict; "
            "close anyway to report them as not reviewed"
        )
    cycle.closed_at, cycle.closed_by = timezone.now(), user
    cycle.save(update_fields=["closed_at", "closed_by"])
    return cycle
