"""Calibration sets (DOMAIN §6): gold scores from a CSV, building and activating a set, and the
managers' pass policy."""

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone

from reflections.models import Reflection, State
from reflections.scanning import typed
from rubric.models import (
    CRITERIA,
    LEVELS,
    CalibrationItem,
    CalibrationPolicy,
    CalibrationSet,
    GoldScore,
)
from rubric.services.rubric import level_label

CALIBRATION_SIZE = 30
CSV_COLUMNS = ("reflection", *CRITERIA)
# Pooled κ is computed in floating point; a κ that is exactly the threshold on paper may land
# a hair below it, and "exactly 0.6 passes" must hold.
KAPPA_TOLERANCE = 1e-9


class CalibrationError(ValueError):
    """A request the calibration rules refuse; `problems` lists each one for the person."""

    def __init__(self, problems: str | Sequence[str]):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))


# ---------------------------------------------------------------------------------------------
# Building a set


def parse_level(text: str) -> float:
    try:
        value = float(str(text).strip())
    except ValueError:
        value = None
    if value not in LEVELS:
        raise ValueError(
            f"{str(text).strip()!r} is not a level ({', '.join(map(level_label, LEVELS))})"
        )
    return value


@dataclass(frozen=True)
class GoldLine:
    line: int
    reflection: str  # an id or a source path, as written
    gold: dict[str, float]


def parse_gold_csv(text: str) -> tuple[list[GoldLine], list[str]]:
    """`reflection,specificity,actionability,transferability,accuracy` lines (a header line
    is optional; blank lines and # comments are skipped) → lines and per-line errors. A line
    with an error may still be returned (with the levels that parsed): build nothing unless
    the errors are empty."""
    rows, errors = [], []
    reader = csv.reader(io.StringIO(text or ""))
    for number, cells in enumerate(reader, start=1):
        cells = [c.strip() for c in cells]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if [c.lower() for c in cells] == list(CSV_COLUMNS):
            continue
        if len(cells) != len(CSV_COLUMNS):
            errors.append(
                f"line {number}: expected {len(CSV_COLUMNS)} fields "
                f"({','.join(CSV_COLUMNS)}), found {len(cells)}"
            )
            continue
        gold = {}
        if not cells[0]:
            errors.append(f"line {number}, reflection: empty")
        for criterion, cell in zip(CRITERIA, cells[1:], strict=True):
            try:
                gold[criterion] = parse_level(cell)
            except ValueError as error:
                errors.append(f"line {number}, {criterion}: {error}")
        if cells[0]:
            # Kept even with a bad level, so its reflection is checked too: one pass shows
            # every problem of the paste.
            rows.append(GoldLine(line=number, reflection=cells[0], gold=gold))
    return rows, errors


def resolve_gold_lines(lines: Iterable[GoldLine]) -> tuple[list[tuple[Reflection, dict]], list]:
    """Each line's reflection by id or source path (two queries), with per-line errors."""
    lines = list(lines)
    ids = {int(g.reflection) for g in lines if g.reflection.isdigit()}
    paths = {g.reflection for g in lines if not g.reflection.isdigit()}
    by_id = {r.pk: r for r in Reflection.objects.filter(pk__in=ids)} if ids else {}
    by_path = (
        {r.source_path: r for r in Reflection.objects.filter(source_path__in=paths)}
        if paths
        else {}
    )
    found, errors, seen = [], [], {}
    for g in lines:
        reflection = (
            by_id.get(int(g.reflection)) if g.reflection.isdigit() else by_path.get(g.reflection)
        )
        if reflection is None:
            errors.append(f"line {g.line}, reflection: no reflection {g.reflection!r}")
        elif reflection.state == State.QUARANTINED:
            errors.append(
                f"line {g.line}, reflection: {g.reflection!r} is quarantined and cannot be "
                "shown to raters"
            )
        elif reflection.pk in seen:
            errors.append(
                f"line {g.line}, reflection: {g.reflection!r} is already on line "
                f"{seen[reflection.pk]}"
            )
        else:
            seen[reflection.pk] = g.line
            found.append((reflection, g.gold))
    return found, errors


