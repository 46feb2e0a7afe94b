"""A quarantined reflection's stored fields: masked on the way in, read again from its text on
the way out (a dismissed false positive), replaced from the edit on a redaction.

Only `original_text` keeps what the file said; every column a page, a filter or an export
reads holds the masked value while the reflection is quarantined.
"""

from __future__ import annotations

from django.utils import timezone

from reflections.importers.base import COLUMN_LIMITS, ParsedReflection, join_sections
from reflections.importers.pool import values_of
from reflections.importers.registry import parse_text
from reflections.models import Agent, Reflection
from reflections.scanning import Finding
from reflections.scanning.fields import LIST_FIELDS, fitted_value, masked_values
from reflections.services.batches import Directory, agent_name, safe_value

# The columns a quarantine masks; the agent is masked by its name (Directory.agent_name).
MASKED_COLUMNS = (
    "title",
    "task_type",
    "task_id",
    "external_id",
    "model_used",
    "deprecated_reason",
    *LIST_FIELDS,
    "sections",
    "body",
)


def mask_parsed(p: ParsedReflection, directory: Directory) -> None:
    """What is stored of a reflection: a quarantined one's fields masked (its text is kept
    as written, for the quarantine to show masked and to restore on a dismissal); an agent
    named by something unsafe stored under a masked name."""
    if p.findings:
        masked = masked_values(p.original_text, p.findings, values_of(p))
        agent = directory.agent_name(p.agent, masked.pop("agent")) if p.agent else ""
        for name in ("source_path", "department"):
            masked.pop(name)  # identity: a finding in these rejects the file (importers.pool)
        for name, value in masked.items():
            setattr(p, name, value)
        p.agent = agent
    elif p.agent:
        p.agent = directory.agent_name(p.agent)


def stored_values(reflection: Reflection) -> dict:
    """The values the scanner reads beside a stored reflection's text."""
    return {
        "source_path": reflection.source_path,
        "department": reflection.department.slug,
        "agent": reflection.agent.name if reflection.agent_id else "",
        "title": reflection.title,
        "task_type": reflection.task_type,
        "task_id": reflection.task_id,
        "external_id": reflection.external_id,
        "model_used": reflection.model_used,
        "deprecated_reason": reflection.deprecated_reason,
        **{name: list(getattr(reflection, name) or ()) for name in LIST_FIELDS},
        "sections": list(reflection.sections or ()),
    }


def mask_stored(reflection: Reflection, findings: list[Finding]) -> list[str]:
    """Mask the reflection's columns in place (not saved); returns the columns changed."""
    masked = masked_values(reflection.original_text, findings, stored_values(reflection))
    changed = []
    for name in MASKED_COLUMNS:
        if name == "body":
            value = join_sections(masked["sections"])
        else:
            value = masked[name]
            if name in COLUMN_LIMITS:
                value = fitted_value(value, COLUMN_LIMITS[name])
        if getattr(reflection, name) != value:
            setattr(reflection, name, value)
            changed.append(name)
    if reflection.agent_id and masked["agent"] != reflection.agent.name:
        reflection.agent = _agent(agent_name(reflection.agent.name, masked["agent"]), reflection)
        changed.append("agent")
    return changed


def parsed_from_text(reflection: Reflection, text: str) -> ParsedReflection | str:
    """The reflection `text` holds, as the import would read it; a reason when it holds none."""
    items = [
        p
        for p in parse_text(
            text,
            fmt=reflection.format,
            source_path=reflection.source_path.split("#", 1)[0],
            now=timezone.now(),
        )
        if not isinstance(p, ParsedReflection) or p.source_path == reflection.source_path
    ]
    if len(items) != 1 or not isinstance(items[0], ParsedReflection):
        return items[0].reason if items else "the text holds no reflection"
    return items[0]


def restore_stored(reflection: Reflection, parsed: ParsedReflection) -> None:
    """Set the columns (not saved) from a parse of the text as written: a released
    reflection shows what its file says again. The department stays where it was filed."""
    reflection.title = parsed.title[: COLUMN_LIMITS["title"]]
    for name in ("task_type", "task_id", "external_id", "model_used", *LIST_FIELDS, "sections"):
        setattr(reflection, name, getattr(parsed, name))
    reflection.body = parsed.body
    if parsed.deprecated_reason:
        reflection.deprecated_reason = parsed.deprecated_reason[
            : COLUMN_LIMITS["deprecated_reason"]
        ]
    if parsed.agent:
        reflection.agent = _agent(agent_name(parsed.agent, safe_value(parsed.agent)), reflection)
    else:
        reflection.agent = None


def _agent(name: str, reflection: Reflection) -> Agent:
    agent, _ = Agent.objects.get_or_create(
        name=name, defaults={"department_id": reflection.department_id}
    )
    return agent
