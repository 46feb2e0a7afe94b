"""Import retrieval logs and task-outcome logs (JSONL or CSV, auto-detected) and trajectory
pools (memory/trajectory-pool.json)."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from reflections.management.commands._output import print_summary, progress_bar
from reflections.services.event_import import import_events
from reflections.services.maintenance import vacuum_rewritten


class Command(BaseCommand):
    # Data in, not configuration: the URLconf and models are checked by `migrate` and `check`;
    # loading every view for them cost each import ~0.5 s of its start-up (issue 29).
    requires_system_checks = []
    help = "Import retrieval and task logs (one all-or-nothing batch)."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path)
        parser.add_argument(
            "--create-departments",
            action="store_true",
            help="create departments the files name that do not exist yet (otherwise each such "
            "file or line is rejected)",
        )
        parser.add_argument(
            "--default-department",
            help="department for task runs that name none and whose agent has none (the "
            "trajectory pool names none)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, paths, create_departments, default_department, json, **options):
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            raise CommandError(f"no such file or directory: {', '.join(missing)}")
        bar = progress_bar(enabled=not json and sys.stderr.isatty(), unit="line")
        try:
            summary = import_events(
                paths=paths,
                progress=bar.update,
                create_departments=create_departments,
                default_department=default_department,
            )
        finally:
            bar.close()
        vacuum_rewritten()
        print_summary(self, summary, as_json=json, noun="Log lines")
