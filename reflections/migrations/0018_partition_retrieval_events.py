"""The retrieval events become a table partitioned by calendar month (UTC) on PostgreSQL.

The parent keeps the table's name, columns, identity sequence (its next value), check, unique
and foreign-key constraints and indexes under their names; the primary key becomes
(id, retrieved_at), since a partitioned table's unique keys must hold the partition key (the
natural key already does). One partition per month that holds rows, the months from this one
through three ahead, and a DEFAULT partition so a row of a month nobody created never fails
(reflections.services.partitions moves such rows into their month when it creates it). The
rows are moved with INSERT … SELECT and the indexes built after the load. SQLite keeps the
plain table. Reversible: backwards, the same steps build a plain table again.

The model state does not change (Django still sees ``id`` as the primary key, which the
identity keeps unique): RunPython only.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

from django.db import migrations

TABLE = "reflections_retrievalevent"
AHEAD_MONTHS = 3


def _month_after(month: date) -> date:
    return date(month.year + month.month // 12, month.month % 12 + 1, 1)


def _bound(month: date) -> str:
    return f"'{month.isoformat()} 00:00:00+00'"


def _rebuild(schema_editor, *, partitioned: bool) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    execute = schema_editor.execute
    with schema_editor.connection.cursor() as cursor:

        def rows(sql, params=()):
            cursor.execute(sql, params)
            return cursor.fetchall()

        [(is_partitioned,)] = rows(
            "SELECT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = %s::regclass)",
            [TABLE],
        )
        if is_partitioned == partitioned:
            return
        # What the table carries, read before it is renamed: the statements then name the
        # new table, which takes the old one's name.
        constraints = rows(
            "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = %s::regclass AND contype IN ('p', 'u', 'f', 'c') "
            "ORDER BY contype = 'p' DESC, conname",
            [TABLE],
        )
        indexes = rows(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() "
            "AND tablename = %s AND indexname NOT IN "
            "(SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass) ORDER BY indexname",
            [TABLE, TABLE],
        )
        columns = [
            name
            for (name,) in rows(
                "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 "
                "AND NOT attisdropped ORDER BY attnum",
                [TABLE],
            )
        ]
        [(sequence,)] = rows("SELECT pg_get_serial_sequence(%s, 'id')", [TABLE])
        old = f"{TABLE}_before_rebuild"
        # The indexes are built after the load, each in one sort.
        execute("SET LOCAL maintenance_work_mem = '512MB'")
        execute(f"ALTER TABLE {TABLE} RENAME TO {old}")
        execute(
            f"CREATE TABLE {TABLE} (LIKE {old} INCLUDING DEFAULTS INCLUDING IDENTITY "
            "INCLUDING STORAGE INCLUDING COMMENTS)"
            + (" PARTITION BY RANGE (retrieved_at)" if partitioned else "")
        )
        if partitioned:
            _create_partitions(cursor, execute, old)
        cols = ", ".join(columns)
        execute(f"INSERT INTO {TABLE} ({cols}) OVERRIDING SYSTEM VALUE SELECT {cols} FROM {old}")
        # The new identity continues where the old one stopped (not at max(id): ids handed
        # out by rolled-back writes are never reused either).
        [(new_sequence,)] = rows("SELECT pg_get_serial_sequence(%s, 'id')", [TABLE])
        [(last, called)] = rows(f"SELECT last_value, is_called FROM {sequence}")
        cursor.execute("SELECT setval(%s, %s, %s)", [new_sequence, last, called])
        execute(f"DROP TABLE {old}")
        if new_sequence != sequence:
            bare = sequence.rsplit(".", 1)[-1].strip('"')
            execute(f"ALTER SEQUENCE {new_sequence} RENAME TO {bare}")
        for name, kind, definition in constraints:
            if kind == "p":
                key = "id, retrieved_at" if partitioned else "id"
                definition = re.sub(r"\(.*\)", f"({key})", definition, count=1)
            execute(f'ALTER TABLE {TABLE} ADD CONSTRAINT "{name}" {definition}')
        for (definition,) in indexes:
            execute(definition)
        execute(f"ANALYZE {TABLE}")


def _create_partitions(cursor, execute, source: str) -> None:
    """A partition per month that holds rows in ``source``, the months from this one through
    AHEAD_MONTHS ahead, and the default partition."""
    cursor.execute(
        "SELECT DISTINCT date_trunc('month', retrieved_at AT TIME ZONE 'UTC')::date "
        f"FROM {source}"
    )
    months = {row[0] for row in cursor.fetchall()}
    month = datetime.now(UTC).date().replace(day=1)
    for _ in range(AHEAD_MONTHS + 1):
        months.add(month)
        month = _month_after(month)
    for month in sorted(months):
        execute(
            f"CREATE TABLE {TABLE}_p{month:%Y_%m} PARTITION OF {TABLE} "
            f"FOR VALUES FROM ({_bound(month)}) TO ({_bound(_month_after(month))})"
        )
    execute(f"CREATE TABLE {TABLE}_default PARTITION OF {TABLE} DEFAULT")


def partition(apps, schema_editor):
    _rebuild(schema_editor, partitioned=True)


def unpartition(apps, schema_editor):
    _rebuild(schema_editor, partitioned=False)


class Migration(migrations.Migration):
    dependencies = [("reflections", "0017_comments_and_mentions")]

    operations = [migrations.RunPython(partition, unpartition, elidable=False)]
