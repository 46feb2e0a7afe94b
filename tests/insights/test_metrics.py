"""DOMAIN §7 numbers: learning curves, repeat failures, usefulness, lift and flows, by hand and
in the database."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db.models import Count

from insights import metrics
from insights.metrics import LessonRow, TaskRow, WeekStats
from insights.selectors import learning, usefulness
from reflections.models import (
    Department,
    Reflection,
    State,
    TaskInjection,
)
from reflections.services.rollups import refresh_retrieval_rollup
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    RetrievalEventFactory,
    TaskInjectionFactory,
    TaskRunFactory,
)


def at(day: str, hour: int = 12) -> datetime:
    return datetime.fromisoformat(day).replace(hour=hour, tzinfo=UTC)


WEEK = date(2026, 3, 2)  # a Monday
WEEK_BEFORE = date(2026, 2, 23)

# The hand-built learning dataset. Finance / recon gets its first failure lesson at
# 2026-03-02 10:00; every finance task below finishes in the ISO week of 2026-03-02.
LESSONS = [
    LessonRow("finance", "recon", "failure", at("2026-03-02", 10)),
    LessonRow("finance", "billing", "success", at("2026-03-01")),  # a success lesson: no
    LessonRow("sales", "recon", "partial", at("2026-03-09")),  # after every sales task
]
TASKS = [
    # T1 finishes the very instant the lesson is written: not "before", so not eligible.
    TaskRow("finance", "recon", at("2026-03-02", 10), "failure", "timeout"),
    # T2: eligible, and T1 failed with "timeout" earlier: a repeat failure.
    TaskRow("finance", "recon", at("2026-03-03"), "failure", "timeout"),
    # T3: eligible, failed without a mode: not a repeat.
    TaskRow("finance", "recon", at("2026-03-04"), "failure", ""),
    # T4: eligible, partial with a seen mode: not a failure, not a repeat, not a success.
    TaskRow("finance", "recon", at("2026-03-05"), "partial", "timeout"),
    # T5: eligible success.
    TaskRow("finance", "recon", at("2026-03-05", 13), "success"),
    # T6: eligible; only sales failed with "late" before (S0): not a repeat.
    TaskRow("finance", "recon", at("2026-03-06"), "failure", "late"),
    # T7: billing has only a success lesson: not eligible.
    TaskRow("finance", "billing", at("2026-03-06"), "success"),
    # S0: sales, Sunday 2026-03-01, so the ISO week of 2026-02-23; no sales lesson yet.
    TaskRow("sales", "recon", at("2026-03-01"), "failure", "late"),
]
# By hand, finance week of 2026-03-02: finished T1..T7 = 7; successes T5, T7 = 2; partials
# T4 = 1; failures T1, T2, T3, T6 = 4; eligible T2..T6 = 5; repeats T2 = 1.
FINANCE_WEEK = WeekStats(
    WEEK, finished=7, successes=2, partials=1, failures=4, eligible=5, repeats=1
)
# Sales, week of 2026-02-23: one failure, nothing eligible (its lesson comes later).
SALES_WEEK = WeekStats(WEEK_BEFORE, finished=1, successes=0, partials=0, failures=1)


def test_learning_weeks_follow_domain_7_by_hand():
    weeks = metrics.learning_weeks_reference(TASKS, LESSONS)
    assert weeks == {"finance": {WEEK: FINANCE_WEEK}, "sales": {WEEK_BEFORE: SALES_WEEK}}
    assert FINANCE_WEEK.success_rate == pytest.approx(2 / 7)  # the partial is not a success
    assert FINANCE_WEEK.partial_rate == pytest.approx(1 / 7)
    assert FINANCE_WEEK.repeat_failure_rate == pytest.approx(1 / 5)
    assert SALES_WEEK.repeat_failure_rate is None  # nothing eligible: no rate, not 0


def test_tasks_finishing_at_the_same_instant_are_not_earlier_than_each_other():
    lesson = [LessonRow("d", "t", "partial", at("2026-03-01"))]
    same = [TaskRow("d", "t", at("2026-03-03"), "failure", "x")] * 2
    weeks = metrics.learning_weeks_reference(same, lesson)
    assert weeks["d"][WEEK].eligible == 2
    assert weeks["d"][WEEK].repeats == 0
    later = [*same, TaskRow("d", "t", at("2026-03-04"), "failure", "x")]
    assert metrics.learning_weeks_reference(later, lesson)["d"][WEEK].repeats == 1


def test_week_start_is_the_iso_monday_in_utc():
    assert metrics.week_start(date(2026, 3, 8)) == date(2026, 3, 2)  # Sunday
    assert metrics.week_start(date(2026, 3, 2)) == date(2026, 3, 2)
    late_sunday = datetime(2026, 3, 8, 23, 30, tzinfo=UTC)
    assert metrics.week_start(late_sunday) == date(2026, 3, 2)
    assert metrics.weeks_between(date(2026, 3, 4), date(2026, 3, 16)) == [
        date(2026, 3, 2),
        date(2026, 3, 9),
        date(2026, 3, 16),
    ]


def test_window_rates_pool_the_weeks_rather_than_average_their_rates():
    weeks = [WeekStats(WEEK, finished=10, successes=9), WeekStats(WEEK, finished=2, successes=0)]
    # (9 + 0) / (10 + 2) = 0.75, where the mean of the weekly rates would say 0.45.
    assert metrics.window_rate(weeks, "successes", "finished") == (0.75, 12)


def test_wilson_interval_by_hand():
    # 8 of 10, z = 1.96: centre (0.8 + 0.1921) / 1.3842 = 0.7167,
    # half 1.96 * sqrt(0.016 + 0.0096) / 1.3842 = 0.2266 → [0.4902, 0.9433].
    low, high = metrics.wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    assert metrics.wilson_interval(0, 0) is None
    assert metrics.wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_usefulness_ratio_by_hand():
    u = metrics.usefulness(
        {"failure": 3, "partial": 1, "success": 8, "decision": 5},
        {"failure": 9, "partial": 3, "success": 8, "decision": 50},
    )
    # Post-failure: (9 + 3) / (3 + 1) = 3.0; post-success 8 / 8 = 1.0; ratio 3.0.
    assert u.post_failure.per_reflection == 3.0
    assert u.post_success.per_reflection == 1.0
    assert u.ratio == 3.0


# --------------------------------------------------------------------------- in the database


@pytest.fixture
def learning_db():
    """The same dataset as TASKS / LESSONS, stored."""
    finance = DepartmentFactory(slug="finance")
    sales = DepartmentFactory(slug="sales")
    fin = AgentFactory(name="fin", department=finance)
    sal = AgentFactory(name="sal", department=sales)
    agents = {"finance": fin, "sales": sal}
    for r in LESSONS:
        ReflectionFactory(
            agent=agents[r.department],
            task_type=r.task_type,
            kind=r.kind,
            outcome=r.kind,
            created_at=r.created_at,
        )
    for t in TASKS:
        TaskRunFactory(
            agent=agents[t.department],
            task_type=t.task_type,
            finished_at=t.finished_at,
            outcome=t.outcome,
            failure_mode=t.failure_mode,
        )
    return {"finance": finance, "sales": sales}


@pytest.mark.django_db
def test_the_sql_learning_rows_match_the_hand_computation(learning_db):
    rows = learning.learning_rows(since=at("2026-02-01"), until=at("2026-04-01"))
    assert rows == {
        learning_db["finance"].pk: {WEEK: FINANCE_WEEK},
        learning_db["sales"].pk: {WEEK_BEFORE: SALES_WEEK},
    }


@pytest.mark.django_db
def test_earlier_failures_before_the_range_still_make_a_repeat(learning_db):
    # From Tuesday on: T1 (Monday) is outside the range but its "timeout" still counts.
    rows = learning.learning_rows(
        since=at("2026-03-03", 0),
        until=at("2026-04-01"),
        department_ids=[learning_db["finance"].pk],
    )
    week = rows[learning_db["finance"].pk][WEEK]
    assert (week.finished, week.eligible, week.repeats) == (6, 5, 1)
    assert list(rows) == [learning_db["finance"].pk]


@pytest.mark.django_db
def test_learning_curves_add_departments_up_and_keep_empty_weeks(learning_db):
    curves = learning.learning_curves(
        departments=list(Department.objects.all()),
        department_ids=None,
        start=date(2026, 2, 23),
        end=date(2026, 3, 15),
    )
    assert curves.weeks == [WEEK_BEFORE, WEEK, date(2026, 3, 9)]
    assert curves.overall[0] == SALES_WEEK
    assert curves.overall[1] == FINANCE_WEEK
    assert curves.overall[2] == WeekStats(date(2026, 3, 9))
    # Lessons written per week by kind (Kind order: failure, partial, success, decision).
    assert [w.counts for w in curves.written] == [[0, 0, 1, 0], [1, 0, 0, 0], [0, 1, 0, 0]]


@pytest.mark.django_db
def test_usefulness_flows_and_cross_agent_share_in_the_database():
    finance = DepartmentFactory(slug="finance")
    sales = DepartmentFactory(slug="sales")
    fin = AgentFactory(name="fin", department=finance)
    sal = AgentFactory(name="sal", department=sales)
    refl = {
        kind: ReflectionFactory(agent=fin, kind=kind, outcome="" if kind == "decision" else kind)
        for kind in ("failure", "partial", "success", "decision")
    }
    for task_id, outcome in (
        ("ok1", "success"),
        ("ok2", "success"),
        ("bad", "failure"),
        ("half", "partial"),
    ):
        TaskRunFactory(task_id=task_id, agent=fin, outcome=outcome)
    for kind, task_id, agent in (
        ("failure", "ok1", fin),
        ("failure", "ok2", sal),  # cross-agent, sales → finance
        ("failure", "bad", fin),
        ("failure", "gone", fin),  # no such task: not useful
        ("partial", "half", fin),  # partial is not success
        ("success", "ok1", fin),
        ("decision", "ok1", sal),  # useful, cross-agent, but on neither side
    ):
        RetrievalEventFactory(reflection=refl[kind], task_id=task_id, agent=agent)
    refresh_retrieval_rollup()
    report = usefulness.usefulness_report(departments=[finance, sales], department_ids=None)
    # Post-failure: 2 reflections (failure, partial), useful: failure → ok1, ok2 = 2 → 1.0.
    # Post-success: 1 reflection, useful 1 → 1.0. Ratio 1.0.
    assert report.usefulness.post_failure.reflections == 2
    assert report.usefulness.post_failure.useful_retrievals == 2
    assert report.usefulness.post_success.useful_retrievals == 1
    assert report.usefulness.ratio == 1.0
    # 7 retrievals, 2 by sal of fin's reflections: 2 / 7.
    assert (report.retrievals_total, report.retrievals_cross_agent) == (7, 2)
    assert [
        (f.retriever_department, f.reflection_department, f.retrievals) for f in report.flows
    ] == [
        ("finance", "finance", 5),
        ("sales", "finance", 2),
    ]


@pytest.mark.django_db
def test_lift_reuses_the_review_evidence_definition_with_a_wilson_interval():
    finance = DepartmentFactory(slug="finance")
    fin = AgentFactory(name="fin", department=finance)
    lesson = ReflectionFactory(agent=fin, kind="failure")
    monday = at("2026-03-02")
    # 10 injected tasks in one week, 8 succeed; 10 other finance tasks that week, 5 succeed.
    for i in range(10):
        task = TaskRunFactory(
            agent=fin,
            finished_at=monday + timedelta(hours=i),
            outcome="success" if i < 8 else "failure",
        )
        TaskInjectionFactory(task_run=task, reflection=lesson)
        TaskRunFactory(
            agent=fin,
            finished_at=monday + timedelta(days=1, hours=i),
            outcome="success" if i < 5 else "failure",
        )
    [row] = usefulness.lift_table(department_ids=None)
    # Injected 8 / 10 = 0.8; department that week (8 + 5) / 20 = 0.65; lift +0.15.
    assert row.injections == 10
    assert row.lift.injected_rate == 0.8
    assert row.lift.department_rate == pytest.approx(0.65)
    assert row.lift.lift == pytest.approx(0.15)
    assert row.interval == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert row.lift_interval == pytest.approx((0.4902 - 0.65, 0.9433 - 0.65), abs=1e-4)


@pytest.mark.django_db
def test_lift_below_the_minimum_sample_shows_counts_without_rates():
    fin = AgentFactory(name="fin", department=DepartmentFactory(slug="finance"))
    lesson = ReflectionFactory(agent=fin)
    for _ in range(usefulness.LIFT_MIN_TASKS - 1):
        TaskInjectionFactory(task_run=TaskRunFactory(agent=fin), reflection=lesson)
    [row] = usefulness.lift_table(department_ids=None)
    assert row.lift.injected_tasks == usefulness.LIFT_MIN_TASKS - 1
    assert row.lift.injected_rate is None and row.interval is None and row.lift_interval is None


@pytest.mark.django_db
def test_lift_ranks_by_the_injection_counter_most_first_ties_by_id_without_quarantined():
    fin = AgentFactory(name="fin", department=DepartmentFactory(slug="finance"))
    sal = AgentFactory(name="sal", department=DepartmentFactory(slug="sales"))
    tie_a, tie_b, top = (ReflectionFactory(agent=fin) for _ in range(3))
    quarantined = ReflectionFactory(agent=fin, state=State.QUARANTINED)
    other = ReflectionFactory(agent=sal)
    ReflectionFactory(agent=fin)  # never injected: not ranked
    for reflection, n in ((tie_a, 2), (tie_b, 2), (top, 3), (quarantined, 5), (other, 4)):
        for _ in range(n):
            TaskInjectionFactory(task_run=TaskRunFactory(agent=fin), reflection=reflection)
    # The counter the ranking reads equals counting the injections.
    counted = dict(
        TaskInjection.objects.values_list("reflection_id").annotate(n=Count("id")).order_by()
    )
    assert dict(Reflection.objects.filter(injection_count__gt=0).values_list(
        "id", "injection_count")) == counted  # fmt: skip

    ranked = usefulness.lift_table(department_ids=None)
    assert [(r.reflection_id, r.injections) for r in ranked] == [
        (other.pk, 4), (top.pk, 3), (tie_a.pk, 2), (tie_b.pk, 2)
    ]  # fmt: skip
    finance_only = usefulness.lift_table(department_ids=[fin.department_id], top=2)
    assert [r.reflection_id for r in finance_only] == [top.pk, tie_a.pk]
