"""What every import batch shares: its summary, the import lock, departments and agents by name."""

from __future__ import annotations

import hmac
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from django.conf import settings
from django.utils.text import slugify

from reflections import bulk
from reflections.importers.base import Notice, Rejection
from reflections.models import Agent, Department
from reflections.scanning import mask, scan_text
from reflections.scanning.fields import masked_path
from reflections.services.rollups import shift_flows

Progress = Callable[[int], None]

# The columns of a ReflectionHistory row as imports and policy runs write them in bulk.
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

# The columns of the rows a reflection import writes in bulk, in the order its rows hold them.
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

# Rows held in memory between two bulk writes of a log import.
EVENT_CHUNK_ROWS = 200_000


@dataclass
class ImportSummary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: list[Rejection] = field(default_factory=list)
    details: dict = field(default_factory=dict)
    # Accepted with a warning (an extra section kept, an unknown block): file, line, message.
    warnings: list[Notice] = field(default_factory=list)
    # path → created | updated | unchanged | quarantined, when the caller asks for it (the web
    # import's per-file report); None otherwise.
    files: dict[str, str] | None = None

    def reject(self, path: str, line: int | None, reason: str) -> None:
        self.rejected.append(Rejection(path=path, line=line, reason=reason))

    def record_file(self, path: str, outcome: str) -> None:
        """What happened to one file (`files`, when asked for): created, updated, unchanged,
        or quarantined when the scanner flagged a new or changed text."""
        if self.files is not None:
            self.files[path] = outcome

    def withhold_unsafe(self) -> None:
        """Mask whatever the scanner finds in the rejected paths and reasons, before they are
        printed or stored: a reason quotes the bad value, and a path can hold a token too."""
        shown: dict[str, str] = {}
        self.rejected = [
            Rejection(
                _masked(r.path, shown, masked_path),
                r.line,
                _masked(r.reason, shown) if _QUOTES.search(r.reason) else r.reason,
            )
            for r in self.rejected
        ]
        self.warnings = [
            Notice(
                _masked(w.path, shown, masked_path),
                w.line,
                _masked(w.message, shown) if _QUOTES.search(w.message) else w.message,
            )
            for w in self.warnings
        ]

    def as_dict(self) -> dict:
        data = {
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "rejected": [r.as_dict() for r in self.rejected],
            **self.details,
        }
        if self.warnings:  # only when there are some: most imports have none
            data["warnings"] = [w.as_dict() for w in self.warnings]
        if self.files is not None:
            data["files"] = self.files
        return data


# Reasons quote values between quotes (repr, show, quote_value); the rest is our own words.
_QUOTES = re.compile("['\"`]")


def _masked(text: str, seen: dict[str, str], masker=None) -> str:
    if text not in seen:
        seen[text] = (masker or mask)(text) if scan_text(text) else text
    return seen[text]


class UnknownDepartment(ValueError):
    """A department slug an import may not use; the message is safe to show and log."""


def quote_value(value: str, limit: int = 40) -> str:
    """A value for an error message: quoted and cut short, or withheld when the scanner finds
    anything in it (a department or agent field is where careless agents paste secrets)."""
    if scan_text(value):
        return "(a value that looks unsafe, not shown)"
    return repr(value if len(value) <= limit else value[: limit - 1] + "…")


def valid_slug(value: str) -> bool:
    return bool(value) and slugify(value) == value


def safe_value(value: str) -> str:
    """A name or label from an import as it may be stored and shown: as written, or masked
    when the scanner finds anything in it."""
    return mask(value) if scan_text(value) else value


def agent_name(raw: str, masked: str) -> str:
    """The name an agent is stored under: as written, or masked (by `safe_value`, or by a
    caller who knows the text the name came with) with a keyed digest of the name as written,
    so that two masked agents stay apart and a log naming the same agent finds it."""
    if masked == raw:
        return raw
    digest = hmac.new(settings.SECRET_KEY.encode(), raw.encode(), "sha256").hexdigest()
    return f"{masked[:100]} ({digest[:10]})"


class Directory:
    """Departments and agents by name. Agents are created on first sight; a department only
    when the person importing allows it (`create_departments`), so a typo or a value that is
    no department never becomes one."""

    def __init__(self, *, create_departments: bool = False) -> None:
        self.create_departments = create_departments
        # Events with ids from here on are not in the flows yet (the event import adds them
        # at its end); None: every event is.
        self.uncounted_from: int | None = None
        self.departments = dict(Department.objects.values_list("slug", "id"))
        self.agents: dict[str, list] = {
            name: [pk, dept]
            for pk, name, dept in Agent.objects.values_list("id", "name", "department_id")
        }
        self._safe: dict[str, str] = {}

    def safe(self, value: str) -> str:
        """`safe_value`, once per distinct value: logs repeat a few values millions of times."""
        if value not in self._safe:
            self._safe[value] = safe_value(value)
        return self._safe[value]

    def agent_name(self, raw: str, masked: str | None = None) -> str:
        """`agent_name` with the scan of the name cached."""
        return agent_name(raw, self.safe(raw) if masked is None else masked)

    def department_id(self, slug: str) -> int:
        """The department's id; raises UnknownDepartment (a message for a person, quoting the
        value only when it is safe to) when the slug is invalid or may not be created."""
        if slug in self.departments:
            return self.departments[slug]
        if scan_text(slug):
            raise UnknownDepartment(
                f"department: {quote_value(slug)}; a department is never created from it"
            )
        if not valid_slug(slug) or len(slug) > 64:
            raise UnknownDepartment(
                f"department: {quote_value(slug)} is not a department slug "
                "(lowercase letters, digits and hyphens, at most 64)"
            )
        if not self.create_departments:
            raise UnknownDepartment(
                f"department: no department {quote_value(slug)}; an admin creates it in the admin, "
                "or imports with new departments created (the import page's checkbox, "
                "--create-departments on the command line)"
            )
        dept = Department.objects.create(slug=slug, name=slug.replace("-", " ").title())
        self.departments[slug] = dept.id
        return dept.id

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


def lock_imports() -> None:
    """Serialise imports so two batches never race for the same source path or id range."""
    if bulk.is_postgres():
        bulk.execute("SELECT pg_advisory_xact_lock(%s)", [0x5EF1E])
    # SQLite: transactions are IMMEDIATE (settings), so the write lock is already held.


def check_foreign_keys_now() -> None:
    """Inside a batch's transaction: check foreign keys at each statement from now on."""
    if bulk.is_postgres():
        bulk.execute("SET CONSTRAINTS ALL IMMEDIATE")


def chunks(items: Iterable, size: int) -> Iterator[list]:
    chunk: list = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
