"""Retention of the raw retrieval events: deleting every event before a month, rollups kept.

On a partitioned table (PostgreSQL) the months go whole, partition by partition, which costs
a catalog change rather than a scan; elsewhere (SQLite) the rows are deleted. The rollups
(RetrievalDay, RetrievalFlowDay) of the pruned days are kept as they are, and every recount
leaves the days before the latest prune alone (EventPrune.kept_from), so the dashboards still
show the pruned months. The per-reflection counters (retrieval_count, last_retrieved_at,
useful_retrieval_count) count the events held, as the daily job's recount does: they are
recounted here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from django.db import connection, transaction
from django.utils import timezone

from reflections import bulk
from reflections.caching import bump_data_version
from reflections.models import EventPrune, RetrievalEvent
from reflections.services.batches import lock_imports
from reflections.services.counters import refresh_retrieval_counters, refresh_useful_counters
from reflections.services.partitions import (
    drop_partitions_before,
    is_partitioned,
    month_of,
    partitions,
)


@dataclass
class PruneResult:
    before: date
    events: int = 0
    partitions: list[str] = field(default_factory=list)
    dry_run: bool = False

    def as_dict(self) -> dict:
        return {
            "before": self.before.isoformat(),
            "events": self.events,
            "partitions": self.partitions,
            "dry_run": self.dry_run,
        }


def prune_events(*, before: date, dry_run: bool = False, now=None) -> PruneResult:
    """Delete every retrieval event before the month of ``before``; recount the counters.

    One transaction under the import lock, so no import writes the months being dropped.
    """
    month = month_of(before)
    start = datetime.combine(month, datetime.min.time(), tzinfo=UTC)
    result = PruneResult(before=month, dry_run=dry_run)
    with transaction.atomic():
        lock_imports()
        if dry_run:
            result.events = RetrievalEvent.objects.filter(retrieved_at__lt=start).count()
            result.partitions = _partitions_before(month)
            return result
        if is_partitioned():
            result.partitions, result.events = drop_partitions_before(month)
        else:
            table = connection.ops.quote_name(RetrievalEvent._meta.db_table)
            result.events = bulk.execute(
                f"DELETE FROM {table} WHERE retrieved_at < %s", [bulk.adapt_value(start)]
            )
        if result.events:
            refresh_retrieval_counters()
            refresh_useful_counters()
            bump_data_version()
        EventPrune.objects.create(
            before=month,
            at=now or timezone.now(),
            events=result.events,
            partitions=result.partitions,
        )
    return result


def _partitions_before(month: date) -> list[str]:
    return [name for first, name in sorted(partitions().items()) if first < month]
