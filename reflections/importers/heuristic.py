"""ERL heuristic JSONL: one `{scenario_id, task, reward, analysis, guideline}` lesson per line."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from reflections.importers.base import (
    FORMAT_HEURISTIC,
    ParsedReflection,
    ParseError,
    Rejection,
    check_outcome,
    clean_str,
    content_hash,
    first_sentence,
    parse_when,
    show,
)
from reflections.importers.decoding import load_json
from reflections.importers.tools import extract_tools

REWARDS = ("success", "failure")


def parse_heuristic_file(
    text: str, *, source_path: str, now: datetime
) -> Iterator[ParsedReflection | Rejection]:
    """Each line stands alone: a bad line is rejected and the rest still import."""
    first_seen: dict[str, int] = {}
    for line_no, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            parsed = parse_heuristic_line(line, source_path=source_path, line_no=line_no, now=now)
        except ParseError as exc:
            yield Rejection(source_path, line_no, exc.reason)
            continue
        scenario_id = parsed.external_id
        if scenario_id in first_seen:
            yield Rejection(
                source_path,
                line_no,
                f"scenario_id: duplicate {show(scenario_id)} (first on line "
                f"{first_seen[scenario_id]}); scenario ids must be unique within a file",
            )
            continue
        first_seen[scenario_id] = line_no
        yield parsed


def parse_heuristic_line(
    raw: str, *, source_path: str, line_no: int, now: datetime
) -> ParsedReflection:
    """One line of a heuristic file; ParseError reasons name the field."""
    text = raw.strip()
    line = line_no
    data = load_json(text, line=line)
    if not isinstance(data, dict):
        raise ParseError(
            f"expected one JSON object per line, found {type(data).__name__}", line=line
        )

    scenario_id = clean_str(data.get("scenario_id"), field="scenario_id", line=line, required=True)
    if "#" in scenario_id or "/" in scenario_id:
        # The id becomes part of the reflection's path "<file>#<scenario_id>".
        raise ParseError(
            f"{show(scenario_id)} must not contain '#' or '/'", line=line, field="scenario_id"
        )
    reward = check_outcome(data.get("reward"), field="reward", line=line, allowed=REWARDS)
    task = clean_str(data.get("task"), field="task", line=line, required=True)
    analysis = clean_str(data.get("analysis"), field="analysis", line=line, required=True)
    guideline = data.get("guideline")
    if not isinstance(guideline, dict):
        raise ParseError(
            "is missing" if guideline is None else f"expected an object, got {show(guideline)}",
            line=line,
            field="guideline",
        )
    trigger = clean_str(
        guideline.get("trigger"), field="guideline.trigger", line=line, required=True
    )
    action = clean_str(guideline.get("action"), field="guideline.action", line=line, required=True)
    if data.get("created_at") is None:
        raise ParseError(
            "is missing; each heuristic needs an ISO 8601 date to be dated",
            line=line,
            field="created_at",
        )
    created_at = parse_when(data["created_at"], field="created_at", now=now, line=line)

    sections = [
        {"heading": "Task", "body": task},
        {"heading": "Analysis", "body": analysis},
        {"heading": "Trigger", "body": trigger},
        {"heading": "Action", "body": action},
    ]
    return ParsedReflection(
        source_path=f"{source_path}#{scenario_id}",
        format=FORMAT_HEURISTIC,
        original_text=text,
        content_hash=content_hash(text),
        kind=reward,
        outcome=reward,
        created_at=created_at,
        # The trigger says when the lesson applies: the most useful line in a review list.
        title=first_sentence(trigger),
        sections=sections,
        agent=clean_str(data.get("agent"), field="agent", line=line),
        department=clean_str(data.get("department"), field="department", line=line),
        task_type=clean_str(data.get("task_type"), field="task_type", line=line),
        external_id=scenario_id,
        tools=extract_tools(f"{analysis}\n{trigger}\n{action}"),
    )
