"""Task-outcome lines into TaskRun and TaskInjection, staged and compared set-based."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection

from reflections import bulk
from reflections.importers.base import ParsedTask, Rejection
from reflections.importers.events import parse_task_lines
from reflections.models import TaskInjection, TaskRun
from reflections.services.batches import (
    EVENT_CHUNK_ROWS,
    UnknownDepartment,
    chunks,
    quote_value,
)
from reflections.services.counters import remember_outcomes, shift_injection_counts
from reflections.services.injection_rollup import (
    finish_injection_deltas,
    note_injection_deltas,
    note_stored_injections,
    noted_count_changes,
    start_injection_deltas,
)

TASK_STAGING = "staging_task"
TASK_COLUMNS = (
    "task_id",
    "agent_id",
    "department_id",
    "task_type",
    "finished_at",
    "outcome",
    "failure_mode",
    "confidence_at_start",
    "tools_used",
    "lessons",
    "model_used",
)


def import_task_lines(
    path,
    fmt,
    lines,
    refs,
    directory,
    now,
    summary,
    progress,
    *,
    records: Iterable[ParsedTask | Rejection] | None = None,
    default_department: str | None = None,
    pairs: set | None = None,
) -> tuple[int, int, int]:
    """Write one file's task runs; `records` replaces parsing `lines` (the trajectory pool).

    A run that names no department takes its agent's, else `default_department`. Adds to
    ``pairs`` the (department, task type) pairs whose tasks it may have changed (new tasks',
    and changed tasks' before and after), for the task-outcome rollup."""
    label = str(path)
    created = updated = total = 0
    task_table = connection.ops.quote_name(TaskRun._meta.db_table)
    inj_table = connection.ops.quote_name(TaskInjection._meta.db_table)
    json_type = "jsonb" if bulk.is_postgres() else "text"
    bulk.create_staging_table(
        TASK_STAGING,
        "task_id varchar(255), agent_id bigint, department_id bigint, task_type varchar(128), "
        "finished_at timestamp with time zone, outcome varchar(16), failure_mode varchar(128), "
        f"confidence_at_start double precision, tools_used {json_type}, lessons text, "
        "model_used varchar(128)",
    )
    bulk.create_staging_table(
        "staging_injection", "task_id varchar(255), reflection_id bigint, position integer"
    )
    start_injection_deltas()
    seen: set[str] = set()
    injections: list[tuple] = []

    def rows(items: Iterable[ParsedTask | Rejection]):
        nonlocal total
        for item in items:
            if isinstance(item, Rejection):
                summary.rejected.append(item)
                continue
            try:
                dept_id = _department_id(item, directory, default_department)
            except UnknownDepartment as problem:
                summary.reject(label, item.line, str(problem))
                continue
            if item.task_id in seen:
                summary.reject(
                    label,
                    item.line,
                    f"task_id: {quote_value(item.task_id)} appears more than once in this file",
                )
                continue
            resolved = []
            for index, ref in enumerate(item.reflections_injected):
                reflection_id = refs.resolve(ref)
                if reflection_id is None:
                    summary.reject(
                        label,
                        item.line,
                        f"reflections_injected[{index}]: unknown reflection {quote_value(ref)}",
                    )
                    break
                resolved.append(reflection_id)
            else:
                seen.add(item.task_id)
                agent_id = directory.agent(directory.agent_name(item.agent), dept_id)[0]
                for position, reflection_id in enumerate(dict.fromkeys(resolved)):
                    injections.append((item.task_id, reflection_id, position))
                total += 1
                yield (
                    item.task_id,
                    agent_id,
                    dept_id,
                    directory.safe(item.task_type),
                    item.finished_at,
                    item.outcome,
                    directory.safe(item.failure_mode),
                    item.confidence_at_start,
                    [directory.safe(tool) for tool in item.tools_used],
                    # A lesson is free text: masked whole when the scanner finds anything.
                    directory.safe(item.lessons) if item.lessons else "",
                    directory.safe(item.model_used),
                )

    cols = ", ".join(TASK_COLUMNS)
    compared = [c for c in TASK_COLUMNS if c != "task_id"]
    if records is None:
        records = parse_task_lines(lines, path=label, fmt=fmt, now=now)
    for chunk in chunks(records, EVENT_CHUNK_ROWS):
        bulk.write_rows(TASK_STAGING, TASK_COLUMNS, list(rows(chunk)))
        bulk.write_rows("staging_injection", ("task_id", "reflection_id", "position"), injections)
        bulk.analyze(TASK_STAGING)
        bulk.analyze("staging_injection")
        injections.clear()
        remember_outcomes(TASK_STAGING)
        if pairs is not None:
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT DISTINCT department_id, task_type FROM {TASK_STAGING} UNION "
                    f"SELECT DISTINCT t.department_id, t.task_type FROM {task_table} t "
                    f"JOIN {TASK_STAGING} s ON s.task_id = t.task_id"
                )
                pairs.update(cursor.fetchall())
        differs = " OR ".join(f"{task_table}.{c} IS DISTINCT FROM s.{c}" for c in compared)
        # Tasks whose facts changed since the last import: rewrite them and their injections.
        bulk.execute(
            f"CREATE TEMP TABLE staging_changed AS SELECT s.task_id FROM {TASK_STAGING} s "
            f"JOIN {task_table} ON {task_table}.task_id = s.task_id WHERE {differs}"
        )
        changed_runs = (
            f"SELECT t.id FROM {task_table} t JOIN staging_changed c ON c.task_id = t.task_id"
        )
        # Their injections leave the days and outcomes they had (InjectionOutcomeDay).
        note_stored_injections(f"t.id IN ({changed_runs})", sign=-1)
        updated += bulk.execute(
            f"UPDATE {task_table} SET "
            + ", ".join(f"{c} = s.{c}" for c in compared)
            + f" FROM {TASK_STAGING} s WHERE {task_table}.task_id = s.task_id "
            "AND s.task_id IN (SELECT task_id FROM staging_changed)"
        )
        bulk.execute(f"DELETE FROM {inj_table} WHERE task_run_id IN ({changed_runs})")
        bulk.execute("DROP TABLE staging_changed")
        created += bulk.execute(
            f"INSERT INTO {task_table} ({cols}) SELECT {cols} FROM {TASK_STAGING} s "
            f"WHERE NOT EXISTS (SELECT 1 FROM {task_table} t WHERE t.task_id = s.task_id)"
        )
        # The file names each (task, reflection) pair once, so what is not stored yet is what
        # the INSERT below adds (ON CONFLICT skips exactly the rest).
        # Found once, probed on the (task_run, reflection) unique index, for both aggregates.
        bulk.execute(
            "CREATE TEMP TABLE staging_new_injection AS "
            "SELECT i.reflection_id, t.finished_at, t.outcome "
            f"FROM staging_injection i JOIN {task_table} t ON t.task_id = i.task_id "
            f"WHERE NOT EXISTS (SELECT 1 FROM {inj_table} x "
            "WHERE x.task_run_id = t.id AND x.reflection_id = i.reflection_id)"
        )
        note_injection_deltas("SELECT * FROM staging_new_injection", sign=1)
        bulk.execute("DROP TABLE staging_new_injection")
        bulk.execute(
            f"INSERT INTO {inj_table} (task_run_id, reflection_id, position, finished_at) "
            f"SELECT t.id, i.reflection_id, i.position, t.finished_at FROM staging_injection i "
            f"JOIN {task_table} t ON t.task_id = i.task_id WHERE true ON CONFLICT DO NOTHING"
        )
        bulk.execute(f"DELETE FROM {TASK_STAGING}")
        bulk.execute("DELETE FROM staging_injection")
        if progress:
            progress(len(chunk))
    bulk.drop_staging_table(TASK_STAGING)
    bulk.drop_staging_table("staging_injection")
    # Once per file, not per chunk: each UPDATE writes a new version of every reflection it
    # touches, with an entry in each of its indexes, and a year's log is a dozen chunks.
    shift_injection_counts(noted_count_changes())
    finish_injection_deltas()
    return created, updated, total - created - updated


def _department_id(item: ParsedTask, directory, default_department: str | None) -> int:
    """The run's department: as stated, else its agent's, else the default; else a reason."""
    if item.department:
        return directory.department_id(item.department)
    known = directory.agent_department(directory.agent_name(item.agent))
    if known is not None:
        return known
    if default_department:
        return directory.department_id(default_department)
    raise UnknownDepartment(
        f"department: none given and agent {quote_value(item.agent)} has no department; "
        "choose a default department (the import form's field, or --default-department) or "
        "assign the agent to a department in the admin"
    )
