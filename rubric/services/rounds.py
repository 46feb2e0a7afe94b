"""Writes of rating rounds (DOMAIN §6): sampling and dealing a round, blind ratings, closing,
and importing ratings given elsewhere from CSV."""

from __future__ import annotations

import csv
import io
import math
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from reflections.access import RATER, user_roles
from reflections.importers.base import ParseError, normalise_text, show
from reflections.models import Reflection, State
from reflections.services.batches import ImportSummary
from rubric.eligibility import is_calibrated
from rubric.models import CRITERIA, LEVELS, Rating, RatingAssignment, RatingRound, RoundItem
from rubric.services.rubric import current_rubric

MAX_ROUND_SIZE = 1000
MAX_COMMENT_CHARS = 2000
IMPORT_COLUMNS = ("rater", "reflection", "criterion", "level", "rated_at")
# Clocks drift; a day of slack keeps honest data importable (as for the other importers).
FUTURE_TOLERANCE = timedelta(hours=24)
LOOKUP_CHUNK = 500
NO_VALUE = "none"  # how a stratum names a missing outcome (decisions) or task type
# The export puts a quote before a cell starting with one of these (spreadsheet formulas).
FORMULA_STARTS = ("=", "+", "-", "@")


class RatingError(Exception):
    """A round or a rating the rules refuse; the message is written for the person acting."""


# --------------------------------------------------------------------------- sampling


Stratum = tuple[str, str, str]  # department slug, outcome, task type


def stratum_label(stratum: Stratum) -> str:
    return "/".join(stratum)[:255]


def allocate(counts: dict[Stratum, int], size: int, rng: random.Random) -> dict[Stratum, int]:
    """How many items each stratum contributes to a sample of `size`.

    Proportional allocation, rounded by largest remainder (Hamilton): every stratum gets the
    whole part of size·Nₛ/N, and the seats left go to the largest fractional parts (ties in
    a seeded random order, so no department is favoured by its name). Then, while the size
    allows (size ≥ number of strata), a stratum left at 0 gets one item, taken from the
    stratum whose allocation most exceeds its exact share and still has more than one: small
    strata are seen at all, and the big ones barely move. Never more than a stratum holds.
    """
    total = sum(counts.values())
    if size >= total:
        return dict(counts)
    keys = sorted(counts)
    exact = {k: size * counts[k] / total for k in keys}
    quota = {k: math.floor(exact[k]) for k in keys}
    tie = {k: rng.random() for k in keys}
    left = size - sum(quota.values())
    for k in sorted(keys, key=lambda k: (-(exact[k] - quota[k]), tie[k]))[:left]:
        quota[k] += 1
    if size >= len(keys):
        for k in keys:
            if quota[k]:
                continue
            donors = [d for d in keys if quota[d] > 1]
            donor = max(donors, key=lambda d: (quota[d] - exact[d], -tie[d]))
            quota[donor] -= 1
            quota[k] = 1
    return quota


def sample_reflections(
    candidates: Sequence[tuple[int, Stratum]], size: int, rng: random.Random
) -> list[tuple[int, Stratum]]:
    """A stratified sample of (reflection id, stratum), in a seeded random order."""
    by_stratum: dict[Stratum, list[int]] = defaultdict(list)
    for pk, stratum in sorted(candidates):  # by id: the same data gives the same draw
        by_stratum[stratum].append(pk)
    quota = allocate({k: len(v) for k, v in by_stratum.items()}, size, rng)
    chosen = []
    for stratum in sorted(by_stratum):
        picked = rng.sample(by_stratum[stratum], quota[stratum])
        chosen.extend((pk, stratum) for pk in sorted(picked))
    # Raters meet the strata mixed, not one department after another.
    rng.shuffle(chosen)
    return chosen


def deal(n_items: int, rater_ids: Sequence[int], per_item: int, rng: random.Random) -> list:
    """For each item, `per_item` distinct raters: the least loaded so far, ties in a seeded
    random order. Loads stay within one of each other (the least loaded always go first)."""
    load = dict.fromkeys(sorted(rater_ids), 0)
    dealt = []
    for _ in range(n_items):
        order = sorted(load, key=lambda r: (load[r], rng.random()))
        picked = sorted(order[:per_item])
        for r in picked:
            load[r] += 1
        dealt.append(picked)
    return dealt


def _check_raters(raters: Iterable, per_item: int) -> list:
    unique = {r.pk: r for r in raters}
    people = [unique[pk] for pk in sorted(unique)]
    no_role = [p.get_username() for p in people if RATER not in user_roles(p)]
    if no_role:
        raise RatingError(
            f"Only raters can be given items; {', '.join(no_role)} "
            f"{'does' if len(no_role) == 1 else 'do'} not hold the rater role."
        )
    uncalibrated = [p.get_username() for p in people if not is_calibrated(p)]
    if uncalibrated:
        raise RatingError(
            f"Only calibrated raters may join a round; {', '.join(uncalibrated)} "
            f"{'has' if len(uncalibrated) == 1 else 'have'} not passed calibration "
            "(or it has lapsed). They can calibrate at /calibration/."
        )
    if len(people) < per_item:
        raise RatingError(
            f"Each item needs {per_item} distinct raters, but only {len(people)} "
            f"{'was' if len(people) == 1 else 'were'} chosen."
        )
    return people


