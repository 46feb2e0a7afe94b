"""The scanner corpora (tests/fixtures/scan_corpus/): records, the reflection file each becomes,
and what the import pipeline finds and shows of it.

A record plants unsafe values in a reflection's body or in one field (title, tags, task type,
agent, department, path, a nested JSON field); `planted` lists every substring that must never
be shown. `reflection_file` writes the record as the file an agent would write, in the format
that has that field; `measure` runs the importer's parser and scanner on it, as an import does.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from reflections.importers.base import ParsedReflection
from reflections.importers.pool import values_of
from reflections.importers.registry import parse_text
from reflections.scanning.fields import masked_source, masked_values, scan_reflection

CORPORA = Path(__file__).parent / "fixtures" / "scan_corpus"
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
UNSAFE_CATEGORIES = ("secret", "personal", "infrastructure", "injection")
FRONT_FIELDS = ("tags", "task_type", "agent", "department")


def load(corpus: str, kind: str) -> list[dict]:
    """The records of `corpus` ("dev-a", …), `kind` "unsafe" or "clean"."""
    with gzip.open(CORPORA / corpus / f"{kind}.jsonl.gz", "rt", encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


def _slug(record: dict) -> str:
    return re.sub(r"[^a-z0-9-]+", "-", record["id"].lower()).strip("-")


def path_components(value: str) -> list[str]:
    """A Windows, UNC or POSIX path as the directories and file name of a workspace path."""
    parts = [p for p in re.split(r"[\\/]+", value) if p and not re.fullmatch(r"[A-Za-z]:", p)]
    return parts or ["unnamed"]


def reflection_file(record: dict) -> tuple[str, str, str]:
    """(workspace-relative path, file text, format) of the reflection the record describes."""
    slug, body, where = _slug(record), record["text"], record["field"]
    value = record["value"]
    if where == "title":
        text = (
            f"# Reflection: 2026-03-01 - corpus-agent - {value}\n\n"
            f"## What happened?\n{body}\n\n## What went wrong?\nThe first attempt failed.\n\n"
            "## Why did it go wrong?\nWrong strategy.\n\n"
            "## What should I do differently?\nCheck the inputs first.\n\n"
            "## Tactical rule candidate\nValidate inputs before the first call.\n"
        )
        return f"memory/reflections/corpus-agent/2026-03-01-{slug}.md", text, "protocol_md"
    if where == "json_field":
        document = {
            "iteration": 0,
            "timestamp": "2026-05-20T10:15:00Z",
            "agent": "corpus-agent",
            "department": "research",
            "task_type": "debugging",
            "self_reflection": {"reflection_text": body, "confidence": 0.6},
            "evaluator_output": {"passed": False, "context": json.loads(value)},
        }
        text = json.dumps(document, ensure_ascii=False, indent=2)
        return f".aiwg/ralph/reflections/{slug}/iteration-0.json", text, "episodic_json"
    front = {
        "task_type": "debugging",
        "outcome": "failure",
        "department": "research",
        "agent": "corpus-agent",
        "tags": ["corpus"],
        "created_at": "2026-05-14",
    }
    if where == "tags":
        front["tags"] = [t.strip() for t in value.split(",") if t.strip()]
    elif where in FRONT_FIELDS:
        front[where] = value
    # JSON strings are YAML double-quoted scalars; \u escapes keep any character loadable.
    meta = "\n".join(f"{key}: {json.dumps(v)}" for key, v in front.items())
    text = (
        f"---\n{meta}\n---\n## What happened?\n{body}\n\n"
        "## What rule should I remember?\nCheck the inputs before the first attempt.\n"
    )
    if where == "path":
        # Where the path's directories and name become the workspace path's own.
        return f"{'/'.join(path_components(value))}/14-{slug}.md", text, "frontmatter_md"
    return f"memory/reflexions/2026-05/14-{slug}.md", text, "frontmatter_md"


@dataclass
class Outcome:
    """What the pipeline made of one record."""

    record: dict
    parsed: bool = True
    categories: set[str] = field(default_factory=set)
    rules: set[str] = field(default_factory=set)
    shown: str = ""  # everything a page, export or message could show of it

    @property
    def detected(self) -> bool:
        return bool(self.rules)

    @property
    def leaked(self) -> list[str]:
        return [p for p in self.record["planted"] if p in self.shown]


def measure(record: dict) -> Outcome:
    """Parse the record's file and scan it as an import does; the path record's value is
    scanned as the file's path."""
    path, text, fmt = reflection_file(record)
    items = parse_text(text, fmt=fmt, source_path=path, now=NOW)
    parsed = next((i for i in items if isinstance(i, ParsedReflection)), None)
    if parsed is None:
        return Outcome(record, parsed=False, shown="")
    values = values_of(parsed)
    if record["field"] == "path":
        values["source_path"] = record["value"]
    findings = scan_reflection(parsed.original_text, values)
    outcome = Outcome(
        record,
        categories={f.category for f in findings},
        rules={f.rule for f in findings},
    )
    if findings:
        masked = masked_values(parsed.original_text, findings, values)
        outcome.shown = "\n".join(
            [masked_source(parsed.original_text, findings), json.dumps(masked, ensure_ascii=False)]
        )
    else:
        outcome.shown = parsed.original_text + "\n" + json.dumps(values, ensure_ascii=False)
    return outcome


def redaction_problem(record: dict) -> str | None:
    """Why the masked text of a flagged record could not be submitted as its redaction as it
    stands (it does not parse in its format, or still looks unsafe); None when it could."""
    from reflections.services.quarantine import unsafe_in

    path, text, fmt = reflection_file(record)
    parsed = next(
        (
            i
            for i in parse_text(text, fmt=fmt, source_path=path, now=NOW)
            if isinstance(i, ParsedReflection)
        ),
        None,
    )
    if parsed is None:
        return None
    findings = scan_reflection(parsed.original_text, values_of(parsed))
    if not findings or any(f.field in ("source_path", "department") for f in findings):
        return None  # nothing to redact, or rejected at import
    masked = masked_source(parsed.original_text, findings)
    again = parse_text(masked, fmt=fmt, source_path=path, now=NOW)
    edit = next((i for i in again if isinstance(i, ParsedReflection)), None)
    if edit is None:
        return f"does not parse: {again[0].reason}"
    values = values_of(edit) | {"department": "research"}
    remaining = [f for f in unsafe_in(masked, values) if f.field != "source_path"]
    return f"still unsafe: {sorted({f.rule for f in remaining})}" if remaining else None


@dataclass
class Report:
    """Per category: records, detected, fully hidden; clean records flagged."""

    total: Counter = field(default_factory=Counter)
    detected: Counter = field(default_factory=Counter)
    hidden: Counter = field(default_factory=Counter)
    clean: int = 0
    false_positives: list[Outcome] = field(default_factory=list)
    misses: list[Outcome] = field(default_factory=list)
    rule_hits: Counter = field(default_factory=Counter)

    def rate(self, category: str) -> float:
        return self.detected[category] / self.total[category]


def evaluate(corpus: str) -> Report:
    report = Report()
    for record in load(corpus, "unsafe"):
        outcome = measure(record)
        category = record["category"]
        report.total[category] += 1
        report.detected[category] += outcome.detected
        report.hidden[category] += outcome.detected and not outcome.leaked
        report.rule_hits.update(outcome.rules)
        if not outcome.detected or outcome.leaked:
            report.misses.append(outcome)
    for record in load(corpus, "clean"):
        outcome = measure(record)
        report.clean += 1
        if outcome.detected or not outcome.parsed:
            report.false_positives.append(outcome)
    return report
