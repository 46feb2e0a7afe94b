"""The retrieval rollups (RetrievalDay, RetrievalFlowDay) and the useful-retrieval counters
always equal a recount of the raw events."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from django.core.management import call_command

from reflections.models import (
    Agent,
    Department,
    Reflection,
    RetrievalDay,
    RetrievalEvent,
    RetrievalFlowDay,
    State,
    TaskInjection,
    TaskRun,
)
from reflections.services import rollups
from reflections.services.event_import import import_events
from reflections.services.reflection_import import import_reflections
from reflections.services.rollups import refresh_retrieval_rollup
from reflections.tasks import run_daily_policies
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    RetrievalEventFactory,
    TaskInjectionFactory,
    TaskRunFactory,
)

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
FINANCE = "memory/reflexions/2026-05/14-fin-20260514-0031.md"  # by finance-agent
SALES = "memory/reflexions/2026-05/21-sal-20260521-0107.md"  # by sales-agent


@pytest.fixture
def workspace(tmp_path, samples) -> Path:
    """The sample inputs' reflections, with an empty retrieval log the tests write to."""
    ws = tmp_path / "ws"
    shutil.copytree(samples, ws, symlinks=True)
    for log in (ws / "logs").iterdir():
        log.unlink()
    import_reflections(paths=[ws], default_department="research", now=NOW)
    return ws


def line(reflection: str, at: str, task: str, agent: str = "finance-agent") -> dict:
    return {"reflection": reflection, "retrieved_at": at, "task_id": task, "agent": agent}


def append(ws: Path, *lines: dict) -> None:
    log = ws / "logs" / "retrievals.jsonl"
    with log.open("a") as f:
        for item in lines:
            f.write(json.dumps(item) + "\n")


def import_log(ws: Path):
    return import_events(paths=[ws / "logs" / "retrievals.jsonl"], now=NOW)


def recount() -> dict[tuple[int, date, int], tuple[int, int]]:
    """(reflection, UTC day, department) → (retrievals, cross-agent), counted in Python."""
    authors = dict(Reflection.objects.values_list("id", "agent_id"))
    departments = dict(Reflection.objects.values_list("id", "department_id"))
    total: Counter = Counter()
    cross: Counter = Counter()
    for reflection_id, at, agent_id in RetrievalEvent.objects.values_list(
        "reflection_id", "retrieved_at", "agent_id"
    ):
        key = (reflection_id, at.astimezone(UTC).date(), departments[reflection_id])
        total[key] += 1
        author = authors[reflection_id]
        cross[key] += author is not None and agent_id != author
    return {key: (n, cross[key]) for key, n in total.items()}


def rollup() -> dict[tuple[int, date, int], tuple[int, int]]:
    return {
        (r, day, dept): (n, c)
        for r, day, dept, n, c in RetrievalDay.objects.values_list(
            "reflection_id", "day", "department_id", "retrievals", "cross_agent"
        )
    }


def days_of(source_path: str) -> dict[date, tuple[int, int]]:
    return {
        day: (n, c)
        for day, n, c in RetrievalDay.objects.filter(
            reflection__source_path=source_path
        ).values_list("day", "retrievals", "cross_agent")
    }


def test_an_import_fills_the_rollup_with_a_recount_of_its_events(workspace):
    append(
        workspace,
        line(FINANCE, "2026-05-20T09:12:00Z", "t1"),
        line(FINANCE, "2026-05-20T17:00:00Z", "t2"),
        line(FINANCE, "2026-05-27T14:40:00Z", "t3"),
        line(SALES, "2026-05-28T08:03:00Z", "t4", agent="delivery-agent"),
    )

    import_log(workspace)

    assert rollup() == recount()
    assert days_of(FINANCE) == {date(2026, 5, 20): (2, 0), date(2026, 5, 27): (1, 0)}


def test_a_retrieval_by_another_agent_counts_as_cross_agent(workspace):
    append(
        workspace,
        line(SALES, "2026-05-28T08:03:00Z", "t1", agent="delivery-agent"),
        line(SALES, "2026-05-28T09:00:00Z", "t2", agent="sales-agent"),
        line(SALES, "2026-05-28T10:00:00Z", "t3", agent="finance-agent"),
    )

    import_log(workspace)

    assert days_of(SALES) == {date(2026, 5, 28): (3, 2)}
    assert rollup() == recount()


