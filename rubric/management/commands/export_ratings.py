"""Export ratings as CSV, in the columns import_ratings reads."""

from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from reflections.services.batches import quote_value
from rubric.models import RatingRound
from rubric.selectors.rounds import export_ratings, write_ratings_csv


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(
            f"--since {quote_value(value)} is not a date such as 2026-03-01"
        ) from None


class Command(BaseCommand):
    help = (
        "Write ratings as CSV (rater, reflection as source path, criterion, level, rated_at "
        "in UTC), every cell safe to open in a spreadsheet."
    )

    def add_arguments(self, parser):
        parser.add_argument("--round", type=int, dest="round_id", help="only this round's")
        parser.add_argument("--since", type=_date, help="rated on or after this date (UTC)")
        parser.add_argument("--out", type=Path, help="write here instead of standard output")

    def handle(self, *args, round_id, since, out, **options):
        if round_id is not None and not RatingRound.objects.filter(pk=round_id).exists():
            raise CommandError(f"no rating round with id {round_id}")
        ratings = export_ratings(round_id=round_id, since=since).iterator(chunk_size=2000)
        if out is None:
            write_ratings_csv(ratings, self.stdout)  # each row ends in a newline: kept as is
            return
        with out.open("w", encoding="utf-8", newline="") as stream:
            n = write_ratings_csv(ratings, stream)
        self.stderr.write(f"Wrote {n} ratings to {out}")
