"""Import speed: our import command against a raw COPY of the same rows, and against the peer
(Label Studio) importing the same texts in the same run.

For each workspace (the `default` and the `large` demo scale, --files N reflection files drawn
evenly from the large one, or --workspace DIRS), each round creates a fresh PostgreSQL database
(migrated in a process of its own, untimed) and times ours end to end as a user runs it: the
`manage.py import_reflections DIR --create-departments` process from its start to its exit
(Django's start-up, walk, read, parse, scan, hash, store, history, the vacuum after). The very
same rows are then dumped with COPY TO and timed going back in with COPY FROM into the same
table with its indexes: the baseline pays no Python cost at all. The machine's busy CPU-seconds
during each (/proc/stat) give the best ÷ COPY the work ours did could reach on these cores, and
the command's own CPU-seconds (its and its parser workers' rusage) split ours' into the Python
side and the database's.

With --peer, bench/peer.py starts Label Studio 1.23.2 on loopback (its own venv and data dir
under bench/out/, installed on first use) and each round of ours is followed by the peer
importing the body text of every reflection file of the same workspace (read by our own
parsers, untimed) through its HTTP API, timed from the upload until the project counts every
task: ours, peer, ours, peer, … (--rounds, 2 by default), so both see the same machine at the
same time. It prints rows/s of each, ours ÷ peer per round and their median. Absolute times
drift on these shared machines; the ratios measured side by side are what we track. Without
--peer no peer figure is printed. With --sqlite each round also times ours into a fresh
SQLite database (the project's zero-setup default, and the peer's own), after the COPY and
before the peer, and prints ours ÷ peer for it: with the peer on SQLite too (its default),
both store into the same engine.

Usage:

    .venv/bin/python bench/import.py [--scale default large | --files 10000 | --workspace DIR ...]
                                     [--peer] [--peer-db sqlite|postgresql] [--rounds 2]
                                     [--db reflexion_bench] [--events] [--sqlite]

Workspaces are generated under bench/out/ws-<scale> the first time (the large one takes ten
minutes). --events also times the retrieval log of each workspace against COPY, in process.
The database is left holding the last workspace (bench/paging.py reads it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench/out"
sys.path.insert(0, str(ROOT))
from common import children_cpu_seconds, machine_busy_seconds  # noqa: E402 (bench/common.py)
from workspaces import sampled_workspace, workspace  # noqa: E402 (bench/workspaces.py)

TARGET_COPY_RATIO = 0.8  # issue 29: end to end at least 0.8 of COPY of the same rows
TARGET_PEER_RATIO = 1.0  # issue 29: ≥ the peer's rows/s measured in the same run


@dataclass
class Round:
    rows: int
    ours: float  # seconds, the command from start to exit
    copy: float  # seconds, COPY FROM of the same rows
    peer_rows: int = 0
    peer: float | None = None  # seconds, the peer's upload until stored
    ours_sqlite: float | None = None  # seconds, the command into SQLite (--sqlite)
    ours_cpu: float = 0.0  # the machine's busy CPU-seconds while ours ran (common.py)
    copy_cpu: float = 0.0
    # Of ours_cpu, the command's own processes (it and its parser workers); the rest is the
    # database server's (and any other job's).
    ours_own_cpu: float = 0.0

    def ceiling(self, cores: int) -> float:
        """The best ÷ COPY ours could reach on `cores` with the work it did: its wall time
        can be no less than its CPU-seconds spread over every core."""
        return self.copy / max(self.ours_cpu / cores, self.copy)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", nargs="+", default=["default", "large"])
    parser.add_argument(
        "--files", type=int, nargs="+", help="workspaces of N files of the large one (not --scale)"
    )
    parser.add_argument("--workspace", type=Path, nargs="+", help="instead of --scale")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--db", default="reflexion_bench")
    parser.add_argument(
        "--server", default=os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    )
    parser.add_argument("--events", action="store_true", help="also the retrieval log")
    parser.add_argument("--peer", action="store_true", help="Label Studio in the same run")
    parser.add_argument("--peer-db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--rounds", type=int, help="ours (and the peer) each; 2 with --peer")
    parser.add_argument(
        "--sqlite",
        action="store_true",
        help="also ours into SQLite each round (the zero-setup default; the peer's own default)",
    )
    args = parser.parse_args()
    rounds = args.rounds or (2 if args.peer else 1)

    os.environ["DATABASE_URL"] = f"{args.server}/{args.db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()

    if args.workspace:
        workspaces = args.workspace
    elif args.files:
        workspaces = [sampled_workspace(n, args.seed) for n in args.files]
    else:
        workspaces = [workspace(scale, args.seed) for scale in args.scale]
    peer = None
    try:
        if args.peer:
            import peer  # bench/peer.py

            print(f"starting Label Studio {peer.VERSION} ({args.peer_db}) …", flush=True)
            print(f"  answering on {peer.start(args.peer_db, args.server)}", flush=True)
        # `tree`, not `workspace`: that name is bench/workspaces.py's function, which the
        # --scale branch above calls (a loop variable of the same name makes it a local).
        for tree in workspaces:
            measured = [
                bench_round(tree, args.server, args.db, peer, i + 1, sqlite=args.sqlite)
                for i in range(rounds)
            ]
            report(tree, measured, peer, args.peer_db)
            if args.events:
                report_events(bench_retrievals(tree))
    finally:
        if peer:
            peer.stop()
            if args.peer_db == "postgresql":
                peer.drop_postgres(args.server)


def report(workspace: Path, rounds: list[Round], peer, peer_db: str = "sqlite") -> None:
    print(f"\nreflections of {workspace.name}")
    print(
        f"{'round':<7} {'rows':>9} {'ours rows/s':>12} {'COPY rows/s':>12} {'÷ COPY':>7}"
        + (f" {'peer rows/s':>12} {'÷ peer':>7}" if peer else "")
    )
    for i, r in enumerate(rounds, 1):
        peer_cells = f" {r.peer_rows / r.peer:>12,.0f} {_peer_ratio(r):>7.2f}" if r.peer else ""
        print(
            f"{i:<7} {r.rows:>9,} {r.rows / r.ours:>12,.0f} {r.rows / r.copy:>12,.0f} "
            f"{r.copy / r.ours:>7.2f}{peer_cells}"
        )
    copy_ratio = statistics.median(r.copy / r.ours for r in rounds)
    line = f"{'median':<7} {'':>9} {'':>12} {'':>12} {copy_ratio:>7.2f}"
    verdicts = [f"÷ COPY ≥ {TARGET_COPY_RATIO}: {_verdict(copy_ratio, TARGET_COPY_RATIO)}"]
    if peer:
        peer_ratio = statistics.median(_peer_ratio(r) for r in rounds)
        line += f" {'':>12} {peer_ratio:>7.2f}"
        verdicts.append(f"÷ peer ≥ {TARGET_PEER_RATIO}: {_verdict(peer_ratio, TARGET_PEER_RATIO)}")
    print(line)
    print("  " + "; ".join(verdicts))
    cores = os.cpu_count() or 1
    cpu = ", ".join(f"{r.ours_cpu:.1f} / {r.copy_cpu:.1f}" for r in rounds)
    print(
        f"  CPU-s of the machine, ours / COPY: {cpu}; on its {cores} cores no schedule of ours' "
        f"work reaches ÷ COPY above {statistics.median(r.ceiling(cores) for r in rounds):.2f}"
    )
    split = ", ".join(f"{r.ours_own_cpu:.1f} + {r.ours_cpu - r.ours_own_cpu:.1f}" for r in rounds)
    print(f"  of ours, the command's own processes + the database and the rest: {split}")
    if rounds[0].ours_sqlite:
        per_round = ", ".join(f"{r.rows / r.ours_sqlite:,.0f}" for r in rounds)
        text = f"  ours into SQLite: {per_round} rows/s"
        if peer:
            on_sqlite = statistics.median(
                (r.rows / r.ours_sqlite) / (r.peer_rows / r.peer) for r in rounds
            )
            text += f"; ÷ peer (median) {on_sqlite:.2f}, the peer on {peer_db}"
        print(text)
    if peer:
        print(
            f"  peer: Label Studio {peer.VERSION} on this machine in this run, the same "
            f"{rounds[0].peer_rows:,} texts (one upload until stored; its server already running)"
        )
    else:
        print("  peer not measured: --peer")


def _peer_ratio(r: Round) -> float:
    return (r.rows / r.ours) / (r.peer_rows / r.peer)


def _verdict(ratio: float, target: float) -> str:
    return "ok" if ratio >= target else "BELOW TARGET"


def report_events(result) -> None:
    name, rows, ours, copy = result
    print(
        f"{name}: {rows:,} rows, ours {rows / ours:,.0f} rows/s, COPY {rows / copy:,.0f} rows/s, "
        f"÷ COPY {copy / ours:.2f} (in process)"
    )


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


def _copy_back(table: str, columns: list[str], select_sql: str) -> tuple[int, float, float]:
    """Dump rows with COPY TO, truncate, time a COPY FROM of the same bytes: the baseline.
    Returns the rows, the seconds and the machine's busy CPU-seconds meanwhile."""
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
        busy, started = machine_busy_seconds(), time.perf_counter()
        with (
            transaction.atomic(),
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {table} ({cols}) FROM STDIN") as copy,
        ):
            while block := dump.read(1 << 20):
                copy.write(block)
        return n, time.perf_counter() - started, machine_busy_seconds() - busy