def test_a_retrieval_of_a_reflection_without_author_is_never_cross_agent():
    anonymous = ReflectionFactory(agent=None, department=DepartmentFactory())
    RetrievalEventFactory(reflection=anonymous, agent=AgentFactory())

    refresh_retrieval_rollup()

    assert rollup() == recount()
    assert RetrievalDay.objects.get(reflection=anonymous).cross_agent == 0


def test_days_are_utc_calendar_days(workspace):
    append(
        workspace,
        line(FINANCE, "2026-05-20T23:59:59Z", "t1"),
        line(FINANCE, "2026-05-21T00:00:00Z", "t2"),
        # 00:30 in UTC+02:00 is still the 20th in UTC; 23:30 in UTC-05:00 is the 21st.
        line(FINANCE, "2026-05-21T01:30:00+02:00", "t3"),
        line(FINANCE, "2026-05-20T23:30:00-05:00", "t4"),
    )

    import_log(workspace)

    assert days_of(FINANCE) == {date(2026, 5, 20): (2, 0), date(2026, 5, 21): (2, 0)}
    assert rollup() == recount()


def test_reimporting_the_same_log_leaves_the_rollup_as_it_was(workspace):
    append(
        workspace,
        line(FINANCE, "2026-05-20T09:12:00Z", "t1"),
        line(SALES, "2026-05-28T08:03:00Z", "t2", agent="delivery-agent"),
    )
    import_log(workspace)
    before = rollup()

    again = import_log(workspace)

    assert again.details["retrievals"] == {"created": 0, "unchanged": 2}
    assert rollup() == before == recount()


def test_a_grown_log_recounts_only_the_days_its_new_lines_fall_on(workspace):
    append(
        workspace,
        line(FINANCE, "2026-05-20T09:12:00Z", "t1"),
        line(FINANCE, "2026-05-27T14:40:00Z", "t2"),
    )
    import_log(workspace)
    # A row the new lines do not touch keeps its id: it was not rewritten.
    untouched = RetrievalDay.objects.get(day=date(2026, 5, 20))
    append(
        workspace,
        line(FINANCE, "2026-05-27T18:00:00Z", "t3"),  # a day already counted
        line(FINANCE, "2026-05-29T08:00:00Z", "t4", agent="sales-agent"),  # a new day
    )

    again = import_log(workspace)

    assert again.details["retrievals"] == {"created": 2, "unchanged": 2}
    assert rollup() == recount()
    assert days_of(FINANCE) == {
        date(2026, 5, 20): (1, 0),
        date(2026, 5, 27): (2, 0),
        date(2026, 5, 29): (1, 1),
    }
    assert RetrievalDay.objects.get(day=date(2026, 5, 20)).pk == untouched.pk


def test_a_large_batch_rebuilds_the_whole_rollup(workspace, monkeypatch):
    append(workspace, line(FINANCE, "2026-05-20T09:12:00Z", "t1"))
    import_log(workspace)
    RetrievalDay.objects.update(retrievals=99)  # drift the import would not otherwise see
    monkeypatch.setattr(rollups, "ROLLUP_REBUILD_EVENTS", 1)
    append(workspace, line(SALES, "2026-05-28T08:03:00Z", "t2"))

    import_log(workspace)

    assert rollup() == recount()


def test_the_first_import_also_counts_events_written_before_the_rollup_existed(workspace):
    finance = Reflection.objects.get(source_path=FINANCE)
    RetrievalEventFactory(reflection=finance, retrieved_at=datetime(2026, 5, 2, 8, tzinfo=UTC))
    assert not RetrievalDay.objects.exists()
    append(workspace, line(SALES, "2026-05-28T08:03:00Z", "t1"))

    import_log(workspace)

    assert rollup() == recount()
    assert days_of(FINANCE) == {date(2026, 5, 2): (1, 0)}


