"""Writes that span models: importing reflections and logs, exporting reflections."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone
from django.utils.text import slugify

from reflections import bulk
from reflections.importers.base import ParsedReflection, ParsedRetrieval, ParsedTask, Rejection
from reflections.importers.events import detect_log_kind, parse_retrieval_lines, parse_task_lines
from reflections.importers.pool import parse_sources
from reflections.importers.workspace import SourceFile, iter_reflection_files
from reflections.models import (
    Agent,
    Department,
    ImportRun,
    Outcome,
    Reflection,
    ReflectionHistory,
    RetrievalDay,
    RetrievalEvent,
    RetrievalFlowDay,
    ScanFinding,
    State,
    TaskInjection,
    TaskRun,
)

logger = logging.getLogger(__name__)

Progress = Callable[[int], None]

# Rows held in memory between two bulk writes of a log import.
EVENT_CHUNK_ROWS = 200_000


@dataclass
class ImportSummary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: list[Rejection] = field(default_factory=list)
    details: dict = field(default_factory=dict)

    def reject(self, path: str, line: int | None, reason: str) -> None:
        self.rejected.append(Rejection(path=path, line=line, reason=reason))

    def as_dict(self) -> dict:
        return {
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "rejected": [r.as_dict() for r in self.rejected],
            **self.details,
        }


# --------------------------------------------------------------------------- reflections


def _valid_slug(value: str) -> bool:
    return bool(value) and slugify(value) == value


class _Directory:
    """Departments and agents by name, created on first sight within the import transaction."""

    def __init__(self) -> None:
        # Events with ids from here on are not in the flows yet (the event import adds them
        # at its end); None: every event is.
        self.uncounted_from: int | None = None
        self.departments = dict(Department.objects.values_list("slug", "id"))
        self.agents: dict[str, list] = {
            name: [pk, dept]
            for pk, name, dept in Agent.objects.values_list("id", "name", "department_id")
        }

    def department_id(self, slug: str) -> int:
        if slug not in self.departments:
            dept = Department.objects.create(slug=slug, name=slug.replace("-", " ").title())
            self.departments[slug] = dept.id
        return self.departments[slug]

    def agent(self, name: str, department_id: int | None) -> tuple[int, int | None]:
        """The agent's id and department, creating the agent or filling a missing department."""
        if name not in self.agents:
            agent = Agent.objects.create(name=name, department_id=department_id)
            self.agents[name] = [agent.id, department_id]
        entry = self.agents[name]
        if entry[1] is None and department_id is not None:
            # Its retrievals that state no department flow from its department from now on.
            counted = "e.agent_id = %s AND e.department_id IS NULL"
            params = [entry[0]]
            if self.uncounted_from is not None:
                counted += " AND e.id < %s"
                params.append(self.uncounted_from)
            shift_flows(where=counted, params=params, sign=-1)
            Agent.objects.filter(pk=entry[0]).update(department_id=department_id)
            shift_flows(where=counted, params=params, sign=1)
            entry[1] = department_id
        return entry[0], entry[1]

    def agent_department(self, name: str) -> int | None:
        entry = self.agents.get(name)
        return entry[1] if entry else None


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
    "rule",
    "category",
    "start",
    "end",
    "summary",
    "detected_at",
    "status",
    "resolution_reason",
)


def describe_findings(findings) -> str:
    """Findings in words for a history row: categories and summaries, never the values."""
    return "; ".join(f"{f.category}: {f.summary}" for f in findings[:5]) + (
        f"; and {len(findings) - 5} more" if len(findings) > 5 else ""
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
HISTORY_COLUMNS = (
    "reflection_id",
    "at",
    "change",
    "actor_id",
    "actor_label",
    "from_state",
    "to_state",
    "reason",
    "from_hash",
    "to_hash",
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
) -> ImportSummary:
    """Import reflection files or whole workspace trees as one all-or-nothing batch.

    Every file is read and parsed before the transaction starts; a rejected file or line is
    reported and skipped, and the accepted rest is written in a single transaction.
    """
    now = now or timezone.now()
    summary = ImportSummary()
    if default_department and not _valid_slug(default_department):
        raise ValueError(
            f"--default-department {default_department!r} is not a department slug "
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
        _lock_imports()
        _write_reflections(list(parsed_by_path.values()), default_department, now, user, summary)
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


def _lock_imports() -> None:
    """Serialise imports so two batches never race for the same source path or id range."""
    if bulk.is_postgres():
        bulk.execute("SELECT pg_advisory_xact_lock(%s)", [0x5EF1E])
    # SQLite: transactions are IMMEDIATE (settings), so the write lock is already held.


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
) -> None:
    directory = _Directory()
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
            who = f"agent {p.agent!r} has no department" if p.agent else "it names no agent"
            summary.reject(
                p.source_path,
                None,
                f"department: none given and {who}; pass --default-department or assign "
                "the agent to a department in the admin",
            )
            continue
        if not _valid_slug(dept_slug):
            summary.reject(
                p.source_path,
                None,
                f"department: {dept_slug!r} is not a department slug "
                "(lowercase letters, digits and hyphens)",
            )
            continue
        dept_id = directory.department_id(dept_slug)
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


# --------------------------------------------------------------------------- logs

LOG_SUFFIXES = {".jsonl": "jsonl", ".csv": "csv"}


def iter_log_files(paths: list[Path], summary: ImportSummary) -> Iterator[tuple[Path, str]]:
    for path in paths:
        if path.is_dir():
            candidates = sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix in LOG_SUFFIXES
            )
        elif path.is_file():
            candidates = [path]
        else:
            summary.reject(str(path), None, "no such file or directory")
            continue
        for file in candidates:
            fmt = LOG_SUFFIXES.get(file.suffix)
            if fmt is None:
                summary.reject(str(file), None, "not a log file: expected a .jsonl or .csv file")
                continue
            yield file, fmt


