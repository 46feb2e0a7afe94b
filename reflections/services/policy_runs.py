"""Applying the memory policies for an as_of date: retention and salience here, decay in
reflections.services.decay, all three in apply_policies, and the backfill of a new installation.

Each policy decides in one SQL statement that mirrors its pure function in
reflections.policies (the pure function is the spec; a test compares them row by row).
Only the rows that change come back to Python, to word their reasons; the state UPDATE and
the history rows are written set-based. Timestamps are compared with boundaries computed
here and passed as parameters, so the SQL is the same on PostgreSQL and SQLite.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.db import connection, transaction

from reflections import bulk
from reflections.caching import bump_data_version
from reflections.models import Reflection, ReflectionHistory, RetrievalDay, State
from reflections.policies import DEFAULT_CONFIG, PolicyConfig, boundaries
from reflections.services.decay import (
    Change,
    PolicyRun,
    apply_decay,
    param,
    tables,
    write_state_changes,
)

# --------------------------------------------------------------------------- retention

RETENTION_SQL = """
SELECT agent_id, id, position FROM (
    SELECT r.agent_id, r.id, ROW_NUMBER() OVER (
               PARTITION BY r.agent_id ORDER BY r.created_at DESC, r.id DESC) AS position
    FROM {reflections} r
    WHERE r.agent_id IS NOT NULL AND r.created_at < %(end)s
      AND r.state NOT IN (%(deprecated)s, %(quarantined)s)
) ranked
{where}
ORDER BY agent_id, position
"""


@dataclass
class AgentRetention:
    retained: list[int] = field(default_factory=list)
    candidates: list[int] = field(default_factory=list)


def _retention_rows(*, as_of: date, config: PolicyConfig, where: str = "", extra=None) -> list:
    reflections, _ = tables()
    params = {
        "end": param(boundaries(as_of, config).end),
        "deprecated": State.DEPRECATED.value,
        "quarantined": State.QUARANTINED.value,
        "keep": config.retention_keep,
        **(extra or {}),
    }
    with connection.cursor() as cursor:
        cursor.execute(RETENTION_SQL.format(reflections=reflections, where=where), params)
        return cursor.fetchall()


def retention_candidates(
    *, as_of: date, config: PolicyConfig = DEFAULT_CONFIG
) -> dict[int, AgentRetention]:
    """Per agent id: the newest 30 retained ids and the archive candidates beyond them.

    Mirrors policies.retention: reflections created by the end of as_of, neither
    deprecated nor quarantined, ranked newest first (ties: higher id first).
    """
    result: dict[int, AgentRetention] = {}
    for agent_id, reflection_id, position in _retention_rows(as_of=as_of, config=config):
        entry = result.setdefault(agent_id, AgentRetention())
        (entry.retained if position <= config.retention_keep else entry.candidates).append(
            reflection_id
        )
    return result


@transaction.atomic
def archive_retention_candidates(
    *, as_of: date, dry_run: bool = False, config: PolicyConfig = DEFAULT_CONFIG
) -> list[Change]:
    """The yearly run: archive every agent's candidates that are not archived already."""
    rows = _retention_rows(
        as_of=as_of,
        config=config,
        where="WHERE position > %(keep)s",
    )
    ids = [r[1] for r in rows]
    position = {r[1]: r[2] for r in rows}
    targets = (
        (
            Reflection.objects.filter(pk__in=ids, state__in=[State.ACTIVE, State.PROMOTED])
            .select_related("agent")
            .only("id", "source_path", "state", "agent__name")
            .order_by("id")
        )
        if ids
        else []
    )
    keep = config.retention_keep
    changes = [
        Change(
            r.pk,
            r.source_path,
            r.state,
            State.ARCHIVED,
            f"retention: #{position[r.pk]} of agent {r.agent.name} "
            f"(only the newest {keep} are kept)",
            "retention",
        )
        for r in targets
    ]
    if not dry_run:
        write_state_changes(
            changes, actor_label="policy:retention", retention_at=boundaries(as_of, config).end
        )
    return changes


# --------------------------------------------------------------------------- salience


def _days_since_sql(column: str) -> str:
    # The one place a per-row age needs the database's own date arithmetic.
    if bulk.is_postgres():
        return f"(EXTRACT(EPOCH FROM (%(end)s::timestamptz - {column})) / 86400.0)"
    return f"(julianday(%(end)s) - julianday({column}))"


