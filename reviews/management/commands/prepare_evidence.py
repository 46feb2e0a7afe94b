"""Prepare the evidence the queue shows beside each item of a review cycle (issue 14): what
opening a cycle queues in the background, for a cycle opened before it or made stale."""

import time

from django.core.management.base import BaseCommand, CommandError

from reviews.management.commands._cycles import cycle_named
from reviews.models import ReviewCycle
from reviews.services.evidence import prepare_cycle


class Command(BaseCommand):
    help = "Compute and store the window evidence of a review cycle's items (or every open one)."

    def add_arguments(self, parser):
        parser.add_argument("--cycle", type=int, help="cycle id")
        parser.add_argument("--open", action="store_true", help="every open cycle")
        parser.add_argument(
            "--stale-only", action="store_true", help="skip items whose evidence is current"
        )

    def handle(self, *args, cycle, open, stale_only, **options):
        if (cycle is None) == (not open):
            raise CommandError("name one cycle with --cycle ID, or pass --open")
        cycles = (
            [cycle_named(cycle)]
            if cycle is not None
            else list(
                ReviewCycle.objects.select_related("department")
                .filter(closed_at__isnull=True)
                .order_by("pk")
            )
        )
        for found in cycles:
            started = time.perf_counter()
            n = prepare_cycle(found, stale_only=stale_only)
            self.stdout.write(
                f"{found}: evidence of {n} items prepared in {time.perf_counter() - started:.1f} s"
            )
