"""The quality selectors: a reflection's scores (latest rating wins), the trigger-gate
classification on each trigger, and the breakdowns' means and t-intervals computed by hand."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from reflections.models import Reflection
from reflections.policies import should_have_reflected
from rubric.models import CRITERIA, Rating, Rubric
from rubric.selectors.gate import GATED, UNGATED, UNKNOWN, gate_classes, with_gate_inputs
from rubric.selectors.quality import quality_breakdowns, reflection_quality, t_interval
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    TaskRunFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

MAY = datetime(2026, 5, 4, 9, tzinfo=UTC)
MARCH = datetime(2026, 3, 1, 9, tzinfo=UTC)
# t quantiles (scipy.stats.t.ppf(0.975, df)), written out so the arithmetic below is checkable.
T_DF1 = 12.706204736
T_DF2 = 4.302652730


@pytest.fixture
def rubric():
    return Rubric.objects.create(version=1, created_at=MARCH)


@pytest.fixture
def raters():
    return [UserFactory(username=name, roles=["rater"]) for name in ("xia", "yul")]


def rate(rubric, rater, reflection, levels, at=MAY):
    """The rater's four levels (in CRITERIA order) for the reflection, at `at`."""
    for criterion, level in zip(CRITERIA, levels, strict=True):
        Rating.objects.create(
            rater=rater,
            reflection=reflection,
            criterion=criterion,
            level=level,
            rubric=rubric,
            rated_at=at,
            source=Rating.Source.IMPORT,
        )


def reflection(agent, day: int, *, task=None, kind="failure", outcome="failure", task_type=None):
    return ReflectionFactory(
        agent=agent,
        created_at=MARCH + timedelta(days=day),
        task_id=task.task_id if task else "",
        task_type=task_type or agent.name.split("-")[0],
        kind=kind,
        outcome=outcome,
    )


def task(agent, outcome, confidence, task_type=None):
    return TaskRunFactory(
        agent=agent,
        outcome=outcome,
        confidence_at_start=confidence,
        task_type=task_type or agent.name.split("-")[0],
    )


class TestReflectionQuality:
    def test_criterion_means_over_raters_and_the_aggregate(self, rubric, raters):
        xia, yul = raters
        r = ReflectionFactory()
        rate(rubric, xia, r, [1.0, 0.5, 0.25, 0.75])
        rate(rubric, yul, r, [0.5, 0.5, 0.75, 0.25])
        q = reflection_quality([r.pk])[r.pk]
        # specificity (1 + 0.5)/2 = 0.75; actionability 0.5; transferability 0.5; accuracy 0.5
        assert q.criteria == {
            "specificity": 0.75,
            "actionability": 0.5,
            "transferability": 0.5,
            "accuracy": 0.5,
        }
        # aggregate = (0.75 + 0.5 + 0.5 + 0.5) / 4 = 0.5625
        assert q.aggregate == pytest.approx(0.5625)
        assert q.raters == 2

    def test_the_latest_rating_of_a_rater_wins(self, rubric, raters):
        xia, yul = raters
        r = ReflectionFactory()
        rate(rubric, xia, r, [0.0, 0.0, 0.0, 0.0], at=MAY - timedelta(days=30))
        rate(rubric, xia, r, [1.0, 1.0, 1.0, 1.0], at=MAY)
        rate(rubric, yul, r, [0.5, 0.5, 0.5, 0.5])
        q = reflection_quality([r.pk])[r.pk]
        # xia's May levels replace her April ones: every criterion (1 + 0.5)/2 = 0.75
        assert q.criteria == dict.fromkeys(CRITERIA, 0.75)
        assert q.aggregate == pytest.approx(0.75)
        assert q.raters == 2

    def test_unrated_and_partly_rated_reflections(self, rubric, raters):
        unrated, partly = ReflectionFactory(), ReflectionFactory()
        Rating.objects.create(
            rater=raters[0],
            reflection=partly,
            criterion="accuracy",
            level=0.25,
            rubric=rubric,
            rated_at=MAY,
            source=Rating.Source.IMPORT,
        )
        found = reflection_quality([unrated.pk, partly.pk])
        assert not found[unrated.pk].is_rated and found[unrated.pk].aggregate is None
        assert found[partly.pk].criteria["accuracy"] == 0.25
        assert found[partly.pk].aggregate is None  # the aggregate needs all four criteria
        assert found[partly.pk].raters == 1

    def test_one_query_for_any_number_of_reflections(self, rubric, raters):
        few = [ReflectionFactory() for _ in range(2)]
        many = [ReflectionFactory() for _ in range(30)]
        for r in few + many:
            rate(rubric, raters[0], r, [0.5] * 4)
        for ids in ([r.pk for r in few], [r.pk for r in few + many]):
            with CaptureQueriesContext(connection) as queries:
                assert len(reflection_quality(ids)) == len(ids)
            assert len(queries) == 1


