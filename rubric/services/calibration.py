"""Calibration (DOMAIN §6): building a calibration set with gold scores, raters' blind
attempts on it, scoring an attempt against gold, the managers' policy, and the demo set."""

from __future__ import annotations

import csv
import hashlib
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone

from reflections.models import Reflection, State
from rubric.agreement import kappa
from rubric.eligibility import latest_attempt, quarter_of
from rubric.models import (
    CRITERIA,
    LEVELS,
    CalibrationAttempt,
    CalibrationItem,
    CalibrationPolicy,
    CalibrationRating,
    CalibrationSet,
    GoldScore,
)
from rubric.services.rubric import current_rubric, level_label

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
        name=name, is_active=activate, created_at=timezone.now(), created_by=user
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
# Attempts


def open_attempt(user) -> CalibrationAttempt | None:
    """The rater's unsubmitted attempt on the active set: where they resume."""
    return (
        CalibrationAttempt.objects.filter(
            rater=user, submitted_at__isnull=True, calibration_set__is_active=True
        )
        .order_by("-started_at", "-id")
        .first()
    )


@transaction.atomic
def start_attempt(*, user) -> CalibrationAttempt:
    """Resume the rater's open attempt, or start one on the active set under the current
    rubric (the version every score of the attempt is given under)."""
    resumed = open_attempt(user)
    if resumed is not None:
        return resumed
    calibration_set = active_set()
    if calibration_set is None:
        raise CalibrationError("there is no calibration set yet; an admin builds one")
    return CalibrationAttempt.objects.create(
        rater=user,
        calibration_set=calibration_set,
        rubric=current_rubric(),
        started_at=timezone.now(),
    )


def attempt_levels(attempt: CalibrationAttempt) -> dict[int, dict[str, float]]:
    """item id → {criterion: level} the rater gave so far (one query)."""
    given: dict[int, dict[str, float]] = {}
    for item_id, criterion, level in attempt.scores.values_list("item_id", "criterion", "level"):
        given.setdefault(item_id, {})[criterion] = level
    return given


@dataclass(frozen=True)
class Progress:
    positions: list[int]
    rated: set[int]  # positions with every criterion rated

    @property
    def total(self) -> int:
        return len(self.positions)

    @property
    def done(self) -> int:
        return len(self.rated)

    @property
    def complete(self) -> bool:
        return self.done == self.total and self.total > 0

    def first_open(self, after: int = 0) -> int | None:
        """The next position without a full rating, wrapping round."""
        later = [p for p in self.positions if p > after and p not in self.rated]
        earlier = [p for p in self.positions if p <= after and p not in self.rated]
        return (later or earlier or [None])[0]

    def neighbours(self, position: int) -> tuple[int | None, int | None]:
        i = self.positions.index(position)
        previous = self.positions[i - 1] if i > 0 else None
        following = self.positions[i + 1] if i + 1 < len(self.positions) else None
        return previous, following


def attempt_progress(attempt: CalibrationAttempt, given: dict[int, dict] | None = None) -> Progress:
    """Positions of the set and which are fully rated (one query, plus one without `given`)."""
    given = attempt_levels(attempt) if given is None else given
    rows = list(attempt.calibration_set.items.values_list("position", "id"))
    rated = {p for p, item_id in rows if len(given.get(item_id, {})) == len(CRITERIA)}
    return Progress(positions=[p for p, _ in rows], rated=rated)


def _require_open(attempt: CalibrationAttempt) -> None:
    if attempt.submitted_at is not None:
        raise CalibrationError("this attempt is submitted; its ratings are final")


@transaction.atomic
def record_item_ratings(
    *, attempt: CalibrationAttempt, item: CalibrationItem, levels: dict[str, float]
) -> None:
    """Save (or change) the rater's four levels for one item: partial progress that resumes."""
    # Read under a lock, not from the caller's copy: a submission in between freezes it.
    _require_open(
        CalibrationAttempt.objects.select_for_update().only("submitted_at").get(pk=attempt.pk)
    )
    if item.calibration_set_id != attempt.calibration_set_id:
        raise CalibrationError("that item is not in this attempt's calibration set")
    missing = [c for c in CRITERIA if levels.get(c) is None]
    if missing:
        raise CalibrationError([f"{c}: pick a level" for c in missing])
    now = timezone.now()
    CalibrationRating.objects.filter(attempt=attempt, item=item).delete()
    CalibrationRating.objects.bulk_create(
        CalibrationRating(
            attempt=attempt, item=item, criterion=c, level=parse_level(levels[c]), rated_at=now
        )
        for c in CRITERIA
    )


