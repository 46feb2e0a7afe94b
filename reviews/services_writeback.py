"""Writing review deprecations back into the source files the agent runtime reads (DOMAIN §5),
taking them out again once the verdict is undone or changed to keep, and keeping the database
in step so the next import of those files changes nothing."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath

from django.db import transaction
from django.utils import timezone

from reflections.importers.base import (
    MAX_REFLECTION_FILE_BYTES,
    ParsedReflection,
    ParseError,
    content_hash,
    normalise_text,
)
from reflections.importers.registry import parse_text
from reflections.importers.workspace import HEAD_BYTES, detect_format
from reflections.models import Reflection, ReflectionHistory, State
from reviews.models import ReviewCycle, ReviewItem
from reviews.selectors_export import DEPRECATING_VERDICTS, deprecation_items
from reviews.writeback import (
    KEYS,
    RESTORERS,
    WRITERS,
    Deprecation,
    WriteBackUnsupported,
    restore_text,
    unsupported_reason,
    write_back_text,
    written_back_keys,
)

ACTOR_LABEL = "write_back"
_BOM = b"\xef\xbb\xbf"

# What happened to each reflection, in the order a report lists them.
OUTCOMES = (
    "written",
    "restored",
    "up_to_date",
    "changed_since_import",
    "missing",
    "unsupported",
    "refused",
    "failed",
)
OUTCOME_LABELS = {
    "written": "written",
    "restored": "restored",
    "up_to_date": "already up to date",
    "changed_since_import": "changed since import",
    "missing": "missing",
    "unsupported": "unsupported",
    "refused": "refused (unsafe path)",
    "failed": "failed",
}


@dataclass(frozen=True)
class WriteBackEntry:
    source_path: str
    reflection_id: int
    # What was (or, in a dry run, would be) written, or why the file was left alone.
    detail: str

    def as_dict(self) -> dict:
        return {
            "source_path": self.source_path,
            "reflection_id": self.reflection_id,
            "detail": self.detail,
        }


@dataclass
class WriteBackReport:
    root: str
    dry_run: bool
    entries: dict[str, list[WriteBackEntry]] = field(
        default_factory=lambda: {outcome: [] for outcome in OUTCOMES}
    )

    def add(self, outcome: str, reflection: Reflection, detail: str) -> None:
        self.entries[outcome].append(WriteBackEntry(reflection.source_path, reflection.pk, detail))

    def paths(self, outcome: str) -> list[str]:
        return [entry.source_path for entry in self.entries[outcome]]

    @property
    def counts(self) -> dict[str, int]:
        return {outcome: len(entries) for outcome, entries in self.entries.items()}

    def as_dict(self) -> dict:
        return {
            "root": self.root,
            "dry_run": self.dry_run,
            "counts": self.counts,
            **{outcome: [e.as_dict() for e in self.entries[outcome]] for outcome in OUTCOMES},
        }


class _Skip(Exception):
    def __init__(self, outcome: str, detail: str):
        self.outcome = outcome
        self.detail = detail
        super().__init__(detail)


def write_back(
    *,
    root: Path,
    dry_run: bool = False,
    cycle: ReviewCycle | int | None = None,
    now: datetime | None = None,
) -> WriteBackReport:
    """Write every review deprecation (optionally one cycle's) into its file under `root`, the
    workspace root that source paths are relative to, and restore the files written back before
    whose reflection is no longer deprecated (the verdict was undone or changed to keep).

    A file is only rewritten when it still holds exactly the text that was imported; each file
    is replaced atomically, and its new text and hash are stored with a history row in the
    same transaction, so a later import of the file is a no-op. A dry run changes nothing and
    reports what would be written or restored.
    """
    now = now or timezone.now()
    root = Path(root).resolve(strict=True)
    if not root.is_dir():
        raise NotADirectoryError(f"{root} is not a directory")
    report = WriteBackReport(root=str(root), dry_run=dry_run)

    seen: set[int] = set()
    # Newest verdict first: a reflection deprecated in two cycles is written once, as last decided.
    items = deprecation_items(cycle=cycle).order_by("reflection__source_path", "-decided_at", "-id")
    for item in items:
        if item.reflection_id in seen:
            continue
        seen.add(item.reflection_id)
        reflection = item.reflection
        try:
            detail = _write_one(item, root=root, dry_run=dry_run, now=now)
        except _Skip as skip:
            report.add(skip.outcome, reflection, skip.detail)
        except OSError as exc:
            report.add("failed", reflection, f"could not write the file: {exc.strerror or exc}")
        else:
            report.add("written", reflection, detail)
    _restore(report, root=root, dry_run=dry_run, cycle=cycle, now=now)
    return report


def _restore(
    report: WriteBackReport,
    *,
    root: Path,
    dry_run: bool,
    cycle: ReviewCycle | int | None,
    now: datetime,
) -> None:
    """Take the deprecation out of every file we wrote one into whose reflection is no longer
    deprecated. A reflection whose imported text holds no deprecated_reason has nothing of ours
    left (restored already, or edited by hand and imported since): it is not listed."""
    written = ReflectionHistory.objects.filter(
        change=ReflectionHistory.Change.CONTENT, actor_label=ACTOR_LABEL
    )
    # The texts the files held before each of our writes: a restore that gives one of them back
    # is known to be byte for byte what the author wrote.
    before: dict[int, set[str]] = {}
    for reflection_id, from_hash in written.values_list("reflection_id", "from_hash"):
        before.setdefault(reflection_id, set()).add(from_hash)
    # Quarantined text is for admins only, and a deprecated one keeps its file as it is.
    candidates = Reflection.objects.filter(pk__in=written.values("reflection_id")).exclude(
        state__in=[State.DEPRECATED, State.QUARANTINED]
    )
    if cycle is not None:
        withdrawn = ReviewItem.objects.filter(cycle=cycle).exclude(verdict__in=DEPRECATING_VERDICTS)
        candidates = candidates.filter(pk__in=withdrawn.values("reflection_id"))
    for reflection in candidates.order_by("source_path", "id"):
        if reflection.format not in RESTORERS:
            continue
        try:
            keys = written_back_keys(reflection.original_text, fmt=reflection.format)
        except WriteBackUnsupported as exc:
            report.add("unsupported", reflection, exc.reason)
            continue
        if "deprecated_reason" not in keys:
            continue
        try:
            detail = _restore_one(
                reflection,
                keys=keys,
                before=before.get(reflection.pk, set()),
                root=root,
                dry_run=dry_run,
                now=now,
            )
        except _Skip as skip:
            report.add(skip.outcome, reflection, skip.detail)
        except OSError as exc:
            report.add("failed", reflection, f"could not write the file: {exc.strerror or exc}")
        else:
            report.add("restored", reflection, detail)


def _restore_one(
    reflection: Reflection,
    *,
    keys: dict[str, object],
    before: set[str],
    root: Path,
    dry_run: bool,
    now: datetime,
) -> str:
    path = resolve_source_file(root, reflection.source_path)
    raw, text = _read_imported_text(path, reflection)
    fmt = reflection.format
    try:
        new_text = restore_text(text, fmt=fmt, keep=())
        # `archived: true` the author wrote before us stays: keeping it must give back exactly
        # a text the file held before a write-back, or every key goes.
        if content_hash(new_text) not in before and keys.get("archived") is True:
            kept = restore_text(text, fmt=fmt, keep=("archived",))
            if content_hash(kept) in before:
                new_text = kept
        left = written_back_keys(new_text, fmt=fmt)
    except WriteBackUnsupported as exc:
        raise _Skip("unsupported", exc.reason) from None
    if new_text == text:
        raise _Skip("up_to_date", "no write-back keys to remove")
    removed = [k for k in KEYS if k in keys and k not in left]
    detail = "removed " + ", ".join(removed)
    if content_hash(new_text) in before:
        detail += " (the text as it was before write-back)"
    new_raw = _encode_like(raw, new_text)
    _check_importer_reads(new_raw, new_text, reflection, reasons=("",), now=now)
    if dry_run:
        return detail

    _commit(
        reflection,
        path=path,
        raw=raw,
        new_raw=new_raw,
        new_text=new_text,
        expected_state=reflection.state,
        reason=f"review deprecation withdrawn, {detail} in {reflection.source_path}",
        now=now,
        race="the reflection changed while restoring",
    )
    return detail


def _write_one(item: ReviewItem, *, root: Path, dry_run: bool, now: datetime) -> str:
    reflection = item.reflection
    duplicate_of = item.duplicate_of.source_path if item.duplicate_of else ""
    try:
        deprecation = Deprecation(item.verdict, duplicate_of)
    except ValueError as exc:
        raise _Skip("unsupported", f"the verdict cannot be written: {exc}") from None

    if reflection.format not in WRITERS:
        raise _Skip("unsupported", unsupported_reason(reflection.format))
    path = resolve_source_file(root, reflection.source_path)
    raw, text = _read_imported_text(path, reflection)
    try:
        new_text = write_back_text(text, fmt=reflection.format, deprecation=deprecation)
    except WriteBackUnsupported as exc:
        raise _Skip("unsupported", exc.reason) from None
    if new_text == text:
        raise _Skip("up_to_date", deprecation.describe())
    new_raw = _encode_like(raw, new_text)
    _check_importer_reads(new_raw, new_text, reflection, reasons=("", deprecation.reason), now=now)
    if dry_run:
        return deprecation.describe()

    _commit(
        reflection,
        path=path,
        raw=raw,
        new_raw=new_raw,
        new_text=new_text,
        expected_state=State.DEPRECATED,
        reason=f"review verdict written back into {reflection.source_path}: "
        + deprecation.describe(),
        now=now,
        race="the reflection changed while writing back",
    )
    return deprecation.describe()


def _commit(
    reflection: Reflection,
    *,
    path: Path,
    raw: bytes,
    new_raw: bytes,
    new_text: str,
    expected_state: str,
    reason: str,
    now: datetime,
    race: str,
) -> None:
    """Store the new text and hash with a content history row, then swap the file, as one
    unit: the row as we read it must still be there (an import, a redaction or a new verdict in
    between wins and we stop), and the file is replaced last, so that any failure before it
    rolls the row back and leaves the file as it was; the file is read once more right before
    the swap in case it changed meanwhile."""
    new_hash = content_hash(new_text)
    with transaction.atomic():
        updated = Reflection.objects.filter(
            pk=reflection.pk, content_hash=reflection.content_hash, state=expected_state
        ).update(content_hash=new_hash, original_text=new_text, updated_at=now)
        if not updated:
            raise _Skip("changed_since_import", race)
        ReflectionHistory.objects.create(
            reflection_id=reflection.pk,
            at=now,
            change=ReflectionHistory.Change.CONTENT,
            actor=None,
            actor_label=ACTOR_LABEL,
            from_state=reflection.state,
            to_state=reflection.state,
            reason=reason,
            from_hash=reflection.content_hash,
            to_hash=new_hash,
        )
        _replace_if_unchanged(path, expected=raw, data=new_raw)


def resolve_source_file(root: Path, source_path: str) -> Path:
    """The file a source path names under the (resolved) root. Refuses paths that leave the
    root, by `..`, an absolute path or a symlink, like the importer's walk (workspace.py)."""
    relative = PurePosixPath(source_path)
    if (
        not source_path
        or relative.is_absolute()
        or ".." in relative.parts
        or "\\" in source_path
        or "#" in source_path
    ):
        raise _Skip(
            "refused", f"the source path {source_path!r} is not a file path inside the root"
        )
    path = root.joinpath(*relative.parts)
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise _Skip("refused", f"cannot resolve the path: {exc}") from None
    if not resolved.is_relative_to(root):
        raise _Skip("refused", f"symlink points outside the workspace ({source_path} → {resolved})")
    if not os.path.lexists(path) or not resolved.exists():
        raise _Skip("missing", f"no file at {path}")
    if not resolved.is_file():
        raise _Skip("refused", f"{path} is not a regular file")
    return resolved


def _read_imported_text(path: Path, reflection: Reflection) -> tuple[bytes, str]:
    """The file's bytes and normalised text, if its text is still the one imported."""
    with open(path, "rb") as handle:
        raw = handle.read(MAX_REFLECTION_FILE_BYTES + 1)
    try:
        text = normalise_text(raw) if len(raw) <= MAX_REFLECTION_FILE_BYTES else None
    except ParseError:
        text = None
    if text is None or content_hash(text) != reflection.content_hash:
        raise _Skip(
            "changed_since_import",
            "the file's content no longer matches the imported text (hash "
            f"{reflection.content_hash[:12]}…); import it again or edit it by hand",
        )
    return raw, text


def _encode_like(raw: bytes, text: str) -> bytes:
    """`text` with the original file's BOM and line endings (the hash ignores both)."""
    if b"\r\n" in raw:
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8")
    return _BOM + data if raw.startswith(_BOM) else data


def _check_importer_reads(
    data: bytes, text: str, reflection: Reflection, *, reasons: tuple[str, ...], now: datetime
) -> None:
    """Never write a file the next import would reject, read as another format, or read with
    a deprecated_reason other than one of `reasons`."""
    fmt = detect_format(reflection.source_path, data[:HEAD_BYTES])
    parsed = (
        parse_text(text, fmt=fmt, source_path=reflection.source_path, now=now)
        if fmt == reflection.format
        else []
    )
    problem = ""
    if fmt != reflection.format:
        problem = f"it would be read as {fmt or 'no known format'}, not {reflection.format}"
    elif len(parsed) != 1 or not isinstance(parsed[0], ParsedReflection):
        problem = parsed[0].reason if parsed else "it would hold no reflection"
    elif parsed[0].deprecated_reason not in reasons:
        problem = f"it would declare the reason {parsed[0].deprecated_reason!r}"
    if problem:
        raise _Skip(
            "unsupported",
            f"the importer could not read the file as edited ({problem}); "
            "the file was left as it is",
        )


def _replace_if_unchanged(path: Path, *, expected: bytes, data: bytes) -> None:
    """Swap in `data` atomically: a temporary file in the same directory, flushed to disk and
    given the original's mode, renamed over the original, and the directory synced."""
    with open(path, "rb") as handle:
        if handle.read(len(expected) + 1) != expected:
            raise _Skip("changed_since_import", "the file changed while writing back")
    mode = stat.S_IMODE(os.stat(path).st_mode)
    # A hidden name: should we crash before the rename, the importer's walk skips the leftover.
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    # The rename is done; syncing the directory makes it survive a power cut. Some file systems
    # refuse to sync a directory: that must not undo a write that has already happened.
    with contextlib.suppress(OSError):
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
