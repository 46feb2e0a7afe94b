"""What the page benchmarks share: Django on the bench database, manage.py commands against
it, percentiles, and replaying a request's SQL statement by statement to find the one query
it cannot avoid."""

from __future__ import annotations

import os
import subprocess
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


def manage(env: dict, *args: str) -> None:
    """`manage.py <args>` in a child process with `env` (its DATABASE_URL), its output
    discarded but for errors; a failure stops the bench."""
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


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


def _resident_kib(field: int, value: int) -> list[int]:
    """Resident memory (KiB) of each process whose /proc stat field `field` (after the name:
    1 the parent, 2 the process group) is `value`: Linux only, like the rest of the benches."""
    sizes = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[field]) != value:
                continue
            status = (stat.parent / "status").read_text()
        except (OSError, IndexError, ValueError):
            continue  # the process ended while it was read
        sizes.append(
            next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
        )
    return sizes


def children_rss_mib(parent: int) -> list[float]:
    """Resident memory (MiB) of each child process of `parent` (gunicorn's workers)."""
    return sorted(kib / 1024 for kib in _resident_kib(1, parent))


def group_rss_mib(group: int) -> float:
    """Resident memory (MiB) of every process of the process group `group` (the peer's)."""
    return sum(_resident_kib(2, group)) / 1024


def machine_busy_seconds() -> float:
    """CPU-seconds the whole machine has spent busy since boot (/proc/stat: every process,
    the database server's included, and any other job's). The difference over a timed step
    is the work it took: on N cores no schedule finishes it in under that ÷ N."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return (sum(ticks) - idle) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds() -> float:
    """CPU-seconds of this process's finished children and theirs (a command's parser workers
    are reaped by the command, so they count once it has ended)."""
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime
