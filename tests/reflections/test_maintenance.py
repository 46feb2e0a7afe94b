"""Maintenance after a bulk job (reflections/services/maintenance.py): only the tables it
changed, only when the change is large enough to matter, by autovacuum's own rule."""

from __future__ import annotations

import pytest
from django.db import connection

from reflections.models import Reflection
from reflections.services.maintenance import (
    TableStats,
    Thresholds,
    analyze_filled,
    maintenance_due,
    vacuum_rewritten,
)
from tests.factories import ReflectionFactory

DEFAULTS = Thresholds()  # PostgreSQL's own defaults


def stats(rows=10_000, dead=0, inserted=0, modified=0) -> TableStats:
    return TableStats("reflections_reflection", rows, dead, inserted, modified)


def test_a_table_nothing_changed_is_left_alone():
    assert maintenance_due(stats(), DEFAULTS) is None


def test_a_few_changes_to_a_large_table_do_not_matter_yet():
    assert maintenance_due(stats(dead=1_000, inserted=1_000, modified=900), DEFAULTS) is None


def test_dead_rows_above_a_fifth_of_the_table_call_for_a_vacuum():
    assert maintenance_due(stats(dead=2_051), DEFAULTS) == "vacuum"


def test_many_inserted_rows_call_for_a_vacuum_for_their_visibility_map():
    assert maintenance_due(stats(inserted=3_001), DEFAULTS) == "vacuum"


def test_rows_changed_since_the_last_analyze_call_for_an_analyze_alone():
    assert maintenance_due(stats(modified=1_051), DEFAULTS) == "analyze"


def test_a_new_table_without_a_row_estimate_counts_from_the_thresholds():
    assert maintenance_due(stats(rows=-1, modified=51), DEFAULTS) == "analyze"
    assert maintenance_due(stats(rows=-1, modified=50), DEFAULTS) is None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="VACUUM is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_a_second_run_right_after_the_first_finds_nothing_to_do():
    ReflectionFactory.create_batch(60)
    vacuum_rewritten()  # whatever the statistics say so far

    assert vacuum_rewritten() == []
    assert Reflection.objects.count() == 60


@pytest.mark.django_db
def test_inside_a_transaction_nothing_runs():
    assert vacuum_rewritten() == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="VACUUM is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_the_months_of_the_retrieval_events_and_the_plain_tables_are_all_looked_at():
    """Autovacuum may be off: the event tables (a partitioned one by its months) are the
    import's to analyze too, or the rollups' "events since id N" read every row."""
    from reflections.services.maintenance import REWRITTEN, _stats

    with connection.cursor() as cursor:
        looked_at = {s.table for s in _stats(cursor, [m._meta.db_table for m in REWRITTEN])}
        cursor.execute(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = 'reflections_retrievalevent'::regclass"
        )
        months = {row[0] for row in cursor.fetchall()}
    assert months and months <= looked_at
    assert {
        "reflections_reflection",
        "reflections_taskrun",
        "reflections_taskinjection",
        "reflections_injectionoutcomeday",
        "reflections_neighbour",
    } <= looked_at


def reltuples(table: str) -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)", [table])
        return cursor.fetchone()[0]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="ANALYZE is PostgreSQL's")
@pytest.mark.django_db
def test_a_table_filled_inside_the_job_is_analyzed_there_counting_its_new_rows():
    """No autovacuum sees a transaction's rows before it commits: the import's rollups would
    be planned on statistics that do not count what it just wrote."""
    known = max(reltuples("reflections_reflection"), 0)
    added = int(DEFAULTS.analyze + DEFAULTS.analyze_scale * known) + 1
    ReflectionFactory.create_batch(added)

    assert analyze_filled({Reflection: added}) == ["reflections_reflection"]
    assert reltuples("reflections_reflection") >= added
    ReflectionFactory.create()
    assert analyze_filled({Reflection: 1}) == []  # an API's batch: not worth an analyze


@pytest.mark.django_db
def test_nothing_added_is_never_analyzed():
    assert analyze_filled({Reflection: 0}) == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="ANALYZE is PostgreSQL's")
@pytest.mark.django_db
def test_an_event_batch_analyzes_the_tables_it_filled_before_its_rollups_read_them(
    monkeypatch,
):
    from reflections.services import event_rollups
    from reflections.services.counters import start_remembering_outcomes

    seen = []
    monkeypatch.setattr(event_rollups, "analyze_filled", lambda added: seen.append(added) or [])
    start_remembering_outcomes()  # what an import does before it writes
    event_rollups.after_events_imported(
        1, retrievals=120, tasks_created=80, tasks_changed=80, task_pairs=[]
    )

    from reflections.models import RetrievalEvent, TaskInjection, TaskRun

    assert seen == [{RetrievalEvent: 120, TaskRun: 80, TaskInjection: 80}]


