"""The web import's page tells the truth: it says plainly when no task worker is taking the
imports (and how to start one), its progress bar never runs back between stages, and its
totals count a quarantined reflection as its per-file list does."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.tasks import TaskResultStatus
from django.utils import timezone

from reflections.models import ImportJob
from reflections.selectors.workers import import_worker_state, worker_state
from reflections.services import web_import
from tests.conftest import SAMPLES
from tests.factories import DepartmentFactory
from tests.pages import soup_of
from tests.reflections.test_pages_import import client_for, run_worker, upload, zipped

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _uploads(settings, tmp_path):
    settings.IMPORT_UPLOAD_ROOT = tmp_path / "uploads"


@pytest.fixture
def research(db):
    return DepartmentFactory(slug="research", name="Research")


# ------------------------------------------------------------------ the worker, pure


def state(queued_ago=None, running_ago=None, last_ago=None):
    def ago(seconds):
        return None if seconds is None else NOW - timedelta(seconds=seconds)

    return worker_state(
        now=NOW,
        queued_at=ago(queued_ago),
        last_seen_at=ago(last_ago),
        running_since=ago(running_ago),
    )


def test_nothing_waiting_is_nothing_to_say():
    assert state().kind == "idle"


def test_an_import_queued_a_moment_ago_is_waiting_normally():
    assert state(queued_ago=3).kind == "ok"


def test_an_import_waiting_ten_seconds_with_nothing_running_means_no_worker():
    found = state(queued_ago=12, last_ago=3600)
    assert found.missing and found.waiting_seconds == 12
    assert found.last_seen_at == NOW - timedelta(hours=1)


def test_an_import_behind_a_running_task_waits_its_turn():
    assert state(queued_ago=60, running_ago=30).kind == "busy"


def test_a_task_running_for_hours_has_lost_its_worker():
    assert state(queued_ago=60, running_ago=2 * 3600).missing


# ------------------------------------------------------------------ the worker, as recorded


@pytest.mark.django_db
def test_the_backends_claims_are_the_signal(research):
    from django_tasks_db.models import DBTaskResult

    upload(client_for("admin"), zipped(SAMPLES))
    job = ImportJob.objects.get()
    assert import_worker_state(job).kind == "ok"
    ImportJob.objects.filter(pk=job.pk).update(created_at=timezone.now() - timedelta(seconds=30))
    job.refresh_from_db()
    assert import_worker_state(job).missing and import_worker_state().missing
    assert import_worker_state(job).last_seen_at is None

    # A worker claims a task: it is seen, and the import waits behind that task.
    claimed = timezone.now() - timedelta(seconds=5)
    DBTaskResult.objects.update(status=TaskResultStatus.RUNNING, started_at=claimed)
    seen = import_worker_state(job)
    assert (seen.kind, seen.last_seen_at, seen.running_since) == ("busy", claimed, claimed)


def aged(job: ImportJob, seconds: int) -> None:
    ImportJob.objects.filter(pk=job.pk).update(
        created_at=timezone.now() - timedelta(seconds=seconds)
    )


@pytest.mark.django_db
def test_the_job_page_says_no_worker_is_running_and_how_to_start_one(research):
    client = client_for("admin")
    upload(client, zipped(SAMPLES))
    job = ImportJob.objects.get()
    assert soup_of(client.get(f"/imports/{job.pk}/")).select_one("#worker-missing") is None

    aged(job, 30)
    fragment = soup_of(client.get(f"/imports/{job.pk}/", headers={"HX-Request": "true"}))
    said = fragment.select_one("#job-progress #worker-missing").get_text(" ", strip=True)
    assert "No task worker has taken this import in 30 s" in said
    assert "python manage.py db_worker --queue-name '*'" in said
    assert "none has taken a task on this database yet" in said

    page = soup_of(client.get("/imports/"))
    assert "none seems to be running" in page.select_one("#worker-missing").get_text()

    done = run_worker(job.pk)  # a worker came: the warning goes with the wait
    assert soup_of(client.get(f"/imports/{done.pk}/")).select_one("#worker-missing") is None
    page = soup_of(client.get("/imports/"))
    assert page.select_one("#worker-missing") is None
    assert "db_worker" in page.select_one("#worker-seen").get_text()


# ------------------------------------------------------------------ the progress bar


@pytest.mark.django_db
def test_the_progress_bar_never_runs_back_between_stages(research, monkeypatch):
    shown: list[tuple[str, int]] = []
    save = web_import._Progress.save

    def recording(self, *, force=False):
        save(self, force=force)
        shown.append((self.job.stage, self.job.percent))

    monkeypatch.setattr(web_import._Progress, "save", recording)
    upload(client_for("admin"), zipped(SAMPLES))
    job = run_worker(ImportJob.objects.get().pk)

    assert job.status == ImportJob.Status.DONE and job.percent == 100
    stages = [stage for stage, _ in shown]
    assert "Unpacking workspace.zip" in stages and "Reading reflection files" in stages
    percents = [p for _, p in shown]
    assert percents == sorted(percents), shown
    assert max(percents) > 50  # it moved, within the stages


def test_a_stage_fills_its_own_band_and_never_lowers_the_bar():
    job = ImportJob(done=9, total=10)
    job.advance((0, 20))
    assert job.progress == 18
    job.done, job.total = 0, 40  # the next stage counts its own files from 0
    job.advance((20, 80))
    assert job.progress == 20
    job.done = 40
    job.advance((20, 80))
    assert job.progress == 80
    job.advance((0, 20))
    assert job.progress == 80


# ------------------------------------------------------------------ totals and the file list


@pytest.mark.django_db
def test_the_totals_count_a_quarantined_reflection_as_the_file_list_does(research, tmp_path):
    ws = tmp_path / "ws"
    for n, body in enumerate(["plain", "token AKIAZ7Q3XK5R2M4W6N8P here"]):
        target = ws / f"memory/reflections/researcher-agent/2026-03-0{n + 1}-lesson.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(
            f"# Reflection: 2026-03-0{n + 1} - researcher-agent - Lesson {n}\n\n"
            f"## What happened?\n{body}\n\n## What went wrong?\ny\n\n"
            "## What should I do differently?\nz\n"
        )
    client = client_for("admin")
    upload(client, zipped(ws))
    job = run_worker(ImportJob.objects.get().pk)
    assert job.report["reflections"]["quarantined"] == 1

    page = soup_of(client.get(f"/imports/{job.pk}/"))
    totals = {
        row.th.get_text(" ", strip=True).split(" (")[0]: row.td.get_text(strip=True)
        for row in page.select(".import-totals table")[0].select("tr")
    }
    listed = page.select_one("#files + p").get_text(" ", strip=True)
    assert listed == "1 created · 1 quarantined"
    assert (totals["Created"], totals["Quarantined"]) == ("1", "1")
