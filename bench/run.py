"""Import benchmarks: our importers against a raw COPY of the same rows, measured in the same run.

Usage (PostgreSQL; the database named by --db is dropped and recreated):

    .venv/bin/python bench/run.py [--workspace bench/out/ws-large] [--scale large]
                                  [--db reflexion_bench] [--only reflections|retrievals]

Absolute times drift on these machines; the ratios are what we track (docs/architecture.md).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workspace", type=Path, default=ROOT / "bench/out/ws-large")
    parser.add_argument("--scale", default="large", choices=["small", "default", "large"])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--db", default="reflexion_bench")
    parser.add_argument(
        "--server", default=os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    )
    parser.add_argument("--only", choices=["reflections", "retrievals"])
    args = parser.parse_args()

    import psycopg

    with psycopg.connect(f"{args.server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{args.db}"')
    os.environ["DATABASE_URL"] = f"{args.server}/{args.db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    if not (args.workspace / "logs").is_dir():
        from demo.workspace import write_workspace

        print(f"generating the {args.scale} workspace in {args.workspace} …", flush=True)
        started = time.perf_counter()
        write_workspace(args.workspace, scale=args.scale, seed=args.seed)
        print(f"  generated in {time.perf_counter() - started:.0f} s", flush=True)

    results = []
    results.append(bench_reflections(args.workspace))
    if args.only != "reflections":
        results.append(bench_retrievals(args.workspace))

    print("\nresult                                   ours rows/s   COPY rows/s   ratio   target")
    for name, rows, ours, copy, target in results:
        ratio = (rows / ours) / (rows / copy)
        verdict = "ok" if ratio >= target else "BELOW TARGET"
        rates = f"{rows / ours:>11,.0f} {rows / copy:>13,.0f}"
        print(f"{name:<40} {rates} {ratio:>7.2f}   ≥{target} {verdict}")


def _copy_back(table: str, columns: list[str], select_sql: str) -> tuple[int, float]:
    """Dump rows with COPY TO, truncate, time a COPY FROM of the same bytes: the baseline.

    The dump is streamed as raw COPY text, so the baseline pays no Python per-row cost at all.
    """
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
    from reflections.services.reflection_import import REFLECTION_COLUMNS, import_reflections

    print("importing reflections (read, parse, hash, store) …", flush=True)
    started = time.perf_counter()
    summary = import_reflections(paths=[workspace], create_departments=True)
    ours = time.perf_counter() - started
    rows = summary.created
    print(f"  {rows:,} reflections in {ours:.1f} s, {len(summary.rejected)} rejected", flush=True)

    # Baseline: the same normalised rows, straight COPY into the same table.
    cols = list(REFLECTION_COLUMNS)
    n, copy = _copy_back_reflections(cols)
    print(f"  raw COPY of the same {n:,} rows: {copy:.1f} s", flush=True)
    # Put the history back so that the retrieval benchmark sees a normal database.
    return ("import 100k reflections (end to end)", rows, ours, copy, 0.2)


def _copy_back_reflections(cols: list[str]) -> tuple[int, float]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_reflection_rows AS SELECT * FROM reflections_reflection")
        cursor.execute(
            "CREATE TABLE bench_history_rows AS SELECT * FROM reflections_reflectionhistory"
        )
    n, seconds = _copy_back(
        "reflections_reflection", cols, f"SELECT {', '.join(cols)} FROM bench_reflection_rows"
    )
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO reflections_reflectionhistory SELECT * FROM bench_history_rows")
        cursor.execute("DROP TABLE bench_reflection_rows, bench_history_rows")
    return n, seconds


def bench_retrievals(workspace: Path):
    from reflections.services.event_import import RETRIEVAL_COLUMNS, import_events

    logs = sorted((workspace / "logs").glob("retrievals*.jsonl"))
    print(f"importing retrieval logs {[p.name for p in logs]} …", flush=True)
    started = time.perf_counter()
    summary = import_events(create_departments=True, paths=logs)
    ours = time.perf_counter() - started
    rows = summary.details["retrievals"]["created"]
    print(f"  {rows:,} retrievals in {ours:.1f} s, {len(summary.rejected)} rejected", flush=True)

    cols = list(RETRIEVAL_COLUMNS)
    from django.db import connection

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
    return ("import 10M retrieval events", rows, ours, copy, 0.5)


if __name__ == "__main__":
    main()