class TestTriggerGate:
    @pytest.fixture
    def agents(self):
        finance = DepartmentFactory(slug="finance", name="Finance")
        return (
            AgentFactory(name="reconciliation-agent", department=finance),
            AgentFactory(name="reconciliation-bot", department=finance),
        )

    def test_each_trigger_and_the_ungated_case(self, agents):
        ann, bob = agents
        # Three earlier reflections of ann's on reconciliation (no task on record).
        for day in range(3):
            reflection(ann, day)
        cases = {
            "failed": (reflection(ann, 10, task=task(ann, "failure", 0.9)), GATED),
            "partial": (reflection(ann, 11, task=task(ann, "partial", 0.9)), GATED),
            "unsure": (reflection(ann, 12, task=task(ann, "success", 0.59)), GATED),
            "sure at 0.6": (reflection(ann, 13, task=task(ann, "success", 0.6)), UNGATED),
            "no confidence": (reflection(ann, 14, task=task(ann, "success", None)), UNGATED),
            "missing task": (
                ReflectionFactory(agent=ann, task_id="not-logged", created_at=MARCH),
                UNKNOWN,
            ),
            "no task id": (reflection(ann, 15), UNKNOWN),
        }
        # bob: two earlier reflections, so his third is for a still-new task type; his
        # fourth (three before it) is not.
        reflection(bob, 0)
        reflection(bob, 1)
        cases["new type"] = (reflection(bob, 5, task=task(bob, "success", 0.9)), GATED)
        cases["fourth"] = (reflection(bob, 6, task=task(bob, "success", 0.9)), UNGATED)
        # A reflection at the same moment as another is not "prior" to it.
        carl = AgentFactory(name="reconciliation-carl", department=ann.department)
        for _ in range(3):
            reflection(carl, 0)
        cases["ties are not prior"] = (reflection(carl, 0, task=task(carl, "success", 0.9)), GATED)

        found = gate_classes(Reflection.objects.all())
        for name, (r, expected) in cases.items():
            assert found[r.pk] == expected, name

    def test_the_classification_is_should_have_reflected(self, agents):
        ann, _ = agents
        for day, (outcome, confidence) in enumerate(
            [("success", 0.9), ("failure", 0.9), ("success", 0.2), ("success", 0.9)] * 2
        ):
            reflection(ann, day, task=task(ann, outcome, confidence))
        rows = with_gate_inputs(Reflection.objects.all()).values_list(
            "id", "task_outcome", "task_confidence", "prior_of_type"
        )
        gates = gate_classes(Reflection.objects.all())
        # The window over the whole memory (the demo's path) classifies the same way.
        assert gate_classes(Reflection.objects.all(), whole_memory=True) == gates
        some = Reflection.objects.order_by("created_at")[2:6]
        assert gate_classes(
            Reflection.objects.filter(pk__in=[r.pk for r in some]), whole_memory=True
        ) == {r.pk: gates[r.pk] for r in some}
        for pk, outcome, confidence, prior in rows:
            expected = should_have_reflected(
                outcome=outcome, confidence_at_start=confidence, prior_reflections_of_type=prior
            )
            assert gates[pk] == (GATED if expected else UNGATED)
        assert sorted(prior for *_, prior in rows) == list(range(8))


