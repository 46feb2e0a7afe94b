"""Reads for the review pages: which cycles a person sees, queues, progress, reports."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet, Sum
from django.shortcuts import get_object_or_404

from reflections.access import MANAGER, REVIEWER, require_any_role, sees_all_departments
from reflections.selectors.discussion import threads
from reviews.models import ReviewCycle, ReviewItem, Verdict

# Who may read a cycle: managers and admins all; reviewers the cycles they review in their
# departments. Raters have no business here.
REVIEW_ROLES = (REVIEWER, MANAGER, "admin")


def visible_cycles(user) -> QuerySet[ReviewCycle]:
    require_any_role(user, REVIEW_ROLES)
    qs = ReviewCycle.objects.select_related("department")
    if sees_all_departments(user):
        return qs
    return qs.filter(reviewers=user, department__members=user).distinct()


def get_cycle_for_user(user, pk: int) -> ReviewCycle:
    return get_object_or_404(visible_cycles(user), pk=pk)


def can_manage(user) -> bool:
    return sees_all_departments(user)


def require_manager(user) -> None:
    if not can_manage(user):
        raise PermissionDenied("Only managers open, assign and close review cycles.")


def queue(cycle: ReviewCycle, reviewer) -> QuerySet[ReviewItem]:
    """One reviewer's items in rank order."""
    return cycle.items.filter(reviewer=reviewer).order_by("rank")


def queue_head(cycle: ReviewCycle, reviewer, rank: int) -> ReviewItem | None:
    """Just what an item's header shows (rank, retrievals, version), from the reviewer's own
    queue: for a verdict whose next item the page already holds."""
    return (
        queue(cycle, reviewer)
        .only("cycle_id", "rank", "retrievals", "version")
        .filter(rank=rank)
        .first()
    )


def get_item_for_user(user, cycle: ReviewCycle, rank: int) -> ReviewItem:
    """Reviewers open their own items, and read the ones a colleague of the cycle marked
    unsure (to discuss them); managers may look at any. Only the item's reviewer decides."""
    # Only what every item page shows: the verdict's original and author are read when there
    # is a verdict (two more joins to Reflection and User cost more to plan than to fetch).
    qs = cycle.items.select_related("reflection__agent", "reflection__department", "reviewer")
    if not can_manage(user):
        qs = qs.filter(Q(reviewer=user) | Q(unsure_since__isnull=False))
    return get_object_or_404(qs, rank=rank)


def may_see_item(user, item: ReviewItem) -> bool:
    """Whether `user` may open this item (and so be mentioned in its thread)."""
    if not user.is_active:
        return False
    try:
        if not visible_cycles(user).filter(pk=item.cycle_id).exists():
            return False
    except PermissionDenied:
        return False
    return can_manage(user) or item.reviewer_id == user.pk or item.is_unsure


@dataclass(frozen=True)
class Neighbours:
    previous: int | None
    next: int | None
    next_open: int | None  # the next item without a verdict, wrapping round
    position: int
    total: int
    done: int


@dataclass(frozen=True)
class QueueRows:
    """A reviewer's queue as (rank, verdict) rows: one query over at most ~100 small rows,
    enough to place any of its items without reading it again."""

    rows: list[tuple[int, str]]

    def position(self, rank: int) -> Neighbours:
        """Where the item of this rank sits in the queue."""
        rows = self.rows
        ranks = [r for r, _ in rows]
        i = ranks.index(rank) if rank in ranks else 0
        open_after = [r for r, v in rows[i + 1 :] + rows[: i + 1] if not v and r != rank]
        return Neighbours(
            previous=ranks[i - 1] if i > 0 else None,
            next=ranks[i + 1] if i + 1 < len(ranks) else None,
            next_open=open_after[0] if open_after else None,
            position=i + 1,
            total=len(ranks),
            done=sum(1 for _, v in rows if v),
        )