@dataclass(frozen=True)
class Agreement:
    kappa: dict[str, float | None]  # per criterion and "pooled": quadratic-weighted κ
    exact: dict[str, float | None]  # share of exact matches


def agreement_with_gold(pairs: dict[str, list[tuple[float, float]]]) -> Agreement:
    """criterion → [(rater's level, gold level)] → κ and exact agreement per criterion and
    pooled over all criteria (every pair of every criterion together)."""
    kappas, exact = {}, {}
    pooled: list[tuple[float, float]] = []
    for criterion in CRITERIA:
        rows = pairs.get(criterion, [])
        pooled += rows
        kappas[criterion] = kappa([a for a, _ in rows], [g for _, g in rows], weights="quadratic")
        exact[criterion] = sum(a == g for a, g in rows) / len(rows) if rows else None
    kappas["pooled"] = kappa([a for a, _ in pooled], [g for _, g in pooled], weights="quadratic")
    exact["pooled"] = sum(a == g for a, g in pooled) / len(pooled) if pooled else None
    return Agreement(kappa=kappas, exact=exact)


def calibration_passed(pooled_kappa: float | None, pass_kappa: float) -> bool:
    """Pooled κ at or above the threshold passes; an undefined κ never does."""
    return pooled_kappa is not None and pooled_kappa >= pass_kappa - KAPPA_TOLERANCE


@transaction.atomic
def submit_attempt(*, attempt: CalibrationAttempt) -> CalibrationAttempt:
    """Score a complete attempt against gold, with the threshold in force now."""
    attempt = CalibrationAttempt.objects.select_for_update().get(pk=attempt.pk)
    _require_open(attempt)
    given = attempt_levels(attempt)
    progress = attempt_progress(attempt, given)
    if not progress.complete:
        left = progress.total - progress.done
        raise CalibrationError(f"{left} item{'s' if left != 1 else ''} still to rate")
    pairs: dict[str, list[tuple[float, float]]] = {c: [] for c in CRITERIA}
    gold = GoldScore.objects.filter(item__calibration_set=attempt.calibration_set_id)
    for item_id, criterion, level in gold.order_by("item__position", "criterion").values_list(
        "item_id", "criterion", "level"
    ):
        pairs[criterion].append((given[item_id][criterion], level))
    agreement = agreement_with_gold(pairs)
    policy = CalibrationPolicy.current()
    attempt.kappa = agreement.kappa
    attempt.exact = agreement.exact
    attempt.pass_kappa = policy.pass_kappa
    attempt.passed = calibration_passed(agreement.kappa["pooled"], policy.pass_kappa)
    attempt.submitted_at = timezone.now()
    attempt.save(update_fields=["kappa", "exact", "pass_kappa", "passed", "submitted_at"])
    return attempt


# ---------------------------------------------------------------------------------------------
# What a rater sees


@dataclass(frozen=True)
class RaterStatus:
    state: str  # none | in_progress | passed | failed | recalibrate | no_set
    latest: CalibrationAttempt | None
    open: CalibrationAttempt | None
    active_set: CalibrationSet | None


def rater_status(user, *, now: datetime | None = None) -> RaterStatus:
    """Where the rater stands (see reviews.calibration.is_calibrated for the rule)."""
    latest = latest_attempt(user)
    current = open_attempt(user)
    calibration_set = active_set()
    if latest is not None and latest.passed:
        policy = CalibrationPolicy.current()
        now = now or datetime.now(UTC)
        stale = policy.require_each_quarter and quarter_of(latest.submitted_at) != quarter_of(now)
        state = "recalibrate" if stale else "passed"
    elif latest is not None:
        state = "failed"
    else:
        state = "none"
    if current is not None:
        state = "in_progress" if state in {"none", "failed"} else state
    elif calibration_set is None and state == "none":
        state = "no_set"
    return RaterStatus(state=state, latest=latest, open=current, active_set=calibration_set)


@dataclass
class ResultRow:
    item: CalibrationItem
    criteria: list[dict] = field(default_factory=list)  # key, name, given, gold, match, anchors