@transaction.atomic
def build_calibration_set(
    *,
    name: str,
    reflections_with_gold: Sequence[tuple[Reflection, dict[str, float]]],
    user,
    activate: bool = True,
    size: int | None = CALIBRATION_SIZE,
) -> CalibrationSet:
    """A calibration set of `size` reflections (30 normally; None accepts any number), each
    with a gold level on every criterion. All or nothing; activating it retires the set new
    raters calibrated on until now (attempts keep theirs)."""
    problems = []
    name = (name or "").strip()
    if not name:
        problems.append("name: required")
    if size is not None and len(reflections_with_gold) != size:
        problems.append(
            f"a calibration set has {size} reflections; {len(reflections_with_gold)} given"
        )
    if not reflections_with_gold:
        problems.append("no reflections given")
    seen = set()
    for position, (reflection, gold) in enumerate(reflections_with_gold, start=1):
        if reflection.state == State.QUARANTINED:
            problems.append(f"item {position}: {reflection.source_path} is quarantined")
        if reflection.pk in seen:
            problems.append(f"item {position}: {reflection.source_path} is listed twice")
        seen.add(reflection.pk)
        for criterion in CRITERIA:
            level = (gold or {}).get(criterion)
            if level is None or float(level) not in LEVELS:
                problems.append(f"item {position}, {criterion}: no gold level")
    if problems:
        raise CalibrationError(problems)
    if activate:
        CalibrationSet.objects.filter(is_active=True).update(is_active=False)
    calibration_set = CalibrationSet.objects.create(
        name=typed(name)[:128], is_active=activate, created_at=timezone.now(), created_by=user
    )
    items = CalibrationItem.objects.bulk_create(
        CalibrationItem(calibration_set=calibration_set, reflection=reflection, position=position)
        for position, (reflection, _) in enumerate(reflections_with_gold, start=1)
    )
    GoldScore.objects.bulk_create(
        GoldScore(item=item, criterion=criterion, level=float(gold[criterion]))
        for item, (_, gold) in zip(items, reflections_with_gold, strict=True)
        for criterion in CRITERIA
    )
    return calibration_set


def active_set() -> CalibrationSet | None:
    return CalibrationSet.objects.filter(is_active=True).first()


# ---------------------------------------------------------------------------------------------
# Policy


@transaction.atomic
def set_calibration_policy(*, pass_kappa: float, require_each_quarter: bool, user) -> list[str]:
    """Change the managers' policy; each change is logged with who and when (admin log)."""
    policy = CalibrationPolicy.objects.select_for_update().get(pk=CalibrationPolicy.current().pk)
    changes = []
    if policy.pass_kappa != pass_kappa:
        changes.append(f"pass κ {policy.pass_kappa:g} → {pass_kappa:g}")
    if policy.require_each_quarter != require_each_quarter:
        changes.append(
            "recalibration every quarter "
            + ("required" if require_each_quarter else "not required")
        )
    if not changes:
        return []
    policy.pass_kappa = pass_kappa
    policy.require_each_quarter = require_each_quarter
    policy.updated_at = timezone.now()
    policy.updated_by = user
    policy.save()
    LogEntry.objects.create(
        user=user,
        content_type=ContentType.objects.get_for_model(CalibrationPolicy),
        object_id=str(policy.pk),
        object_repr=str(policy)[:200],
        action_flag=CHANGE,
        change_message="; ".join(changes),
    )
    return changes


def policy_history(limit: int = 50):
    """The policy's changes, newest first, with who made them."""
    return (
        LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(CalibrationPolicy))
        .select_related("user")
        .order_by("-action_time", "-id")[:limit]
    )
