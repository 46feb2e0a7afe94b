"""Importing reflection files and workspace trees: one all-or-nothing batch per run."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from itertools import chain
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from reflections.announcements import announce_history_since
from reflections.caching import EVENTS, bump_data_version
from reflections.importers.ahead import claim as claim_ahead
from reflections.importers.base import ParsedReflection, Rejection
from reflections.importers.pool import objects_frozen, parse_batches, start_fork_server
from reflections.importers.workspace import SourceFile, SourceText, iter_reflection_files
from reflections.models import ImportRun
from reflections.services.active_set import history_watermark, refresh_active_set_since
from reflections.services.batches import (
    ImportSummary,
    Progress,
    check_foreign_keys_now,
    lock_imports,
    quote_value,
    valid_slug,
)
from reflections.services.reflection_batch import (  # noqa: F401 (REFLECTION_COLUMNS: bench/)
    CHUNK_ROWS,
    REFLECTION_COLUMNS,
    ReflectionBatch,
)
from reflections.services.task_rollup import changed_pairs, first_lessons, refresh_task_outcome_days


@objects_frozen()
def import_reflections(
    *,
    paths: list[Path] = (),
    texts: list[SourceText] = (),
    default_department: str | None = None,
    now: datetime | None = None,
    user=None,
    progress_total: Callable[[int], None] | None = None,
    progress: Progress | None = None,
    rows_done: Progress | None = None,
    create_departments: bool = False,
    per_file: bool = False,
    parsed: list[ParsedReflection | Rejection] = (),
    label: str = "",
) -> ImportSummary:
    """Import reflection files or whole workspace trees as one all-or-nothing batch.

    Files are parsed (on every core when there are many) while the accepted ones are written,
    in a single transaction; a rejected file or line is reported and skipped. With
    `per_file`, the summary also says what happened to each source path (`summary.files`). `texts`
    are files given as text (the API), parsed by the same rules as files on disk; `parsed` are
    reflections another reader made and scanned (a Reflexion run), stored first, and `label`
    names them on the import's record. `progress` is
    told of each file parsed, `rows_done` of the reflections written so far after each batch.
    """
    summary = ImportSummary(files={} if per_file else None)
    if default_department and not valid_slug(default_department):
        raise ValueError(
            f"--default-department {quote_value(default_department)} is not a department slug "
            "(lowercase letters, digits and hyphens)"
        )
    # Files the command line had parsed while Django started (importers.ahead), at their time.
    ahead = claim_ahead(paths) if paths and not texts and not parsed and now is None else None
    now = now or (ahead.now if ahead else timezone.now())

    if not ahead and any(Path(p).is_dir() for p in paths):
        start_fork_server()  # a tree may hold thousands of files: the parsers load meanwhile
    sources: list[SourceFile | SourceText] = list(texts)
    walked = ahead.walked if ahead else iter_reflection_files([Path(p) for p in paths])
    for item in walked:
        if isinstance(item, Rejection):
            summary.rejected.append(item)
        else:
            sources.append(item)
    if progress_total:
        progress_total(len(sources))

    started = timezone.now()
    with transaction.atomic():
        lock_imports()
        # Foreign keys checked as each batch is stored, beside the parsing, rather than all at
        # COMMIT when nothing else is left to do (Django makes them deferred).
        check_foreign_keys_now()
        lessons_before, watermark = first_lessons(), history_watermark()
        batch = ReflectionBatch(
            summary=summary,
            now=now,
            user=user,
            default_department=default_department,
            create_departments=create_departments,
        )
        # The pool parses ahead while each batch is stored (reflection_batch.py).
        batches = parse_batches(
            sources,
            now=now,
            rows=CHUNK_ROWS,
            progress=progress,
            started=ahead.parsing if ahead else None,
        )
        for items in chain([list(parsed)] if parsed else [], batches):
            parsed: list[ParsedReflection] = []
            for item in items:
                if isinstance(item, Rejection):
                    summary.rejected.append(item)
                else:
                    parsed.append(item)
            batch.add(parsed)
            if rows_done:
                rows_done(summary.created + summary.unchanged)
        batch.finish()  # what waited for a department, and the changed files
        if rows_done:
            rows_done(summary.created + summary.updated + summary.unchanged)
        # A lesson written earlier than its pair's first makes more of its tasks eligible.
        refresh_task_outcome_days(pairs=changed_pairs(lessons_before, first_lessons()))
        refresh_active_set_since(watermark, created_written=True)
        announce_history_since(watermark)  # quarantined or deprecated by their files
        if summary.created:
            bump_data_version()  # the active set grew (refresh_active_set bumps its own)
        if summary.created or summary.updated:
            bump_data_version(EVENTS)  # a lesson written late in a past window counts there
        summary.withhold_unsafe()
        ImportRun.objects.create(
            kind=ImportRun.Kind.REFLECTIONS,
            started_at=started,
            finished_at=timezone.now(),
            paths=[str(p) for p in paths] or [label or f"API: {len(texts)} file(s)"],
            counts={
                "created": summary.created,
                "updated": summary.updated,
                "unchanged": summary.unchanged,
            },
            rejected=[r.as_dict() for r in summary.rejected[:1000]],
            user=user,
        )
    if summary.created or summary.updated:
        _encode_imported()
    return summary


def _encode_imported() -> None:
    """An embedding model's vectors for what arrived (services.vectors.encode_imported). Only
    the embedding backend keeps a vector per text version; the others are refitted with the
    neighbours, and their import would load NumPy and the similarity code (~60 ms of every
    import command) for nothing."""
    if settings.SIMILARITY_BACKEND != "embedding":
        return
    from reflections.services.vectors import encode_imported

    encode_imported()
