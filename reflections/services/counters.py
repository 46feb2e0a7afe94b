"""Per-reflection counters kept beside the events: retrievals, useful retrievals, injections."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, time

from django.db import connection, models, transaction

from reflections import bulk
from reflections.models import Outcome, Reflection, RetrievalEvent, TaskInjection, TaskRun
from reflections.services.rollups import recount_retrieval_day, shift_flows


def refresh_retrieval_counters(*, reflection_ids: Iterable[int] | None = None) -> None:
    """Recount retrieval_count and last_retrieved_at from the events, set-based.

    With ids, only those reflections (what an import touched); without, every reflection.
    """
    table = connection.ops.quote_name(Reflection._meta.db_table)
    events = connection.ops.quote_name(RetrievalEvent._meta.db_table)
    only = ""
    if reflection_ids is not None:
        bulk.create_staging_table("staging_ids", "id bigint")
        if not bulk.write_rows("staging_ids", ["id"], ((i,) for i in sorted(set(reflection_ids)))):
            return
        bulk.analyze("staging_ids")
        only = "WHERE reflection_id IN (SELECT id FROM staging_ids)"
    bulk.execute(
        f"UPDATE {table} SET retrieval_count = agg.n, last_retrieved_at = agg.last "
        f"FROM (SELECT reflection_id, COUNT(*) AS n, MAX(retrieved_at) AS last FROM {events} "
        f"{only} GROUP BY reflection_id) agg WHERE {table}.id = agg.reflection_id"
    )
    if only:
        bulk.drop_staging_table("staging_ids")
    else:
        bulk.execute(
            f"UPDATE {table} SET retrieval_count = 0, last_retrieved_at = NULL "
            f"WHERE (retrieval_count <> 0 OR last_retrieved_at IS NOT NULL) "
            f"AND NOT EXISTS (SELECT 1 FROM {events} e WHERE e.reflection_id = {table}.id)"
        )


def add_retrieval_counts(first_event_id: int) -> None:
    """Add the events from `first_event_id` on (what one import wrote: ids increase and imports
    are serialised) to their reflections' retrieval_count and last_retrieved_at.

    The cost follows the new events, not every event of the reflections they touch, so a
    runtime posting small batches all day does not recount the same history each time.
    """
    table = connection.ops.quote_name(Reflection._meta.db_table)
    events = connection.ops.quote_name(RetrievalEvent._meta.db_table)
    bulk.execute(
        f"UPDATE {table} SET retrieval_count = {table}.retrieval_count + agg.n, "
        f"last_retrieved_at = CASE WHEN {table}.last_retrieved_at IS NULL "
        f"OR agg.last > {table}.last_retrieved_at THEN agg.last "
        f"ELSE {table}.last_retrieved_at END "
        f"FROM (SELECT reflection_id, COUNT(*) AS n, MAX(retrieved_at) AS last FROM {events} "
        f"WHERE id >= %s GROUP BY reflection_id) agg WHERE {table}.id = agg.reflection_id",
        [first_event_id],
    )


# --------------------------------------------------------------------------- usefulness, flows
#
# Reflection.useful_retrieval_count (retrievals whose task succeeded) and RetrievalFlowDay
# (retrievals per day, retriever's department and reflection's department) are what the
# usefulness page reads. Imports keep them by difference, in SQL, from what they wrote: the new
# events (ids from the import's first on), the tasks whose outcome they set, the agents and
# reflections whose department they changed. The daily policy job and refresh_rollup recount
# both from the events, which is what the tests hold the differences to.

OUTCOMES_BEFORE = "staging_outcome_before"


def _useful_join() -> str:
    q = connection.ops.quote_name
    return (
        f"FROM {q(RetrievalEvent._meta.db_table)} e "
        f"JOIN {q(TaskRun._meta.db_table)} t ON t.task_id = e.task_id"
    )


def start_remembering_outcomes() -> None:
    bulk.create_staging_table(OUTCOMES_BEFORE, "task_id varchar(255), was_useful integer")


def remember_outcomes(staging: str) -> None:
    """Before a chunk of tasks is written: whether each task it creates or whose outcome it
    changes counted as a success until now (a new task did not), the first time it is seen
    in this import. Either log may come first, so the retrievals already stored against these
    tasks change usefulness when the import ends."""
    tasks = connection.ops.quote_name(TaskRun._meta.db_table)
    bulk.execute(
        f"INSERT INTO {OUTCOMES_BEFORE} (task_id, was_useful) "
        "SELECT s.task_id, CASE WHEN t.outcome = %s THEN 1 ELSE 0 END "
        f"FROM {staging} s LEFT JOIN {tasks} t ON t.task_id = s.task_id "
        "WHERE (t.id IS NULL OR t.outcome <> s.outcome) "
        f"AND NOT EXISTS (SELECT 1 FROM {OUTCOMES_BEFORE} b WHERE b.task_id = s.task_id)",
        [Outcome.SUCCESS.value],
    )


def count_useful_after_import(first_new_event: int) -> int:
    """Add to useful_retrieval_count the import's new events whose task succeeded, and the
    difference its outcome changes make to the events stored before it; one UPDATE."""
    table = connection.ops.quote_name(Reflection._meta.db_table)
    bulk.analyze(OUTCOMES_BEFORE)
    success = Outcome.SUCCESS.value
    changed = bulk.execute(
        f"UPDATE {table} SET useful_retrieval_count = useful_retrieval_count + d.n FROM ("
        "SELECT reflection_id, SUM(n) AS n FROM ("
        f"SELECT e.reflection_id, 1 AS n {_useful_join()} WHERE e.id >= %s AND t.outcome = %s "
        "UNION ALL "
        "SELECT e.reflection_id, CASE WHEN t.outcome = %s THEN 1 ELSE 0 END - b.was_useful "
        f"FROM {OUTCOMES_BEFORE} b "
        f"JOIN {connection.ops.quote_name(RetrievalEvent._meta.db_table)} e "
        "ON e.task_id = b.task_id "
        f"JOIN {connection.ops.quote_name(TaskRun._meta.db_table)} t ON t.task_id = b.task_id "
        "WHERE e.id < %s"
        f") x GROUP BY reflection_id) d WHERE {table}.id = d.reflection_id AND d.n <> 0",
        [first_new_event, success, success, first_new_event],
    )
    bulk.drop_staging_table(OUTCOMES_BEFORE)
    return changed


def refresh_useful_counters() -> int:
    """Recount every reflection's useful_retrieval_count from the events and their tasks,
    set-based, writing only the counts that differ; returns how many were rewritten."""
    table = connection.ops.quote_name(Reflection._meta.db_table)
    with transaction.atomic():
        if bulk.is_postgres():
            bulk.execute("SET LOCAL work_mem = '256MB'")
        bulk.create_staging_table("staging_useful", "reflection_id bigint, n integer")
        bulk.execute(
            "INSERT INTO staging_useful (reflection_id, n) "
            f"SELECT e.reflection_id, COUNT(*) {_useful_join()} WHERE t.outcome = %s "
            "GROUP BY e.reflection_id",
            [Outcome.SUCCESS.value],
        )
        bulk.analyze("staging_useful")
        changed = bulk.execute(
            f"UPDATE {table} SET useful_retrieval_count = u.n FROM staging_useful u "
            f"WHERE {table}.id = u.reflection_id AND {table}.useful_retrieval_count <> u.n"
        )
        changed += bulk.execute(
            f"UPDATE {table} SET useful_retrieval_count = 0 WHERE useful_retrieval_count <> 0 "
            f"AND NOT EXISTS (SELECT 1 FROM staging_useful u WHERE u.reflection_id = {table}.id)"
        )
        bulk.drop_staging_table("staging_useful")
        if bulk.is_postgres():
            bulk.execute("SET LOCAL work_mem TO DEFAULT")
    return changed


def recount_useful_of_task(*, task_id: str) -> None:
    """A task saved one at a time (the admin, tests): recount the reflections retrieved for
    it, whatever its outcome was before."""
    table = connection.ops.quote_name(Reflection._meta.db_table)
    events = connection.ops.quote_name(RetrievalEvent._meta.db_table)
    bulk.execute(
        f"UPDATE {table} SET useful_retrieval_count = (SELECT COUNT(*) {_useful_join()} "
        f"WHERE e.reflection_id = {table}.id AND t.outcome = %s) "
        f"WHERE id IN (SELECT reflection_id FROM {events} WHERE task_id = %s)",
        [Outcome.SUCCESS.value, task_id],
    )


def count_saved_retrieval(*, event: RetrievalEvent) -> None:
    """A retrieval saved one at a time (the admin, tests): add it to its reflection's useful
    count and to the flows and recount its day in the retrieval rollup, as an import would."""
    if TaskRun.objects.filter(task_id=event.task_id, outcome=Outcome.SUCCESS).exists():
        Reflection.objects.filter(pk=event.reflection_id).update(
            useful_retrieval_count=models.F("useful_retrieval_count") + 1
        )
    shift_flows(where="e.id = %s", params=[event.pk], sign=1)
    day = event.retrieved_at.astimezone(UTC).date()
    recount_retrieval_day(reflection_id=event.reflection_id, day=day)


# Reflection.injection_count (TaskInjection rows) ranks the usefulness page's lift table. Task
# imports keep it by difference from the injections they delete and add; the daily policy job
# and refresh_rollup recount it.


def shift_injection_counts(deltas_sql: str) -> int:
    """Add to injection_count the ``n`` of each ``reflection_id`` that ``deltas_sql`` (a
    SELECT reflection_id, n … GROUP BY reflection_id) yields; one UPDATE."""
    table = connection.ops.quote_name(Reflection._meta.db_table)
    return bulk.execute(
        f"UPDATE {table} SET injection_count = injection_count + d.n FROM ({deltas_sql}) d "
        f"WHERE {table}.id = d.reflection_id AND d.n <> 0"
    )


def refresh_injection_counters() -> int:
    """Recount every reflection's injection_count from the injections, set-based, writing only
    the counts that differ; returns how many were rewritten (about 2 s at 2.3M injections)."""
    table = connection.ops.quote_name(Reflection._meta.db_table)
    injections = connection.ops.quote_name(TaskInjection._meta.db_table)
    with transaction.atomic():
        bulk.create_staging_table("staging_injected", "reflection_id bigint, n integer")
        bulk.execute(
            "INSERT INTO staging_injected (reflection_id, n) "
            f"SELECT reflection_id, COUNT(*) FROM {injections} GROUP BY reflection_id"
        )
        bulk.analyze("staging_injected")
        changed = bulk.execute(
            f"UPDATE {table} SET injection_count = u.n FROM staging_injected u "
            f"WHERE {table}.id = u.reflection_id AND {table}.injection_count <> u.n"
        )
        changed += bulk.execute(
            f"UPDATE {table} SET injection_count = 0 WHERE injection_count <> 0 AND NOT EXISTS "
            f"(SELECT 1 FROM staging_injected u WHERE u.reflection_id = {table}.id)"
        )
        bulk.drop_staging_table("staging_injected")
    return changed


def refresh_injection_finish_times(*, since: date | None = None) -> int:
    """Copy each run's finished_at onto its injections where they differ (a run changed
    outside the import and save()); returns how many were rewritten. With `since`, only where
    the run's time or the injection's copy is on or after that UTC day."""
    injections = connection.ops.quote_name(TaskInjection._meta.db_table)
    runs = connection.ops.quote_name(TaskRun._meta.db_table)
    sql = (
        f"UPDATE {injections} SET finished_at = t.finished_at FROM {runs} t "
        f"WHERE t.id = {injections}.task_run_id AND {injections}.finished_at <> t.finished_at"
    )
    if since is None:
        return bulk.execute(sql)
    start = datetime.combine(since, time.min, tzinfo=UTC)
    return bulk.execute(
        f"{sql} AND (t.finished_at >= %s OR {injections}.finished_at >= %s)", [start, start]
    )


def count_saved_injection(*, injection: TaskInjection) -> None:
    """An injection saved one at a time (the admin, tests): add it to its reflection's count,
    as an import would."""
    Reflection.objects.filter(pk=injection.reflection_id).update(
        injection_count=models.F("injection_count") + 1
    )
