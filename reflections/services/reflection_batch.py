"""Writing parsed reflections while the rest of the batch is still being parsed.

An import is one transaction. Rows are written a batch at a time as the parser pool hands them
over, with their history and active-set rows, so the database stores (and indexes) one batch
while the workers parse the next: the import costs about the larger of parsing and storing
instead of their sum (docs/architecture.md, "Imports"). What cannot be written on sight waits
for the end of the batch: a reflection whose department is only learned from a later record of
the same agent, and changed files (updates are rare and need the old row).
"""

from __future__ import annotations

import json
from datetime import datetime

from reflections import bulk
from reflections.importers.base import COLUMN_LIMITS, ParsedReflection, Rejection
from reflections.models import (
    ActiveSetChange,
    Reflection,
    ReflectionHistory,
    ScanFinding,
    State,
)
from reflections.scanning import describe_findings
from reflections.services.active_set import ACTIVE_SET_COLUMNS, changes_of_new_reflection
from reflections.services.batches import (
    FINDING_COLUMNS,
    HISTORY_COLUMNS,
    REFLECTION_COLUMNS,
    Directory,
    ImportSummary,
    UnknownDepartment,
    quote_value,
)
from reflections.services.rollups import refresh_rollup_of_reflections, shift_flows_of_reflections
from reflections.services.stored_fields import mask_parsed

# Rows per COPY at the most (the pool hands over fewer when the next files are not parsed yet):
# large enough that a statement's overhead vanishes, small enough that the database stores
# while the parser pool is still busy.
CHUNK_ROWS = 2000
TITLE, REASON = COLUMN_LIMITS["title"], COLUMN_LIMITS["deprecated_reason"]


def state_declared_by_file(parsed: ParsedReflection) -> str:
    if parsed.deprecated_reason:
        return State.DEPRECATED
    if parsed.archived:
        return State.ARCHIVED
    if parsed.promoted:
        return State.PROMOTED
    return State.ACTIVE


def content_values(parsed: ParsedReflection, agent_id: int | None, department_id: int) -> dict:
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
        "title": parsed.title[:TITLE],
        "sections": parsed.sections,
        "body": parsed.body,
        "tags": parsed.tags,
        "skills": parsed.skills,
        "tools": parsed.tools,
        "confidence": parsed.confidence,
        "model_used": parsed.model_used,
        "salience": parsed.salience,
    }


