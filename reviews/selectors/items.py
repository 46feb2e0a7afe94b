"""A cycle's item list as a person sees it: filtered, with the unsure items and bulk batches."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from reviews.models import ReviewBatch, ReviewCycle, ReviewItem, Verdict
from reviews.selectors.cycles import can_manage

STATUSES = {"open": "Without a verdict", "done": "With a verdict", "unsure": "Unsure"}


@dataclass(frozen=True)
class ItemFilters:
    status: str = ""
    verdict: str = ""
    reviewer: str = ""
    q: str = ""

    @classmethod
    def from_query(cls, query) -> ItemFilters:
        def pick(name, allowed=None) -> str:
            value = str(query.get(name) or "").strip()[:100]
            return value if allowed is None or value in allowed else ""

        return cls(
            status=pick("status", STATUSES),
            verdict=pick("verdict", Verdict.values),
            reviewer=pick("reviewer"),
            q=pick("q"),
        )

    def as_query(self) -> dict[str, str]:
        return {k: v for k, v in vars(self).items() if v}

    @property
    def is_filtered(self) -> bool:
        return bool(self.as_query())


def cycle_items(cycle: ReviewCycle, user, filters: ItemFilters | None = None) -> QuerySet:
    """Managers see every item; reviewers their own and the ones marked unsure."""
    items = cycle.items.select_related("reflection__agent", "reviewer", "duplicate_of").order_by(
        "rank"
    )
    if not can_manage(user):
        items = items.filter(Q(reviewer=user) | Q(unsure_since__isnull=False))
    f = filters or ItemFilters()
    if f.status == "open":
        items = items.filter(verdict="")
    elif f.status == "done":
        items = items.exclude(verdict="")
    elif f.status == "unsure":
        items = items.filter(unsure_since__isnull=False)
    if f.verdict:
        items = items.filter(verdict=f.verdict)
    if f.reviewer:
        items = items.filter(reviewer__username=f.reviewer)
    if f.q:
        items = items.filter(reflection__title__icontains=f.q)
    return items


def unsure_items(cycle: ReviewCycle) -> list[ReviewItem]:
    """Items whose reviewer asked for a discussion, oldest first: the manager's list."""
    return list(
        cycle.items.filter(unsure_since__isnull=False)
        .select_related("reflection", "reviewer")
        .order_by("unsure_since", "rank")
    )


def recent_batches(cycle: ReviewCycle, user, limit: int = 5) -> list[ReviewBatch]:
    qs = cycle.batches.select_related("actor", "to_reviewer", "duplicate_of", "undone_by")
    if not can_manage(user):
        qs = qs.filter(actor=user)
    return list(qs.order_by("-at", "-id")[:limit])
