"""The layout test's data: the small demo, seeded as `make demo` seeds the full one, plus the
open work a fresh demo leaves to its users (a cycle for reviewer-demo, a round for
rater-demo, an import job and a token for admin-demo), so every page has content."""

from __future__ import annotations

import os
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from api.services.tokens import create_token
from demo.calibration import ensure_demo_calibration
from demo.rating_model import RATERS
from demo.ratings import seed_demo_ratings
from demo.reviews import seed_demo_reviews
from demo.users import create_demo_users
from demo.workspace import write_workspace
from reflections.models import Department
from reflections.services.web_import import run_job, start_import
from reviews.services.cycles import open_cycle
from reviews.services.evidence import prepare_cycle
from rubric.models import GoldScore
from rubric.services.calibration import record_item_ratings, start_attempt, submit_attempt
from rubric.services.calibration_sets import active_set
from rubric.services.rounds import create_round
from rubric.services.rubric import ensure_rubric
from tests.browser.support import PASSWORD


def build_world(root: Path) -> dict:
    """Seed the demo at its small scale under `root`; the usernames by role."""
    workspace = root / "workspace"
    summary = write_workspace(workspace, scale="small")
    with open(os.devnull, "w") as quiet:
        call_command("import_reflections", "--create-departments", str(workspace), stdout=quiet)
        call_command("import_events", "--create-departments", str(workspace / "logs"), stdout=quiet)
        call_command("compute_neighbours", stdout=quiet)
    create_demo_users(password=PASSWORD)
    seed_demo_reviews(workspace)
    ensure_rubric()
    ensure_demo_calibration()
    seed_demo_ratings(workspace)

    users = get_user_model().objects
    end = datetime.fromisoformat(summary["end"]).replace(tzinfo=UTC)
    # The reviewer's open cycle over the demo's last three months, its evidence prepared.
    finance = Department.objects.get(slug="finance")
    cycle = open_cycle(
        department=finance,
        quarter="2026Q4",
        reviewers=[users.get(username="reviewer-demo")],
        starts_on=(end + timedelta(days=1)).date(),
        window_days=90,
        size=12,
    )
    prepare_cycle(cycle)
    # The rater, calibrated, with items of an open round to rate.
    rater = users.get(username="rater-demo")
    calibrate_exactly(rater)
    raters = [rater, *users.filter(username__in=RATERS[:2])]
    create_round(name="Open round", size=4, raters=raters, seed=3, raters_per_item=3)
    # The admin's import job, finished, and an API token that expires.
    admin = users.get(username="admin-demo")
    lesson = next(workspace.rglob("*.md"))
    job = start_import(
        user=admin,
        files=[SimpleUploadedFile(lesson.name, lesson.read_bytes())],
        default_department="finance",
    )
    run_job(job)
    create_token(name="ci-orchestrator", scope="ingest", user=admin)
    create_token(
        name="runtime-eu",
        scope="retrieve",
        user=admin,
        expires_at=datetime.combine(date(2099, 1, 31), datetime.min.time(), tzinfo=UTC),
    )
    return {role: f"{role}-demo" for role in ("reviewer", "rater", "manager", "admin")}


def calibrate_exactly(rater) -> None:
    """The rater passes the active calibration set by giving every item its gold levels."""
    attempt = start_attempt(user=rater)
    gold: dict = {}
    for score in GoldScore.objects.filter(item__calibration_set=active_set()).select_related(
        "item"
    ):
        gold.setdefault(score.item, {})[score.criterion] = score.level
    for item, levels in gold.items():
        record_item_ratings(attempt=attempt, item=item, levels=levels)
    assert submit_attempt(attempt=attempt).passed
