"""The shapes every importer produces: parsed rows, rejections, and the text rules they share.

Parsers are pure: text (and a clock) in, dataclasses out. Nothing here touches the database."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

FORMAT_PROTOCOL = "protocol_md"
FORMAT_FRONTMATTER = "frontmatter_md"
FORMAT_EPISODIC = "episodic_json"
FORMAT_HEURISTIC = "heuristic_jsonl"
FORMAT_REFLEXION_RUN = "reflexion_run"  # reflections.importers.reflexion_runs
REFLECTION_FORMATS = (FORMAT_PROTOCOL, FORMAT_FRONTMATTER, FORMAT_EPISODIC, FORMAT_HEURISTIC)

KINDS = ("failure", "partial", "success", "decision")
OUTCOMES = ("success", "partial", "failure")

# A reflection is a short lesson; anything this large is not one (and would bloat every prompt).
MAX_REFLECTION_FILE_BYTES = 256 * 1024
# A heuristic JSONL file holds many lessons, one per line.
MAX_HEURISTIC_FILE_BYTES = 20 * 1024 * 1024
MAX_FIELD_CHARS = 20_000


class ParseError(Exception):
    """A whole file (or one line of a line-based file) cannot be imported.

    `reason` is written for a person: it names the field and what to do about it.
    """

    def __init__(self, reason: str, *, line: int | None = None, field: str | None = None):
        self.reason = f"{field}: {reason}" if field else reason
        self.line = line
        self.field = field
        super().__init__(self.reason)


@dataclass(frozen=True)
class Rejection:
    path: str
    line: int | None
    reason: str

    def as_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "reason": self.reason}


@dataclass(frozen=True)
class Notice:
    """Something an import accepted but a person should look at: an unknown section kept as
    it is, a block the protocol does not define. The file is imported; the notice says where."""

    path: str
    line: int | None
    message: str

    def as_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "message": self.message}


@dataclass
class ParsedReflection:
    source_path: str  # relative to the workspace root; heuristics: "<file>#<scenario_id>"
    format: str
    original_text: str  # the normalised text of the file (or the one JSONL line)
    content_hash: str
    kind: str  # failure | partial | success | decision
    outcome: str | None  # success | partial | failure; None for decisions
    created_at: datetime  # timezone-aware, UTC
    title: str
    sections: list[dict] = field(default_factory=list)  # [{"heading": str, "body": str}] in order
    agent: str = ""
    department: str = ""
    task_type: str = ""
    task_id: str = ""
    external_id: str = ""  # a heuristic's scenario_id, an episodic loop id + iteration
    tags: list[str] = field(default_factory=list)
    skills: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)  # tools / APIs the text names
    confidence: float | None = None
    model_used: str = ""
    salience: float | None = None  # only when the source states it
    # What the source file itself says about its state (front matter written back by a review).
    archived: bool = False
    promoted: bool = False
    deprecated_reason: str = ""
    # What the security scanner found in original_text (reflections.scanning.Finding).
    findings: list = field(default_factory=list)
    # What the parser accepted with a warning (Notice): reported with the import summary.
    warnings: list = field(default_factory=list)

    @property
    def body(self) -> str:
        return join_sections(self.sections)


def join_sections(sections: list[dict]) -> str:
    """The body text search reads: each section's heading, then its text, blank-line apart."""
    return "\n\n".join(f"{s['heading']}\n{s['body']}" for s in sections)


@dataclass
class ParsedRetrieval:
    line: int
    reflection_ref: str  # source path, content hash, or scenario id
    retrieved_at: datetime
    task_id: str
    agent: str
    department: str = ""
    rank: int | None = None
    score: float | None = None


@dataclass
class ParsedTask:
    line: int
    task_id: str
    agent: str
    department: str
    task_type: str
    finished_at: datetime
    outcome: str
    failure_mode: str = ""
    confidence_at_start: float | None = None
    reflections_injected: list[str] = field(default_factory=list)
    tools_used: list[str] = field(default_factory=list)
    # What the trajectory pool adds: the run's lesson note and the model that ran it.
    lessons: str = ""
    model_used: str = ""


