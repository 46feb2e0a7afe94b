"""Importing retrieval and task logs (JSONL or CSV): one all-or-nothing batch per run."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from reflections import bulk
from reflections.importers.base import ParsedRetrieval, ParseError, Rejection, normalise_text
from reflections.importers.events import detect_log_kind, parse_retrieval_lines
from reflections.importers.trajectory import (
    MAX_POOL_FILE_BYTES,
    looks_like_pool,
    parse_trajectory_pool,
)
from reflections.models import ImportRun, Reflection, RetrievalEvent
from reflections.services.batches import (
    EVENT_CHUNK_ROWS,
    Directory,
    ImportSummary,
    Progress,
    UnknownDepartment,
    chunks,
    lock_imports,
    quote_value,
)
from reflections.services.counters import start_remembering_outcomes
from reflections.services.event_rollups import after_events_imported
from reflections.services.partitions import ensure_partitions, utc_months
from reflections.services.rollups import max_event_id
from reflections.services.task_import import import_task_lines

LOG_SUFFIXES = {".jsonl": "jsonl", ".csv": "csv", ".json": "pool"}


def iter_log_files(paths: list[Path], summary: ImportSummary) -> Iterator[tuple[Path, str]]:
    """(file, format) of every log under `paths`: .jsonl and .csv logs, and .json trajectory
    pools (in a directory, only those whose name says so: trajectory-pool.json)."""
    for path in paths:
        if path.is_dir():
            candidates = sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and p.suffix in LOG_SUFFIXES
                and (p.suffix != ".json" or looks_like_pool(p.name))
            )
        elif path.is_file():
            candidates = [path]
        else:
            summary.reject(str(path), None, "no such file or directory")
            continue
        for file in candidates:
            fmt = LOG_SUFFIXES.get(file.suffix)
            if fmt is None:
                summary.reject(
                    str(file),
                    None,
                    "not a log file: expected a .jsonl or .csv log or a .json trajectory pool",
                )
                continue
            yield file, fmt


def _read_pool(path: Path, now: datetime):
    """The task runs of a trajectory pool file, or its rejection (too big, not UTF-8)."""
    label = str(path)
    size = path.stat().st_size
    if size > MAX_POOL_FILE_BYTES:
        return iter(
            [
                Rejection(
                    label,
                    None,
                    f"the file is {size:,} bytes; a trajectory pool may hold "
                    f"{MAX_POOL_FILE_BYTES:,}",
                )
            ]
        )
    try:
        text = normalise_text(path.read_bytes())
    except ParseError as exc:
        return iter([Rejection(label, exc.line, exc.reason)])
    return parse_trajectory_pool(text, path=label, now=now)


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

    def __init__(self, only: set[str] | None = None) -> None:
        """Every reflection's references, or (records given as values) only those in `only`."""
        self.by_path: dict[str, int] = {}
        self.by_hash: dict[str, int] = {}
        self.by_external: dict[str, int] = {}
        if only is None:
            found = Reflection.objects.values_list(
                "id", "source_path", "content_hash", "external_id"
            ).iterator(chunk_size=20_000)
        else:
            found = _referenced(only)
        for pk, path, digest, ext in found:
            self.by_path[path] = pk
            self.by_hash.setdefault(digest, pk)
            if ext:
                self.by_external.setdefault(ext, pk)

    def resolve(self, ref: str) -> int | None:
        return self.by_path.get(ref) or self.by_hash.get(ref) or self.by_external.get(ref)


def _referenced(refs: set[str]) -> list[tuple]:
    """(id, source path, hash, scenario id) of the reflections `refs` name, by id: the refs
    staged in a temporary table and joined (a list of thousands of IN parameters costs more
    to build than to answer)."""
    if not refs:
        return []
    bulk.create_staging_table("staging_refs", "ref varchar(1024)")
    bulk.write_rows("staging_refs", ["ref"], ((r,) for r in refs), adapt=False)
    bulk.analyze("staging_refs")
    table = connection.ops.quote_name(Reflection._meta.db_table)
    staged = "(SELECT ref FROM staging_refs)"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, source_path, content_hash, external_id FROM {table} "
            f"WHERE source_path IN {staged} OR content_hash IN {staged} "
            f"OR external_id IN {staged} ORDER BY id"
        )
        rows = cursor.fetchall()
    bulk.drop_staging_table("staging_refs")
    return rows


def _references(records: list[tuple[str, str, list]]) -> set[str]:
    """The reflection references records given as values name (retrievals and injections)."""
    refs: set[str] = set()
    for _, _, items in records:
        for item in items:
            if not isinstance(item, dict):
                continue
            injected = item.get("reflections_injected")
            for ref in [item.get("reflection"), *(injected if type(injected) is list else ())]:
                if isinstance(ref, str) and len(ref) <= 1024 and "\x00" not in ref:
                    refs.add(ref.strip())
    # What the database cannot even compare (a lone surrogate) the parser rejects anyway.
    return {r for r in refs if r and not _SURROGATE.search(r)}


_SURROGATE = re.compile("[\ud800-\udfff]")