# Retrievals up to the end of as_of, summed from the daily rollup (whole UTC days).
SALIENCE_SQL = """
WITH counts AS (
    SELECT reflection_id, SUM(retrievals) AS n FROM {rollup}
    WHERE day <= %(as_of_day)s GROUP BY reflection_id
),
ranked AS (
    SELECT r.id, PERCENT_RANK() OVER (
               PARTITION BY r.department_id
               ORDER BY COALESCE(c.n, 0) / {age}) AS percentile
    FROM {reflections} r LEFT JOIN counts c ON c.reflection_id = r.id
    WHERE r.created_at < %(old_enough)s
)
SELECT r.id, CASE WHEN r.salience IS NULL THEN ranked.percentile END AS computed
FROM {reflections} r LEFT JOIN ranked ON ranked.id = r.id
WHERE r.salience_computed IS DISTINCT FROM
      (CASE WHEN r.salience IS NULL THEN ranked.percentile END)
"""


@transaction.atomic
def apply_salience(
    *, as_of: date, dry_run: bool = False, config: PolicyConfig = DEFAULT_CONFIG
) -> int:
    """Store salience_computed for reflections without an imported salience; returns how many
    changed. Mirrors policies.salience_reference (the rule in Python, which the tests read)
    with the percentile from PERCENT_RANK() over retrievals per day since creation, per
    department, among reflections ≥ 14 days old."""
    b = boundaries(as_of, config)
    reflections, _ = tables()
    sql = SALIENCE_SQL.format(
        rollup=connection.ops.quote_name(RetrievalDay._meta.db_table),
        reflections=reflections,
        age=_days_since_sql("r.created_at"),
    )
    params = {
        "end": param(b.end),
        "as_of_day": connection.ops.adapt_datefield_value(as_of),
        "old_enough": param(b.salience_created_before),
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if rows and not dry_run:
        bulk.create_staging_table("staging_salience", "id bigint, computed double precision")
        bulk.write_rows("staging_salience", ("id", "computed"), rows)
        bulk.analyze("staging_salience")
        bulk.execute(
            f"UPDATE {reflections} SET salience_computed = s.computed "
            f"FROM staging_salience s WHERE {reflections}.id = s.id"
        )
        bulk.drop_staging_table("staging_salience")
    return len(rows)


# --------------------------------------------------------------------------- all of them


@transaction.atomic
def apply_policies(
    *,
    as_of: date,
    dry_run: bool = False,
    retention: bool = False,
    config: PolicyConfig = DEFAULT_CONFIG,
    recorded_at: datetime | None = None,
) -> PolicyRun:
    """Run retention (when asked: the yearly run), then decay, then salience, in one transaction.

    A dry run performs the same writes and rolls them back, so what it lists is exactly what
    a real run would do, including how retention and decay interact.
    """
    run = PolicyRun(as_of=as_of, dry_run=dry_run)
    if retention:
        run.changes += archive_retention_candidates(as_of=as_of, config=config)
    run.changes += apply_decay(as_of=as_of, config=config, recorded_at=recorded_at)
    salience_changed = apply_salience(as_of=as_of, config=config)
    bump_data_version()
    counts: dict[str, int] = {}
    for c in run.changes:
        key = f"{c.policy}:{c.to_state}"
        counts[key] = counts.get(key, 0) + 1
    run.counts = {
        "changed": len(run.changes),
        **dict(sorted(counts.items())),
        "salience_updated": salience_changed,
    }
    if dry_run:
        transaction.set_rollback(True)
    return run


class BackfillError(ValueError):
    pass


def backfill_policies(
    *, first: date, last: date, every_days: int = 7, config: PolicyConfig = DEFAULT_CONFIG
) -> list[PolicyRun]:
    """Replay decay as the daily job would have run it, every `every_days` days from `first`
    through `last` (always included), each run's history stamped at the end of its day, so a
    new installation's memory-health page shows how the active set moved. Refused once policy
    history exists after `first`: replaying the past under it would rewrite the present."""
    if every_days < 1 or last < first:
        raise BackfillError("give a first day on or before the last, and a step of 1 day or more")
    later = ReflectionHistory.objects.filter(
        actor_label__startswith="policy:", at__gte=boundaries(first, config).start
    ).exists()
    if later:
        raise BackfillError(
            f"policies already ran on or after {first.isoformat()}: a backfill is for a memory "
            "whose policy history starts later; run apply_policies --as-of for the days ahead"
        )
    days = [first + timedelta(days=n) for n in range(0, (last - first).days + 1, every_days)]
    if days[-1] != last:
        days.append(last)
    runs = []
    for day in days:
        with transaction.atomic():
            runs.append(
                apply_policies(
                    as_of=day,
                    config=config,
                    # The state as of that day: the last moment of it.
                    recorded_at=boundaries(day, config).end - timedelta(microseconds=1),
                )
            )
    return runs