def normalise_text(raw: bytes) -> str:
    """Decode a file the way every importer does: UTF-8, BOM dropped, CRLF/CR to LF.

    Raises ParseError naming the line of the first undecodable byte, or flagging binary data.
    """
    if not raw.strip():
        raise ParseError("the file is empty")
    if b"\x00" in raw[:8192]:
        raise ParseError("this is a binary file, not UTF-8 text")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ParseError(
            f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
            "re-save the file as UTF-8",
            line=line,
        ) from None
    if not text.strip():  # a byte-order mark and nothing else
        raise ParseError("the file is empty")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def content_hash(text: str) -> str:
    """SHA-256 of the normalised text: a CRLF or BOM re-save is the same content."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- Field rules shared by the reflection parsers -------------------------------------------

# Clocks drift and agents run in every timezone; a day of slack keeps honest data importable.
FUTURE_TOLERANCE = timedelta(hours=24)


# The longest value each field may hold: what its database column stores.
FIELD_LIMITS = {
    "source_path": 512,
    "agent": 128,
    "department": 64,
    "task_type": 128,
    "task_id": 255,
    "model_used": 128,
    "external_id": 255,
}
# Columns an import cuts rather than refuses, and what a quarantine's masked value must fit.
COLUMN_LIMITS = {**FIELD_LIMITS, "title": 512, "deprecated_reason": 255}
MAX_LIST_ITEMS = 100


def check_field_limits(parsed: ParsedReflection) -> None:
    """Every field fits where it is stored; the reason names the field and its length."""
    for name, limit in FIELD_LIMITS.items():
        value = getattr(parsed, name)
        if len(value) > limit:
            raise ParseError(f"is {len(value):,} characters; the limit is {limit}", field=name)
    for name in ("tags", "skills", "tools"):
        if len(getattr(parsed, name)) > MAX_LIST_ITEMS:
            raise ParseError(f"holds more than {MAX_LIST_ITEMS} items", field=name)


def show(value: object, limit: int = 60) -> str:
    """A short quoted rendering of a bad value for an error message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def as_utc(value: datetime) -> datetime:
    """Naive datetimes are taken as UTC; aware ones are converted to it."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value if value.tzinfo is UTC else value.astimezone(UTC)


def parse_when(value: object, *, field: str, now: datetime, line: int | None = None) -> datetime:
    """A date, datetime or ISO 8601 string as an aware UTC datetime; rejects the future."""
    if isinstance(value, datetime):
        when = as_utc(value)
    elif isinstance(value, date):
        when = datetime(value.year, value.month, value.day, tzinfo=UTC)
    elif isinstance(value, str) and value.strip():
        try:
            when = as_utc(datetime.fromisoformat(value.strip()))
        except ValueError:
            raise ParseError(
                f"{show(value)} is not an ISO 8601 date or timestamp (e.g. 2026-03-01T09:30:00Z)",
                line=line,
                field=field,
            ) from None
    else:
        raise ParseError(
            f"expected an ISO 8601 date or timestamp, got {show(value)}", line=line, field=field
        )
    check_not_future(when, now=now, field=field, line=line)
    return when


# No agent wrote a reflection before this: an earlier date is a typo or a forged record, and
# would sit at the far end of every chart.
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)


def check_not_future(when: datetime, *, now: datetime, field: str, line: int | None = None) -> None:
    if when < EARLIEST:
        raise ParseError(
            f"date {when.date().isoformat()} is before {EARLIEST.year}", line=line, field=field
        )
    if when > as_utc(now) + FUTURE_TOLERANCE:
        raise ParseError(
            f"created date {when.date().isoformat()} is in the future", line=line, field=field
        )


def clean_str(value: object, *, field: str, line: int | None = None, required: bool = False) -> str:
    """A stripped string field; absent (None) is "" unless required."""
    if value is None:
        if required:
            raise ParseError("is missing", line=line, field=field)
        return ""
    if not isinstance(value, str):
        raise ParseError(f"expected text, got {show(value)}", line=line, field=field)
    text = value.strip()
    if required and not text:
        raise ParseError("is empty", line=line, field=field)
    if len(text) > MAX_FIELD_CHARS:
        raise ParseError(
            f"is {len(text):,} characters; the limit is {MAX_FIELD_CHARS:,}", line=line, field=field
        )
    return text


def clean_str_list(
    value: object, *, field: str, line: int | None = None, max_item_chars: int = 200
) -> list[str]:
    """A list of short strings, stripped, blanks dropped, duplicates dropped (order kept).

    Bare numbers are accepted as strings because YAML turns `tags: [2026]` into an int.
    """
    if value is None:
        return []
    if not isinstance(value, list):
        raise ParseError(f"expected a list, got {show(value)}", line=line, field=field)
    out: list[str] = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, str | int | float):
            raise ParseError(
                f"expected a list of text items, found {show(item)}", line=line, field=field
            )
        text = str(item).strip()
        if len(text) > max_item_chars:
            raise ParseError(
                f"item {show(text)} is longer than {max_item_chars:,} characters",
                line=line,
                field=field,
            )
        if text and text not in out:
            out.append(text)
    return out


def clean_unit(value: object, *, field: str, line: int | None = None) -> float | None:
    """An optional number between 0 and 1 (confidence, salience)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ParseError(
            f"expected a number between 0 and 1, got {show(value)}", line=line, field=field
        )
    if not 0 <= value <= 1:
        raise ParseError(f"{value} is outside the range 0 to 1", line=line, field=field)
    return float(value)


