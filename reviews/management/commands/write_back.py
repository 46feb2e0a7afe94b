"""Write review deprecations back into the reflection files under a workspace root, and take
them out again where the verdict was undone or changed to keep."""

from json import dumps as json_dumps
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from reviews.models import ReviewCycle
from reviews.services.writeback import OUTCOME_LABELS, OUTCOMES, write_back

# Why a file was left alone, in words a person can act on.
_ADVICE = {
    "changed_since_import": "the file differs from what was imported; import it again first",
    "missing": "no file at the source path under --root",
    "unsupported": "cannot be written back",
    "refused": "the path leaves --root",
    "failed": "the original file is intact",
}

_DRY_RUN_LABELS = {"written": "Would write", "restored": "Would restore"}


class Command(BaseCommand):
    help = (
        "Write every review deprecation (deprecated_reason, archived: true, duplicate_of) into "
        "its source file under --root, the workspace root holding memory/ and .aiwg/, and "
        "remove those keys again from files whose reflection is no longer deprecated."
    )

    def add_arguments(self, parser):
        parser.add_argument("--root", type=Path, required=True, help="the workspace root")
        parser.add_argument("--dry-run", action="store_true", help="change nothing; list it")
        parser.add_argument("--cycle", type=int, help="only this review cycle (id)")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, root, dry_run, cycle, json, **options):
        if not root.is_dir():
            raise CommandError(f"--root {root} is not a directory")
        if cycle is not None and not ReviewCycle.objects.filter(pk=cycle).exists():
            raise CommandError(f"no review cycle with id {cycle}")
        report = write_back(root=root, dry_run=dry_run, cycle=cycle)
        if json:
            self.stdout.write(json_dumps(report.as_dict()))
            return
        if not any((root / top).is_dir() for top in ("memory", ".aiwg")):
            self.stderr.write(
                self.style.WARNING(f"{root} holds no memory/ or .aiwg/: is it the workspace root?")
            )
        counts = report.counts
        verbs = {o: f"would be {o}" if dry_run else o for o in ("written", "restored")}
        summary = ", ".join(f"{counts[o]} {verbs.get(o, OUTCOME_LABELS[o])}" for o in OUTCOMES)
        heading = "Write-back (dry run, nothing changed)" if dry_run else "Write-back"
        self.stdout.write(f"{heading}: {summary}")
        for outcome in OUTCOMES:
            entries = report.entries[outcome]
            if not entries:
                continue
            label = OUTCOME_LABELS[outcome]
            if dry_run and outcome in _DRY_RUN_LABELS:
                label = _DRY_RUN_LABELS[outcome]
            advice = _ADVICE.get(outcome)
            self.stdout.write(f"{label.capitalize()}" + (f" ({advice}):" if advice else ":"))
            for entry in entries:
                self.stdout.write(f"  {entry.source_path}: {entry.detail}")
