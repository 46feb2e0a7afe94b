"""The injected tasks' outcomes per reflection and day (InjectionOutcomeDay) always equal a
recount of the injections and their tasks."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import F
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.services.tokens import create_token
from reflections.models import InjectionOutcomeDay, Reflection, TaskInjection, TaskRun
from reflections.services.event_import import import_events
from reflections.tasks import run_daily_policies
from tests.api.conftest import ApiClient
from tests.factories import ReflectionFactory, TaskInjectionFactory, TaskRunFactory
from tests.reflections.rollups.support import (
    FINANCE,
    NOW,
    SALES,
    import_tasks,
    injected,
    write_tasks,
)

pytestmark = pytest.mark.django_db

OUTCOMES = ("success", "partial", "failure")


def recount() -> dict[tuple[int, date], tuple[int, int, int, int]]:
    """(reflection, UTC day its task finished) → (tasks, successes, partials, failures),
    injection by injection, in Python."""
    counts: dict[tuple[int, date], Counter] = {}
    for reflection_id, finished_at, outcome in TaskInjection.objects.values_list(
        "reflection_id", "task_run__finished_at", "task_run__outcome"
    ):
        c = counts.setdefault((reflection_id, finished_at.astimezone(UTC).date()), Counter())
        c["tasks"] += 1
        c[outcome] += 1
    return {
        key: (c["tasks"], c["success"], c["partial"], c["failure"]) for key, c in counts.items()
    }


def rollup() -> dict[tuple[int, date], tuple[int, int, int, int]]:
    return {
        (pk, day): tuple(counts)
        for pk, day, *counts in InjectionOutcomeDay.objects.values_list(
            "reflection_id", "day", "tasks", "successes", "partials", "failures"
        )
    }


def copies_agree(*task_ids: str) -> bool:
    """Every injection (of these tasks) carries its run's finished_at (the reflection page
    pages by it)."""
    injections = TaskInjection.objects.all()
    if task_ids:
        injections = injections.filter(task_run__task_id__in=task_ids)
    return not injections.exclude(finished_at=F("task_run__finished_at")).exists()


def at(task: dict, finished_at: str) -> dict:
    return {**task, "finished_at": finished_at}


def days_of(source_path: str) -> dict[date, tuple[int, int, int, int]]:
    pk = Reflection.objects.get(source_path=source_path).pk
    return {day: counts for (r, day), counts in rollup().items() if r == pk}


def test_imported_tasks_are_counted_per_reflection_and_the_day_they_finished(workspace):
    write_tasks(
        workspace,
        injected("t1", FINANCE, SALES),
        at(injected("t2", FINANCE, outcome="partial"), "2026-05-29T23:59:59Z"),
        at(injected("t3", FINANCE, outcome="failure"), "2026-05-30T00:00:00Z"),
        injected("t4"),  # injects nothing
    )

    import_tasks(workspace)

    assert rollup() == recount()
    assert days_of(FINANCE) == {date(2026, 5, 29): (2, 1, 1, 0), date(2026, 5, 30): (1, 0, 0, 1)}
    assert days_of(SALES) == {date(2026, 5, 29): (1, 1, 0, 0)}


def test_reimporting_the_same_tasks_changes_nothing(workspace):
    write_tasks(workspace, injected("t1", FINANCE, SALES), injected("t2", FINANCE))
    import_tasks(workspace)
    before = rollup()

    again = import_tasks(workspace)

    assert again.created == again.updated == 0
    assert rollup() == before == recount()


def test_a_task_reimported_with_another_outcome_day_and_injections_moves_its_counts(workspace):
    write_tasks(workspace, injected("t1", FINANCE, SALES), injected("t2", FINANCE))
    import_tasks(workspace)

    write_tasks(
        workspace,
        at(injected("t1", SALES, outcome="failure"), "2026-06-02T08:00:00Z"),
        injected("t2", FINANCE, SALES),  # unchanged facts, one more reflection
    )
    summary = import_tasks(workspace)

    assert summary.details["tasks"]["updated"] == 1
    assert rollup() == recount()
    assert copies_agree()
    assert days_of(FINANCE) == {date(2026, 5, 29): (1, 1, 0, 0)}
    assert days_of(SALES) == {date(2026, 5, 29): (1, 1, 0, 0), date(2026, 6, 2): (1, 0, 0, 1)}


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    batches=st.lists(
        st.lists(
            st.tuples(
                st.integers(0, 5),  # which task
                st.sampled_from(OUTCOMES),
                st.sampled_from(["2026-05-28T23:59:00Z", "2026-05-29T00:00:00Z", "2026-06-01"]),
                st.sets(st.integers(0, 2)),  # which reflections it was given
            ),
            max_size=6,
        ),
        min_size=1,
        max_size=4,
    )
)
def test_imports_in_any_order_keep_the_rollup_equal_to_a_recount(workspace, batches):
    """Batches of tasks, posted as the API posts them: new tasks, the same ones again, some
    with another outcome, day or injections, in any order."""
    TaskRun.objects.all().delete()
    InjectionOutcomeDay.objects.all().delete()
    paths = list(Reflection.objects.order_by("id").values_list("source_path", flat=True)[:3])
    for batch in batches:
        records = {
            f"t{n}": {
                **at(injected(f"t{n}", outcome=outcome), finished_at),
                "reflections_injected": [paths[i] for i in sorted(given)],
            }
            for n, outcome, finished_at, given in batch
        }
        import_events(records=[("tasks", "task", list(records.values()))], now=NOW)
        assert rollup() == recount()
        assert copies_agree()


def test_tasks_posted_to_the_api_are_counted(workspace):
    api = ApiClient(create_token(name="orchestrator", scope="ingest")[1])

    answer = api.post("/tasks", [injected("t1", FINANCE), injected("t2", FINANCE, SALES)])
    again = api.post("/tasks", [injected("t2", SALES, outcome="failure")])

    assert answer.status_code == again.status_code == 200
    assert rollup() == recount()
    assert copies_agree()
    assert days_of(SALES) == {date(2026, 5, 29): (1, 0, 0, 1)}


def test_tasks_and_injections_saved_one_at_a_time_keep_the_rollup():
    reflection = ReflectionFactory()
    TaskInjectionFactory(reflection=reflection)
    task = TaskRunFactory(outcome="success")
    TaskInjectionFactory(reflection=reflection, task_run=task)
    assert rollup()[(reflection.pk, date(2026, 3, 10))] == (2, 2, 0, 0)

    task.outcome = "partial"
    task.finished_at = datetime(2026, 3, 12, 9, tzinfo=UTC)
    task.save()

    assert rollup() == recount()
    assert copies_agree()
    assert rollup()[(reflection.pk, date(2026, 3, 12))] == (1, 0, 1, 0)


def test_a_moved_reflection_keeps_its_days_and_a_deleted_one_takes_them_along(workspace):
    write_tasks(workspace, injected("t1", FINANCE, SALES), injected("t2", SALES))
    import_tasks(workspace)
    finance = Reflection.objects.get(source_path=FINANCE)
    sales = Reflection.objects.get(source_path=SALES)

    sales.department = finance.department
    sales.save()
    assert rollup() == recount()

    finance.delete()
    assert rollup() == recount()
    assert {pk for pk, _ in rollup()} == {sales.pk}


def test_refresh_rollup_and_the_daily_job_correct_a_drifted_rollup(workspace):
    write_tasks(
        workspace,
        injected("t1", FINANCE, SALES),
        at(injected("t2", FINANCE), "2026-06-03T10:00:00Z"),
    )
    import_tasks(workspace)
    expected = recount()

    def drift():
        # Behind the services' back: a raw SQL fix, a task deleted with its injections.
        InjectionOutcomeDay.objects.filter(day=date(2026, 5, 29)).update(tasks=9)
        # A run's time corrected in place (the same day): its injections keep the old one.
        TaskRun.objects.filter(task_id="t1").update(
            finished_at=datetime(2026, 5, 29, 1, tzinfo=UTC)
        )
        TaskRun.objects.filter(task_id="t2").update(
            finished_at=datetime(2026, 6, 3, 11, tzinfo=UTC)
        )
        InjectionOutcomeDay.objects.filter(day=date(2026, 6, 3)).delete()
        InjectionOutcomeDay.objects.create(
            reflection=Reflection.objects.get(source_path=SALES),
            day=date(2026, 6, 4),
            tasks=1,
            successes=1,
            partials=0,
            failures=0,
        )

    drift()
    assert not copies_agree()
    call_command("refresh_rollup", "--since", "2026-06-01", stdout=StringIO())
    assert rollup() != expected  # the 29th of May is before --since
    assert copies_agree("t2") and not copies_agree("t1")  # so is t1's time
    assert days_of(FINANCE)[date(2026, 6, 3)] == expected[(days_key(FINANCE, "2026-06-03"))]
    call_command("refresh_rollup", stdout=StringIO())
    assert rollup() == expected
    assert copies_agree()

    drift()
    run_daily_policies.call(as_of="2026-11-21", reschedule=False)
    assert rollup() == expected
    assert copies_agree()


def days_key(source_path: str, day: str) -> tuple[int, date]:
    return Reflection.objects.get(source_path=source_path).pk, date.fromisoformat(day)
