"""The reviews app's models: quarterly review cycles (DOMAIN §5) and the quality rubric with
its calibration, rating rounds and ratings (DOMAIN §6)."""

from reviews.models.cycles import Decision, ReviewCycle, ReviewItem, Verdict
from reviews.models.ratings import (
    CRITERIA,
    LEVELS,
    Anchor,
    CalibrationAttempt,
    CalibrationItem,
    CalibrationPolicy,
    CalibrationRating,
    CalibrationSet,
    Criterion,
    GoldScore,
    Level,
    Rating,
    RatingAssignment,
    RatingRound,
    RoundItem,
    Rubric,
)

__all__ = [
    "CRITERIA",
    "LEVELS",
    "Anchor",
    "CalibrationAttempt",
    "CalibrationItem",
    "CalibrationPolicy",
    "CalibrationRating",
    "CalibrationSet",
    "Criterion",
    "Decision",
    "GoldScore",
    "Level",
    "Rating",
    "RatingAssignment",
    "RatingRound",
    "ReviewCycle",
    "ReviewItem",
    "RoundItem",
    "Rubric",
    "Verdict",
]
