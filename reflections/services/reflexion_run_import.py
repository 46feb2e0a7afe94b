"""Importing a run of the reference Reflexion implementation: its reflections, its attempts as
tasks, each use of a reflection in a later attempt as a retrieval, and the run's own record.

The whole run is one all-or-nothing batch, written through the same imports as any workspace
(reflections scanned and stored by import_reflections, tasks and retrievals by
import_events), so it is idempotent and reports what it refused with the file, line and field.
Dates are made up from the options: trial N starts `started_at` + N * `trial_interval` (one
week by default, so a trial is a week on the learning curves); within a trial, the problems
finish a minute apart in the order of the log.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time, timedelta
from pathlib import Path, PurePosixPath

from django.db import transaction
from django.utils import timezone

from reflections.importers.base import (
    FORMAT_REFLEXION_RUN,
    ParsedReflection,
    ParseError,
    Rejection,
    content_hash,
)
from reflections.importers.pool import scanned
from reflections.importers.reflexion_runs import (
    KIND_ALFWORLD,
    ParsedRun,
    Problem,
    parse_alfworld_run,
    parse_programming_run,
    title_of,
    trial_files,
)
from reflections.importers.tools import extract_tools
from reflections.models import Agent, Department, Reflection, ReflexionRun, TaskRun
from reflections.services.batches import ImportSummary
from reflections.services.event_import import import_events
from reflections.services.reflection_import import import_reflections

# The Monday the Reflexion paper appeared (arXiv, 2023-03-20): a run's default first trial, so
# that importing the same log twice dates it the same.
DEFAULT_STARTED_AT = datetime(2023, 3, 20, tzinfo=UTC)
DEFAULT_TRIAL_INTERVAL = timedelta(days=7)
# A trial a day at the most, a year at the least: what the curves can space trials by.
MAX_TRIAL_DAYS = 366
MAX_RUN_BYTES = 64 * 1024 * 1024


class RunError(Exception):
    """A run that cannot be read at all: the whole run is refused, nothing is written."""


class RunNameTaken(RunError):
    """Another run is stored under this run's name (nothing is written)."""


@dataclass(frozen=True)
class RunOptions:
    label: str = ""  # the run's name; default: its file or folder name
    department: str = ""  # default: the run's benchmark, as a slug
    agent: str = ""  # default: the model the file name names
    started_at: datetime = DEFAULT_STARTED_AT
    trial_interval: timedelta = DEFAULT_TRIAL_INTERVAL


@dataclass
class RunSummary:
    run: str
    created: bool
    reflections: ImportSummary
    events: ImportSummary
    rejected: list[Rejection] = field(default_factory=list)
    solved_by_trial: list[int] = field(default_factory=list)
    problems: int = 0
    name_taken_by_another: str = ""  # the name it would have had, when it is named by its folder
    notes: list[str] = field(default_factory=list)  # what was read back rather than read

    def as_dict(self) -> dict:
        return {
            "run": self.run,
            "created": self.created,
            "problems": self.problems,
            "solved_by_trial": self.solved_by_trial,
            "reflections": self.reflections.as_dict(),
            "events": self.events.as_dict(),
            "rejected": [r.as_dict() for r in self.rejected],
            **({"named_by_its_folder": True} if self.name_taken_by_another else {}),
            **({"notes": self.notes} if self.notes else {}),
        }


def slug_of(text: str) -> str:
    """A department or run slug: lowercase letters, digits and single hyphens."""
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9]+", "-", text.lower())).strip("-")[:100]


def run_slug(label: str) -> str:
    """A run's slug, the prefix of its task ids: its name without the file's extension, the
    folder kept when the name has one ("reflexion_mbpp_py2/mbpp-py._reflexion_…")."""
    try:
        return slug_of(str(PurePosixPath(label).with_suffix("")))
    except ValueError:  # no file name to take a suffix from ("a/", ".")
        return slug_of(label)


# ------------------------------------------------------------------ reading


def read_run(path: Path) -> tuple[ParsedRun, str]:
    """A programming run file or an ALFWorld run folder, and a digest of what was read.
    RunError when it cannot be read; ParseError names the line or file and field."""
    if path.is_dir():
        names = sorted(p.name for p in path.iterdir() if p.is_file())
        files = trial_files(names)
        if not files:
            raise RunError(f"{path}: holds no env_results_trial_<N>.json file")
        texts = {n: _text(path / name) for n, name in files.items()}
        digest = hashlib.sha256("\0".join(texts[n] for n in sorted(texts)).encode()).hexdigest()
        return parse_alfworld_run(texts, path=path.name), digest
    if not path.is_file():
        raise RunError(f"{path}: no such file or folder")
    text = _text(path)
    return parse_programming_run(text, path=path.name), content_hash(text)


