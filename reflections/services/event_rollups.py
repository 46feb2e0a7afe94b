"""What an event import brings up to date once its rows are in, inside its transaction: the
statistics of the tables it filled, the reflections' counters, the day rollups and flows, and
the task outcome days (reflections.services.event_import)."""

from __future__ import annotations

from collections.abc import Iterable

from reflections.caching import EVENTS, MEMORY, bump_data_version
from reflections.models import RetrievalEvent, TaskInjection, TaskRun
from reflections.services.counters import add_retrieval_counts, count_useful_after_import
from reflections.services.maintenance import analyze_filled
from reflections.services.rollups import refresh_rollup_after_import, shift_flows
from reflections.services.task_rollup import refresh_task_outcome_days


def after_events_imported(
    first_new_event: int,
    *,
    retrievals: int,
    tasks_created: int,
    tasks_changed: int,
    task_pairs: Iterable[tuple[int, str]],
) -> None:
    """Everything that reads the events from `first_new_event` on and the tasks of
    `task_pairs` (department, task type), given how many were created or changed."""
    # The statements below read what was just written: planned on statistics that count it.
    analyze_filled(
        {RetrievalEvent: retrievals, TaskRun: tasks_created, TaskInjection: tasks_created}
    )
    if retrievals:
        add_retrieval_counts(first_new_event)
        refresh_rollup_after_import(first_new_event, retrievals)
        shift_flows(where="e.id >= %s", params=[first_new_event], sign=1)
    count_useful_after_import(first_new_event)
    if tasks_changed:
        refresh_task_outcome_days(pairs=task_pairs)
    bump_data_version(MEMORY, EVENTS)  # cached figures read the events' rollups