@pytest.fixture
def rated(rubric, raters):
    """Two agents, each with reflections rated by hand; aggregates in the comments."""
    xia, yul = raters
    finance = DepartmentFactory(slug="finance", name="Finance")
    sales = DepartmentFactory(slug="sales", name="Sales")
    ann = AgentFactory(name="reconciliation-agent", department=finance)  # technical
    bob = AgentFactory(name="outreach-agent", department=sales)  # judgment
    reflection(ann, 0)  # ann's unrated first reflection (unknown task)
    g1 = reflection(ann, 1, task=task(ann, "failure", 0.9))
    g2 = reflection(ann, 2, task=task(ann, "partial", 0.9), kind="partial", outcome="partial")
    u1 = reflection(ann, 3, task=task(ann, "success", 0.9), kind="success", outcome="success")
    k1 = reflection(ann, 4, kind="decision", outcome="")
    g3 = reflection(bob, 0, task=task(bob, "success", 0.5), kind="success", outcome="success")
    reflection(bob, 1)
    reflection(bob, 2)
    u2 = reflection(bob, 3, task=task(bob, "success", 0.9), kind="success", outcome="success")
    partly = reflection(bob, 4, task=task(bob, "failure", 0.9))

    rate(rubric, xia, g1, [0.5, 0.5, 0.5, 0.5])  # 0.5
    rate(rubric, xia, g2, [0.5, 0.75, 0.5, 0.75])  # 0.625
    rate(rubric, xia, g3, [0.0, 0.0, 0.0, 0.0], at=MAY - timedelta(days=20))  # superseded
    rate(rubric, xia, g3, [1.0, 1.0, 1.0, 1.0])
    rate(rubric, yul, g3, [0.5, 0.5, 0.5, 0.5])  # criteria (1 + 0.5)/2 = 0.75 → 0.75
    rate(rubric, xia, u1, [0.25, 0.25, 0.25, 0.25])  # 0.25
    rate(rubric, yul, u2, [0.25, 0.5, 0.25, 0.5])  # 0.375
    rate(rubric, yul, k1, [0.5, 0.5, 0.5, 0.5])  # 0.5
    Rating.objects.create(  # one criterion only: not counted anywhere
        rater=xia,
        reflection=partly,
        criterion="specificity",
        level=1.0,
        rubric=rubric,
        rated_at=MAY,
        source=Rating.Source.IMPORT,
    )
    return {"g1": g1, "g2": g2, "g3": g3, "u1": u1, "u2": u2, "k1": k1}


def by_key(groups):
    return {g.key: g for g in groups}


