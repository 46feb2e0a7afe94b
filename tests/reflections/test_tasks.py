"""The daily policy run through Django's tasks framework (database backend)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from reflections.models import ReflectionHistory, State
from reflections.tasks import next_daily_run, run_daily_policies, schedule_daily_policies
from tests.factories import ReflectionFactory

pytestmark = pytest.mark.django_db


def test_the_next_run_is_at_one_in_the_morning_utc():
    assert next_daily_run(datetime(2026, 11, 22, 0, 30, tzinfo=UTC)) == datetime(
        2026, 11, 22, 1, 0, tzinfo=UTC
    )
    assert next_daily_run(datetime(2026, 11, 22, 1, 0, tzinfo=UTC)) == datetime(
        2026, 11, 23, 1, 0, tzinfo=UTC
    )


def test_scheduling_twice_queues_one_run():
    first = schedule_daily_policies(now=datetime(2026, 11, 22, 12, tzinfo=UTC))
    second = schedule_daily_policies(now=datetime(2026, 11, 22, 12, tzinfo=UTC))

    assert first is not None and second is None
    (queued,) = DBTaskResult.objects.all()
    assert queued.run_after == datetime(2026, 11, 23, 1, 0, tzinfo=UTC)
    assert queued.task_path == "reflections.tasks.run_daily_policies"


def test_the_daily_run_applies_decay_and_queues_the_next_one():
    old = ReflectionFactory(created_at=datetime(2026, 1, 3, tzinfo=UTC))

    result = run_daily_policies.call(as_of="2026-11-21")

    old.refresh_from_db()
    assert old.state == State.ARCHIVED
    assert ReflectionHistory.objects.filter(reflection=old, actor_label="policy:decay").exists()
    assert result["counts"]["decay:archived"] == 1
    assert result["neighbours"] == []  # no text was created or changed through an import
    assert (
        DBTaskResult.objects.filter(task_path="reflections.tasks.run_daily_policies").count() == 1
    )


# The worker closes database connections between tasks, as a long-running process must: the
# test cannot sit inside a transaction.
@pytest.mark.django_db(transaction=True)
def test_a_queued_run_is_executed_by_the_worker_command():
    old = ReflectionFactory(created_at=datetime(2025, 1, 3, tzinfo=UTC))
    run_daily_policies.using(run_after=datetime.now(UTC) - timedelta(minutes=1)).enqueue(
        as_of="2026-11-21", reschedule=False
    )

    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

    old.refresh_from_db()
    assert old.state == State.ARCHIVED
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"
