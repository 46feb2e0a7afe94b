"""The duplicate signal, pure: which close neighbours teach the same lesson about the same
case, and which one of them the reviewer should keep (reviews.policies.preferred_original).

Text similarity alone cannot tell a duplicate from the same lesson learnt again on another
task: on the demo, such natural repeats score up to 0.93 while planted rewordings start at
0.39. A duplicate also names the same specifics: the same day, counterparties, amounts and
figures. So a neighbour is a duplicate when it is near-verbatim, or close and sharing them,
and never when both are dated and name different days.
"""

from __future__ import annotations

import re
from functools import lru_cache

from reviews.policies import preferred_original
from reviews.selectors.signal_facts import Twin
from reviews.signals.base import Signal

CANDIDATE_SIMILARITY = 0.4  # what the cluster is read from (shown on the page)
VERBATIM = 0.9  # at or above this, wording alone makes a duplicate
MIN_SHARED = 2  # specifics both name …
# … and their share of the specifics of the text that names fewer: a lesson retold in another
# format comes with that format's own story around it (who was waiting, how the work was split),
# so the case's specifics sit inside the longer text rather than matching it one for one.
MIN_OVERLAP = 0.7

MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# Calendar words alone name no case: every weekly lesson says "Monday". A date does.
CALENDAR = frozenset(w.lower() for w in MONTHS + WEEKDAYS)
_DATE = re.compile(rf"\b\d{{1,2}} (?:{'|'.join(MONTHS)})\b")
# Capitalised words that open a clause after a colon or a quote: grammar, not names.
OPENERS = frozenset(
    ["the", "a", "an", "i", "it", "this", "that", "we", "they", "he", "she", "if", "when", "then"]
)
_SPECIFIC = re.compile(r"\b(?:\d[\d,.:]*\d|\d|[A-Z][a-zA-Z]+(?:[- ][A-Z][a-zA-Z]+)*)\b")


@lru_cache(maxsize=4096)  # the reviewed text is read against each neighbour
def specifics(text: str) -> frozenset[str]:
    """Dates, figures and proper names: "3 December", numbers, and capitalised words not
    opening a sentence."""
    found = set(_DATE.findall(text))
    text = _DATE.sub(" ", text)
    for match in _SPECIFIC.finditer(text):
        token = match.group(0)
        before = text[max(0, match.start() - 2) : match.start()]
        if token.lower() in CALENDAR or token.lower() in OPENERS:
            continue
        if any(c.isdigit() for c in token) or re.fullmatch(r"[a-z,;:] ", before):
            found.add(token)
    return frozenset(found)


def is_strong(token: str) -> bool:
    """A date, a figure of two digits or more, or a name of two words or more: rarely shared
    by chance (a single digit or a one-word product name often is)."""
    digits = sum(c.isdigit() for c in token)
    return (
        bool(_DATE.fullmatch(token))
        or digits >= 2
        or (not digits and (" " in token or "-" in token))
    )


def overlap(a: frozenset[str], b: frozenset[str]) -> tuple[int, float, bool]:
    """Shared specifics, their share of the smaller set, and whether one of them is strong."""
    both = a & b
    contained = len(both) / min(len(a), len(b)) if (a and b) else 0.0
    return len(both), contained, any(map(is_strong, both))


def dates(found: frozenset[str]) -> frozenset[str]:
    return frozenset(t for t in found if _DATE.fullmatch(t))


# What a lesson was learnt from: a failure (or partial) and a success teach different lessons,
# even about one task (a loop's failed pass and the pass that worked name the same case).
LESSON_SIDE = {"failure": "failure", "partial": "failure", "success": "success"}


def other_side(own: Twin, other: Twin) -> bool:
    mine, theirs = LESSON_SIDE.get(own.kind), LESSON_SIDE.get(other.kind)
    return bool(mine and theirs and mine != theirs)


def same_lesson(own: Twin, other: Twin) -> tuple[bool, int, float]:
    """Whether `other` teaches the lesson of `own` about the same case: near-verbatim or close
    and naming the same specifics, and never when both are dated and no date matches (two
    tasks on different days are two cases, however alike the lesson), nor when one was learnt
    from a failure and the other from a success."""
    mine, theirs = specifics(own.text), specifics(other.text)
    shared, contained, strong = overlap(mine, theirs)
    other_day = bool(dates(mine) and dates(theirs) and not dates(mine) & dates(theirs))
    # Two reflections on one task (a loop's passes) name the same case by construction: only
    # the wording of the lesson itself can make them one.
    one_task = bool(own.task) and own.task == other.task
    same = (
        not other_day
        and not other_side(own, other)
        and (
            other.similarity >= VERBATIM
            or (
                not one_task
                and other.similarity >= CANDIDATE_SIMILARITY
                and shared >= MIN_SHARED
                and strong
                and contained >= MIN_OVERLAP
            )
        )
    )
    return same, shared, contained


def score_duplicate(cluster: list[Twin]) -> Signal:
    """`cluster[0]` is the reviewed reflection, the rest its close neighbours."""
    own, others = cluster[0], cluster[1:]
    judged = [(other, *same_lesson(own, other)) for other in others]
    same = [j for j in judged if j[1]]
    threshold = (
        f"similarity ≥ {CANDIDATE_SIMILARITY:.2f} sharing ≥ {MIN_SHARED} names/figures/dates, "
        "one of them a date, a full name or a figure of two digits or more "
        f"(≥ {MIN_OVERLAP:.0%} of the fewer), or ≥ {VERBATIM:.2f} alone; never two different "
        "days, a failure's lesson and a success's, or two passes at one task short of verbatim"
    )
    if not same:
        near = max((o.similarity for o in others), default=0.0)
        return Signal(
            "duplicate",
            round(min(near, VERBATIM) * 0.5, 3),
            False,
            [
                f"no neighbour teaches the same lesson about the same case ({threshold}); "
                f"closest similarity {near:.2f}"
            ],
            keep=own.key,
        )
    keep = preferred_original([own] + [j[0] for j in same])
    best = max(same, key=lambda j: (j[0].similarity, j[3]))
    score = 0.5 + 0.25 * best[0].similarity + 0.25 * best[3]
    reasons = [f"cluster of {len(same) + 1} at {threshold}"]
    for other, _, shared, jaccard in sorted(same, key=lambda j: -j[0].similarity):
        reasons.append(
            f"{other.key}: similarity {other.similarity:.2f}, {shared} names/figures shared "
            f"({jaccard:.0%}), written {other.created_at:%Y-%m-%d}, {other.state}, "
            f"{other.retrievals} retrievals"
        )
    if keep is own:
        reasons.insert(0, "this is the one to keep (earliest live, most retrieved)")
        return Signal("duplicate", round(score * 0.5, 3), False, reasons, keep=own.key)
    reasons.insert(0, f"keep {keep.key} (earliest live, most retrieved); this one repeats it")
    return Signal("duplicate", round(score, 3), True, reasons, keep=keep.key)