class TestBreakdowns:
    def test_t_interval_by_hand(self):
        # [0.5, 0.625, 0.75]: mean 0.625, s = 0.125, half = 4.30265 · 0.125 / √3 = 0.310517
        low, high = t_interval([0.5, 0.625, 0.75])
        assert low == pytest.approx(0.625 - T_DF2 * 0.125 / math.sqrt(3))
        assert (low, high) == pytest.approx((0.314483, 0.935517), abs=1e-6)
        assert t_interval([0.5]) is None and t_interval([]) is None

    def test_gated_and_ungated_means_and_intervals(self, rated):
        gate = by_key(quality_breakdowns()["gate"])
        # gated: g1 0.5, g2 0.625, g3 0.75 → mean 0.625, interval 0.625 ± 0.310517
        assert gate[GATED].n == 3
        assert gate[GATED].mean == pytest.approx(0.625)
        assert gate[GATED].interval == pytest.approx((0.314483, 0.935517), abs=1e-6)
        # per criterion: specificity (0.5 + 0.5 + 0.75)/3, actionability (0.5 + 0.75 + 0.75)/3
        assert gate[GATED].criteria["specificity"] == pytest.approx(1.75 / 3)
        assert gate[GATED].criteria["actionability"] == pytest.approx(2.0 / 3)
        assert gate[GATED].reference == 0.68
        # ungated: u1 0.25, u2 0.375 → mean 0.3125, s = 0.125/√2 = 0.0883883,
        # half = 12.7062 · 0.0883883 / √2 = 0.794138 → (-0.4816, 1.1066), clipped to 0…1
        assert gate[UNGATED].n == 2
        assert gate[UNGATED].mean == pytest.approx(0.3125)
        assert 0.3125 - T_DF1 * (0.125 / math.sqrt(2)) / math.sqrt(2) < 0
        assert gate[UNGATED].interval == (0.0, 1.0)
        assert gate[UNGATED].reference == 0.41
        # unknown: k1 alone (0.5): no interval from one reflection
        assert (gate[UNKNOWN].n, gate[UNKNOWN].mean, gate[UNKNOWN].interval) == (1, 0.5, None)

    def test_department_family_outcome_and_kind(self, rated):
        b = quality_breakdowns()
        # finance (ann): g1 0.5, g2 0.625, u1 0.25, k1 0.5 → 1.875 / 4 = 0.46875
        # sales (bob): g3 0.75, u2 0.375 → 0.5625; the one-criterion reflection is not counted
        department = by_key(b["department"])
        assert (department["finance"].n, department["sales"].n) == (4, 2)
        assert department["finance"].mean == pytest.approx(0.46875)
        assert department["sales"].mean == pytest.approx(0.5625)
        assert [g.key for g in b["department"]] == ["finance", "sales"]
        family = by_key(b["task_family"])
        assert family["technical"].mean == pytest.approx(0.46875)  # reconciliation
        assert family["judgment"].mean == pytest.approx(0.5625)  # outreach
        assert (family["technical"].reference, family["judgment"].reference) == (0.78, 0.41)
        # outcome: failure g1 0.5; partial g2 0.625; success g3, u1, u2 → 1.375/3; none k1
        outcome = by_key(b["outcome"])
        assert [g.key for g in b["outcome"]] == ["success", "partial", "failure", "none"]
        assert outcome["success"].mean == pytest.approx(1.375 / 3)
        assert outcome["none"].label == "No outcome"
        assert by_key(b["kind"])["decision"].mean == 0.5
        task_type = by_key(b["task_type"])
        assert task_type["reconciliation"].n == 4 and task_type["outreach"].n == 2
        assert b["overall"][0].n == 6

    def test_the_date_range_and_departments_filter_the_ratings(self, rated, rubric, raters):
        later = MAY + timedelta(days=40)
        rate(rubric, raters[1], rated["u1"], [1.0, 1.0, 1.0, 1.0], at=later)
        everything = by_key(quality_breakdowns()["gate"])
        # u1 now has xia 0.25 and yul 1.0: (0.25 + 1)/2 = 0.625; ungated (0.625 + 0.375)/2
        assert everything[UNGATED].mean == pytest.approx(0.5)
        may = by_key(quality_breakdowns(since=date(2026, 5, 1), until=date(2026, 5, 31))["gate"])
        assert may[UNGATED].mean == pytest.approx(0.3125)
        june = by_key(quality_breakdowns(since=date(2026, 6, 1))["gate"])
        assert (june[UNGATED].n, june[GATED].n) == (1, 0)
        assert june[GATED].mean is None and june[GATED].reference == 0.68
        sales = rated["g3"].department_id
        only_sales = quality_breakdowns(department_ids=[sales])
        assert [g.key for g in only_sales["department"]] == ["sales"]

    def test_nothing_rated_gives_the_reference_rows_only(self, rubric):
        b = quality_breakdowns()
        assert [(g.key, g.n, g.mean) for g in b["gate"]] == [(GATED, 0, None), (UNGATED, 0, None)]
        assert b["department"] == [] and b["overall"] == []

    def test_a_constant_number_of_queries(self, rated, rubric, raters):
        with CaptureQueriesContext(connection) as small:
            quality_breakdowns()
        agent = AgentFactory(name="programming-agent")
        for day in range(25):
            r = reflection(agent, day, task=task(agent, "success", 0.9))
            rate(rubric, raters[day % 2], r, [0.75, 0.5, 0.75, 1.0])
        with CaptureQueriesContext(connection) as large:
            b = quality_breakdowns()
        assert b["overall"][0].n == 31
        assert len(large) == len(small) == 2