def queue_rows(cycle: ReviewCycle, reviewer, scores: dict[int, float] | None = None) -> QueueRows:
    """The reviewer's queue in rank order, or, given `scores` (rank → a signal's score), from
    the highest score down (ties in rank order)."""
    rows = list(queue(cycle, reviewer).values_list("rank", "verdict"))
    if scores is not None:
        rows.sort(key=lambda row: (-scores.get(row[0], 0.0), row[0]))
    return QueueRows(rows)


@dataclass
class ReviewerProgress:
    username: str
    total: int
    done: int
    seconds: int

    @property
    def left(self) -> int:
        return self.total - self.done

    @property
    def seconds_per_item(self) -> float | None:
        return self.seconds / self.done if self.done else None


@dataclass
class CycleProgress:
    cycle: ReviewCycle
    reviewers: list[ReviewerProgress] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(r.total for r in self.reviewers)

    @property
    def done(self) -> int:
        return sum(r.done for r in self.reviewers)

    @property
    def left(self) -> int:
        return self.total - self.done

    @property
    def seconds(self) -> int:
        return sum(r.seconds for r in self.reviewers)

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0


def progress(cycles) -> list[CycleProgress]:
    """Items done/left and effort per cycle and reviewer, in one grouped query."""
    cycles = list(cycles)
    by_cycle = {c.pk: CycleProgress(cycle=c) for c in cycles}
    rows = (
        ReviewItem.objects.filter(cycle__in=[c.pk for c in cycles])
        .values("cycle_id", "reviewer__username")
        .annotate(
            total=Count("id"),
            done=Count("id", filter=~Q(verdict="")),
            seconds=Sum("seconds_spent"),
        )
        .order_by("cycle_id", "reviewer__username")
    )
    for row in rows:
        by_cycle[row["cycle_id"]].reviewers.append(
            ReviewerProgress(
                username=row["reviewer__username"] or "(unassigned)",
                total=row["total"],
                done=row["done"],
                seconds=row["seconds"] or 0,
            )
        )
    return [by_cycle[c.pk] for c in cycles]


VERDICT_ORDER = [Verdict.KEEP, Verdict.ECHO_CHAMBER, Verdict.OUTDATED, Verdict.DUPLICATE]


@dataclass
class Report:
    cycle: ReviewCycle
    counts: dict[str, int]  # verdict value (and "restored", "not_reviewed") → items
    deprecated: list[ReviewItem]
    duplicates: list[ReviewItem]
    progress: CycleProgress
    previous: Report | None = None
    # The discussion: items still marked unsure, and every item's comments (oldest first).
    unsure: list[ReviewItem] = field(default_factory=list)
    # Deprecated by their verdict, then put back (reviews.services.restore): not deprecated.
    restored: list[ReviewItem] = field(default_factory=list)
    discussed: list[tuple[ReviewItem, list]] = field(default_factory=list)

    @property
    def comment_count(self) -> int:
        return sum(len(comments) for _, comments in self.discussed)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def deprecated_share(self) -> float | None:
        return len(self.deprecated) / self.total if self.total else None

    @property
    def effort_hours(self) -> float:
        return self.progress.seconds / 3600

    def as_dict(self) -> dict:
        def item_row(item: ReviewItem) -> dict:
            return {
                "rank": item.rank,
                "source_path": item.reflection.source_path,
                "title": item.reflection.title,
                "retrievals": item.retrievals,
                "verdict": item.verdict,
                "duplicate_of": item.duplicate_of.source_path if item.duplicate_of else None,
                "note": item.note,
                "reviewer": item.decided_by.get_username() if item.decided_by else None,
                "decided_at": item.decided_at.isoformat() if item.decided_at else None,
            }

        data = {
            "cycle": cycle_dict(self.cycle),
            "counts": self.counts,
            "total": self.total,
            "deprecated_share": self.deprecated_share,
            "effort_hours": round(self.effort_hours, 2),
            "reviewers": [
                {
                    "reviewer": r.username,
                    "done": r.done,
                    "left": r.left,
                    "hours": round(r.seconds / 3600, 2),
                }
                for r in self.progress.reviewers
            ],
            "deprecated": [item_row(i) for i in self.deprecated],
            "restored": [
                item_row(i)
                | {
                    "restored_by": i.restored_by.get_username() if i.restored_by else None,
                    "restored_at": i.restored_at.isoformat(),
                    "restore_note": i.restore_note,
                }
                for i in self.restored
            ],
            "duplicates": [
                {"source_path": i.reflection.source_path, "original": i.duplicate_of.source_path}
                for i in self.duplicates
            ],
            "unsure": [
                {
                    "rank": i.rank,
                    "source_path": i.reflection.source_path,
                    "title": i.reflection.title,
                    "reviewer": i.reviewer.get_username() if i.reviewer else None,
                    "unsure_since": i.unsure_since.isoformat(),
                }
                for i in self.unsure
            ],
            "comments": [
                {
                    "rank": item.rank,
                    "source_path": item.reflection.source_path,
                    "author": c.author.get_username(),
                    "at": c.at.isoformat(),
                    "body": c.body,
                }
                for item, comments in self.discussed
                for c in comments
            ],
            "previous": None,
        }
        if self.previous is not None:
            data["previous"] = {
                "cycle": cycle_dict(self.previous.cycle),
                "counts": self.previous.counts,
                "total": self.previous.total,
                "deprecated_share": self.previous.deprecated_share,
                "effort_hours": round(self.previous.effort_hours, 2),
            }
        return data


