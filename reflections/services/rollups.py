"""Daily rollups kept equal to a recount of the raw events: RetrievalDay and RetrievalFlowDay."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.db import connection, models, transaction

from reflections import bulk
from reflections.models import (
    Agent,
    EventPrune,
    Reflection,
    RetrievalDay,
    RetrievalEvent,
    RetrievalFlowDay,
)

# --------------------------------------------------------------------------- retrieval rollup

# An import that adds at least this many events rebuilds the whole rollup in one pass: the
# GROUP BY over every event is cheaper than recounting millions of (reflection, day) pairs.
ROLLUP_REBUILD_EVENTS = 1_000_000
ROLLUP_DAYS_STAGING = "staging_rollup_day"


def max_event_id() -> int:
    return RetrievalEvent.objects.aggregate(m=models.Max("id"))["m"] or 0


def recount_from(since: date | None) -> date | None:
    """The first day a recount may rewrite: ``since``, but never a day before the latest
    prune (prune_events), whose rollups are kept while its events are gone."""
    kept = EventPrune.kept_from()
    if kept is None or (since is not None and since >= kept):
        return since
    return kept


def _utc_day_sql(column: str) -> str:
    """The UTC calendar day of a timestamp column, as the rollup's ``day`` stores it."""
    if bulk.is_postgres():
        return f"({column} AT TIME ZONE 'UTC')::date"
    return f"date({column})"  # SQLite keeps UTC text 'YYYY-MM-DD HH:MM:SS…'


def _utc_day_bounds_sql(column: str) -> tuple[str, str]:
    """[start, end) of the UTC day in a date column, comparable with a timestamp column."""
    if bulk.is_postgres():
        return (
            f"({column}::timestamp AT TIME ZONE 'UTC')",
            f"(({column} + 1)::timestamp AT TIME ZONE 'UTC')",
        )
    return column, f"date({column}, '+1 day')"  # text order: '2026-01-01' < '2026-01-01 00:…'


def _rollup_insert_sql(
    *,
    joins: str = "",
    where: str = "",
    day: str | None = None,
    ordered: bool = False,
    into: str | None = None,
) -> str:
    """INSERT … SELECT … GROUP BY that recounts rollup rows from the raw events ``e``.

    A retrieval is cross-agent when the retrieving agent is not the reflection's author; an
    unknown author shares with nobody we could name (as the health page always counted).
    """
    q = connection.ops.quote_name
    day = day or _utc_day_sql("e.retrieved_at")
    return (
        f"INSERT INTO {into or q(RetrievalDay._meta.db_table)} "
        "(reflection_id, department_id, day, retrievals, cross_agent) "
        f"SELECT e.reflection_id, r.department_id, {day}, COUNT(*), "
        "SUM(CASE WHEN r.agent_id IS NOT NULL AND e.agent_id <> r.agent_id THEN 1 ELSE 0 END) "
        f"FROM {q(RetrievalEvent._meta.db_table)} e {joins} "
        f"JOIN {q(Reflection._meta.db_table)} r ON r.id = e.reflection_id "
        f"{where} GROUP BY e.reflection_id, r.department_id, {day}"
        # Millions of rows go in day by day: the day and department indexes then grow at
        # their ends and the (reflection, day) one sweeps in order once per day (about twice
        # as fast as hash order at 3M rows).
        + (f" ORDER BY {day}, e.reflection_id" if ordered else "")
    )


ROLLUP_STAGING = "staging_rollup"


@dataclass
class RollupRefresh:
    rows: int  # rollup rows the refreshed days hold now
    inserted: int = 0
    updated: int = 0
    deleted: int = 0