def _record_lines(records: list) -> Iterator[str]:
    """Records given as values (the API), one JSON line each: the log parser reads them as
    it reads a file, and a rejection's line is the record's position plus one."""
    dumps = json.dumps
    for record in records:
        try:
            yield dumps(record, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):
            yield "\x00not a JSON value"  # rejected by the parser as invalid JSON


def import_events(
    *,
    paths: list[Path] = (),
    records: list[tuple[str, str, list]] = (),
    now: datetime | None = None,
    user=None,
    progress: Progress | None = None,
    create_departments: bool = False,
    default_department: str | None = None,
) -> ImportSummary:
    """Import retrieval and task logs (JSONL or CSV) and trajectory pools (JSON) as one
    all-or-nothing batch.

    Retrievals and tasks join on task_id, so either log may come first. A retrieval whose
    reflection is unknown is rejected with the reference in the reason. A task that names no
    department takes its agent's, else `default_department`. `records` are logs given as
    values (the API): (label, kind, list of records), read by the same rules as a JSONL log.
    """
    now = now or timezone.now()
    summary = ImportSummary()
    counts = {
        "retrievals": {"created": 0, "unchanged": 0},
        "tasks": {"created": 0, "updated": 0, "unchanged": 0},
    }
    files = list(iter_log_files([Path(p) for p in paths], summary))
    feeds = [(path, fmt, None, path) for path, fmt in files]
    feeds += [(label, "jsonl", kind, items) for label, kind, items in records]
    started = timezone.now()
    with transaction.atomic():
        lock_imports()
        refs = _ReflectionRefs(None if files else _references(records))
        directory = Directory(create_departments=create_departments)
        # Events get increasing ids, and imports are serialised: every event this batch
        # writes has an id above this one, which is how the rollup finds the days it touched.
        first_new_event = max_event_id() + 1
        directory.uncounted_from = first_new_event
        start_remembering_outcomes()
        task_pairs: set[tuple[int, str]] = set()
        for path, fmt, kind, source in feeds:
            if fmt == "pool":
                created, updated, unchanged = import_task_lines(
                    path,
                    fmt,
                    None,
                    refs,
                    directory,
                    now,
                    summary,
                    progress,
                    records=_read_pool(path, now),
                    default_department=default_department,
                    pairs=task_pairs,
                )
                counts["tasks"]["created"] += created
                counts["tasks"]["updated"] += updated
                counts["tasks"]["unchanged"] += unchanged
                continue
            if kind is None:
                kind = _detect_kind(source, fmt)
            if kind is None:
                summary.reject(
                    str(path),
                    1,
                    "cannot tell whether this is a retrieval or a task log: a retrieval needs "
                    "reflection and retrieved_at, a task needs task_id, finished_at and outcome",
                )
                continue
            lines = _record_lines(source) if isinstance(source, list) else _open_lines(source)
            if kind == "retrieval":
                created, unchanged = _import_retrievals(
                    path, fmt, lines, refs, directory, now, summary, progress
                )
                counts["retrievals"]["created"] += created
                counts["retrievals"]["unchanged"] += unchanged
            else:
                created, updated, unchanged = import_task_lines(
                    path,
                    fmt,
                    lines,
                    refs,
                    directory,
                    now,
                    summary,
                    progress,
                    default_department=default_department,
                    pairs=task_pairs,
                )
                counts["tasks"]["created"] += created
                counts["tasks"]["updated"] += updated
                counts["tasks"]["unchanged"] += unchanged
        after_events_imported(
            first_new_event,
            retrievals=counts["retrievals"]["created"],
            tasks_created=counts["tasks"]["created"],
            tasks_changed=counts["tasks"]["created"] + counts["tasks"]["updated"],
            task_pairs=task_pairs,
        )
        summary.created = counts["retrievals"]["created"] + counts["tasks"]["created"]
        summary.updated = counts["tasks"]["updated"]
        summary.unchanged = counts["retrievals"]["unchanged"] + counts["tasks"]["unchanged"]
        summary.details = counts
        summary.withhold_unsafe()
        ImportRun.objects.create(
            kind=ImportRun.Kind.EVENTS,
            started_at=started,
            finished_at=timezone.now(),
            paths=[str(p) for p in paths] or [label for label, _, _ in records],
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


def _import_retrievals(
    path, fmt, lines, refs, directory, now, summary, progress
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
                    f"reflection: unknown reflection {quote_value(item.reflection_ref)} "
                    "(no source path, content hash or scenario id matches)",
                )
                continue
            dept_id = None
            if item.department:
                if item.department not in department_ids:
                    try:
                        department_ids[item.department] = directory.department_id(item.department)
                    except UnknownDepartment as problem:
                        department_ids[item.department] = str(problem)
                dept_id = department_ids[item.department]
                if isinstance(dept_id, str):
                    summary.reject(label, item.line, dept_id)
                    continue
            agent_id = directory.agent(directory.agent_name(item.agent), dept_id)[0]
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
    for chunk in chunks(
        parse_retrieval_lines(lines, path=label, fmt=fmt, now=now), EVENT_CHUNK_ROWS
    ):
        # Materialised first: resolving may create agents, and a COPY in progress owns the
        # connection.
        batch = rows(chunk)
        ensure_partitions(months=utc_months(row[1] for row in batch))  # a new month's table
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
