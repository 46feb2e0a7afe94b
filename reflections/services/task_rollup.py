"""TaskOutcomeDay kept equal to a recount of the task runs: outcomes, eligible tasks and repeat
failures per department, task type and UTC day (DOMAIN §7)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from django.db import connection, transaction

from reflections import bulk
from reflections.caching import EVENTS, MEMORY, bump_data_version
from reflections.models import Kind, Outcome, Reflection, TaskOutcomeDay, TaskRun

PAIRS_STAGING = "staging_task_pairs"
COLUMNS = (
    "department_id, task_type, day, finished, successes, partials, failures, eligible, repeats"
)

# A task is eligible when the first failure/partial lesson of its department and type was
# written before it finished; a failure with a mode is a repeat when the first failed task of
# its department, type and mode finished before it. Both reduce to a first occurrence, so the
# recount is two grouped scans and two hash joins (insights.selectors.learning tells why).
# The first occurrences, shared with the learning curves' recount for any moments.
FIRST_OCCURRENCES_SQL = """
WITH first_lesson AS (
    SELECT department_id, task_type, MIN(created_at) AS at
    FROM {reflections}
    WHERE kind IN (%(failure)s, %(partial)s)
    GROUP BY department_id, task_type
),
first_failure AS (
    SELECT department_id, task_type, failure_mode, MIN(finished_at) AS at
    FROM {tasks}
    WHERE outcome = %(failure)s AND failure_mode <> ''
    GROUP BY department_id, task_type, failure_mode
),
"""
# Each task marked eligible / seen before, counted by outcome per department and `buckets`
# (the rollup: task type and UTC day; the learning curves' recount: the ISO week).
OUTCOME_COUNTS_SQL = (
    FIRST_OCCURRENCES_SQL
    + """
marked AS (
    SELECT t.department_id, {buckets}, t.outcome,
           CASE WHEN l.at < t.finished_at THEN 1 ELSE 0 END AS eligible,
           CASE WHEN f.at < t.finished_at THEN 1 ELSE 0 END AS seen_before
    FROM {tasks} t
    LEFT JOIN first_lesson l
           ON l.department_id = t.department_id AND l.task_type = t.task_type
    LEFT JOIN first_failure f
           ON f.department_id = t.department_id AND f.task_type = t.task_type
          AND f.failure_mode = t.failure_mode AND t.outcome = %(failure)s
    WHERE {where}
)
SELECT department_id, {groups}, COUNT(*),
       SUM(CASE WHEN outcome = %(success)s THEN 1 ELSE 0 END),
       SUM(CASE WHEN outcome = %(partial)s THEN 1 ELSE 0 END),
       SUM(CASE WHEN outcome = %(failure)s THEN 1 ELSE 0 END),
       SUM(eligible),
       SUM(eligible * seen_before)
FROM marked
GROUP BY department_id, {groups}
"""
)


def outcome_counts_sql(*, buckets: str, groups: str, where: str) -> tuple[str, dict]:
    """OUTCOME_COUNTS_SQL for these buckets (`t.<column> AS name, …`) and their names, over
    the tasks `t` that `where` selects, with the outcome parameters it needs."""
    q = connection.ops.quote_name
    sql = OUTCOME_COUNTS_SQL.format(
        reflections=q(Reflection._meta.db_table),
        tasks=q(TaskRun._meta.db_table),
        buckets=buckets,
        groups=groups,
        where=where,
    )
    params = {
        "success": Outcome.SUCCESS.value,
        "partial": Outcome.PARTIAL.value,
        "failure": Outcome.FAILURE.value,
    }
    assert (Kind.FAILURE.value, Kind.PARTIAL.value) == ("failure", "partial")
    return sql, params


IN_PAIRS = (
    "EXISTS (SELECT 1 FROM {staging} p WHERE p.department_id = {alias}department_id "
    "AND p.task_type = {alias}task_type)"
)


def _utc_day(column: str) -> str:
    if bulk.is_postgres():
        return f"({column} AT TIME ZONE 'UTC')::date"
    return f"date({column})"  # SQLite keeps UTC text 'YYYY-MM-DD HH:MM:SS…'


def recount_sql(where: str = "1 = 1") -> tuple[str, dict]:
    """The SELECT that recounts TaskOutcomeDay rows from TaskRun for the tasks ``t`` that
    ``where`` selects (the earlier tasks and lessons always count from the start)."""
    return outcome_counts_sql(
        buckets=f"t.task_type, {_utc_day('t.finished_at')} AS day",
        groups="task_type, day",
        where=where,
    )


def refresh_task_outcome_days(
    *,
    pairs: Iterable[tuple[int, str]] | None = None,
    since: date | None = None,
    bump: bool = True,
) -> int:
    """Recount TaskOutcomeDay: every row, only the (department, task type) ``pairs`` given,
    and/or only the UTC days from ``since`` on. Returns the rows the recounted scope holds.

    The rows in scope are deleted and inserted again from one INSERT … SELECT … GROUP BY:
    the table holds a row per department, task type and day (tens of thousands at most), so
    rewriting a scope costs the grouped scan of its tasks, never more."""
    table = connection.ops.quote_name(TaskOutcomeDay._meta.db_table)
    pair_list = None if pairs is None else sorted(set(pairs))
    if pair_list == []:
        return 0
    where, scope, params, scope_params = ["1 = 1"], ["1 = 1"], {}, []
    with transaction.atomic():
        if pair_list is not None:
            bulk.create_staging_table(PAIRS_STAGING, "department_id bigint, task_type varchar(128)")
            bulk.write_rows(PAIRS_STAGING, ["department_id", "task_type"], pair_list)
            bulk.analyze(PAIRS_STAGING)
            where.append(IN_PAIRS.format(staging=PAIRS_STAGING, alias="t."))
            scope.append(IN_PAIRS.format(staging=PAIRS_STAGING, alias=f"{table}."))
        if since is not None:
            where.append(f"{_utc_day('t.finished_at')} >= %(since)s")
            params["since"] = connection.ops.adapt_datefield_value(since)
            scope.append("day >= %s")
            scope_params.append(connection.ops.adapt_datefield_value(since))
        bulk.execute(f"DELETE FROM {table} WHERE {' AND '.join(scope)}", scope_params)
        select, select_params = recount_sql(" AND ".join(where))
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {table} ({COLUMNS}) {select}", select_params | params)
            rows = cursor.rowcount
        if pair_list is not None:
            bulk.drop_staging_table(PAIRS_STAGING)
        if bump:  # a migration filling the table runs before the version's table exists
            bump_data_version(MEMORY, EVENTS)
    return rows


def first_lessons() -> dict[tuple[int, str], object]:
    """When each (department, task type) got its first failure/partial lesson: what makes
    its tasks eligible. Imports compare it before and after to find the pairs to recount."""
    from django.db.models import Min

    rows = (
        Reflection.objects.filter(kind__in=[Kind.FAILURE, Kind.PARTIAL])
        .values_list("department_id", "task_type")
        .annotate(at=Min("created_at"))
        .order_by()
    )
    return {(dept, task_type): at for dept, task_type, at in rows}


def changed_pairs(before: dict, after: dict) -> set[tuple[int, str]]:
    return {pair for pair in before.keys() | after.keys() if before.get(pair) != after.get(pair)}