def refresh_retrieval_rollup(*, since: date | None = None) -> RollupRefresh:
    """Recount RetrievalDay from the raw events: every day, or the UTC days from ``since`` on.

    Set-based. An empty rollup is filled by one INSERT … SELECT … GROUP BY. Otherwise the
    recount goes to an index-free temporary table and only the difference is written (rows
    gone, counts changed, rows new): a rollup that has not drifted costs the GROUP BY and no
    writes, where rewriting 3M rows costs a minute of index and foreign-key upkeep.
    The daily policy job calls it for the days decay reads, so the rollup cannot drift.
    """
    q = connection.ops.quote_name
    rollup = q(RetrievalDay._meta.db_table)
    where, params, scope = "", [], ""
    since = recount_from(since)
    if since is not None:
        start = datetime.combine(since, datetime.min.time(), tzinfo=UTC)
        where, params = "WHERE e.retrieved_at >= %s", [bulk.adapt_value(start)]
        scope = f"AND {rollup}.day >= %s"
    with transaction.atomic():
        if bulk.is_postgres():
            # The GROUP BY of 10M events into ~3M groups spills to disk at the default 4 MB.
            bulk.execute("SET LOCAL work_mem = '256MB'")
        if not RetrievalDay.objects.exists():
            inserted = bulk.execute(_rollup_insert_sql(where=where, ordered=True), params)
            result = RollupRefresh(rows=inserted, inserted=inserted)
        else:
            result = _rewrite_rollup_difference(where, params, scope, since)
        if bulk.is_postgres():
            bulk.execute("SET LOCAL work_mem TO DEFAULT")
    return result


def _rewrite_rollup_difference(where: str, params: list, scope: str, since) -> RollupRefresh:
    q = connection.ops.quote_name
    rollup = q(RetrievalDay._meta.db_table)
    staging = ROLLUP_STAGING
    bulk.create_staging_table(
        staging,
        "reflection_id bigint, department_id bigint, day date, retrievals integer, "
        "cross_agent integer",
    )
    rows = bulk.execute(_rollup_insert_sql(where=where, into=staging), params)
    bulk.analyze(staging)
    same_key = f"t.reflection_id = {rollup}.reflection_id AND t.day = {rollup}.day"
    scope_params = [connection.ops.adapt_datefield_value(since)] if since else []
    deleted = bulk.execute(
        f"DELETE FROM {rollup} WHERE NOT EXISTS (SELECT 1 FROM {staging} t WHERE {same_key}) "
        f"{scope}",
        scope_params,
    )
    updated = bulk.execute(
        f"UPDATE {rollup} SET department_id = t.department_id, retrievals = t.retrievals, "
        f"cross_agent = t.cross_agent FROM {staging} t WHERE {same_key} "
        f"AND ({rollup}.department_id <> t.department_id OR {rollup}.retrievals <> t.retrievals "
        f"OR {rollup}.cross_agent <> t.cross_agent) {scope}",
        scope_params,
    )
    inserted = bulk.execute(
        f"INSERT INTO {rollup} (reflection_id, department_id, day, retrievals, cross_agent) "
        f"SELECT t.reflection_id, t.department_id, t.day, t.retrievals, t.cross_agent "
        f"FROM {staging} t WHERE NOT EXISTS (SELECT 1 FROM {rollup} x "
        "WHERE x.reflection_id = t.reflection_id AND x.day = t.day) "
        "ORDER BY t.day, t.reflection_id"
    )
    bulk.drop_staging_table(staging)
    return RollupRefresh(rows=rows, inserted=inserted, updated=updated, deleted=deleted)


