"""The quality rubric as versioned data (DOMAIN §6): the default v1, publishing the next
version, and the criterion blocks (question, level descriptions, anchors) pages render."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone

from reflections.scanning import typed
from rubric.models import CRITERIA, LEVELS, Anchor, Criterion, Level, Rubric


class RubricError(ValueError):
    """A rubric the rules refuse; the message is meant for the admin who wrote it."""


def level_label(level: float) -> str:
    """0, 0.25, 0.5, 0.75, 1 — how a level is written in forms, CSV and pages."""
    return f"{float(level):g}"


def default_rubric_spec() -> dict:
    """Version 1: the four criteria of DOMAIN §6, five levels each, with anchors (the four
    examples of the spec verbatim, the rest written in the same spirit)."""
    return {
        "criteria": [
            {
                "key": "specificity",
                "name": "Specificity",
                "question": "Does it name a concrete pattern — the situation, the signal, the "
                "tool or the numbers — rather than a generic truth?",
                "levels": {
                    0.0: "Empty or pure platitude: no situation or pattern at all.",
                    0.25: "Generic advice that would fit almost any task.",
                    0.5: "Names the kind of task, but not the signal that sets the case apart.",
                    0.75: "A concrete situation with one identifying signal, tool or number.",
                    1.0: "A precise pattern: situation, triggering signal and the concrete "
                    "response, specific enough to recognise the next time.",
                },
                "anchors": [
                    (
                        1.0,
                        "when a prospect has previously responded to a competitor's outreach "
                        "in Q4, prioritize differentiating-value messaging over feature-list "
                        "messaging in subsequent outreach",
                    ),
                    (
                        0.75,
                        "when a lead list comes from the Zapier webhook, check the region "
                        "field before enrichment",
                    ),
                    (0.5, "check imported lead data before enriching it"),
                    (0.25, "communication should be tailored"),
                    (0.0, "things went wrong; do better"),
                ],
            },
            {
                "key": "actionability",
                "name": "Actionability",
                "question": "Could a future agent change what it does because of it — is there "
                "a step, a moment to take it, and a way to take it?",
                "levels": {
                    0.0: "No action at all: a description of what happened, or a feeling.",
                    0.25: "A vague exhortation (“be careful”, “verify things”).",
                    0.5: "An action, but no moment to take it or no way to do it.",
                    0.75: "A clear action with its moment, though the means is left open.",
                    1.0: "A rule an agent can follow as written: when, what, and with what "
                    "tool or check.",
                },
                "anchors": [
                    (
                        1.0,
                        "on sales-to-delivery handoffs with discounted-price agreements, verify "
                        "discount compatibility with standard onboarding template before "
                        "kickoff using the discount-compatibility checker",
                    ),
                    (
                        0.75,
                        "before kickoff of a discounted deal, check the discount against the "
                        "onboarding template",
                    ),
                    (0.5, "discounts should be checked against onboarding"),
                    (0.25, "verify things before kickoff"),
                    (0.0, "the kickoff was stressful for everybody"),
                ],
            },
            {
                "key": "transferability",
                "name": "Transferability",
                "question": "Does the lesson generalise beyond the one task, client or day it "
                "came from, to other tasks of its kind?",
                "levels": {
                    0.0: "Only true of that one task (a single client, date or file).",
                    0.25: "Tied to one client or one occasion; others gain little.",
                    0.5: "Useful for the same kind of task in the same department.",
                    0.75: "Carries over to related task types or other departments.",
                    1.0: "A general pattern any agent facing the situation could apply.",
                },
                "anchors": [
                    (
                        1.0,
                        "whenever a message names a time for someone in another time zone, "
                        "state it in their local time with the zone name",
                    ),
                    (
                        0.75,
                        "before sending a bulk update to a CRM, compare record counts before "
                        "and after on a small batch",
                    ),
                    (
                        0.5,
                        "when writing the weekly status report, open with one line per workstream",
                    ),
                    (0.25, "Copperleaf Hotels wants the status colour first on Tuesdays"),
                    (0.0, "invoice 4471 of 3 March was entered twice"),
                ],
            },
            {
                "key": "accuracy",
                "name": "Accuracy",
                "question": "Is the claim correct — supported by what happened and consistent "
                "with how the tools and the business actually work?",
                "levels": {
                    0.0: "Wrong: following it would cause the failure it describes or another.",
                    0.25: "Mostly unsupported: the cause it names is not what the text shows.",
                    0.5: "Plausible but unverified, or right only in part.",
                    0.75: "Supported by what happened, with a small overreach.",
                    1.0: "Correct and fully supported by the account of the task.",
                },
                "anchors": [
                    (
                        1.0,
                        "the webhook dropped the region field for 6 leads, so send a test lead "
                        "and compare every field after any column change",
                    ),
                    (
                        0.75,
                        "posts with one link got more clicks, so keep one link per post (shown "
                        "for one channel, stated for all)",
                    ),
                    (
                        0.5,
                        "the report was late because the template is slow (the text shows the "
                        "data arrived late)",
                    ),
                    (
                        0.25,
                        "the import failed because the file was too large (the error shows a "
                        "date format the parser rejected)",
                    ),
                    (0.0, "always skip the duplicate check to save time"),
                ],
            },
        ]
    }


def validate_spec(spec: dict) -> dict:
    """The spec with levels as floats and anchors as (float, str), or RubricError."""
    problems = []
    criteria = spec.get("criteria") or []
    keys = [c.get("key") for c in criteria]
    if tuple(keys) != CRITERIA:
        raise RubricError(f"the rubric has the criteria {', '.join(CRITERIA)}, in that order")
    clean = []
    for c in criteria:
        key = c["key"]
        question = str(c.get("question") or "").strip()
        if not question:
            problems.append(f"{key}: the question is empty")
        levels = {float(v): str(d or "").strip() for v, d in (c.get("levels") or {}).items()}
        if set(levels) != set(LEVELS):
            problems.append(f"{key}: give a description for each of the levels")
        for value in LEVELS:
            if not levels.get(value):
                problems.append(f"{key}: level {level_label(value)} has no description")
        anchors = []
        for value, text in c.get("anchors") or []:
            if float(value) not in LEVELS:
                problems.append(f"{key}: {value!r} is not a level")
            elif str(text).strip():
                anchors.append((float(value), str(text).strip()))
        clean.append(
            {
                "key": key,
                "name": str(c.get("name") or key.capitalize()).strip(),
                "question": question,
                "levels": levels,
                "anchors": anchors,
            }
        )
    if problems:
        raise RubricError("; ".join(problems))
    return {"criteria": clean}


def _create_version(*, version: int, spec: dict, user, note: str) -> Rubric:
    spec = validate_spec(spec)
    rubric = Rubric.objects.create(
        version=version, note=typed(note), created_at=timezone.now(), created_by=user
    )
    levels, anchors = [], []
    for position, c in enumerate(spec["criteria"]):
        criterion = Criterion.objects.create(
            rubric=rubric, key=c["key"], name=c["name"], question=c["question"], position=position
        )
        levels += [
            Level(criterion=criterion, value=v, description=d) for v, d in c["levels"].items()
        ]
        anchors += [Anchor(criterion=criterion, value=v, text=t) for v, t in c["anchors"]]
    Level.objects.bulk_create(levels)
    Anchor.objects.bulk_create(anchors)
    return rubric


def ensure_rubric() -> Rubric:
    """The current rubric, creating v1 from the default spec when there is none. Safe to
    call from every page and command: a concurrent first call loses the unique version."""
    rubric = Rubric.objects.order_by("-version").first()
    if rubric is not None:
        return rubric
    try:
        with transaction.atomic():
            return _create_version(
                version=1, spec=default_rubric_spec(), user=None, note="The default rubric."
            )
    except IntegrityError:
        return Rubric.objects.order_by("-version").first()


def current_rubric() -> Rubric:
    """The newest version: what new scores are given under."""
    return ensure_rubric()


@transaction.atomic
def publish_rubric(*, spec: dict, user, note: str) -> Rubric:
    """Publish the spec as version N+1. Older versions stay exactly as they were, so every
    score keeps meaning what it meant when it was given."""
    note = (note or "").strip()
    if not note:
        raise RubricError("say what changed: a note is required")
    ensure_rubric()
    # Lock the newest row so two admins publishing at once get N+1 and N+2, not a clash.
    latest = Rubric.objects.select_for_update().order_by("-version").first()
    return _create_version(version=latest.version + 1, spec=spec, user=user, note=note)


def rubric_spec(rubric: Rubric) -> dict:
    """A stored version as a spec: the edit form's starting point."""
    return {
        "criteria": [
            {
                "key": c.key,
                "name": c.name,
                "question": c.question,
                "levels": {lv.value: lv.description for lv in c.levels.all()},
                "anchors": [(a.value, a.text) for a in c.anchors.all()],
            }
            for c in load_criteria(rubric)
        ]
    }