def test_a_retrieval_of_an_unknown_reflection_is_rejected_and_not_counted(workspace):
    append(
        workspace,
        line(FINANCE, "2026-05-20T09:12:00Z", "t1"),
        line("memory/reflexions/2026-05/99-nope.md", "2026-05-20T10:00:00Z", "t2"),
    )

    summary = import_log(workspace)

    (rejection,) = summary.rejected
    assert "99-nope.md" in rejection.reason
    assert rollup() == recount()
    assert sum(n for n, _ in rollup().values()) == RetrievalEvent.objects.count() == 1


def test_a_reflection_that_changes_author_is_recounted(workspace):
    append(
        workspace,
        line(FINANCE, "2026-05-20T09:12:00Z", "t1", agent="finance-agent"),
        line(FINANCE, "2026-05-20T10:00:00Z", "t2", agent="sales-agent"),
    )
    import_log(workspace)
    assert days_of(FINANCE) == {date(2026, 5, 20): (2, 1)}
    path = workspace / FINANCE
    path.write_text(path.read_text().replace("agent: finance-agent", "agent: audit-agent"))

    import_reflections(paths=[workspace], default_department="research", now=NOW)

    assert days_of(FINANCE) == {date(2026, 5, 20): (2, 2)}
    assert rollup() == recount()


def test_refreshing_from_a_day_rewrites_only_that_day_and_later():
    reflection = ReflectionFactory()
    for day in (1, 2, 3):
        RetrievalEventFactory(
            reflection=reflection, retrieved_at=datetime(2026, 5, day, tzinfo=UTC)
        )
    refresh_retrieval_rollup()
    expected = recount()
    RetrievalDay.objects.update(retrievals=99)
    RetrievalDay.objects.filter(day=date(2026, 5, 3)).delete()

    refresh_retrieval_rollup(since=date(2026, 5, 2))

    got = rollup()
    assert {k: v for k, v in got.items() if k[1] >= date(2026, 5, 2)} == {
        k: v for k, v in expected.items() if k[1] >= date(2026, 5, 2)
    }
    assert RetrievalDay.objects.get(day=date(2026, 5, 1)).retrievals == 99  # before since

    refresh_retrieval_rollup()

    assert rollup() == expected


def test_a_refresh_writes_only_what_drifted():
    reflection = ReflectionFactory()
    for day in (1, 2, 3):
        RetrievalEventFactory(
            reflection=reflection, retrieved_at=datetime(2026, 5, day, tzinfo=UTC)
        )
    first = refresh_retrieval_rollup()
    assert (first.rows, first.inserted) == (3, 3)
    RetrievalDay.objects.filter(day=date(2026, 5, 1)).update(retrievals=7)
    RetrievalDay.objects.filter(day=date(2026, 5, 2)).delete()
    RetrievalDay.objects.create(
        reflection=reflection,
        department=reflection.department,
        day=date(2026, 5, 9),
        retrievals=1,
        cross_agent=0,
    )

    again = refresh_retrieval_rollup()

    assert (again.rows, again.inserted, again.updated, again.deleted) == (3, 1, 1, 1)
    assert rollup() == recount()
    assert refresh_retrieval_rollup() == type(again)(rows=3)  # nothing left to write


def test_the_refresh_command_recounts_and_reports(capsys):
    RetrievalEventFactory(retrieved_at=datetime(2026, 5, 1, 12, tzinfo=UTC))
    RetrievalEventFactory(retrieved_at=datetime(2026, 5, 2, 12, tzinfo=UTC))

    call_command("refresh_rollup", "--since", "2026-05-02", "--json")
    assert json.loads(capsys.readouterr().out)["inserted"] == 1
    call_command("refresh_rollup")

    out = capsys.readouterr().out
    assert "every day" in out and "2 rows; 1 inserted, 0 updated, 0 deleted" in out
    assert rollup() == recount()


def test_the_daily_run_recounts_the_decay_window_before_decay():
    # Written behind the importer's back: only the daily run's refresh can see them.
    reflection = ReflectionFactory(created_at=datetime(2026, 1, 3, tzinfo=UTC))
    for hour in range(5):
        RetrievalEventFactory(
            reflection=reflection, retrieved_at=datetime(2026, 11, 20, hour, tzinfo=UTC)
        )

    run_daily_policies.call(as_of="2026-11-21", reschedule=False)

    reflection.refresh_from_db()
    assert reflection.state == State.PROMOTED
    assert rollup() == recount()