def attempt_results(attempt: CalibrationAttempt, criteria) -> list[ResultRow]:
    """Per item: the rater's levels beside gold (only ever called after submission)."""
    if attempt.submitted_at is None:
        raise CalibrationError("gold is shown only after the attempt is submitted")
    given = attempt_levels(attempt)
    gold: dict[int, dict[str, float]] = {}
    for item_id, criterion, level in GoldScore.objects.filter(
        item__calibration_set=attempt.calibration_set_id
    ).values_list("item_id", "criterion", "level"):
        gold.setdefault(item_id, {})[criterion] = level
    rows = []
    items = attempt.calibration_set.items.select_related("reflection").order_by("position")
    for item in items:
        row = ResultRow(item=item)
        for c in criteria:
            mine, agreed = given.get(item.pk, {}).get(c.key), gold.get(item.pk, {}).get(c.key)
            row.criteria.append(
                {
                    "key": c.key,
                    "name": c.name,
                    "given": None if mine is None else level_label(mine),
                    "gold": None if agreed is None else level_label(agreed),
                    "match": mine is not None and mine == agreed,
                    "off_by": None if mine is None or agreed is None else abs(mine - agreed),
                    "gold_description": next(
                        (lv.description for lv in c.levels.all() if lv.value == agreed), ""
                    ),
                    "anchors": [a for a in c.anchors.all() if a.value == agreed],
                }
            )
        rows.append(row)
    return rows


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


# ---------------------------------------------------------------------------------------------
# The demo's set: gold from a documented heuristic on the text
#
# specificity      concrete tokens in the text — numbers, tool ids (`code`, tool-names),
#                  capitalised names mid-sentence: 0 → 0.25, 1 → 0.5, 2-3 → 0.75, 4+ → 1;
#                  a text under 12 words is 0.
# actionability    the lesson (the last section) and its action — an imperative (a rule
#                  verb opening a sentence, "always"/"never" …, or the word after a trigger
#                  clause's comma) or "I should / we must …": a trigger ("when", "whenever",
#                  "before", "after", "if", "once", "on") and an action → 0.75, plus a
#                  concrete object (a number or a tool id) → 1; an action alone → 0.5; words
#                  without a doable step → 0.25; no lesson → 0.
# transferability  from 0.5: +0.25 for a general quantifier (always, whenever, any, every),
#                  +0.25 when the lesson names no client or number, -0.25 when it names one,
#                  -0.25 for a decision record (one occasion); clamped to 0…1.
# accuracy         how much the lesson is supported by the rest of the account: the share of
#                  the lesson's content words that appear in what happened / why / what went
#                  wrong — ≥ 0.5 → 1, ≥ 0.3 → 0.75, ≥ 0.15 → 0.5, less → 0.25 (unsupported);
#                  0 only when there is no lesson to judge.

_NUMBER = re.compile(r"\b\d+(?:[.,:]\d+)?%?\b")
_CODE = re.compile(r"`[^`]+`|\b[a-z]+(?:[-_][a-z0-9]+)+\b")
_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]+(?: [A-Z][a-z]+)*")
_TRIGGER = re.compile(r"\b(when|whenever|before|after|if|once|on)\b", re.I)
_RULE_VERBS = (
    "check|send|state|write|open|attach|compare|confirm|verify|ask|use|run|split|put|name|add|"
    "set|keep|wait|read|test|match|call|book|mark|list|flag|give|include|start|lead|reply|"
    "escalate|record|copy|re-run|rerun|pull|filter|lock|schedule|sort|tag|move|double-check|"
    "prioritize|prioritise|offer|quote|skip|drop|link|close|return|export|hand|enrich|convert|"
    "post|confirm|remind|update|log|review|avoid|treat|prefer|route|retry|reconcile|tell"
)
_ACTION = re.compile(
    r"\b(?:i|we) (?:should|must|need to|will) (?!not\b)[a-z]+"
    r"|(?:^|[.!?]\s+)(?:always|never|do not|don't|first)\b"
    r"|\b(?:when|whenever|before|after|if|once)\b[^,.;]*,\s*(?:always |first )?[a-z]+"
    rf"|(?:^|[.!?]\s+)(?:{_RULE_VERBS})\b",
    re.I,
)
_GENERAL = re.compile(r"\b(always|whenever|any|every|each)\b", re.I)
_WORD = re.compile(r"[a-z][a-z'-]{3,}")
_STOP = frozenset(
    [
        "that",
        "this",
        "with",
        "from",
        "when",
        "then",
        "they",
        "them",
        "their",
        "there",
        "what",
        "which",
        "should",
        "would",
        "could",
        "have",
        "been",
        "were",
        "will",
        "into",
        "than",
        "also",
        "only",
        "just",
        "first",
        "every",
        "always",
        "never",
        "before",
        "after",
        "about",
        "whenever",
        "because",
    ]
)


