"""Writes of a review cycle (DOMAIN §5): opening it on a frozen snapshot, dealing and
reassigning items, closing it. Each is one transaction."""

from __future__ import annotations

from datetime import date

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from reflections.access import REVIEWER, user_roles
from reflections.models import Department
from reviews.announcements import cycle_closed
from reviews.models import Decision, ReviewCycle, ReviewItem
from reviews.policies import (
    CYCLE_SIZE,
    WINDOW_DAYS,
    assign_round_robin,
    review_window,
)
from reviews.selectors.ranking import top_retrieved


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
    rows = top_retrieved(department=department, start=window.start, end=window.end, size=size)
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
    # The evidence beside each item, prepared in the background (the task row commits with
    # the cycle): opening stays fast, the queue reads stored evidence.
    from reviews.tasks import prepare_cycle_evidence

    prepare_cycle_evidence.enqueue(cycle.pk)
    return cycle


@transaction.atomic
def reassign(*, cycle: ReviewCycle, ranks: list[int], to_reviewer, user, batch: str = "") -> int:
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
            batch=batch,
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
    cycle_closed.send(sender=ReviewCycle, cycle=cycle)
    return cycle
