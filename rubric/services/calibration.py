"""Calibration attempts (DOMAIN §6): a rater's blind run over the active set, scored against
gold; whether they passed; the results they see afterwards."""

import random
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.db import transaction
from django.utils import timezone

from rubric.agreement import kappa, kappa_undefined_reason
from rubric.eligibility import latest_attempt, quarter_of
from rubric.held_out import NoFairRetry, plan_attempt, revealed_by
from rubric.models import (
    CRITERIA,
    CalibrationAttempt,
    CalibrationItem,
    CalibrationPolicy,
    CalibrationRating,
    CalibrationSet,
    GoldScore,
)
from rubric.services.calibration_sets import (
    KAPPA_TOLERANCE,
    CalibrationError,
    active_set,
    parse_level,
)
from rubric.services.rubric import current_rubric, level_label

# ---------------------------------------------------------------------------------------------
# Attempts


def open_attempt(user) -> CalibrationAttempt | None:
    """The rater's unsubmitted attempt on the active set: where they resume."""
    return (
        CalibrationAttempt.objects.filter(
            rater=user, submitted_at__isnull=True, calibration_set__is_active=True
        )
        .order_by("-started_at", "-id")
        .first()
    )


def draw_order(
    positions: list[int], previous: list[int] | None = None, *, rng: random.Random | None = None
) -> list[int]:
    """The positions in a fresh random order for a new attempt, never the previous attempt's
    sequence (nor, with more than two items, its first item): a retry cannot be passed by
    remembering the order the levels came in."""
    rng = rng or random.Random(secrets.randbits(64))
    order = list(positions)
    if len(order) < 2:
        return order
    for _ in range(100):
        rng.shuffle(order)
        fresh = order != list(previous or [])
        if fresh and (len(order) <= 2 or not previous or order[0] != previous[0]):
            return order
    return order


@transaction.atomic
def start_attempt(*, user) -> CalibrationAttempt:
    """Resume the rater's open attempt, or start one on the active set under the current
    rubric (the version every score of the attempt is given under), its items in a new order
    (see draw_order), scored only on items whose gold this rater has not seen (held_out)."""
    resumed = open_attempt(user)
    if resumed is not None:
        return resumed
    calibration_set = active_set()
    if calibration_set is None:
        raise CalibrationError("there is no calibration set yet; an admin builds one")
    before = list(
        CalibrationAttempt.objects.filter(rater=user, calibration_set=calibration_set)
        .order_by("-started_at", "-id")
        .values_list("order", "scored", "held_out", "submitted_at")
    )
    positions = list(calibration_set.items.order_by("position").values_list("position", flat=True))
    seen: set[int] = set()
    for _, scored, held_out, submitted_at in before:
        if submitted_at is not None:
            seen |= revealed_by(scored, held_out, positions)
    try:
        plan = plan_attempt(positions, seen, rng=random.Random(secrets.randbits(64)))
    except NoFairRetry as error:
        raise CalibrationError(str(error)) from None
    previous = before[0][0] if before else None
    return CalibrationAttempt.objects.create(
        rater=user,
        calibration_set=calibration_set,
        rubric=current_rubric(),
        started_at=timezone.now(),
        order=draw_order(positions, previous or positions),
        scored=plan.scored,
        held_out=plan.held_out,
    )


def counts_for(attempt: CalibrationAttempt) -> set[int] | None:
    """Positions the attempt is scored on (None: every item, attempts from before)."""
    return set(attempt.scored) if attempt.scored else None


def attempt_levels(attempt: CalibrationAttempt) -> dict[int, dict[str, float]]:
    """item id → {criterion: level} the rater gave so far (one query)."""
    given: dict[int, dict[str, float]] = {}
    for item_id, criterion, level in attempt.scores.values_list("item_id", "criterion", "level"):
        given.setdefault(item_id, {})[criterion] = level
    return given


