"""Seeding the demo's ratings: calibrated raters, a closed rating round, imported history.

Five raters (rating_model.RATERS) calibrate on the active set, rate a closed round of
ROUND_SIZE reflections three to an item, and have historical ratings imported from a CSV
written into the workspace. Idempotent: does nothing once any rating exists.
"""

from __future__ import annotations

import csv
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from demo.errors import DemoSeedError
from demo.rating_model import CALIBRATION_SLIPS, RATERS, features_of, latent_quality, rater_levels
from reflections.access import RATER
from reflections.models import Department, Reflection, State
from rubric.models import CRITERIA, CalibrationAttempt, GoldScore, Rating, RatingAssignment
from rubric.selectors.gate import GATED, UNGATED, UNKNOWN, gate_classes
from rubric.services.calibration import record_item_ratings, start_attempt, submit_attempt
from rubric.services.calibration_sets import active_set
from rubric.services.rating_import import IMPORT_COLUMNS, import_ratings
from rubric.services.rounds import close_round, create_round, submit_rating
from rubric.services.rubric import ensure_rubric, level_label

MANAGER = "manager-demo"
ROUND_SIZE = 60
ROUND_SEED = 20261102
HISTORY_SEED = 20260501
HISTORY_ITEMS = 200  # reflections, each rated by three raters: 600 rater-ratings
HISTORY_RATERS = 3
# The historical sample leans on reflections whose task is on record, so gated and ungated
# are both well represented: this many of each, the rest from unknown tasks.
HISTORY_PER_GATE = 70
HISTORY_FILE = "ratings-history.csv"


def seed_demo_ratings(workspace: Path) -> dict:
    """Seed the ratings (see the module docstring); a summary, {"created": False} when
    ratings already exist."""
    workspace = Path(workspace)
    if Rating.objects.exists():
        return {"created": False}
    if not workspace.is_dir():
        raise DemoSeedError(f"{workspace} is not a directory: run seed_demo first")
    if active_set() is None:
        raise DemoSeedError("no active calibration set: run seed_demo_calibration first")
    reflections = list(Reflection.objects.exclude(state=State.QUARANTINED).order_by("source_path"))
    if len(reflections) < ROUND_SIZE:
        raise DemoSeedError(f"fewer than {ROUND_SIZE} reflections: import the demo first")
    ensure_rubric()
    features = features_of(
        reflections,
        gate_classes(Reflection.objects.exclude(state=State.QUARANTINED), whole_memory=True),
    )
    truths = {pk: latent_quality(f) for pk, f in features.items()}

    newest = max(r.created_at for r in reflections)
    anchor = min(timezone.now() - timedelta(days=1), newest + timedelta(days=1))
    anchor = anchor.replace(hour=9, minute=0, second=0, microsecond=0)
    round_start = anchor - timedelta(days=14)
    history_end = anchor - timedelta(days=30)

    with transaction.atomic():
        raters = _raters()
        history = _history_rows(reflections, features, truths, history_end)
        calibrated_at = (
            min(row["rated_at"] for row in history) if history else round_start
        ) - timedelta(days=2)
        kappas = _calibrate(raters, calibrated_at)
        csv_path = workspace / HISTORY_FILE
        _write_csv(csv_path, history)
        summary = import_ratings(csv_path, now=anchor)
        if summary.rejected:
            problems = "; ".join(f"line {r.line}: {r.reason}" for r in summary.rejected[:5])
            raise DemoSeedError(f"the historical ratings did not import: {problems}")
        rating_round = _round(raters, features, truths, round_start, anchor)
    return {
        "created": True,
        "raters": list(RATERS),
        "calibration_kappa": kappas,
        "round": rating_round.pk,
        "round_name": rating_round.name,
        "round_items": rating_round.size,
        "historical_ratings": summary.created,
        "historical_file": str(csv_path),
    }


# ------------------------------------------------------------------------------- steps


def _raters() -> list:
    User = get_user_model()
    group = Group.objects.get_or_create(name=RATER)[0]
    departments = list(Department.objects.all())
    people = []
    for username in RATERS:
        user, created = User.objects.get_or_create(username=username)
        if created:
            # Simulated people: nobody signs in as them (rater-demo is the one to try).
            user.set_unusable_password()
            user.save()
        user.groups.add(group)
        user.departments.set(departments)
        people.append(user)
    return people


