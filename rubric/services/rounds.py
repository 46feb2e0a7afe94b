"""Writes of rating rounds (DOMAIN §6): sampling and dealing a round, blind ratings, closing."""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone

from reflections.access import RATER, user_roles
from reflections.importers.base import show
from reflections.models import Reflection, State
from reflections.scanning import typed
from rubric.eligibility import is_calibrated
from rubric.models import CRITERIA, LEVELS, Rating, RatingAssignment, RatingRound, RoundItem
from rubric.services.rubric import current_rubric

MAX_ROUND_SIZE = 1000
MAX_COMMENT_CHARS = 2000
NO_VALUE = "none"  # how a stratum names a missing outcome (decisions) or task type


class RatingError(Exception):
    """A round or a rating the rules refuse; the message is written for the person acting."""


# --------------------------------------------------------------------------- sampling


Stratum = tuple[str, str, str]  # department slug, outcome, task type


def stratum_label(stratum: Stratum) -> str:
    return "/".join(stratum)[:255]


def allocate(counts: dict[Stratum, int], size: int, rng: random.Random) -> dict[Stratum, int]:
    """How many items each stratum contributes to a sample of `size`.

    Proportional allocation, rounded by largest remainder (Hamilton): every stratum gets the
    whole part of size·Nₛ/N, and the seats left go to the largest fractional parts (ties in
    a seeded random order, so no department is favoured by its name). Then, while the size
    allows (size ≥ number of strata), a stratum left at 0 gets one item, taken from the
    stratum whose allocation most exceeds its exact share and still has more than one: small
    strata are seen at all, and the big ones barely move. Never more than a stratum holds.
    """
    total = sum(counts.values())
    if size >= total:
        return dict(counts)
    keys = sorted(counts)
    exact = {k: size * counts[k] / total for k in keys}
    quota = {k: math.floor(exact[k]) for k in keys}
    tie = {k: rng.random() for k in keys}
    left = size - sum(quota.values())
    for k in sorted(keys, key=lambda k: (-(exact[k] - quota[k]), tie[k]))[:left]:
        quota[k] += 1
    if size >= len(keys):
        for k in keys:
            if quota[k]:
                continue
            donors = [d for d in keys if quota[d] > 1]
            donor = max(donors, key=lambda d: (quota[d] - exact[d], -tie[d]))
            quota[donor] -= 1
            quota[k] = 1
    return quota


def sample_reflections(
    candidates: Sequence[tuple[int, Stratum]], size: int, rng: random.Random
) -> list[tuple[int, Stratum]]:
    """A stratified sample of (reflection id, stratum), in a seeded random order."""
    by_stratum: dict[Stratum, list[int]] = defaultdict(list)
    for pk, stratum in sorted(candidates):  # by id: the same data gives the same draw
        by_stratum[stratum].append(pk)
    quota = allocate({k: len(v) for k, v in by_stratum.items()}, size, rng)
    chosen = []
    for stratum in sorted(by_stratum):
        picked = rng.sample(by_stratum[stratum], quota[stratum])
        chosen.extend((pk, stratum) for pk in sorted(picked))
    # Raters meet the strata mixed, not one department after another.
    rng.shuffle(chosen)
    return chosen


def deal(n_items: int, rater_ids: Sequence[int], per_item: int, rng: random.Random) -> list:
    """For each item, `per_item` distinct raters: the least loaded so far, ties in a seeded
    random order. Loads stay within one of each other (the least loaded always go first)."""
    load = dict.fromkeys(sorted(rater_ids), 0)
    dealt = []
    for _ in range(n_items):
        order = sorted(load, key=lambda r: (load[r], rng.random()))
        picked = sorted(order[:per_item])
        for r in picked:
            load[r] += 1
        dealt.append(picked)
    return dealt


