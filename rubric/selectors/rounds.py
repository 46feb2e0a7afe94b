"""Reads for rating rounds: who sees which round, progress, a rater's next item, the export.

Blind rating (DOMAIN §2, §6): nothing here hands a rater anyone's scores — not even their
own round's other raters' names or progress. Scores and comments are for managers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import TextIO

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Avg, Count, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404

from reflections.access import ADMIN, MANAGER, RATER, require_any_role, user_roles
from reflections.models import State
from reflections.scanning.fields import masked_path
from reflexion_site.downloads import SafeCsvWriter, iso_utc
from rubric.eligibility import is_calibrated
from rubric.models import Rating, RatingAssignment, RatingRound, RoundItem

RATING_ROLES = (RATER, MANAGER, ADMIN)
EXPORT_COLUMNS = ("rater", "reflection", "criterion", "level", "rated_at")


def can_manage(user) -> bool:
    return bool(user_roles(user) & {MANAGER, ADMIN})


def require_manager(user) -> None:
    if not can_manage(user):
        raise PermissionDenied("Only managers create and close rating rounds.")


def is_rater(user) -> bool:
    return RATER in user_roles(user)


def calibrated_raters() -> list:
    """Active raters who may join a round now, by username (one calibration check each)."""
    people = (
        get_user_model()
        .objects.filter(groups__name=RATER, is_active=True)
        .order_by("username")
        .distinct()
    )
    return [p for p in people if is_calibrated(p)]


def uncalibrated_raters(calibrated: Iterable) -> list:
    ok = {p.pk for p in calibrated}
    people = (
        get_user_model()
        .objects.filter(groups__name=RATER, is_active=True)
        .order_by("username")
        .distinct()
    )
    return [p for p in people if p.pk not in ok]


@dataclass
class RaterProgress:
    username: str
    done: int
    total: int

    @property
    def left(self) -> int:
        return self.total - self.done


@dataclass
class RoundProgress:
    rating_round: RatingRound
    raters: list[RaterProgress] = field(default_factory=list)

    @property
    def done(self) -> int:
        return sum(r.done for r in self.raters)

    @property
    def total(self) -> int:
        return sum(r.total for r in self.raters)

    @property
    def left(self) -> int:
        return self.total - self.done


def _assignment_counts(assignments: QuerySet[RatingAssignment]) -> QuerySet:
    return (
        assignments.values("item__rating_round_id", "rater__username")
        .annotate(total=Count("id"), done=Count("id", filter=Q(submitted_at__isnull=False)))
        .order_by("item__rating_round_id", "rater__username")
    )


def progress(rounds: Iterable[RatingRound], *, only_rater=None) -> list[RoundProgress]:
    """Assignments done / left per rater of each round, in one query. With `only_rater`,
    just that rater's line: a rater does not learn who else rates their items."""
    rows = [RoundProgress(r) for r in rounds]
    by_id = {row.rating_round.pk: row for row in rows}
    assignments = RatingAssignment.objects.filter(item__rating_round__in=list(by_id))
    if only_rater is not None:
        assignments = assignments.filter(rater=only_rater)
    for count in _assignment_counts(assignments):
        by_id[count["item__rating_round_id"]].raters.append(
            RaterProgress(count["rater__username"], count["done"], count["total"])
        )
    return rows


def all_rounds() -> QuerySet[RatingRound]:
    return RatingRound.objects.select_related("rubric", "created_by")


def rounds_of_rater(user) -> QuerySet[RatingRound]:
    """The rounds where the user has at least one assignment."""
    return all_rounds().filter(items__assignments__rater=user).distinct()


def get_round_for_user(user, pk: int) -> RatingRound:
    """Managers open any round; raters only rounds they have items in (404 hides the rest)."""
    require_any_role(user, RATING_ROLES)
    qs = all_rounds() if can_manage(user) else rounds_of_rater(user)
    return get_object_or_404(qs, pk=pk)


def get_round_for_rater(user, pk: int) -> RatingRound:
    """A round the user rates in, whatever their other roles."""
    require_any_role(user, RATING_ROLES)
    return get_object_or_404(rounds_of_rater(user), pk=pk)


def round_items(rating_round: RatingRound) -> QuerySet[RoundItem]:
    """For managers: every item with its raters' assignments and its mean score so far."""
    return (
        rating_round.items.select_related("reflection", "reflection__department")
        .prefetch_related(
            Prefetch(
                "assignments",
                queryset=RatingAssignment.objects.select_related("rater").order_by(
                    "rater__username"
                ),
            )
        )
        .annotate(
            mean_score=Avg("assignments__ratings__level"),
            rated=Count(
                "assignments",
                filter=Q(assignments__submitted_at__isnull=False),
                distinct=True,
            ),
        )
        .order_by("position")
    )