# --------------------------------------------------------------------------- usefulness


def task(task_id: str, outcome: str, agent: str = "finance-agent", dept: str = "finance") -> dict:
    return {
        "task_id": task_id,
        "agent": agent,
        "department": dept,
        "task_type": "reconciliation",
        "finished_at": "2026-05-29T12:00:00Z",
        "outcome": outcome,
    }


def write_tasks(ws: Path, *tasks: dict) -> Path:
    """The task log, as it is now: a later write states the tasks' outcomes afresh."""
    log = ws / "logs" / "tasks.jsonl"
    log.write_text("".join(json.dumps(t) + "\n" for t in tasks))
    return log


def import_tasks(ws: Path):
    return import_events(paths=[ws / "logs" / "tasks.jsonl"], now=NOW)


def useful_recount() -> dict[int, int]:
    """Reflection → retrievals whose task succeeded, counted in Python."""
    succeeded = set(TaskRun.objects.filter(outcome="success").values_list("task_id", flat=True))
    counts = Counter(
        reflection_id
        for reflection_id, task_id in RetrievalEvent.objects.values_list("reflection_id", "task_id")
        if task_id in succeeded
    )
    return {pk: counts[pk] for pk in Reflection.objects.values_list("id", flat=True)}


def useful() -> dict[int, int]:
    return dict(Reflection.objects.values_list("id", "useful_retrieval_count"))


def flows_recount() -> dict[tuple[date, int | None, int], int]:
    """(UTC day, retriever's department, reflection's department) → retrievals, in Python."""
    agents = dict(Agent.objects.values_list("id", "department_id"))
    departments = dict(Reflection.objects.values_list("id", "department_id"))
    counts: Counter = Counter()
    for reflection_id, at, agent_id, department_id in RetrievalEvent.objects.values_list(
        "reflection_id", "retrieved_at", "agent_id", "department_id"
    ):
        retriever = department_id or agents[agent_id]
        counts[(at.astimezone(UTC).date(), retriever, departments[reflection_id])] += 1
    return dict(counts)


def flows() -> dict[tuple[date, int | None, int], int]:
    return {
        (day, src, dst): n
        for day, src, dst, n in RetrievalFlowDay.objects.values_list(
            "day", "retriever_department_id", "reflection_department_id", "retrievals"
        )
    }


def useful_of(source_path: str) -> int:
    return Reflection.objects.get(source_path=source_path).useful_retrieval_count


def dept(slug: str) -> int:
    return Department.objects.get(slug=slug).pk


RETRIEVALS = (
    line(FINANCE, "2026-05-20T09:12:00Z", "ok1"),
    line(FINANCE, "2026-05-20T10:00:00Z", "bad"),
    line(FINANCE, "2026-05-21T10:00:00Z", "gone"),  # no such task: never useful
    line(FINANCE, "2026-05-21T11:00:00Z", "ok2", agent="sales-agent"),
    {**line(SALES, "2026-05-28T08:03:00Z", "ok1", agent="delivery-agent"), "department": "finance"},
)
TASKS = (task("ok1", "success"), task("ok2", "success"), task("bad", "failure"))