def _open_lines(path: Path) -> Iterator[str]:
    """Lines of a UTF-8 log, BOM and CRLF tolerated; a decoding error names the line."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                yield raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as exc:
                # Yield a marker the parsers reject with the line number.
                yield f"\x00not valid UTF-8 at byte {exc.start} of the line"


def _detect_kind(path: Path, fmt: str) -> str | None:
    import csv
    import json

    name = path.name.lower()
    for line in _open_lines(path):
        if not line.strip():
            continue
        try:
            first = json.loads(line) if fmt == "jsonl" else next(csv.reader([line]))
        except (ValueError, StopIteration):
            break
        kind = detect_log_kind(first)
        if kind:
            return kind
        break
    if "retrieval" in name:
        return "retrieval"
    if "task" in name:
        return "task"
    return None


class _ReflectionRefs:
    """Resolves a log's reference (source path, content hash or scenario id) to a reflection id."""

    def __init__(self) -> None:
        self.by_path: dict[str, int] = {}
        self.by_hash: dict[str, int] = {}
        self.by_external: dict[str, int] = {}
        for pk, path, digest, ext in Reflection.objects.values_list(
            "id", "source_path", "content_hash", "external_id"
        ).iterator(chunk_size=20_000):
            self.by_path[path] = pk
            self.by_hash.setdefault(digest, pk)
            if ext:
                self.by_external.setdefault(ext, pk)

    def resolve(self, ref: str) -> int | None:
        return self.by_path.get(ref) or self.by_hash.get(ref) or self.by_external.get(ref)


def import_events(
    *,
    paths: list[Path],
    now: datetime | None = None,
    user=None,
    progress: Progress | None = None,
) -> ImportSummary:
    """Import retrieval and task logs (JSONL or CSV) as one all-or-nothing batch.

    Retrievals and tasks join on task_id, so either log may come first. A retrieval whose
    reflection is unknown is rejected with the reference in the reason.
    """
    now = now or timezone.now()
    summary = ImportSummary()
    counts = {
        "retrievals": {"created": 0, "unchanged": 0},
        "tasks": {"created": 0, "updated": 0, "unchanged": 0},
    }
    files = list(iter_log_files([Path(p) for p in paths], summary))
    started = timezone.now()
    with transaction.atomic():
        _lock_imports()
        refs = _ReflectionRefs()
        directory = _Directory()
        touched: set[int] = set()
        # Events get increasing ids, and imports are serialised: every event this batch
        # writes has an id above this one, which is how the rollup finds the days it touched.
        first_new_event = _max_event_id() + 1
        directory.uncounted_from = first_new_event
        _start_remembering_outcomes()
        for path, fmt in files:
            kind = _detect_kind(path, fmt)
            if kind is None:
                summary.reject(
                    str(path),
                    1,
                    "cannot tell whether this is a retrieval or a task log: a retrieval needs "
                    "reflection and retrieved_at, a task needs task_id, finished_at and outcome",
                )
                continue
            lines = _open_lines(path)
            if kind == "retrieval":
                created, unchanged = _import_retrievals(
                    path, fmt, lines, refs, directory, now, touched, summary, progress
                )
                counts["retrievals"]["created"] += created
                counts["retrievals"]["unchanged"] += unchanged
            else:
                created, updated, unchanged = _import_tasks(
                    path, fmt, lines, refs, directory, now, summary, progress
                )
                counts["tasks"]["created"] += created
                counts["tasks"]["updated"] += updated
                counts["tasks"]["unchanged"] += unchanged
        if touched:
            refresh_retrieval_counters(reflection_ids=touched)
        if counts["retrievals"]["created"]:
            _refresh_rollup_after_import(first_new_event, counts["retrievals"]["created"])
            shift_flows(where="e.id >= %s", params=[first_new_event], sign=1)
        _count_useful_after_import(first_new_event)
        summary.created = counts["retrievals"]["created"] + counts["tasks"]["created"]
        summary.updated = counts["tasks"]["updated"]
        summary.unchanged = counts["retrievals"]["unchanged"] + counts["tasks"]["unchanged"]
        summary.details = counts
        ImportRun.objects.create(
            kind=ImportRun.Kind.EVENTS,
            started_at=started,
            finished_at=timezone.now(),
            paths=[str(p) for p in paths],
            counts=counts,
            rejected=[r.as_dict() for r in summary.rejected[:1000]],
            user=user,
        )
    return summary


RETRIEVAL_STAGING = "staging_retrieval"
RETRIEVAL_COLUMNS = (
    "reflection_id",
    "retrieved_at",
    "task_id",
    "agent_id",
    "department_id",
    "rank",
    "score",
)


