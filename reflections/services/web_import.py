"""The web import: an admin's uploads stored, unpacked safely and imported in the background.

The same services as the commands do the work (`import_reflections`, then `import_events`),
with the same rules; this module only stages the files, sorts them into reflection files and
logs, reports progress on the job row, and turns server paths back into upload names."""

from __future__ import annotations

import csv
import json
import logging
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.utils import timezone

from reflections.importers.archive import UnsafeArchive, extract_zip
from reflections.importers.base import ParseError
from reflections.importers.events import detect_log_kind
from reflections.importers.reflexion_runs import trial_files
from reflections.importers.trajectory import looks_like_pool
from reflections.models import ImportJob
from reflections.services.batches import ImportSummary, safe_value
from reflections.services.event_import import import_events
from reflections.services.import_scratch import scratch_folder
from reflections.services.maintenance import vacuum_rewritten
from reflections.services.neighbours import refresh_neighbours, stale_departments
from reflections.services.reflection_import import import_reflections
from reflections.services.reflexion_run_import import (
    RunError,
    RunOptions,
    import_run_from,
    read_run,
)
from reflections.similarity.backends import BackendError

logger = logging.getLogger(__name__)

UPLOAD_SUFFIXES = (".zip", ".md", ".json", ".jsonl", ".csv")
MAX_UPLOAD_FILES = 50
MAX_UPLOAD_BYTES = 200 * 1024 * 1024  # per file; a zip's contents have their own limits
# A whole upload request; larger is answered 413 before its body is read.
MAX_REQUEST_BYTES = 1024 * 1024 * 1024
LOG_SUFFIXES = (".jsonl", ".csv")
# The job row is written at most this often while files are read.
PROGRESS_EVERY_SECONDS = 0.5
# Each stage's share of the progress bar, in order: a stage counts its own files from 0, and
# fills only its band, so the bar never runs back between stages.
UNPACKING, READING, RUNS, LOGS, NEIGHBOURS = (0, 15), (15, 80), (80, 87), (87, 95), (95, 99)


def upload_root() -> Path:
    return Path(settings.IMPORT_UPLOAD_ROOT)


def job_dir(job: ImportJob) -> Path:
    return upload_root() / f"job-{job.pk}"


def start_import(
    *,
    user,
    files: Iterable[UploadedFile],
    default_department: str = "",
    create_departments: bool = False,
) -> ImportJob:
    """The job and its uploads, stored under the job's private folder; queued by
    reflections.tasks.queue_import (the task module runs this service, never the reverse)."""
    files = list(files)
    job = ImportJob.objects.create(
        user=user,
        uploads=[{"name": safe_value(f.name), "size": f.size} for f in files],
        default_department=default_department,
        create_departments=create_departments,
        stage="Waiting for a worker",
    )
    uploads = job_dir(job) / "uploads"
    uploads.mkdir(parents=True, exist_ok=True)
    for index, upload in enumerate(files):
        # The stored name is ours: an upload's own name never becomes a server path.
        suffix = Path(upload.name).suffix.lower()
        with open(uploads / f"{index:03d}{suffix}", "wb") as out:
            for chunk in upload.chunks():
                out.write(chunk)
    return job


