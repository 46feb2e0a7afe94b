"""Demo rubric ratings (DOMAIN §6): five calibrated raters, a closed rating round of 60
reflections each rated by three of them, and historical ratings imported from a CSV written
into the workspace. Idempotent: does nothing once any rating exists.

The levels come from a deterministic model, so the quality pages and the agreement page show
the reference study's shapes on the demo (see `latent_quality` and `rater_level`):

* every reflection has a latent "true quality" per criterion, from its features:
  base 0.53; technical task types +0.28, judgment-like ones -0.17 (task families as in
  reviews.selectors_quality); a task that met the trigger gate +0.14, one that did not
  -0.28; the text's concreteness — the calibration heuristic's level for the criterion
  (reviews.services_calibration.heuristic_gold) — moves it by 0.4 x (level - 0.6); a text
  under 40 words -0.05; plus an idiosyncratic ±0.06 per reflection and criterion; clamped
  to 0…1 and rounded to the nearest level;
* a rater gives that level, or one level up or down with the rater's probabilities: rater-a
  and rater-d even-handed, rater-b lenient (up more often), rater-c strict (down more often),
  rater-e a little noisier; transferability is the hardest criterion to agree on and
  actionability the easiest (so per-criterion κ ranks as in the reference study); on their
  calibration attempt (gold as the true level) they slip six times as often;
* every draw is a hash of (source path, rater, criterion): the same reflection gets the same
  level from the same rater on every machine and in every run, whatever the database ids.
"""

from __future__ import annotations

import csv
import hashlib
import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from demo.calibration import heuristic_gold
from reflections.access import RATER
from reflections.models import Department, Reflection, State
from rubric.models import CRITERIA, LEVELS, CalibrationAttempt, GoldScore, Rating, RatingAssignment
from rubric.selectors.quality import (
    GATED,
    JUDGMENT,
    TECHNICAL,
    UNGATED,
    UNKNOWN,
    gate_classes,
    task_families,
    task_family,
)
from rubric.services.calibration import record_item_ratings, start_attempt, submit_attempt
from rubric.services.calibration_sets import active_set
from rubric.services.rating_import import IMPORT_COLUMNS, import_ratings
from rubric.services.rounds import close_round, create_round, submit_rating
from rubric.services.rubric import ensure_rubric, level_label

RATERS = ("rater-a", "rater-b", "rater-c", "rater-d", "rater-e")
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

BASE = 0.53
FAMILY_EFFECT = {TECHNICAL: 0.28, JUDGMENT: -0.17}
GATE_EFFECT = {GATED: 0.14, UNGATED: -0.28, UNKNOWN: 0.0}
TEXT_WEIGHT = 0.4
TEXT_CENTRE = 0.6
SHORT_WORDS, SHORT_EFFECT = 40, -0.05
IDIOSYNCRATIC = 0.06


@dataclass(frozen=True)
class RaterProfile:
    up: float  # probability of rating one level above the true level
    down: float  # … and one below


PROFILES = {
    "rater-a": RaterProfile(up=0.035, down=0.035),
    "rater-b": RaterProfile(up=0.10, down=0.014),  # lenient
    "rater-c": RaterProfile(up=0.014, down=0.10),  # strict
    "rater-d": RaterProfile(up=0.04, down=0.04),
    "rater-e": RaterProfile(up=0.0575, down=0.0575),
}
# How much harder a criterion is to agree on than the average (multiplies up and down).
CRITERION_NOISE = {
    "specificity": 0.9,
    "actionability": 0.6,
    "transferability": 1.15,
    "accuracy": 1.7,
}
# A rater's first, blind pass over the calibration set (before gold and anchors taught them)
# slips this many times as often as their later ratings: pooled quadratic-weighted κ against
# gold lands around 0.8 (0.78 to 0.88 on the demo), a pass at the default 0.6 with room to
# learn.
CALIBRATION_SLIPS = 6.0
MAX_SLIP = 0.4  # never more likely up (or down) than this


def draw(*parts: object) -> float:
    """A uniform number in [0, 1) fixed by its parts."""
    digest = hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()
    return int(digest[:13], 16) / 16**13


def nearest_level(score: float) -> float:
    return min(LEVELS, key=lambda level: (abs(level - score), level))


@dataclass(frozen=True)
class Features:
    path: str
    family: str
    gate: str
    words: int
    text_levels: dict[str, float]


def features_of(reflections: list[Reflection], gates: dict[int, str]) -> dict[int, Features]:
    families = task_families()
    return {
        r.pk: Features(
            path=r.source_path,
            family=task_family(r.task_type, families),
            gate=gates.get(r.pk, UNKNOWN),
            words=len((r.body or "").split()),
            text_levels=heuristic_gold(r),
        )
        for r in reflections
    }


def latent_quality(f: Features) -> dict[str, float]:
    """The reflection's true level per criterion (the model in the module docstring)."""
    out = {}
    for criterion in CRITERIA:
        score = BASE + FAMILY_EFFECT.get(f.family, 0.0) + GATE_EFFECT[f.gate]
        score += TEXT_WEIGHT * (f.text_levels[criterion] - TEXT_CENTRE)
        if f.words < SHORT_WORDS:
            score += SHORT_EFFECT
        score += IDIOSYNCRATIC * (2 * draw(f.path, criterion, "item") - 1)
        out[criterion] = nearest_level(min(1.0, max(0.0, score)))
    return out


