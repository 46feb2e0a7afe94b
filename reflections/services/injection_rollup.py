"""InjectionOutcomeDay kept equal to a recount of the injections: per reflection and UTC day,
the tasks it was injected into that finished that day, by outcome."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime

from django.db import connection, transaction

from reflections import bulk
from reflections.models import InjectionOutcomeDay, Outcome, TaskInjection, TaskRun

DELTAS = "staging_injection_deltas"
RECOUNT = "staging_injection_recount"
COUNTS = "tasks, successes, partials, failures"
COLUMNS = f"reflection_id, day, {COUNTS}"
COUNT_TYPES = "tasks integer, successes integer, partials integer, failures integer"


def _utc_day(column: str) -> str:
    if bulk.is_postgres():
        return f"({column} AT TIME ZONE 'UTC')::date"
    return f"date({column})"  # SQLite keeps UTC text 'YYYY-MM-DD HH:MM:SS…'


def _grouped(rows_sql: str, sign: int = 1) -> tuple[str, list]:
    """SELECT reflection_id, day, tasks, successes, partials, failures (each count times
    ``sign``) of the injections that ``rows_sql`` yields as (reflection_id, finished_at,
    outcome) rows, one row per reflection and UTC day the task finished."""
    day = _utc_day("x.finished_at")
    counts = ["COUNT(*)"] + ["SUM(CASE WHEN x.outcome = %s THEN 1 ELSE 0 END)"] * 3
    sql = (
        f"SELECT x.reflection_id, {day}, "
        + ", ".join(f"{sign} * {c}" for c in counts)
        + f" FROM ({rows_sql}) x GROUP BY x.reflection_id, {day}"
    )
    return sql, [Outcome.SUCCESS.value, Outcome.PARTIAL.value, Outcome.FAILURE.value]


def _stored_rows(where: str = "1 = 1") -> str:
    """(reflection_id, finished_at, outcome) of the stored injections ``i`` of tasks ``t``
    that ``where`` selects."""
    q = connection.ops.quote_name
    return (
        f"SELECT i.reflection_id, t.finished_at, t.outcome "
        f"FROM {q(TaskInjection._meta.db_table)} i "
        f"JOIN {q(TaskRun._meta.db_table)} t ON t.id = i.task_run_id WHERE {where}"
    )


# --------------------------------------------------------------------------- by difference
#
# A task import notes what it is about to remove (the injections of the tasks whose facts
# changed, with their old day and outcome) and what it adds (injections not stored yet, with
# their task's new facts) in a staging table, and writes the sum once per file: the cost
# follows the rows the import writes, not the history of the reflections they touch.


def start_injection_deltas() -> None:
    bulk.create_staging_table(DELTAS, f"reflection_id bigint, day date, {COUNT_TYPES}")


def note_injection_deltas(rows_sql: str, *, sign: int, params: list | None = None) -> int:
    """Note the injections ``rows_sql`` yields as (reflection_id, finished_at, outcome) as
    added (sign 1) or removed (sign -1); returns how many (reflection, day) rows it noted.
    ``rows_sql`` must take no parameters other than ``params`` (positional)."""
    select, counts_params = _grouped(rows_sql, sign)
    # The outcome parameters come first in the statement (the SELECT list), then rows_sql's.
    return bulk.execute(
        f"INSERT INTO {DELTAS} ({COLUMNS}) {select}", counts_params + list(params or [])
    )


def noted_count_changes() -> str:
    """SELECT reflection_id, n: each reflection's injections added less removed, as noted so
    far (what its injection_count moves by; counters.shift_injection_counts)."""
    return f"SELECT reflection_id, SUM(tasks) AS n FROM {DELTAS} GROUP BY reflection_id"


def note_stored_injections(where: str, *, sign: int, params: list | None = None) -> int:
    """note_injection_deltas for the stored injections ``i`` of tasks ``t`` that ``where``
    selects, with the tasks' facts as they are now."""
    return note_injection_deltas(_stored_rows(where), sign=sign, params=params)


