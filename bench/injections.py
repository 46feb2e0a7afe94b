"""What the reflection page and a queue step compute per request from the injections, timed
selector by selector in a read-only session (safe on a shared database: it never migrates and
writes nothing, its cache is a dummy so every call computes what a first view computes).

Usage (a database built by `make demo`'s steps, e.g. the large one):

    .venv/bin/python bench/injections.py --db reflexion_large [--reflections 30] [--runs 3]

Reflections: the most injected ones (the lift table's), and the items of the largest open
review cycle with their stored neighbours (what the duplicate guard reads on each step). For
each selector: p50 / p95 in ms over every call, and the statements it ran. Runs on the code
it is started from (or BENCH_CODE names), so two checkouts compare before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The code to time: this checkout, or another one (BENCH_CODE=/path/to/checkout: "before").
sys.path.insert(0, os.environ.get("BENCH_CODE", str(ROOT)))
sys.path.append(str(ROOT / "bench"))  # after the apps: bench/insights.py is a script

from common import DEFAULT_SERVER, percentile  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="reflexion_large")
    parser.add_argument("--reflections", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = f"{DEFAULT_SERVER}/{args.db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext, override_settings

    with override_settings(
        CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    ):
        with connection.cursor() as cursor:
            cursor.execute("SET default_transaction_read_only = on")
            cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        measure(args, connection, CaptureQueriesContext)


def measure(args, connection, CaptureQueriesContext) -> None:
    from django.contrib.auth import get_user_model

    from insights.selectors.usefulness import lift_table
    from reflections.models import Neighbour, Reflection
    from reflections.selectors import reflections as detail_selectors
    from reflections.selectors.injection_audit import weekly_injections
    from reflections.selectors.reflection_events import event_figures
    from reflections.selectors.reflections import reflection_detail
    from reviews.models import ReviewCycle, ReviewItem
    from reviews.selectors.evidence import lifts_by_reflection
    from reviews.selectors.originals import reflection_facts

    as_of = detail_selectors.parse_as_of(None)
    user = get_user_model().objects.get(username="manager-demo")
    injected = list(Reflection.objects.order_by("-injection_count", "id")[: args.reflections])
    cycle = ReviewCycle.objects.filter(closed_at__isnull=True).order_by("-size", "id").first()
    items = list(
        ReviewItem.objects.filter(cycle=cycle)
        .select_related("reflection", "cycle")
        .order_by("rank")[: args.reflections]
    )
    neighbours = {
        item.pk: [
            n.neighbour
            for n in Neighbour.objects.filter(reflection_id=item.reflection_id)
            .select_related("neighbour")
            .order_by("rank")
        ]
        for item in items
    }
    print(
        f"{args.db}: {len(injected)} most injected reflections "
        f"({injected[0].injection_count:,} … {injected[-1].injection_count:,} injections); "
        f"cycle {cycle.pk} ({cycle.department.slug} {cycle.quarter}), {len(items)} items"
    )
    cases = {
        "reflection_detail (whole, first view)": [
            (lambda r=r: reflection_detail(user=user, pk=r.pk)) for r in injected
        ],
        "  its event figures (event_figures)": [
            (lambda r=r: event_figures(r, r.agent_id, as_of)) for r in injected
        ],
        "  its injection audit (weekly_injections)": [
            (lambda r=r: weekly_injections(r)) for r in injected
        ],
        "queue lift (lifts_by_reflection, one item)": [
            (lambda i=i: lifts_by_reflection(cycle, [i.reflection_id])) for i in items
        ],
        "guard facts (reflection_facts, item + neighbours)": [
            (lambda i=i: reflection_facts(cycle, [i.reflection, *neighbours[i.pk]])) for i in items
        ],
        "usefulness lift table (lift_table)": [lambda: lift_table(department_ids=None)] * 5,
    }
    print(f"{'selector':52} {'p50 ms':>8} {'p95 ms':>8} {'queries':>8}")
    for name, calls in cases.items():
        times, queries = [], []
        for _ in range(args.runs):
            for call in calls:
                with CaptureQueriesContext(connection) as captured:
                    started = time.perf_counter()
                    call()
                    times.append((time.perf_counter() - started) * 1000)
                queries.append(
                    sum(
                        not q["sql"].lstrip().upper().startswith(("SET", "SAVEPOINT", "RELEASE"))
                        for q in captured.captured_queries
                    )
                )
        print(
            f"{name:52} {statistics.median(times):8.1f} {percentile(times, 95):8.1f} "
            f"{max(queries):8d}"
        )


if __name__ == "__main__":
    main()
