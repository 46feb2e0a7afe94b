"""Import ratings given outside the dashboard from one CSV file (all or nothing)."""

import json as jsonlib
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rubric.services.rating_import import IMPORT_COLUMNS, import_ratings


class Command(BaseCommand):
    # Data in, not configuration: the URLconf and models are checked by `migrate` and `check`;
    # loading every view for them cost each import ~0.5 s of its start-up (issue 29).
    requires_system_checks = []
    help = (
        f"Import ratings from a CSV with columns {', '.join(IMPORT_COLUMNS)}. One transaction: "
        "if any line is bad, every bad line is listed and nothing is written. New ratings "
        "are recorded under the rubric version current at import."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, metavar="FILE.csv")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, path, json, **options):
        if not path.is_file():
            raise CommandError(f"no such file: {path}")
        summary = import_ratings(path=path)
        if json:
            self.stdout.write(jsonlib.dumps(summary.as_dict(), default=str))
        elif summary.rejected:
            self.stdout.write(self.style.ERROR(f"{len(summary.rejected)} bad lines:"))
            for r in summary.rejected:
                where = f"{r.path}:{r.line}" if r.line else r.path
                self.stdout.write(f"  {where}: {r.reason}")
        else:
            version = summary.details.get("rubric_version")
            self.stdout.write(
                f"Ratings: {self.style.SUCCESS(str(summary.created))} created, "
                f"{summary.unchanged} unchanged"
                + (f" (new ones under rubric v{version})" if summary.created else "")
            )
        if summary.rejected:
            raise CommandError("nothing was imported; fix the lines above and import again")
