"""Print a review cycle's report (DOMAIN §5): counts per verdict, deprecations, effort."""

import json

from django.core.management.base import BaseCommand

from reviews.management.commands._cycles import cycle_named
from reviews.selectors.cycles import cycle_report


class Command(BaseCommand):
    help = "Print a review cycle's report."

    def add_arguments(self, parser):
        parser.add_argument("--cycle", type=int, required=True, help="cycle id")
        parser.add_argument("--json", action="store_true", dest="as_json")

    def handle(self, *args, cycle, as_json, **options):
        found = cycle_named(cycle)
        report = cycle_report(found)
        if as_json:
            self.stdout.write(json.dumps(report.as_dict()))
            return
        state = "closed" if found.closed_at else "open"
        self.stdout.write(f"{found} ({state}): {report.total} items, {report.effort_hours:.1f} h")
        for verdict, n in report.counts.items():
            self.stdout.write(f"  {verdict:<14} {n:>4}")
        for item in report.deprecated:
            extra = f" of {item.duplicate_of.source_path}" if item.duplicate_of else ""
            note = f" — {item.note}" if item.note else ""
            self.stdout.write(
                f"  #{item.rank} {item.reflection.source_path}: {item.verdict}{extra}{note}"
            )
        for item in report.restored:
            who = item.restored_by.get_username() if item.restored_by else "?"
            self.stdout.write(
                f"  restored: #{item.rank} {item.reflection.source_path} ({item.verdict}, "
                f"restored by {who} {item.restored_at:%Y-%m-%d})"
            )
        for item in report.unsure:
            self.stdout.write(f"  unsure: #{item.rank} {item.reflection.source_path}")
        for item, comments in report.discussed:
            for c in comments:
                body = " ".join(c.body.split())
                who, when = c.author.get_username(), f"{c.at:%Y-%m-%d %H:%M}"
                self.stdout.write(f"  comment on #{item.rank} by {who} {when}: {body}")
        if report.previous:
            p = report.previous
            self.stdout.write(
                f"Previous cycle {p.cycle.quarter}: {p.total} items, "
                f"{len(p.deprecated)} deprecated, {p.effort_hours:.1f} h"
            )
