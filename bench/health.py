"""The memory-health page against its own slowest query, measured in the same run.

Usage (a database already loaded by bench/run.py, e.g. 100,000 reflections / 10M events):

    .venv/bin/python bench/health.py [--db reflexion_bench] [--as-of 2026-11-21] [--runs 20]

Renders the page as a manager for one department and for all departments (Django test
client, the full view + template), then replays each SQL statement the page ran, alone, and
prints page p95 ÷ the slowest single statement: how far the page is from the cost of the one
query it cannot avoid (target ≤ 5).
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


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="reflexion_bench")
    parser.add_argument(
        "--server", default=os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    )
    parser.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 11, 21))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--department", help="slug (default: the one with most reflections)")
    parser.add_argument("--queries", action="store_true", help="list every query's time alone")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = f"{args.server}/{args.db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.db.models import Count
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from reflections.models import Reflection, RetrievalDay, RetrievalEvent

    setup_test_environment()  # the test client's host, and templates it can inspect
    call_command("migrate", verbosity=0)
    if not RetrievalDay.objects.exists():
        print("the rollup is empty: run manage.py refresh_rollup first")
        return
    print(
        f"{Reflection.objects.count():,} reflections, {RetrievalEvent.objects.count():,} events, "
        f"{RetrievalDay.objects.count():,} rollup rows"
    )
    user, _ = get_user_model().objects.get_or_create(username="bench-manager")
    user.groups.set([Group.objects.get(name="manager")])
    client = Client()
    client.force_login(user)
    slug = (
        args.department
        or (
            Reflection.objects.values_list("department__slug")
            .annotate(n=Count("id"))
            .order_by("-n")[0][0]
        )
    )
    pages = {
        f"one department ({slug})": reverse("reflections:health-department", args=[slug]),
        "all departments": reverse("reflections:health"),
    }
    query = {"as_of": args.as_of.isoformat()}
    for label, url in pages.items():
        assert client.get(url, query).status_code == 200  # warm caches
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            response = client.get(url, query)
            times.append(time.perf_counter() - started)
            assert response.status_code == 200
        with CaptureQueriesContext(connection) as ctx:
            client.get(url, query)
        alone = []
        # Replayed as the page runs them: in a transaction with JIT off (memory_health).
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL jit = off")
            for captured in ctx.captured_queries:
                if captured["sql"].split()[0].upper() in ("SET", "SAVEPOINT", "RELEASE"):
                    continue
                started = time.perf_counter()
                cursor.execute(captured["sql"])
                if cursor.description:
                    cursor.fetchall()
                alone.append((time.perf_counter() - started, captured["sql"]))
        slowest, slowest_sql = max(alone)
        if args.queries:
            for seconds, sql in alone:
                print(f"    {seconds * 1000:7.1f} ms  {' '.join(sql.split())[:110]}")
        p50, p95 = statistics.median(times), percentile(times, 95)
        print(
            f"{label}: p50 {p50 * 1000:.0f} ms · p95 {p95 * 1000:.0f} ms · "
            f"{len(ctx.captured_queries)} queries, {sum(t for t, _ in alone) * 1000:.0f} ms alone"
        )
        print(
            f"  slowest query alone {slowest * 1000:.0f} ms: {' '.join(slowest_sql.split())[:160]}"
        )
        ratio = p95 / slowest
        verdict = "ok" if ratio <= 5 else "ABOVE TARGET"
        print(f"  page p95 / slowest single query: {ratio:.2f}  (target ≤ 5) {verdict}")


if __name__ == "__main__":
    main()