def cycle_dict(cycle: ReviewCycle) -> dict:
    return {
        "id": cycle.pk,
        "department": cycle.department.slug,
        "quarter": cycle.quarter,
        "window_start": cycle.window_start.isoformat(),
        "window_end": cycle.window_end.isoformat(),
        "opened_at": cycle.opened_at.isoformat(),
        "closed_at": cycle.closed_at.isoformat() if cycle.closed_at else None,
    }


def _report(cycle: ReviewCycle, *, with_previous: bool, user=None) -> Report:
    items = list(
        cycle.items.select_related(
            "reflection", "duplicate_of", "decided_by", "reviewer", "restored_by"
        ).order_by("rank")
    )
    # A restored item counts once, as restored, not under the verdict it was restored from.
    counts = {v.value: 0 for v in VERDICT_ORDER} | {"restored": 0, "not_reviewed": 0}
    for item in items:
        counts["restored" if item.is_restored else item.verdict or "not_reviewed"] += 1
    standing = [i for i in items if not i.is_restored]
    report = Report(
        cycle=cycle,
        counts=counts,
        deprecated=[i for i in standing if i.verdict and i.verdict != Verdict.KEEP],
        duplicates=[i for i in standing if i.verdict == Verdict.DUPLICATE],
        restored=[i for i in items if i.is_restored],
        progress=progress([cycle])[0],
        unsure=sorted((i for i in items if i.is_unsure), key=lambda i: (i.unsure_since, i.rank)),
    )
    # A person reads the threads of the items they may open; the command (user None) all.
    readable = [
        i
        for i in items
        if user is None or can_manage(user) or i.reviewer_id == user.pk or i.is_unsure
    ]
    found = threads([i.thread_key for i in readable])
    report.discussed = [(i, found[i.thread_key]) for i in readable if found[i.thread_key]]
    if with_previous:
        earlier = (
            ReviewCycle.objects.filter(department=cycle.department, window_end__lt=cycle.window_end)
            .select_related("department")
            .order_by("-window_end")
            .first()
        )
        if earlier is not None:
            report.previous = _report(earlier, with_previous=False)
    return report


def cycle_report(cycle: ReviewCycle, user=None) -> Report:
    """Counts per verdict, the deprecations with reasons and notes, duplicates with their
    originals, effort, the discussion (unsure items, comments), and the department's previous
    cycle beside it. With `user`, only the threads of items they may open."""
    return _report(cycle, with_previous=True, user=user)
