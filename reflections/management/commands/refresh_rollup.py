"""Rebuild the retrieval rollups (RetrievalDay, RetrievalFlowDay) and the useful-retrieval
counters from the raw retrieval events, the injection counters and the injected tasks' outcomes
per day (InjectionOutcomeDay) from the injections, and the task outcomes per day
(TaskOutcomeDay) from the task runs, the active-set changes
(ActiveSetChange) from the state history."""

import json
import time
from dataclasses import asdict
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from reflections.services.active_set import refresh_active_set
from reflections.services.batches import quote_value
from reflections.services.counters import (
    refresh_injection_counters,
    refresh_injection_finish_times,
    refresh_useful_counters,
)
from reflections.services.injection_rollup import refresh_injection_outcome_days
from reflections.services.maintenance import vacuum_rewritten
from reflections.services.rollups import (
    recount_from,
    refresh_retrieval_flows,
    refresh_retrieval_rollup,
)
from reflections.services.task_rollup import refresh_task_outcome_days


def _since(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(
            f"--since must be a date like 2026-05-31, not {quote_value(value)}"
        ) from None


class Command(BaseCommand):
    help = (
        "Recount the per-day retrieval and task-outcome rollups: every day, or from --since on; "
        "without --since, also every reflection's useful-retrieval and injection counts."
    )

    def add_arguments(self, parser):
        parser.add_argument("--since", type=_since, help="only UTC days on or after this date")
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="print JSON for machines"
        )

    def handle(self, *args, since, as_json, **options):
        started = time.perf_counter()
        result = refresh_retrieval_rollup(since=since)
        flow_rows = refresh_retrieval_flows(since=since)
        task_rows = refresh_task_outcome_days(since=since)
        # The reflection page's copy of each injected run's time.
        finish_times_changed = refresh_injection_finish_times(since=since)
        injection_days_changed = refresh_injection_outcome_days(since=since)
        # Membership changes depend on every earlier state: always recounted whole.
        active_set_rows = refresh_active_set()
        # The counters are all-time: a recount from a day on has nothing to limit them to.
        useful_changed = refresh_useful_counters() if since is None else None
        injections_changed = refresh_injection_counters() if since is None else None
        vacuum_rewritten()
        seconds = time.perf_counter() - started
        if as_json:
            self.stdout.write(
                json.dumps(
                    {
                        "since": since and since.isoformat(),
                        **asdict(result),
                        "flow_rows": flow_rows,
                        "task_outcome_rows": task_rows,
                        "injection_days_changed": injection_days_changed,
                        "active_set_rows": active_set_rows,
                        "useful_changed": useful_changed,
                        "injections_changed": injections_changed,
                        "injection_finish_times_changed": finish_times_changed,
                        "seconds": seconds,
                    }
                )
            )
            return
        scope = f"days from {since.isoformat()} on" if since else "every day"
        kept = recount_from(since)
        if kept != since:
            scope = f"days from {kept.isoformat()} on (the events before were pruned; "
            scope += "their days are kept)"
        self.stdout.write(
            f"Retrieval rollup recounted for {scope} in {seconds:.1f} s: {result.rows:,} rows; "
            f"{result.inserted:,} inserted, {result.updated:,} updated, {result.deleted:,} deleted"
        )
        self.stdout.write(f"Department flows: {flow_rows:,} rows")
        self.stdout.write(f"Task outcomes per day: {task_rows:,} rows")
        self.stdout.write(f"Injected-task outcomes per day corrected: {injection_days_changed:,}")
        self.stdout.write(f"Active-set changes: {active_set_rows:,} rows")
        if useful_changed is not None:
            self.stdout.write(f"Useful-retrieval counts corrected: {useful_changed:,}")
        if injections_changed is not None:
            self.stdout.write(f"Injection counts corrected: {injections_changed:,}")
        self.stdout.write(f"Injection finish times corrected: {finish_times_changed:,}")
