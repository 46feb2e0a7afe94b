"""Bulk actions of 100 items in one request, against the reflection list measured in the same run.

Usage (PostgreSQL; a demo database built by `make demo` with DATABASE_URL pointing at it):

    .venv/bin/python bench/bulk.py [--db reflexion_loaddemo] [--rounds 10] [--items 100]

As the demo's reviewer, in one process with Django's test client: each round GETs the
reflection list four times, then POSTs (confirmed) a bulk "keep" of the first --items items
of the reviewer's first open cycle, and a bulk "duplicate of" of as many items with the item
before them as the original (the duplicate guard's warnings confirmed), each inside a
transaction rolled back afterwards, so every round acts on the same items and the demo is left
as it was (the tables the rounds wrote are vacuumed at the end). Prints p50 and p95 of each
and p95 ÷ the list's p95 (issue 29: ≤ 3), and the statements each bulk request ran.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import percentile, setup_django  # bench/ is not a package

TARGET = 3.0
DIRTIED = (
    "reviews_reviewitem",
    "reviews_decision",
    "reviews_reviewbatch",
    "reflections_reflection",
    "reflections_reflectionhistory",
    "reflections_activesetchange",
)


class RolledBack(Exception):
    pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="reflexion_loaddemo")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--items", type=int, default=100)
    args = parser.parse_args()
    setup_django(db=args.db)

    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from reviews.models import ReviewCycle

    reviewer = get_user_model().objects.get(username="reviewer-demo")
    client = Client()
    client.force_login(reviewer)
    cycle = (
        ReviewCycle.objects.filter(closed_at__isnull=True, items__reviewer=reviewer)
        .distinct()
        .order_by("pk")
        .first()
    )
    if cycle is None:
        raise SystemExit("reviewer-demo has no item in an open cycle: run `make demo` first")
    items = list(cycle.items.filter(reviewer=reviewer).order_by("rank")[: args.items + 1])
    original, marked = items[0], [i.rank for i in items[1:]]
    forms = {
        "bulk keep": {"action": "keep", "ranks": [i.rank for i in items[: args.items]]},
        "bulk duplicate of": {
            "action": "duplicate",
            "ranks": marked,
            "duplicate_of": original.reflection_id,
            "guard_confirmed": "1",
        },
    }
    print(
        f"database {args.db}, cycle {cycle}, {len(forms['bulk keep']['ranks'])} items a request, "
        f"{args.rounds} rounds"
    )
    url = f"/reviews/{cycle.pk}/bulk/"
    timings: dict[str, list[float]] = {"reflection list": [], **{name: [] for name in forms}}
    statements: dict[str, int] = {}
    client.get("/reflections/")  # imports, connection, caches: not counted
    gc.collect()  # then freeze what exists, as each gunicorn worker does once started
    gc.freeze()  # (gunicorn.conf.py post_worker_init)
    for _ in range(args.rounds):
        for _ in range(4):
            started = time.perf_counter()
            client.get("/reflections/")
            timings["reflection list"].append(time.perf_counter() - started)
        for name, form in forms.items():
            try:
                with transaction.atomic(), CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    response = client.post(url, {**form, "select": "hand", "confirm": "on"})
                    timings[name].append(time.perf_counter() - started)
                    if response.status_code != 302:
                        raise SystemExit(f"{name}: answered {response.status_code}, not 302")
                    raise RolledBack
            except RolledBack:
                statements[name] = len(queries)

    # Rolled back, the rounds still left their rows' dead versions behind (every round rewrote
    # the same hundred items, reflections and their history): vacuumed, so that a bench run
    # next on this database (bench/load.py) does not read a review table twenty times its size.
    with connection.cursor() as cursor:
        for table in DIRTIED:
            cursor.execute(f"VACUUM (ANALYZE) {table}")

    base = percentile(timings["reflection list"], 95)
    header = f"{'request':<20} {'n':>3} {'p50 ms':>8} {'p95 ms':>8} {'p95/list':>9}"
    print(f"{header} {'statements':>11}")
    for name, values in timings.items():
        p95 = percentile(values, 95)
        print(
            f"{name:<20} {len(values):>3} {statistics.median(values) * 1000:>8.0f} "
            f"{p95 * 1000:>8.0f} {p95 / base:>9.2f} {statements.get(name, ''):>11}"
        )
    worst = max(percentile(timings[name], 95) / base for name in forms)
    verdict = "met" if worst <= TARGET else "NOT MET"
    print(f"bulk p95 ÷ list p95 ≤ {TARGET}: {verdict} (worst {worst:.2f})")


if __name__ == "__main__":
    main()
