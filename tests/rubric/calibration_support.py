"""What the calibration tests share: pages as soup, clients, gold, posts, rating a whole set."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rubric.models import (
    CRITERIA,
    LEVELS,
)
from rubric.services.calibration import (
    record_item_ratings,
    start_attempt,
    submit_attempt,
)
from rubric.services.calibration_sets import (
    build_calibration_set,
)

pytestmark = pytest.mark.django_db


SPEC_ANCHORS = {
    ("specificity", 1.0): "when a prospect has previously responded to a competitor's outreach in "
    "Q4, prioritize differentiating-value messaging over feature-list messaging in subsequent "
    "outreach",
    ("specificity", 0.25): "communication should be tailored",
    ("actionability", 1.0): "on sales-to-delivery handoffs with discounted-price agreements, "
    "verify discount compatibility with standard onboarding template before kickoff using the "
    "discount-compatibility checker",
    ("actionability", 0.25): "verify things before kickoff",
}


def gold_for(n: int) -> dict[str, float]:
    """Varied, deterministic gold: every criterion uses several levels across the set."""
    return {c: LEVELS[(n + i) % len(LEVELS)] for i, c in enumerate(CRITERIA)}


def levels_post(levels: dict[str, float]) -> dict[str, str]:
    return {f"level_{c}": f"{v:g}" for c, v in levels.items()}


def item_url(attempt, position, action=""):
    name = "calibration:rate" if action == "rate" else "calibration:item"
    return reverse(name, kwargs={"pk": attempt.pk, "position": position})


def revealed_positions(attempt) -> list[int]:
    """Positions whose gold a submitted attempt shows, in serving order (not held out)."""
    return [p for p in attempt.order if p not in set(attempt.held_out)]


def rate_all(attempt, levels_of=lambda item: {c: 0.5 for c in CRITERIA}):
    for item in attempt.calibration_set.items.order_by("position"):
        record_item_ratings(attempt=attempt, item=item, levels=levels_of(item))


def normalised(response) -> str:
    """The HTML without what differs between two renders of the same page (tokens, nonces)."""
    html = response.content.decode()
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    return re.sub(r'nonce="[^"]+"', "", html)


# Quadratic-weighted κ of rater indices (0, 1, 2, 3) against gold (1, 0, 3, 2) is exactly 3/5:
# observed Σw·O = 1/16, expected Σw·E = 5/32 (weights (i-j)²/16), κ = 1 - (1/16)/(5/32) = 0.6.
EDGE_RATER = [0.0, 0.25, 0.5, 0.75]
EDGE_GOLD = [0.25, 0.0, 0.75, 0.5]


def tiny_set(memory, gold_levels):
    return build_calibration_set(
        name="Four",
        reflections_with_gold=[
            (r, {c: level for c in CRITERIA}) for r, level in zip(memory, gold_levels, strict=False)
        ],
        user=None,
        size=None,
    )


def submit_with(rater, rater_levels):
    attempt = start_attempt(user=rater)
    rate_all(attempt, lambda item: {c: rater_levels[item.position - 1] for c in CRITERIA})
    return submit_attempt(attempt=attempt)
