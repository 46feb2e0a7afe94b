"""`manage.py seed_demo_ratings --workspace DIR`: the demo's ratings (demo.ratings)."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from demo.errors import DemoSeedError
from demo.ratings import ROUND_SIZE, seed_demo_ratings


class Command(BaseCommand):
    help = (
        "Seed the demo's ratings: raters rater-a … rater-e (calibrated), a closed round of "
        f"{ROUND_SIZE} reflections rated by three raters each, and historical ratings imported "
        "from a CSV written into the workspace. Does nothing when ratings exist."
    )

    def add_arguments(self, parser):
        parser.add_argument("--workspace", required=True, help="the demo workspace (CSV goes here)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, workspace, **options):
        try:
            summary = seed_demo_ratings(Path(workspace))
        except DemoSeedError as exc:
            raise CommandError(str(exc)) from exc
        self._report(summary, options["json"])

    def _report(self, summary: dict, as_json: bool) -> None:
        if as_json:
            self.stdout.write(json.dumps(summary))
            return
        if not summary["created"]:
            self.stdout.write("Ratings already exist; nothing to do.")
            return
        kappas = ", ".join(
            f"{name} κ {value:.2f}" if value is not None else f"{name} κ undefined"
            for name, value in summary["calibration_kappa"].items()
        )
        self.stdout.write(self.style.SUCCESS(f"Calibrated {', '.join(summary['raters'])}"))
        self.stdout.write(f"  against gold (quadratic-weighted, pooled): {kappas}")
        self.stdout.write(
            f"Closed {summary['round_name']} (round {summary['round']}): "
            f"{summary['round_items']} reflections, 3 raters each"
        )
        self.stdout.write(
            f"Imported {summary['historical_ratings']} historical ratings from "
            f"{summary['historical_file']}"
        )
        self.stdout.write(f"Check agreement: python manage.py agreement --round {summary['round']}")
