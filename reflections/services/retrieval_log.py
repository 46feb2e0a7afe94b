"""Logging an answer of retrieval as retrieval events, with every counter kept as an import would.

The API logs what it answered (reflections.selectors.retrieval): one RetrievalEvent per
reflection, with its rank and score. The denormalised counters (retrieval_count,
last_retrieved_at, useful_retrieval_count), the daily rollup and the department flows are
brought up to date in the same transaction, by the same set-based steps ``import_events``
takes, so a logged answer and an imported log line of the same retrieval are
indistinguishable. Logging the same answer twice (same reflection, moment, task and agent) is
a no-op, as re-importing a log is.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from reflections.models import Agent, RetrievalEvent
from reflections.selectors.retrieval import Retrieved
from reflections.services.batches import agent_name, lock_imports, safe_value
from reflections.services.counters import (
    count_useful_after_import,
    refresh_retrieval_counters,
    start_remembering_outcomes,
)
from reflections.services.partitions import ensure_partitions
from reflections.services.rollups import max_event_id, refresh_rollup_after_import, shift_flows

MAX_TASK_ID = 255


def log_retrievals(
    results: Sequence[Retrieved],
    *,
    agent: str | Agent,
    task_id: str | None = None,
    at: datetime | None = None,
) -> int:
    """Write one retrieval event per result (rank from 1, in order) for ``agent`` (a name is
    created on first sight, masked when the scanner finds anything in it); returns how many
    events were new. Without a task id, the answer gets one of its own ("retrieval-<hex>")."""
    if not results:
        return 0
    at = at or timezone.now()
    task_id = (task_id or f"retrieval-{uuid.uuid4().hex}")[:MAX_TASK_ID]
    with transaction.atomic():
        lock_imports()
        if not isinstance(agent, Agent):
            name = agent_name(agent, safe_value(agent))
            agent = Agent.objects.get_or_create(name=name)[0]
        ensure_partitions(months=[at])  # the first answer of a month creates its partition
        first_new_event = max_event_id() + 1
        start_remembering_outcomes()
        RetrievalEvent.objects.bulk_create(
            [
                RetrievalEvent(
                    reflection_id=result.reflection.pk,
                    retrieved_at=at,
                    task_id=task_id,
                    agent=agent,
                    rank=position,
                    score=result.score,
                )
                for position, result in enumerate(results, start=1)
            ],
            ignore_conflicts=True,
        )
        created = RetrievalEvent.objects.filter(id__gte=first_new_event).count()
        if created:
            refresh_retrieval_counters(reflection_ids={r.reflection.pk for r in results})
            refresh_rollup_after_import(first_new_event, created)
            shift_flows(where="e.id >= %s", params=[first_new_event], sign=1)
        count_useful_after_import(first_new_event)
    return created
