"""Retrieval-event and task-outcome logs (JSONL or CSV), parsed line by line at volume."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Literal

from reflections.importers.base import (
    FIELD_LIMITS,
    FUTURE_TOLERANCE,
    MAX_LIST_ITEMS,
    OUTCOMES,
    ParsedRetrieval,
    ParsedTask,
    Rejection,
    as_utc,
    show,
)

LogFormat = Literal["jsonl", "csv"]
LogKind = Literal["retrieval", "task"]

RETRIEVAL_REQUIRED = ("reflection", "retrieved_at", "task_id", "agent")
TASK_REQUIRED = ("task_id", "agent", "department", "task_type", "finished_at", "outcome")
_OUTCOMES = frozenset(OUTCOMES)
# The longest value each field may hold: what its column stores (FIELD_LIMITS) and, for a
# reference to a reflection, a source path with its '#n' item suffix.
LIMITS = {**FIELD_LIMITS, "reflection": FIELD_LIMITS["source_path"] + 8, "failure_mode": 128}
_fromisoformat = datetime.fromisoformat


class _Bad(Exception):
    """One field of one line is wrong; becomes a Rejection naming the field."""


def detect_log_kind(first_record: dict | list[str]) -> LogKind | None:
    """Which log a file is, from its first JSON object's keys or its CSV header."""
    names = first_record.keys() if isinstance(first_record, dict) else first_record
    keys = {k.strip().lstrip("\ufeff").lower() for k in names if isinstance(k, str)}
    if {"reflection", "retrieved_at"} <= keys:
        return "retrieval"
    if {"finished_at", "outcome"} <= keys:
        return "task"
    return None


def parse_retrieval_lines(
    text_lines: Iterable[str], *, path: str, fmt: LogFormat, now: datetime
) -> Iterator[ParsedRetrieval | Rejection]:
    limit = as_utc(now) + FUTURE_TOLERANCE
    for item in _records(text_lines, path=path, fmt=fmt, required=RETRIEVAL_REQUIRED):
        if type(item) is Rejection:
            yield item
            continue
        line_no, rec = item
        try:
            # Positional: half the cost of keywords at ten million lines. The field order is
            # pinned by the tests, which read every field back by name.
            yield ParsedRetrieval(
                line_no,
                _text(rec, "reflection", LIMITS["reflection"]),
                _timestamp(rec, "retrieved_at", limit),
                _text(rec, "task_id", LIMITS["task_id"]),
                _text(rec, "agent", LIMITS["agent"]),
                _optional_text(rec, "department", LIMITS["department"]),
                _rank(rec.get("rank")),
                _score(rec.get("score")),
            )
        except _Bad as exc:
            yield Rejection(path, line_no, str(exc))


def parse_task_lines(
    text_lines: Iterable[str], *, path: str, fmt: LogFormat, now: datetime
) -> Iterator[ParsedTask | Rejection]:
    limit = as_utc(now) + FUTURE_TOLERANCE
    split = _csv_list if fmt == "csv" else _json_list
    for item in _records(text_lines, path=path, fmt=fmt, required=TASK_REQUIRED):
        if type(item) is Rejection:
            yield item
            continue
        line_no, rec = item
        try:
            outcome = rec.get("outcome")
            if type(outcome) is not str or outcome not in _OUTCOMES:
                outcome = _outcome(outcome)
            yield ParsedTask(
                line_no,
                _text(rec, "task_id", LIMITS["task_id"]),
                _text(rec, "agent", LIMITS["agent"]),
                _text(rec, "department", LIMITS["department"]),
                _text(rec, "task_type", LIMITS["task_type"]),
                _timestamp(rec, "finished_at", limit),
                outcome,
                _optional_text(rec, "failure_mode", LIMITS["failure_mode"]),
                _confidence(rec.get("confidence_at_start")),
                split(rec.get("reflections_injected"), "reflections_injected"),
                split(rec.get("tools_used"), "tools_used"),
            )
        except _Bad as exc:
            yield Rejection(path, line_no, str(exc))


def _records(
    text_lines: Iterable[str], *, path: str, fmt: LogFormat, required: tuple[str, ...]
) -> Iterator[tuple[int, dict] | Rejection]:
    """(line number, record) per non-blank line; unreadable lines become Rejections."""
    if fmt == "jsonl":
        loads = json.loads
        for line_no, line in enumerate(text_lines, start=1):
            if not line or line.isspace():
                continue
            if "\ufffd" in line:
                yield Rejection(path, line_no, "the line is not valid UTF-8; re-save as UTF-8")
                continue
            try:
                rec = loads(line)
            except ValueError as exc:
                yield Rejection(path, line_no, f"invalid JSON: {exc}")
                continue
            except RecursionError:
                yield Rejection(path, line_no, "invalid JSON: nested too deeply")
                continue
            if type(rec) is not dict:
                yield Rejection(
                    path, line_no, f"expected a JSON object, found {type(rec).__name__}"
                )
                continue
            yield line_no, rec
        return
    if fmt != "csv":
        raise ValueError(f"unknown log format {fmt!r}; expected 'jsonl' or 'csv'")

    reader = csv.reader(text_lines)
    header = next((row for row in reader if any(cell.strip() for cell in row)), None)
    if header is None:
        return
    header_line = reader.line_num
    names = [h.strip().lstrip("\ufeff").strip().lower() for h in header]
    missing = [name for name in required if name not in names]
    duplicated = sorted({name for name in names if name and names.count(name) > 1})
    if missing or duplicated:
        problem = f"missing column(s) {', '.join(missing)}" if missing else ""
        if duplicated:
            problem += ("; " if problem else "") + f"duplicate column(s) {', '.join(duplicated)}"
        yield Rejection(path, header_line, f"header: {problem}; no lines were read")
        return
    width = len(names)
    try:
        for row in reader:
            line_no = reader.line_num
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if len(row) != width:
                yield Rejection(
                    path, line_no, f"the line has {len(row)} fields; the header has {width}"
                )
                continue
            if any("\ufffd" in cell for cell in row):
                yield Rejection(path, line_no, "the line is not valid UTF-8; re-save as UTF-8")
                continue
            yield line_no, dict(zip(names, row, strict=True))
    except csv.Error as exc:
        # An unterminated quote swallows the rest of the file: nothing after it is readable.
        yield Rejection(path, reader.line_num, f"unreadable CSV: {exc}")


