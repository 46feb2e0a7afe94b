"""Import a run of the reference Reflexion implementation: a programming run's .jsonl file or
an ALFWorld run's folder of env_results_trial_<N>.json."""

import json
import re
from datetime import date, timedelta
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from reflections.importers.base import ParseError
from reflections.services.maintenance import vacuum_rewritten
from reflections.services.neighbours import refresh_neighbours, stale_departments
from reflections.services.reflexion_run_import import (
    DEFAULT_STARTED_AT,
    MAX_TRIAL_DAYS,
    RunError,
    RunOptions,
    import_run_from,
    read_run,
    started_at_of,
)
from reflections.similarity.backends import BackendError

_INTERVAL = re.compile(r"^(\d+)\s*([dw])$")


def interval(text: str) -> timedelta:
    """ "7d", "1w", "2d": the time between two trials (whole days)."""
    match = _INTERVAL.match(text.strip().lower())
    days = int(match[1]) * (7 if match[2] == "w" else 1) if match else 0
    if not 1 <= days <= MAX_TRIAL_DAYS:
        raise ValueError(
            f"--trial-interval {text!r}: whole days or weeks from 1d to {MAX_TRIAL_DAYS}d, "
            "e.g. 7d or 1w"
        )
    return timedelta(days=days)


class Command(BaseCommand):
    # Data in, not configuration: the URLconf and models are checked by `migrate` and `check`;
    # loading every view for them cost each import ~0.5 s of its start-up (issue 29).
    requires_system_checks = []
    help = (
        "Import a Reflexion run (a programming run's .jsonl, or an ALFWorld run's folder): its "
        "reflections, attempts as tasks and reflections in memory as retrievals."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument(
            "--run", default="", help="the run's name (default: its file or folder name)"
        )
        parser.add_argument("--department", default="", help="default: the run's benchmark")
        parser.add_argument("--agent", default="", help="default: the model the file name names")
        parser.add_argument(
            "--started-at",
            type=date.fromisoformat,
            help=f"the first trial's day (default {DEFAULT_STARTED_AT:%Y-%m-%d})",
        )
        parser.add_argument(
            "--trial-interval", default="7d", help="time between trials: 7d (default), 1w, 1d"
        )
        parser.add_argument(
            "--no-neighbours",
            action="store_true",
            help="leave the vectors and duplicate candidates to a later compute_neighbours",
        )
        parser.add_argument("--json", action="store_true", dest="as_json")

    def handle(
        self, *args, path, run, department, agent, started_at, trial_interval, as_json, **options
    ):
        try:
            run_options = RunOptions(
                label=run.strip(),
                department=department,
                agent=agent,
                started_at=started_at_of(started_at) if started_at else DEFAULT_STARTED_AT,
                trial_interval=interval(trial_interval),
            )
            parsed, digest = read_run(path)
        except (ValueError, RunError) as exc:
            raise CommandError(str(exc)) from None
        except ParseError as exc:
            where = f"{path}" + (f", line {exc.line}" if exc.line else "")
            raise CommandError(f"{where}: {exc.reason}; nothing was imported") from None
        try:
            folder = path.resolve().parent.name
            summary = import_run_from(folder, parsed, digest, options=run_options)
        except RunError as exc:
            raise CommandError(str(exc)) from None
        if not options["no_neighbours"]:
            try:  # duplicate candidates and restatements for what arrived
                refresh_neighbours(departments=stale_departments())
            except BackendError as exc:
                self.stderr.write(f"neighbours not recomputed: {exc}")
        vacuum_rewritten()
        if as_json:
            self.stdout.write(json.dumps(summary.as_dict()))
            return
        if summary.name_taken_by_another:
            self.stdout.write(
                f"Another run holds the name {summary.name_taken_by_another}: this one is named "
                f"by its folder too, {summary.run} (--run names it otherwise)."
            )
        for note in summary.notes:
            self.stdout.write(self.style.WARNING(f"Note: {note}."))
        solved = summary.solved_by_trial[-1] if summary.solved_by_trial else 0
        share = solved / summary.problems if summary.problems else 0
        self.stdout.write(
            self.style.SUCCESS(
                f"Run {summary.run}: {summary.problems} problems, {solved} solved ({share:.1%}) "
                f"after {len(summary.solved_by_trial)} trial(s); solved by trial: "
                f"{', '.join(map(str, summary.solved_by_trial))}"
            )
        )
        r, e = summary.reflections, summary.events.as_dict()
        self.stdout.write(
            f"  reflections: {r.created} created, {r.updated} updated, {r.unchanged} unchanged, "
            f"{len(r.rejected)} rejected"
        )
        for kind in ("tasks", "retrievals"):
            counts = e.get(kind, {})
            self.stdout.write(
                f"  {kind}: " + ", ".join(f"{n} {what}" for what, n in counts.items())
            )
        for rejection in [*r.rejected, *summary.events.rejected][:50]:
            self.stdout.write(
                f"  rejected {rejection.path}"
                + (f":{rejection.line}" if rejection.line else "")
                + f": {rejection.reason}"
            )