def read_run_texts(label: str, texts: dict[str, str]) -> tuple[ParsedRun, str]:
    """The same, from texts given by name (the web import, the API): one programming run
    file, or the trial files of one ALFWorld run called `label`."""
    files = trial_files(list(texts))
    if files:
        ordered = {n: texts[name] for n, name in files.items()}
        digest = hashlib.sha256("\0".join(ordered[n] for n in sorted(ordered)).encode())
        return parse_alfworld_run(ordered, path=label), digest.hexdigest()
    if len(texts) != 1:
        raise RunError(f"{label}: a programming run is one .jsonl file")
    ((name, text),) = texts.items()
    return parse_programming_run(text, path=name), content_hash(text)


def _text(path: Path) -> str:
    if path.stat().st_size > MAX_RUN_BYTES:
        raise RunError(f"{path}: larger than {MAX_RUN_BYTES // (1024 * 1024)} MB")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RunError(f"{path}: not UTF-8 text (byte {exc.start})") from None


# ------------------------------------------------------------------ rows


@dataclass(frozen=True)
class RunRows:
    department: str
    agent: str
    reflections: list[ParsedReflection]
    tasks: list[dict]
    retrievals: list[dict]


def _path(run: ParsedRun, problem: Problem, index: int) -> str:
    return f"{run.name.label}#{problem.key.replace('/', '-')}/{index + 1}"


def run_rows(run: ParsedRun, options: RunOptions) -> RunRows:
    """The reflections, tasks and retrievals a run becomes."""
    department = options.department or slug_of(run.name.benchmark)
    model = run.name.model or ("text-davinci-003" if run.kind == KIND_ALFWORLD else "")
    agent = options.agent or model or f"{department}-agent"
    task_type = run.name.benchmark
    slug = run_slug(run.name.label)
    reflections, tasks, retrievals = [], [], []

    def finished(trial: int, position: int) -> datetime:
        return options.started_at + trial * options.trial_interval + timedelta(minutes=position)

    for position, problem in enumerate(run.problems, start=1):
        paths = [_path(run, problem, i) for i in range(len(problem.reflections))]
        task_ids = {a.trial: f"{slug}/{problem.key}/{a.trial}" for a in problem.attempts}
        for attempt in problem.attempts:
            done = finished(attempt.trial, position)
            injected = [paths[i] for i in attempt.memory]
            tasks.append({
                "task_id": task_ids[attempt.trial],
                "agent": agent,
                "department": department,
                "task_type": task_type,
                "finished_at": done.isoformat(),
                "outcome": "success" if attempt.solved else "failure",
                "reflections_injected": injected,
            })  # fmt: skip
            # The newest reflection first: the reference implementation reads memory last-in.
            for rank, path in enumerate(reversed(injected), start=1):
                retrievals.append({
                    "reflection": path,
                    "retrieved_at": (done - timedelta(seconds=30)).isoformat(),
                    "task_id": task_ids[attempt.trial],
                    "agent": agent,
                    "department": department,
                    "rank": rank,
                })  # fmt: skip
        for index, text in enumerate(problem.reflections):
            after = problem.written_after(index)
            sections = [{"heading": "Reflection", "body": text}]
            if problem.prompt:
                prompt = problem.prompt[:600]
                sections.insert(0, {"heading": "Problem", "body": prompt})
            original = f"{problem.key}\n{text}"
            reflections.append(
                ParsedReflection(
                    source_path=paths[index],
                    format=FORMAT_REFLEXION_RUN,
                    original_text=original,
                    content_hash=content_hash(original),
                    kind="failure",
                    outcome="failure",
                    created_at=finished(after, position) + timedelta(seconds=30),
                    title=title_of(text) or f"Reflection {index + 1} on {problem.key}",
                    sections=sections,
                    agent=agent,
                    department=department,
                    task_type=task_type,
                    task_id=task_ids.get(after, ""),
                    external_id=f"{problem.key}#{index + 1}",
                    model_used=model,
                    tools=extract_tools(text),
                )
            )
    return RunRows(department, agent, reflections, tasks, retrievals)


# ------------------------------------------------------------------ importing