def refresh_rollup_of_reflections(reflection_ids: Iterable[int]) -> None:
    """Recount every day of some reflections (their author or department changed)."""
    ids = sorted(set(reflection_ids))
    if not ids:
        return
    rollup = connection.ops.quote_name(RetrievalDay._meta.db_table)
    bulk.create_staging_table("staging_rollup_ids", "id bigint")
    bulk.write_rows("staging_rollup_ids", ["id"], ((i,) for i in ids))
    bulk.analyze("staging_rollup_ids")
    # The days before a prune keep their counts: there are no events to recount them from.
    kept = recount_from(None)
    scope, events_scope, params = "", "", []
    if kept is not None:
        start = datetime.combine(kept, datetime.min.time(), tzinfo=UTC)
        scope, params = "AND day >= %s", [connection.ops.adapt_datefield_value(kept)]
        events_scope = "AND e.retrieved_at >= %s"
    bulk.execute(
        f"DELETE FROM {rollup} WHERE reflection_id IN (SELECT id FROM staging_rollup_ids) {scope}",
        params,
    )
    bulk.execute(
        _rollup_insert_sql(
            where=f"WHERE e.reflection_id IN (SELECT id FROM staging_rollup_ids) {events_scope}"
        ),
        [bulk.adapt_value(start)] if kept is not None else [],
    )
    bulk.drop_staging_table("staging_rollup_ids")


def refresh_rollup_after_import(first_new_event: int, created: int) -> str:
    """Recount the (reflection, UTC day) pairs that events with id ≥ first_new_event fall on.

    Returns "full" or "days", which path was taken. An empty rollup (the first import, or
    a database from before the rollup existed) or a very large batch is rebuilt whole.
    """
    if created >= ROLLUP_REBUILD_EVENTS or not RetrievalDay.objects.exists():
        refresh_retrieval_rollup()
        return "full"
    q = connection.ops.quote_name
    rollup = q(RetrievalDay._meta.db_table)
    events = q(RetrievalEvent._meta.db_table)
    staging = ROLLUP_DAYS_STAGING
    bulk.create_staging_table(staging, "reflection_id bigint, day date")
    bulk.execute(
        f"INSERT INTO {staging} (reflection_id, day) SELECT DISTINCT reflection_id, "
        f"{_utc_day_sql('retrieved_at')} FROM {events} WHERE id >= %s",
        [first_new_event],
    )
    bulk.analyze(staging)
    bulk.execute(
        f"DELETE FROM {rollup} WHERE EXISTS (SELECT 1 FROM {staging} t "
        f"WHERE t.reflection_id = {rollup}.reflection_id AND t.day = {rollup}.day)"
    )
    # Each pair is recounted through the (reflection, retrieved_at) unique index: a range
    # scan of one reflection's day, never the whole table.
    start, end = _utc_day_bounds_sql("t.day")
    bulk.execute(
        _rollup_insert_sql(
            joins=f"JOIN {staging} t ON t.reflection_id = e.reflection_id "
            f"AND e.retrieved_at >= {start} AND e.retrieved_at < {end}",
            day="t.day",
        )
    )
    bulk.drop_staging_table(staging)
    return "days"


def recount_retrieval_day(*, reflection_id: int, day: date) -> None:
    """Recount one reflection's one UTC day: after a retrieval saved one at a time (the admin,
    tests), as an import recounts the days its events fall on."""
    start = datetime.combine(day, datetime.min.time(), tzinfo=UTC)
    RetrievalDay.objects.filter(reflection_id=reflection_id, day=day).delete()
    bulk.execute(
        _rollup_insert_sql(
            where="WHERE e.reflection_id = %s AND e.retrieved_at >= %s AND e.retrieved_at < %s"
        ),
        [
            reflection_id,
            *map(connection.ops.adapt_datetimefield_value, (start, start + timedelta(days=1))),
        ],
    )


FLOW_STAGING = "staging_flow"
FLOW_COLUMNS = "day, retriever_department_id, reflection_department_id, retrievals"


def _flows_select_sql(where: str) -> str:
    """SELECT … GROUP BY of the flows of the raw events ``e`` that ``where`` selects: the
    retriever's department is the one the log states, else the retrieving agent's (now)."""
    q = connection.ops.quote_name
    day = _utc_day_sql("e.retrieved_at")
    retriever = "COALESCE(e.department_id, a.department_id)"
    return (
        f"SELECT {day}, {retriever}, r.department_id, COUNT(*) "
        f"FROM {q(RetrievalEvent._meta.db_table)} e "
        f"JOIN {q(Agent._meta.db_table)} a ON a.id = e.agent_id "
        f"JOIN {q(Reflection._meta.db_table)} r ON r.id = e.reflection_id "
        f"{where} GROUP BY {day}, {retriever}, r.department_id"
    )