@transaction.atomic
def create_round(
    *,
    name: str,
    size: int,
    raters: Iterable,
    seed: int,
    user=None,
    raters_per_item: int = 3,
    now: datetime | None = None,
) -> RatingRound:
    """Sample `size` non-quarantined reflections stratified by department, outcome and task
    type (see `allocate`), and give each to `raters_per_item` distinct calibrated raters.

    Reproducible: the same seed over the same reflections and raters gives the same items in
    the same order dealt to the same people.
    """
    name = (name or "").strip()
    if not name:
        raise RatingError("Name the round.")
    if raters_per_item < 1:
        raise RatingError("Each item needs at least one rater.")
    if not 1 <= size <= MAX_ROUND_SIZE:
        raise RatingError(f"A round samples between 1 and {MAX_ROUND_SIZE} reflections.")
    people = _check_raters(raters, raters_per_item)
    rubric = current_rubric()

    # Quarantined text is for admins only; it never goes into a round (DOMAIN §3.4).
    rows = Reflection.objects.exclude(state=State.QUARANTINED).values_list(
        "id", "department__slug", "outcome", "task_type"
    )
    candidates = [
        (pk, (dept, outcome or NO_VALUE, task_type or NO_VALUE))
        for pk, dept, outcome, task_type in rows
    ]
    if len(candidates) < size:
        raise RatingError(
            f"Only {len(candidates)} reflections can be sampled (quarantined ones never are); "
            f"ask for at most that many."
        )
    rng = random.Random(seed)
    chosen = sample_reflections(candidates, size, rng)
    dealt = deal(len(chosen), [p.pk for p in people], raters_per_item, rng)

    rating_round = RatingRound.objects.create(
        name=name[:128],
        rubric=rubric,
        size=len(chosen),
        raters_per_item=raters_per_item,
        seed=seed,
        created_at=now or timezone.now(),
        created_by=user,
    )
    rating_round.raters.set(people)
    items = RoundItem.objects.bulk_create(
        RoundItem(
            rating_round=rating_round,
            reflection_id=pk,
            position=position,
            stratum=stratum_label(stratum),
        )
        for position, (pk, stratum) in enumerate(chosen, start=1)
    )
    if any(item.pk is None for item in items):  # backends that do not return ids
        items = list(rating_round.items.order_by("position"))
    RatingAssignment.objects.bulk_create(
        RatingAssignment(item=item, rater_id=rater_id)
        for item, rater_ids in zip(items, dealt, strict=True)
        for rater_id in rater_ids
    )
    return rating_round


@transaction.atomic
def close_round(*, rating_round: RatingRound, user=None, now: datetime | None = None) -> None:
    """Close a round: no more ratings are taken; what was submitted stays."""
    locked = RatingRound.objects.select_for_update().get(pk=rating_round.pk)
    if locked.closed_at is not None:
        raise RatingError(f"{locked.name} is already closed.")
    locked.closed_at = now or timezone.now()
    locked.save(update_fields=["closed_at"])
    rating_round.closed_at = locked.closed_at


# --------------------------------------------------------------------------- rating


def mark_shown(assignment: RatingAssignment, *, now: datetime | None = None) -> None:
    """When the rater first saw the item (time on an item counts from here)."""
    if assignment.shown_at is None and assignment.submitted_at is None:
        assignment.shown_at = now or timezone.now()
        RatingAssignment.objects.filter(pk=assignment.pk, shown_at__isnull=True).update(
            shown_at=assignment.shown_at
        )


def _clean_levels(levels: dict) -> dict[str, float]:
    problems = []
    unknown = sorted(set(levels) - set(CRITERIA))
    if unknown:
        problems.append(f"unknown criteria {', '.join(map(str, unknown))}")
    clean = {}
    for criterion in CRITERIA:
        value = levels.get(criterion)
        if value is None or value == "":
            problems.append(f"{criterion}: pick a level")
            continue
        try:
            level = float(value)
        except (TypeError, ValueError):
            level = math.nan
        if level not in LEVELS:
            problems.append(
                f"{criterion}: {show(value)} is not a level; use one of "
                + ", ".join(f"{v:g}" for v in LEVELS)
            )
            continue
        clean[criterion] = level
    if problems:
        raise RatingError("Not recorded — " + "; ".join(problems) + ".")
    return clean


@transaction.atomic
def submit_rating(
    *,
    assignment: RatingAssignment,
    user,
    levels: dict,
    comment: str = "",
    now: datetime | None = None,
) -> RatingAssignment:
    """Record the rater's levels on all four criteria, once: ratings are final."""
    locked = (
        RatingAssignment.objects.select_for_update()
        .select_related("item__rating_round", "item__reflection")
        .get(pk=assignment.pk)
    )
    if locked.rater_id != user.pk:
        raise RatingError("This item is assigned to another rater; only they can rate it.")
    rating_round = locked.item.rating_round
    if not rating_round.is_open:
        raise RatingError(f"{rating_round.name} is closed; it takes no more ratings.")
    if locked.submitted_at is not None:
        raise RatingError(
            "You already rated this item: ratings are final and cannot be changed or repeated."
        )
    if not is_calibrated(user):
        raise RatingError("Your calibration has lapsed; calibrate again before rating.")
    clean = _clean_levels(levels)
    comment = (comment or "").strip()
    if len(comment) > MAX_COMMENT_CHARS:
        raise RatingError(
            f"Not recorded — the comment is {len(comment):,} characters; "
            f"the limit is {MAX_COMMENT_CHARS:,}."
        )
    now = now or timezone.now()
    Rating.objects.bulk_create(
        Rating(
            rater_id=user.pk,
            reflection_id=locked.item.reflection_id,
            criterion=criterion,
            level=level,
            rubric_id=rating_round.rubric_id,
            rated_at=now,
            source=Rating.Source.ROUND,
            assignment=locked,
        )
        for criterion, level in clean.items()
    )
    locked.comment = comment
    locked.submitted_at = now
    locked.shown_at = locked.shown_at or now
    locked.save(update_fields=["comment", "submitted_at", "shown_at"])
    return locked


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
