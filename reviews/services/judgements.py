"""Machine pre-tags: an automatic judge's suggested verdicts, imported from a file (or handed
over by the ingest API) as records. All or nothing per import; importing the same records
again changes nothing."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from reflections.importers.base import ParseError
from reflections.importers.decoding import check_decoded
from reflections.models import Reflection
from reflections.services.batches import quote_value
from reviews.models import Judgement, Verdict

FIELDS = ("reflection", "verdict", "duplicate_of", "confidence", "judge")
MAX_JUDGE_CHARS = 64


class JudgementError(ValueError):
    """Records refused; the message names the source, the line and the field."""


@dataclass(frozen=True)
class ImportCounts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0

    def __str__(self) -> str:
        return f"{self.created} new, {self.updated} changed, {self.unchanged} unchanged"


def _reflection(reference, where: str, field: str) -> Reflection:
    text = str(reference if reference is not None else "").strip()
    if not text:
        raise JudgementError(f"{where}: {field}: missing (a reflection id or source path)")
    found = None
    if text.isdigit():
        found = Reflection.objects.filter(pk=int(text)).first()
    if found is None:
        found = Reflection.objects.filter(source_path=text).first()
    if found is None:
        raise JudgementError(f"{where}: {field}: no reflection {quote_value(text)}")
    return found


def _confidence(value, where: str) -> float:
    if value is None or str(value).strip() == "":
        raise JudgementError(f"{where}: confidence: missing (a number from 0 to 1)")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise JudgementError(
            f"{where}: confidence: {quote_value(str(value))} is not a number"
        ) from None
    if math.isnan(number) or not 0 <= number <= 1:
        raise JudgementError(f"{where}: confidence: {number:g} is not between 0 and 1")
    return number


def _clean(record: Mapping, where: str) -> dict:
    unknown = sorted(set(record) - set(FIELDS) - {"_line"})
    if unknown:
        raise JudgementError(f"{where}: {unknown[0]}: unknown field (expected {', '.join(FIELDS)})")
    try:  # no NUL, no lone surrogate: text the database can hold and a lookup can be run on
        check_decoded({field: record[field] for field in FIELDS if field in record}, field="")
    except ParseError as exc:
        raise JudgementError(f"{where}: {exc.reason}") from None
    judge = str(record.get("judge") or "").strip()
    if not judge:
        raise JudgementError(f"{where}: judge: missing (the judge's name)")
    if len(judge) > MAX_JUDGE_CHARS:
        raise JudgementError(f"{where}: judge: longer than {MAX_JUDGE_CHARS} characters")
    verdict = str(record.get("verdict") or "").strip()
    if verdict not in Verdict.values:
        raise JudgementError(
            f"{where}: verdict: {quote_value(verdict)} is not one of {', '.join(Verdict.values)}"
        )
    reflection = _reflection(record.get("reflection"), where, "reflection")
    original = None
    if str(record.get("duplicate_of") or "").strip():
        if verdict != Verdict.DUPLICATE:
            raise JudgementError(f"{where}: duplicate_of: given for a {verdict} verdict")
        original = _reflection(record["duplicate_of"], where, "duplicate_of")
        if original.pk == reflection.pk:
            raise JudgementError(f"{where}: duplicate_of: a reflection cannot duplicate itself")
        if original.department_id != reflection.department_id:
            raise JudgementError(f"{where}: duplicate_of: not in the reflection's department")
    return {
        "judge": judge,
        "reflection": reflection,
        "verdict": verdict,
        "duplicate_of": original,
        "confidence": _confidence(record.get("confidence"), where),
    }


@transaction.atomic
def import_judgements(records: Iterable[Mapping], *, source: str) -> ImportCounts:
    """Store a judge's suggestions. Each record has `reflection` (id or source path),
    `verdict`, optional `duplicate_of`, `confidence` 0 to 1 and `judge`; `_line`, when given,
    is the line an error names (else the record's position). Any bad record refuses all."""
    cleaned, seen = [], {}
    for n, record in enumerate(records, start=1):
        where = f"{source}, line {record.get('_line', n)}"
        if not isinstance(record, Mapping):
            raise JudgementError(f"{where}: not a record of fields")
        row = _clean(record, where)
        key = (row["judge"], row["reflection"].pk)
        if key in seen:
            raise JudgementError(
                f"{where}: reflection: judged by {row['judge']} already on line {seen[key]}"
            )
        seen[key] = record.get("_line", n)
        cleaned.append(row)
    existing = {
        (j.judge, j.reflection_id): j
        for j in Judgement.objects.select_for_update().filter(
            judge__in={r["judge"] for r in cleaned},
            reflection_id__in=[r["reflection"].pk for r in cleaned],
        )
    }
    now, created, updated, unchanged = timezone.now(), 0, 0, 0
    for row in cleaned:
        current = existing.get((row["judge"], row["reflection"].pk))
        wanted = (row["verdict"], getattr(row["duplicate_of"], "pk", None), row["confidence"])
        if current is None:
            Judgement.objects.create(**row, source=source[:255], imported_at=now)
            created += 1
        elif (current.verdict, current.duplicate_of_id, current.confidence) == wanted:
            unchanged += 1
        else:
            current.verdict, current.duplicate_of, current.confidence = (
                row["verdict"],
                row["duplicate_of"],
                row["confidence"],
            )
            current.source, current.imported_at = source[:255], now
            current.save()
            updated += 1
    return ImportCounts(created=created, updated=updated, unchanged=unchanged)


def read_records(path: Path) -> Iterator[dict]:
    """A CSV (with a header) or JSONL file's records, each with the `_line` it started on."""
    name = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise JudgementError(f"{name}: not UTF-8 text (byte {error.start})") from None
    if path.suffix.lower() in {".jsonl", ".ndjson", ".json"}:
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise JudgementError(f"{name}, line {n}: not JSON ({error.msg})") from None
            if not isinstance(record, dict):
                raise JudgementError(f"{name}, line {n}: not a JSON object")
            yield {**record, "_line": n}
        return
    reader = csv.DictReader(io.StringIO(text))
    header = reader.fieldnames or []
    missing = [f for f in ("reflection", "verdict", "confidence", "judge") if f not in header]
    if missing:
        raise JudgementError(f"{name}, line 1: {missing[0]}: missing column")
    for record in reader:
        if None in record:
            raise JudgementError(f"{name}, line {reader.line_num}: more cells than columns")
        yield {**{k: v for k, v in record.items() if v not in (None, "")}, "_line": reader.line_num}
