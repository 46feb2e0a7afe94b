"""Delete the raw retrieval events before a month (PostgreSQL: drop its partitions); the
rollups are kept."""

import json
import re
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from reflections.services.batches import quote_value
from reflections.services.event_retention import prune_events


def _month(value: str) -> date:
    try:
        if re.fullmatch(r"\d{4}-\d{2}", value):
            return date.fromisoformat(f"{value}-01")
    except ValueError:
        pass
    raise CommandError(f"--before must be a month like 2026-01, not {quote_value(value)}")


class Command(BaseCommand):
    help = (
        "Delete every retrieval event before the month --before (YYYY-MM): whole partitions on "
        "PostgreSQL. The daily rollups of those days are kept; the per-reflection counters are "
        "recounted from the events kept."
    )

    def add_arguments(self, parser):
        parser.add_argument("--before", required=True, help="the first month to keep (YYYY-MM)")
        parser.add_argument("--dry-run", action="store_true", help="count, delete nothing")
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="print JSON for machines"
        )

    def handle(self, *args, before, dry_run, as_json, **options):
        result = prune_events(before=_month(before), dry_run=dry_run)
        if as_json:
            self.stdout.write(json.dumps(result.as_dict()))
            return
        verb = "Would delete" if dry_run else "Deleted"
        self.stdout.write(
            f"{verb} {result.events:,} retrieval events before {result.before:%Y-%m}"
            + (f" ({len(result.partitions)} partitions)" if result.partitions else "")
        )
        for name in result.partitions:
            self.stdout.write(f"  {name}")
