"""The active-set rollup (ActiveSetChange) always equals the state history replayed."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model

from insights.selectors.overview import active_set_at, active_set_at_replayed
from reflections.models import ActiveSetChange, ReflectionHistory, State
from reflections.selectors.active_set import active_set_at_midnights
from reflections.selectors.health import active_set_by_week, active_set_by_week_replayed
from reflections.services.active_set import refresh_active_set
from reflections.services.policy_runs import backfill_policies
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 1, tzinfo=UTC)


def midnights(days: int = 60) -> list[datetime]:
    return [START + timedelta(days=n) for n in range(-1, days)]


def rows() -> set[tuple[int, int, date, int]]:
    return set(
        ActiveSetChange.objects.values_list("reflection_id", "department_id", "day", "change")
    )


def moved(reflection, to_state: str, at: datetime):
    """A state change written one row at a time, as a verdict or a quarantine writes it."""
    ReflectionHistory.objects.create(
        reflection=reflection,
        at=at,
        change=ReflectionHistory.Change.STATE,
        actor_label="test",
        from_state=reflection.state,
        to_state=to_state,
    )
    reflection.state = to_state
    reflection.save(update_fields=["state"])


@pytest.fixture
def memory():
    """Reflections of two departments created over March, some moving in and out."""
    sales, finance = AgentFactory(), AgentFactory(department=DepartmentFactory())
    made = [
        ReflectionFactory(agent=agent, created_at=START + timedelta(days=n, hours=n))
        for n, agent in enumerate([sales, finance] * 6)
    ]
    moved(made[0], State.DEPRECATED, START + timedelta(days=10, hours=3))
    moved(made[0], State.ACTIVE, START + timedelta(days=12))
    moved(made[1], State.PROMOTED, START + timedelta(days=11))
    moved(made[2], State.ARCHIVED, START + timedelta(days=20, hours=23, minutes=59))
    # Two changes on one day: only the last counts at midnight.
    moved(made[3], State.QUARANTINED, START + timedelta(days=21, hours=1))
    moved(made[3], State.ACTIVE, START + timedelta(days=21, hours=2))
    moved(made[4], State.ARCHIVED, START + timedelta(days=4, hours=5))  # the day it was made
    return made


def test_the_rollup_summed_at_midnights_equals_the_history_replayed(memory):
    cutoffs = midnights()

    assert active_set_by_week(cutoffs, None) == active_set_by_week_replayed(cutoffs, None)
    department = [memory[1].department_id]
    assert active_set_by_week(cutoffs, department) == active_set_by_week_replayed(
        cutoffs, department
    )
    assert dict(active_set_at(cutoffs)) == dict(active_set_at_replayed(cutoffs))
    assert active_set_by_week([START + timedelta(days=40)], None) == [10]


def test_rows_kept_one_change_at_a_time_equal_a_whole_recount(memory):
    kept = rows()

    refresh_active_set()

    assert rows() == kept
    assert len(kept) < 2 * len(memory)  # a row where membership changed, not per history row


@pytest.mark.parametrize("inline", [1000, 0], ids=["named-in-the-statement", "staged"])
def test_recounting_some_reflections_gives_their_rows_of_a_whole_recount(
    memory, monkeypatch, inline
):
    monkeypatch.setattr("reflections.services.active_set.INLINE_IDS", inline)
    whole = rows()
    some = [memory[0].pk, memory[3].pk, memory[7].pk]
    ActiveSetChange.objects.filter(reflection_id__in=some).delete()

    written = refresh_active_set(some)

    assert rows() == whole
    assert written == len([row for row in whole if row[0] in some]) > 0


def test_a_policy_run_keeps_the_rollup(memory):
    backfill_policies(first=date(2026, 6, 1), last=date(2026, 9, 1), every_days=30)
    assert ReflectionHistory.objects.filter(actor_label="policy:decay").exists()

    cutoffs = [datetime(2026, 5, 1, tzinfo=UTC) + timedelta(weeks=n) for n in range(30)]
    assert active_set_by_week(cutoffs, None) == active_set_by_week_replayed(cutoffs, None)
    kept = rows()
    refresh_active_set()
    assert rows() == kept


def test_a_verdict_through_the_model_keeps_the_rollup(memory):
    user = get_user_model().objects.create_user("reviewer-x")
    memory[5].change_state(State.DEPRECATED, by=user, why="outdated")
    tomorrow = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(
        days=1
    )

    assert active_set_by_week([tomorrow], None) == active_set_by_week_replayed([tomorrow], None)
    assert active_set_at_midnights([tomorrow])[memory[5].department_id] == [5]


def test_cutoffs_that_are_not_midnights_are_answered_by_the_replay(memory):
    odd = [START + timedelta(days=21, hours=1, minutes=30)]
    ActiveSetChange.objects.all().delete()  # the rollup would now say nobody is active

    assert active_set_by_week(odd, None) == active_set_by_week_replayed(odd, None) != [0]