def _chunks(items: Iterable, size: int) -> Iterator[list]:
    chunk: list = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _import_retrievals(
    path, fmt, lines, refs, directory, now, touched, summary, progress
) -> tuple[int, int]:
    label = str(path)
    table = RetrievalEvent._meta.db_table
    cols = ", ".join(RETRIEVAL_COLUMNS)
    created = total = 0
    department_ids: dict[str, int | None] = {}  # slug → id, None when the slug is invalid
    # On PostgreSQL psycopg adapts datetimes itself and these rows hold no JSON.
    adapt = not bulk.is_postgres()

    def rows(items: Iterable[ParsedRetrieval | Rejection]) -> list[tuple]:
        nonlocal total
        out = []
        for item in items:
            if isinstance(item, Rejection):
                summary.rejected.append(item)
                continue
            reflection_id = refs.resolve(item.reflection_ref)
            if reflection_id is None:
                summary.reject(
                    label,
                    item.line,
                    f"reflection: unknown reflection {item.reflection_ref!r} "
                    "(no source path, content hash or scenario id matches)",
                )
                continue
            dept_id = None
            if item.department:
                if item.department not in department_ids:
                    department_ids[item.department] = (
                        directory.department_id(item.department)
                        if _valid_slug(item.department)
                        else None
                    )
                dept_id = department_ids[item.department]
                if dept_id is None:
                    summary.reject(
                        label,
                        item.line,
                        f"department: {item.department!r} is not a department slug",
                    )
                    continue
            agent_id = directory.agent(item.agent, dept_id)[0]
            touched.add(reflection_id)
            out.append(
                (
                    reflection_id,
                    item.retrieved_at,
                    item.task_id,
                    agent_id,
                    dept_id,
                    item.rank,
                    item.score,
                )
            )
        total += len(out)
        return out

    staging_ready = False
    for chunk in _chunks(
        parse_retrieval_lines(lines, path=label, fmt=fmt, now=now), EVENT_CHUNK_ROWS
    ):
        # Materialised first: resolving may create agents, and a COPY in progress owns the
        # connection.
        batch = rows(chunk)
        # Optimistic path: a log seen for the first time goes straight into the table with
        # one COPY. If any row is already there (a re-import, an overlapping log), the
        # savepoint undoes the attempt and the chunk takes the idempotent staging path.
        try:
            with transaction.atomic():
                created += bulk.write_rows(table, RETRIEVAL_COLUMNS, batch, adapt=adapt)
        except IntegrityError:
            if not staging_ready:
                bulk.create_staging_table(
                    RETRIEVAL_STAGING,
                    "reflection_id bigint, retrieved_at timestamp with time zone, "
                    "task_id varchar(255), agent_id bigint, department_id bigint, rank integer, "
                    "score double precision",
                )
                staging_ready = True
            bulk.write_rows(RETRIEVAL_STAGING, RETRIEVAL_COLUMNS, batch, adapt=adapt)
            created += bulk.execute(
                f"INSERT INTO {connection.ops.quote_name(table)} ({cols}) SELECT {cols} "
                f"FROM {RETRIEVAL_STAGING} WHERE true ON CONFLICT DO NOTHING"
            )
            bulk.execute(f"DELETE FROM {RETRIEVAL_STAGING}")
        if progress:
            progress(len(chunk))
    if staging_ready:
        bulk.drop_staging_table(RETRIEVAL_STAGING)
    return created, total - created


def refresh_retrieval_counters(*, reflection_ids: Iterable[int] | None = None) -> None:
    """Recount retrieval_count and last_retrieved_at from the events, set-based.

    With ids, only those reflections (what an import touched); without, every reflection.
    """
    table = connection.ops.quote_name(Reflection._meta.db_table)
    events = connection.ops.quote_name(RetrievalEvent._meta.db_table)
    only = ""
    if reflection_ids is not None:
        bulk.create_staging_table("staging_ids", "id bigint")
        if not bulk.write_rows("staging_ids", ["id"], ((i,) for i in sorted(set(reflection_ids)))):
            return
        bulk.analyze("staging_ids")
        only = "WHERE reflection_id IN (SELECT id FROM staging_ids)"
    bulk.execute(
        f"UPDATE {table} SET retrieval_count = agg.n, last_retrieved_at = agg.last "
        f"FROM (SELECT reflection_id, COUNT(*) AS n, MAX(retrieved_at) AS last FROM {events} "
        f"{only} GROUP BY reflection_id) agg WHERE {table}.id = agg.reflection_id"
    )
    if only:
        bulk.drop_staging_table("staging_ids")
    else:
        bulk.execute(
            f"UPDATE {table} SET retrieval_count = 0, last_retrieved_at = NULL "
            f"WHERE (retrieval_count <> 0 OR last_retrieved_at IS NOT NULL) "
            f"AND NOT EXISTS (SELECT 1 FROM {events} e WHERE e.reflection_id = {table}.id)"
        )


# --------------------------------------------------------------------------- retrieval rollup

# An import that adds at least this many events rebuilds the whole rollup in one pass: the
# GROUP BY over every event is cheaper than recounting millions of (reflection, day) pairs.
ROLLUP_REBUILD_EVENTS = 1_000_000
ROLLUP_DAYS_STAGING = "staging_rollup_day"


def _max_event_id() -> int:
    return RetrievalEvent.objects.aggregate(m=models.Max("id"))["m"] or 0


def _utc_day_sql(column: str) -> str:
    """The UTC calendar day of a timestamp column, as the rollup's ``day`` stores it."""
    if bulk.is_postgres():
        return f"({column} AT TIME ZONE 'UTC')::date"
    return f"date({column})"  # SQLite keeps UTC text 'YYYY-MM-DD HH:MM:SS…'


def _utc_day_bounds_sql(column: str) -> tuple[str, str]:
    """[start, end) of the UTC day in a date column, comparable with a timestamp column."""
    if bulk.is_postgres():
        return (
            f"({column}::timestamp AT TIME ZONE 'UTC')",
            f"(({column} + 1)::timestamp AT TIME ZONE 'UTC')",
        )
    return column, f"date({column}, '+1 day')"  # text order: '2026-01-01' < '2026-01-01 00:…'


def _rollup_insert_sql(
    *,
    joins: str = "",
    where: str = "",
    day: str | None = None,
    ordered: bool = False,
    into: str | None = None,
) -> str:
    """INSERT … SELECT … GROUP BY that recounts rollup rows from the raw events ``e``.

    A retrieval is cross-agent when the retrieving agent is not the reflection's author; an
    unknown author shares with nobody we could name (as the health page always counted).
    """
    q = connection.ops.quote_name
    day = day or _utc_day_sql("e.retrieved_at")
    return (
        f"INSERT INTO {into or q(RetrievalDay._meta.db_table)} "
        "(reflection_id, department_id, day, retrievals, cross_agent) "
        f"SELECT e.reflection_id, r.department_id, {day}, COUNT(*), "
        "SUM(CASE WHEN r.agent_id IS NOT NULL AND e.agent_id <> r.agent_id THEN 1 ELSE 0 END) "
        f"FROM {q(RetrievalEvent._meta.db_table)} e {joins} "
        f"JOIN {q(Reflection._meta.db_table)} r ON r.id = e.reflection_id "
        f"{where} GROUP BY e.reflection_id, r.department_id, {day}"
        # Millions of rows go in day by day: the day and department indexes then grow at
        # their ends and the (reflection, day) one sweeps in order once per day (about twice
        # as fast as hash order at 3M rows).
        + (f" ORDER BY {day}, e.reflection_id" if ordered else "")
    )