def rater_assignments(rating_round: RatingRound, user) -> QuerySet[RatingAssignment]:
    """One rater's own assignments in a round, in item order (no scores attached)."""
    return (
        RatingAssignment.objects.filter(item__rating_round=rating_round, rater=user)
        .select_related("item__reflection", "item__reflection__department")
        .order_by("item__position")
    )


@dataclass(frozen=True)
class RaterPosition:
    position: int  # the item being shown, counting the rater's own items from 1 (0: none)
    done: int
    total: int
    previous: int | None = None  # the assignment before it in item order (None: first)
    following: int | None = None  # the one after it (None: last)


def _sequence(rating_round: RatingRound, user) -> list[tuple[int, bool]]:
    """The rater's assignments in item order as (pk, submitted), quarantined ones left out
    (they are never shown)."""
    rows = (
        RatingAssignment.objects.filter(item__rating_round=rating_round, rater=user)
        .exclude(item__reflection__state=State.QUARANTINED)
        .order_by("item__position")
        .values_list("pk", "submitted_at")
    )
    return [(pk, submitted is not None) for pk, submitted in rows]


def rater_position(rating_round: RatingRound, user, assignment=None) -> RaterPosition:
    """Where `assignment` comes among the rater's own items (its own place, rated or not),
    with its neighbours for previous and skip; without one (all done), previous is the last."""
    sequence = _sequence(rating_round, user)
    pks = [pk for pk, _ in sequence]
    done = sum(submitted for _, submitted in sequence)
    if assignment is None or assignment.pk not in pks:
        return RaterPosition(0, done, len(pks), previous=pks[-1] if pks else None)
    i = pks.index(assignment.pk)
    return RaterPosition(
        position=i + 1,
        done=done,
        total=len(pks),
        previous=pks[i - 1] if i > 0 else None,
        following=pks[i + 1] if i + 1 < len(pks) else None,
    )


def next_assignment(rating_round: RatingRound, user, *, after=None) -> RatingAssignment | None:
    """The rater's first unsubmitted assignment in item order — after `after` when given,
    wrapping round — with what the page shows. A reflection quarantined after the round was
    drawn is skipped: it is never shown raw."""
    sequence = _sequence(rating_round, user)
    pks = [pk for pk, _ in sequence]
    start = pks.index(after.pk) + 1 if after is not None and after.pk in pks else 0
    ordered = sequence[start:] + sequence[:start]
    chosen = next((pk for pk, submitted in ordered if not submitted), None)
    if chosen is None:
        return None
    return RatingAssignment.objects.select_related(
        "item__reflection", "item__reflection__agent", "item__reflection__department"
    ).get(pk=chosen)


def get_assignment_for_rater(rating_round: RatingRound, user, pk: int) -> RatingAssignment:
    """Only the rater's own assignment: another rater's is a 404, not a 403. So is one whose
    reflection was quarantined since the round was drawn (its text is for admins only)."""
    return get_object_or_404(
        RatingAssignment.objects.select_related(
            "item__reflection", "item__reflection__agent", "item__reflection__department"
        ).exclude(item__reflection__state=State.QUARANTINED),
        pk=pk,
        item__rating_round=rating_round,
        rater=user,
    )


# --------------------------------------------------------------------------- export


def export_ratings(
    *, round_id: int | None = None, since: date | datetime | None = None
) -> QuerySet[Rating]:
    qs = Rating.objects.select_related("rater", "reflection")
    if round_id is not None:
        qs = qs.filter(assignment__item__rating_round_id=round_id)
    if since is not None:
        if not isinstance(since, datetime):
            since = datetime(since.year, since.month, since.day, tzinfo=UTC)
        qs = qs.filter(rated_at__gte=since)
    return qs.order_by("rated_at", "rater__username", "reflection__source_path", "criterion")


def export_rows(ratings: Iterable[Rating]) -> Iterator[list[str]]:
    """The import's columns; the reflection named by source path (masked for a quarantined
    one, whose path may hold what the scanner found), times in UTC."""
    for rating in ratings:
        reflection = rating.reflection
        quarantined = reflection.state == State.QUARANTINED
        yield [
            rating.rater.get_username(),
            masked_path(reflection.source_path) if quarantined else reflection.source_path,
            rating.criterion,
            f"{rating.level:g}",
            iso_utc(rating.rated_at),
        ]


def write_ratings_csv(ratings: Iterable[Rating], stream: TextIO) -> int:
    """CSV with a header row; every cell safe to open in a spreadsheet. Returns the count."""
    writer = SafeCsvWriter(stream)
    writer.writerow(EXPORT_COLUMNS)
    n = 0
    for row in export_rows(ratings):
        writer.writerow(row)
        n += 1
    return n
