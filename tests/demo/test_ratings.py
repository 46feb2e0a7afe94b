"""The demo's ratings (seed_demo_ratings) on the small demo: calibrated raters, a closed round
rated by three raters an item, imported history, idempotence, and the planted shapes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from demo.rating_model import RATERS, Features, latent_quality, rater_level
from demo.ratings import HISTORY_FILE, ROUND_SIZE
from reflections.models import Department
from rubric.eligibility import is_calibrated
from rubric.models import (
    CRITERIA,
    LEVELS,
    CalibrationAttempt,
    Rating,
    RatingAssignment,
    RatingRound,
)
from rubric.selectors.agreement import agreement_report
from rubric.selectors.gate import GATED, UNGATED
from rubric.selectors.quality import quality_breakdowns
from tests.demo.commands import run


def features(**changes) -> Features:
    base = {
        "path": "memory/reflections/a/2026-03-01-x.md",
        "family": "technical",
        "gate": GATED,
        "words": 120,
        "text_levels": dict.fromkeys(CRITERIA, 0.75),
    }
    return Features(**{**base, **changes})


class TestModel:
    def test_the_latent_quality_follows_the_features(self):
        def mean(f):
            return sum(latent_quality(f).values()) / len(CRITERIA)

        assert mean(features()) > mean(features(family="judgment"))
        assert mean(features()) > mean(features(gate=UNGATED))
        assert mean(features()) >= mean(features(text_levels=dict.fromkeys(CRITERIA, 0.25)))
        assert latent_quality(features()) == latent_quality(features())  # deterministic

    def test_raters_slip_by_at_most_one_level_and_lean_as_profiled(self):
        keys = [f"memory/reflections/a/{n}.md" for n in range(400)]
        for level in LEVELS:
            for key in keys[:50]:
                for rater in RATERS:
                    given = rater_level(level, rater, key, "accuracy")
                    assert abs(LEVELS.index(given) - LEVELS.index(level)) <= 1

        def total(rater):
            return sum(rater_level(0.5, rater, k, c) for k in keys for c in CRITERIA)

        assert total("rater-b") > total("rater-a") > total("rater-c")  # lenient, even, strict


@pytest.mark.django_db
def test_the_demo_ratings_are_seeded_once_with_the_planted_shapes(small):
    run("import_reflections", str(small), "--create-departments")
    run("import_events", str(small / "logs"), "--create-departments")
    run("create_demo_users", "--password", "demo-pass-1")
    run("seed_demo_calibration")
    first = run("seed_demo_ratings", "--workspace", str(small))
    assert "Closed Demo round" in first

    User = get_user_model()
    departments = Department.objects.count()
    for username in RATERS:
        rater = User.objects.get(username=username)
        assert rater.groups.filter(name="rater").exists()
        assert rater.departments.count() == departments
        assert is_calibrated(rater)
        assert not rater.has_usable_password()
    # rater-demo starts with calibration: the story a person logging in follows.
    rater_demo = User.objects.get(username="rater-demo")
    assert not is_calibrated(rater_demo)
    assert not CalibrationAttempt.objects.filter(rater=rater_demo).exists()

    rating_round = RatingRound.objects.get()
    assert rating_round.closed_at is not None and rating_round.size == ROUND_SIZE
    assignments = RatingAssignment.objects.filter(item__rating_round=rating_round)
    assert assignments.count() == 3 * ROUND_SIZE
    assert not assignments.filter(submitted_at__isnull=True).exists()
    round_ratings = Rating.objects.filter(source=Rating.Source.ROUND).count()
    assert round_ratings == 3 * ROUND_SIZE * len(CRITERIA)
    history = Rating.objects.filter(source=Rating.Source.IMPORT)
    csv_lines = (small / HISTORY_FILE).read_text(encoding="utf-8").splitlines()
    assert history.count() == len(csv_lines) - 1 > 0
    assert history.latest("rated_at").rated_at < rating_round.created_at

    # Idempotent: a second run changes nothing.
    total = Rating.objects.count()
    assert "nothing to do" in run("seed_demo_ratings", "--workspace", str(small))
    assert Rating.objects.count() == total and RatingRound.objects.count() == 1

    # The planted shapes: agreement in the reference band, gated above ungated, technical
    # above judgment.
    pooled = agreement_report(round_id=rating_round.pk).result.all[-1]
    assert pooled.criterion == "pooled"
    assert 0.65 <= pooled.kappa <= 0.85
    b = quality_breakdowns()
    gate = {g.key: g for g in b["gate"]}
    family = {g.key: g for g in b["task_family"]}
    assert gate[GATED].n >= 10 and gate[UNGATED].n >= 2
    assert gate[GATED].mean - gate[UNGATED].mean >= 0.15
    assert family["technical"].mean - family["judgment"].mean >= 0.2
