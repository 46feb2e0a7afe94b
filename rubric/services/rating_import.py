"""Importing ratings given outside the dashboard from one CSV file (all or nothing)."""

from __future__ import annotations

import csv
import io
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from reflections.importers.base import ParseError, normalise_text, show
from reflections.models import Reflection
from reflections.services.batches import ImportSummary
from rubric.models import CRITERIA, LEVELS, Rating
from rubric.services.rubric import current_rubric

IMPORT_COLUMNS = ("rater", "reflection", "criterion", "level", "rated_at")
# Clocks drift; a day of slack keeps honest data importable (as for the other importers).
FUTURE_TOLERANCE = timedelta(hours=24)
LOOKUP_CHUNK = 500
# The export puts a quote before a cell starting with one of these (spreadsheet formulas).
FORMULA_STARTS = ("=", "+", "-", "@")


# --------------------------------------------------------------------------- import


@dataclass(frozen=True)
class ParsedRating:
    line: int
    rater_id: int
    reflection_id: int
    criterion: str
    level: float
    rated_at: datetime

    @property
    def key(self) -> tuple:
        return (self.rater_id, self.reflection_id, self.criterion, self.rated_at)


def _cell(record: dict, field: str) -> str:
    value = str(record.get(field) or "").strip()
    if value[:1] == "'" and value[1:2] in FORMULA_STARTS:
        value = value[1:]  # the export disarmed a would-be spreadsheet formula; undo it
    return value


def _chunks(values: list) -> Iterable[list]:
    size = LOOKUP_CHUNK
    for start in range(0, len(values), size):
        yield values[start : start + size]


class _References:
    """Usernames and reflection references (source path or content hash) the file names."""

    def __init__(self, records: list[tuple[int, dict]]):
        names = sorted({_cell(r, "rater") for _, r in records} - {""})
        refs = sorted({_cell(r, "reflection") for _, r in records} - {""})
        users = get_user_model().objects
        self.users: dict[str, int] = {}
        self.by_path: dict[str, int] = {}
        self.by_hash: dict[str, set[int]] = defaultdict(set)
        # A few hundred at a time: databases limit the parameters of one query.
        for chunk in _chunks(names):
            self.users.update(users.filter(username__in=chunk).values_list("username", "id"))
        for chunk in _chunks(refs):
            found = Reflection.objects.filter(
                Q(source_path__in=chunk) | Q(content_hash__in=chunk)
            ).values_list("id", "source_path", "content_hash")
            for pk, path, digest in found:
                self.by_path[path] = pk
                self.by_hash[digest].add(pk)

    def reflection(self, ref: str) -> int:
        if ref in self.by_path:
            return self.by_path[ref]
        matches = sorted(self.by_hash.get(ref, ()))
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise ParseError(
                f"content hash {show(ref)} matches {len(matches)} reflections; "
                "name it by source path instead",
                field="reflection",
            )
        raise ParseError(
            f"unknown reflection {show(ref)} (no source path or content hash matches)",
            field="reflection",
        )


def _parse_record(record: dict, refs: _References, now: datetime, line: int) -> ParsedRating:
    def text(field: str) -> str:
        value = _cell(record, field)
        if not value:
            raise ParseError("is empty", field=field)
        return value

    username = text("rater")
    if username not in refs.users:
        raise ParseError(f"no user named {show(username)}", field="rater")
    reflection_id = refs.reflection(text("reflection"))
    criterion = text("criterion").lower()
    if criterion not in CRITERIA:
        raise ParseError(
            f"unknown criterion {show(record.get('criterion'))}; expected one of "
            + ", ".join(CRITERIA),
            field="criterion",
        )
    raw_level = text("level")
    try:
        level = float(raw_level)
    except ValueError:
        level = math.nan
    if level not in LEVELS:
        raise ParseError(
            f"{show(raw_level)} is not a level; expected one of "
            + ", ".join(f"{v:g}" for v in LEVELS),
            field="level",
        )
    raw_when = text("rated_at")
    try:
        rated_at = datetime.fromisoformat(raw_when)
    except ValueError:
        raise ParseError(
            f"{show(raw_when)} is not an ISO 8601 timestamp (e.g. 2026-03-01T09:30:00Z)",
            field="rated_at",
        ) from None
    if rated_at.tzinfo is None:
        raise ParseError(
            f"{show(raw_when)} has no time zone; add Z or an offset such as +02:00",
            field="rated_at",
        )
    if rated_at > now + FUTURE_TOLERANCE:
        raise ParseError(f"{raw_when} is in the future", field="rated_at")
    return ParsedRating(line, refs.users[username], reflection_id, criterion, level, rated_at)