@dataclass(frozen=True)
class Progress:
    positions: list[int]  # in the order the attempt serves them
    rated: set[int]  # positions with every criterion rated

    @property
    def total(self) -> int:
        return len(self.positions)

    @property
    def done(self) -> int:
        return len(self.rated)

    @property
    def complete(self) -> bool:
        return self.done == self.total and self.total > 0

    def number(self, position: int) -> int:
        """Where the item comes in this attempt (1 = first served)."""
        return self.positions.index(position) + 1

    def first_open(self, after: int = 0) -> int | None:
        """The next position (in serving order) without a full rating after `after` (0: from
        the start), wrapping round."""
        start = self.positions.index(after) + 1 if after in self.positions else 0
        sequence = self.positions[start:] + self.positions[:start]
        return next((p for p in sequence if p not in self.rated), None)

    def neighbours(self, position: int) -> tuple[int | None, int | None]:
        i = self.positions.index(position)
        previous = self.positions[i - 1] if i > 0 else None
        following = self.positions[i + 1] if i + 1 < len(self.positions) else None
        return previous, following


def attempt_progress(attempt: CalibrationAttempt, given: dict[int, dict] | None = None) -> Progress:
    """Positions of the set and which are fully rated (one query, plus one without `given`)."""
    given = attempt_levels(attempt) if given is None else given
    rows = dict(attempt.calibration_set.items.values_list("position", "id"))
    rated = {p for p, item_id in rows.items() if len(given.get(item_id, {})) == len(CRITERIA)}
    served = [p for p in attempt.order or () if p in rows]
    positions = served if len(served) == len(rows) else sorted(rows)
    return Progress(positions=positions, rated=rated)


def _require_open(attempt: CalibrationAttempt) -> None:
    if attempt.submitted_at is not None:
        raise CalibrationError("this attempt is submitted; its ratings are final")


@transaction.atomic
def record_item_ratings(
    *, attempt: CalibrationAttempt, item: CalibrationItem, levels: dict[str, float]
) -> None:
    """Save (or change) the rater's four levels for one item: partial progress that resumes."""
    # Read under a lock, not from the caller's copy: a submission in between freezes it.
    _require_open(
        CalibrationAttempt.objects.select_for_update().only("submitted_at").get(pk=attempt.pk)
    )
    if item.calibration_set_id != attempt.calibration_set_id:
        raise CalibrationError("that item is not in this attempt's calibration set")
    missing = [c for c in CRITERIA if levels.get(c) is None]
    if missing:
        raise CalibrationError([f"{c}: pick a level" for c in missing])
    now = timezone.now()
    CalibrationRating.objects.filter(attempt=attempt, item=item).delete()
    CalibrationRating.objects.bulk_create(
        CalibrationRating(
            attempt=attempt, item=item, criterion=c, level=parse_level(levels[c]), rated_at=now
        )
        for c in CRITERIA
    )


@dataclass(frozen=True)
class Agreement:
    kappa: dict[str, float | None]  # per criterion and "pooled": quadratic-weighted κ
    exact: dict[str, float | None]  # share of exact matches
    # Why a κ is undefined, in words (criterion or "pooled" → reason; absent when defined).
    undefined: dict[str, str] = field(default_factory=dict)


def agreement_with_gold(pairs: dict[str, list[tuple[float, float]]]) -> Agreement:
    """criterion → [(rater's level, gold level)] → κ and exact agreement per criterion and
    pooled over all criteria (every pair of every criterion together)."""
    kappas, exact, undefined = {}, {}, {}
    pooled: list[tuple[float, float]] = []
    for criterion in [*CRITERIA, "pooled"]:
        rows = pooled if criterion == "pooled" else pairs.get(criterion, [])
        if criterion != "pooled":
            pooled += rows
        mine, agreed = [a for a, _ in rows], [g for _, g in rows]
        kappas[criterion] = kappa(mine, agreed, weights="quadratic")
        exact[criterion] = sum(a == g for a, g in rows) / len(rows) if rows else None
        if kappas[criterion] is None:
            undefined[criterion] = kappa_undefined_reason(mine, agreed) or (
                "κ could not be computed for these levels"
            )
    return Agreement(kappa=kappas, exact=exact, undefined=undefined)


