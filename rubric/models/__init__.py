"""The quality rubric's models (DOMAIN §6), one module per stage; import them from here."""

from rubric.models.calibration import (
    CalibrationAttempt,
    CalibrationItem,
    CalibrationPolicy,
    CalibrationRating,
    CalibrationSet,
    GoldScore,
)
from rubric.models.rounds import Rating, RatingAssignment, RatingRound, RoundItem
from rubric.models.rubric import CRITERIA, LEVELS, Anchor, Criterion, Level, Rubric

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
    "GoldScore",
    "Level",
    "Rating",
    "RatingAssignment",
    "RatingRound",
    "RoundItem",
    "Rubric",
]
