"""Import retrieval logs and task-outcome logs (JSONL or CSV, auto-detected)."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from reflections.management.commands._output import print_summary, progress_bar
from reflections.services.event_import import import_events


class Command(BaseCommand):
    help = "Import retrieval and task logs (one all-or-nothing batch)."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path)
        parser.add_argument(
            "--create-departments",
            action="store_true",
            help="create departments the files name that do not exist yet (otherwise each such "
            "file or line is rejected)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, paths, create_departments, json, **options):
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            raise CommandError(f"no such file or directory: {', '.join(missing)}")
        bar = progress_bar(enabled=not json and sys.stderr.isatty(), unit="line")
        try:
            summary = import_events(
                paths=paths, progress=bar.update, create_departments=create_departments
            )
        finally:
            bar.close()
        print_summary(self, summary, as_json=json, noun="Log lines")
