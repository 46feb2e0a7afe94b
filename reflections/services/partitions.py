"""The monthly partitions of the retrieval events on PostgreSQL: created ahead, dropped for
retention.

Migration 0018 makes ``reflections_retrievalevent`` a table partitioned by range on
``retrieved_at``: one partition per calendar month (UTC) named ``…_pYYYY_MM`` and a DEFAULT
partition, so a row of a month nobody created never fails. The daily job creates the months
ahead and imports the months of what they are about to write, so the default stays empty; a
month created while rows of it wait in the default has them moved into it first (PostgreSQL
refuses to attach a range the default holds rows of). On SQLite, or a table that is not
partitioned, every function here does nothing.

Creating or dropping a partition locks the parent until the transaction ends: the daily job
creates months ahead in a short transaction of its own; an import of an old month creates it
inside the import's transaction (a backfill, once per month).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime

from django.db import connection, transaction
from django.utils import timezone

from reflections import bulk
from reflections.models import RetrievalEvent

AHEAD_MONTHS = 3
# Serialises partition changes (two imports, an import and the daily job): distinct from the
# import lock, which the daily job does not take.
PARTITION_LOCK = 0x5EF1F


def table() -> str:
    return RetrievalEvent._meta.db_table


def month_of(moment: datetime | date) -> date:
    """The first day of the UTC month of a moment (an aware datetime) or of a date."""
    if isinstance(moment, datetime):
        moment = moment.astimezone(UTC)
    return date(moment.year, moment.month, 1)


def utc_months(moments: Iterable[datetime]) -> set[date]:
    """The months of many UTC datetimes (what the log parsers yield), cheaply."""
    return {date(year, month, 1) for year, month in {(m.year, m.month) for m in moments}}


def month_after(month: date, months: int = 1) -> date:
    index = month.year * 12 + month.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def partition_name(month: date) -> str:
    return f"{table()}_p{month:%Y_%m}"


def default_partition() -> str:
    return f"{table()}_default"


def _bound(month: date) -> str:
    return f"'{month.isoformat()} 00:00:00+00'"


def is_partitioned() -> bool:
    if not bulk.is_postgres():
        return False
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = %s::regclass)",
            [table()],
        )
        return cursor.fetchone()[0]


def partitions() -> dict[date, str]:
    """The month partitions that exist, by month (the default partition is not one)."""
    if not is_partitioned():
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = %s::regclass",
            [table()],
        )
        names = [row[0] for row in cursor.fetchall()]
    prefix = f"{table()}_p"
    found = {}
    for name in names:
        if name.startswith(prefix):
            year, month = name.removeprefix(prefix).split("_")
            found[date(int(year), int(month), 1)] = name
    return found


def months_in_default() -> set[date]:
    """The months of the rows waiting in the default partition (none, normally)."""
    if not is_partitioned():
        return set()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT date_trunc('month', retrieved_at AT TIME ZONE 'UTC')::date "
            f"FROM {default_partition()}"
        )
        return {row[0] for row in cursor.fetchall()}


def ensure_partitions(
    *, months: Iterable[date | datetime] = (), through: date | None = None, now=None
) -> list[str]:
    """Create the missing partitions of ``months`` (days or moments: their months) and, with
    ``through``, of every month from the current one through ``through``'s; returns the
    names created. Idempotent; rows of those months waiting in the default partition are
    moved into them."""
    if not bulk.is_postgres():
        return []
    wanted = {month_of(m) for m in months}
    if through is not None:
        month = month_of(now or timezone.now())
        while month <= month_of(through):
            wanted.add(month)
            month = month_after(month)
    if not wanted or not is_partitioned():
        return []
    if not wanted - partitions().keys():
        return []  # the usual case, without taking the lock
    created = []
    with transaction.atomic():
        bulk.execute("SELECT pg_advisory_xact_lock(%s)", [PARTITION_LOCK])
        missing = sorted(wanted - partitions().keys())
        waiting = months_in_default() if missing else set()
        _run_pending_checks()
        for month in missing:
            _create(month, move_from_default=month in waiting)
            created.append(partition_name(month))
    return created


def ensure_partitions_ahead(*, now=None, ahead: int = AHEAD_MONTHS) -> list[str]:
    """The daily job's step: this month and the next ``ahead`` ones, and a partition for
    every month whose rows wait in the default partition."""
    now = now or timezone.now()
    return ensure_partitions(
        months=months_in_default(), through=month_after(month_of(now), ahead), now=now
    )


def analyze_parent() -> bool:
    """ANALYZE the partitioned table (its own statistics, which the planner uses to estimate
    joins and groupings over every month, and each partition's). Autovacuum analyses the
    partitions but never a partitioned parent, so the daily job does it (2 s at 1M events);
    returns whether it ran."""
    if not is_partitioned():
        return False
    bulk.execute(f"ANALYZE {table()}")
    return True


def _create(month: date, *, move_from_default: bool) -> None:
    """A month's partition: built apart and attached, which locks the parent less than
    CREATE TABLE … PARTITION OF; the default's rows of the month moved into it first."""
    parent, name = table(), partition_name(month)
    start, end = _bound(month), _bound(month_after(month))
    bulk.execute(f"CREATE TABLE {name} (LIKE {parent} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)")
    if move_from_default:
        bulk.execute(
            f"WITH moved AS (DELETE FROM {default_partition()} "
            f"WHERE retrieved_at >= {start} AND retrieved_at < {end} RETURNING *) "
            f"INSERT INTO {name} SELECT * FROM moved"
        )
    bulk.execute(
        f"ALTER TABLE {parent} ATTACH PARTITION {name} FOR VALUES FROM ({start}) TO ({end})"
    )


def _run_pending_checks() -> None:
    """Run now the foreign-key checks of rows written earlier in this transaction (deferred,
    as Django declares them): PostgreSQL refuses to alter or drop a table with checks pending.
    """
    bulk.execute("SET CONSTRAINTS ALL IMMEDIATE")
    bulk.execute("SET CONSTRAINTS ALL DEFERRED")


def drop_partitions_before(month: date) -> tuple[list[str], int]:
    """Drop every month partition before ``month`` and delete the default partition's rows
    before it; returns the partitions dropped and the events they and the deleted rows held."""
    if not is_partitioned():
        return [], 0
    start = _bound(month_of(month))
    dropped, events = [], 0
    with transaction.atomic():
        bulk.execute("SELECT pg_advisory_xact_lock(%s)", [PARTITION_LOCK])
        _run_pending_checks()
        for first_day, name in sorted(partitions().items()):
            if first_day >= month_of(month):
                continue
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT count(*) FROM {name}")
                events += cursor.fetchone()[0]
            bulk.execute(f"DROP TABLE {name}")
            dropped.append(name)
        events += bulk.execute(f"DELETE FROM {default_partition()} WHERE retrieved_at < {start}")
    return dropped, events
