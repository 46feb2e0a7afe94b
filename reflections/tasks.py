"""Background jobs (Django's tasks framework, database backend): the daily policy run, the
imports admins start from the browser, and the full maintenance a bulk command hands over."""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.tasks import TaskResultStatus, task
from django.utils import timezone

if TYPE_CHECKING:
    from reflections.models import ImportJob

logger = logging.getLogger(__name__)

# The run starts after midnight UTC and works on the day that just ended, so every run sees a
# complete day of retrievals and re-running it gives the same answer.
DAILY_RUN_AT = time(1, 0, tzinfo=UTC)


def next_daily_run(now: datetime) -> datetime:
    today_run = datetime.combine(now.astimezone(UTC).date(), DAILY_RUN_AT)
    return today_run if today_run > now else today_run + timedelta(days=1)


@task
def run_daily_policies(as_of: str | None = None, reschedule: bool = True) -> dict:
    """Create the retrieval events' monthly partitions ahead, recount the retrieval rollup for
    the days decay reads, apply decay and salience as of yesterday (UTC), recount the
    usefulness page's aggregates, recompute the neighbours of departments whose texts
    changed, then queue tomorrow's run."""
    from reflections.policies import DEFAULT_CONFIG as config
    from reflections.services.active_set import refresh_active_set
    from reflections.services.counters import (
        refresh_injection_counters,
        refresh_injection_finish_times,
        refresh_useful_counters,
    )
    from reflections.services.injection_rollup import refresh_injection_outcome_days
    from reflections.services.maintenance import vacuum_rewritten
    from reflections.services.neighbours import refresh_neighbours, stale_departments
    from reflections.services.partitions import analyze_parent, ensure_partitions_ahead
    from reflections.services.policy_runs import apply_policies
    from reflections.services.rollups import refresh_retrieval_flows, refresh_retrieval_rollup
    from reflections.services.task_rollup import refresh_task_outcome_days
    from reflections.similarity.backends import BackendError

    now = timezone.now()
    day = date.fromisoformat(as_of) if as_of else now.astimezone(UTC).date() - timedelta(days=1)
    # This month and the next three (PostgreSQL), in a short transaction of their own, so
    # imports and the API write into partitions that already exist; then the statistics of
    # the partitioned table, which autovacuum never gathers.
    partitions = ensure_partitions_ahead(now=now)
    analyze_parent()
    # Imports keep the rollup exact; recounting the decay windows here means nothing written
    # another way (the admin, a restore) can make decay read a drifted count.
    window = max(config.idle_days, config.promote_window_days, config.promote_recent_days)
    with transaction.atomic():
        refresh_retrieval_rollup(since=day - timedelta(days=window - 1))
        run = apply_policies(as_of=day)
    # The usefulness page's aggregates, recounted whole: without an index on the events' time
    # a window costs the same scan, and a whole recount also corrects what was written past
    # the imports (an agent's department changed in the admin, a restore, a task deleted with
    # its injections). About 12 s at 10M events and 2.3M injections.
    with transaction.atomic():
        refresh_retrieval_flows()
        refresh_useful_counters()
        refresh_injection_counters()
        refresh_injection_finish_times()
        refresh_injection_outcome_days()
        # Task outcomes per day, recounted whole like the flows (a task changed or deleted
        # in the admin); a grouped scan of the task runs.
        refresh_task_outcome_days()
        refresh_active_set()
    # Duplicate candidates for the review queue: only departments whose texts changed. A model
    # directory that cannot be read leaves yesterday's neighbours; the rest of the run stands.
    try:
        neighbours = refresh_neighbours(departments=stale_departments())
    except BackendError as error:
        logger.error("neighbours not recomputed: %s", error)
        neighbours = {"departments": []}
    vacuum_rewritten()
    if reschedule:
        schedule_daily_policies(now=now)
    return {
        "as_of": day.isoformat(),
        "counts": run.counts,
        "neighbours": [d["department"] for d in neighbours["departments"]],
        "partitions_created": partitions,
    }


@task
def maintain_tables(tables: list[str]) -> list[str]:
    """The full VACUUM (ANALYZE) of tables a bulk command gave a quick analyze only
    (hand_maintenance_to_worker), off the command's clock."""
    from reflections.services.maintenance import vacuum_tables

    return vacuum_tables(tables)


def hand_maintenance_to_worker() -> list[str]:
    """The end of a bulk command someone waits for: each table it changed enough to matter
    gets an ANALYZE on a small sample now (what the pages and the next command plan on) and
    its full VACUUM (ANALYZE) is queued for the worker (issue 29: after a 10,000-file import
    these statements take 0.13-0.18 s instead of 0.51-0.73 s). Without a worker running, the
    task waits in the queue and autovacuum, where it is on, still gives the table its
    visibility map. Returns the tables handed over."""
    from reflections.services.maintenance import analyze_rewritten_quickly

    if tables := analyze_rewritten_quickly():
        maintain_tables.enqueue(tables=tables)
    return tables


def schedule_daily_policies(*, now: datetime | None = None):
    """Queue the next daily run unless one is already waiting; returns the result or None."""
    from django_tasks_db.models import DBTaskResult

    now = now or timezone.now()
    waiting = DBTaskResult.objects.filter(
        task_path=run_daily_policies.module_path, status=TaskResultStatus.READY
    ).exists()
    if waiting:
        return None
    return run_daily_policies.using(run_after=next_daily_run(now)).enqueue()


def queue_import(**upload) -> ImportJob:
    """A web import stored (reflections.services.web_import.start_import, with its keyword
    arguments) and queued for the worker."""
    from reflections.services.web_import import start_import

    job = start_import(**upload)
    run_import_job.enqueue(job.pk)
    return job


@task
def run_import_job(job_id: int) -> dict:
    """Run a web import (reflections/services/web_import.py) and return its status."""
    from reflections.models import ImportJob
    from reflections.services.web_import import run_job

    job = ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED).first()
    if job is None:  # already run (a retried task) or deleted
        return {"job": job_id, "status": "skipped"}
    job = run_job(job)
    return {"job": job_id, "status": job.status}