def gold_levels(attempt: CalibrationAttempt) -> dict[int, dict[str, float]]:
    """item id → {criterion: gold level} of the attempt's set (one query)."""
    gold: dict[int, dict[str, float]] = {}
    for item_id, criterion, level in GoldScore.objects.filter(
        item__calibration_set=attempt.calibration_set_id
    ).values_list("item_id", "criterion", "level"):
        gold.setdefault(item_id, {})[criterion] = level
    return gold


def attempt_agreement(attempt: CalibrationAttempt) -> Agreement:
    """The submitted attempt's agreement recomputed from its levels (with the reasons an
    undefined κ has); only ever called after submission."""
    if attempt.submitted_at is None:
        raise CalibrationError("gold is shown only after the attempt is submitted")
    given, gold = attempt_levels(attempt), gold_levels(attempt)
    counted = _counted_items(attempt)
    pairs: dict[str, list[tuple[float, float]]] = {c: [] for c in CRITERIA}
    for item_id, levels in sorted(gold.items()):
        if counted is not None and item_id not in counted:
            continue
        for criterion, level in levels.items():
            if criterion in given.get(item_id, {}):
                pairs[criterion].append((given[item_id][criterion], level))
    return agreement_with_gold(pairs)


def _counted_items(attempt: CalibrationAttempt) -> set[int] | None:
    """Item ids the attempt is scored on (None: all)."""
    positions = counts_for(attempt)
    if positions is None:
        return None
    return set(
        attempt.calibration_set.items.filter(position__in=positions).values_list("pk", flat=True)
    )


def calibration_passed(pooled_kappa: float | None, pass_kappa: float) -> bool:
    """Pooled κ at or above the threshold passes; an undefined κ never does."""
    return pooled_kappa is not None and pooled_kappa >= pass_kappa - KAPPA_TOLERANCE


@transaction.atomic
def submit_attempt(*, attempt: CalibrationAttempt) -> CalibrationAttempt:
    """Score a complete attempt against gold, with the threshold in force now."""
    attempt = CalibrationAttempt.objects.select_for_update().get(pk=attempt.pk)
    _require_open(attempt)
    given = attempt_levels(attempt)
    progress = attempt_progress(attempt, given)
    if not progress.complete:
        left = progress.total - progress.done
        raise CalibrationError(f"{left} item{'s' if left != 1 else ''} still to rate")
    pairs: dict[str, list[tuple[float, float]]] = {c: [] for c in CRITERIA}
    gold = GoldScore.objects.filter(item__calibration_set=attempt.calibration_set_id)
    if counts_for(attempt) is not None:
        gold = gold.filter(item__position__in=counts_for(attempt))
    for item_id, criterion, level in gold.order_by("item__position", "criterion").values_list(
        "item_id", "criterion", "level"
    ):
        pairs[criterion].append((given[item_id][criterion], level))
    agreement = agreement_with_gold(pairs)
    policy = CalibrationPolicy.current()
    attempt.kappa = agreement.kappa
    attempt.exact = agreement.exact
    attempt.pass_kappa = policy.pass_kappa
    attempt.passed = calibration_passed(agreement.kappa["pooled"], policy.pass_kappa)
    attempt.submitted_at = timezone.now()
    attempt.save(update_fields=["kappa", "exact", "pass_kappa", "passed", "submitted_at"])
    return attempt


# ---------------------------------------------------------------------------------------------
# What a rater sees


@dataclass(frozen=True)
class RaterStatus:
    state: str  # none | in_progress | passed | failed | recalibrate | no_set
    latest: CalibrationAttempt | None
    open: CalibrationAttempt | None
    active_set: CalibrationSet | None