class _Progress:
    """Counts files read and writes the job row now and then, never on every file."""

    def __init__(self, job: ImportJob) -> None:
        self.job = job
        self.last = 0.0
        self.band = UNPACKING

    def stage(
        self, words: str, *, total: int | None = None, band: tuple[int, int] | None = None
    ) -> None:
        self.job.stage = words if len(words) <= 64 else words[:63] + "…"
        if band is not None:
            self.band = band
        if total is not None:
            self.job.total = total
        self.job.advance(self.band)
        self.save(force=True)

    def add(self, n: int = 1) -> None:
        self.job.done = min(self.job.done + n, self.job.total or self.job.done + n)
        self.job.advance(self.band)
        self.save()

    def save(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.last >= PROGRESS_EVERY_SECONDS:
            self.last = now
            ImportJob.objects.filter(pk=self.job.pk).update(
                stage=self.job.stage,
                done=self.job.done,
                total=self.job.total,
                progress=self.job.progress,
            )


def run_job(job: ImportJob) -> ImportJob:
    """Unpack, import reflections, then logs, then the neighbours of the departments whose
    texts changed; the report is stored masked; files deleted."""
    folder = job_dir(job)
    root = folder / "unpacked"
    progress = _Progress(job)
    job.status, job.started_at = ImportJob.Status.RUNNING, timezone.now()
    job.save(update_fields=["status", "started_at"])
    try:
        progress.stage("Unpacking the uploads", band=UNPACKING)
        root = unpack_root(job)
        names, refused = _unpack(job, root, progress)
        job.done = 0
        reflection_paths, log_paths = _sort_files(root)
        run_paths = _runs(root)
        # A run is read whole by its own reader, never as loose reflection files.
        reflection_paths = [p for p in reflection_paths if p not in run_paths]
        progress.stage("Reading reflection files", total=len(log_paths), band=READING)
        reflections = ImportSummary(files={})
        events = ImportSummary()
        if reflection_paths:
            reflections = import_reflections(
                paths=reflection_paths,
                default_department=job.default_department or None,
                create_departments=job.create_departments,
                user=job.user,
                per_file=True,
                progress_total=lambda n: progress.stage(
                    "Reading reflection files", total=n + len(log_paths)
                ),
                progress=progress.add,
            )
        if run_paths:
            progress.stage("Importing Reflexion runs", band=RUNS)
        runs = [_import_run(job, root, path) for path in run_paths]
        if log_paths:
            progress.stage("Importing logs and trajectory pools", band=LOGS)
            events = import_events(
                paths=log_paths,
                default_department=job.default_department or None,
                create_departments=job.create_departments,
                user=job.user,
            )
        neighbours: list[str] = []
        refit = False
        if reflections.created or reflections.updated or any(r.get("created") for r in runs):
            # Duplicate candidates for what arrived, so a cycle opened next has them.
            progress.stage("Finding duplicate candidates", band=NEIGHBOURS)
            try:
                found = refresh_neighbours(departments=stale_departments())
                neighbours = [d["department"] for d in found["departments"]]
                refit = found["refit"]
            except BackendError as error:
                logger.error("import job %s: neighbours not recomputed: %s", job.pk, error)
        # What the import commands do after their work: fresh statistics for what it wrote.
        vacuum_rewritten()
        job.report = {
            "refused_uploads": refused,
            "neighbours": neighbours,
            "neighbours_refit": refit,
            "runs": runs,
            "reflections": _shown(reflections.as_dict(), root, names),
            "logs": _shown(events.as_dict(), root, names),
            "log_files": [_display(p, root, names) for p in log_paths],
        }
        job.status, job.stage, job.done = ImportJob.Status.DONE, "Finished", job.total
    except Exception as exc:  # the job must end, and say so, whatever went wrong
        logger.exception("import job %s failed", job.pk)
        job.error = (
            f"The import stopped ({type(exc).__name__}) while {job.stage.lower()}. Each batch "
            "is all or nothing: the batch it was in wrote nothing. The server log has the details."
        )
        job.status, job.stage = ImportJob.Status.FAILED, "Stopped"
    finally:
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
    job.finished_at = timezone.now()
    job.save()
    return job


def unpack_root(job: ImportJob) -> Path:
    """Where the job's uploads are unpacked: in memory when they fit (import_scratch), else
    beside them."""
    return scratch_folder(job.pk, job_dir(job) / "uploads") or job_dir(job) / "unpacked"


def _unpack(job: ImportJob, root: Path, progress: _Progress) -> tuple[dict[str, str], list[dict]]:
    """Each upload under root/NNN (a zip's tree, or the one file under its own name).
    Returns the display name of each unpacked folder, and the uploads refused."""
    names: dict[str, str] = {}
    refused: list[dict] = []
    folder = job_dir(job)
    for index, upload in enumerate(job.uploads):
        name = upload["name"]
        stored = next((folder / "uploads").glob(f"{index:03d}.*"), None)
        target = root / f"{index:03d}"
        names[target.name] = name
        if stored is None:
            continue
        if stored.suffix == ".zip":
            try:
                job.done = 0
                extract_zip(
                    stored,
                    target,
                    on_total=lambda n, name=name: progress.stage(f"Unpacking {name}", total=n),
                    on_file=progress.add,
                )
            except UnsafeArchive as problem:
                shutil.rmtree(target, ignore_errors=True)
                reason = f"{safe_value(str(problem))}; nothing from this archive was imported"
                refused.append({"path": name, "line": None, "reason": reason})
        else:
            target.mkdir(parents=True)
            # A loose file keeps its own name (made safe) so its source path is that name.
            loose = Path(name).name.replace("/", "_")
            if loose in ("", ".", ".."):
                loose = f"file{stored.suffix}"
            shutil.move(stored, target / loose)  # across file systems when root is scratch
        stored.unlink(missing_ok=True)
    return names, refused


def _sort_files(root: Path) -> tuple[list[Path], list[Path]]:
    """Reflection inputs (each unpacked folder: the walker finds the reflections in it) and
    logs (.jsonl and .csv files that read as a retrieval or task log; trajectory pools)."""
    if not root.is_dir():
        return [], []
    logs = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        if _is_log_or_pool(path, root):
            logs.append(path)
    reflection_roots = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        files = [p for p in folder.iterdir()]
        if len(files) == 1 and files[0].is_file():
            if files[0] not in logs:
                reflection_roots.append(files[0])  # a loose file, imported by name
        else:
            reflection_roots.append(folder)
    return reflection_roots, logs


def _is_log_or_pool(path: Path, root: Path) -> bool:
    suffix = path.suffix.lower()
    if suffix == ".json":
        # A pool by its name; an uploaded loose .json by its shape (an array, not an object).
        loose = len(path.relative_to(root).parts) == 2
        return looks_like_pool(path.name) or (loose and _starts_with(path, b"["))
    return suffix in LOG_SUFFIXES and _is_log(path)


def _starts_with(path: Path, prefix: bytes) -> bool:
    with open(path, "rb") as handle:
        return handle.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(prefix)


def _is_log(path: Path) -> bool:
    """A retrieval or task log by its first record (a heuristics .jsonl is not one)."""
    with open(path, encoding="utf-8-sig", errors="replace", newline="") as handle:
        for line in handle:
            if not line.strip():
                continue
            if path.suffix.lower() == ".csv":
                return detect_log_kind(next(csv.reader([line]), [])) is not None
            try:
                record = json.loads(line)
            except (ValueError, RecursionError):
                return "task" in path.name.lower() or "retrieval" in path.name.lower()
            return isinstance(record, dict) and detect_log_kind(record) is not None
    return False


def _display(path: Path | str, root: Path, names: dict[str, str]) -> str:
    """A server path as the admin knows it: the upload's name, then the path inside it."""
    text = str(path)
    prefix = str(root) + "/"
    if not text.startswith(prefix):
        return text
    top, _, rest = text[len(prefix) :].partition("/")
    name = names.get(top, top)
    if rest and rest != Path(name).name:
        return f"{name}/{rest}" if name.lower().endswith(".zip") else rest
    return name


def _shown(report: dict, root: Path, names: dict[str, str]) -> dict:
    for key in ("rejected", "warnings"):
        for item in report.get(key, []):
            item["path"] = _display(item["path"], root, names)
    return report


def _runs(root: Path) -> list[Path]:
    """Reflexion runs among the uploads: a .jsonl whose first record has `is_solved` (a
    programming run), and a folder holding env_results_trial_<N>.json (an ALFWorld run)."""
    if not root.is_dir():
        return []
    found = []
    folders = set()
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        if trial_files([path.name]):
            folders.add(path.parent)
        elif path.suffix.lower() == ".jsonl" and _first_record_has(path, "is_solved"):
            found.append(path)
    return found + sorted(folders)


def _first_record_has(path: Path, key: str) -> bool:
    with open(path, encoding="utf-8-sig", errors="replace") as handle:
        for line in handle:
            if line.strip():
                try:
                    record = json.loads(line)
                except (ValueError, RecursionError):
                    return False
                return isinstance(record, dict) and key in record
    return False


def _import_run(job: ImportJob, root: Path, path: Path) -> dict:
    """One run, all or nothing: what it became, or why it was refused."""
    label = path.name
    if trial_files([p.name for p in path.iterdir()] if path.is_dir() else []) and (
        len(path.relative_to(root).parts) == 1
    ):
        return {
            "label": label,
            "error": "an ALFWorld run's trial files were uploaded one by one: upload the run's "
            "folder as a zip, its name names the run",
        }
    try:
        run, digest = read_run(path)
        inside = path.parent != root
        summary = import_run_from(
            path.parent.name if inside else "",
            run,
            digest,
            options=RunOptions(),  # its department is its benchmark
            user=job.user,
        )
    except (ParseError, RunError) as exc:
        line = f", line {exc.line}" if getattr(exc, "line", None) else ""
        reason = exc.reason if isinstance(exc, ParseError) else str(exc)
        return {"label": label, "error": f"{label}{line}: {reason}; nothing of it was imported"}
    return {
        "label": summary.run,
        "notes": summary.notes,
        "created": summary.created,
        "problems": summary.problems,
        "solved_by_trial": summary.solved_by_trial,
        "reflections": summary.reflections.created,
    }
