"""Which parser reads which format: adding a format is one line in each table here."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from itertools import chain
from pathlib import Path

from reflections.importers.base import (
    FORMAT_EPISODIC,
    FORMAT_FRONTMATTER,
    FORMAT_HEURISTIC,
    FORMAT_PROTOCOL,
    MAX_HEURISTIC_FILE_BYTES,
    MAX_REFLECTION_FILE_BYTES,
    ParsedReflection,
    ParsedRetrieval,
    ParsedTask,
    ParseError,
    Rejection,
    check_field_limits,
    normalise_text,
)
from reflections.importers.episodic import parse_episodic
from reflections.importers.events import (
    LogFormat,
    LogKind,
    detect_log_kind,
    parse_retrieval_lines,
    parse_task_lines,
)
from reflections.importers.frontmatter import parse_frontmatter
from reflections.importers.heuristic import parse_heuristic_file
from reflections.importers.protocol import parse_protocol

# A parser takes (text, *, source_path, now) and returns one reflection or, for line-based
# formats, an iterable of reflections and per-line rejections. It raises ParseError.
Parser = Callable[..., ParsedReflection | Iterable[ParsedReflection | Rejection]]

FORMAT_PARSERS: dict[str, Parser] = {
    FORMAT_PROTOCOL: parse_protocol,
    FORMAT_FRONTMATTER: parse_frontmatter,
    FORMAT_EPISODIC: parse_episodic,
    FORMAT_HEURISTIC: parse_heuristic_file,
}
# A heuristic file holds many lessons; every other format holds one.
FORMAT_MAX_BYTES: dict[str, int] = {FORMAT_HEURISTIC: MAX_HEURISTIC_FILE_BYTES}

LOG_FORMATS: dict[str, LogFormat] = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}
LOG_PARSERS: dict[LogKind, Callable[..., Iterator[ParsedRetrieval | ParsedTask | Rejection]]] = {
    "retrieval": parse_retrieval_lines,
    "task": parse_task_lines,
}


def max_bytes(fmt: str) -> int:
    return FORMAT_MAX_BYTES.get(fmt, MAX_REFLECTION_FILE_BYTES)


def parse_text(
    text: str, *, fmt: str, source_path: str, now: datetime
) -> list[ParsedReflection | Rejection]:
    """Parse normalised text; a ParseError becomes a Rejection naming the path and line."""
    try:
        result = FORMAT_PARSERS[fmt](text, source_path=source_path, now=now)
        items = [result] if isinstance(result, ParsedReflection) else list(result)
    except ParseError as exc:
        return [Rejection(source_path, exc.line, exc.reason)]
    if not items:
        # A file that yields nothing (a heuristic file of blank lines) is reported, never
        # skipped without a word.
        return [Rejection(source_path, None, "the file holds no reflection")]
    for index, item in enumerate(items):
        if isinstance(item, ParsedReflection):
            try:
                check_field_limits(item)
            except ParseError as exc:
                items[index] = Rejection(item.source_path, exc.line, exc.reason)
    return items


def parse_bytes(
    raw: bytes, *, fmt: str, source_path: str, now: datetime
) -> list[ParsedReflection | Rejection]:
    """Decode (UTF-8, BOM and CRLF dropped) and parse the bytes of one file."""
    try:
        text = normalise_text(raw)
    except ParseError as exc:
        return [Rejection(source_path, exc.line, exc.reason)]
    return parse_text(text, fmt=fmt, source_path=source_path, now=now)


def parse_log_file(
    path: Path, *, now: datetime, kind: LogKind | None = None
) -> tuple[LogKind | None, Iterator[ParsedRetrieval | ParsedTask | Rejection]]:
    """Open a retrieval or task log, tell which it is from its first record, stream it.

    The file is read lazily and closed when the iterator is exhausted. Undecodable bytes are
    replaced and the lines holding them rejected, so one bad byte does not stop a big import.
    """
    fmt = LOG_FORMATS.get(path.suffix.lower())
    if fmt is None:
        reason = f"unknown log file type {path.suffix!r}; expected .jsonl or .csv"
        return None, iter([Rejection(str(path), None, reason)])
    handle = path.open(encoding="utf-8-sig", errors="replace", newline="")
    peeked: list[str] = []
    for line in handle:
        peeked.append(line)
        if line.strip():
            break
    if kind is None and peeked:
        kind = _detect(peeked[-1], fmt)
    if kind is None:
        handle.close()
        reason = (
            "cannot tell the log kind from its first record: a retrieval log needs "
            "reflection and retrieved_at, a task log needs finished_at and outcome"
        )
        return None, iter([Rejection(str(path), len(peeked) or None, reason)])

    def records() -> Iterator[ParsedRetrieval | ParsedTask | Rejection]:
        with handle:
            lines = chain(peeked, handle)
            yield from LOG_PARSERS[kind](lines, path=str(path), fmt=fmt, now=now)

    return kind, records()


def _detect(first_line: str, fmt: LogFormat) -> LogKind | None:
    if fmt == "csv":
        return detect_log_kind(next(csv.reader([first_line]), []))
    try:
        record = json.loads(first_line)
    except (ValueError, RecursionError):
        return None
    return detect_log_kind(record) if isinstance(record, dict) else None