ROLLUP_STAGING = "staging_rollup"


@dataclass
class RollupRefresh:
    rows: int  # rollup rows the refreshed days hold now
    inserted: int = 0
    updated: int = 0
    deleted: int = 0


def refresh_retrieval_rollup(*, since: date | None = None) -> RollupRefresh:
    """Recount RetrievalDay from the raw events: every day, or the UTC days from ``since`` on.

    Set-based. An empty rollup is filled by one INSERT … SELECT … GROUP BY. Otherwise the
    recount goes to an index-free temporary table and only the difference is written (rows
    gone, counts changed, rows new): a rollup that has not drifted costs the GROUP BY and no
    writes, where rewriting 3M rows costs a minute of index and foreign-key upkeep.
    The daily policy job calls it for the days decay reads, so the rollup cannot drift.
    """
    q = connection.ops.quote_name
    rollup = q(RetrievalDay._meta.db_table)
    where, params, scope = "", [], ""
    if since is not None:
        start = datetime.combine(since, datetime.min.time(), tzinfo=UTC)
        where, params = "WHERE e.retrieved_at >= %s", [bulk.adapt_value(start)]
        scope = f"AND {rollup}.day >= %s"
    with transaction.atomic():
        if bulk.is_postgres():
            # The GROUP BY of 10M events into ~3M groups spills to disk at the default 4 MB.
            bulk.execute("SET LOCAL work_mem = '256MB'")
        if not RetrievalDay.objects.exists():
            inserted = bulk.execute(_rollup_insert_sql(where=where, ordered=True), params)
            result = RollupRefresh(rows=inserted, inserted=inserted)
        else:
            result = _rewrite_rollup_difference(where, params, scope, since)
        if bulk.is_postgres():
            bulk.execute("SET LOCAL work_mem TO DEFAULT")
    return result


def _rewrite_rollup_difference(where: str, params: list, scope: str, since) -> RollupRefresh:
    q = connection.ops.quote_name
    rollup = q(RetrievalDay._meta.db_table)
    staging = ROLLUP_STAGING
    bulk.create_staging_table(
        staging,
        "reflection_id bigint, department_id bigint, day date, retrievals integer, "
        "cross_agent integer",
    )
    rows = bulk.execute(_rollup_insert_sql(where=where, into=staging), params)
    bulk.analyze(staging)
    same_key = f"t.reflection_id = {rollup}.reflection_id AND t.day = {rollup}.day"
    scope_params = [connection.ops.adapt_datefield_value(since)] if since else []
    deleted = bulk.execute(
        f"DELETE FROM {rollup} WHERE NOT EXISTS (SELECT 1 FROM {staging} t WHERE {same_key}) "
        f"{scope}",
        scope_params,
    )
    updated = bulk.execute(
        f"UPDATE {rollup} SET department_id = t.department_id, retrievals = t.retrievals, "
        f"cross_agent = t.cross_agent FROM {staging} t WHERE {same_key} "
        f"AND ({rollup}.department_id <> t.department_id OR {rollup}.retrievals <> t.retrievals "
        f"OR {rollup}.cross_agent <> t.cross_agent) {scope}",
        scope_params,
    )
    inserted = bulk.execute(
        f"INSERT INTO {rollup} (reflection_id, department_id, day, retrievals, cross_agent) "
        f"SELECT t.reflection_id, t.department_id, t.day, t.retrievals, t.cross_agent "
        f"FROM {staging} t WHERE NOT EXISTS (SELECT 1 FROM {rollup} x "
        "WHERE x.reflection_id = t.reflection_id AND x.day = t.day) "
        "ORDER BY t.day, t.reflection_id"
    )
    bulk.drop_staging_table(staging)
    return RollupRefresh(rows=rows, inserted=inserted, updated=updated, deleted=deleted)


def refresh_rollup_of_reflections(reflection_ids: Iterable[int]) -> None:
    """Recount every day of some reflections (their author or department changed)."""
    ids = sorted(set(reflection_ids))
    if not ids:
        return
    rollup = connection.ops.quote_name(RetrievalDay._meta.db_table)
    bulk.create_staging_table("staging_rollup_ids", "id bigint")
    bulk.write_rows("staging_rollup_ids", ["id"], ((i,) for i in ids))
    bulk.analyze("staging_rollup_ids")
    bulk.execute(f"DELETE FROM {rollup} WHERE reflection_id IN (SELECT id FROM staging_rollup_ids)")
    bulk.execute(
        _rollup_insert_sql(where="WHERE e.reflection_id IN (SELECT id FROM staging_rollup_ids)")
    )
    bulk.drop_staging_table("staging_rollup_ids")


