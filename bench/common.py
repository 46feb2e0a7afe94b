"""What the page benchmarks share: Django on the bench database, percentiles, and replaying a
request's SQL statement by statement to find the one query it cannot avoid."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SERVER = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")


def setup_django(*, db: str, server: str = DEFAULT_SERVER) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"{server}/{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host, and templates it can inspect
    call_command("migrate", verbosity=0)


def fetch_rows(url: str, sql: str, params: tuple = ()) -> list[tuple]:
    """The rows of one query on the database at `url` (psycopg, outside Django)."""
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(sql, params).fetchall()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


CONTROL = ("SET", "SAVEPOINT", "RELEASE", "ROLLBACK")


def replay_alone(captured_queries: list[dict]) -> list[tuple[float, str]]:
    """Each captured statement run again on its own: (seconds, sql), in capture order.

    Replayed as the request ran them, in one transaction that is rolled back afterwards (writes
    leave no trace): session statements such as a page's `SET LOCAL jit = off` and savepoints
    are executed too, so the statements after them see the same settings, but not timed."""
    from django.db import connection, transaction

    timed = []
    with transaction.atomic(), connection.cursor() as cursor:
        for captured in captured_queries:
            sql = captured["sql"]
            started = time.perf_counter()
            cursor.execute(sql)
            if cursor.description:
                cursor.fetchall()
            if not sql.lstrip().upper().startswith(CONTROL):
                timed.append((time.perf_counter() - started, sql))
        transaction.set_rollback(True)
    return timed


def short_sql(sql: str, limit: int = 160) -> str:
    return " ".join(sql.split())[:limit]


def children_rss_mib(parent: int) -> list[float]:
    """Resident memory (MiB) of each child process of `parent` (gunicorn's workers), from
    /proc: Linux only, like the rest of the benches."""
    sizes = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) != parent:
                continue
            status = (stat.parent / "status").read_text()
        except (OSError, IndexError, ValueError):
            continue  # the process ended while it was read
        kib = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))
        sizes.append(kib / 1024)
    return sorted(sizes)