def import_reflexion_run(
    run: ParsedRun,
    digest: str,
    *,
    options: RunOptions = RunOptions(),
    user=None,
    now: datetime | None = None,
) -> RunSummary:
    """Store a parsed run in one transaction; re-importing the same run changes nothing, and
    the same run grown (more problems, more trials) adds what it gained. RunError, with
    nothing written, for another run under a name already taken."""
    now = now or timezone.now()
    if options.label:
        if len(options.label) > 255 or not run_slug(options.label):
            raise RunError(f"run name {options.label[:80]!r}: up to 255 characters, some letters")
        run = replace(run, name=replace(run.name, label=options.label))
    rows = run_rows(run, options)
    with transaction.atomic():
        _refuse_another_run_of_the_same_name(run, rows, digest)  # before the scan's work
        parsed = scanned(list(rows.reflections))
        reflections = import_reflections(
            parsed=parsed, label=f"Reflexion run {run.name.label}", user=user, now=now,
            create_departments=True, per_file=False,
        )  # fmt: skip
        events = import_events(
            records=[(run.name.label, "task", rows.tasks), (run.name.label, "retrieval",
                     rows.retrievals)],
            user=user, now=now, create_departments=True,
        )  # fmt: skip
        solved_by_trial = run.solved_by_trial()
        attempted = [0] * run.trials
        solved = [0] * run.trials
        for problem in run.problems:
            for attempt in problem.attempts:
                attempted[attempt.trial] += 1
                solved[attempt.trial] += attempt.solved
        _, created = ReflexionRun.objects.update_or_create(
            label=run.name.label,
            defaults={
                "slug": run_slug(run.name.label),
                "kind": run.kind,
                "benchmark": run.name.benchmark,
                "strategy": run.name.strategy,
                "model_name": run.name.model,
                "language": run.name.language,
                "department": Department.objects.get(slug=rows.department),
                "agent": Agent.objects.get(name=rows.agent),
                "started_at": options.started_at,
                "trial_days": max(1, options.trial_interval.days),
                "problems": len(run.problems),
                "reflections": len(rows.reflections),
                "attempted": attempted,
                "solved": solved,
                "solved_by_trial": solved_by_trial,
                "content_hash": digest,
                "imported_at": now,
            },
        )
    return RunSummary(
        run=run.name.label,
        created=created,
        reflections=reflections,
        events=events,
        solved_by_trial=solved_by_trial,
        problems=len(run.problems),
        notes=list(run.notes),
    )


def _refuse_another_run_of_the_same_name(run: ParsedRun, rows: RunRows, digest: str) -> None:
    """The reference implementation names its logs by benchmark, strategy and model, so two
    runs often share a file name (`root/reflexion_mbpp_py/` and `…_py2/` hold the same name).
    A log only grows while its run goes on (a problem's line is written once it is done; an
    ALFWorld trial adds a file), so a changed log under a stored name must keep everything
    stored: otherwise it is another run, and importing it would rewrite the first one's
    record and leave its other reflections behind."""
    stored = ReflexionRun.objects.select_for_update().filter(label=run.name.label).first()
    if stored is None or stored.content_hash == digest:
        return
    reason = ""
    if len(run.problems) < stored.problems:
        reason = f"it holds {len(run.problems)} problems, the stored run {stored.problems}"
    if not reason:
        new = {p.source_path: p.content_hash for p in rows.reflections}
        kept = Reflection.objects.filter(source_path__startswith=f"{run.name.label}#")
        for path, digest_then in kept.values_list("source_path", "content_hash").iterator():
            if new.get(path) != digest_then:
                told = "tells it differently" if path in new else "lacks it"
                reason = f"the stored run has reflection {path.split('#', 1)[1]}; this one {told}"
                break
    if not reason:
        outcomes = {t["task_id"]: t["outcome"] for t in rows.tasks}
        slug = run_slug(run.name.label)
        kept = TaskRun.objects.filter(task_id__startswith=f"{slug}/")
        for task_id, outcome in kept.values_list("task_id", "outcome").iterator():
            if outcomes.get(task_id) != outcome:
                here = outcomes.get(task_id, "not there")
                reason = f"attempt {task_id} ended {outcome} in the stored run, {here} in this one"
                break
    if reason:
        raise RunNameTaken(
            f"{run.name.label}: another run of this name was imported on "
            f"{stored.imported_at:%Y-%m-%d} ({stored.problems} problems, "
            f"{stored.reflections} reflections): {reason}. Nothing was imported; give this run "
            "a name of its own (import_reflexion_run --run NAME, or rename the file or folder)"
        )


def import_run_from(folder: str, run: ParsedRun, digest: str, **kwargs) -> RunSummary:
    """import_reflexion_run for a run read from a file or folder inside `folder` (its name,
    "" for none): when another run holds its name and no name was given, it is named by that
    folder too ("reflexion_mbpp_py2/mbpp-py._reflexion_…"), as the reference implementation's
    logs tell their runs apart, so a tree of its logs imports with no hand work; importing it
    again finds it under that name."""
    options = kwargs.pop("options", RunOptions())
    try:
        return import_reflexion_run(run, digest, options=options, **kwargs)
    except RunNameTaken:
        if options.label or not folder:
            raise
        label = f"{folder}/{run.name.label}"
        summary = import_reflexion_run(run, digest, options=replace(options, label=label), **kwargs)
        summary.name_taken_by_another = run.name.label
        return summary


def started_at_of(day) -> datetime:
    """A --started-at date as the first trial's start, midnight UTC."""
    return datetime.combine(day, time(0), tzinfo=UTC)


__all__ = [
    "ParseError",
    "RunError",
    "RunNameTaken",
    "RunOptions",
    "import_reflexion_run",
    "import_run_from",
    "read_run",
]
