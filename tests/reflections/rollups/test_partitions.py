"""The retrieval events live in monthly partitions on PostgreSQL, created ahead and by imports;
retention drops old months whole and the rollups of those days stay."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from reflections.models import EventPrune, Reflection, RetrievalDay, RetrievalEvent
from reflections.selectors.retrieval import Retrieved
from reflections.services import partitions, rollups
from reflections.services.event_retention import prune_events
from reflections.services.partitions import (
    default_partition,
    ensure_partitions,
    ensure_partitions_ahead,
    partition_name,
)
from reflections.services.retrieval_log import log_retrievals
from reflections.services.rollups import refresh_retrieval_flows, refresh_retrieval_rollup
from reflections.tasks import run_daily_policies
from tests.factories import ReflectionFactory, RetrievalEventFactory
from tests.reflections.rollups.support import (
    FINANCE,
    SALES,
    append,
    flows,
    flows_recount,
    import_log,
    line,
    recount,
    rollup,
    useful,
    useful_recount,
)

pytestmark = pytest.mark.django_db

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="declarative partitioning is PostgreSQL's; SQLite keeps one plain events table",
)

APRIL, MAY, JUNE = "2026-04-10T09:00:00Z", "2026-05-12T09:00:00Z", "2026-06-03T09:00:00Z"


def held_in() -> dict[int, str]:
    """Event id → the partition (table) that holds it."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, tableoid::regclass::text FROM {partitions.table()}")
        return dict(cursor.fetchall())


def three_months(workspace):
    append(
        workspace,
        line(FINANCE, APRIL, "t1"),
        line(FINANCE, MAY, "t2"),
        line(SALES, MAY, "t3", agent="delivery-agent"),
        line(FINANCE, JUNE, "t4"),
        line(SALES, JUNE, "t5", agent="delivery-agent"),
    )
    return import_log(workspace)


@postgres_only
def test_the_events_table_is_partitioned_by_month_with_partitions_ahead_and_a_default():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT p.partstrat, a.attname FROM pg_partitioned_table p "
            "JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0] "
            "WHERE p.partrelid = %s::regclass",
            [partitions.table()],
        )
        assert cursor.fetchall() == [("r", "retrieved_at")]
    this_month = partitions.month_of(datetime.now(UTC))
    ahead = {partitions.month_after(this_month, n) for n in range(4)}
    assert ahead <= partitions.partitions().keys()
    assert partitions.months_in_default() == set()


@postgres_only
def test_importing_events_of_new_months_creates_their_partitions_and_fills_them(workspace):
    assert {date(2026, 4, 1), date(2026, 5, 1)}.isdisjoint(partitions.partitions())

    summary = three_months(workspace)

    assert summary.details["retrievals"]["created"] == 5
    made = partitions.partitions()
    assert {date(2026, 4, 1), date(2026, 5, 1), date(2026, 6, 1)} <= made.keys()
    assert sorted(held_in().values()) == sorted(
        [made[date(2026, 4, 1)]] + [made[date(2026, 5, 1)]] * 2 + [made[date(2026, 6, 1)]] * 2
    )


def test_a_re_import_of_the_same_log_is_still_a_no_op(workspace):
    three_months(workspace)

    again = import_log(workspace)

    assert again.details["retrievals"] == {"created": 0, "unchanged": 5}
    assert RetrievalEvent.objects.count() == 5
    assert rollup() == recount()


@postgres_only
def test_rows_written_for_a_month_without_partition_wait_in_the_default_until_it_is_made():
    event = RetrievalEventFactory(retrieved_at=datetime(2025, 2, 14, 8, tzinfo=UTC))
    assert held_in()[event.pk] == default_partition()

    created = ensure_partitions(months=[date(2025, 2, 20)])

    assert created == [partition_name(date(2025, 2, 1))]
    assert held_in()[event.pk] == partition_name(date(2025, 2, 1))
    assert ensure_partitions(months=[date(2025, 2, 1)]) == []  # idempotent


@postgres_only
def test_the_daily_step_creates_the_next_months_and_empties_the_default():
    event = RetrievalEventFactory(retrieved_at=datetime(2025, 8, 1, tzinfo=UTC))

    created = ensure_partitions_ahead(now=datetime(2031, 1, 15, tzinfo=UTC))

    months = [(2025, 8), (2031, 1), (2031, 2), (2031, 3), (2031, 4)]
    assert created == [partition_name(date(y, m, 1)) for y, m in months]
    assert held_in()[event.pk] == partition_name(date(2025, 8, 1))
    assert ensure_partitions_ahead(now=datetime(2031, 1, 15, tzinfo=UTC)) == []


