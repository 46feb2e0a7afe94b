"""The pages that read the injected tasks' outcomes from the daily rollup (the injection audit,
the queue's lift, the duplicate guard, the lift table) get what joining the injections to
their task runs gives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from insights.selectors.usefulness import lift_table
from reflections.models import Reflection, TaskInjection, TaskRun
from reflections.selectors.injection_audit import weekly_injections, weekly_injections_from_runs
from reflections.selectors.reflection_events import injection_page
from reflections.selectors.tasks import injected_weeks, injected_weeks_from_runs
from reflections.services.counters import refresh_injection_counters
from reflections.services.injection_rollup import refresh_injection_outcome_days
from reflections.services.task_rollup import refresh_task_outcome_days
from reviews.models import ReviewCycle
from reviews.selectors.evidence import lifts_by_reflection
from tests.factories import AgentFactory, ReflectionFactory

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 1, tzinfo=UTC)  # a Sunday: weeks straddle the window's edges
OUTCOMES = ("success", "partial", "failure")


@pytest.fixture
def world():
    agent = AgentFactory()
    return agent, [ReflectionFactory(agent=agent) for _ in range(3)]


def _store(agent, reflections, tasks) -> None:
    """Tasks and injections written in bulk (no signals), then the rollups and the injection
    counters recounted whole."""
    TaskRun.objects.all().delete()
    runs = TaskRun.objects.bulk_create(
        TaskRun(
            task_id=f"t{n}",
            agent=agent,
            department=agent.department,
            task_type="reconciliation",
            finished_at=START + timedelta(minutes=minutes),
            outcome=outcome,
        )
        for n, (minutes, outcome, _) in enumerate(tasks)
    )
    TaskInjection.objects.bulk_create(
        TaskInjection(task_run=run, reflection=reflections[i], finished_at=run.finished_at)
        for run, (_, _, given_to) in zip(runs, tasks, strict=True)
        for i in sorted(given_to)
    )
    refresh_injection_outcome_days()
    refresh_task_outcome_days()
    refresh_injection_counters()


TASKS = st.lists(
    st.tuples(
        # Minutes from START over five weeks, often right at or just before a midnight.
        st.one_of(
            st.integers(0, 35 * 1440),
            st.integers(0, 35).map(lambda d: d * 1440),
            st.integers(1, 35).map(lambda d: d * 1440 - 1),
        ),
        st.sampled_from(OUTCOMES),
        st.sets(st.integers(0, 2), min_size=1),
    ),
    max_size=40,
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(tasks=TASKS, first=st.integers(0, 20), days=st.integers(1, 20))
def test_the_rollup_read_equals_the_injections_joined_to_their_tasks(world, tasks, first, days):
    agent, reflections = world
    _store(agent, reflections, tasks)
    ids = [r.pk for r in reflections]
    start = START + timedelta(days=first)
    end = start + timedelta(days=days)

    for reflection in reflections:
        assert weekly_injections(reflection) == weekly_injections_from_runs(reflection)
    assert injected_weeks(ids) == injected_weeks_from_runs(ids)
    assert injected_weeks(ids, start, end) == injected_weeks_from_runs(ids, start, end)
    assert injected_weeks(ids, start) == injected_weeks_from_runs(ids, start)


def test_a_window_that_is_not_midnights_is_read_from_the_injections(world):
    agent, reflections = world
    # Two tasks on 3 March: one before noon and one after.
    _store(agent, reflections, [(2 * 1440 + 60, "success", {0}), (2 * 1440 + 900, "failure", {0})])
    ids = [reflections[0].pk]
    noon = START + timedelta(days=2, hours=12)

    assert injected_weeks(ids, noon, noon + timedelta(days=1)) == injected_weeks_from_runs(
        ids, noon, noon + timedelta(days=1)
    )
    assert sum(n for n, _ in injected_weeks(ids, noon)[ids[0]].values()) == 1


def _cycle(agent, quarter: str, start: datetime, *, days: int) -> ReviewCycle:
    return ReviewCycle.objects.create(
        department=agent.department,
        quarter=quarter,
        window_start=start,
        window_end=start + timedelta(days=days),
        opened_at=START,
    )


def test_the_queue_lift_reads_the_same_counts_from_the_rollup_and_from_the_runs(world):
    agent, reflections = world
    tasks = [(d * 1440 + 600, OUTCOMES[d % 3], {0, d % 3}) for d in range(30)]
    _store(agent, reflections, tasks)
    ids = [r.pk for r in reflections]
    midnight = _cycle(agent, "2026Q2", START, days=20)
    # The same window moved by an hour: answered from the runs, one hour less of tasks.
    shifted = _cycle(agent, "2026Q4", START + timedelta(hours=1), days=20)

    from_rollup = lifts_by_reflection(midnight, ids, min_tasks=1)
    from_runs = lifts_by_reflection(shifted, ids, min_tasks=1)

    assert from_rollup == from_runs  # every task finishes at 10:00, so the hour changes nothing
    assert from_rollup[ids[0]].injected_tasks == 20


def test_the_readers_touch_no_injection_and_cost_the_same_queries_however_many(world):
    agent, reflections = world
    cycle = _cycle(agent, "2026Q2", START, days=35)
    ids = [r.pk for r in reflections]

    def statements() -> list[str]:
        Reflection.objects.filter(pk__in=ids).update(injection_count=1)  # ranked by lift_table
        with CaptureQueriesContext(connection) as captured:
            weekly_injections(reflections[0])
            lifts_by_reflection(cycle, ids)
            lift_table(department_ids=None)
        return [q["sql"] for q in captured.captured_queries if not q["sql"].startswith("SET")]

    _store(agent, reflections, [(60, "success", {0})])
    few = statements()
    _store(agent, reflections, [(d * 60, OUTCOMES[d % 3], {0, 1, 2}) for d in range(300)])
    many = statements()

    assert len(few) == len(many) <= 8
    assert not any(TaskInjection._meta.db_table in sql for sql in many)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(tasks=TASKS, size=st.integers(min_value=1, max_value=12))
def test_a_reflections_injections_page_by_page_are_its_runs_the_last_finished_first(
    world, tasks, size
):
    agent, reflections = world
    _store(agent, reflections, tasks)

    for reflection in reflections:
        by_joining = list(
            TaskInjection.objects.filter(reflection=reflection)
            .order_by("-task_run__finished_at", "-id")
            .values_list("id", flat=True)
        )
        paged, after = [], None
        while True:
            page = injection_page(reflection.pk, after=after, size=size)
            paged += [i.pk for i in page.rows]
            if page.next_cursor is None:
                break
            after = page.next_cursor
        assert paged == by_joining


def test_a_page_of_injections_is_one_query_however_many_there_are(world):
    agent, reflections = world
    _store(agent, reflections, [(d * 60, OUTCOMES[d % 3], {0}) for d in range(300)])

    with CaptureQueriesContext(connection) as captured:
        page = injection_page(reflections[0].pk, size=5)
        [injection.task_run.agent.name for injection in page.rows]
        older = injection_page(reflections[0].pk, after=page.next_cursor, size=5)
        [injection.task_run.agent.name for injection in older.rows]

    assert len(captured.captured_queries) == 2
    assert [i.task_run.task_id for i in page.rows + older.rows] == [
        f"t{n}" for n in range(299, 289, -1)
    ]