def clean_bool(value: object, *, field: str, line: int | None = None) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ParseError(f"expected true or false, got {show(value)}", line=line, field=field)
    return value


def check_outcome(
    value: object,
    *,
    field: str = "outcome",
    line: int | None = None,
    allowed: tuple[str, ...] = OUTCOMES,
) -> str:
    """One of the allowed outcomes (case-insensitive); the reason lists them."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise ParseError(
            f"is missing; expected one of {', '.join(allowed)}", line=line, field=field
        )
    outcome = value.strip().lower() if isinstance(value, str) else value
    if outcome not in allowed:
        raise ParseError(
            f"unknown outcome {show(value)}; expected one of {', '.join(allowed)}",
            line=line,
            field=field,
        )
    return outcome


_ABBREVIATIONS = frozenset({"etc", "vs", "approx", "incl", "mr", "mrs", "ms", "dr", "no"})


def first_sentence(text: str, limit: int = 100) -> str:
    """The first sentence of `text`, cut at a word boundary to at most `limit` characters."""
    text = " ".join(text.split())
    for i, char in enumerate(text):
        # A full stop followed by a space ends a sentence; "v1.2", "e.g." and "etc." do not.
        if char in ".!?" and (i + 1 == len(text) or text[i + 1] == " "):
            word = text[:i].rsplit(" ", 1)[-1]
            if char == "." and ("." in word or word.lower() in _ABBREVIATIONS):
                continue
            text = text[: i + 1]
            break
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0] or text[: limit - 1]
    return cut.rstrip(",;: ") + "…"


@dataclass(frozen=True)
class RawSection:
    heading: str
    line: int  # 1-based line of the "## " heading in the file
    body: str


def lines_and_fences(lines: list[str]) -> Iterator[tuple[int, str, bool]]:
    """(offset, line, outside) for every line: `outside` is False inside a ``` or ~~~ code
    fence and on the fence lines themselves, where no heading counts."""
    fence = ""
    for offset, line in enumerate(lines):
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence):
                fence = ""
            yield offset, line, False
        elif stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            yield offset, line, False
        else:
            yield offset, line, True


def split_sections(
    lines: list[str], *, first_line: int
) -> tuple[str, int | None, list[RawSection]]:
    """Split Markdown at its "## " headings, ignoring headings inside fenced code blocks.

    `first_line` is the file line number of `lines[0]`. Returns the text before the first
    heading, the line where that text starts (None if blank) and the sections in order.
    """
    preamble: list[str] = []
    preamble_line: int | None = None
    sections: list[RawSection] = []
    heading: tuple[str, int] | None = None
    body: list[str] = []
    for offset, line, outside in lines_and_fences(lines):
        if outside and line.startswith("## "):
            if heading:
                sections.append(RawSection(heading[0], heading[1], _block(body)))
            heading = (line[3:].strip().rstrip("#").strip(), first_line + offset)
            body = []
            continue
        if heading:
            body.append(line)
        else:
            if preamble_line is None and line.strip():
                preamble_line = first_line + offset
            preamble.append(line)
    if heading:
        sections.append(RawSection(heading[0], heading[1], _block(body)))
    return _block(preamble), preamble_line, sections


def _block(lines: list[str]) -> str:
    return "\n".join(lines).strip("\n").rstrip()
