"""The demo's calibration set: 30 reflections spread over departments and kinds, gold from a
documented heuristic on the text (never shown to raters before they submit)."""

import hashlib
import re

from django.contrib.auth import get_user_model

from demo.errors import DemoSeedError
from reflections.models import Reflection, State
from rubric.models import (
    LEVELS,
    CalibrationSet,
)
from rubric.services.calibration_sets import CALIBRATION_SIZE, active_set, build_calibration_set

ADMIN = "admin-demo"  # who builds the demo's set, when create_demo_users has run

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


def ensure_demo_calibration() -> tuple[CalibrationSet, bool]:
    """The active calibration set and whether this call built it (the demo's, as ADMIN)."""
    existing = active_set()
    if existing is not None:
        return existing, False
    admin = get_user_model().objects.filter(username=ADMIN).first()
    built = seed_demo_calibration(user=admin)
    if built is None:
        raise DemoSeedError(
            f"fewer than {CALIBRATION_SIZE} non-quarantined reflections: import the demo first"
        )
    return built, True