def bench_round(
    workspace: Path, server: str, db: str, peer, number: int, *, sqlite: bool = False
) -> Round:
    """One round: ours end to end into a fresh database, COPY of the same rows, ours into
    SQLite (`sqlite`), the peer."""
    from reflections.services.reflection_import import REFLECTION_COLUMNS

    _fresh_database(server, db)
    print(f"round {number}: importing the reflections of {workspace} …", flush=True)
    command = [sys.executable, str(ROOT / "manage.py"), "import_reflections", str(workspace)]
    own = children_cpu_seconds()
    busy, started = machine_busy_seconds(), time.perf_counter()
    done = subprocess.run(
        [*command, "--create-departments", "--json"],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "DATABASE_URL": f"{server}/{db}"},
    )
    ours, ours_cpu = time.perf_counter() - started, machine_busy_seconds() - busy
    own = children_cpu_seconds() - own
    summary = json.loads(done.stdout)
    rows = summary["created"]
    print(
        f"  ours: {rows:,} reflections in {ours:.1f} s (the command, start to exit), "
        f"{len(summary['rejected'])} rejected",
        flush=True,
    )

    from django.db import connection

    cols = list(REFLECTION_COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_reflection_rows AS SELECT * FROM reflections_reflection")
        cursor.execute(
            "CREATE TABLE bench_history_rows AS SELECT * FROM reflections_reflectionhistory"
        )
    n, copy, copy_cpu = _copy_back(
        "reflections_reflection", cols, f"SELECT {', '.join(cols)} FROM bench_reflection_rows"
    )
    with connection.cursor() as cursor:
        # Put the history back so that what runs next sees a normal database.
        cursor.execute("INSERT INTO reflections_reflectionhistory SELECT * FROM bench_history_rows")
        cursor.execute("DROP TABLE bench_reflection_rows, bench_history_rows")
    print(f"  raw COPY of the same {n:,} rows: {copy:.1f} s", flush=True)
    measured = Round(rows, ours, copy, ours_cpu=ours_cpu, copy_cpu=copy_cpu, ours_own_cpu=own)
    if sqlite:
        connection.close()
        measured.ours_sqlite = _ours_into_sqlite(command)
        print(f"  ours into SQLite: {measured.ours_sqlite:.1f} s", flush=True)
    if peer:
        texts = _texts(workspace)
        connection.close()  # nothing of ours stays open while the peer works
        measured.peer_rows = len(texts)
        measured.peer = peer.import_texts(texts)
        print(f"  peer: {len(texts):,} texts in {measured.peer:.1f} s", flush=True)
    return measured


_SQLITE_TEMPLATE: list[Path] = []


def _ours_into_sqlite(command: list[str]) -> float:
    """The same command into a fresh SQLite database (a migrated copy, untimed), timed from
    process start to exit."""
    import shutil

    template, target = OUT / "import-template.sqlite3", OUT / "import-ours.sqlite3"
    if not _SQLITE_TEMPLATE:  # migrated once per run: a template left by older code is stale
        for stale in OUT.glob("import-template.sqlite3*"):
            stale.unlink()
        _SQLITE_TEMPLATE.append(template)
        subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "migrate", "--verbosity", "0"],
            check=True,
            env={**os.environ, "DATABASE_URL": f"sqlite:///{template}"},
        )
    for leftover in OUT.glob("import-ours.sqlite3*"):
        leftover.unlink()
    shutil.copyfile(template, target)
    started = time.perf_counter()
    subprocess.run(
        [*command, "--create-departments", "--json"],
        check=True,
        capture_output=True,
        env={**os.environ, "DATABASE_URL": f"sqlite:///{target}"},
    )
    return time.perf_counter() - started


_TEXTS: dict[Path, list[str]] = {}


def _texts(workspace: Path) -> list[str]:
    """The body text of every reflection of the workspace, read by our own parsers (untimed)."""
    if workspace not in _TEXTS:
        from django.utils import timezone

        from reflections.importers.base import ParsedReflection
        from reflections.importers.workspace import parse_paths

        parsed = parse_paths([workspace], now=timezone.now())
        _TEXTS[workspace] = [
            item.body or item.original_text for item in parsed if isinstance(item, ParsedReflection)
        ]
    return _TEXTS[workspace]


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
    n, copy, _ = _copy_back(
        "reflections_retrievalevent", cols, f"SELECT {', '.join(cols)} FROM bench_retrieval_rows"
    )
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE bench_retrieval_rows")
    print(f"  raw COPY of the same {n:,} rows: {copy:.1f} s", flush=True)
    return (f"retrieval events of {workspace.name}", rows, ours, copy)


if __name__ == "__main__":
    main()