@postgres_only
def test_a_recount_from_a_day_reads_only_the_partitions_from_that_day_on(workspace):
    three_months(workspace)
    sql = rollups._rollup_insert_sql(where="WHERE e.retrieved_at >= %s", into="staging_x")
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE staging_x (LIKE reflections_retrievalday)")
        cursor.execute(f"EXPLAIN {sql}", [datetime(2026, 6, 1, tzinfo=UTC)])
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert partition_name(date(2026, 6, 1)) in plan
    assert partition_name(date(2026, 4, 1)) not in plan
    assert partition_name(date(2026, 5, 1)) not in plan


def test_pruning_deletes_the_old_months_and_keeps_their_rollups(workspace):
    three_months(workspace)
    before = rollup()

    result = prune_events(before=date(2026, 6, 1))

    assert result.events == 3
    assert (
        RetrievalEvent.objects.filter(retrieved_at__lt=datetime(2026, 6, 1, tzinfo=UTC)).count()
        == 0
    )
    assert RetrievalEvent.objects.count() == 2
    assert rollup() == before  # April and May are still counted day by day
    assert EventPrune.objects.get().before == date(2026, 6, 1)
    if connection.vendor == "postgresql":
        # April's and May's went whole; so did any earlier month's an earlier test of this
        # worker created ahead (partitions outlive a flush), and nothing from June on.
        dropped = set(result.partitions)
        assert {partition_name(date(2026, 4, 1)), partition_name(date(2026, 5, 1))} <= dropped
        assert all(name < partition_name(date(2026, 6, 1)) for name in dropped)
        assert date(2026, 5, 1) not in partitions.partitions()


def test_after_a_prune_every_recount_leaves_the_pruned_days_alone(workspace):
    three_months(workspace)
    prune_events(before=date(2026, 5, 1))
    before, flows_before = rollup(), flows()

    refresh_retrieval_rollup()
    refresh_retrieval_flows()
    call_command("refresh_rollup")

    assert rollup() == before
    assert flows() == flows_before
    april = {k: v for k, v in before.items() if k[1] < date(2026, 5, 1)}
    assert april and rollup() == {**april, **recount()}
    assert {k: v for k, v in flows().items() if k[0] >= date(2026, 5, 1)} == flows_recount()


def test_after_a_prune_the_counters_count_the_events_kept(workspace):
    three_months(workspace)

    prune_events(before=date(2026, 6, 1))

    finance = Reflection.objects.get(source_path=FINANCE)
    assert finance.retrieval_count == 1
    assert finance.last_retrieved_at == datetime(2026, 6, 3, 9, tzinfo=UTC)
    assert useful() == useful_recount()


def test_a_dry_run_prunes_nothing():
    RetrievalEventFactory(retrieved_at=datetime(2026, 3, 10, tzinfo=UTC))

    call_command("prune_events", "--before", "2026-04", "--dry-run")

    assert RetrievalEvent.objects.count() == 1
    assert not EventPrune.objects.exists()


def test_prune_events_wants_a_month():
    with pytest.raises(CommandError, match="a month like 2026-01"):
        call_command("prune_events", "--before", "2026-04-01")
    with pytest.raises(CommandError, match="a month like 2026-01"):
        call_command("prune_events", "--before", "2026-13")


def test_a_rollup_day_is_kept_when_its_reflection_is_recounted_after_a_prune(workspace):
    three_months(workspace)
    prune_events(before=date(2026, 5, 1))
    finance = Reflection.objects.get(source_path=FINANCE)

    rollups.refresh_rollup_of_reflections([finance.pk])

    assert RetrievalDay.objects.filter(reflection=finance, day=date(2026, 4, 10)).exists()
    assert {k: v for k, v in rollup().items() if k[1] >= date(2026, 5, 1)} == recount()


@postgres_only
def test_an_answer_logged_by_the_api_in_a_month_without_partition_creates_it():
    reflection = ReflectionFactory()
    at = datetime(2024, 7, 9, 10, tzinfo=UTC)

    log_retrievals([Retrieved(reflection=reflection, score=0.9)], agent="runtime", at=at)

    event = RetrievalEvent.objects.get()
    assert held_in()[event.pk] == partition_name(date(2024, 7, 1))


@postgres_only
def test_the_daily_run_creates_the_months_ahead_again():
    last = partitions.month_after(partitions.month_of(datetime.now(UTC)), partitions.AHEAD_MONTHS)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {partition_name(last)}")

    result = run_daily_policies.call(as_of="2026-11-21", reschedule=False)

    assert result["partitions_created"] == [partition_name(last)]
    assert last in partitions.partitions()


@postgres_only
def test_the_daily_step_gathers_the_partitioned_tables_own_statistics(workspace):
    three_months(workspace)

    assert partitions.analyze_parent()

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stats WHERE tablename = %s AND inherited",
            [partitions.table()],
        )
        assert cursor.fetchone()[0] > 0
