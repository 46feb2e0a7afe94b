"""Front-matter Markdown reflections: `memory/reflexions/YYYY-MM/DD-<task-id>.md`."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from reflections.importers.base import (
    FORMAT_FRONTMATTER,
    MAX_FIELD_CHARS,
    ParsedReflection,
    ParseError,
    check_not_future,
    check_outcome,
    clean_bool,
    clean_str,
    clean_str_list,
    clean_unit,
    content_hash,
    first_sentence,
    parse_when,
    show,
    split_sections,
)
from reflections.importers.decoding import load_yaml_mapping
from reflections.importers.tools import extract_tools

SECTIONS = ("What happened?", "Why?", "What rule should I remember?")
RULE_SECTION = "What rule should I remember?"
# Body text outside any "## " heading is kept under this heading rather than dropped.
LOOSE_TEXT_HEADING = "Reflection"

_PATH = re.compile(r"(?:^|/)reflexions/(\d{4})-(\d{2})/(\d{2})-([^/]+)\.md$")
_CANONICAL = {" ".join(h.lower().rstrip("?").split()): h for h in SECTIONS}


def parse_frontmatter(text: str, *, source_path: str, now: datetime) -> ParsedReflection:
    lines = text.split("\n")
    if lines[0].rstrip() != "---":
        raise ParseError(
            "the file must start with a '---' line opening the YAML front matter",
            line=1,
            field="front matter",
        )
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
    if end is None:
        raise ParseError(
            "the front matter opened on line 1 is never closed with a '---' line",
            line=1,
            field="front matter",
        )
    meta = load_yaml_mapping("\n".join(lines[1:end]))

    def line_of(key: str) -> int | None:
        # Point the reader at the key's own line when it is written block-style.
        for i in range(1, end):
            if lines[i].startswith((f"{key}:", f'"{key}":', f"'{key}':")):
                return i + 1
        return None

    def read(key: str, clean: Callable[..., Any]) -> Any:
        try:
            return clean(meta.get(key), field=key, line=None)
        except ParseError as exc:
            # Looked up only on failure: scanning for every key costs more than the YAML.
            exc.line = exc.line or line_of(key)
            raise

    outcome = read("outcome", check_outcome)

    created_at, task_id = _created_and_task_id(source_path, meta, line_of, now)

    body_start = end + 2
    preamble, _, raw_sections = split_sections(lines[end + 1 :], first_line=body_start)
    sections: list[dict] = []
    if preamble:
        sections.append({"heading": LOOSE_TEXT_HEADING, "body": preamble})
    for section in raw_sections:
        heading = _CANONICAL.get(" ".join(section.heading.lower().rstrip("?").split()))
        sections.append({"heading": heading or section.heading, "body": section.body})
        if len(section.body) > MAX_FIELD_CHARS:
            raise ParseError(
                f"section '## {section.heading}' is {len(section.body):,} characters; the limit "
                f"is {MAX_FIELD_CHARS:,}",
                line=section.line,
                field="sections",
            )
    sections = [s for s in sections if s["body"].strip()]
    if not sections:
        raise ParseError(
            "the body after the front matter is empty; expected sections "
            + " · ".join(f"'## {h}'" for h in SECTIONS),
            line=body_start,
            field="body",
        )
    rule = next((s["body"] for s in sections if s["heading"] == RULE_SECTION), None)

    return ParsedReflection(
        source_path=source_path,
        format=FORMAT_FRONTMATTER,
        original_text=text,
        content_hash=content_hash(text),
        kind=outcome,
        outcome=outcome,
        created_at=created_at,
        title=first_sentence(rule or sections[0]["body"]),
        sections=sections,
        agent=read("agent", clean_str),
        department=read("department", clean_str),
        task_type=read("task_type", clean_str),
        task_id=task_id,
        tags=read("tags", clean_str_list),
        skills=read("related_skills", clean_str_list),
        tools=extract_tools("\n\n".join(s["body"] for s in sections)),
        confidence=read("confidence_at_start", clean_unit),
        model_used=read("model_used", clean_str),
        salience=read("salience_score", clean_unit),
        archived=read("archived", clean_bool),
        promoted=read("promoted", clean_bool),
        deprecated_reason=read("deprecated_reason", clean_str),
    )


def _created_and_task_id(
    source_path: str, meta: dict, line_of: Callable[[str], int | None], now: datetime
) -> tuple[datetime, str]:
    """The path carries the date and task id; front-matter keys, when present, are preciser."""
    match = _PATH.search(source_path)
    task_id = match.group(4) if match else ""
    if meta.get("task_id") is not None:
        task_id = clean_str(meta["task_id"], field="task_id", line=line_of("task_id"))

    for key in ("created_at", "date"):
        if meta.get(key) is not None:
            return parse_when(meta[key], field=key, now=now, line=line_of(key)), task_id
    if not match:
        raise ParseError(
            f"no created date: the path {show(source_path)} is not "
            "memory/reflexions/YYYY-MM/DD-<task-id>.md and the front matter has no created_at",
            field="created_at",
        )
    year, month, day = (int(g) for g in match.groups()[:3])
    try:
        created_at = datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        raise ParseError(
            f"{match.group(1)}-{match.group(2)}/{match.group(3)} in the path is not a real date",
            field="path",
        ) from None
    check_not_future(created_at, now=now, field="path")
    return created_at, task_id
