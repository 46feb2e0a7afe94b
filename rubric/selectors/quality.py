"""Reads for the quality views (DOMAIN §6): one reflection's rubric scores, and mean quality
with 95 % t-intervals by department, task type (and technical / judgment family), outcome,
kind and trigger gate (DOMAIN §4)."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings
from django.db.models import (
    Avg,
    Count,
    Exists,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Sum,
)

from reflections.caching import cached
from reflections.models import Kind, Outcome, Reflection
from reflexion_site.student_t import t_quantile
from rubric.models import CRITERIA, Rating
from rubric.selectors.gate import (
    GATED,
    UNGATED,
    UNKNOWN,
    gate_class,
    with_gate_inputs,
)

CONFIDENCE = 0.95
TECHNICAL, JUDGMENT, OTHER = "technical", "judgment", "other"
NONE = "none"  # a reflection without an outcome (decisions) or without a task type

# Reference means of the reference study (DOMAIN §4 and §6), shown beside our own numbers
# and never mixed into them.
REFERENCE = {
    "gate": {GATED: 0.68, UNGATED: 0.41},
    "task_family": {TECHNICAL: 0.78, JUDGMENT: 0.41},
}

# Which task types are technical (the work is checked against a system: code, ledgers, data
# syncs, calendars — a wrong lesson shows up as a failing check) and which are judgment calls
# (persuasion, writing, prioritising for people — no system says what was right). These are
# the demo's task types (demo/content/); a deployment sets its own in the setting
# QUALITY_TASK_FAMILIES ({task type: "technical" | "judgment"}). Unlisted types are "other".
DEFAULT_TASK_FAMILIES = {
    **dict.fromkeys(
        (
            "reconciliation",
            "invoicing",
            "expense-classification",
            "crm-update",
            "enrichment",
            "list-dedup",
            "crm-import",
            "calendar",
            "reminder",
            "programming",
            "onboarding",
            "document-filing",
            "call-summary",
        ),
        TECHNICAL,
    ),
    **dict.fromkeys(
        (
            "payment-reminder",
            "outreach",
            "proposal",
            "follow-up",
            "prospect-research",
            "appointment-setting",
            "no-show-followup",
            "handoff",
            "status-report",
            "email",
            "travel-booking",
            "blog-draft",
            "social-post",
            "newsletter",
            "image-brief",
            "call-handling",
            "voicemail-triage",
            "callback-scheduling",
        ),
        JUDGMENT,
    ),
}

BREAKDOWNS = {  # key → the table's title, in the page's order
    "overall": "All rated reflections",
    "gate": "Trigger gate",
    "task_family": "Task family",
    "task_type": "Task type",
    "department": "Department",
    "outcome": "Outcome",
    "kind": "Kind",
}
GATE_LABELS = {
    GATED: "Gated (the task met the trigger gate)",
    UNGATED: "Ungated (written although the gate was not met)",
    UNKNOWN: "Unknown task",
}
FAMILY_LABELS = {TECHNICAL: "Technical", JUDGMENT: "Judgment", OTHER: "Other or none"}


def task_families() -> dict[str, str]:
    return getattr(settings, "QUALITY_TASK_FAMILIES", None) or DEFAULT_TASK_FAMILIES


def task_family(task_type: str, families: dict[str, str] | None = None) -> str:
    families = task_families() if families is None else families
    return families.get(task_type or "", OTHER)


# --------------------------------------------------------------------------- one reflection


@dataclass(frozen=True)
class ReflectionQuality:
    """A reflection's rubric scores: each criterion's mean over its raters (each rater's
    latest level counts once), the aggregate (mean of the four criterion means; None until
    every criterion has a rating) and how many raters scored it."""

    reflection_id: int
    criteria: dict[str, float | None]
    raters: int

    @property
    def aggregate(self) -> float | None:
        values = [self.criteria.get(c) for c in CRITERIA]
        if any(v is None for v in values):
            return None
        return sum(values) / len(values)

    @property
    def is_rated(self) -> bool:
        return self.raters > 0


def _latest_levels(rows: Iterable[tuple]) -> dict[int, dict[str, dict[int, float]]]:
    """(reflection, criterion, rater, level) rows in time order → the latest level of each
    rater per reflection and criterion (a later rating replaces an earlier one)."""
    out: dict[int, dict[str, dict[int, float]]] = defaultdict(lambda: defaultdict(dict))
    for reflection_id, criterion, rater_id, level in rows:
        out[reflection_id][criterion][rater_id] = level
    return out


def reflection_quality(reflection_ids: Iterable[int]) -> dict[int, ReflectionQuality]:
    """{id: ReflectionQuality} for each id asked for (unrated ones with no scores), one query."""
    ids = sorted(set(reflection_ids))
    if not ids:
        return {}
    rows = (
        Rating.objects.filter(reflection_id__in=ids)
        .order_by("rated_at", "id")
        .values_list("reflection_id", "criterion", "rater_id", "level")
    )
    latest = _latest_levels(rows)
    out = {}
    for pk in ids:
        by_criterion = latest.get(pk, {})
        raters: set[int] = set()
        criteria: dict[str, float | None] = {}
        for criterion in CRITERIA:
            levels = by_criterion.get(criterion, {})
            raters |= set(levels)
            criteria[criterion] = sum(levels.values()) / len(levels) if levels else None
        out[pk] = ReflectionQuality(reflection_id=pk, criteria=criteria, raters=len(raters))
    return out


# --------------------------------------------------------------------------- breakdowns


def t_interval(values: list[float], confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """mean ± t(0.975, n - 1) · s / √n for 95 % (s with n - 1); None below two values."""
    n = len(values)
    if n < 2:
        return None
    mean = statistics.fmean(values)
    half = t_quantile(n - 1, 0.5 + confidence / 2) * statistics.stdev(values) / math.sqrt(n)
    return float(mean - half), float(mean + half)


@dataclass(frozen=True)
class Group:
    key: str
    label: str
    n: int  # rated reflections (every criterion scored)
    mean: float | None  # mean of their aggregate scores
    interval: tuple[float, float] | None  # 95 % t-interval of that mean, clipped to 0…1
    criteria: dict[str, float | None] = field(default_factory=dict)  # per-criterion means
    reference: float | None = None  # the reference study's mean, where DOMAIN gives one

    @property
    def low(self) -> float | None:
        return self.interval[0] if self.interval else None

    @property
    def high(self) -> float | None:
        return self.interval[1] if self.interval else None


def _scope(
    since: date | None, until: date | None, department_ids: Iterable[int] | None
) -> QuerySet[Rating]:
    ratings = Rating.objects.all()
    if since is not None:
        ratings = ratings.filter(rated_at__gte=datetime.combine(since, time.min, tzinfo=UTC))
    if until is not None:
        end = datetime.combine(until + timedelta(days=1), time.min, tzinfo=UTC)
        ratings = ratings.filter(rated_at__lt=end)
    if department_ids is not None:
        ratings = ratings.filter(reflection__department_id__in=list(department_ids))
    return ratings


def _criterion_means(scope: QuerySet[Rating]) -> dict[int, dict[str, float]]:
    """Per reflection and criterion, the mean over raters of each rater's latest level in the
    scope, aggregated in SQL (a rating counts unless the same rater has a later one)."""
    later = scope.filter(
        rater_id=OuterRef("rater_id"),
        reflection_id=OuterRef("reflection_id"),
        criterion=OuterRef("criterion"),
    ).filter(
        Q(rated_at__gt=OuterRef("rated_at"))
        | Q(rated_at=OuterRef("rated_at"), id__gt=OuterRef("id"))
    )
    rows = (
        scope.filter(~Exists(later))
        .order_by()
        .values("reflection_id", "criterion")
        .annotate(mean=Avg("level"))
        .values_list("reflection_id", "criterion", "mean")
    )
    out: dict[int, dict[str, float]] = defaultdict(dict)
    for reflection_id, criterion, mean in rows:
        out[reflection_id][criterion] = mean
    return out


def _group(key: str, label: str, members: list[dict[str, float]], reference=None) -> Group:
    aggregates = [m["aggregate"] for m in members]
    return Group(
        key=key,
        label=label,
        n=len(members),
        mean=statistics.fmean(aggregates) if aggregates else None,
        interval=_on_scale(t_interval(aggregates)),
        criteria={
            c: statistics.fmean(m[c] for m in members) if members else None for c in CRITERIA
        },
        reference=reference,
    )


def quality_breakdowns(
    *,
    since: date | None = None,
    until: date | None = None,
    department_ids: Iterable[int] | None = None,
) -> dict[str, list[Group]]:
    """Mean aggregate quality with a 95 % t-interval over the reflections' aggregate scores,
    and per-criterion means, for each group of each breakdown (keys of BREAKDOWNS). A
    reflection counts once it has a rating on every criterion in the scope (ratings given
    from `since` to `until`, UTC days, both included; reflections of `department_ids`).

    Two queries whatever the data: the per-criterion means, then the reflections' features
    with their gate inputs."""
    scope = _scope(since, until, department_ids)
    means = _criterion_means(scope)
    rated = {pk: m for pk, m in means.items() if all(c in m for c in CRITERIA)}
    for m in rated.values():
        m["aggregate"] = sum(m[c] for c in CRITERIA) / len(CRITERIA)

    groups: dict[str, dict[str, list]] = {key: defaultdict(list) for key in BREAKDOWNS}
    labels: dict[str, dict[str, str]] = {key: {} for key in BREAKDOWNS}
    families = task_families()
    if rated:
        rows = with_gate_inputs(
            Reflection.objects.filter(pk__in=scope.values("reflection_id"))
        ).values_list(
            "id",
            "department__slug",
            "department__name",
            "task_type",
            "outcome",
            "kind",
            "task_id",
            "task_outcome",
            "task_confidence",
            "prior_of_type",
        )
        for pk, slug, dept, task_type, outcome, kind, task_id, t_out, t_conf, prior in rows:
            member = rated.get(pk)
            if member is None:
                continue
            gate = gate_class(
                task_id=task_id, task_outcome=t_out, task_confidence=t_conf, prior_of_type=prior
            )
            family = task_family(task_type, families)
            for key, value, label in (
                ("overall", "all", BREAKDOWNS["overall"]),
                ("gate", gate, GATE_LABELS[gate]),
                ("task_family", family, FAMILY_LABELS[family]),
                ("task_type", task_type or NONE, task_type or "No task type"),
                ("department", slug, dept),
                ("outcome", outcome or NONE, _choice_label(Outcome, outcome, "No outcome")),
                ("kind", kind, _choice_label(Kind, kind, kind)),
            ):
                groups[key][value].append(member)
                labels[key][value] = label

    order = {
        "gate": [GATED, UNGATED, UNKNOWN],
        "task_family": [TECHNICAL, JUDGMENT, OTHER],
        "outcome": [*Outcome.values, NONE],
        "kind": list(Kind.values),
    }
    out: dict[str, list[Group]] = {}
    for key in BREAKDOWNS:
        found = groups[key]
        references = REFERENCE.get(key, {})
        for k in references:  # a reference row shows even before anything is rated
            found.setdefault(k, [])
            labels[key].setdefault(k, {**GATE_LABELS, **FAMILY_LABELS}[k])
        wanted = order.get(key)
        if wanted is not None:
            keys = [k for k in wanted if k in found] + sorted(set(found) - set(wanted))
        elif key == "department":
            keys = sorted(found, key=lambda k: (labels[key][k].lower(), k))
        else:
            keys = sorted(found, key=lambda k: (k == NONE, k))
        out[key] = [_group(k, labels[key][k], found[k], references.get(k)) for k in keys]
    return out


def _on_scale(interval: tuple[float, float] | None) -> tuple[float, float] | None:
    # Scores live on 0…1; a t-interval of a small group can reach past either end, and
    # "quality 1.37" would read as a bug. The ends are clipped, the centre is untouched.
    if interval is None:
        return None
    return max(0.0, interval[0]), min(1.0, interval[1])


def _choice_label(choices, value: str, default: str) -> str:
    try:
        return choices(value).label
    except ValueError:
        return default


def ratings_fingerprint() -> tuple:
    """What changes whenever a rating is added, changed (its level and time are updated in
    place, rubric.services.rounds) or removed: one aggregate read."""
    found = Rating.objects.aggregate(
        n=Count("id"), last=Max("id"), latest=Max("rated_at"), levels=Sum("level")
    )
    return tuple(found.values())


def cached_quality_breakdowns(
    *,
    since: date | None = None,
    until: date | None = None,
    department_ids: Iterable[int] | None = None,
) -> dict[str, list[Group]]:
    """quality_breakdowns, kept under the memory's version (the gates read reflections and
    tasks) and the ratings' fingerprint: the quality page computes it once per change, not
    once per view (70-90 ms on the demo against the list's ~25)."""
    departments = tuple(sorted(department_ids)) if department_ids is not None else None
    return cached(
        "quality-breakdowns",
        (since, until, departments, ratings_fingerprint()),
        lambda: quality_breakdowns(since=since, until=until, department_ids=departments),
    )