def _refresh_rollup_after_import(first_new_event: int, created: int) -> str:
    """Recount the (reflection, UTC day) pairs that events with id ≥ first_new_event fall on.

    Returns "full" or "days", which path was taken. An empty rollup (the first import, or
    a database from before the rollup existed) or a very large batch is rebuilt whole.
    """
    if created >= ROLLUP_REBUILD_EVENTS or not RetrievalDay.objects.exists():
        refresh_retrieval_rollup()
        return "full"
    q = connection.ops.quote_name
    rollup = q(RetrievalDay._meta.db_table)
    events = q(RetrievalEvent._meta.db_table)
    staging = ROLLUP_DAYS_STAGING
    bulk.create_staging_table(staging, "reflection_id bigint, day date")
    bulk.execute(
        f"INSERT INTO {staging} (reflection_id, day) SELECT DISTINCT reflection_id, "
        f"{_utc_day_sql('retrieved_at')} FROM {events} WHERE id >= %s",
        [first_new_event],
    )
    bulk.analyze(staging)
    bulk.execute(
        f"DELETE FROM {rollup} WHERE EXISTS (SELECT 1 FROM {staging} t "
        f"WHERE t.reflection_id = {rollup}.reflection_id AND t.day = {rollup}.day)"
    )
    # Each pair is recounted through the (reflection, retrieved_at) unique index: a range
    # scan of one reflection's day, never the whole table.
    start, end = _utc_day_bounds_sql("t.day")
    bulk.execute(
        _rollup_insert_sql(
            joins=f"JOIN {staging} t ON t.reflection_id = e.reflection_id "
            f"AND e.retrieved_at >= {start} AND e.retrieved_at < {end}",
            day="t.day",
        )
    )
    bulk.drop_staging_table(staging)
    return "days"


# --------------------------------------------------------------------------- usefulness, flows
#
# Reflection.useful_retrieval_count (retrievals whose task succeeded) and RetrievalFlowDay
# (retrievals per day, retriever's department and reflection's department) are what the
# usefulness page reads. Imports keep them by difference, in SQL, from what they wrote: the new
# events (ids from the import's first on), the tasks whose outcome they set, the agents and
# reflections whose department they changed. The daily policy job and refresh_rollup recount
# both from the events, which is what the tests hold the differences to.

OUTCOMES_BEFORE = "staging_outcome_before"


def _useful_join() -> str:
    q = connection.ops.quote_name
    return (
        f"FROM {q(RetrievalEvent._meta.db_table)} e "
        f"JOIN {q(TaskRun._meta.db_table)} t ON t.task_id = e.task_id"
    )


def _start_remembering_outcomes() -> None:
    bulk.create_staging_table(OUTCOMES_BEFORE, "task_id varchar(255), was_useful integer")


def _remember_outcomes(staging: str) -> None:
    """Before a chunk of tasks is written: whether each task it creates or whose outcome it
    changes counted as a success until now (a new task did not), the first time it is seen
    in this import. Either log may come first, so the retrievals already stored against these
    tasks change usefulness when the import ends."""
    tasks = connection.ops.quote_name(TaskRun._meta.db_table)
    bulk.execute(
        f"INSERT INTO {OUTCOMES_BEFORE} (task_id, was_useful) "
        "SELECT s.task_id, CASE WHEN t.outcome = %s THEN 1 ELSE 0 END "
        f"FROM {staging} s LEFT JOIN {tasks} t ON t.task_id = s.task_id "
        "WHERE (t.id IS NULL OR t.outcome <> s.outcome) "
        f"AND NOT EXISTS (SELECT 1 FROM {OUTCOMES_BEFORE} b WHERE b.task_id = s.task_id)",
        [Outcome.SUCCESS.value],
    )


def _count_useful_after_import(first_new_event: int) -> int:
    """Add to useful_retrieval_count the import's new events whose task succeeded, and the
    difference its outcome changes make to the events stored before it; one UPDATE."""
    table = connection.ops.quote_name(Reflection._meta.db_table)
    bulk.analyze(OUTCOMES_BEFORE)
    success = Outcome.SUCCESS.value
    changed = bulk.execute(
        f"UPDATE {table} SET useful_retrieval_count = useful_retrieval_count + d.n FROM ("
        "SELECT reflection_id, SUM(n) AS n FROM ("
        f"SELECT e.reflection_id, 1 AS n {_useful_join()} WHERE e.id >= %s AND t.outcome = %s "
        "UNION ALL "
        "SELECT e.reflection_id, CASE WHEN t.outcome = %s THEN 1 ELSE 0 END - b.was_useful "
        f"FROM {OUTCOMES_BEFORE} b "
        f"JOIN {connection.ops.quote_name(RetrievalEvent._meta.db_table)} e "
        "ON e.task_id = b.task_id "
        f"JOIN {connection.ops.quote_name(TaskRun._meta.db_table)} t ON t.task_id = b.task_id "
        "WHERE e.id < %s"
        f") x GROUP BY reflection_id) d WHERE {table}.id = d.reflection_id AND d.n <> 0",
        [first_new_event, success, success, first_new_event],
    )
    bulk.drop_staging_table(OUTCOMES_BEFORE)
    return changed


def refresh_useful_counters() -> int:
    """Recount every reflection's useful_retrieval_count from the events and their tasks,
    set-based, writing only the counts that differ; returns how many were rewritten."""
    table = connection.ops.quote_name(Reflection._meta.db_table)
    with transaction.atomic():
        if bulk.is_postgres():
            bulk.execute("SET LOCAL work_mem = '256MB'")
        bulk.create_staging_table("staging_useful", "reflection_id bigint, n integer")
        bulk.execute(
            "INSERT INTO staging_useful (reflection_id, n) "
            f"SELECT e.reflection_id, COUNT(*) {_useful_join()} WHERE t.outcome = %s "
            "GROUP BY e.reflection_id",
            [Outcome.SUCCESS.value],
        )
        bulk.analyze("staging_useful")
        changed = bulk.execute(
            f"UPDATE {table} SET useful_retrieval_count = u.n FROM staging_useful u "
            f"WHERE {table}.id = u.reflection_id AND {table}.useful_retrieval_count <> u.n"
        )
        changed += bulk.execute(
            f"UPDATE {table} SET useful_retrieval_count = 0 WHERE useful_retrieval_count <> 0 "
            f"AND NOT EXISTS (SELECT 1 FROM staging_useful u WHERE u.reflection_id = {table}.id)"
        )
        bulk.drop_staging_table("staging_useful")
        if bulk.is_postgres():
            bulk.execute("SET LOCAL work_mem TO DEFAULT")
    return changed


