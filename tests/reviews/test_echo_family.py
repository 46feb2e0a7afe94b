"""Which restatements a lesson is judged with (reviews/selectors/echo_facts.py): its family is
it and the author's restatements written while it was injected, and a lesson retrieved too
seldom to be the author's habit is judged on its own record, not on the chamber's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from reflections.models import Neighbour
from reviews.models import ReviewCycle, ReviewItem
from reviews.selectors.echo_facts import FAMILY_MIN_TASKS, echo_facts
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    RetrievalEventFactory,
    TaskInjectionFactory,
    TaskRunFactory,
)

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, tzinfo=UTC)
END = datetime(2026, 3, 30, tzinfo=UTC)


def retrieved(reflection, times: int, *, by) -> None:
    for n in range(times):
        RetrievalEventFactory(
            reflection=reflection, agent=by, retrieved_at=START + timedelta(hours=n + 1)
        )


@pytest.fixture
def chamber():
    """A lesson its author is handed on 30 tasks, and a follower the author wrote right after
    one of them, alike to it (a stored neighbour)."""
    ops = DepartmentFactory(slug="ops")
    author = AgentFactory(name="author", department=ops)
    lesson = ReflectionFactory(
        agent=author, department=ops, created_at=datetime(2026, 1, 5, tzinfo=UTC)
    )
    fed = [
        TaskRunFactory(agent=author, finished_at=START + timedelta(hours=n + 1)) for n in range(30)
    ]
    for run in fed:
        TaskInjectionFactory(task_run=run, reflection=lesson)
    follower = ReflectionFactory(
        agent=author,
        department=ops,
        created_at=fed[0].finished_at + timedelta(minutes=20),
        task_id=fed[0].task_id,
    )
    for one, other in ((lesson, follower), (follower, lesson)):
        Neighbour.objects.create(
            reflection=one, neighbour=other, similarity=0.9, rank=1, computed_at=END
        )
    retrieved(lesson, 30, by=author)
    cycle = ReviewCycle.objects.create(
        department=ops, quarter="2026Q1", window_start=START, window_end=END, opened_at=END
    )
    return cycle, lesson, follower, author


def facts_of(cycle, reflection, rank: int):
    item = ReviewItem.objects.create(
        cycle=cycle, rank=rank, reflection=reflection, retrievals=1, last_retrieved_at=END
    )
    return echo_facts(item, similarity=0.5)


def test_a_follower_retrieved_often_is_judged_with_the_lesson_it_restates(chamber):
    cycle, lesson, follower, author = chamber
    retrieved(follower, FAMILY_MIN_TASKS, by=author)
    facts = facts_of(cycle, follower, rank=2)
    assert [r.reflection_id for r in facts.restates] == [lesson.pk]
    assert facts.restates[0].under_injection
    assert facts.family_retrievals == 30 + FAMILY_MIN_TASKS  # its own and the lesson's


def test_a_follower_retrieved_a_handful_of_times_is_judged_on_its_own_record(chamber):
    cycle, lesson, follower, author = chamber
    retrieved(follower, FAMILY_MIN_TASKS - 1, by=author)
    facts = facts_of(cycle, follower, rank=2)
    assert [r.reflection_id for r in facts.restates] == [lesson.pk]  # still reported
    assert facts.family_retrievals == FAMILY_MIN_TASKS - 1  # but not borrowed


def test_the_lesson_itself_is_judged_with_its_follower(chamber):
    cycle, lesson, follower, _ = chamber
    facts = facts_of(cycle, lesson, rank=1)
    assert [r.reflection_id for r in facts.restatements] == [follower.pk]
    assert facts.restatements[0].under_injection
