"""Opening a review cycle and each queue step, against the single SQL query behind them.

Usage (a database loaded by bench/import.py, e.g. 100,000 reflections / 10M events):

    .venv/bin/python bench/reviews.py [--db reflexion_bench] [--as-of 2026-11-22] [--runs 3]
                                      [--steps 20] [--department SLUG]

* Opening: `open_cycle` (snapshot, 100 items dealt, all in one transaction) against the
  snapshot read alone: top 100 by retrievals in the 90-day window, ties to the more recently
  retrieved, then the lower id (the rollup's counts plus the exact last retrieval of the
  candidates), each run rolled back; and, for reference, the same ranking off the raw events.
* Queue steps: as a reviewer, GET an item page (reflection, retrieval series, lift,
  retrievers, neighbours with diffs, echo and outdated signals) and POST a verdict with htmx
  (records it and renders the next item), against the slowest single statement each step
  ran, replayed alone, and how many queries each step ran. With --prepare the cycle's evidence
  is prepared first, as the background task does when a cycle opens (timed apart); without
  it every step computes its item's evidence (and, from issue 14 on, stores it as it goes).
  Everything is rolled back at the end.
Neighbours must be computed (manage.py compute_neighbours); the script says so if not.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import percentile, replay_alone, setup_django, short_sql


class Rollback(Exception):
    pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="reflexion_bench")
    parser.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 11, 22))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--department", help="slug (default: the one with most reflections)")
    parser.add_argument("--prepare", action="store_true", help="prepare the evidence first")
    args = parser.parse_args()
    setup_django(db=args.db)

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import connection, transaction
    from django.db.models import Count
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from reflections.models import Department, Neighbour, Reflection, RetrievalEvent
    from reviews.policies import review_window
    from reviews.selectors.ranking import top_retrieved, top_retrieved_from_events
    from reviews.services.cycles import open_cycle

    print(
        f"{Reflection.objects.count():,} reflections, {RetrievalEvent.objects.count():,} events, "
        f"{Neighbour.objects.count():,} neighbour rows"
    )
    if not Neighbour.objects.exists():
        print("no neighbours: run manage.py compute_neighbours first")
        return
    slug = (
        args.department
        or (
            Reflection.objects.values_list("department__slug")
            .annotate(n=Count("id"))
            .order_by("-n")[0][0]
        )
    )
    department = Department.objects.get(slug=slug)
    reviewer, _ = get_user_model().objects.get_or_create(username="bench-reviewer")
    reviewer.groups.set([Group.objects.get(name="reviewer")])
    reviewer.departments.add(department)
    quarter = "2099Q1"  # a quarter no real cycle uses; every run is rolled back
    window = review_window(quarter, starts_on=args.as_of)

    # -- opening ------------------------------------------------------------------------------
    sql_times, open_times, raw_times = [], [], []
    for _ in range(args.runs):
        started = time.perf_counter()
        rows = top_retrieved(department=department, start=window.start, end=window.end, size=100)
        sql_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        raw = top_retrieved_from_events(
            department=department, start=window.start, end=window.end, size=100
        )
        raw_times.append(time.perf_counter() - started)
        assert raw == rows, "the rollup snapshot must rank exactly like the raw events"
        try:
            with transaction.atomic():
                started = time.perf_counter()
                cycle = open_cycle(
                    department=department,
                    quarter=quarter,
                    reviewers=[reviewer],
                    starts_on=args.as_of,
                )
                open_times.append(time.perf_counter() - started)
                raise Rollback
        except Rollback:
            pass
    sql_med, open_med = statistics.median(sql_times), statistics.median(open_times)
    print(
        f"open a cycle ({slug}, {len(rows)} items, window {window.start:%Y-%m-%d} to "
        f"{window.end:%Y-%m-%d}): {open_med * 1000:.0f} ms vs snapshot query alone "
        f"{sql_med * 1000:.0f} ms → ratio {open_med / sql_med:.2f}"
    )
    raw_med = statistics.median(raw_times)
    print(
        f"  the same ranking from the raw events: {raw_med * 1000:.0f} ms "
        f"({raw_med / sql_med:.1f} times the rollup read; identical rows)"
    )

    # -- queue steps --------------------------------------------------------------------------
    client = Client()
    client.force_login(reviewer)
    get_times, post_times, get_ratio, post_ratio = [], [], [], []
    get_queries, post_queries = [], []
    slowest_seen: tuple[float, str] = (0.0, "")
    try:
        with transaction.atomic():
            cycle = open_cycle(
                department=department, quarter=quarter, reviewers=[reviewer], starts_on=args.as_of
            )
            if args.prepare:
                from reviews.services.evidence import prepare_cycle

                started = time.perf_counter()
                prepared = prepare_cycle(cycle)
                print(
                    f"prepare the cycle's evidence ({prepared} items): "
                    f"{(time.perf_counter() - started) * 1000:.0f} ms"
                )
            ranks = list(cycle.items.order_by("rank").values_list("rank", flat=True))
            client.get(reverse("reviews:item", args=[cycle.pk, ranks[0]]))  # warm
            for rank in ranks[: args.steps]:
                url = reverse("reviews:item", args=[cycle.pk, rank])
                with CaptureQueriesContext(connection) as ctx:
                    started = time.perf_counter()
                    response = client.get(url)
                    elapsed = time.perf_counter() - started
                assert response.status_code == 200, response.status_code
                alone = max(replay_alone(ctx.captured_queries))
                get_times.append(elapsed)
                get_queries.append(len(ctx.captured_queries))
                get_ratio.append(elapsed / alone[0])
                slowest_seen = max(slowest_seen, alone)
                version = cycle.items.get(rank=rank).version
                with CaptureQueriesContext(connection) as ctx:
                    started = time.perf_counter()
                    response = client.post(
                        reverse("reviews:decide", args=[cycle.pk, rank]),
                        {"verdict": "keep", "version": version},
                        headers={"HX-Request": "true"},
                    )
                    elapsed = time.perf_counter() - started
                assert response.status_code == 200, response.status_code
                # Replaying writes again would conflict: time only the reads of the step.
                reads = [q for q in ctx.captured_queries if q["sql"].lstrip().startswith("SELECT")]
                alone = max(replay_alone(reads))
                post_times.append(elapsed)
                post_queries.append(len(ctx.captured_queries))
                post_ratio.append(elapsed / alone[0])
                slowest_seen = max(slowest_seen, alone)
            raise Rollback
    except Rollback:
        pass
    for label, times, ratios, queries in (
        ("item page (GET)", get_times, get_ratio, get_queries),
        ("verdict + next item (htmx POST)", post_times, post_ratio, post_queries),
    ):
        print(
            f"{label}: p50 {statistics.median(times) * 1000:.0f} ms · "
            f"p95 {percentile(times, 95) * 1000:.0f} ms over {len(times)} items · "
            f"queries median {statistics.median(queries):.0f} max {max(queries)} · "
            f"ratio to its slowest single query p50 {statistics.median(ratios):.1f} "
            f"p95 {percentile(ratios, 95):.1f}"
        )
    print(
        f"  slowest single query seen {slowest_seen[0] * 1000:.1f} ms: {short_sql(slowest_seen[1])}"
    )


if __name__ == "__main__":
    main()
