"""Whether a task worker is taking the web imports, read from what django-tasks' database
backend records: it keeps no heartbeat, but a worker claims each task it runs (the task's
`started_at`, its `worker_ids`, status RUNNING), and a queued import stays QUEUED until then."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Max, Min
from django.tasks import TaskResultStatus
from django.utils import timezone

from reflections.models import ImportJob

# An idle worker polls every second (`make demo`: --interval 1); an import queued this long
# with nothing running means no worker is taking tasks.
NO_WORKER_AFTER = timedelta(seconds=10)
# A task "running" for longer than this is taken for one whose worker died mid-task.
ABANDONED_AFTER = timedelta(hours=1)

WORKER_COMMAND = "python manage.py db_worker --queue-name '*'"


@dataclass(frozen=True)
class WorkerState:
    """What the import pages say about the worker. `kind`: "idle" (nothing waits), "ok" (an
    import waits, not for long), "busy" (it waits behind a running task), "missing" (it waits
    and no worker is taking tasks)."""

    kind: str
    waiting: timedelta | None  # how long the oldest queued import has waited
    last_seen_at: datetime | None  # the latest claim of any task by a worker
    running_since: datetime | None  # the oldest task running now, if any

    @property
    def missing(self) -> bool:
        return self.kind == "missing"

    @property
    def waiting_seconds(self) -> int:
        return int(self.waiting.total_seconds()) if self.waiting else 0


def worker_state(
    *,
    now: datetime,
    queued_at: datetime | None,
    last_seen_at: datetime | None,
    running_since: datetime | None,
    after: timedelta = NO_WORKER_AFTER,
    abandoned_after: timedelta = ABANDONED_AFTER,
) -> WorkerState:
    """Pure: from the oldest queued import's time and the backend's claims, what to say."""
    waiting = now - queued_at if queued_at is not None else None
    if running_since is not None and now - running_since > abandoned_after:
        running_since = None  # its worker is gone; nothing is really running
    if waiting is None:
        kind = "idle"
    elif waiting < after:
        kind = "ok"
    elif running_since is not None:
        kind = "busy"
    else:
        kind = "missing"
    return WorkerState(
        kind=kind, waiting=waiting, last_seen_at=last_seen_at, running_since=running_since
    )


def import_worker_state(job: ImportJob | None = None) -> WorkerState:
    """The worker as the import pages see it: for `job` while it is queued, else for the
    oldest queued import (two aggregate queries on the task results)."""
    from django_tasks_db.models import DBTaskResult

    if job is not None:
        queued_at = job.created_at if job.status == ImportJob.Status.QUEUED else None
    else:
        queued_at = (
            ImportJob.objects.filter(status=ImportJob.Status.QUEUED)
            .aggregate(at=Min("created_at"))["at"]
        )  # fmt: skip
    claims = DBTaskResult.objects.aggregate(last=Max("started_at"))
    running = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING).aggregate(
        since=Min("started_at")
    )
    return worker_state(
        now=timezone.now(),
        queued_at=queued_at,
        last_seen_at=claims["last"],
        running_since=running["since"],
    )