def rater_status(user, *, now: datetime | None = None) -> RaterStatus:
    """Where the rater stands (see reviews.calibration.is_calibrated for the rule)."""
    latest = latest_attempt(user)
    current = open_attempt(user)
    calibration_set = active_set()
    if latest is not None and latest.passed:
        policy = CalibrationPolicy.current()
        now = now or datetime.now(UTC)
        stale = policy.require_each_quarter and quarter_of(latest.submitted_at) != quarter_of(now)
        state = "recalibrate" if stale else "passed"
    elif latest is not None:
        state = "failed"
    else:
        state = "none"
    if current is not None:
        state = "in_progress" if state in {"none", "failed"} else state
    elif calibration_set is None and state == "none":
        state = "no_set"
    return RaterStatus(state=state, latest=latest, open=current, active_set=calibration_set)


@dataclass
class ResultRow:
    item: CalibrationItem
    number: int = 0  # where the attempt served it
    agreed: int = 0  # criteria where the rater's level is gold's
    largest_gap: float = 0.0  # the largest distance from gold over the criteria
    # revealed: scored, gold shown now · held_out: scored, gold kept hidden for a fair retry ·
    # practice: gold already shown by an earlier attempt, so not scored
    status: str = "revealed"
    criteria: list[dict] = field(default_factory=list)  # key, name, given, gold, match, anchors


def attempt_overview(attempt: CalibrationAttempt) -> list[ResultRow]:
    """Per item, in the order served: how many criteria matched gold and the largest gap —
    never the gold levels themselves (those are shown one item at a time, item_result)."""
    if attempt.submitted_at is None:
        raise CalibrationError("gold is shown only after the attempt is submitted")
    given, gold = attempt_levels(attempt), gold_levels(attempt)
    progress = attempt_progress(attempt, given)
    items = {i.position: i for i in attempt.calibration_set.items.select_related("reflection")}
    rows = []
    scored, held_out = counts_for(attempt), set(attempt.held_out)
    for number, position in enumerate(progress.positions, start=1):
        item = items[position]
        if position in held_out:
            rows.append(ResultRow(item=item, number=number, status="held_out"))
            continue
        status = "practice" if scored is not None and position not in scored else "revealed"
        mine, agreed = given.get(item.pk, {}), gold.get(item.pk, {})
        gaps = [abs(mine[c] - agreed[c]) for c in CRITERIA if c in mine and c in agreed]
        rows.append(
            ResultRow(
                item=item,
                number=number,
                agreed=sum(gap == 0 for gap in gaps),
                largest_gap=max(gaps, default=0.0),
                status=status,
            )
        )
    return rows


def item_result(attempt: CalibrationAttempt, item: CalibrationItem, criteria) -> ResultRow:
    """One item of a submitted attempt: the rater's levels beside gold, with what gold means
    and its anchors where they differ."""
    if attempt.submitted_at is None:
        raise CalibrationError("gold is shown only after the attempt is submitted")
    if item.position in set(attempt.held_out):
        raise CalibrationError(
            "this item's gold is held out: your next attempt is scored on it, so it stays hidden"
        )
    given = attempt_levels(attempt).get(item.pk, {})
    gold = dict(GoldScore.objects.filter(item=item).values_list("criterion", "level"))
    row = ResultRow(item=item, number=attempt_progress(attempt).number(item.position))
    for c in criteria:
        mine, agreed = given.get(c.key), gold.get(c.key)
        row.criteria.append(
            {
                "key": c.key,
                "name": c.name,
                "given": None if mine is None else level_label(mine),
                "gold": None if agreed is None else level_label(agreed),
                "match": mine is not None and mine == agreed,
                "off_by": None if mine is None or agreed is None else abs(mine - agreed),
                "gold_description": next(
                    (lv.description for lv in c.levels.all() if lv.value == agreed), ""
                ),
                "anchors": [a for a in c.anchors.all() if a.value == agreed],
            }
        )
    row.agreed = sum(c["match"] for c in row.criteria)
    return row
