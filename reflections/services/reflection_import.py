"""Importing reflection files and workspace trees: one all-or-nothing batch per run."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from reflections import bulk
from reflections.importers.base import ParsedReflection, Rejection
from reflections.importers.pool import parse_sources
from reflections.importers.workspace import SourceFile, iter_reflection_files
from reflections.models import ImportRun, Reflection, ReflectionHistory, ScanFinding, State
from reflections.scanning import describe_findings
from reflections.services.batches import (
    HISTORY_COLUMNS,
    Directory,
    ImportSummary,
    Progress,
    UnknownDepartment,
    lock_imports,
    quote_value,
    valid_slug,
)
from reflections.services.rollups import refresh_rollup_of_reflections, shift_flows_of_reflections
from reflections.services.stored_fields import mask_parsed


def _state_declared_by_file(parsed: ParsedReflection) -> str:
    if parsed.deprecated_reason:
        return State.DEPRECATED
    if parsed.archived:
        return State.ARCHIVED
    if parsed.promoted:
        return State.PROMOTED
    return State.ACTIVE


FINDING_COLUMNS = (
    "reflection_id",
    "content_hash",
    "field",
    "rule",
    "category",
    "start",
    "end",
    "summary",
    "detected_at",
    "status",
    "resolution_reason",
)


REFLECTION_COLUMNS = (
    "id",
    "source_path",
    "format",
    "content_hash",
    "external_id",
    "original_text",
    "agent_id",
    "department_id",
    "task_type",
    "task_id",
    "kind",
    "outcome",
    "created_at",
    "title",
    "sections",
    "body",
    "tags",
    "skills",
    "tools",
    "confidence",
    "model_used",
    "salience",
    "state",
    "deprecated_reason",
    "retrieval_count",
    "last_retrieved_at",
    "imported_at",
    "updated_at",
)


def _content_values(parsed: ParsedReflection, agent_id: int | None, department_id: int) -> dict:
    return {
        "format": parsed.format,
        "content_hash": parsed.content_hash,
        "external_id": parsed.external_id,
        "original_text": parsed.original_text,
        "agent_id": agent_id,
        "department_id": department_id,
        "task_type": parsed.task_type,
        "task_id": parsed.task_id,
        "kind": parsed.kind,
        "outcome": parsed.outcome or "",
        "created_at": parsed.created_at,
        "title": parsed.title[:512],
        "sections": parsed.sections,
        "body": parsed.body,
        "tags": parsed.tags,
        "skills": parsed.skills,
        "tools": parsed.tools,
        "confidence": parsed.confidence,
        "model_used": parsed.model_used,
        "salience": parsed.salience,
    }


def import_reflections(
    *,
    paths: list[Path],
    default_department: str | None = None,
    now: datetime | None = None,
    user=None,
    progress_total: Callable[[int], None] | None = None,
    progress: Progress | None = None,
    create_departments: bool = False,
) -> ImportSummary:
    """Import reflection files or whole workspace trees as one all-or-nothing batch.

    Every file is read and parsed before the transaction starts; a rejected file or line is
    reported and skipped, and the accepted rest is written in a single transaction.
    """
    now = now or timezone.now()
    summary = ImportSummary()
    if default_department and not valid_slug(default_department):
        raise ValueError(
            f"--default-department {quote_value(default_department)} is not a department slug "
            "(lowercase letters, digits and hyphens)"
        )

    sources: list[SourceFile] = []
    for item in iter_reflection_files([Path(p) for p in paths]):
        if isinstance(item, Rejection):
            summary.rejected.append(item)
        else:
            sources.append(item)
    if progress_total:
        progress_total(len(sources))

    # Pointing at both `ws` and `ws/memory` names the same files: one source path, one row.
    parsed_by_path: dict[str, ParsedReflection] = {}
    for item in parse_sources(sources, now=now, progress=progress):
        if isinstance(item, Rejection):
            summary.rejected.append(item)
        elif item.source_path not in parsed_by_path:
            parsed_by_path[item.source_path] = item

    started = timezone.now()
    with transaction.atomic():
        lock_imports()
        _write_reflections(
            list(parsed_by_path.values()),
            default_department,
            now,
            user,
            summary,
            create_departments=create_departments,
        )
        summary.withhold_unsafe()
        ImportRun.objects.create(
            kind=ImportRun.Kind.REFLECTIONS,
            started_at=started,
            finished_at=timezone.now(),
            paths=[str(p) for p in paths],
            counts={
                "created": summary.created,
                "updated": summary.updated,
                "unchanged": summary.unchanged,
            },
            rejected=[r.as_dict() for r in summary.rejected[:1000]],
            user=user,
        )
    return summary


def _moved_reflections(updates: list[Reflection]) -> list[int]:
    """Ids among ``updates`` whose author or department differs from the stored row."""
    new = {r.pk: (r.agent_id, r.department_id) for r in updates}
    moved = []
    pks = list(new)
    for start in range(0, len(pks), 5000):
        for pk, agent_id, department_id in Reflection.objects.filter(
            pk__in=pks[start : start + 5000]
        ).values_list("id", "agent_id", "department_id"):
            if new[pk] != (agent_id, department_id):
                moved.append(pk)
    return moved


def _write_reflections(
    parsed: list[ParsedReflection],
    default_department: str | None,
    now: datetime,
    user,
    summary: ImportSummary,
    *,
    create_departments: bool,
) -> None:
    directory = Directory(create_departments=create_departments)
    for p in parsed:
        mask_parsed(p, directory)
    # Learn agent → department from records that state both, so that protocol reflections
    # (which never name a department) of the same agent land in the right place.
    learned: dict[str, str] = {}
    for p in parsed:
        if p.agent and p.department and directory.agent_department(p.agent) is None:
            learned.setdefault(p.agent, p.department)

    rows: list[tuple[ParsedReflection, int | None, int]] = []
    for p in parsed:
        dept_slug = p.department or ""
        if not dept_slug and p.agent:
            dept_id = directory.agent_department(p.agent)
            if dept_id is not None:
                dept_slug = next(s for s, i in directory.departments.items() if i == dept_id)
            else:
                dept_slug = learned.get(p.agent, "")
        dept_slug = dept_slug or (default_department or "")
        if not dept_slug:
            who = (
                f"agent {quote_value(p.agent)} has no department"
                if p.agent
                else "it names no agent"
            )
            summary.reject(
                p.source_path,
                None,
                f"department: none given and {who}; pass --default-department or assign "
                "the agent to a department in the admin",
            )
            continue
        try:
            dept_id = directory.department_id(dept_slug)
        except UnknownDepartment as problem:
            summary.reject(p.source_path, None, str(problem))
            continue
        agent_id = directory.agent(p.agent, dept_id)[0] if p.agent else None
        rows.append((p, agent_id, dept_id))

    existing: dict[str, tuple[int, str, str]] = {}
    paths = [p.source_path for p, _, _ in rows]
    for start in range(0, len(paths), 5000):
        chunk = paths[start : start + 5000]
        for pk, path, digest, state, reason in Reflection.objects.filter(
            source_path__in=chunk
        ).values_list("id", "source_path", "content_hash", "state", "deprecated_reason"):
            existing[path] = (pk, digest, state, reason)

    new_rows = [r for r in rows if r[0].source_path not in existing]
    changed = [
        r
        for r in rows
        if r[0].source_path in existing and existing[r[0].source_path][1] != r[0].content_hash
    ]
    summary.unchanged += len(rows) - len(new_rows) - len(changed)

    ids = bulk.allocate_ids(Reflection._meta.db_table, len(new_rows))
    history: list[tuple] = []

    # Values are adapted once here rather than per value in write_rows: at 100,000 rows the
    # generic adaptation costs as much as the COPY itself.
    db_now = bulk.adapt_value(now)
    quarantined: list[tuple[int, ParsedReflection]] = []

    def reflection_rows():
        for pk, (p, agent_id, dept_id) in zip(ids, new_rows, strict=True):
            values = _content_values(p, agent_id, dept_id)
            for column in ("sections", "tags", "skills", "tools"):
                values[column] = json.dumps(values[column])
            values["created_at"] = bulk.adapt_value(values["created_at"])
            state = State.QUARANTINED if p.findings else _state_declared_by_file(p)
            values.update(
                id=pk,
                source_path=p.source_path,
                state=state,
                deprecated_reason=p.deprecated_reason[:255],
                retrieval_count=0,
                last_retrieved_at=None,
                imported_at=db_now,
                updated_at=db_now,
            )
            reason = f"imported from {p.source_path}"
            if p.findings:
                reason += f"; quarantined: {describe_findings(p.findings)}"
                quarantined.append((pk, p))
            elif state != State.ACTIVE:
                reason += f"; the file declares it {state}"
                if p.deprecated_reason:
                    reason += f" ({p.deprecated_reason})"
            history.append(
                (
                    pk,
                    db_now,
                    "created",
                    getattr(user, "pk", None),
                    "import",
                    "",
                    state,
                    reason,
                    "",
                    p.content_hash,
                )
            )
            yield tuple(values[c] for c in REFLECTION_COLUMNS)

    summary.created += bulk.write_rows(
        Reflection._meta.db_table, REFLECTION_COLUMNS, reflection_rows(), adapt=False
    )

    updates: list[Reflection] = []
    for p, agent_id, dept_id in changed:
        pk, old_hash, old_state, old_reason = existing[p.source_path]
        values = _content_values(p, agent_id, dept_id)
        update = dict(values, updated_at=now, state=old_state, deprecated_reason=old_reason)
        if p.findings:
            quarantined.append((pk, p))
            if old_state != State.QUARANTINED:
                update["state"] = State.QUARANTINED
                history.append(
                    (
                        pk,
                        db_now,
                        "state",
                        getattr(user, "pk", None),
                        "import",
                        old_state,
                        State.QUARANTINED,
                        f"quarantined: {describe_findings(p.findings)}",
                        "",
                        "",
                    )
                )
        history.append(
            (
                pk,
                db_now,
                "content",
                getattr(user, "pk", None),
                "import",
                old_state,
                old_state,
                f"source file {p.source_path} changed",
                old_hash,
                p.content_hash,
            )
        )
        # A file can gain a deprecation (written back by a review), never lose one: only a
        # person restores a deprecated reflection (DOMAIN §4).
        if p.deprecated_reason and old_state != State.DEPRECATED:
            update.update(state=State.DEPRECATED, deprecated_reason=p.deprecated_reason[:255])
            history.append(
                (
                    pk,
                    db_now,
                    "state",
                    getattr(user, "pk", None),
                    "import",
                    old_state,
                    State.DEPRECATED,
                    f"the source file declares it deprecated ({p.deprecated_reason})",
                    "",
                    "",
                )
            )
        updates.append(Reflection(pk=pk, **update))
        update_fields = list(update)  # the same keys for every changed file
        summary.updated += 1

    if updates:
        # A changed file may name another author or department: their rollup rows are
        # recounted (cross-agent depends on the author, the rollup copies the department).
        moved = _moved_reflections(updates)
        # Their retrievals leave the flows to the old department and join the new one's.
        shift_flows_of_reflections(moved, sign=-1)
        # One statement per 500 changed files rather than one per file.
        Reflection.objects.bulk_update(updates, update_fields, batch_size=500)
        refresh_rollup_of_reflections(moved)
        shift_flows_of_reflections(moved, sign=1)
    bulk.write_rows(ReflectionHistory._meta.db_table, HISTORY_COLUMNS, history, adapt=False)
    bulk.write_rows(
        ScanFinding._meta.db_table,
        FINDING_COLUMNS,
        (
            (
                pk,
                p.content_hash,
                f.field[:255],
                f.rule,
                f.category,
                f.start,
                f.end,
                f.summary[:255],
                db_now,
                ScanFinding.Status.OPEN.value,
                "",
            )
            for pk, p in quarantined
            for f in p.findings
        ),
        adapt=False,
    )
    summary.details["quarantined"] = summary.details.get("quarantined", 0) + len(quarantined)