def recount_useful_of_task(*, task_id: str) -> None:
    """A task saved one at a time (the admin, tests): recount the reflections retrieved for
    it, whatever its outcome was before."""
    table = connection.ops.quote_name(Reflection._meta.db_table)
    events = connection.ops.quote_name(RetrievalEvent._meta.db_table)
    bulk.execute(
        f"UPDATE {table} SET useful_retrieval_count = (SELECT COUNT(*) {_useful_join()} "
        f"WHERE e.reflection_id = {table}.id AND t.outcome = %s) "
        f"WHERE id IN (SELECT reflection_id FROM {events} WHERE task_id = %s)",
        [Outcome.SUCCESS.value, task_id],
    )


def count_saved_retrieval(*, event: RetrievalEvent) -> None:
    """A retrieval saved one at a time (the admin, tests): add it to its reflection's useful
    count and to the flows, as an import would."""
    if TaskRun.objects.filter(task_id=event.task_id, outcome=Outcome.SUCCESS).exists():
        Reflection.objects.filter(pk=event.reflection_id).update(
            useful_retrieval_count=models.F("useful_retrieval_count") + 1
        )
    shift_flows(where="e.id = %s", params=[event.pk], sign=1)


# Reflection.injection_count (TaskInjection rows) ranks the usefulness page's lift table. Task
# imports keep it by difference from the injections they delete and add; the daily policy job
# and refresh_rollup recount it.


def _shift_injection_counts(deltas_sql: str) -> int:
    """Add to injection_count the ``n`` of each ``reflection_id`` that ``deltas_sql`` (a
    SELECT reflection_id, n … GROUP BY reflection_id) yields; one UPDATE."""
    table = connection.ops.quote_name(Reflection._meta.db_table)
    return bulk.execute(
        f"UPDATE {table} SET injection_count = injection_count + d.n FROM ({deltas_sql}) d "
        f"WHERE {table}.id = d.reflection_id AND d.n <> 0"
    )


def refresh_injection_counters() -> int:
    """Recount every reflection's injection_count from the injections, set-based, writing only
    the counts that differ; returns how many were rewritten (about 2 s at 2.3M injections)."""
    table = connection.ops.quote_name(Reflection._meta.db_table)
    injections = connection.ops.quote_name(TaskInjection._meta.db_table)
    with transaction.atomic():
        bulk.create_staging_table("staging_injected", "reflection_id bigint, n integer")
        bulk.execute(
            "INSERT INTO staging_injected (reflection_id, n) "
            f"SELECT reflection_id, COUNT(*) FROM {injections} GROUP BY reflection_id"
        )
        bulk.analyze("staging_injected")
        changed = bulk.execute(
            f"UPDATE {table} SET injection_count = u.n FROM staging_injected u "
            f"WHERE {table}.id = u.reflection_id AND {table}.injection_count <> u.n"
        )
        changed += bulk.execute(
            f"UPDATE {table} SET injection_count = 0 WHERE injection_count <> 0 AND NOT EXISTS "
            f"(SELECT 1 FROM staging_injected u WHERE u.reflection_id = {table}.id)"
        )
        bulk.drop_staging_table("staging_injected")
    return changed


def count_saved_injection(*, injection: TaskInjection) -> None:
    """An injection saved one at a time (the admin, tests): add it to its reflection's count,
    as an import would."""
    Reflection.objects.filter(pk=injection.reflection_id).update(
        injection_count=models.F("injection_count") + 1
    )


FLOW_STAGING = "staging_flow"
FLOW_COLUMNS = "day, retriever_department_id, reflection_department_id, retrievals"


def _flows_select_sql(where: str) -> str:
    """SELECT … GROUP BY of the flows of the raw events ``e`` that ``where`` selects: the
    retriever's department is the one the log states, else the retrieving agent's (now)."""
    q = connection.ops.quote_name
    day = _utc_day_sql("e.retrieved_at")
    retriever = "COALESCE(e.department_id, a.department_id)"
    return (
        f"SELECT {day}, {retriever}, r.department_id, COUNT(*) "
        f"FROM {q(RetrievalEvent._meta.db_table)} e "
        f"JOIN {q(Agent._meta.db_table)} a ON a.id = e.agent_id "
        f"JOIN {q(Reflection._meta.db_table)} r ON r.id = e.reflection_id "
        f"{where} GROUP BY {day}, {retriever}, r.department_id"
    )


def shift_flows(*, where: str, params: list, sign: int) -> None:
    """Add (sign 1) or take away (sign -1) the events ``e`` that ``where`` selects to or from
    RetrievalFlowDay, with the departments as they are now: call it with -1 before changing a
    department its events flow from or to and with 1 after, or with 1 for new events."""
    flows = connection.ops.quote_name(RetrievalFlowDay._meta.db_table)
    bulk.create_staging_table(
        FLOW_STAGING,
        "day date, retriever_department_id bigint, reflection_department_id bigint, "
        "retrievals integer",
    )
    if not bulk.execute(
        f"INSERT INTO {FLOW_STAGING} ({FLOW_COLUMNS}) {_flows_select_sql('WHERE ' + where)}",
        params,
    ):
        bulk.drop_staging_table(FLOW_STAGING)
        return
    bulk.analyze(FLOW_STAGING)
    same = (
        f"t.day = {flows}.day AND t.reflection_department_id = {flows}.reflection_department_id "
        f"AND COALESCE(t.retriever_department_id, 0) = "
        f"COALESCE({flows}.retriever_department_id, 0)"
    )
    op = "+" if sign > 0 else "-"
    bulk.execute(
        f"UPDATE {flows} SET retrievals = {flows}.retrievals {op} t.retrievals "
        f"FROM {FLOW_STAGING} t WHERE {same}"
    )
    if sign > 0:
        bulk.execute(
            f"INSERT INTO {flows} ({FLOW_COLUMNS}) SELECT {FLOW_COLUMNS} FROM {FLOW_STAGING} t "
            f"WHERE NOT EXISTS (SELECT 1 FROM {flows} WHERE {same})"
        )
    else:
        bulk.execute(f"DELETE FROM {flows} WHERE retrievals = 0")
    bulk.drop_staging_table(FLOW_STAGING)