def _check_raters(raters: Iterable, per_item: int) -> list:
    unique = {r.pk: r for r in raters}
    people = [unique[pk] for pk in sorted(unique)]
    no_role = [p.get_username() for p in people if RATER not in user_roles(p)]
    if no_role:
        raise RatingError(
            f"Only raters can be given items; {', '.join(no_role)} "
            f"{'does' if len(no_role) == 1 else 'do'} not hold the rater role."
        )
    uncalibrated = [p.get_username() for p in people if not is_calibrated(p)]
    if uncalibrated:
        raise RatingError(
            f"Only calibrated raters may join a round; {', '.join(uncalibrated)} "
            f"{'has' if len(uncalibrated) == 1 else 'have'} not passed calibration "
            "(or it has lapsed). They can calibrate at /calibration/."
        )
    if len(people) < per_item:
        raise RatingError(
            f"Each item needs {per_item} distinct raters, but only {len(people)} "
            f"{'was' if len(people) == 1 else 'were'} chosen."
        )
    return people


@transaction.atomic
def create_round(
    *,
    name: str,
    size: int,
    raters: Iterable,
    seed: int,
    user=None,
    raters_per_item: int = 3,
    now: datetime | None = None,
) -> RatingRound:
    """Sample `size` non-quarantined reflections stratified by department, outcome and task
    type (see `allocate`), and give each to `raters_per_item` distinct calibrated raters.

    Reproducible: the same seed over the same reflections and raters gives the same items in
    the same order dealt to the same people.
    """
    name = (name or "").strip()
    if not name:
        raise RatingError("Name the round.")
    if raters_per_item < 1:
        raise RatingError("Each item needs at least one rater.")
    if not 1 <= size <= MAX_ROUND_SIZE:
        raise RatingError(f"A round samples between 1 and {MAX_ROUND_SIZE} reflections.")
    people = _check_raters(raters, raters_per_item)
    rubric = current_rubric()

    # Quarantined text is for admins only; it never goes into a round (DOMAIN §3.4).
    rows = Reflection.objects.exclude(state=State.QUARANTINED).values_list(
        "id", "department__slug", "outcome", "task_type"
    )
    candidates = [
        (pk, (dept, outcome or NO_VALUE, task_type or NO_VALUE))
        for pk, dept, outcome, task_type in rows
    ]
    if len(candidates) < size:
        raise RatingError(
            f"Only {len(candidates)} reflections can be sampled (quarantined ones never are); "
            f"ask for at most that many."
        )
    rng = random.Random(seed)
    chosen = sample_reflections(candidates, size, rng)
    dealt = deal(len(chosen), [p.pk for p in people], raters_per_item, rng)

    rating_round = RatingRound.objects.create(
        name=typed(name)[:128],
        rubric=rubric,
        size=len(chosen),
        raters_per_item=raters_per_item,
        seed=seed,
        created_at=now or timezone.now(),
        created_by=user,
    )
    rating_round.raters.set(people)
    items = RoundItem.objects.bulk_create(
        RoundItem(
            rating_round=rating_round,
            reflection_id=pk,
            position=position,
            stratum=stratum_label(stratum),
        )
        for position, (pk, stratum) in enumerate(chosen, start=1)
    )
    if any(item.pk is None for item in items):  # backends that do not return ids
        items = list(rating_round.items.order_by("position"))
    RatingAssignment.objects.bulk_create(
        RatingAssignment(item=item, rater_id=rater_id)
        for item, rater_ids in zip(items, dealt, strict=True)
        for rater_id in rater_ids
    )
    return rating_round


@transaction.atomic
def close_round(*, rating_round: RatingRound, user=None, now: datetime | None = None) -> None:
    """Close a round: no more ratings are taken; what was submitted stays."""
    locked = RatingRound.objects.select_for_update().get(pk=rating_round.pk)
    if locked.closed_at is not None:
        raise RatingError(f"{locked.name} is already closed.")
    locked.closed_at = now or timezone.now()
    locked.save(update_fields=["closed_at"])
    rating_round.closed_at = locked.closed_at


# --------------------------------------------------------------------------- rating


def mark_shown(assignment: RatingAssignment, *, now: datetime | None = None) -> None:
    """When the rater first saw the item (time on an item counts from here)."""
    if assignment.shown_at is None and assignment.submitted_at is None:
        assignment.shown_at = now or timezone.now()
        RatingAssignment.objects.filter(pk=assignment.pk, shown_at__isnull=True).update(
            shown_at=assignment.shown_at
        )


