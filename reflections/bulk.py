"""Bulk row movement that both databases understand: COPY on PostgreSQL, executemany on SQLite.

Imports move hundreds of thousands of rows; the ORM's per-object machinery is the bottleneck at
that volume (docs/benchmarks.md has the measurements), so the importers write rows as tuples.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime

from django.db import connection


def is_postgres() -> bool:
    return connection.vendor == "postgresql"


def adapt_value(value):
    """A Python value as the database driver wants it inside a bulk write."""
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    if isinstance(value, list | dict):
        return json.dumps(value)  # as Django's JSONField writes it, so text compares equal
    return value


def write_rows(
    table: str, columns: Sequence[str], rows: Iterable[Sequence], *, adapt: bool = True
) -> int:
    """Append rows to a table in the current transaction; returns how many were written.

    adapt=False skips per-value adaptation for rows already in the driver's types.
    """
    quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
    written = 0
    with connection.cursor() as cursor:
        if is_postgres():
            raw = cursor.cursor  # psycopg's own cursor: Django's wrapper has no copy()
            # wrap_database_errors turns psycopg's errors into Django's (IntegrityError …).
            with (
                connection.wrap_database_errors,
                raw.copy(f"COPY {connection.ops.quote_name(table)} ({quoted}) FROM STDIN") as copy,
            ):
                for row in rows:
                    copy.write_row([adapt_value(v) for v in row] if adapt else row)
                    written += 1
        else:
            placeholders = ", ".join(["%s"] * len(columns))
            sql = (
                f"INSERT INTO {connection.ops.quote_name(table)} ({quoted}) VALUES ({placeholders})"
            )
            batch: list[list] = []
            for row in rows:
                batch.append([adapt_value(v) for v in row] if adapt else row)
                if len(batch) >= 5000:
                    cursor.executemany(sql, batch)
                    written += len(batch)
                    batch.clear()
            if batch:
                cursor.executemany(sql, batch)
                written += len(batch)
    return written


def create_staging_table(name: str, column_sql: str) -> None:
    """A temporary, index-free table for one import step; dropped by drop_staging_table."""
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {name}")
        cursor.execute(f"CREATE TEMP TABLE {name} ({column_sql})")


def analyze(name: str) -> None:
    """Give PostgreSQL statistics for a freshly filled staging table.

    Temporary tables are never auto-analysed; without statistics the planner guesses a few
    rows and joins the staging table by nested loop: 20 s instead of 0.3 s for 40,000 rows.
    """
    if is_postgres():
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {name}")


def drop_staging_table(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {name}")


def allocate_ids(table: str, count: int) -> list[int]:
    """Reserve primary keys for rows written by write_rows, which cannot return them."""
    if count == 0:
        return []
    with connection.cursor() as cursor:
        if is_postgres():
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                [table, count],
            )
            return [r[0] for r in cursor.fetchall()]
        # SQLite: the import holds the write lock (IMMEDIATE transaction), so max(id) is stable.
        cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {connection.ops.quote_name(table)}")
        start = cursor.fetchone()[0] + 1
        return list(range(start, start + count))


def execute(sql: str, params: Sequence | None = None) -> int:
    with connection.cursor() as cursor:
        cursor.execute(sql, params or [])
        return cursor.rowcount
