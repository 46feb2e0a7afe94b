"""Run the memory policies (retention, decay, salience) for one as_of date."""

import json
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from reflections.services.batches import quote_value
from reflections.services.maintenance import vacuum_rewritten
from reflections.services.partitions import analyze_parent, ensure_partitions_ahead
from reflections.services.policy_runs import BackfillError, apply_policies, backfill_policies

MAX_LISTED_CHANGES = 200


def _as_of(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(
            f"--as-of must be a date like 2026-05-31, not {quote_value(value)}"
        ) from None


class Command(BaseCommand):
    help = "Apply decay and salience (and, with --retention, the yearly retention run)."

    def add_arguments(self, parser):
        parser.add_argument("--as-of", required=True, help="the day to apply them for (YYYY-MM-DD)")
        parser.add_argument("--dry-run", action="store_true", help="list changes, write nothing")
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="print JSON for machines"
        )
        parser.add_argument("--retention", action="store_true", help="also archive by retention")
        parser.add_argument(
            "--backfill-from",
            help="replay decay every --every days from this day through --as-of, each run "
            "recorded at its day (a new installation's history; refused after real runs)",
        )
        parser.add_argument("--every", type=int, default=7, help="days between backfill runs")
        parser.add_argument(
            "--unless-ran",
            action="store_true",
            help="with --backfill-from: skip quietly (exit 0) when policies already ran",
        )

    def handle(
        self, *args, as_of, dry_run, as_json, retention, backfill_from, every, unless_ran, **options
    ):
        if backfill_from:
            if dry_run or retention:
                raise CommandError("--backfill-from replays decay only; drop --dry-run/--retention")
            try:
                runs = backfill_policies(
                    first=_as_of(backfill_from), last=_as_of(as_of), every_days=every
                )
            except BackfillError as error:
                if unless_ran and "already ran" in str(error):
                    self.stdout.write(f"Backfill skipped: {error}")
                    return
                raise CommandError(str(error)) from None
            vacuum_rewritten()  # a year of weekly runs rewrites every reflection many times
            summary = [{"as_of": r.as_of.isoformat(), "counts": r.counts} for r in runs]
            if as_json:
                self.stdout.write(json.dumps({"backfill": summary}))
                return
            for r in summary:
                self.stdout.write(f"  {r['as_of']}: {r['counts']['changed']} changed")
            self.stdout.write(f"Backfilled {len(runs)} policy runs")
            return
        run = apply_policies(as_of=_as_of(as_of), dry_run=dry_run, retention=retention)
        if not dry_run:
            # The cron schedule's daily step, as the tasks framework's run takes it.
            ensure_partitions_ahead()
            analyze_parent()
            vacuum_rewritten()
        if as_json:
            self.stdout.write(json.dumps(run.as_dict()))
            return
        verb = "would change" if dry_run else "changed"
        self.stdout.write(
            f"Policies for {run.as_of.isoformat()}: {len(run.changes)} reflections {verb} state, "
            f"{run.counts['salience_updated']} saliences {'would be ' if dry_run else ''}updated"
        )
        listed = run.changes if dry_run else run.changes[:MAX_LISTED_CHANGES]
        for change in listed:
            self.stdout.write(
                f"  {change.source_path}: {change.from_state} → {change.to_state} ({change.reason})"
            )
        if len(listed) < len(run.changes):
            self.stdout.write(f"  … and {len(run.changes) - len(listed)} more (use --json)")
