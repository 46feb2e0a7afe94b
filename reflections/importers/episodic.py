"""Episodic-memory JSON reflections: `.aiwg/ralph/reflections/<loop-id>/NNN.json`."""

from __future__ import annotations

from datetime import datetime
from pathlib import PurePosixPath

from reflections.importers.base import (
    FORMAT_EPISODIC,
    MAX_FIELD_CHARS,
    ParsedReflection,
    ParseError,
    clean_bool,
    clean_str,
    clean_str_list,
    clean_unit,
    content_hash,
    first_sentence,
    parse_when,
    show,
)
from reflections.importers.decoding import load_json
from reflections.importers.tools import extract_tools


def parse_episodic(text: str, *, source_path: str, now: datetime) -> ParsedReflection:
    data = load_json(text)
    if not isinstance(data, dict):
        raise ParseError(f"the file must hold one JSON object, found {type(data).__name__}")

    iteration = data.get("iteration")
    if isinstance(iteration, bool) or not isinstance(iteration, int) or iteration < 0:
        raise ParseError(
            f"expected the loop iteration as a whole number ≥ 0, got {show(iteration)}",
            field="iteration",
        )
    if data.get("timestamp") is None:
        # Falling back to the import time would invent history: decay and learning curves
        # would treat an old lesson as new.
        raise ParseError(
            "is missing; an episodic reflection needs an ISO 8601 timestamp to be dated",
            field="timestamp",
        )
    created_at = parse_when(data["timestamp"], field="timestamp", now=now)

    reflection = _object(data, "self_reflection")
    evaluator = _object(data, "evaluator_output")
    passed = evaluator.get("passed")
    if not isinstance(passed, bool):
        raise ParseError(
            f"expected true or false, got {show(passed)}", field="evaluator_output.passed"
        )
    outcome = "success" if passed else "failure"

    text_of = clean_str(
        reflection.get("reflection_text"), field="self_reflection.reflection_text", required=True
    )
    sections = [{"heading": "Reflection", "body": text_of}]
    credit = reflection.get("credit_assignment") or {}
    if not isinstance(credit, dict):
        raise ParseError(f"expected an object, got {show(credit)}", field="credit_assignment")
    root_cause = clean_str(credit.get("root_cause"), field="credit_assignment.root_cause")
    category = clean_str(credit.get("failure_category"), field="credit_assignment.failure_category")
    if root_cause or category:
        body = root_cause or category
        if root_cause and category:
            body = f"{root_cause} (category: {category})"
        sections.append({"heading": "Root cause", "body": body})
    causal = clean_str(reflection.get("causal_reasoning"), field="self_reflection.causal_reasoning")
    if causal:
        sections.append({"heading": "Causal reasoning", "body": causal})
    lists = {}
    for key, heading in (
        ("actionable_insights", "Actionable insights"),
        ("lessons_learned", "Lessons learned"),
    ):
        items = clean_str_list(
            reflection.get(key), field=f"self_reflection.{key}", max_item_chars=MAX_FIELD_CHARS
        )
        lists[key] = items
        if items:
            sections.append({"heading": heading, "body": _bullets(items)})
    errors = _errors(evaluator.get("errors"))
    if errors:
        sections.append({"heading": "Evaluator errors", "body": _bullets(errors)})

    task_description = clean_str(data.get("task_description"), field="task_description")
    # The category is a label, not prose: extracting tools from it would invent names.
    tool_text = "\n".join(
        [text_of, root_cause, causal, *lists["actionable_insights"], *lists["lessons_learned"]]
    )
    loop_id = PurePosixPath(source_path).parent.name
    external_id = f"{loop_id}/{iteration}" if loop_id else str(iteration)
    return ParsedReflection(
        source_path=source_path,
        format=FORMAT_EPISODIC,
        original_text=text,
        content_hash=content_hash(text),
        kind=outcome,
        outcome=outcome,
        created_at=created_at,
        title=first_sentence(task_description or text_of),
        sections=sections,
        agent=clean_str(data.get("agent"), field="agent"),
        department=clean_str(data.get("department"), field="department"),
        task_type=clean_str(data.get("task_type"), field="task_type"),
        external_id=external_id,
        tools=extract_tools(tool_text),
        confidence=clean_unit(reflection.get("confidence"), field="self_reflection.confidence"),
        model_used=clean_str(data.get("model_used"), field="model_used"),
        # Written back by a review (DOMAIN §5) so the runtime and a fresh import agree.
        archived=clean_bool(data.get("archived"), field="archived"),
        deprecated_reason=clean_str(data.get("deprecated_reason"), field="deprecated_reason"),
    )


def _object(data: dict, key: str) -> dict:
    value = data.get(key)
    if not isinstance(value, dict):
        raise ParseError(
            f"expected an object, got {show(value)}" if value is not None else "is missing",
            field=key,
        )
    return value


def _errors(value: object) -> list[str]:
    """Evaluator errors as one readable line each: "TypeError: message (file:line)"."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise ParseError(f"expected a list, got {show(value)}", field="evaluator_output.errors")
    lines = []
    for item in value:
        if isinstance(item, str):
            lines.append(item.strip())
        elif isinstance(item, dict):
            head = ": ".join(str(item[k]).strip() for k in ("type", "message") if item.get(k))
            where = ":".join(str(item[k]) for k in ("file", "line") if item.get(k) is not None)
            lines.append(f"{head} ({where})" if where and head else head or where)
        else:
            raise ParseError(
                f"expected text or an object, found {show(item)}", field="evaluator_output.errors"
            )
    return [line for line in lines if line]


def _bullets(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items)