def rater_level(
    true_level: float, rater: str, key: str, criterion: str, *, slips: float = 1.0
) -> float:
    """What `rater` gives an item whose true level is `true_level` (see the docstring);
    `slips` multiplies how often they are a level off."""
    profile = PROFILES[rater]
    noise = CRITERION_NOISE[criterion] * slips
    up, down = min(MAX_SLIP, profile.up * noise), min(MAX_SLIP, profile.down * noise)
    u = draw(key, rater, criterion, "rater" if slips == 1.0 else f"slips {slips:g}")
    index = LEVELS.index(true_level)
    if u < up:
        index += 1
    elif u < up + down:
        index -= 1
    return LEVELS[min(len(LEVELS) - 1, max(0, index))]


def rater_levels(
    truth: dict[str, float], rater: str, key: str, *, slips: float = 1.0
) -> dict[str, float]:
    return {c: rater_level(truth[c], rater, key, c, slips=slips) for c in CRITERIA}


class Command(BaseCommand):
    help = (
        "Seed the demo's ratings: raters rater-a … rater-e (calibrated), a closed round of "
        f"{ROUND_SIZE} reflections rated by three raters each, and historical ratings imported "
        "from a CSV written into the workspace. Does nothing when ratings exist."
    )

    def add_arguments(self, parser):
        parser.add_argument("--workspace", required=True, help="the demo workspace (CSV goes here)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, workspace, **options):
        workspace = Path(workspace)
        if Rating.objects.exists():
            self._report({"created": False}, options["json"])
            return
        if not workspace.is_dir():
            raise CommandError(f"{workspace} is not a directory: run seed_demo first")
        if active_set() is None:
            raise CommandError("no active calibration set: run seed_demo_calibration first")
        reflections = list(
            Reflection.objects.exclude(state=State.QUARANTINED).order_by("source_path")
        )
        if len(reflections) < ROUND_SIZE:
            raise CommandError(f"fewer than {ROUND_SIZE} reflections: import the demo first")
        ensure_rubric()
        features = features_of(
            reflections, gate_classes(Reflection.objects.exclude(state=State.QUARANTINED))
        )
        truths = {pk: latent_quality(f) for pk, f in features.items()}

        newest = max(r.created_at for r in reflections)
        anchor = min(timezone.now() - timedelta(days=1), newest + timedelta(days=1))
        anchor = anchor.replace(hour=9, minute=0, second=0, microsecond=0)
        round_start = anchor - timedelta(days=14)
        history_end = anchor - timedelta(days=30)

        with transaction.atomic():
            raters = self._raters()
            history = self._history_rows(reflections, features, truths, history_end)
            calibrated_at = (
                min(row["rated_at"] for row in history) if history else round_start
            ) - timedelta(days=2)
            kappas = self._calibrate(raters, calibrated_at)
            csv_path = workspace / HISTORY_FILE
            self._write_csv(csv_path, history)
            summary = import_ratings(csv_path, now=anchor)
            if summary.rejected:
                problems = "; ".join(f"line {r.line}: {r.reason}" for r in summary.rejected[:5])
                raise CommandError(f"the historical ratings did not import: {problems}")
            rating_round = self._round(raters, features, truths, round_start, anchor)
        self._report(
            {
                "created": True,
                "raters": list(RATERS),
                "calibration_kappa": kappas,
                "round": rating_round.pk,
                "round_name": rating_round.name,
                "round_items": rating_round.size,
                "historical_ratings": summary.created,
                "historical_file": str(csv_path),
            },
            options["json"],
        )

    # ------------------------------------------------------------------------------- steps

    def _raters(self) -> list:
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

    def _calibrate(self, raters: list, at: datetime) -> dict[str, float | None]:
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
                raise CommandError(f"{rater.username} failed the demo calibration")
            started = at - timedelta(hours=2 * len(raters) - 2 * n)
            CalibrationAttempt.objects.filter(pk=attempt.pk).update(
                started_at=started, submitted_at=started + timedelta(minutes=50)
            )
            kappas[rater.username] = attempt.kappa.get("pooled")
        return kappas

    def _history_rows(self, reflections, features, truths, end: datetime) -> list[dict]:
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

    def _write_csv(self, path: Path, rows: list[dict]) -> None:
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

    def _round(self, raters, features, truths, start: datetime, anchor: datetime):
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
        assignments = RatingAssignment.objects.filter(
            item__rating_round=rating_round
        ).select_related("item__reflection")
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

    def _report(self, summary: dict, as_json: bool) -> None:
        if as_json:
            self.stdout.write(json.dumps(summary))
            return
        if not summary["created"]:
            self.stdout.write("Ratings already exist; nothing to do.")
            return
        kappas = ", ".join(
            f"{name} κ {value:.2f}" if value is not None else f"{name} κ undefined"
            for name, value in summary["calibration_kappa"].items()
        )
        self.stdout.write(self.style.SUCCESS(f"Calibrated {', '.join(summary['raters'])}"))
        self.stdout.write(f"  against gold (quadratic-weighted, pooled): {kappas}")
        self.stdout.write(
            f"Closed {summary['round_name']} (round {summary['round']}): "
            f"{summary['round_items']} reflections, 3 raters each"
        )
        self.stdout.write(
            f"Imported {summary['historical_ratings']} historical ratings from "
            f"{summary['historical_file']}"
        )
        self.stdout.write(f"Check agreement: python manage.py agreement --round {summary['round']}")