class ReflectionBatch:
    """One import batch's writes: `add` parsed reflections in source order, then `finish`.

    Must run inside the batch's transaction, after `lock_imports`."""

    def __init__(
        self,
        *,
        summary: ImportSummary,
        now: datetime,
        user=None,
        default_department: str | None = None,
        create_departments: bool = False,
    ) -> None:
        self.summary = summary
        self.now = now
        self.db_now = bulk.adapt_value(now)
        self.user_id = getattr(user, "pk", None)
        self.default_department = default_department or ""
        self.directory = Directory(create_departments=create_departments)
        self.seen: set[str] = set()
        # Agent → department, learned from records that state both, for the protocol files
        # (which never name a department) of agents the directory does not place yet.
        self.learned: dict[str, str] = {}
        self.waiting: list[ParsedReflection] = []  # department not known yet
        self.changed: list[tuple[ParsedReflection, int | None, int, tuple]] = []
        self.rejected_on_write = []
        self.history: list[tuple] = []
        # New reflections' ActiveSetChange rows, written with them (changes_of_new_reflection).
        self.active_rows: list[tuple] = []
        self.quarantined: list[tuple[int, ParsedReflection]] = []
        # Into an empty table (a team moving its memory in) every file is new: no lookups.
        self.table_was_empty = not Reflection.objects.exists()

    # ------------------------------------------------------------------ streaming
    def add(self, parsed: list[ParsedReflection]) -> None:
        """Write what can be written of these now; keep the rest for `finish`."""
        placed = []
        for p in parsed:
            # Pointing at both `ws` and `ws/memory` names the same files: one path, one row.
            if p.source_path in self.seen:
                continue
            self.seen.add(p.source_path)
            self.summary.warnings.extend(p.warnings)
            mask_parsed(p, self.directory)
            if p.agent and p.department and self.directory.agent_department(p.agent) is None:
                self.learned.setdefault(p.agent, p.department)
            if not p.department and p.agent and self._department_of_agent(p.agent) is None:
                self.waiting.append(p)
                continue
            placed.append(p)
        self._store(placed)

    def finish(self) -> None:
        """Write what waited, the changed files, history and findings."""
        self._store(self.waiting)
        self.waiting = []
        self._update_changed()
        self._write_history()
        bulk.write_rows(ScanFinding._meta.db_table, FINDING_COLUMNS, self._findings(), adapt=False)
        self.summary.rejected.extend(self.rejected_on_write)
        self.summary.details["quarantined"] = self.summary.details.get("quarantined", 0) + len(
            self.quarantined
        )

    # ------------------------------------------------------------------ placing
    def _department_of_agent(self, agent: str) -> str | None:
        dept_id = self.directory.agent_department(agent)
        if dept_id is not None:
            return next(s for s, i in self.directory.departments.items() if i == dept_id)
        return self.learned.get(agent)

    def _place(self, p: ParsedReflection) -> tuple[int | None, int] | None:
        """(agent id, department id), or None when the reflection is rejected."""
        slug = p.department or (self._department_of_agent(p.agent) if p.agent else "") or ""
        slug = slug or self.default_department
        if not slug:
            who = "it names no agent"
            if p.agent:
                who = f"agent {quote_value(p.agent)} has no department"
            self.rejected_on_write.append(
                _rejection(
                    p.source_path,
                    f"department: none given and {who}; choose a default department (the "
                    "import form's field, or --default-department) or assign the agent to a "
                    "department in the admin",
                )
            )
            return None
        try:
            dept_id = self.directory.department_id(slug)
        except UnknownDepartment as problem:
            self.rejected_on_write.append(_rejection(p.source_path, str(problem)))
            return None
        agent_id = self.directory.agent(p.agent, dept_id)[0] if p.agent else None
        return agent_id, dept_id

    def _store(self, parsed: list[ParsedReflection]) -> None:
        rows = []
        for p in parsed:
            placed = self._place(p)
            if placed is not None:
                rows.append((p, *placed))
        existing = {} if self.table_was_empty else _existing([p.source_path for p, _, _ in rows])
        new_rows = []
        for row in rows:
            old = existing.get(row[0].source_path)
            path, flagged = row[0].source_path, bool(row[0].findings)
            if old is None:
                new_rows.append(row)
                self.summary.record_file(path, "quarantined" if flagged else "created")
            elif old[1] != row[0].content_hash:
                self.changed.append((*row, old))
                self.summary.record_file(path, "quarantined" if flagged else "updated")
            else:
                self.summary.unchanged += 1
                self.summary.record_file(path, "unchanged")
        ids = bulk.allocate_ids(Reflection._meta.db_table, len(new_rows))
        self.summary.created += bulk.write_rows(
            Reflection._meta.db_table,
            REFLECTION_COLUMNS,
            (self._new_row(pk, *row) for pk, row in zip(ids, new_rows, strict=True)),
            adapt=False,
        )
        # Their history and active-set rows now too, rather than all at the end of the batch,
        # when the database would store them while nothing else is left to do.
        self._write_history()

    def _write_history(self) -> None:
        bulk.write_rows(
            ReflectionHistory._meta.db_table, HISTORY_COLUMNS, self.history, adapt=False
        )
        self.history = []
        bulk.write_rows(
            ActiveSetChange._meta.db_table, ACTIVE_SET_COLUMNS, self.active_rows, adapt=False
        )
        self.active_rows = []

    def _new_row(self, pk: int, p: ParsedReflection, agent_id: int | None, dept_id: int) -> tuple:
        state = State.QUARANTINED if p.findings else state_declared_by_file(p)
        reason = f"imported from {p.source_path}"
        if p.findings:
            reason += f"; quarantined: {describe_findings(p.findings)}"
            self.quarantined.append((pk, p))
        elif state != State.ACTIVE:
            reason += f"; the file declares it {state}"
            if p.deprecated_reason:
                reason += f" ({p.deprecated_reason})"
        self.history.append(self._history(pk, "created", "", state, reason, "", p.content_hash))
        self.active_rows += changes_of_new_reflection(pk, dept_id, p.created_at, state)
        # The values of content_values, adapted here once rather than per value in write_rows
        # (at 100,000 rows the generic adaptation costs as much as the COPY itself), and put
        # straight into a tuple in REFLECTION_COLUMNS order: no dict per row.
        dumps = json.dumps
        return (
            pk,
            p.source_path,
            p.format,
            p.content_hash,
            p.external_id,
            p.original_text,
            agent_id,
            dept_id,
            p.task_type,
            p.task_id,
            p.kind,
            p.outcome or "",
            bulk.adapt_value(p.created_at),
            p.title[:TITLE],
            dumps(p.sections),
            p.body,
            dumps(p.tags),
            dumps(p.skills),
            dumps(p.tools),
            p.confidence,
            p.model_used,
            p.salience,
            state,
            p.deprecated_reason[:REASON],
            0,  # retrieval_count
            None,  # last_retrieved_at
            self.db_now,  # imported_at
            self.db_now,  # updated_at
        )

    def _history(self, pk, change, from_state, to_state, reason, from_hash="", to_hash="") -> tuple:
        return (
            pk,
            self.db_now,
            change,
            self.user_id,
            "import",
            from_state,
            to_state,
            reason,
            from_hash,
            to_hash,
        )

    # ------------------------------------------------------------------ changed files
    def _update_changed(self) -> None:
        updates: list[Reflection] = []
        update_fields: list[str] = []
        for p, agent_id, dept_id, (pk, old_hash, old_state, old_reason) in self.changed:
            values = content_values(p, agent_id, dept_id)
            update = dict(
                values, updated_at=self.now, state=old_state, deprecated_reason=old_reason
            )
            if p.findings:
                self.quarantined.append((pk, p))
                if old_state != State.QUARANTINED:
                    update["state"] = State.QUARANTINED
                    self.history.append(
                        self._history(
                            pk,
                            "state",
                            old_state,
                            State.QUARANTINED,
                            f"quarantined: {describe_findings(p.findings)}",
                        )
                    )
            self.history.append(
                self._history(
                    pk,
                    "content",
                    old_state,
                    old_state,
                    f"source file {p.source_path} changed",
                    old_hash,
                    p.content_hash,
                )
            )
            # A file can gain a deprecation (written back by a review), never lose one: only a
            # person restores a deprecated reflection (DOMAIN §4). A quarantine goes first, as
            # for a new file: its text holds something only an admin may see.
            if p.deprecated_reason and old_state != State.DEPRECATED and not p.findings:
                reason = p.deprecated_reason[:REASON]
                update.update(state=State.DEPRECATED, deprecated_reason=reason)
                self.history.append(
                    self._history(
                        pk,
                        "state",
                        old_state,
                        State.DEPRECATED,
                        f"the source file declares it deprecated ({p.deprecated_reason})",
                    )
                )
            updates.append(Reflection(pk=pk, **update))
            update_fields = list(update)  # the same keys for every changed file
            self.summary.updated += 1
        if not updates:
            return
        # A changed file may name another author or department: their rollup rows are
        # recounted (cross-agent depends on the author, the rollup copies the department).
        moved = _moved_reflections(updates)
        # Their retrievals leave the flows to the old department and join the new one's.
        shift_flows_of_reflections(moved, sign=-1)
        # One statement per 500 changed files rather than one per file.
        Reflection.objects.bulk_update(updates, update_fields, batch_size=500)
        refresh_rollup_of_reflections(moved)
        shift_flows_of_reflections(moved, sign=1)

    def _findings(self):
        for pk, p in self.quarantined:
            for f in p.findings:
                yield (
                    pk,
                    p.content_hash,
                    f.field[:255],
                    f.rule,
                    f.category,
                    f.start,
                    f.end,
                    f.summary[:255],
                    self.db_now,
                    ScanFinding.Status.OPEN.value,
                    "",
                )


def _rejection(path: str, reason: str) -> Rejection:
    return Rejection(path=path, line=None, reason=reason)


def _existing(paths: list[str]) -> dict[str, tuple[int, str, str, str]]:
    """path → (id, content hash, state, deprecation reason) of the stored rows among paths."""
    found = {}
    for start in range(0, len(paths), 5000):
        for pk, path, digest, state, reason in Reflection.objects.filter(
            source_path__in=paths[start : start + 5000]
        ).values_list("id", "source_path", "content_hash", "state", "deprecated_reason"):
            found[path] = (pk, digest, state, reason)
    return found


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
