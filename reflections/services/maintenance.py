"""Vacuuming what a bulk job rewrote, so the pages that scan it read live rows only: the
tables it changed, when the change is large enough to matter (autovacuum's own rule)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from reflections.models import (
    ActiveSetChange,
    InjectionOutcomeDay,
    Neighbour,
    Reflection,
    ReflectionHistory,
    ReflectionVector,
    RetrievalDay,
    RetrievalEvent,
    RetrievalFlowDay,
    TaskInjection,
    TaskOutcomeDay,
    TaskRun,
)

# What imports and policy runs rewrite. The policy backfill of `make demo` updates every
# reflection's salience once a week for a year: without a vacuum the reflection table held
# 136,633 dead rows beside 8,736 live ones (286 MB), and every count over it read them all.
# The event tables too: where autovacuum is off (it is on this project's own test machines),
# nothing else would ever analyze them, and the rollups' "events since id N" read 5M
# retrievals of the large demo row by row on default estimates (a logged /retrieve: 2 s).
# A partitioned table is looked at partition by partition (each month its own statistics).
# The neighbours and the injections' daily outcomes too: unanalyzed, one reflection's dozen
# neighbours were estimated at 6,466 rows (the large demo's 1.2M over PostgreSQL's default
# selectivity), so every queue item and reflection page read them through a parallel plan
# (23 ms instead of under 1).
REWRITTEN = (
    Reflection,
    ReflectionHistory,
    RetrievalDay,
    RetrievalFlowDay,
    TaskOutcomeDay,
    InjectionOutcomeDay,
    ActiveSetChange,
    RetrievalEvent,
    TaskRun,
    TaskInjection,
    Neighbour,
    ReflectionVector,
)


@dataclass(frozen=True)
class TableStats:
    """One table's row estimate and its changes since its last vacuum and analyze, as
    PostgreSQL's statistics collector counts them (pg_stat_user_tables)."""

    table: str
    rows: float  # pg_class.reltuples (-1 or 0 before the first analyze)
    dead: int  # n_dead_tup: updated or deleted row versions not yet vacuumed
    inserted: int  # n_ins_since_vacuum
    modified: int  # n_mod_since_analyze


@dataclass(frozen=True)
class Thresholds:
    """The server's autovacuum settings (pg_settings), read once per call."""

    vacuum: int = 50
    vacuum_scale: float = 0.2
    insert: int = 1000
    insert_scale: float = 0.2
    analyze: int = 50
    analyze_scale: float = 0.1


def maintenance_due(stats: TableStats, limits: Thresholds) -> str | None:
    """ "vacuum" (VACUUM (ANALYZE)), "analyze" (ANALYZE alone) or None, by autovacuum's rule:
    dead rows above threshold + scale * rows, or inserted rows above the insert threshold
    (their visibility map, which index-only counts need), or rows changed since the last
    analyze above its threshold. An import that changed nothing does nothing."""
    rows = max(stats.rows, 0)
    if stats.dead > limits.vacuum + limits.vacuum_scale * rows:
        return "vacuum"
    if stats.inserted > limits.insert + limits.insert_scale * rows:
        return "vacuum"
    if stats.modified > limits.analyze + limits.analyze_scale * rows:
        return "analyze"
    return None


_SETTINGS = {
    "autovacuum_vacuum_threshold": "vacuum",
    "autovacuum_vacuum_scale_factor": "vacuum_scale",
    "autovacuum_vacuum_insert_threshold": "insert",
    "autovacuum_vacuum_insert_scale_factor": "insert_scale",
    "autovacuum_analyze_threshold": "analyze",
    "autovacuum_analyze_scale_factor": "analyze_scale",
}


def _thresholds(cursor) -> Thresholds:
    cursor.execute("SELECT name, setting FROM pg_settings WHERE name = ANY(%s)", [list(_SETTINGS)])
    values = {_SETTINGS[name]: float(setting) for name, setting in cursor.fetchall()}
    return Thresholds(**{k: (v if "scale" in k else int(v)) for k, v in values.items()})


def _stats(cursor, tables: list[str]) -> list[TableStats]:
    """The tables' statistics; a partitioned table's are its partitions' (each month is
    vacuumed and analyzed on its own)."""
    cursor.execute(
        "SELECT s.relname, c.reltuples, s.n_dead_tup, s.n_ins_since_vacuum, "
        "s.n_mod_since_analyze FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid "
        "WHERE s.schemaname = current_schema() AND (s.relname = ANY(%s) OR s.relid IN ("
        "SELECT p.relid FROM unnest(%s::text[]) AS t(name) "
        "CROSS JOIN LATERAL pg_partition_tree(to_regclass(t.name)) AS p WHERE p.isleaf)) "
        "ORDER BY s.relname",
        [tables, tables],
    )
    return [TableStats(*row) for row in cursor.fetchall()]


