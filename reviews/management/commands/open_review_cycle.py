"""Open a department's quarterly review cycle: snapshot its top reflections and deal them out."""

import json
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from reflections.models import Department
from reflections.services.batches import quote_value
from reviews.policies import QuarterError
from reviews.services.cycles import ReviewError, open_cycle, resolve_reviewers


class Command(BaseCommand):
    help = "Open a review cycle (DOMAIN §5) and print its frozen snapshot."

    def add_arguments(self, parser):
        parser.add_argument("--department", required=True, help="department slug")
        parser.add_argument("--quarter", required=True, help="e.g. 2026Q3")
        parser.add_argument(
            "--as-of",
            help="the day the cycle starts (YYYY-MM-DD); default the quarter's first day. "
            "The window is the 90 days before it.",
        )
        parser.add_argument("--reviewers", default="", help="comma-separated usernames")
        parser.add_argument("--window-days", type=int, default=90)
        parser.add_argument("--size", type=int, default=100)
        parser.add_argument("--json", action="store_true", dest="as_json")

    def handle(self, *args, department, quarter, as_of, reviewers, window_days, size, as_json, **o):
        dept = Department.objects.filter(slug=department).first()
        if dept is None:
            raise CommandError(f"no department {quote_value(department)}")
        try:
            starts_on = date.fromisoformat(as_of) if as_of else None
        except ValueError:
            raise CommandError(
                f"--as-of must be a date like 2026-07-01, not {quote_value(as_of)}"
            ) from None
        names = [n.strip() for n in reviewers.split(",") if n.strip()]
        if not names:
            raise CommandError("name at least one reviewer with --reviewers")
        try:
            cycle = open_cycle(
                department=dept,
                quarter=quarter,
                reviewers=resolve_reviewers(names),
                starts_on=starts_on,
                window_days=window_days,
                size=size,
            )
        except (ReviewError, QuarterError, ValueError) as error:
            raise CommandError(str(error)) from None
        items = [
            {
                "rank": item.rank,
                "source_path": item.reflection.source_path,
                "retrievals": item.retrievals,
                "reviewer": item.reviewer.get_username(),
            }
            for item in cycle.items.select_related("reflection", "reviewer").order_by("rank")
        ]
        if as_json:
            self.stdout.write(
                json.dumps(
                    {
                        "cycle": {
                            "id": cycle.pk,
                            "department": dept.slug,
                            "quarter": cycle.quarter,
                            "window_start": cycle.window_start.isoformat(),
                            "window_end": cycle.window_end.isoformat(),
                        },
                        "items": items,
                    }
                )
            )
            return
        self.stdout.write(
            f"Opened {dept.slug} {cycle.quarter} (cycle {cycle.pk}): {len(items)} items from "
            f"{cycle.window_start:%Y-%m-%d} to {cycle.window_end:%Y-%m-%d}"
        )
        for item in items:
            self.stdout.write(
                f"  {item['rank']:>3}  {item['retrievals']:>6}  {item['reviewer']:<12} "
                f"{item['source_path']}"
            )