def apply_injection_deltas() -> int:
    """Add the noted differences to InjectionOutcomeDay (update the days it holds, insert the
    new ones, delete the days left without tasks); returns the days written."""
    table = connection.ops.quote_name(InjectionOutcomeDay._meta.db_table)
    summed = "staging_injection_summed"
    bulk.create_staging_table(summed, f"reflection_id bigint, day date, {COUNT_TYPES}")
    sums = ", ".join(f"SUM({c})" for c in COUNTS.split(", "))
    written = bulk.execute(
        f"INSERT INTO {summed} ({COLUMNS}) SELECT reflection_id, day, {sums} FROM {DELTAS} "
        "GROUP BY reflection_id, day HAVING SUM(tasks) <> 0 OR SUM(successes) <> 0 "
        "OR SUM(partials) <> 0 OR SUM(failures) <> 0"
    )
    bulk.execute(f"DELETE FROM {DELTAS}")
    if written:
        bulk.analyze(summed)
        same = f"d.reflection_id = {table}.reflection_id AND d.day = {table}.day"
        bulk.execute(
            f"UPDATE {table} SET "
            # Never below zero: a rollup drifted behind the services' back (a row deleted by
            # hand) must not fail the import; the daily recount corrects it.
            + ", ".join(
                f"{c} = CASE WHEN {table}.{c} + d.{c} < 0 THEN 0 ELSE {table}.{c} + d.{c} END"
                for c in COUNTS.split(", ")
            )
            + f" FROM {summed} d WHERE {same}"
        )
        bulk.execute(
            f"INSERT INTO {table} ({COLUMNS}) SELECT {COLUMNS} FROM {summed} d "
            f"WHERE NOT EXISTS (SELECT 1 FROM {table} WHERE {same}) AND d.tasks > 0 "
            "AND d.successes >= 0 AND d.partials >= 0 AND d.failures >= 0 "
            "ORDER BY day, reflection_id"
        )
        bulk.execute(
            f"DELETE FROM {table} WHERE tasks = 0 AND EXISTS (SELECT 1 FROM {summed} d "
            f"WHERE {same})"
        )
    bulk.drop_staging_table(summed)
    return written


def finish_injection_deltas() -> int:
    written = apply_injection_deltas()
    bulk.drop_staging_table(DELTAS)
    return written


# --------------------------------------------------------------------------- recounts


def refresh_injection_outcome_days(
    *, reflection_ids: Iterable[int] | None = None, since: date | None = None
) -> int:
    """Recount InjectionOutcomeDay from the injections and their tasks: every row, only the
    rows of ``reflection_ids``, and/or only the UTC days from ``since`` on. Returns the rows
    rewritten (deleted, updated or inserted).

    The recount goes to an index-free temporary table and only the difference is written, so
    a rollup that has not drifted costs the grouped join and no writes."""
    table = connection.ops.quote_name(InjectionOutcomeDay._meta.db_table)
    ids = None if reflection_ids is None else sorted(set(reflection_ids))
    if ids == []:
        return 0
    where, params, scope, scope_params = ["1 = 1"], [], ["1 = 1"], []
    with transaction.atomic():
        if ids is not None:
            bulk.create_staging_table("staging_injection_ids", "id bigint")
            bulk.write_rows("staging_injection_ids", ["id"], ((i,) for i in ids))
            bulk.analyze("staging_injection_ids")
            where.append("i.reflection_id IN (SELECT id FROM staging_injection_ids)")
            scope.append("reflection_id IN (SELECT id FROM staging_injection_ids)")
        if since is not None:
            start = datetime.combine(since, datetime.min.time(), tzinfo=UTC)
            where.append("t.finished_at >= %s")
            params.append(bulk.adapt_value(start))
            scope.append("day >= %s")
            scope_params.append(connection.ops.adapt_datefield_value(since))
        if bulk.is_postgres():
            bulk.execute("SET LOCAL work_mem = '256MB'")
        bulk.create_staging_table(RECOUNT, f"reflection_id bigint, day date, {COUNT_TYPES}")
        select, counts_params = _grouped(_stored_rows(" AND ".join(where)))
        bulk.execute(f"INSERT INTO {RECOUNT} ({COLUMNS}) {select}", counts_params + params)
        bulk.analyze(RECOUNT)
        same = f"t.reflection_id = {table}.reflection_id AND t.day = {table}.day"
        in_scope = " AND ".join(f"{table}.{s}" if s != "1 = 1" else s for s in scope)
        rewritten = bulk.execute(
            f"DELETE FROM {table} WHERE {in_scope} "
            f"AND NOT EXISTS (SELECT 1 FROM {RECOUNT} t WHERE {same})",
            scope_params,
        )
        rewritten += bulk.execute(
            f"UPDATE {table} SET "
            + ", ".join(f"{c} = t.{c}" for c in COUNTS.split(", "))
            + f" FROM {RECOUNT} t WHERE {same} AND ("
            + " OR ".join(f"{table}.{c} <> t.{c}" for c in COUNTS.split(", "))
            + ")"
        )
        rewritten += bulk.execute(
            f"INSERT INTO {table} ({COLUMNS}) SELECT {COLUMNS} FROM {RECOUNT} t "
            f"WHERE NOT EXISTS (SELECT 1 FROM {table} x "
            "WHERE x.reflection_id = t.reflection_id AND x.day = t.day) "
            "ORDER BY t.day, t.reflection_id"
        )
        bulk.drop_staging_table(RECOUNT)
        if ids is not None:
            bulk.drop_staging_table("staging_injection_ids")
        if bulk.is_postgres():
            bulk.execute("SET LOCAL work_mem TO DEFAULT")
    return rewritten


def recount_injection_days_of_task(*, task_run_id: int) -> int:
    """A task or an injection saved one at a time (the admin, tests): recount the days of the
    reflections injected into the task, whatever its day and outcome were before."""
    reflection_ids = TaskInjection.objects.filter(task_run_id=task_run_id).values_list(
        "reflection_id", flat=True
    )
    return refresh_injection_outcome_days(reflection_ids=list(reflection_ids))