def analyze_filled(added: dict) -> list[str]:
    """ANALYZE each model's table (`added`: model -> rows the job added to it) inside the job
    filling it, once those rows are over autovacuum's analyze rule against the rows its
    statistics know (a table never analyzed knows none): no autovacuum sees a transaction's
    rows before it commits, so the job's next statements, the rollups' grouped scans and joins
    over those rows, would be planned on statistics that do not count them. A first import of
    the large demo's logs recounted its task outcomes for over 10 minutes that way (nested
    loops over 2.3M tasks). PostgreSQL only; a partitioned table is analyzed with its
    partitions; a small batch (the API's) costs one read of the settings. Returns the tables
    analyzed."""
    if connection.vendor != "postgresql" or not any(n > 0 for n in added.values()):
        return []
    done = []
    with connection.cursor() as cursor:
        limits = _thresholds(cursor)
        for model, rows_added in added.items():
            if rows_added <= limits.analyze:
                continue  # under the rule whatever the table holds
            table = model._meta.db_table
            cursor.execute("SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)", [table])
            row = cursor.fetchone()
            known = max(row[0], 0) if row else 0
            if rows_added > limits.analyze + limits.analyze_scale * known:
                cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}")
                done.append(table)
    return done


def vacuum_rewritten(models=REWRITTEN) -> list[str]:
    """VACUUM (ANALYZE), or ANALYZE alone, each table a bulk job changed enough to matter
    (maintenance_due), on PostgreSQL, when not inside a transaction (VACUUM cannot run in
    one; tests' transactions skip it). Autovacuum does the same eventually, where it is on;
    this makes the pages fast right after the job, with fresh statistics and a visibility map
    that lets counts use index-only scans. Returns what ran, as "VACUUM table" or "ANALYZE
    table"."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return []
    done = []
    with connection.cursor() as cursor:
        for table, due in _due(cursor, models):
            command = "VACUUM (ANALYZE)" if due == "vacuum" else "ANALYZE"
            cursor.execute(f"{command} {connection.ops.quote_name(table)}")
            done.append(f"{command.split(' ')[0]} {table}")
    return done


# PostgreSQL's ANALYZE samples 300 rows per unit of the statistics target: 3,000 rows at 10
# where the default (100) reads 30,000. The reflection table after a 10,000-file import: 0.13 s
# instead of 0.45-0.5 s for VACUUM (ANALYZE), most of it the search document's lexemes.
QUICK_STATISTICS_TARGET = 10


def analyze_rewritten_quickly(models=REWRITTEN) -> list[str]:
    """ANALYZE on a small sample (QUICK_STATISTICS_TARGET) each table vacuum_rewritten would
    maintain: statistics enough for the pages and the next command to plan on, at the end of
    a command someone waits for; their full VACUUM (ANALYZE) is for later (vacuum_tables, the
    task worker's). Returns the tables analyzed."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return []
    with connection.cursor() as cursor:
        done = [table for table, _ in _due(cursor, models)]
        if not done:
            return []
        cursor.execute(f"SET default_statistics_target = {QUICK_STATISTICS_TARGET}")
        try:
            for table in done:
                cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}")
        finally:
            cursor.execute("RESET default_statistics_target")
    return done


def _due(cursor, models) -> list[tuple[str, str]]:
    """(table, "vacuum" or "analyze") for each table of `models` due for maintenance. The counts
    read are the statistics collector's, to which a session reports its changes at most once a
    second: this session's (the job's) are sent first, or the job's last writes would be
    counted by the next job only."""
    if connection.pg_version >= 150000:  # sent when this statement's transaction ends
        cursor.execute("SELECT pg_stat_force_next_flush()")
    limits = _thresholds(cursor)
    due = [(s.table, maintenance_due(s, limits)) for s in _stats(cursor, _tables(models))]
    return [(table, what) for table, what in due if what is not None]


def _tables(models) -> list[str]:
    return [model._meta.db_table for model in models]


def vacuum_tables(tables: list[str], models=REWRITTEN) -> list[str]:
    """VACUUM (ANALYZE) with the full statistics each of `tables` that a bulk job rewrites (a
    table of `models` or one of their partitions; any other name is ignored), whatever its
    counts say now: what analyze_rewritten_quickly left for later. Returns what ran."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return []
    done = []
    with connection.cursor() as cursor:
        known = {s.table for s in _stats(cursor, _tables(models))}
        for table in dict.fromkeys(tables):
            if table in known:
                cursor.execute(f"VACUUM (ANALYZE) {connection.ops.quote_name(table)}")
                done.append(f"VACUUM {table}")
    return done
