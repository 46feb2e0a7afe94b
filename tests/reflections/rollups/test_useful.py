"""Useful-retrieval counters and cross-department flows equal a recount, whatever the log order."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.core.management import call_command

from reflections.models import (
    Reflection,
    RetrievalFlowDay,
)
from reflections.services.event_import import import_events
from reflections.services.reflection_import import import_reflections
from reflections.tasks import run_daily_policies
from tests.factories import (
    ReflectionFactory,
    RetrievalEventFactory,
    TaskRunFactory,
)
from tests.reflections.rollups.support import (
    FINANCE,
    NOW,
    RETRIEVALS,
    SALES,
    TASKS,
    append,
    dept,
    flows,
    flows_recount,
    import_log,
    import_tasks,
    line,
    task,
    useful,
    useful_of,
    useful_recount,
    write_tasks,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("order", ["retrievals first", "tasks first", "one import"])
def test_useful_counts_and_flows_equal_a_recount_whichever_log_comes_first(workspace, order):
    append(workspace, *RETRIEVALS)
    retrievals, tasks = workspace / "logs" / "retrievals.jsonl", write_tasks(workspace, *TASKS)

    if order == "one import":
        import_events(create_departments=True, paths=[tasks, retrievals], now=NOW)
    else:
        for log in [retrievals, tasks] if order == "retrievals first" else [tasks, retrievals]:
            import_events(create_departments=True, paths=[log], now=NOW)

    assert useful() == useful_recount()
    assert (useful_of(FINANCE), useful_of(SALES)) == (2, 1)
    assert flows() == flows_recount()
    day = date(2026, 5, 21)
    assert flows()[(day, dept("sales"), dept("finance"))] == 1
    # The stated department wins over the retrieving agent's.
    assert (date(2026, 5, 28), dept("finance"), dept("sales")) in flows()


def test_reimporting_both_logs_leaves_useful_counts_and_flows_as_they_were(workspace):
    append(workspace, *RETRIEVALS)
    logs = [workspace / "logs" / "retrievals.jsonl", write_tasks(workspace, *TASKS)]
    import_events(create_departments=True, paths=logs, now=NOW)
    before = (useful(), flows())

    again = import_events(create_departments=True, paths=logs, now=NOW)

    assert again.created == again.updated == 0
    assert (useful(), flows()) == before == (useful_recount(), flows_recount())


def test_a_grown_log_adds_only_its_new_retrievals(workspace):
    append(workspace, *RETRIEVALS)
    write_tasks(workspace, *TASKS)
    import_tasks(workspace)
    import_log(workspace)
    append(
        workspace,
        line(FINANCE, "2026-05-20T18:00:00Z", "ok2"),  # a day already counted
        line(FINANCE, "2026-05-30T08:00:00Z", "ok1"),  # a new day
    )

    again = import_log(workspace)

    assert again.details["retrievals"]["created"] == 2
    assert useful_of(FINANCE) == 4
    assert (useful(), flows()) == (useful_recount(), flows_recount())


def test_a_task_outcome_that_changes_moves_its_retrievals_in_or_out_of_useful(workspace):
    append(workspace, *RETRIEVALS)
    write_tasks(workspace, *TASKS)
    import_events(
        create_departments=True,
        paths=[workspace / "logs" / "retrievals.jsonl", workspace / "logs" / "tasks.jsonl"],
        now=NOW,
    )
    assert useful_of(FINANCE) == 2  # ok1, ok2
    # The same import brings the changed outcomes and new retrievals of the changed tasks.
    append(workspace, line(FINANCE, "2026-05-30T08:00:00Z", "bad"))
    append(workspace, line(SALES, "2026-05-30T09:00:00Z", "ok1"))
    write_tasks(workspace, task("ok1", "failure"), task("ok2", "success"), task("bad", "success"))

    summary = import_events(
        create_departments=True,
        paths=[workspace / "logs" / "tasks.jsonl", workspace / "logs" / "retrievals.jsonl"],
        now=NOW,
    )

    assert summary.details["tasks"]["updated"] == 2
    # ok2 and bad (twice, once new) are useful now; ok1 no longer is.
    assert (useful_of(FINANCE), useful_of(SALES)) == (3, 0)
    assert useful() == useful_recount()


def test_an_agent_that_gets_a_department_moves_its_flows(workspace):
    # An agent first seen in a retrieval log that states no department has none.
    append(workspace, line(FINANCE, "2026-05-20T09:12:00Z", "t1", agent="audit-agent"))
    import_log(workspace)
    assert flows() == {(date(2026, 5, 20), None, dept("finance")): 1}
    # Its task log names its department; the same import brings another of its retrievals.
    append(workspace, line(FINANCE, "2026-05-21T09:12:00Z", "t2", agent="audit-agent"))
    write_tasks(workspace, task("t1", "success", agent="audit-agent", dept="sales"))

    import_events(
        create_departments=True,
        paths=[workspace / "logs" / "retrievals.jsonl", workspace / "logs" / "tasks.jsonl"],
        now=NOW,
    )

    assert (
        flows()
        == flows_recount()
        == {
            (date(2026, 5, 20), dept("sales"), dept("finance")): 1,
            (date(2026, 5, 21), dept("sales"), dept("finance")): 1,
        }
    )


def test_a_reflection_that_moves_department_moves_its_flows(workspace):
    append(workspace, *RETRIEVALS)
    import_log(workspace)
    path = workspace / FINANCE
    path.write_text(path.read_text().replace("department: finance", "department: sales"))

    import_reflections(
        create_departments=True, paths=[workspace], default_department="research", now=NOW
    )

    assert Reflection.objects.get(source_path=FINANCE).department.slug == "sales"
    assert flows() == flows_recount()
    assert (date(2026, 5, 20), dept("finance"), dept("finance")) not in flows()


def test_tasks_and_retrievals_saved_one_at_a_time_keep_the_counts():
    reflection = ReflectionFactory()
    run = TaskRunFactory(outcome="failure")
    RetrievalEventFactory(reflection=reflection, task_id=run.task_id)
    RetrievalEventFactory(reflection=reflection, task_id="later")
    assert useful()[reflection.pk] == 0

    run.outcome = "success"
    run.save()
    TaskRunFactory(task_id="later", outcome="success")

    assert useful()[reflection.pk] == 2
    assert (useful(), flows()) == (useful_recount(), flows_recount())


def test_the_refresh_command_and_the_daily_run_recount_usefulness():
    reflection = ReflectionFactory(created_at=datetime(2026, 1, 3, tzinfo=UTC))
    TaskRunFactory(task_id="ok", outcome="success")
    for day in (1, 2):
        RetrievalEventFactory(
            reflection=reflection, task_id="ok", retrieved_at=datetime(2026, 5, day, tzinfo=UTC)
        )
    expected = (useful_recount(), flows_recount())
    assert expected[0][reflection.pk] == 2

    def drift():
        # Written behind the services' back, as a restore or a raw SQL fix would.
        Reflection.objects.update(useful_retrieval_count=7)
        RetrievalFlowDay.objects.update(retrievals=9)
        RetrievalFlowDay.objects.filter(day=date(2026, 5, 1)).delete()

    drift()
    call_command("refresh_rollup", "--since", "2026-05-02")
    assert flows()[(date(2026, 5, 2), reflection.department_id, reflection.department_id)] == 1
    assert (date(2026, 5, 1), reflection.department_id, reflection.department_id) not in flows()
    call_command("refresh_rollup")
    assert (useful(), flows()) == expected

    drift()
    run_daily_policies.call(as_of="2026-11-21", reschedule=False)
    assert (useful(), flows()) == expected