def _clean_levels(levels: dict) -> dict[str, float]:
    problems = []
    unknown = sorted(set(levels) - set(CRITERIA))
    if unknown:
        problems.append(f"unknown criteria {', '.join(map(str, unknown))}")
    clean = {}
    for criterion in CRITERIA:
        value = levels.get(criterion)
        if value is None or value == "":
            problems.append(f"{criterion}: pick a level")
            continue
        try:
            level = float(value)
        except (TypeError, ValueError):
            level = math.nan
        if level not in LEVELS:
            problems.append(
                f"{criterion}: {show(value)} is not a level; use one of "
                + ", ".join(f"{v:g}" for v in LEVELS)
            )
            continue
        clean[criterion] = level
    if problems:
        raise RatingError("Not recorded — " + "; ".join(problems) + ".")
    return clean


@transaction.atomic
def submit_rating(
    *,
    assignment: RatingAssignment,
    user,
    levels: dict,
    comment: str = "",
    version: int | None = None,
    now: datetime | None = None,
) -> RatingAssignment:
    """Record the rater's levels on all four criteria. While the round is open the rater may
    change a submitted rating: the change names the `version` it was made on (a stale page
    is refused, so the last write wins only over what the rater saw) and is audited."""
    locked = (
        RatingAssignment.objects.select_for_update()
        .select_related("item__rating_round", "item__reflection")
        .get(pk=assignment.pk)
    )
    if locked.rater_id != user.pk:
        raise RatingError("This item is assigned to another rater; only they can rate it.")
    rating_round = locked.item.rating_round
    if not rating_round.is_open:
        raise RatingError(
            f"{rating_round.name} is closed; it takes no more ratings and its ratings are final."
        )
    if locked.submitted_at is not None and version is None:
        raise RatingError(
            "You already rated this item; open it from your rated items to change it."
        )
    if version is not None and version != locked.version:
        raise RatingError(
            "Not recorded — this rating changed since you opened it (in another tab?); "
            "reload it to see the levels now recorded."
        )
    if not is_calibrated(user):
        raise RatingError("Your calibration has lapsed; calibrate again before rating.")
    clean = _clean_levels(levels)
    comment = typed(comment)
    if len(comment) > MAX_COMMENT_CHARS:
        raise RatingError(
            f"Not recorded — the comment is {len(comment):,} characters; "
            f"the limit is {MAX_COMMENT_CHARS:,}."
        )
    now = now or timezone.now()
    if locked.submitted_at is not None:
        _change_rating(locked, user, clean, comment, now)
        return locked
    Rating.objects.bulk_create(
        Rating(
            rater_id=user.pk,
            reflection_id=locked.item.reflection_id,
            criterion=criterion,
            level=level,
            rubric_id=rating_round.rubric_id,
            rated_at=now,
            source=Rating.Source.ROUND,
            assignment=locked,
        )
        for criterion, level in clean.items()
    )
    locked.comment = comment
    locked.submitted_at = now
    locked.shown_at = locked.shown_at or now
    locked.version += 1
    locked.save(update_fields=["comment", "submitted_at", "shown_at", "version"])
    return locked


def _change_rating(locked: RatingAssignment, user, clean: dict, comment: str, now) -> None:
    """Overwrite a submitted rating in place and log what changed (admin log: who, when,
    old → new per criterion)."""
    before = dict(locked.ratings.values_list("criterion", "level"))
    changes = [
        f"{criterion} {before.get(criterion, 0):g} → {level:g}"
        for criterion, level in clean.items()
        if before.get(criterion) != level
    ]
    if comment != locked.comment:
        changes.append("comment changed")
    for criterion, level in clean.items():
        if before.get(criterion) != level:
            locked.ratings.filter(criterion=criterion).update(level=level, rated_at=now)
    locked.comment = comment
    locked.version += 1
    locked.changed_at = now
    locked.save(update_fields=["comment", "version", "changed_at"])
    LogEntry.objects.create(
        user=user,
        content_type=ContentType.objects.get_for_model(RatingAssignment),
        object_id=str(locked.pk),
        object_repr=str(locked)[:200],
        action_flag=CHANGE,
        change_message=f"rating v{locked.version}: " + ("; ".join(changes) or "no change"),
    )
