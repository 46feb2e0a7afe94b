"""apply_policies against the plain SQL that computes the same decay states, in the same run.

Usage (a database already loaded by bench/import.py, e.g. 100,000 reflections / 10M events):

    .venv/bin/python bench/policies.py [--db reflexion_bench] [--as-of 2026-11-21] [--runs 3]

Each round resets decay states to active, times the plain SQL (the decay decision and the
state UPDATE as one statement, rolled back), then the full apply_policies (decay with
reasons, state UPDATE and history rows, then salience).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import DEFAULT_SERVER, setup_django

# The decay decision over raw events, as DECAY_SQL was before the rollup (no writes).
RAW_EVENTS_DECISION = """
WITH agg AS (
    SELECT reflection_id,
           SUM(CASE WHEN retrieved_at >= %(end)s::timestamptz - interval '30 days'
                    THEN 1 ELSE 0 END) AS n_window,
           MAX(retrieved_at) AS last_retrieved
    FROM reflections_retrievalevent
    WHERE retrieved_at < %(end)s
    GROUP BY reflection_id
)
SELECT r.id, CASE
           WHEN r.created_at < %(created_before)s AND COALESCE(a.n_window, 0) = 0 THEN 'archived'
           WHEN a.last_retrieved >= %(end)s::timestamptz - interval '7 days'
                AND a.n_window >= %(min_retrievals)s THEN 'promoted'
           ELSE 'active' END
FROM reflections_reflection r LEFT JOIN agg a ON a.reflection_id = r.id
WHERE r.state NOT IN ('deprecated', 'quarantined')
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="reflexion_bench")
    parser.add_argument("--server", default=DEFAULT_SERVER)
    parser.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 11, 21))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    setup_django(db=args.db, server=args.server)
    from django.db import connection, transaction

    from reflections.models import Reflection, RetrievalEvent
    from reflections.policies import DEFAULT_CONFIG
    from reflections.services.decay import decay_params, decay_sql
    from reflections.services.policy_runs import apply_policies

    print(f"{Reflection.objects.count():,} reflections, {RetrievalEvent.objects.count():,} events")
    # The baseline is what any implementation must do: decide every state in SQL and write
    # the changed ones, as one UPDATE (no reasons, no history, no salience).
    baseline_sql = (
        f"UPDATE reflections_reflection SET state = d.to_state FROM ({decay_sql()}) d "
        "WHERE reflections_reflection.id = d.id AND d.to_state <> d.from_state"
    )
    # For reference, the same decision as it was before the daily rollup: every raw event.
    raw_decision = RAW_EVENTS_DECISION
    ours, plain, decided, raw = [], [], [], []
    for _ in range(args.runs):
        with transaction.atomic():
            Reflection.objects.filter(state__in=["archived", "promoted"]).update(
                state="active", retention_archived_at=None
            )
        params = decay_params(args.as_of, DEFAULT_CONFIG)
        with connection.cursor() as cursor:  # warm caches
            cursor.execute(decay_sql(), params)
            cursor.fetchall()
        for sql, times in ((decay_sql(), decided), (raw_decision, raw)):
            started = time.perf_counter()
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                cursor.fetchall()
            times.append(time.perf_counter() - started)
        with transaction.atomic():
            started = time.perf_counter()
            with connection.cursor() as cursor:
                cursor.execute(baseline_sql, params)
            plain.append(time.perf_counter() - started)
            transaction.set_rollback(True)
        started = time.perf_counter()
        run = apply_policies(as_of=args.as_of)
        ours.append(time.perf_counter() - started)
        print(
            f"  plain SQL {plain[-1]:.2f} s · apply_policies {ours[-1]:.2f} s · "
            f"decision alone: rollup {decided[-1]:.2f} s, raw events {raw[-1]:.2f} s · {run.counts}"
        )
    ratio = statistics.median(ours) / statistics.median(plain)
    verdict = "ok" if ratio <= 3 else "ABOVE TARGET"
    print(f"apply_policies / plain SQL (medians): {ratio:.2f}  (target ≤ 3) {verdict}")
    print(
        "decay decision from raw events / from the rollup (medians): "
        f"{statistics.median(raw) / statistics.median(decided):.1f}"
    )


if __name__ == "__main__":
    main()