# Field readers. Lines are read by the million: the common case is one type check and a
# return; the messages are only built for the rare bad line.


def _text(rec: dict, field: str, limit: int) -> str:
    value = rec.get(field)
    if type(value) is str:
        value = value.strip()
        if value and len(value) <= limit and "\x00" not in value and value.isascii():
            return value
        if value:
            return _checked(value, field, limit)
    if value is None or value == "":
        raise _Bad(f"{field}: is missing")
    raise _Bad(f"{field}: expected text, got {show(value)}")


def _optional_text(rec: dict, field: str, limit: int) -> str:
    value = rec.get(field)
    if value is None:
        return ""
    if type(value) is str:
        value = value.strip()
        if len(value) <= limit and "\x00" not in value and value.isascii():
            return value
        return _checked(value, field, limit)
    raise _Bad(f"{field}: expected text, got {show(value)}")


def _checked(value: str, field: str, limit: int) -> str:
    """The slow path of a text field: its length, NUL bytes and lone surrogates."""
    if len(value) > limit:
        raise _Bad(f"{field}: is {len(value):,} characters; the limit is {limit}")
    if "\x00" in value:
        raise _Bad(f"{field}: contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _Bad(f"{field}: contains a lone surrogate (U+D800 to U+DFFF), not text") from None
    return value


def _timestamp(rec: dict, field: str, limit: datetime) -> datetime:
    value = rec.get(field)
    if type(value) is not str or not value:
        raise _Bad(
            f"{field}: is missing"
            if value is None or value == ""
            else f"{field}: expected an ISO 8601 timestamp, got {show(value)}"
        )
    try:
        when = _fromisoformat(value)
    except ValueError:
        raise _Bad(
            f"{field}: {show(value)} is not an ISO 8601 date or timestamp "
            "(e.g. 2026-03-01T09:30:00Z)"
        ) from None
    tz = when.tzinfo
    if tz is None:
        when = when.replace(tzinfo=UTC)
    elif tz is not UTC:
        when = when.astimezone(UTC)
    if when > limit:
        raise _Bad(f"{field}: {value} is more than 24 h in the future")
    return when


def _outcome(value: object) -> str:
    if type(value) is str and value.strip().lower() in _OUTCOMES:
        return value.strip().lower()
    if value is None or value == "":
        raise _Bad(f"outcome: is missing; expected one of {', '.join(OUTCOMES)}")
    raise _Bad(f"outcome: unknown outcome {show(value)}; expected one of {', '.join(OUTCOMES)}")


def _rank(value: object) -> int | None:
    if value is None or value == "":
        return None
    if type(value) is str:
        try:
            value = int(value)
        except ValueError:
            raise _Bad(f"rank: {show(value)} is not a whole number") from None
    if type(value) is not int:
        raise _Bad(f"rank: {show(value)} is not a whole number")
    if value < 0:
        raise _Bad(f"rank: {value} is negative")
    return value


def _number(value: object, field: str) -> float | None:
    """A finite float from JSON or a CSV cell; None when absent."""
    if value is None or value == "":
        return None
    if type(value) is str:
        try:
            value = float(value)
        except ValueError:
            raise _Bad(f"{field}: {show(value)} is not a number") from None
    elif type(value) is int:
        value = float(value)
    if type(value) is not float or not math.isfinite(value):
        raise _Bad(f"{field}: {show(value)} is not a number")
    return value


def _score(value: object) -> float | None:
    return _number(value, "score")


def _confidence(value: object) -> float | None:
    value = _number(value, "confidence_at_start")
    if value is not None and not 0.0 <= value <= 1.0:
        raise _Bad(f"confidence_at_start: {show(value)} is not a number between 0 and 1")
    return value


def _json_list(value: object, field: str) -> list[str]:
    if value is None:
        return []
    if type(value) is list and all(type(v) is str for v in value):
        return _items(value, field)
    raise _Bad(f"{field}: expected a list of text items, got {show(value)}")


def _csv_list(value: object, field: str) -> list[str]:
    """A CSV cell holds a list as "a;b;c" or as a JSON list string '["a", "b"]'."""
    if not value:
        return []
    text = str(value).strip()
    if text.startswith("["):
        try:
            return _json_list(json.loads(text), field)
        except (ValueError, RecursionError):
            raise _Bad(f"{field}: {show(text)} is not a JSON list") from None
    return _items(text.split(";"), field)


def _items(values: list[str], field: str) -> list[str]:
    """The non-blank items of a list field, each checked like a text field."""
    if len(values) > MAX_LIST_ITEMS:
        raise _Bad(f"{field}: holds {len(values):,} items; the limit is {MAX_LIST_ITEMS}")
    limit = LIMITS["reflection"]
    return [
        v if len(v) <= limit and "\x00" not in v and v.isascii() else _checked(v, field, limit)
        for v in (v.strip() for v in values)
        if v
    ]