def shift_flows_of_reflections(reflection_ids: Iterable[int], *, sign: int) -> None:
    """shift_flows for every event of some reflections (their department may change)."""
    ids = sorted(set(reflection_ids))
    if not ids:
        return
    bulk.create_staging_table("staging_flow_ids", "id bigint")
    bulk.write_rows("staging_flow_ids", ["id"], ((i,) for i in ids))
    bulk.analyze("staging_flow_ids")
    shift_flows(where="e.reflection_id IN (SELECT id FROM staging_flow_ids)", params=[], sign=sign)
    bulk.drop_staging_table("staging_flow_ids")


def refresh_retrieval_flows(*, since: date | None = None) -> int:
    """Recount RetrievalFlowDay from the raw events: every day, or the UTC days from ``since``
    on; returns the rows those days hold. The table is small (a row per day and department
    pair), so the days are rewritten whole; the cost is the one GROUP BY over the events."""
    flows = connection.ops.quote_name(RetrievalFlowDay._meta.db_table)
    where, params, scope, scope_params = "", [], "", []
    if since is not None:
        start = datetime.combine(since, datetime.min.time(), tzinfo=UTC)
        where, params = "WHERE e.retrieved_at >= %s", [bulk.adapt_value(start)]
        scope, scope_params = "WHERE day >= %s", [connection.ops.adapt_datefield_value(since)]
    with transaction.atomic():
        if bulk.is_postgres():
            bulk.execute("SET LOCAL work_mem = '256MB'")
        bulk.execute(f"DELETE FROM {flows} {scope}", scope_params)
        rows = bulk.execute(
            f"INSERT INTO {flows} ({FLOW_COLUMNS}) {_flows_select_sql(where)}", params
        )
        if bulk.is_postgres():
            bulk.execute("SET LOCAL work_mem TO DEFAULT")
    return rows


TASK_STAGING = "staging_task"
TASK_COLUMNS = (
    "task_id",
    "agent_id",
    "department_id",
    "task_type",
    "finished_at",
    "outcome",
    "failure_mode",
    "confidence_at_start",
    "tools_used",
)


def _import_tasks(
    path, fmt, lines, refs, directory, now, summary, progress
) -> tuple[int, int, int]:
    label = str(path)
    created = updated = total = 0
    task_table = connection.ops.quote_name(TaskRun._meta.db_table)
    inj_table = connection.ops.quote_name(TaskInjection._meta.db_table)
    json_type = "jsonb" if bulk.is_postgres() else "text"
    bulk.create_staging_table(
        TASK_STAGING,
        "task_id varchar(255), agent_id bigint, department_id bigint, task_type varchar(128), "
        "finished_at timestamp with time zone, outcome varchar(16), failure_mode varchar(128), "
        f"confidence_at_start double precision, tools_used {json_type}",
    )
    bulk.create_staging_table(
        "staging_injection", "task_id varchar(255), reflection_id bigint, position integer"
    )
    seen: set[str] = set()
    injections: list[tuple] = []

    def rows(items: Iterable[ParsedTask | Rejection]):
        nonlocal total
        for item in items:
            if isinstance(item, Rejection):
                summary.rejected.append(item)
                continue
            if not _valid_slug(item.department):
                summary.reject(
                    label, item.line, f"department: {item.department!r} is not a department slug"
                )
                continue
            if item.task_id in seen:
                summary.reject(
                    label,
                    item.line,
                    f"task_id: {item.task_id!r} appears more than once in this file",
                )
                continue
            resolved = []
            for index, ref in enumerate(item.reflections_injected):
                reflection_id = refs.resolve(ref)
                if reflection_id is None:
                    summary.reject(
                        label,
                        item.line,
                        f"reflections_injected[{index}]: unknown reflection {ref!r}",
                    )
                    break
                resolved.append(reflection_id)
            else:
                seen.add(item.task_id)
                dept_id = directory.department_id(item.department)
                agent_id = directory.agent(item.agent, dept_id)[0]
                for position, reflection_id in enumerate(dict.fromkeys(resolved)):
                    injections.append((item.task_id, reflection_id, position))
                total += 1
                yield (
                    item.task_id,
                    agent_id,
                    dept_id,
                    item.task_type,
                    item.finished_at,
                    item.outcome,
                    item.failure_mode,
                    item.confidence_at_start,
                    item.tools_used,
                )

    cols = ", ".join(TASK_COLUMNS)
    compared = [c for c in TASK_COLUMNS if c != "task_id"]
    for chunk in _chunks(parse_task_lines(lines, path=label, fmt=fmt, now=now), EVENT_CHUNK_ROWS):
        bulk.write_rows(TASK_STAGING, TASK_COLUMNS, list(rows(chunk)))
        bulk.write_rows("staging_injection", ("task_id", "reflection_id", "position"), injections)
        bulk.analyze(TASK_STAGING)
        bulk.analyze("staging_injection")
        injections.clear()
        _remember_outcomes(TASK_STAGING)
        differs = " OR ".join(f"{task_table}.{c} IS DISTINCT FROM s.{c}" for c in compared)
        # Tasks whose facts changed since the last import: rewrite them and their injections.
        bulk.execute(
            f"CREATE TEMP TABLE staging_changed AS SELECT s.task_id FROM {TASK_STAGING} s "
            f"JOIN {task_table} ON {task_table}.task_id = s.task_id WHERE {differs}"
        )
        updated += bulk.execute(
            f"UPDATE {task_table} SET "
            + ", ".join(f"{c} = s.{c}" for c in compared)
            + f" FROM {TASK_STAGING} s WHERE {task_table}.task_id = s.task_id "
            "AND s.task_id IN (SELECT task_id FROM staging_changed)"
        )
        changed_runs = (
            f"SELECT t.id FROM {task_table} t JOIN staging_changed c ON c.task_id = t.task_id"
        )
        _shift_injection_counts(
            f"SELECT reflection_id, -COUNT(*) AS n FROM {inj_table} "
            f"WHERE task_run_id IN ({changed_runs}) GROUP BY reflection_id"
        )
        bulk.execute(f"DELETE FROM {inj_table} WHERE task_run_id IN ({changed_runs})")
        bulk.execute("DROP TABLE staging_changed")
        created += bulk.execute(
            f"INSERT INTO {task_table} ({cols}) SELECT {cols} FROM {TASK_STAGING} s "
            f"WHERE NOT EXISTS (SELECT 1 FROM {task_table} t WHERE t.task_id = s.task_id)"
        )
        # The file names each (task, reflection) pair once, so what is not stored yet is what
        # the INSERT below adds (ON CONFLICT skips exactly the rest).
        _shift_injection_counts(
            f"SELECT i.reflection_id, COUNT(*) AS n FROM staging_injection i "
            f"JOIN {task_table} t ON t.task_id = i.task_id WHERE NOT EXISTS (SELECT 1 FROM "
            f"{inj_table} x WHERE x.task_run_id = t.id AND x.reflection_id = i.reflection_id) "
            "GROUP BY i.reflection_id"
        )
        bulk.execute(
            f"INSERT INTO {inj_table} (task_run_id, reflection_id, position) "
            f"SELECT t.id, i.reflection_id, i.position FROM staging_injection i "
            f"JOIN {task_table} t ON t.task_id = i.task_id WHERE true ON CONFLICT DO NOTHING"
        )
        bulk.execute(f"DELETE FROM {TASK_STAGING}")
        bulk.execute("DELETE FROM staging_injection")
        if progress:
            progress(len(chunk))
    bulk.drop_staging_table(TASK_STAGING)
    bulk.drop_staging_table("staging_injection")
    return created, updated, total - created - updated


