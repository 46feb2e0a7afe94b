"""`manage.py seed_demo_reviews --workspace DIR`: the demo's review cycles (demo.reviews)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from demo.errors import DemoSeedError
from demo.reviews import seed_demo_reviews


class Command(BaseCommand):
    help = "Create the demo's review cycles (idempotent: existing cycles are left alone)."

    def add_arguments(self, parser):
        parser.add_argument("--workspace", required=True, help="the demo workspace (planted.json)")
        parser.add_argument(
            "--past-only",
            action="store_true",
            help="replay the past quarters' closed cycles only (before the decay backfill)",
        )

    def handle(self, *args, workspace, past_only, **options):
        try:
            seed_demo_reviews(Path(workspace), progress=self.stdout.write, past_only=past_only)
        except DemoSeedError as exc:
            raise CommandError(str(exc)) from exc