def shift_flows(*, where: str, params: list, sign: int) -> None:
    """Add (sign 1) or take away (sign -1) the events ``e`` that ``where`` selects to or from
    RetrievalFlowDay, with the departments as they are now: call it with -1 before changing a
    department its events flow from or to and with 1 after, or with 1 for new events."""
    flows = connection.ops.quote_name(RetrievalFlowDay._meta.db_table)
    bulk.create_staging_table(
        FLOW_STAGING,
        "day date, retriever_department_id bigint, reflection_department_id bigint, "
        "retrievals integer",
    )
    if not bulk.execute(
        f"INSERT INTO {FLOW_STAGING} ({FLOW_COLUMNS}) {_flows_select_sql('WHERE ' + where)}",
        params,
    ):
        bulk.drop_staging_table(FLOW_STAGING)
        return
    bulk.analyze(FLOW_STAGING)
    same = (
        f"t.day = {flows}.day AND t.reflection_department_id = {flows}.reflection_department_id "
        f"AND COALESCE(t.retriever_department_id, 0) = "
        f"COALESCE({flows}.retriever_department_id, 0)"
    )
    op = "+" if sign > 0 else "-"
    bulk.execute(
        f"UPDATE {flows} SET retrievals = {flows}.retrievals {op} t.retrievals "
        f"FROM {FLOW_STAGING} t WHERE {same}"
    )
    if sign > 0:
        bulk.execute(
            f"INSERT INTO {flows} ({FLOW_COLUMNS}) SELECT {FLOW_COLUMNS} FROM {FLOW_STAGING} t "
            f"WHERE NOT EXISTS (SELECT 1 FROM {flows} WHERE {same})"
        )
    else:
        bulk.execute(f"DELETE FROM {flows} WHERE retrievals = 0")
    bulk.drop_staging_table(FLOW_STAGING)


def shift_flows_of_reflections(reflection_ids: Iterable[int], *, sign: int) -> None:
    """shift_flows for every event of some reflections (their department may change)."""
    ids = sorted(set(reflection_ids))
    if not ids:
        return
    bulk.create_staging_table("staging_flow_ids", "id bigint")
    bulk.write_rows("staging_flow_ids", ["id"], ((i,) for i in ids))
    bulk.analyze("staging_flow_ids")
    shift_flows(where="e.reflection_id IN (SELECT id FROM staging_flow_ids)", params=[], sign=sign)
    bulk.drop_staging_table("staging_flow_ids")


def refresh_retrieval_flows(*, since: date | None = None) -> int:
    """Recount RetrievalFlowDay from the raw events: every day, or the UTC days from ``since``
    on; returns the rows those days hold. The table is small (a row per day and department
    pair), so the days are rewritten whole; the cost is the one GROUP BY over the events."""
    flows = connection.ops.quote_name(RetrievalFlowDay._meta.db_table)
    where, params, scope, scope_params = "", [], "", []
    since = recount_from(since)
    if since is not None:
        start = datetime.combine(since, datetime.min.time(), tzinfo=UTC)
        where, params = "WHERE e.retrieved_at >= %s", [bulk.adapt_value(start)]
        scope, scope_params = "WHERE day >= %s", [connection.ops.adapt_datefield_value(since)]
    with transaction.atomic():
        if bulk.is_postgres():
            bulk.execute("SET LOCAL work_mem = '256MB'")
        bulk.execute(f"DELETE FROM {flows} {scope}", scope_params)
        rows = bulk.execute(
            f"INSERT INTO {flows} ({FLOW_COLUMNS}) {_flows_select_sql(where)}", params
        )
        if bulk.is_postgres():
            bulk.execute("SET LOCAL work_mem TO DEFAULT")
    return rows
