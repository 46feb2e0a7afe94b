"""apply_policies against the plain SQL that computes the same decay states, in the same run.

Usage (a database already loaded by bench/run.py, e.g. 100,000 reflections / 10M events):

    .venv/bin/python bench/policies.py [--db reflexion_bench] [--as-of 2026-11-21] [--runs 3]

Each round resets decay states to active, times the plain SQL (the decay decision and the
state UPDATE as one statement, rolled back), then the full apply_policies (decay with
reasons, state UPDATE and history rows, then salience).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="reflexion_bench")
    parser.add_argument(
        "--server", default=os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    )
    parser.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 11, 21))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = f"{args.server}/{args.db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction

    from reflections.models import Reflection, RetrievalEvent
    from reflections.policies import DEFAULT_CONFIG
    from reflections.services_policies import DECAY_SQL, apply_policies, decay_decisions

    call_command("migrate", verbosity=0)
    print(f"{Reflection.objects.count():,} reflections, {RetrievalEvent.objects.count():,} events")
    # The baseline is what any implementation must do: decide every state in SQL and write
    # the changed ones, as one UPDATE (no reasons, no history, no salience).
    decided = DECAY_SQL.format(
        events="reflections_retrievalevent", reflections="reflections_reflection", where=""
    )
    baseline_sql = (
        f"UPDATE reflections_reflection SET state = d.to_state FROM ({decided}) d "
        "WHERE reflections_reflection.id = d.id AND d.to_state <> d.from_state"
    )
    ours, plain = [], []
    for _ in range(args.runs):
        with transaction.atomic():
            Reflection.objects.filter(state__in=["archived", "promoted"]).update(
                state="active", retention_archived_at=None
            )
        # Same parameters decay_decisions would pass.
        decay_decisions(as_of=args.as_of, config=DEFAULT_CONFIG)  # warm caches
        from reflections.services_policies import _param, boundaries

        b = boundaries(args.as_of, DEFAULT_CONFIG)
        params = {
            "end": _param(b.end),
            "promote_since": _param(b.promote_window_since),
            "idle_since": _param(b.idle_since),
            "recent_since": _param(b.recent_since),
            "created_before": _param(b.created_before),
            "min_retrievals": DEFAULT_CONFIG.promote_min_retrievals,
            "active": "active",
            "promoted": "promoted",
            "archived": "archived",
            "deprecated": "deprecated",
            "quarantined": "quarantined",
        }
        with transaction.atomic():
            started = time.perf_counter()
            with connection.cursor() as cursor:
                cursor.execute(baseline_sql, params)
            plain.append(time.perf_counter() - started)
            transaction.set_rollback(True)
        started = time.perf_counter()
        run = apply_policies(as_of=args.as_of)
        ours.append(time.perf_counter() - started)
        print(f"  plain SQL {plain[-1]:.2f} s · apply_policies {ours[-1]:.2f} s · {run.counts}")
    ratio = statistics.median(ours) / statistics.median(plain)
    verdict = "ok" if ratio <= 3 else "ABOVE TARGET"
    print(f"apply_policies / plain SQL (medians): {ratio:.2f}  (target ≤ 3) {verdict}")


if __name__ == "__main__":
    main()