def last_maintained(table: str):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT GREATEST(last_vacuum, last_analyze) FROM pg_stat_user_tables "
            "WHERE relname = %s",
            [table],
        )
        return cursor.fetchone()[0]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="ANALYZE is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_computing_the_neighbours_leaves_statistics_for_the_rows_it_wrote(settings):
    """Unanalyzed, one reflection's dozen neighbours were estimated at thousands of rows and
    every queue item read them through a parallel plan (23 ms instead of under 1)."""
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    from reflections.models import Neighbour
    from tests.factories import AgentFactory, DepartmentFactory

    settings.SIMILARITY_BACKEND = "word"
    agent = AgentFactory(department=DepartmentFactory(slug="ops"))
    for n in range(30):  # one lesson told thirty times: every pair is a neighbour
        ReflectionFactory(
            agent=agent,
            title=f"Ledger transfers {n}",
            sections=[
                {
                    "heading": "What happened?",
                    "body": "The ledger transfer was booked "
                    f"twice at month end ({n}). Check pending transfers first.",
                }
            ],
        )
    started = timezone.now() - timedelta(seconds=1)

    call_command("compute_neighbours", "--json")

    assert Neighbour.objects.count() > DEFAULTS.analyze
    assert last_maintained("reflections_neighbour") >= started


def id_histogram_bounds() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT cardinality(histogram_bounds::text::text[]) FROM pg_stats "
            "WHERE tablename = 'reflections_reflection' AND attname = 'id'"
        )
        return cursor.fetchone()[0]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="ANALYZE is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_a_command_someone_waits_for_analyzes_a_small_sample_and_queues_the_full_vacuum():
    """The import's own analyze reads 3,000 rows at most; the task worker gathers the full
    statistics and the visibility map afterwards (issue 29)."""
    from django_tasks_db.models import DBTaskResult

    from reflections.services.maintenance import QUICK_STATISTICS_TARGET
    from reflections.tasks import hand_maintenance_to_worker, maintain_tables

    ReflectionFactory.create_batch(60)

    handed = hand_maintenance_to_worker()

    assert "reflections_reflection" in handed
    assert id_histogram_bounds() == QUICK_STATISTICS_TARGET + 1  # 60 distinct ids, 10 buckets
    with connection.cursor() as cursor:
        cursor.execute("SHOW default_statistics_target")
        assert cursor.fetchone()[0] == "100"  # the session's setting is back
    (queued,) = DBTaskResult.objects.filter(task_path=maintain_tables.module_path)
    assert queued.args_kwargs["kwargs"]["tables"] == handed

    assert "VACUUM reflections_reflection" in maintain_tables.call(tables=handed)
    assert id_histogram_bounds() == 60  # every id its own bound: the full sample


@pytest.mark.skipif(connection.vendor != "postgresql", reason="ANALYZE is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_a_command_that_changed_too_little_queues_nothing():
    from django_tasks_db.models import DBTaskResult

    from reflections.tasks import hand_maintenance_to_worker

    ReflectionFactory.create_batch(60)
    hand_maintenance_to_worker()
    DBTaskResult.objects.all().delete()
    ReflectionFactory.create()

    assert hand_maintenance_to_worker() == []
    assert not DBTaskResult.objects.exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="VACUUM is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_the_workers_vacuum_runs_only_on_tables_a_bulk_job_rewrites():
    from reflections.services.maintenance import vacuum_tables

    ran = vacuum_tables(["reflections_reflection", "auth_user", 'x"; DROP TABLE auth_user; --'])

    assert ran == ["VACUUM reflections_reflection"]


@pytest.mark.django_db
def test_the_workers_vacuum_inside_a_transaction_does_nothing():
    from reflections.services.maintenance import vacuum_tables

    assert vacuum_tables(["reflections_reflection"]) == []


def test_the_import_command_hands_its_full_maintenance_to_the_worker(monkeypatch, tmp_path):
    from django.core.management import call_command

    from reflections.management.commands import import_reflections as command

    calls = []
    monkeypatch.setattr(command, "import_reflections", lambda **kwargs: {"created": 0})
    monkeypatch.setattr(command, "print_summary", lambda *args, **kwargs: None)
    monkeypatch.setattr(command, "hand_maintenance_to_worker", lambda: calls.append("handed"))

    call_command("import_reflections", str(tmp_path))

    assert calls == ["handed"]
