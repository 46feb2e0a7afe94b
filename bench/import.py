"""Import speed: our importer against a raw COPY of the same rows, and against the peer's rate.

For each workspace (the `default` and the `large` demo scale unless --workspace is given), a
fresh PostgreSQL database is created, the workspace is imported end to end (walk, read, parse,
scan, hash, store, history) and then the very same rows are dumped with COPY TO and timed going
back in with COPY FROM into the same table with its indexes: the baseline pays no Python cost at
all. Both are measured in the same run; absolute times drift on these machines, the ratio is
what we track. The peer's rate (Label Studio 1.23.2 importing the same files' texts on this
machine kind, 2,649 rows/s, issue 16) is a figure from outside this run: it is printed for
comparison, as ours ÷ peer.

Usage:

    .venv/bin/python bench/import.py [--scale default large] [--workspace DIR ...]
                                     [--db reflexion_bench] [--events]

Workspaces are generated under bench/out/ws-<scale> the first time (the large one takes a few
minutes). --events also times the retrieval log of each workspace against COPY. The database
is left holding the last workspace (bench/paging.py reads it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PEER_ROWS_PER_SECOND = 2649  # Label Studio 1.23.2, default install, same machine kind (issue 16)
TARGET_COPY_RATIO = 0.5


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", nargs="+", default=["default", "large"])
    parser.add_argument("--workspace", type=Path, nargs="+", help="instead of --scale")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--db", default="reflexion_bench")
    parser.add_argument(
        "--server", default=os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    )
    parser.add_argument("--events", action="store_true", help="also the retrieval log")
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = f"{args.server}/{args.db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()

    workspaces = args.workspace or [_workspace(scale, args.seed) for scale in args.scale]
    results = []
    for workspace in workspaces:
        _fresh_database(args.server, args.db)
        results.append(bench_reflections(workspace))
        if args.events:
            results.append(bench_retrievals(workspace))

    print(
        f"\n{'result':<44} {'rows':>9} {'ours rows/s':>12} {'COPY rows/s':>12} "
        f"{'÷ COPY':>7} {'÷ peer':>7}"
    )
    for name, rows, ours, copy in results:
        ratio = copy / ours
        verdict = "ok" if ratio >= TARGET_COPY_RATIO else "BELOW TARGET"
        peer = f"{rows / ours / PEER_ROWS_PER_SECOND:>7.2f}" if "reflections" in name else "      -"
        print(
            f"{name:<44} {rows:>9,} {rows / ours:>12,.0f} {rows / copy:>12,.0f} "
            f"{ratio:>7.2f} {peer}   (÷ COPY ≥ {TARGET_COPY_RATIO}: {verdict})"
        )
    print(f"peer: {PEER_ROWS_PER_SECOND:,} rows/s (Label Studio 1.23.2, measured outside this run)")


def _workspace(scale: str, seed: int) -> Path:
    path = ROOT / f"bench/out/ws-{scale}"
    if not (path / "logs").is_dir():
        from demo.workspace import write_workspace

        print(f"generating the {scale} workspace in {path} …", flush=True)
        started = time.perf_counter()
        write_workspace(path, scale=scale, seed=seed)
        print(f"  generated in {time.perf_counter() - started:.0f} s", flush=True)
    return path


def _fresh_database(server: str, db: str) -> None:
    import psycopg
    from django.db import connection

    connection.close()
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{db}"')
    # In a process of its own, as for a user: the timed process then holds what an import
    # command holds, not the migrations' hundreds of thousands of objects.
    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "migrate", "--verbosity", "0"],
        check=True,
        env={**os.environ, "DATABASE_URL": f"{server}/{db}"},
    )
    _checkpoint()


def _checkpoint() -> None:
    """Flush what came before to disk, so that neither timed phase pays for the other's (or
    the migrations') dirty pages."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CHECKPOINT")


def _copy_back(table: str, columns: list[str], select_sql: str) -> tuple[int, float]:
    """Dump rows with COPY TO, truncate, time a COPY FROM of the same bytes: the baseline."""
    import tempfile

    from django.db import connection, transaction

    cols = ", ".join(columns)
    with tempfile.TemporaryFile() as dump:
        with connection.cursor() as cursor:
            with cursor.cursor.copy(f"COPY ({select_sql}) TO STDOUT") as copy:
                for block in copy:
                    dump.write(block)
            cursor.execute(f"SELECT count(*) FROM ({select_sql}) q")
            n = cursor.fetchone()[0]
            cursor.execute(f"TRUNCATE {table} CASCADE")
        dump.seek(0)
        _checkpoint()
        started = time.perf_counter()
        with (
            transaction.atomic(),
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {table} ({cols}) FROM STDIN") as copy,
        ):
            while block := dump.read(1 << 20):
                copy.write(block)
        return n, time.perf_counter() - started


def bench_reflections(workspace: Path):
    from reflections.management.commands._output import progress_bar
    from reflections.services.reflection_import import REFLECTION_COLUMNS, import_reflections

    print(f"importing the reflections of {workspace} …", flush=True)
    bar = progress_bar(enabled=sys.stderr.isatty(), unit="file")
    started = time.perf_counter()
    summary = import_reflections(
        paths=[workspace],
        create_departments=True,
        progress_total=lambda n: bar.reset(total=n),
        progress=bar.update,
    )
    ours = time.perf_counter() - started
    bar.close()
    rows = summary.created
    print(f"  {rows:,} reflections in {ours:.1f} s, {len(summary.rejected)} rejected", flush=True)

    from django.db import connection

    cols = list(REFLECTION_COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_reflection_rows AS SELECT * FROM reflections_reflection")
        cursor.execute(
            "CREATE TABLE bench_history_rows AS SELECT * FROM reflections_reflectionhistory"
        )
    n, copy = _copy_back(
        "reflections_reflection", cols, f"SELECT {', '.join(cols)} FROM bench_reflection_rows"
    )
    with connection.cursor() as cursor:
        # Put the history back so that what runs next sees a normal database.
        cursor.execute("INSERT INTO reflections_reflectionhistory SELECT * FROM bench_history_rows")
        cursor.execute("DROP TABLE bench_reflection_rows, bench_history_rows")
    print(f"  raw COPY of the same {n:,} rows: {copy:.1f} s", flush=True)
    return (f"reflections of {workspace.name}", rows, ours, copy)


def bench_retrievals(workspace: Path):
    from reflections.services.event_import import RETRIEVAL_COLUMNS, import_events

    logs = sorted((workspace / "logs").glob("retrievals*.jsonl"))
    print(f"importing retrieval logs {[p.name for p in logs]} …", flush=True)
    started = time.perf_counter()
    summary = import_events(create_departments=True, paths=logs)
    ours = time.perf_counter() - started
    rows = summary.details["retrievals"]["created"]
    print(f"  {rows:,} retrievals in {ours:.1f} s, {len(summary.rejected)} rejected", flush=True)

    from django.db import connection

    cols = list(RETRIEVAL_COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE bench_retrieval_rows AS SELECT {', '.join(cols)} "
            "FROM reflections_retrievalevent"
        )
    n, copy = _copy_back(
        "reflections_retrievalevent", cols, f"SELECT {', '.join(cols)} FROM bench_retrieval_rows"
    )
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE bench_retrieval_rows")
    print(f"  raw COPY of the same {n:,} rows: {copy:.1f} s", flush=True)
    return (f"retrieval events of {workspace.name}", rows, ours, copy)


if __name__ == "__main__":
    main()