def _calibrate(raters: list, at: datetime) -> dict[str, float | None]:
    """A real attempt on the active set per rater: gold plus the rater's usual slips,
    scored by the calibration service, then dated before their first rating."""
    gold: dict[int, dict[str, float]] = {}
    items = {}
    for score in GoldScore.objects.filter(item__calibration_set=active_set()).select_related(
        "item__reflection"
    ):
        gold.setdefault(score.item_id, {})[score.criterion] = score.level
        items[score.item_id] = score.item
    kappas = {}
    for n, rater in enumerate(raters):
        attempt = start_attempt(user=rater)
        for item_id, levels in gold.items():
            item = items[item_id]
            given = rater_levels(
                levels, rater.username, item.reflection.source_path, slips=CALIBRATION_SLIPS
            )
            record_item_ratings(attempt=attempt, item=item, levels=given)
        attempt = submit_attempt(attempt=attempt)
        if not attempt.passed:
            raise DemoSeedError(f"{rater.username} failed the demo calibration")
        started = at - timedelta(hours=2 * len(raters) - 2 * n)
        CalibrationAttempt.objects.filter(pk=attempt.pk).update(
            started_at=started, submitted_at=started + timedelta(minutes=50)
        )
        kappas[rater.username] = attempt.kappa.get("pooled")
    return kappas


def _history_rows(reflections, features, truths, end: datetime) -> list[dict]:
    """Three raters' levels for up to HISTORY_ITEMS reflections created before `end`,
    rated in the weeks after each was written (never after `end`)."""
    rng = random.Random(HISTORY_SEED)
    by_gate: dict[str, list[Reflection]] = {GATED: [], UNGATED: [], UNKNOWN: []}
    for r in reflections:
        if r.created_at < end - timedelta(days=2):
            by_gate[features[r.pk].gate].append(r)
    chosen = []
    for gate in (GATED, UNGATED):
        chosen += rng.sample(by_gate[gate], min(HISTORY_PER_GATE, len(by_gate[gate])))
    rest = HISTORY_ITEMS - len(chosen)
    chosen += rng.sample(by_gate[UNKNOWN], min(rest, len(by_gate[UNKNOWN])))
    rows = []
    for r in sorted(chosen, key=lambda r: (r.created_at, r.source_path)):
        at = min(end, r.created_at + timedelta(days=rng.uniform(2, 45)))
        at = at.replace(microsecond=0)
        for rater in sorted(rng.sample(RATERS, HISTORY_RATERS)):
            levels = rater_levels(truths[r.pk], rater, r.source_path)
            for criterion in CRITERIA:
                rows.append(
                    {
                        "rater": rater,
                        "reflection": r.source_path,
                        "criterion": criterion,
                        "level": levels[criterion],
                        "rated_at": at + timedelta(minutes=RATERS.index(rater) * 7),
                    }
                )
    return rows


def _write_csv(path: Path, rows: list[dict]) -> None:
    with path.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(IMPORT_COLUMNS)
        for row in rows:
            writer.writerow(
                [
                    row["rater"],
                    row["reflection"],
                    row["criterion"],
                    level_label(row["level"]),
                    row["rated_at"].astimezone(UTC).isoformat().replace("+00:00", "Z"),
                ]
            )


def _round(raters, features, truths, start: datetime, anchor: datetime):
    manager = get_user_model().objects.filter(username=MANAGER).first()
    rating_round = create_round(
        name=f"Demo round {start:%B %Y}",
        size=ROUND_SIZE,
        raters=raters,
        seed=ROUND_SEED,
        user=manager,
        now=start,
    )
    rng = random.Random(ROUND_SEED)
    names = {r.pk: r for r in raters}
    last = start
    assignments = RatingAssignment.objects.filter(item__rating_round=rating_round).select_related(
        "item__reflection"
    )
    for assignment in assignments.order_by("item__position", "rater_id"):
        reflection = assignment.item.reflection
        rater = names[assignment.rater_id]
        at = start + timedelta(hours=rng.uniform(1, 24 * 10))
        at = max(at, reflection.created_at + timedelta(hours=1)).replace(microsecond=0)
        last = max(last, at)
        submit_rating(
            assignment=assignment,
            user=rater,
            levels=rater_levels(truths[reflection.pk], rater.username, reflection.source_path),
            now=at,
        )
    close_round(
        rating_round=rating_round,
        user=manager,
        now=max(anchor - timedelta(days=1), last + timedelta(hours=1)),
    )
    return rating_round
