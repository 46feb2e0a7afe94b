"""Export the reflections review verdicts deprecated, as CSV or JSON."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from reviews.models import ReviewCycle
from reviews.selectors.export import deprecation_rows, write_deprecations_csv


class Command(BaseCommand):
    help = "Write one row per deprecating review verdict (all departments) as CSV or JSON."

    def add_arguments(self, parser):
        parser.add_argument("--cycle", type=int, help="only this review cycle (id)")
        parser.add_argument("--format", choices=["csv", "json"], default="csv")
        parser.add_argument("--out", type=Path, help="write to this file instead of stdout")

    def handle(self, *args, cycle, format, out, **options):
        if cycle is not None and not ReviewCycle.objects.filter(pk=cycle).exists():
            raise CommandError(f"no review cycle with id {cycle}")
        rows = deprecation_rows(cycle=cycle)
        stream = out.open("w", encoding="utf-8", newline="") if out else self.stdout
        try:
            if format == "csv":
                write_deprecations_csv(rows, stream)
            else:
                stream.write(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
        finally:
            if out:
                stream.close()
        if out:
            self.stderr.write(f"{len(rows)} deprecations written to {out}")
