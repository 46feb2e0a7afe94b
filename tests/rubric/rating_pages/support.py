"""What the rating-page tests share: distinctive rater names, picks, URLs, rating as someone."""

from __future__ import annotations

from django.urls import reverse

from rubric.models import CRITERIA, RatingAssignment
from rubric.services.rounds import submit_rating

# Distinctive names, so finding one in a page cannot be a coincidence.
ANA, BEN, CY = "rater-anaxq", "rater-benzq", "rater-cywq"
ANA_COMMENT = "ana-private-comment-7731"
PICKS = {
    "level_specificity": "1",
    "level_actionability": "0.75",
    "level_transferability": "0.5",
    "level_accuracy": "0.25",
}


def rate_url(rating_round) -> str:
    return reverse("ratings:rate", kwargs={"pk": rating_round.pk})


def submit_url(assignment) -> str:
    return reverse(
        "ratings:submit",
        kwargs={"pk": assignment.item.rating_round_id, "assignment": assignment.pk},
    )


def next_of(rating_round, user) -> RatingAssignment:
    return (
        RatingAssignment.objects.filter(
            item__rating_round=rating_round, rater=user, submitted_at__isnull=True
        )
        .select_related("item__reflection")
        .order_by("item__position")
        .first()
    )


def rate_as(user, assignment, comment=""):
    submit_rating(
        assignment=assignment,
        user=user,
        levels={c: 0.75 for c in CRITERIA},
        comment=comment,
    )
