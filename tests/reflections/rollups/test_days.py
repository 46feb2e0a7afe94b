"""The daily retrieval rollup (RetrievalDay) always equals a recount of the raw events."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import pytest
from django.core.management import call_command

from reflections.models import (
    Reflection,
    RetrievalDay,
    RetrievalEvent,
    State,
)
from reflections.services import rollups
from reflections.services.reflection_import import import_reflections
from reflections.services.rollups import refresh_retrieval_rollup
from reflections.tasks import run_daily_policies
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    RetrievalEventFactory,
)
from tests.reflections.rollups.support import (
    FINANCE,
    NOW,
    SALES,
    append,
    days_of,
    import_log,
    line,
    recount,
    rollup,
)

pytestmark = pytest.mark.django_db


def written_in_sql(**fields) -> RetrievalEvent:
    """A retrieval written past the ORM's save (another tool, a restore): the rollup does not
    hear of it until a recount. One saved through the ORM recounts its day at once."""
    (event,) = RetrievalEvent.objects.bulk_create([RetrievalEventFactory.build(**fields)])
    return event


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
    written_in_sql(reflection=finance, retrieved_at=datetime(2026, 5, 2, 8, tzinfo=UTC))
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

    import_reflections(
        create_departments=True, paths=[workspace], default_department="research", now=NOW
    )

    assert days_of(FINANCE) == {date(2026, 5, 20): (2, 2)}
    assert rollup() == recount()


def test_refreshing_from_a_day_rewrites_only_that_day_and_later():
    reflection = ReflectionFactory()
    for day in (1, 2, 3):
        written_in_sql(reflection=reflection, retrieved_at=datetime(2026, 5, day, tzinfo=UTC))
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
        written_in_sql(reflection=reflection, retrieved_at=datetime(2026, 5, day, tzinfo=UTC))
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
    written_in_sql(
        reflection=ReflectionFactory(), retrieved_at=datetime(2026, 5, 1, 12, tzinfo=UTC)
    )
    written_in_sql(
        reflection=ReflectionFactory(), retrieved_at=datetime(2026, 5, 2, 12, tzinfo=UTC)
    )

    call_command("refresh_rollup", "--since", "2026-05-02", "--json")
    assert json.loads(capsys.readouterr().out)["inserted"] == 1
    call_command("refresh_rollup")

    out = capsys.readouterr().out
    assert "every day" in out and "2 rows; 1 inserted, 0 updated, 0 deleted" in out
    assert rollup() == recount()


def test_a_retrieval_saved_through_the_orm_is_counted_on_its_day_at_once():
    author = AgentFactory()
    reflection = ReflectionFactory(agent=author)
    RetrievalEventFactory(
        reflection=reflection, retrieved_at=datetime(2026, 5, 1, 23, 59, tzinfo=UTC)
    )
    RetrievalEventFactory(reflection=reflection, retrieved_at=datetime(2026, 5, 2, tzinfo=UTC))
    RetrievalEventFactory(
        reflection=reflection,
        agent=AgentFactory(),
        retrieved_at=datetime(2026, 5, 2, 9, tzinfo=UTC),
    )

    assert rollup() == recount()
    assert days_of(reflection.source_path) == {date(2026, 5, 1): (1, 0), date(2026, 5, 2): (2, 1)}


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