def load_criteria(rubric: Rubric) -> list[Criterion]:
    """The rubric's criteria with their levels and anchors: three queries whatever the size."""
    return list(
        Criterion.objects.filter(rubric=rubric)
        .order_by("position")
        .prefetch_related(
            Prefetch("levels", queryset=Level.objects.order_by("value")),
            Prefetch("anchors", queryset=Anchor.objects.order_by("-value", "id")),
        )
    )


@dataclass(frozen=True)
class LevelChoice:
    value: float
    label: str  # "0.25": the input's value
    key: str  # "2": the keyboard key that picks it (1 to 5)
    description: str
    checked: bool


@dataclass(frozen=True)
class AnchorView:
    value: float
    label: str
    text: str


@dataclass(frozen=True)
class CriterionBlock:
    """What templates/rubric/_criterion.html renders for one criterion."""

    key: str
    name: str
    question: str
    levels: list[LevelChoice]
    anchors: list[AnchorView] = field(default_factory=list)
    selected: float | None = None

    @property
    def input_name(self) -> str:
        return f"level_{self.key}"


def criterion_blocks(
    criteria: list[Criterion], selected: dict[str, float] | None = None
) -> list[CriterionBlock]:
    """One block per criterion (from load_criteria), with the given levels checked."""
    selected = selected or {}
    blocks = []
    for c in criteria:
        chosen = selected.get(c.key)
        blocks.append(
            CriterionBlock(
                key=c.key,
                name=c.name,
                question=c.question,
                levels=[
                    LevelChoice(
                        value=lv.value,
                        label=level_label(lv.value),
                        key=str(i + 1),
                        description=lv.description,
                        checked=chosen is not None and float(chosen) == lv.value,
                    )
                    for i, lv in enumerate(c.levels.all())
                ],
                anchors=[
                    AnchorView(a.value, level_label(a.value), a.text) for a in c.anchors.all()
                ],
                selected=chosen,
            )
        )
    return blocks
