"""The demo's learning curves and usefulness, as the insights read them, have the planted shapes."""

from __future__ import annotations

import time
from datetime import date, timedelta

import pytest
from django.core.management import call_command
from django.db.models import Count, Exists, F, OuterRef, Q
from django.db.models.functions import Coalesce

from demo.workspace import write_workspace
from insights import metrics
from insights.metrics import LessonRow, TaskRow
from insights.selectors import common, learning, usefulness
from reflections.models import (
    Department,
    Outcome,
    Reflection,
    RetrievalEvent,
    TaskRun,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo_workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo")
    summary = write_workspace(root, scale="default")
    return root, summary


@pytest.mark.django_db
def test_the_demo_shows_its_planted_learning_shape(demo_workspace):
    root, summary = demo_workspace
    started = time.perf_counter()
    call_command(
        "import_reflections",
        "--create-departments",
        str(root),
        stdout=open("/dev/null", "w"),  # noqa: SIM115
    )
    call_command(
        "import_events",
        "--create-departments",
        str(root / "logs"),
        stdout=open("/dev/null", "w"),  # noqa: SIM115
    )
    imported = time.perf_counter() - started
    start, end = date.fromisoformat(summary["start"]), date.fromisoformat(summary["end"])
    curves = learning.learning_curves(
        departments=list(Department.objects.all()), department_ids=None, start=start, end=end
    )
    success = [w.success_rate for w in curves.overall]
    repeat = [w.repeat_failure_rate for w in curves.overall]
    assert len(curves.weeks) == 52
    # Planted (demo.workspace): success 0.71 → 0.83 at 24 weeks; repeat 0.34 → 0.09 → 0.07.
    assert metrics.mean(success[:4]) == pytest.approx(0.71, abs=0.03)  # measured 0.709
    assert metrics.mean(success[20:28]) == pytest.approx(0.83, abs=0.03)  # measured 0.822
    assert metrics.mean(repeat[:4]) == pytest.approx(0.34, abs=0.03)  # measured 0.334
    assert metrics.mean(repeat[20:28]) == pytest.approx(0.09, abs=0.02)  # measured 0.091
    assert metrics.mean(repeat[-4:]) == pytest.approx(0.07, abs=0.02)  # measured 0.072
    # The generator's own week-by-week curve (its ISO weeks start on the same Monday).
    assert start == curves.start
    assert [None if r is None else round(r, 4) for r in repeat] == summary["weekly"][
        "repeat_failure_rate"
    ]
    # And the SQL is the Python reference on every department-week.
    tasks = [
        TaskRow(*r)
        for r in TaskRun.objects.values_list(
            "department_id", "task_type", "finished_at", "outcome", "failure_mode"
        )
    ]
    lessons = [
        LessonRow(*r)
        for r in Reflection.objects.values_list("department_id", "task_type", "kind", "created_at")
    ]
    rows = learning.learning_rows(
        since=common.start_of(start), until=common.start_of(end + timedelta(days=1))
    )
    assert metrics.learning_weeks_reference(tasks, lessons) == rows
    # Cross-agent sharing is planted at about 14 %.
    report = usefulness.usefulness_report(
        departments=list(Department.objects.all()), department_ids=None
    )
    assert report.cross_agent_share == pytest.approx(0.14, abs=0.03)
    # Post-failure lessons are ≈ 3.4 times as useful per stored reflection (DOMAIN §7).
    assert report.usefulness.ratio == pytest.approx(3.4, abs=0.5)
    assert imported < 60
    # After the decay the day after the demo ends, each department's active set is 150-200.
    call_command(
        "apply_policies",
        "--as-of",
        (end + timedelta(days=1)).isoformat(),
        stdout=open("/dev/null", "w"),  # noqa: SIM115
    )
    active = dict(
        Reflection.objects.filter(state__in=["active", "promoted"])
        .values_list("department__slug")
        .annotate(n=Count("id"))
        .order_by()
    )
    assert len(active) == 8
    assert all(150 <= n <= 200 for n in active.values()), active


def raw_usefulness(department_ids: list[int] | None) -> tuple[dict, list]:
    """Useful retrievals per kind and flows per department pair grouped from the raw events,
    as the page computed them before it read the maintained aggregates."""
    succeeded = TaskRun.objects.filter(task_id=OuterRef("task_id"), outcome=Outcome.SUCCESS)
    useful = RetrievalEvent.objects.filter(Exists(succeeded))
    events = RetrievalEvent.objects.annotate(
        retriever=Coalesce(F("department_id"), F("agent__department_id"))
    )
    if department_ids is not None:
        useful = useful.filter(reflection__department_id__in=department_ids)
        events = events.filter(
            Q(retriever__in=department_ids) | Q(reflection__department_id__in=department_ids)
        )
    by_kind = dict(useful.values_list("reflection__kind").annotate(n=Count("id")).order_by())
    flows = sorted(
        events.values_list("retriever", "reflection__department_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    return by_kind, flows


@pytest.mark.django_db
def test_the_usefulness_aggregates_equal_grouping_the_raw_events(demo_workspace):
    root, _ = demo_workspace
    call_command(
        "import_reflections",
        "--create-departments",
        str(root),
        stdout=open("/dev/null", "w"),  # noqa: SIM115
    )
    call_command(
        "import_events",
        "--create-departments",
        str(root / "logs"),
        stdout=open("/dev/null", "w"),  # noqa: SIM115
    )
    departments = list(Department.objects.all())
    slugs = {d.pk: d.slug for d in departments}
    assert RetrievalEvent.objects.count() > 1000

    for scope in [None, *([d.pk] for d in departments)]:
        report = usefulness.usefulness_report(departments=departments, department_ids=scope)
        by_kind, flows = raw_usefulness(scope)
        assert report.usefulness == metrics.usefulness(
            dict(
                (
                    Reflection.objects
                    if scope is None
                    else Reflection.objects.filter(department_id__in=scope)
                )
                .values_list("kind")
                .annotate(n=Count("id"))
                .order_by()
            ),
            by_kind,
        )
        assert sorted(
            (f.retriever_department, f.reflection_department, f.retrievals) for f in report.flows
        ) == sorted((slugs.get(src, "—"), slugs[dst], n) for src, dst, n in flows)
    assert report.usefulness.post_failure.useful_retrievals > 0
