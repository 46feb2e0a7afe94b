"""ActiveSetChange kept equal to the state history replayed: per reflection, the UTC days on
which it joined (+1) or left (-1) the active set (active or promoted)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from django.db import connection, transaction

from reflections import bulk
from reflections.caching import bump_data_version
from reflections.models import (
    ACTIVE_SET_STATES,
    ActiveSetChange,
    Reflection,
    ReflectionHistory,
    State,
)

IDS_STAGING = "staging_active_set_ids"
# Up to this many reflections are named in the statement itself; more go through a staging
# table (an import's thousands). A verdict or a bulk action of 100 items then recounts in two
# statements instead of eight (the staging table's create, fill, analyze and drop).
INLINE_IDS = 1000
ACTIVE_SET_COLUMNS = ("reflection_id", "department_id", "day", "change")
COLUMNS = ", ".join(ACTIVE_SET_COLUMNS)

# A reflection is in the active set at a midnight when it was created before it and the latest
# state-bearing history row before it says active or promoted (none yet: active); the row its
# import wrote counts from its created_at (reflections.selectors.health.active_set_by_week).
# With midnights only, "before it" is "on an earlier or the same UTC day": so each reflection's
# membership is computed at the end of every day on which it was created or changed state, and
# a row is kept where that differs from the day before.
RECOUNT_SQL = """
WITH moments AS (
    SELECT h.reflection_id, {moment_day} AS day, h.to_state,
           ROW_NUMBER() OVER (PARTITION BY h.reflection_id, {moment_day}
                              ORDER BY {moment_at} DESC, h.id DESC) AS rn
    FROM {history} h
    JOIN {reflections} r ON r.id = h.reflection_id
    WHERE h.to_state <> '' {scope_h} {scope_r}
),
days AS (
    SELECT reflection_id, day, MAX(state) AS state FROM (
        SELECT reflection_id, day, to_state AS state FROM moments WHERE rn = 1
        UNION ALL
        SELECT r.id, {created_day}, NULL FROM {reflections} r WHERE 1 = 1 {scope_r}
    ) x
    GROUP BY reflection_id, day
),
carried AS (
    SELECT reflection_id, day, state,
           COUNT(state) OVER (PARTITION BY reflection_id ORDER BY day) AS grp
    FROM days
),
member AS (
    SELECT c.reflection_id, r.department_id, c.day,
           CASE WHEN {created_day} <= c.day
                 AND COALESCE(MAX(c.state) OVER (PARTITION BY c.reflection_id, c.grp),
                              %(active)s) IN (%(active)s, %(promoted)s)
                THEN 1 ELSE 0 END AS m
    FROM carried c
    JOIN {reflections} r ON r.id = c.reflection_id
),
changes AS (
    SELECT reflection_id, department_id, day,
           m - LAG(m, 1, 0) OVER (PARTITION BY reflection_id ORDER BY day) AS change
    FROM member
)
SELECT reflection_id, department_id, day, change FROM changes WHERE change <> 0
"""


def _day(column: str) -> str:
    if bulk.is_postgres():
        return f"({column} AT TIME ZONE 'UTC')::date"
    return f"date({column})"


def _in_ids(ids: list[int] | None) -> str:
    """The scope's condition: the ids written out (integers, so nothing to escape), or those of
    the staging table."""
    if ids is None:
        return f"IN (SELECT id FROM {IDS_STAGING})"
    return f"IN ({', '.join(str(int(i)) for i in ids)})"


def recount_sql(scoped: bool, ids: list[int] | None = None) -> tuple[str, dict]:
    """The recount of every reflection, or (scoped) of `ids`, or of the staging table's."""
    q = connection.ops.quote_name
    moment_at = (
        f"CASE WHEN h.change = '{ReflectionHistory.Change.CREATED.value}' "
        "THEN r.created_at ELSE h.at END"
    )
    in_ids = _in_ids(ids)
    sql = RECOUNT_SQL.format(
        history=q(ReflectionHistory._meta.db_table),
        reflections=q(Reflection._meta.db_table),
        moment_at=moment_at,
        moment_day=_day(moment_at),
        created_day=_day("r.created_at"),
        scope_h=f"AND h.reflection_id {in_ids}" if scoped else "",
        scope_r=f"AND r.id {in_ids}" if scoped else "",
    )
    return sql, {"active": State.ACTIVE.value, "promoted": State.PROMOTED.value}


def refresh_active_set(reflection_ids: Iterable[int] | None = None, *, bump: bool = True) -> int:
    """Recount ActiveSetChange: every reflection's rows, or only those of ``reflection_ids``
    (a batch that wrote their state history or moved them). Returns the rows written."""
    ids = None if reflection_ids is None else sorted(set(reflection_ids))
    if ids == []:
        return 0
    table = connection.ops.quote_name(ActiveSetChange._meta.db_table)
    staged = ids is not None and len(ids) > INLINE_IDS
    inline = None if staged else ids  # None: every reflection, or the staging table's
    with transaction.atomic():
        if ids is None:
            bulk.execute(f"DELETE FROM {table}")
        else:
            if staged:
                bulk.create_staging_table(IDS_STAGING, "id bigint")
                bulk.write_rows(IDS_STAGING, ["id"], ((i,) for i in ids))
                bulk.analyze(IDS_STAGING)
            bulk.execute(f"DELETE FROM {table} WHERE reflection_id {_in_ids(inline)}")
        sql, params = recount_sql(scoped=ids is not None, ids=inline)
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {table} ({COLUMNS}) {sql}", params)
            rows = cursor.rowcount
        if staged:
            bulk.drop_staging_table(IDS_STAGING)
        if bump:  # a migration filling the table runs before the version's table exists
            bump_data_version()
    return rows


def history_watermark() -> int:
    """The newest history row's id: refresh_active_set_since recounts what came after it."""
    last = ReflectionHistory.objects.order_by("-id").values_list("id", flat=True).first()
    return last or 0


def changes_of_new_reflection(
    pk: int, department_id: int, created_at: datetime, state: str
) -> list[tuple]:
    """The rows RECOUNT_SQL gives a reflection whose one history row is its creation: it joins
    the active set on the UTC day it was created if it starts active or promoted, and that is
    all. An import writes them with the reflection (ACTIVE_SET_COLUMNS order)."""
    if state not in ACTIVE_SET_STATES:
        return []
    return [(pk, department_id, created_at.astimezone(UTC).date().isoformat(), 1)]


def refresh_active_set_since(watermark: int, *, created_written: bool = False) -> int:
    """Recount the reflections that got history rows after ``watermark`` (an import: new
    reflections, content updates that may move a created_at or a department, states). With
    ``created_written``, the import wrote its new reflections' rows itself
    (changes_of_new_reflection): only the reflections with other history are recounted."""
    rows = ReflectionHistory.objects.filter(id__gt=watermark)
    if created_written:
        rows = rows.exclude(change=ReflectionHistory.Change.CREATED)
    return refresh_active_set(set(rows.values_list("reflection_id", flat=True)))
