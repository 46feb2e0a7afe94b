"""The evidence beside one review item: retrieval series, lift, retrievers and neighbours, on
small hand-built data with hand-computed expectations (the signals: test_signals.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from reflections.models import Neighbour, RetrievalDay, State
from reviews.models import ReviewCycle, ReviewItem
from reviews.selectors.evidence import (
    injection_lift,
    item_evidence,
    neighbour_candidates,
    retrieval_series,
    retrievers,
)
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    RetrievalEventFactory,
    TaskInjectionFactory,
    TaskRunFactory,
)

pytestmark = pytest.mark.django_db

# The window: four ISO weeks, Monday 2 March to Monday 30 March 2026 (exclusive).
START = datetime(2026, 3, 2, tzinfo=UTC)
END = datetime(2026, 3, 30, tzinfo=UTC)


def at(day: int, month: int = 3, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


@pytest.fixture
def world():
    ops = DepartmentFactory(slug="ops")
    other = DepartmentFactory(slug="sales")
    author = AgentFactory(name="author", department=ops)
    colleague = AgentFactory(name="colleague", department=ops)
    outsider = AgentFactory(name="outsider", department=other)
    reflection = ReflectionFactory(
        agent=author,
        department=ops,
        created_at=datetime(2026, 1, 5, tzinfo=UTC),
        title="Reconcile the ledger before closing",
        tools=["Ledger-API", "fax-gateway", "ledger"],
    )
    cycle = ReviewCycle.objects.create(
        department=ops, quarter="2026Q1", window_start=START, window_end=END, opened_at=END
    )
    item = ReviewItem.objects.create(
        cycle=cycle, rank=1, reflection=reflection, retrievals=6, last_retrieved_at=at(20)
    )
    return {
        "ops": ops,
        "other": other,
        "author": author,
        "colleague": colleague,
        "outsider": outsider,
        "reflection": reflection,
        "cycle": cycle,
        "item": item,
    }


def fresh(item: ReviewItem) -> ReviewItem:
    return ReviewItem.objects.select_related("cycle", "reflection").get(pk=item.pk)


def day_row(reflection, day: date, retrievals: int, cross: int) -> RetrievalDay:
    """The rollup's day as the test sets it (over what a saved event recounted there)."""
    row, _ = RetrievalDay.objects.update_or_create(
        reflection=reflection,
        day=day,
        defaults={
            "department": reflection.department,
            "retrievals": retrievals,
            "cross_agent": cross,
        },
    )
    return row


def task(agent, finished_at: datetime, outcome: str, *, injected=None, tools=()):
    run = TaskRunFactory(
        agent=agent,
        department=agent.department,
        finished_at=finished_at,
        outcome=outcome,
        tools_used=list(tools),
    )
    if injected is not None:
        TaskInjectionFactory(task_run=run, reflection=injected)
    return run


def neighbour(reflection, other, similarity: float, rank: int) -> None:
    Neighbour.objects.create(
        reflection=reflection, neighbour=other, similarity=similarity, rank=rank, computed_at=END
    )


# ------------------------------------------------------------------ retrieval series


def test_weekly_series_covers_every_window_week_and_only_window_days(world):
    r = world["reflection"]
    day_row(r, date(2026, 3, 1), 9, 9)  # the Sunday before the window
    day_row(r, date(2026, 3, 3), 4, 1)
    day_row(r, date(2026, 3, 4), 2, 0)
    day_row(r, date(2026, 3, 17), 5, 5)
    day_row(r, date(2026, 3, 30), 7, 0)  # window_end is exclusive

    series = retrieval_series(fresh(world["item"]))

    assert [(w.week, w.retrievals) for w in series.weeks] == [
        (date(2026, 3, 2), 6),
        (date(2026, 3, 9), 0),
        (date(2026, 3, 16), 5),
        (date(2026, 3, 23), 0),
    ]
    assert series.total == 11
    assert series.cross_agent == 6


# ------------------------------------------------------------------ lift


@pytest.fixture
def tasks(world):
    r, author, colleague = world["reflection"], world["author"], world["colleague"]
    # Week of 2 March: both injected tasks succeed; the department (4 tasks) 2 of 4.
    task(author, at(3), "success", injected=r)
    task(colleague, at(4), "success", injected=r)
    task(colleague, at(5), "failure")
    task(colleague, at(6), "failure")
    # Week of 9 March: nothing injected, so the department's 10 successes do not count.
    for day in range(9, 14):
        task(colleague, at(day, hour=9), "success")
        task(colleague, at(day, hour=15), "success")
    # Week of 16 March: injected 2 of 4 (partial is not success); department 3 of 8.
    task(author, at(16), "success", injected=r)
    task(author, at(17), "success", injected=r)
    task(author, at(18), "partial", injected=r)
    task(author, at(19), "failure", injected=r)
    task(colleague, at(16, hour=9), "success")
    task(colleague, at(17, hour=9), "failure")
    task(colleague, at(18, hour=9), "failure")
    task(colleague, at(19, hour=9), "partial")
    # After the window: injected, but not counted.
    task(author, at(31), "failure", injected=r)


def test_lift_compares_with_the_department_weighted_by_the_injected_weeks(world, tasks):
    lift = injection_lift(fresh(world["item"]))

    assert (lift.injected_tasks, lift.injected_successes) == (6, 4)
    assert (lift.department_tasks, lift.department_successes) == (12, 5)
    assert lift.injected_rate == pytest.approx(4 / 6)
    # (2 tasks x 2/4 + 4 tasks x 3/8) / 6 tasks
    assert lift.department_rate == pytest.approx((2 * 0.5 + 4 * 0.375) / 6)
    assert lift.lift == pytest.approx(0.25)
    assert lift.has_enough_tasks