def _read_records(path: Path, summary: ImportSummary) -> list[tuple[int, dict]]:
    label = str(path)
    try:
        text = normalise_text(path.read_bytes())
    except ParseError as exc:
        summary.reject(label, exc.line, exc.reason)
        return []
    reader = csv.reader(io.StringIO(text))
    records: list[tuple[int, dict]] = []
    header: list[str] | None = None
    try:
        start = 1
        for row in reader:
            line, start = start, reader.line_num + 1
            if not any(cell.strip() for cell in row):
                continue  # blank lines are not ratings
            if header is None:
                header = [cell.strip().lower() for cell in row]
                missing = [c for c in IMPORT_COLUMNS if c not in header]
                if missing:
                    summary.reject(
                        label,
                        line,
                        f"header: missing column{'s' if len(missing) > 1 else ''} "
                        f"{', '.join(missing)}; expected {', '.join(IMPORT_COLUMNS)}",
                    )
                    return []
                continue
            records.append((line, dict(zip(header, row, strict=False))))
    except csv.Error as exc:
        summary.reject(label, reader.line_num, f"unreadable CSV: {exc}")
    return records


def import_ratings(path: Path, *, now: datetime | None = None) -> ImportSummary:
    """Import ratings given outside a round from one CSV file, all or nothing.

    Columns: rater (username), reflection (source path or content hash), criterion, level,
    rated_at (ISO 8601 with a zone). Every bad line is reported with its field; if any line
    is bad nothing is written, because half a rater's scores would skew agreement. The
    reflection importers instead skip bad lines and keep the rest — ratings are stricter.

    Idempotent: a rating is (rater, reflection, criterion, rated_at); one already stored with
    the same level is counted unchanged, one with another level is refused (ratings are
    final). New ratings are recorded under the rubric version current at import time.
    """
    path = Path(path)
    label = str(path)
    now = now or timezone.now()
    summary = ImportSummary()
    records = _read_records(path, summary)
    refs = _References(records)
    parsed: list[ParsedRating] = []
    seen: dict[tuple, ParsedRating] = {}
    for line, record in records:
        try:
            rating = _parse_record(record, refs, now, line)
        except ParseError as exc:
            summary.reject(label, line, exc.reason)
            continue
        earlier = seen.get(rating.key)
        if earlier is not None:
            if earlier.level != rating.level:
                summary.reject(
                    label,
                    line,
                    f"level: {rating.level:g} contradicts line {earlier.line} "
                    f"({earlier.level:g}) for the same rater, reflection, criterion and time",
                )
            continue
        seen[rating.key] = rating
        parsed.append(rating)

    with transaction.atomic():
        rubric = current_rubric() if parsed else None
        stored = _stored_levels(parsed)
        new = []
        for rating in parsed:
            level = stored.get(rating.key)
            if level is None:
                new.append(rating)
            elif level == rating.level:
                summary.unchanged += 1
            else:
                summary.reject(
                    label,
                    rating.line,
                    f"level: already imported as {level:g}; ratings are final, "
                    "so a different level is not taken",
                )
        summary.rejected.sort(key=lambda r: r.line or 0)
        summary.withhold_unsafe()
        if summary.rejected:
            summary.unchanged = 0
            summary.details = {"written": False}
            return summary
        Rating.objects.bulk_create(
            Rating(
                rater_id=r.rater_id,
                reflection_id=r.reflection_id,
                criterion=r.criterion,
                level=r.level,
                rubric=rubric,
                rated_at=r.rated_at,
                source=Rating.Source.IMPORT,
            )
            for r in new
        )
        summary.created = len(new)
        summary.details = {"written": True, "rubric_version": rubric.version if rubric else None}
    return summary


def _stored_levels(parsed: list[ParsedRating]) -> dict[tuple, float]:
    """Levels already stored for the file's (rater, reflection, criterion, rated_at) keys,
    read a few hundred reflections at a time (query parameters are limited)."""
    wanted = {r.key for r in parsed}
    out = {}
    for chunk in _chunks(sorted({r.reflection_id for r in parsed})):
        rows = Rating.objects.filter(reflection_id__in=chunk).values_list(
            "rater_id", "reflection_id", "criterion", "rated_at", "level"
        )
        for rater_id, reflection_id, criterion, rated_at, level in rows:
            key = (rater_id, reflection_id, criterion, rated_at)
            if key in wanted:
                out[key] = level
    return out