# --------------------------------------------------------------------------- export

EXPORT_FIELDS = (
    "source_path",
    "content_hash",
    "department",
    "agent",
    "kind",
    "outcome",
    "task_type",
    "created_at",
    "state",
    "multiplier",
    "retrieval_count",
    "last_retrieved_at",
    "deprecated_reason",
)


def iter_reflection_export(*, department: str | None = None) -> Iterator[dict]:
    """One flat record per reflection; never the text itself (it may be quarantined)."""
    qs = Reflection.objects.order_by("id")
    if department:
        qs = qs.filter(department__slug=department)
    for row in qs.values(
        "source_path",
        "content_hash",
        "department__slug",
        "agent__name",
        "kind",
        "outcome",
        "task_type",
        "created_at",
        "state",
        "retrieval_count",
        "last_retrieved_at",
        "deprecated_reason",
    ).iterator(chunk_size=5000):
        yield {
            "source_path": row["source_path"],
            "content_hash": row["content_hash"],
            "department": row["department__slug"],
            "agent": row["agent__name"] or "",
            "kind": row["kind"],
            "outcome": row["outcome"] or "",
            "task_type": row["task_type"],
            "created_at": row["created_at"].isoformat(),
            "state": row["state"],
            "multiplier": Reflection(state=row["state"]).multiplier,
            "retrieval_count": row["retrieval_count"],
            "last_retrieved_at": row["last_retrieved_at"].isoformat()
            if row["last_retrieved_at"]
            else "",
            "deprecated_reason": row["deprecated_reason"],
        }


# --------------------------------------------------------------------------- scanning


@transaction.atomic
def scan_reflections(
    *, department: str | None = None, now: datetime | None = None, user=None
) -> dict:
    """Re-scan stored reflections; new findings are stored and their reflections quarantined.

    A finding an admin already dismissed is the same row (same text, rule and span), so a
    re-scan does not bring it back.
    """
    from reflections.scanning import scan_text

    now = now or timezone.now()
    qs = Reflection.objects.order_by("id")
    if department:
        qs = qs.filter(department__slug=department)
    scanned = 0
    found: list[ScanFinding] = []
    for pk, digest, text in qs.values_list("id", "content_hash", "original_text").iterator(
        chunk_size=2000
    ):
        scanned += 1
        found.extend(
            ScanFinding(
                reflection_id=pk,
                content_hash=digest,
                rule=f.rule,
                category=f.category,
                start=f.start,
                end=f.end,
                summary=f.summary[:255],
                detected_at=now,
            )
            for f in scan_text(text)
        )
    existing = set(
        ScanFinding.objects.filter(reflection_id__in={f.reflection_id for f in found}).values_list(
            "reflection_id", "content_hash", "rule", "start", "end"
        )
    )
    new = [
        f
        for f in found
        if (f.reflection_id, f.content_hash, f.rule, f.start, f.end) not in existing
    ]
    ScanFinding.objects.bulk_create(new, batch_size=1000, ignore_conflicts=True)

    flagged = {f.reflection_id for f in new}
    to_quarantine = list(
        Reflection.objects.filter(pk__in=flagged)
        .exclude(state=State.QUARANTINED)
        .values_list("id", "state")
    )
    by_reflection: dict[int, list[ScanFinding]] = {}
    for f in new:
        by_reflection.setdefault(f.reflection_id, []).append(f)
    ReflectionHistory.objects.bulk_create(
        ReflectionHistory(
            reflection_id=pk,
            at=now,
            change=ReflectionHistory.Change.STATE,
            actor=user,
            actor_label="scan",
            from_state=state,
            to_state=State.QUARANTINED,
            reason=f"quarantined: {describe_findings(by_reflection[pk])}",
        )
        for pk, state in to_quarantine
    )
    Reflection.objects.filter(pk__in=[pk for pk, _ in to_quarantine]).update(
        state=State.QUARANTINED, updated_at=now
    )
    return {"scanned": scanned, "new_findings": len(new), "quarantined": len(to_quarantine)}
