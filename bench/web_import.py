"""The web import against the commands, on the same workspace, measured in the same run.

Usage (PostgreSQL; the database named by --db is dropped and recreated for every import):

    .venv/bin/python bench/web_import.py [--scale default] [--db reflexion_bench_web]

Each round imports the demo workspace (reflections, then its logs) twice from an empty
database: once with the commands' services (`import_reflections`, `import_events`, then the
duplicate candidates of the departments whose texts changed, as `compute_neighbours` or the
daily job computes them), once as an admin's zip through the web import (upload stored,
unpacked, job run by the worker, the same three steps, report written). It
then imports the same again on the full database (everything unchanged). It prints the times
and the ratio web ÷ command; the ratio is what we track (the zip is built once, outside the
timing, as the browser would have it ready).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", default="default", choices=["small", "default", "large"])
    parser.add_argument("--workspace", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--db", default="reflexion_bench_web")
    parser.add_argument(
        "--server", default=os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    )
    args = parser.parse_args()
    ws = args.workspace or ROOT / f"bench/out/ws-{args.scale}"

    import psycopg

    def fresh_database() -> None:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(f"{args.server}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{args.db}"')
        from django.core.management import call_command

        call_command("migrate", verbosity=0)

    os.environ["DATABASE_URL"] = f"{args.server}/{args.db}"
    os.environ["DATABASE_CONN_MAX_AGE"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reflexion_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    with psycopg.connect(f"{args.server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{args.db}"')
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command

    from reflections.models import ImportJob, Reflection
    from reflections.services.event_import import import_events
    from reflections.services.neighbours import refresh_neighbours, stale_departments
    from reflections.services.reflection_import import import_reflections
    from reflections.services.web_import import start_import
    from reflections.tasks import run_import_job

    if not ws.exists():
        print(f"generating the {args.scale} demo workspace at {ws} …", flush=True)
        call_command("migrate", verbosity=0)
        call_command("seed_demo", "--out", str(ws), "--scale", args.scale, verbosity=0)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(ws.rglob("*")):
            if path.is_file():
                archive.write(path, f"ws/{path.relative_to(ws).as_posix()}")
    data = buffer.getvalue()
    files = sum(1 for p in ws.rglob("*") if p.is_file())
    print(f"workspace {ws}: {files:,} files, zip {len(data) / 2**20:.1f} MB")

    def command_import() -> float:
        started = time.perf_counter()
        import_reflections(paths=[ws], create_departments=True)
        import_events(paths=[ws / "logs"], create_departments=True)
        refresh_neighbours(departments=stale_departments())
        return time.perf_counter() - started

    def web_import() -> float:
        user = get_user_model().objects.get_or_create(username="bench-admin")[0]
        started = time.perf_counter()
        job = start_import(
            user=user, files=[SimpleUploadedFile("ws.zip", data)], create_departments=True
        )
        run_import_job.call(job.pk)
        elapsed = time.perf_counter() - started
        job = ImportJob.objects.get(pk=job.pk)
        assert job.status == ImportJob.Status.DONE, job.error
        return elapsed

    results: dict[str, list[float]] = {k: [] for k in ("cmd", "web", "cmd again", "web again")}
    with tempfile.TemporaryDirectory() as uploads:
        settings.IMPORT_UPLOAD_ROOT = Path(uploads)
        for round_no in range(args.rounds):
            for label, run in (("cmd", command_import), ("web", web_import)):
                fresh_database()
                results[label].append(run())
                count = Reflection.objects.count()
                results[f"{label} again"].append(run())
                print(
                    f"round {round_no + 1} {label}: {results[label][-1]:.2f} s "
                    f"({count:,} reflections), again {results[f'{label} again'][-1]:.2f} s",
                    flush=True,
                )
    med = {k: statistics.median(v) for k, v in results.items()}
    print(
        f"\nmedian, first import: command {med['cmd']:.2f} s, web {med['web']:.2f} s, "
        f"web ÷ command = {med['web'] / med['cmd']:.2f}"
    )
    print(
        f"median, unchanged re-import: command {med['cmd again']:.2f} s, web "
        f"{med['web again']:.2f} s, web ÷ command = {med['web again'] / med['cmd again']:.2f}"
    )
    from django.db import connections

    connections.close_all()
    with psycopg.connect(f"{args.server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')


if __name__ == "__main__":
    main()