def _level(score: float) -> float:
    return min(LEVELS, key=lambda level: (abs(level - score), level))


def heuristic_gold(reflection: Reflection) -> dict[str, float]:
    """Plausible gold levels from the text alone (rules above); deterministic."""
    sections = [s for s in reflection.sections or [] if isinstance(s, dict)]
    bodies = [str(s.get("body") or "") for s in sections]
    text = " ".join(bodies) or reflection.body
    lesson = bodies[-1] if len(bodies) > 1 else ""
    account = " ".join(bodies[:-1])

    concrete = len(_NUMBER.findall(text)) + len(_CODE.findall(text)) + len(_NAME.findall(text))
    concrete += len(reflection.tools or [])
    if len(text.split()) < 12:
        specificity = 0.0
    else:
        specificity = [0.25, 0.5, 0.75, 0.75][concrete] if concrete < 4 else 1.0

    has_trigger = bool(_TRIGGER.search(lesson))
    has_action = bool(_ACTION.search(lesson))
    names_object = bool(_NUMBER.search(lesson) or _CODE.search(lesson))
    if not lesson.strip():
        actionability = 0.0
    elif has_trigger and has_action:
        actionability = 1.0 if names_object else 0.75
    elif has_action:
        actionability = 0.5
    else:
        # Words without a doable step ("be careful", "things") — vague, not absent.
        actionability = 0.25

    transferability = 0.5
    if _GENERAL.search(lesson):
        transferability += 0.25
    if _NAME.search(lesson) or _NUMBER.search(lesson):
        transferability -= 0.25
    else:
        transferability += 0.25
    if reflection.kind == "decision":
        transferability -= 0.25
    transferability = _level(max(0.0, min(1.0, transferability)))

    words = {w for w in _WORD.findall(lesson.lower()) if w not in _STOP}
    seen = {w for w in _WORD.findall(account.lower())}
    share = len(words & seen) / len(words) if words else 0.0
    accuracy = (
        1.0
        if share >= 0.5
        else 0.75
        if share >= 0.3
        else 0.5
        if share >= 0.15
        else 0.25
        if lesson.strip()
        else 0.0
    )
    return {
        "specificity": specificity,
        "actionability": actionability,
        "transferability": transferability,
        "accuracy": accuracy,
    }


def _stable(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def pick_demo_reflections(size: int = CALIBRATION_SIZE) -> list[Reflection]:
    """`size` non-quarantined reflections spread across departments and kinds: the
    (department, kind) strata in turn — kinds rotating so each department gets each kind —
    and within a stratum the reflections in the order of their source paths' hashes (stable
    across machines and imports); a second round when there are fewer strata than `size`."""
    rows = Reflection.objects.exclude(state=State.QUARANTINED).values_list(
        "pk", "source_path", "department__slug", "kind"
    )
    strata: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for pk, path, department, kind in rows:
        strata.setdefault((department, kind), []).append((_stable(path), pk))
    for candidates in strata.values():
        candidates.sort()
    departments = sorted({d for d, _ in strata})
    kinds = sorted({k for _, k in strata})
    order = [
        (department, kinds[(i + turn) % len(kinds)])
        for turn in range(len(kinds))
        for i, department in enumerate(departments)
    ]
    order = [stratum for stratum in order if stratum in strata]
    chosen: list[int] = []
    depth = 0
    while len(chosen) < size and any(len(strata[s]) > depth for s in order):
        chosen += [strata[s][depth][1] for s in order if len(strata[s]) > depth]
        depth += 1
    chosen = chosen[:size]
    picked = Reflection.objects.in_bulk(chosen)
    return [picked[pk] for pk in chosen]


def seed_demo_calibration(
    *, user=None, name: str = "Demo calibration set"
) -> CalibrationSet | None:
    """The demo's active set, gold from heuristic_gold; None (nothing done) when a set is
    already active or the memory is too small."""
    if active_set() is not None:
        return None
    reflections = pick_demo_reflections()
    if len(reflections) < CALIBRATION_SIZE:
        return None
    return build_calibration_set(
        name=name,
        reflections_with_gold=[(r, heuristic_gold(r)) for r in reflections],
        user=user,
        activate=True,
    )