@pytest.mark.parametrize("order", ["retrievals first", "tasks first", "one import"])
def test_useful_counts_and_flows_equal_a_recount_whichever_log_comes_first(workspace, order):
    append(workspace, *RETRIEVALS)
    retrievals, tasks = workspace / "logs" / "retrievals.jsonl", write_tasks(workspace, *TASKS)

    if order == "one import":
        import_events(paths=[tasks, retrievals], now=NOW)
    else:
        for log in [retrievals, tasks] if order == "retrievals first" else [tasks, retrievals]:
            import_events(paths=[log], now=NOW)

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
    import_events(paths=logs, now=NOW)
    before = (useful(), flows())

    again = import_events(paths=logs, now=NOW)

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
        paths=[workspace / "logs" / "retrievals.jsonl", workspace / "logs" / "tasks.jsonl"], now=NOW
    )
    assert useful_of(FINANCE) == 2  # ok1, ok2
    # The same import brings the changed outcomes and new retrievals of the changed tasks.
    append(workspace, line(FINANCE, "2026-05-30T08:00:00Z", "bad"))
    append(workspace, line(SALES, "2026-05-30T09:00:00Z", "ok1"))
    write_tasks(workspace, task("ok1", "failure"), task("ok2", "success"), task("bad", "success"))

    summary = import_events(
        paths=[workspace / "logs" / "tasks.jsonl", workspace / "logs" / "retrievals.jsonl"], now=NOW
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
        paths=[workspace / "logs" / "retrievals.jsonl", workspace / "logs" / "tasks.jsonl"], now=NOW
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

    import_reflections(paths=[workspace], default_department="research", now=NOW)

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


# --------------------------------------------------------------------------- injections


def injected(task_id: str, *reflections: str, outcome: str = "success") -> dict:
    return {**task(task_id, outcome), "reflections_injected": list(reflections)}


def injections_recount() -> dict[int, int]:
    """Reflection → tasks it was injected into, counted in Python."""
    counts = Counter(TaskInjection.objects.values_list("reflection_id", flat=True))
    return {pk: counts[pk] for pk in Reflection.objects.values_list("id", flat=True)}


def injections() -> dict[int, int]:
    return dict(Reflection.objects.values_list("id", "injection_count"))


def injections_of(source_path: str) -> int:
    return Reflection.objects.get(source_path=source_path).injection_count


def test_imported_injections_are_counted_per_reflection(workspace):
    write_tasks(
        workspace,
        injected("t1", FINANCE, SALES),
        injected("t2", FINANCE),
        injected("t3", outcome="failure"),
    )

    import_tasks(workspace)

    assert (injections_of(FINANCE), injections_of(SALES)) == (2, 1)
    assert injections() == injections_recount()


def test_reimporting_the_same_tasks_leaves_the_injection_counts_as_they_were(workspace):
    write_tasks(workspace, injected("t1", FINANCE, SALES), injected("t2", FINANCE))
    import_tasks(workspace)
    before = injections()

    again = import_tasks(workspace)

    assert again.created == again.updated == 0
    assert injections() == before == injections_recount()


def test_new_and_changed_tasks_move_their_injections(workspace):
    write_tasks(workspace, injected("t1", FINANCE, SALES), injected("t2", FINANCE))
    import_tasks(workspace)
    # t1 changed (its outcome) and now injects only SALES; t2 is as it was but names another
    # reflection too; t3 is new.
    write_tasks(
        workspace,
        injected("t1", SALES, outcome="failure"),
        injected("t2", FINANCE, SALES),
        injected("t3", FINANCE, SALES),
    )

    summary = import_tasks(workspace)

    assert (summary.details["tasks"]["created"], summary.details["tasks"]["updated"]) == (1, 1)
    assert injections() == injections_recount()
    assert (injections_of(FINANCE), injections_of(SALES)) == (2, 3)


def test_injections_saved_one_at_a_time_are_counted():
    reflection = ReflectionFactory()
    TaskInjectionFactory(reflection=reflection)
    TaskInjectionFactory(reflection=reflection)

    assert injections()[reflection.pk] == 2 == injections_recount()[reflection.pk]


def test_the_refresh_command_and_the_daily_run_recount_injections():
    busy, quiet = ReflectionFactory(), ReflectionFactory()
    for _ in range(3):
        TaskInjectionFactory(reflection=busy)
    expected = injections_recount()
    assert (expected[busy.pk], expected[quiet.pk]) == (3, 0)

    def drift():
        # Written behind the services' back: a restore, a raw SQL fix, a task deleted with its
        # injections.
        Reflection.objects.update(injection_count=5)

    drift()
    call_command("refresh_rollup", "--since", "2026-05-02")
    assert injections()[busy.pk] == 5  # a recount from a day on leaves all-time counts alone
    call_command("refresh_rollup")
    assert injections() == expected

    drift()
    run_daily_policies.call(as_of="2026-11-21", reschedule=False)
    assert injections() == expected