def test_lift_is_none_below_the_minimum_sample(world, tasks):
    lift = injection_lift(fresh(world["item"]), min_tasks=7)

    assert lift.injected_tasks == 6
    assert lift.lift is None
    assert lift.injected_rate is None
    assert lift.department_rate is None
    assert not lift.has_enough_tasks


def test_lift_without_injected_tasks_is_empty(world):
    lift = injection_lift(fresh(world["item"]), min_tasks=0)

    assert (lift.injected_tasks, lift.department_tasks, lift.lift) == (0, 0, None)


# ------------------------------------------------------------------ retrievers


def test_retrievers_per_agent_with_the_cross_agent_share(world):
    r = world["reflection"]
    for n, agent in enumerate(
        [world["author"]] * 3 + [world["colleague"]] * 2 + [world["outsider"]]
    ):
        RetrievalEventFactory(reflection=r, agent=agent, retrieved_at=at(3 + n))
    for n in range(5):  # before the window
        RetrievalEventFactory(reflection=r, agent=world["colleague"], retrieved_at=at(20 + n, 2))

    result = retrievers(fresh(world["item"]))

    assert [(a.agent, a.department, a.retrievals, a.is_author) for a in result.agents] == [
        ("author", "ops", 3, True),
        ("colleague", "ops", 2, False),
        ("outsider", "sales", 1, False),
    ]
    assert (result.total, result.cross_agent) == (6, 3)
    assert result.cross_agent_share == pytest.approx(0.5)


def test_no_retrievals_means_no_share(world):
    result = retrievers(fresh(world["item"]))

    assert (result.agents, result.total, result.cross_agent_share) == ([], 0, None)


# ------------------------------------------------------------------ neighbours and echo


@pytest.fixture
def neighbours(world):
    r, author = world["reflection"], world["author"]

    def refl(title: str, created: datetime, **kwargs):
        return ReflectionFactory(
            agent=author, department=world["ops"], title=title, created_at=created, **kwargs
        )

    older = refl("Reconcile the ledger before closing the month", datetime(2025, 12, 1, tzinfo=UTC))
    newer = refl("Reconcile the ledger before closing, again", datetime(2026, 2, 1, tzinfo=UTC))
    loose = refl("Reconcile bank feeds weekly", datetime(2026, 2, 10, tzinfo=UTC))
    secret = refl(
        "Reconcile the ledger with the key AKIA…",
        datetime(2026, 2, 5, tzinfo=UTC),
        state=State.QUARANTINED,
    )
    neighbour(r, secret, 0.95, 1)
    neighbour(r, older, 0.9, 2)
    neighbour(r, newer, 0.7, 3)
    neighbour(r, loose, 0.5, 4)
    neighbour(older, r, 0.9, 1)  # the other direction is not this reflection's list
    return {"older": older, "newer": newer, "loose": loose, "secret": secret}


def test_duplicate_candidates_never_show_a_quarantined_neighbour(world, neighbours):
    candidates = neighbour_candidates(fresh(world["item"]))

    assert [c.reflection for c in candidates] == [
        neighbours["older"],
        neighbours["newer"],
        neighbours["loose"],
    ]
    assert [c.similarity for c in candidates] == [0.9, 0.7, 0.5]
    assert all("AKIA" not in s.text for c in candidates for s in c.segments)


def test_duplicate_candidates_carry_word_diffs_of_both_texts(world, neighbours):
    older = neighbour_candidates(fresh(world["item"]))[0]

    # Titles: "Reconcile the ledger before closing" vs "... closing the month".
    assert older.item_segments[0].text.startswith("Reconcile the ledger before closing")
    assert not older.item_segments[0].changed
    changed = [s.text.strip() for s in older.segments if s.changed]
    assert changed[0] == "the month"
    item_text = world["reflection"].title + "\n\n" + world["reflection"].body
    assert "".join(s.text for s in older.item_segments) == item_text


# ------------------------------------------------------------------ all at once


def test_item_evidence_takes_a_constant_number_of_queries(
    world, tasks, neighbours, django_assert_max_num_queries
):
    r = world["reflection"]
    day_row(r, date(2026, 3, 3), 4, 1)
    RetrievalEventFactory(reflection=r, agent=world["colleague"], retrieved_at=at(3))
    with CaptureQueriesContext(connection) as small:
        item_evidence(fresh(world["item"]))

    # Ten times the neighbours, retrievers, days and tasks.
    for n in range(10):
        other = ReflectionFactory(agent=world["author"], department=world["ops"])
        neighbour(r, other, 0.45, 10 + n)
        agent = AgentFactory(department=world["ops"])
        RetrievalEventFactory(reflection=r, agent=agent, retrieved_at=at(5 + n))
        day_row(r, date(2026, 3, 5 + n), 1, 1)
        task(agent, at(5 + n), "success", injected=r, tools=["ledger"])
    item = fresh(world["item"])
    with django_assert_max_num_queries(6), CaptureQueriesContext(connection) as large:
        evidence = item_evidence(item)

    assert len(large) == len(small) - 1  # fresh() was inside the first count
    assert len(evidence.duplicates) == 13
    assert evidence.retrievers.total == 11
    assert evidence.lift.injected_tasks == 16
