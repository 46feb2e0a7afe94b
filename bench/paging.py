"""Deep pages cost what page 1 costs: the reflection list's last page against its first.

For each sort (and one department), the first page, a page deep in the middle (a jump) and
the last page are rendered in turn; then the reflection page's long tables (the retrievals of
the most retrieved reflection, the injections of the most injected), their first page and
their last as "Older" fetches them (htmx rows). Interleaved, as a manager through Django's
test client; the p95 of each is printed with its ratio to the first page's p95 in the same
run (target: last ÷ first ≤ 1.5). Run it on a database loaded by bench/import.py (the large
workspace).

Usage:

    .venv/bin/python bench/paging.py [--db reflexion_bench] [--runs 30]
"""

from __future__ import annotations

import argparse
import time

from common import DEFAULT_SERVER, percentile, setup_django

TARGET = 1.5
HTMX = {"HTTP_HX_REQUEST": "true"}  # the list's results and the tables' rows, as swapped in


def _list_pages(query: str, middle) -> dict[str, str]:
    pages = {
        "first": f"/reflections/?{query}",
        "middle": f"/reflections/?{query}&from={middle:%Y-%m-%d}" if not query else None,
        "last": f"/reflections/?{query}&last=1",
    }
    return {k: v for k, v in pages.items() if v}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", default="reflexion_bench")
    parser.add_argument("--server", default=DEFAULT_SERVER)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    setup_django(db=args.db, server=args.server)

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import connection
    from django.db.models import Count
    from django.test import Client

    from reflections.models import Reflection, RetrievalEvent, TaskInjection
    from reflections.selectors.reflection_events import INJECTION_PAGE, RETRIEVAL_PAGE
    from reflexion_site import keyset

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE reflections_reflection")
    total = Reflection.objects.count()
    user, _ = get_user_model().objects.get_or_create(username="bench-manager")
    user.groups.set([Group.objects.get(name="manager")])
    client = Client()
    client.force_login(user)
    slug = (
        Reflection.objects.values_list("department__slug")
        .annotate(n=Count("id"))
        .order_by("-n")[0][0]
    )
    middle = Reflection.objects.order_by("created_at").values_list("created_at", flat=True)[
        total // 2
    ]
    lists = {
        "newest first": "",
        "most retrieved": "sort=-retrieval_count",
        "recently retrieved": "sort=-last_retrieved_at",
        f"department {slug}": f"department={slug}",
    }
    lists = {name: _list_pages(query, middle) for name, query in lists.items()}
    retrieved = Reflection.objects.order_by("-retrieval_count").first()
    injected = Reflection.objects.order_by("-injection_count").first()
    for name, reflection, kind, rows, keys in (
        ("retrievals", retrieved, "retrievals", RetrievalEvent, ("retrieved_at", "id")),
        ("injections", injected, "injections", TaskInjection, ("finished_at", "id")),
    ):
        mine = rows.objects.filter(reflection=reflection).order_by(*(f"-{k}" for k in keys))
        n = mine.count()
        if not n:  # a database of reflections only (bench/import.py leaves one)
            continue
        # The cursor "Older" would carry to the last page: the row just before it.
        size = RETRIEVAL_PAGE if kind == "retrievals" else INJECTION_PAGE
        before_last = mine.values_list(*keys)[max((n - 1) // size * size - 1, 0)]
        url = f"/reflections/{reflection.pk}/{kind}/"
        lists[f"{name} of #{reflection.pk} ({n:,})"] = {
            "first": url,
            "last": f"{url}?after={keyset.cursor_of(list(before_last))}",
        }
    print(f"{total:,} reflections; {args.runs} renders of each page, interleaved")
    print(f"\n{'list':<28} {'page':<8} {'p50 ms':>8} {'p95 ms':>8} {'÷ first p95':>12}")
    worst = 0.0
    for name, pages in lists.items():
        times: dict[str, list[float]] = {k: [] for k in pages}
        for url in pages.values():  # warm the caches once
            assert client.get(url, **HTMX).status_code == 200, url
        for _ in range(args.runs):
            for page, url in pages.items():
                started = time.perf_counter()
                client.get(url, **HTMX)
                times[page].append(time.perf_counter() - started)
        first = percentile(times["first"], 95)
        for page, values in times.items():
            p95 = percentile(values, 95)
            ratio = p95 / first
            if page == "last":
                worst = max(worst, ratio)
            print(
                f"{name:<28} {page:<8} {percentile(values, 50) * 1000:>8.1f} "
                f"{p95 * 1000:>8.1f} {ratio:>12.2f}"
            )
    verdict = "ok" if worst <= TARGET else "ABOVE TARGET"
    print(f"\nworst last ÷ first p95: {worst:.2f} (target ≤ {TARGET}: {verdict})")


if __name__ == "__main__":
    main()
