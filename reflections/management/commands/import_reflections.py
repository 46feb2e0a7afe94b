"""Import reflection files or whole workspace trees (all four formats, auto-detected)."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from reflections.management.commands._output import (
    print_summary,
    progress_bar,
    rows_per_second,
)
from reflections.services.reflection_import import import_reflections
from reflections.tasks import hand_maintenance_to_worker


class Command(BaseCommand):
    # Data in, not configuration: the URLconf and models are checked by `migrate` and `check`;
    # loading every view for them cost each import ~0.5 s of its start-up (issue 29).
    requires_system_checks = []
    help = "Import reflections from files or workspace directories (one all-or-nothing batch)."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path)
        parser.add_argument(
            "--default-department",
            help="department for reflections whose agent has none (protocol Markdown names none)",
        )
        parser.add_argument(
            "--create-departments",
            action="store_true",
            help="create departments the files name that do not exist yet (otherwise each such "
            "file or line is rejected)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, paths, default_department, create_departments, json, **options):
        missing = [str(p) for p in paths if not p.exists() and not p.is_symlink()]
        if missing:
            raise CommandError(f"no such file or directory: {', '.join(missing)}")
        bar = progress_bar(enabled=not json and sys.stderr.isatty(), unit="file")
        try:
            summary = import_reflections(
                paths=paths,
                default_department=default_department,
                create_departments=create_departments,
                progress_total=lambda n: bar.reset(total=n),
                progress=bar.update,
                rows_done=rows_per_second(bar),
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        finally:
            bar.close()
        hand_maintenance_to_worker()
        print_summary(self, summary, as_json=json, noun="Reflections")
